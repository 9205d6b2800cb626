//! With the `serde` feature: the core types as the names the Laws and the
//! protocols write (`"white"`, `"e4"`, `"knight"`, `"e7e8q"`).
//!
//! ```
//! use arbiter_chess::{Color, Move, Role, Square};
//! assert_eq!(serde_json::to_string(&Color::Black)?, r#""black""#);
//! assert_eq!(serde_json::from_str::<Color>(r#""w""#)?, Color::White);
//! assert_eq!(serde_json::from_str::<Square>(r#""e4""#)?, Square::E4);
//! assert_eq!(serde_json::to_string(&Role::Knight)?, r#""knight""#);
//! let m: Move = serde_json::from_str(r#""e7e8q""#)?;
//! assert_eq!(m, Move::promote(Square::E7, Square::E8, Role::Queen));
//! assert_eq!(serde_json::to_string(&m)?, r#""e7e8q""#);
//! # Ok::<_, serde_json::Error>(())
//! ```

use crate::{Color, Move, Role, Square, UciMove};
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use std::fmt;

/// A visitor of strings, read by `read`, expecting `what`.
struct Text<T> {
    what: &'static str,
    read: fn(&str) -> Result<T, String>,
}

impl<T> Visitor<'_> for Text<T> {
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.what)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        (self.read)(v).map_err(E::custom)
    }
}

impl Serialize for Color {
    /// `"white"` or `"black"`.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Color {
    /// `"white"` or `"black"` (also `"w"`, `"b"`, `"White"`, `"Black"`).
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Color, D::Error> {
        d.deserialize_str(Text {
            // As serde says of any other string field ("expected a string").
            what: "a string",
            read: |v| match v {
                "white" | "w" | "White" => Ok(Color::White),
                "black" | "b" | "Black" => Ok(Color::Black),
                other => Err(format!(
                    "unknown player {other:?}: expected \"white\" or \"black\""
                )),
            },
        })
    }
}

impl Serialize for Square {
    /// `"e4"`.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Square {
    /// `"a1"` … `"h8"`.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Square, D::Error> {
        d.deserialize_str(Text {
            what: "a square such as \"e4\"",
            read: |v| {
                v.parse()
                    .map_err(|e: crate::ParseSquareError| e.to_string())
            },
        })
    }
}

impl Serialize for Role {
    /// `"pawn"`, `"knight"`, `"bishop"`, `"rook"`, `"queen"`, `"king"`.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Role {
    /// The English name, lower case.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Role, D::Error> {
        d.deserialize_str(Text {
            what: "a piece: \"pawn\", \"knight\", \"bishop\", \"rook\", \"queen\" or \"king\"",
            read: |v| {
                Role::ALL
                    .into_iter()
                    .find(|&r| r.name() == v)
                    .ok_or_else(|| format!("unknown piece {v:?}: expected \"pawn\", \"knight\", \"bishop\", \"rook\", \"queen\" or \"king\""))
            },
        })
    }
}

impl Serialize for Move {
    /// Its internal form, like UCI with castling as king-takes-rook
    /// (`"e2e4"`, `"e7e8q"`, `"e1h1"`).
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Move {
    /// A move in the form [`Move`] writes; not checked against a position.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Move, D::Error> {
        d.deserialize_str(Text {
            what: "a move such as \"e2e4\"",
            read: |v| match UciMove::parse(v) {
                Ok(UciMove::Normal {
                    from,
                    to,
                    promotion,
                }) => Ok(Move {
                    from,
                    to,
                    promotion,
                }),
                Ok(UciMove::Null) => Err("\"0000\" is not a move".to_owned()),
                Err(e) => Err(e.to_string()),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_square_and_role_round_trips() {
        for i in 0..64 {
            let sq = Square::new(i);
            let text = serde_json::to_string(&sq).unwrap();
            assert_eq!(serde_json::from_str::<Square>(&text).unwrap(), sq);
        }
        for r in Role::ALL {
            let text = serde_json::to_string(&r).unwrap();
            assert_eq!(serde_json::from_str::<Role>(&text).unwrap(), r);
        }
        assert!(serde_json::from_str::<Square>(r#""i9""#).is_err());
        assert!(serde_json::from_str::<Color>(r#""red""#)
            .unwrap_err()
            .to_string()
            .starts_with("unknown player \"red\""));
    }
}
