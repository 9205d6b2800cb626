//! Byte searches for the reader's short spans (a clock comment, a tag line),
//! a word (8 bytes) at a time: for spans of a few dozen bytes this costs
//! less than setting up a vector search, which takes over past
//! [`WORD_SPAN`] bytes.

/// How far the word-at-a-time search goes before handing over to `memchr`.
const WORD_SPAN: usize = 64;
const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// The high bit of every byte of `x` that is zero, and possibly of bytes above
/// a zero one (a borrow); the lowest bit set is always the first zero byte.
#[inline(always)]
fn zero_bytes(x: u64) -> u64 {
    x.wrapping_sub(LO) & !x & HI
}

#[inline(always)]
fn word(hay: &[u8], i: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&hay[i..i + 8]);
    u64::from_le_bytes(w)
}

/// The last (fewer than 8) bytes of `hay` from `i` as a word, and the high
/// bits of the lanes they fill.
#[inline(always)]
fn tail(hay: &[u8], i: usize) -> (u64, u64) {
    let rest = &hay[i..];
    let mut w = [0u8; 8];
    w[..rest.len()].copy_from_slice(rest);
    let lanes = HI & ((1u64 << (8 * rest.len())) - 1);
    (u64::from_le_bytes(w), lanes)
}

/// The index of the first `a` in `hay`.
#[inline]
pub(crate) fn find1(a: u8, hay: &[u8]) -> Option<usize> {
    let wa = LO * a as u64;
    let mut i = 0;
    while i + 8 <= hay.len() && i < WORD_SPAN {
        let m = zero_bytes(word(hay, i) ^ wa);
        if m != 0 {
            return Some(i + (m.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    if hay.len() - i < 8 {
        let (w, lanes) = tail(hay, i);
        let m = zero_bytes(w ^ wa) & lanes;
        return (m != 0).then(|| i + (m.trailing_zeros() / 8) as usize);
    }
    memchr::memchr(a, &hay[i..]).map(|k| i + k)
}

/// The index of the first `a` or `b` in `hay`.
#[inline]
pub(crate) fn find2(a: u8, b: u8, hay: &[u8]) -> Option<usize> {
    let (wa, wb) = (LO * a as u64, LO * b as u64);
    let mut i = 0;
    while i + 8 <= hay.len() && i < WORD_SPAN {
        let w = word(hay, i);
        let m = zero_bytes(w ^ wa) | zero_bytes(w ^ wb);
        if m != 0 {
            return Some(i + (m.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    if hay.len() - i < 8 {
        let (w, lanes) = tail(hay, i);
        let m = (zero_bytes(w ^ wa) | zero_bytes(w ^ wb)) & lanes;
        return (m != 0).then(|| i + (m.trailing_zeros() / 8) as usize);
    }
    memchr::memchr2(a, b, &hay[i..]).map(|k| i + k)
}

/// The index of the first `a`, `b` or `c` in `hay`.
#[inline]
pub(crate) fn find3(a: u8, b: u8, c: u8, hay: &[u8]) -> Option<usize> {
    let (wa, wb, wc) = (LO * a as u64, LO * b as u64, LO * c as u64);
    let mut i = 0;
    while i + 8 <= hay.len() && i < WORD_SPAN {
        let w = word(hay, i);
        let m = zero_bytes(w ^ wa) | zero_bytes(w ^ wb) | zero_bytes(w ^ wc);
        if m != 0 {
            return Some(i + (m.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    if hay.len() - i < 8 {
        let (w, lanes) = tail(hay, i);
        let m = (zero_bytes(w ^ wa) | zero_bytes(w ^ wb) | zero_bytes(w ^ wc)) & lanes;
        return (m != 0).then(|| i + (m.trailing_zeros() / 8) as usize);
    }
    memchr::memchr3(a, b, c, &hay[i..]).map(|k| i + k)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn agrees_with_a_plain_search_on_random_bytes() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(14);
        let alphabet = b"}\n\"\\ a\x80\xff\x01\x7f{";
        let mut found = 0;
        for _ in 0..20_000 {
            let len = rng.gen_range(0..150);
            let hay: Vec<u8> = (0..len)
                .map(|_| {
                    if rng.gen_bool(0.97) {
                        rng.gen_range(0x20..0x7b)
                    } else {
                        alphabet[rng.gen_range(0..alphabet.len())]
                    }
                })
                .collect();
            for (a, b) in [(b'}', b'\n'), (b'\\', b'"'), (0x80, 0xff), (0, 1)] {
                let want2 = hay.iter().position(|&c| c == a || c == b);
                assert_eq!(find2(a, b, &hay), want2, "{a} {b} in {hay:?}");
                assert_eq!(find1(a, &hay), hay.iter().position(|&c| c == a));
                let want3 = hay.iter().position(|&c| c == a || c == b || c == b'\n');
                assert_eq!(find3(a, b, b'\n', &hay), want3, "{a} {b} in {hay:?}");
                found += want2.is_some() as u32;
            }
        }
        assert!(found > 10_000);
    }

    #[test]
    fn a_byte_just_above_a_match_is_not_taken_for_it() {
        // 0x01 after a match borrows in the subtraction: the match must win.
        assert_eq!(find1(b'}', b"ab}\x01cdefgh"), Some(2));
        assert_eq!(find1(b'}', b"ab\x01}cdefgh"), Some(3));
        assert_eq!(find2(b'}', b'\n', b"abcdefg\x01\x0b}"), Some(9));
        assert_eq!(find2(b'}', b'\n', b""), None);
    }
}
