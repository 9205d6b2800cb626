//! pgn-reader (with shakmaty) as an oracle: a test-only dev-dependency (GPL),
//! never linked into arbiter-pgn. Shared by the differential test and the
//! benchmark.

#![allow(dead_code)]

use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use shakmaty::{fen::Fen, CastlingMode, Chess, Position};
use std::io::Read;
use std::ops::ControlFlow;

/// What the oracle makes of a game: main-line moves (king-takes-rook UCI),
/// the final board FEN, and whether every move was legal.
#[derive(Debug, PartialEq, Eq)]
pub struct OracleGame {
    pub moves: Vec<String>,
    pub board: String,
    pub ok: bool,
}

/// Collects each game's main line.
pub struct Collector;

impl Visitor for Collector {
    type Tags = Option<Chess>;
    type Movetext = (Chess, Vec<String>, bool);
    type Output = OracleGame;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(None)
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        if name == b"FEN" {
            let pos = Fen::from_ascii(value.as_bytes())
                .ok()
                .and_then(|f| f.into_position(CastlingMode::Chess960).ok());
            *tags = pos;
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue((tags.unwrap_or_default(), Vec::new(), true))
    }

    fn san(&mut self, mt: &mut Self::Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        if !mt.2 {
            return ControlFlow::Continue(());
        }
        match san_plus.san.to_move(&mt.0) {
            Ok(m) => {
                mt.1.push(m.to_uci(CastlingMode::Chess960).to_string());
                mt.0.play_unchecked(m);
            }
            Err(_) => mt.2 = false,
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, mt: Self::Movetext) -> Self::Output {
        OracleGame {
            board: mt.0.board().to_string(),
            moves: mt.1,
            ok: mt.2,
        }
    }
}

/// Every game of `input` as the oracle reads it.
pub fn oracle_games(input: impl Read) -> Vec<OracleGame> {
    let mut reader = Reader::new(input);
    let mut out = Vec::new();
    while let Some(g) = reader.read_game(&mut Collector).expect("read") {
        out.push(g);
    }
    out
}

/// pgn-reader's own `validate` example: replays and checks every move.
pub struct Validator {
    pub games: u64,
    pub errors: u64,
}

impl Visitor for Validator {
    type Tags = Option<Chess>;
    type Movetext = Chess;
    type Output = bool;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        self.games += 1;
        ControlFlow::Continue(None)
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        if name == b"FEN" {
            let fen = match Fen::from_ascii(value.as_bytes()) {
                Ok(fen) => fen,
                Err(_) => return ControlFlow::Break(false),
            };
            match fen.into_position(CastlingMode::Chess960) {
                Ok(pos) => *tags = Some(pos),
                Err(_) => return ControlFlow::Break(false),
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue(tags.unwrap_or_default())
    }

    fn san(&mut self, pos: &mut Self::Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        match san_plus.san.to_move(pos) {
            Ok(m) => pos.play_unchecked(m),
            Err(_) => {
                self.errors += 1;
                return ControlFlow::Break(false);
            }
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _pos: Self::Movetext) -> Self::Output {
        true
    }
}
