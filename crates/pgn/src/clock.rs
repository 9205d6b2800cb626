//! Clock times in comments: the `[%clk h:mm:ss]` command (PGN Specification
//! Supplement), as Lichess, chess.com and DGT boards write the mover's clock
//! after each move (FIDE Art. 6).

/// Collapses runs of whitespace to one space and trims: a comment as the
/// game builder keeps it ([`crate::Node::comments`]).
///
/// ```
/// use arbiter_pgn::clock::clean_comment;
/// assert_eq!(clean_comment(" White\n  resigns "), "White resigns");
/// ```
pub fn clean_comment(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// Takes a `[%clk h:mm:ss]` command out of a comment: the time in
/// milliseconds, and the rest of the comment.
///
/// ```
/// use arbiter_pgn::clock::take_clock;
/// assert_eq!(take_clock("[%clk 0:02:59.5] a blunder"), (Some(179_500), "a blunder".to_owned()));
/// ```
pub fn take_clock(comment: &str) -> (Option<u64>, String) {
    match find_time(comment, "[%clk") {
        Some((at, ms)) => {
            let rest = format!("{} {}", &comment[..at.start], &comment[at.end..]);
            (Some(ms), clean_comment(&rest))
        }
        None => (None, comment.to_owned()),
    }
}

/// The first command `command` (`"[%clk"`, `"[%emt"`) of a comment whose
/// time reads ([`parse_clock`]): where it is (up to its `]`) and the time.
/// Each `command` written is tried in turn, one written inside another's
/// brackets too: an unreadable one (a garbled `[%clk 0:0x:00]`) hides none
/// after it.
///
/// ```
/// use arbiter_pgn::clock::find_time;
/// assert_eq!(find_time("[%clk x] [%clk 0:01:00]", "[%clk"), Some((9..23, 60_000)));
/// assert_eq!(find_time("[%clk 0:01 [%emt 0:00:02]", "[%emt"), Some((11..25, 2_000)));
/// assert_eq!(find_time("[%clk 0:01:00", "[%clk"), None);
/// ```
pub fn find_time(comment: &str, command: &str) -> Option<(std::ops::Range<usize>, u64)> {
    comment.match_indices(command).find_map(|(at, _)| {
        let len = comment[at..].find(']')?;
        let ms = parse_clock(comment[at + command.len()..at + len].trim())?;
        Some((at..at + len + 1, ms))
    })
}

/// Reads `h:mm:ss`, `m:ss` or `s`, each with optional decimals, as
/// milliseconds.
///
/// ```
/// use arbiter_pgn::clock::parse_clock;
/// assert_eq!(parse_clock("1:30:00"), Some(5_400_000));
/// assert_eq!(parse_clock("0:00:05.25"), Some(5_250));
/// assert_eq!(parse_clock("five"), None);
/// ```
pub fn parse_clock(text: &str) -> Option<u64> {
    // Digits, none missing, that fit a u64 (every time `format_clock`
    // writes reads back: `[%clk 5124095576030:25:51.615]` is u64::MAX ms).
    fn number(part: &[u8]) -> Option<u64> {
        if part.is_empty() || part.len() > 20 {
            return None;
        }
        part.iter().try_fold(0u64, |n, &b| {
            if !b.is_ascii_digit() {
                return None;
            }
            n.checked_mul(10)?.checked_add(u64::from(b - b'0'))
        })
    }
    let mut parts = text.as_bytes().rsplit(|&b| b == b':');
    let secs = parts.next()?;
    let (whole, frac) = match secs.iter().position(|&b| b == b'.') {
        Some(dot) => (&secs[..dot], &secs[dot + 1..]),
        None => (secs, &[][..]),
    };
    if frac.len() > 9 {
        return None;
    }
    let mut ms = number(whole)?
        .checked_mul(1000)?
        .checked_add(decimals_ms(frac)?)?;
    for (unit, part) in [60_000u64, 3_600_000].into_iter().zip(parts.by_ref()) {
        ms = ms.checked_add(number(part)?.checked_mul(unit)?)?;
    }
    if parts.next().is_some() {
        return None;
    }
    Some(ms)
}

/// The milliseconds of a second's decimals (the digits after the point):
/// the first three count, a fourth and more are dropped; `None` if one is
/// not a digit.
///
/// ```
/// use arbiter_pgn::clock::decimals_ms;
/// assert_eq!(decimals_ms(b"9"), Some(900));
/// assert_eq!(decimals_ms(b"125"), Some(125));
/// assert_eq!(decimals_ms(b"0625"), Some(62));
/// assert_eq!(decimals_ms(b""), Some(0));
/// assert_eq!(decimals_ms(b"5x"), None);
/// ```
#[inline]
pub fn decimals_ms(digits: &[u8]) -> Option<u64> {
    let mut ms = 0;
    let mut scale = 100;
    for &d in digits {
        let d = d.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        ms += u64::from(d) * scale;
        scale /= 10;
    }
    Some(ms)
}

/// Writes milliseconds as `h:mm:ss` (with decimals when not whole seconds).
///
/// ```
/// use arbiter_pgn::clock::format_clock;
/// assert_eq!(format_clock(5_400_000), "1:30:00");
/// assert_eq!(format_clock(5_250), "0:00:05.25");
/// ```
pub fn format_clock(ms: u64) -> String {
    let secs = ms / 1000;
    let mut s = format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60);
    let frac = ms % 1000;
    if frac != 0 {
        let f = format!("{frac:03}");
        s.push('.');
        s.push_str(f.trim_end_matches('0'));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks() {
        assert_eq!(parse_clock("0:03:00"), Some(180_000));
        assert_eq!(parse_clock("1:05:23.5"), Some(3_923_500));
        assert_eq!(parse_clock("12:01"), Some(721_000));
        assert_eq!(parse_clock("x"), None);
        assert_eq!(parse_clock("1:2:3:4"), None);
        // Edges: empty parts, too many digits, decimals.
        for bad in [
            "",
            ":",
            "1::2",
            ".5",
            "123456789012345678901",
            "5124095576031:0:0",
            "1.1234567890",
            " 5",
            "-1",
            "1:x",
            "1.5x",
        ] {
            assert_eq!(parse_clock(bad), None, "{bad:?}");
        }
        assert_eq!(parse_clock("12."), Some(12_000));
        assert_eq!(parse_clock("0:00:05.999999"), Some(5_999));
        assert_eq!(parse_clock("99:99:99"), Some(362_439_000));
        assert_eq!(parse_clock("999999999:0:0"), Some(999_999_999 * 3_600_000));
        assert_eq!(format_clock(3_923_500), "1:05:23.5");
        assert_eq!(format_clock(180_000), "0:03:00");
        // Every time written reads back (u64::MAX ms was written, then read
        // as no time at all).
        for ms in [0, 999, 3_600_000 * 1_000_000_000, u64::MAX - 1, u64::MAX] {
            assert_eq!(parse_clock(&format_clock(ms)), Some(ms), "{ms}");
        }
        assert_eq!(format_clock(u64::MAX), "5124095576030:25:51.615");
        assert_eq!(
            take_clock("good [%clk 0:00:05.25] move"),
            (Some(5_250), "good move".to_owned())
        );
        assert_eq!(take_clock("[%eval 0.3]"), (None, "[%eval 0.3]".to_owned()));
    }
}
