//! Seats (protocol §2): a secret token per seat, kept by the browser in an
//! HttpOnly cookie scoped to the game's API. Only the SHA-256 of a token is
//! stored, so a copy of the database does not hand out seats.

use base64::Engine as _;
use rand::RngCore;
use sha2::{Digest, Sha256};

/// A fresh token: 128 random bits from the operating system's generator,
/// base64url without padding (22 characters).
pub fn new_token() -> String {
    let mut bytes = [0u8; 16];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// The seat token of a rematch (protocol §3.7): derived from the player's
/// token of the old game and the new game's id (SHA-256 of both, 128 bits,
/// base64url), so the server issues it to whoever shows the old token and
/// stores only its hash, as for every seat.
///
/// ```
/// use arbiter_server::seat::rematch_token;
/// let t = rematch_token("abcdefghijklmnopqrstuv", "AbCd1234");
/// assert_eq!(t.len(), 22);
/// assert_eq!(t, rematch_token("abcdefghijklmnopqrstuv", "AbCd1234"));
/// assert_ne!(t, rematch_token("abcdefghijklmnopqrstuv", "AbCd1235"));
/// ```
pub fn rematch_token(old_token: &str, new_game: &str) -> String {
    let mut h = Sha256::new();
    h.update(b"arbiter rematch\0");
    h.update(old_token.as_bytes());
    h.update(b"\0");
    h.update(new_game.as_bytes());
    let digest = h.finalize();
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&digest[..16])
}

/// The stored form of a token: SHA-256, hex.
pub fn hash_token(token: &str) -> String {
    let digest = Sha256::digest(token.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// The cookie's name for game `id`.
pub fn cookie_name(id: &str) -> String {
    format!("arbiter_seat_{id}")
}

/// The `Set-Cookie` value for a seat of game `id` (§2); `secure` when the
/// request came over HTTPS.
pub fn set_cookie(id: &str, token: &str, secure: bool) -> String {
    format!(
        "{}={token}; Path=/api/games/{id}; HttpOnly; SameSite=Strict; Max-Age=2592000{}",
        cookie_name(id),
        if secure { "; Secure" } else { "" }
    )
}

/// The seat token of game `id` in a `Cookie` header, if any (only
/// well-formed base64url tokens of sane length are taken).
pub fn token_from_cookies<'a>(headers: impl Iterator<Item = &'a str>, id: &str) -> Option<String> {
    token_cookie(headers, &cookie_name(id))
}

/// The token in cookie `name` of a `Cookie` header, if any and well-formed
/// (base64url, 16 to 64 characters): seats' and sessions' alike.
pub fn token_cookie<'a>(headers: impl Iterator<Item = &'a str>, name: &str) -> Option<String> {
    for header in headers {
        for part in header.split(';') {
            let Some((k, v)) = part.trim().split_once('=') else {
                continue;
            };
            if k.trim() == name {
                let v = v.trim();
                let ok = (16..=64).contains(&v.len())
                    && v.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
                if ok {
                    return Some(v.to_owned());
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_random_and_found_in_cookies() {
        let a = new_token();
        let b = new_token();
        assert_ne!(a, b);
        assert_eq!(a.len(), 22);
        let header = format!("theme=dark; arbiter_seat_abcdefgh={a}; other=1");
        assert_eq!(
            token_from_cookies([header.as_str()].into_iter(), "abcdefgh"),
            Some(a.clone())
        );
        assert_eq!(
            token_from_cookies([header.as_str()].into_iter(), "zzzzzzzz"),
            None
        );
        let bad = "arbiter_seat_abcdefgh=<script>alert(1)</script>xxxxxxxx";
        assert_eq!(token_from_cookies([bad].into_iter(), "abcdefgh"), None);
        assert_eq!(hash_token(&a).len(), 64);
        assert_ne!(hash_token(&a), hash_token(&b));
        // Stored hashes must not change with the sha2 crate's version (FIPS 180-2, "abc").
        assert_eq!(
            hash_token("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn cookie_is_http_only_and_scoped() {
        let c = set_cookie("abcdefgh", "tok", false);
        assert_eq!(
            c,
            "arbiter_seat_abcdefgh=tok; Path=/api/games/abcdefgh; HttpOnly; SameSite=Strict; Max-Age=2592000"
        );
        assert!(set_cookie("abcdefgh", "tok", true).ends_with("; Secure"));
    }
}
