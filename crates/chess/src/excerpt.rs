//! Text quoted in a message, shortened ([`Excerpt`]).

use std::fmt;

/// Text as an error message quotes it: in double quotes and escaped as
/// `{:?}` writes it, but at most [`Excerpt::MAX_CHARS`] characters of it,
/// then `…` and the whole length, so that a message about a long input
/// (a "move" of 60,000 characters) stays short.
///
/// ```
/// use arbiter_chess::Excerpt;
/// assert_eq!(Excerpt("Nz3").to_string(), "\"Nz3\"");
/// let long = "N".repeat(1000);
/// assert_eq!(
///     Excerpt(&long).to_string(),
///     format!("\"{}\"… (1000 characters)", "N".repeat(Excerpt::MAX_CHARS))
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Excerpt<'a>(pub &'a str);

impl<'a> Excerpt<'a> {
    /// The most characters quoted.
    pub const MAX_CHARS: usize = 40;

    /// The part quoted, and the whole length in characters when that is
    /// not all of it (for messages that quote in their own way).
    ///
    /// ```
    /// use arbiter_chess::Excerpt;
    /// assert_eq!(Excerpt("e4").cut(), ("e4", None));
    /// let long = "x".repeat(50);
    /// assert_eq!(Excerpt(&long).cut(), (&long[..40], Some(50)));
    /// ```
    pub fn cut(self) -> (&'a str, Option<usize>) {
        match self.0.char_indices().nth(Self::MAX_CHARS) {
            None => (self.0, None),
            Some((end, _)) => (&self.0[..end], Some(self.0.chars().count())),
        }
    }
}

impl fmt::Display for Excerpt<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.cut() {
            (text, None) => write!(f, "{text:?}"),
            (head, Some(n)) => write!(f, "{head:?}… ({n} characters)"),
        }
    }
}
