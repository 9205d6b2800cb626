//! How a game ended, in words and as a PGN `Termination` tag: views of the
//! Laws' outcome and of the event that ended the game.

use arbiter_chess::Color;
use arbiter_laws::{Action, Event, Game, Outcome, Score, Termination};

fn side(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The player who scored nothing while the other scored, if one did.
fn loser(o: &Outcome) -> Option<Color> {
    match (o.result.white, o.result.black) {
        (Score::Zero, Score::Half | Score::One) => Some(Color::White),
        (Score::Half | Score::One, Score::Zero) => Some(Color::Black),
        _ => None,
    }
}

/// A sentence saying how the game ended and under which Article (or match
/// rule), e.g. `"Black lost on time (Art. 6.9)"`; `None` while it goes on.
pub fn describe(game: &Game) -> Option<String> {
    let o = game.outcome()?;
    let last: Option<&Event> = game.events().last();
    let by = last.and_then(|e| e.by.player());
    let intended = match last.map(|e| &e.action) {
        // A correct claim leaves the position on the board as it was.
        Some(Action::Claim { mv: Some(m), .. }) => {
            format!(" on the intended move {}", game.position().san(*m))
        }
        _ => String::new(),
    };
    let claimant = by.map_or("", side);
    let reason = o
        .reason
        .as_deref()
        .map(|r| format!(": {r}"))
        .unwrap_or_default();
    let text = match o.termination {
        Termination::Checkmate => "checkmate".to_owned(),
        Termination::Stalemate => "stalemate".to_owned(),
        Termination::DeadPosition => {
            "dead position: neither player can checkmate by any series of legal moves".to_owned()
        }
        Termination::Resignation => format!("{} resigned", by.map_or("a player", side)),
        Termination::Agreement => "draw by agreement".to_owned(),
        Termination::ThreefoldRepetition => {
            format!("threefold repetition claimed by {claimant}{intended}")
        }
        Termination::FiftyMoves => format!("50-move rule claimed by {claimant}{intended}"),
        Termination::FivefoldRepetition => "fivefold repetition".to_owned(),
        Termination::SeventyfiveMoves => {
            "75 moves by each player without a capture or a pawn move".to_owned()
        }
        Termination::Timeout => match loser(o) {
            Some(c) => format!("{} lost on time", side(c)),
            None => "lost on time".to_owned(),
        },
        Termination::TimeoutDraw => {
            // The runner's flags fall only for the player having the move.
            let flagged = game.turn();
            format!(
                "{}'s flag fell, but {} cannot checkmate by any series of legal moves: drawn",
                side(flagged),
                side(!flagged)
            )
        }
        Termination::BothFlags => {
            "both flags fell, which first not to be established: drawn".to_owned()
        }
        Termination::IllegalMove => "illegal move".to_owned(),
        Termination::ArbiterDecision => "the arbiter's decision".to_owned(),
        Termination::Forfeit => match loser(o) {
            Some(c) => format!("{} forfeits{reason}", side(c)),
            None => format!("forfeit{reason}"),
        },
        Termination::Adjudication => format!("adjudicated {}{reason}", o.result),
    };
    Some(format!("{text} ({})", o.article.cite()))
}

/// The PGN `Termination` tag (PGN standard §9.8.1): `normal`, `time
/// forfeit`, `rules infraction` or `adjudication`; `unterminated` while the
/// game goes on.
pub fn pgn_termination(game: &Game) -> &'static str {
    Termination::pgn_tag_of(game.outcome().map(|o| o.termination))
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_laws::{Decision, Ground, Start};
    use arbiter_pgn::TimeControl;

    fn game(fen: Option<&str>, tc: &str) -> Game {
        Game::new(Start {
            fen: fen.map(str::to_owned),
            time_control: Some(TimeControl::parse(tc).unwrap()),
            ..Start::default()
        })
        .unwrap()
    }

    fn flag(t: u64) -> Event {
        Event::arbiter(t, Decision::Flag)
    }

    fn play(g: &mut Game, t: u64, san: &str) {
        let m = g.position().parse_san(san).unwrap();
        let by = g.turn();
        g.apply(Event::play(t, by, m)).unwrap();
    }

    #[test]
    fn flag_falls_win_or_draw_by_6_9() {
        // White has a king and a pawn, Black a bare king.
        let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
        let mut g = game(Some(fen), "1");
        g.apply(flag(1_000)).unwrap();
        assert_eq!(
            describe(&g).unwrap(),
            "White's flag fell, but Black cannot checkmate by any series of legal moves: drawn (Art. 6.9)"
        );
        assert_eq!(pgn_termination(&g), "time forfeit");
        let mut g = game(Some(fen), "1");
        play(&mut g, 10, "e3");
        g.apply(flag(1_010)).unwrap();
        assert_eq!(describe(&g).unwrap(), "Black lost on time (Art. 6.9)");
    }

    #[test]
    fn rulings_carry_their_reason() {
        let mut g = game(None, "60");
        assert_eq!(describe(&g), None);
        assert_eq!(pgn_termination(&g), "unterminated");
        let f = Event::forfeit(
            5,
            Color::White,
            Ground::MatchRule,
            "E sent bestmove e2e5: illegal",
        );
        g.apply(f).unwrap();
        assert_eq!(
            describe(&g).unwrap(),
            "White forfeits: E sent bestmove e2e5: illegal (match rule)"
        );
        assert_eq!(pgn_termination(&g), "rules infraction");
    }

    #[test]
    fn claims_name_the_claimant_and_the_intended_move() {
        let mut g = game(None, "60");
        let mut t = 0;
        for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"] {
            t += 10;
            play(&mut g, t, san);
        }
        let ng8 = g.position().parse_san("Ng8").unwrap();
        let claim = Event::claim_threefold(t + 10, Color::Black, Some(ng8));
        g.apply(claim).unwrap();
        assert_eq!(
            describe(&g).unwrap(),
            "threefold repetition claimed by Black on the intended move Ng8 (Art. 9.2 a)"
        );
        assert_eq!(pgn_termination(&g), "normal");
    }
}
