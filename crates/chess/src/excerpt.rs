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

impl Excerpt<'_> {
    /// The most characters quoted.
    pub const MAX_CHARS: usize = 40;
}

impl fmt::Display for Excerpt<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.char_indices().nth(Self::MAX_CHARS) {
            None => write!(f, "{:?}", self.0),
            Some((end, _)) => write!(
                f,
                "{:?}… ({} characters)",
                &self.0[..end],
                self.0.chars().count()
            ),
        }
    }
}
