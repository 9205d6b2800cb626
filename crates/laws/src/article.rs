//! [`Article`]: the provision of the Laws (or of the event's regulations) a
//! decision rests on.

use std::fmt;

/// An Article of the FIDE Laws of Chess as the edition in force numbers it
/// (`"9.6 a"` in 2014, `"9.6.1"` from 2018), or [`Article::MATCH_RULE`] for
/// a decision under the regulations of the event (Art. 10.1: "unless the
/// regulations of an event specify otherwise").
///
/// ```
/// use arbiter_laws::{Article, Edition};
/// let a = Edition::Fide2018.rules().articles.fivefold;
/// assert_eq!(Article::new(a).to_string(), "9.6.1");
/// assert_eq!(Article::new(a).cite(), "Art. 9.6.1");
/// assert_eq!(Article::MATCH_RULE.cite(), "match rule");
/// assert!(Article::new("5.1 a") == "5.1 a");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Article(&'static str);

impl Article {
    /// The regulations of the event, cited as `"match rule"`.
    pub const MATCH_RULE: Article = Article(crate::edition::MATCH_RULE);

    /// The Article numbered `number` (as in the edition's table, [`crate::Rules`]).
    pub const fn new(number: &'static str) -> Article {
        Article(number)
    }

    /// The number, e.g. `"9.6 a"`, or `"match rule"`.
    pub const fn as_str(self) -> &'static str {
        self.0
    }

    /// Whether this is the regulations of the event rather than the Laws.
    pub fn is_match_rule(self) -> bool {
        self.0 == crate::edition::MATCH_RULE
    }

    /// As cited in a sentence: `"Art. 9.6 a"`, or `"match rule"`.
    pub fn cite(self) -> String {
        if self.is_match_rule() {
            self.0.to_owned()
        } else {
            format!("Art. {}", self.0)
        }
    }
}

impl fmt::Display for Article {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl PartialEq<&str> for Article {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl PartialEq<Article> for &str {
    fn eq(&self, other: &Article) -> bool {
        *self == other.0
    }
}

impl From<Article> for &'static str {
    fn from(a: Article) -> &'static str {
        a.0
    }
}

impl From<&'static str> for Article {
    fn from(number: &'static str) -> Article {
        Article(number)
    }
}
