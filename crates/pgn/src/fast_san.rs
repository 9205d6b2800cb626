//! The hot path of PGN reading: strict SAN as PGN writes it (`Nf3`, `exd5`,
//! `Rae1`, `e8=Q+`, `O-O`), parsed straight from bytes without allocating,
//! and resolved with the core's [`Position::legal_movers_to`], which works
//! backwards from the arrival square without generating moves.
//!
//! It answers only when it is sure: one legal move (FIDE Art. 3) matches.
//! Anything else (other notations, lenient forms, illegal or ambiguous moves)
//! returns `None` and goes to the general reader, which also words the error.

use arbiter_chess::{Bitboard, CastlingSide, File, Move, Position, Rank, Role, Square};

#[inline]
fn square(f: u8, r: u8) -> Option<Square> {
    if (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r) {
        Some(Square::from_coords(
            File::new((f - b'a') as u32),
            Rank::new((r - b'1') as u32),
        ))
    } else {
        None
    }
}

#[inline]
fn piece_role(b: u8) -> Option<Role> {
    Some(match b {
        b'N' => Role::Knight,
        b'B' => Role::Bishop,
        b'R' => Role::Rook,
        b'Q' => Role::Queen,
        b'K' => Role::King,
        _ => return None,
    })
}

/// The legal move `s` names in `pos`, if `s` is strict SAN naming exactly one.
#[inline]
pub(crate) fn resolve(pos: &Position, s: &[u8]) -> Option<Move> {
    resolve_by(pos, s).map(|(m, _)| m)
}

/// [`resolve`], with the role of the piece that moves (the king for castling),
/// for [`Position::play_unchecked_by`]. Inlined into the visitors' move
/// handlers: the call and its register saves were ~20 instructions a move.
///
/// The three shapes of most moves (`e4`, `Nf3`, `Nxe5`/`exd5`) are read by
/// their length with one look at each byte; every other text goes to
/// [`resolve_general`], which reads the same shapes the same way.
#[inline(always)]
pub(crate) fn resolve_by(pos: &Position, s: &[u8]) -> Option<(Move, Role)> {
    let mut s = s;
    while let [rest @ .., b'+' | b'#'] = s {
        s = rest;
    }
    let (role, to, from_mask) = match *s {
        // A pawn's step: `e4`, by a pawn of that file (a capture names the
        // file it leaves, Appendix C.9).
        [f @ b'a'..=b'h', r @ b'1'..=b'8'] => {
            let to = square_at(f, r);
            (Role::Pawn, to, Bitboard::file(to.file()))
        }
        // A piece's move: `Nf3`.
        [p @ (b'N' | b'B' | b'R' | b'Q' | b'K'), f @ b'a'..=b'h', r @ b'1'..=b'8'] => {
            (piece_role(p)?, square_at(f, r), Bitboard::FULL)
        }
        // A capture by a piece: `Nxe5`.
        [p @ (b'N' | b'B' | b'R' | b'Q' | b'K'), b'x', f @ b'a'..=b'h', r @ b'1'..=b'8'] => {
            (piece_role(p)?, square_at(f, r), Bitboard::FULL)
        }
        // A capture by the pawn of a file: `exd5`.
        [p @ b'a'..=b'h', b'x', f @ b'a'..=b'h', r @ b'1'..=b'8'] => (
            Role::Pawn,
            square_at(f, r),
            Bitboard::file(File::new(u32::from(p - b'a'))),
        ),
        _ => return resolve_general(pos, s),
    };
    // A pawn reaching the last rank must name its piece (Art. 3.7 e): the
    // general form reads that.
    if role == Role::Pawn && to.rank() == Rank::EIGHTH.relative_to(pos.turn()) {
        return None;
    }
    // Exactly one piece of that kind can go there legally (Appendix C.10).
    let from = pos.legal_movers_to(role, to, from_mask).single()?;
    Some((
        Move {
            from,
            to,
            promotion: None,
        },
        role,
    ))
}

/// The square of a file letter `a`–`h` and a rank digit `1`–`8` (checked by
/// the caller).
#[inline(always)]
fn square_at(f: u8, r: u8) -> Square {
    Square::new(u32::from(r.wrapping_sub(b'1')) * 8 + u32::from(f.wrapping_sub(b'a')))
}

/// Every strict SAN shape (castling, promotions, disambiguation), without
/// the check marks: the cold path of [`resolve_by`].
#[inline(never)]
fn resolve_general(pos: &Position, s: &[u8]) -> Option<(Move, Role)> {
    let first = *s.first()?;
    if first == b'O' {
        let side = match s {
            b"O-O" => CastlingSide::KingSide,
            b"O-O-O" => CastlingSide::QueenSide,
            _ => return None,
        };
        return pos.legal_castling(side).map(|m| (m, Role::King));
    }
    let (role, start) = match piece_role(first) {
        Some(r) => (r, 1),
        None => (Role::Pawn, 0),
    };
    let mut j = s.len();
    let mut promotion = None;
    if j >= 2 && s[j - 2] == b'=' {
        promotion = Some(piece_role(s[j - 1]).filter(|r| *r != Role::King)?);
        j -= 2;
    }
    if j < start + 2 {
        return None;
    }
    let to = square(s[j - 2], s[j - 1])?;
    let mut mid = &s[start..j - 2];
    if let [rest @ .., b'x'] = mid {
        mid = rest;
    }
    let mut from_mask = Bitboard::FULL;
    if let [f @ b'a'..=b'h', rest @ ..] = mid {
        from_mask &= Bitboard::file(File::new((f - b'a') as u32));
        mid = rest;
    } else if role == Role::Pawn {
        // A pawn named by no file steps along its own (Appendix C.9).
        from_mask &= Bitboard::file(to.file());
    }
    if let [r @ b'1'..=b'8', rest @ ..] = mid {
        from_mask &= Bitboard::rank(Rank::new((r - b'1') as u32));
        mid = rest;
    }
    if !mid.is_empty() {
        return None;
    }
    // A pawn reaching the last rank names its piece, and only it (Art. 3.7 e).
    let last_rank = role == Role::Pawn && to.rank() == Rank::EIGHTH.relative_to(pos.turn());
    if last_rank != promotion.is_some() {
        return None;
    }
    // Exactly one piece of that kind can go there legally (Appendix C.10).
    let from = pos.legal_movers_to(role, to, from_mask).single()?;
    Some((
        Move {
            from,
            to,
            promotion,
        },
        role,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_the_core_on_every_legal_move_of_random_games() {
        use crate::generate::{GenOptions, Generator};
        let mut g = Generator::new(GenOptions {
            seed: 99,
            ..GenOptions::default()
        });
        let mut checked = 0;
        for i in 0..200 {
            let game = g.game(i);
            let mut pos = game.start;
            for node in &game.line.nodes {
                for m in pos.legal_moves() {
                    let san = pos.san(m);
                    assert_eq!(
                        resolve(&pos, san.as_bytes()),
                        Some(m),
                        "{san} in {}",
                        pos.fen()
                    );
                    let role = if pos.is_castling(m) {
                        Role::King
                    } else {
                        pos.role_at(m.from).expect("a piece moves")
                    };
                    assert_eq!(resolve_by(&pos, san.as_bytes()), Some((m, role)));
                    checked += 1;
                }
                pos.play_unchecked(node.mv);
            }
        }
        assert!(checked > 100_000);
    }

    #[test]
    fn never_accepts_what_the_core_rejects() {
        use crate::generate::{GenOptions, Generator};
        let mut g = Generator::new(GenOptions {
            seed: 5,
            ..GenOptions::default()
        });
        let files = "abcdefgh";
        let mut texts = Vec::new();
        for to in Square::all() {
            for role in ["", "N", "B", "R", "Q", "K"] {
                texts.push(format!("{role}{to}"));
                texts.push(format!("{role}x{to}"));
            }
            for f in files.chars() {
                texts.push(format!("{f}x{to}"));
                texts.push(format!("N{f}{to}"));
                for p in ["Q", "N", "K"] {
                    texts.push(format!("{f}x{to}={p}"));
                    texts.push(format!("{to}={p}"));
                }
            }
        }
        texts.push("O-O".into());
        texts.push("O-O-O".into());
        let mut accepted = 0;
        for i in 0..40 {
            let game = g.game(i);
            let mut pos = game.start;
            for node in &game.line.nodes {
                for t in &texts {
                    if let Some(m) = resolve(&pos, t.as_bytes()) {
                        assert_eq!(pos.parse_san(t), Ok(m), "{t} in {}", pos.fen());
                        accepted += 1;
                    }
                }
                pos.play_unchecked(node.mv);
            }
        }
        assert!(accepted > 10_000);
    }

    #[test]
    fn unsure_answers_are_none() {
        let p = Position::from_fen_auto("7k/8/8/8/8/2N1N3/8/K7 w - - 0 1").unwrap();
        assert_eq!(resolve(&p, b"Nd5"), None); // ambiguous
        assert_eq!(resolve(&p, b"Nd4"), None); // illegal
        assert_eq!(resolve(&p, b"Kb3"), None); // illegal
        assert!(resolve(&p, b"Kb2").is_some());
        assert_eq!(resolve(&p, b"Kb2!"), None); // not strict SAN: the general reader
        assert_eq!(resolve(&p, b"0-0"), None);
    }
}
