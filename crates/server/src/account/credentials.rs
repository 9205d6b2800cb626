//! User names and passwords: what is accepted, and the argon2id hash that is
//! stored in place of a password (PHC string; the password itself is never
//! stored nor logged). Hashing costs memory and time on purpose: the server
//! runs at most [`HASHING_AT_ONCE`] at a time, on the blocking pool.

use crate::error::ApiError;
use argon2::password_hash::{rand_core::OsRng, PasswordHash, PasswordHasher, SaltString};
use argon2::{Argon2, PasswordVerifier};

/// Password hashes computed at once (each takes ~19 MiB for argon2's
/// default parameters).
pub const HASHING_AT_ONCE: usize = 2;
/// Shortest password accepted.
pub const MIN_PASSWORD: usize = 8;
/// Longest password accepted, in bytes (the hash's work is bounded).
pub const MAX_PASSWORD: usize = 128;

/// A user name: 3 to 20 letters `A–Z a–z`, digits, `_` or `-`, starting
/// with a letter or digit; unique without regard to case (its id is the
/// name in lower case).
///
/// ```
/// use arbiter_server::account::credentials::UserName;
/// let n = UserName::parse(&serde_json::json!("Anna_K")).unwrap();
/// assert_eq!((n.name.as_str(), n.id.as_str()), ("Anna_K", "anna_k"));
/// assert!(UserName::parse(&serde_json::json!("a")).is_err());
/// assert!(UserName::parse(&serde_json::json!("anna k")).is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserName {
    /// As written.
    pub name: String,
    /// In lower case.
    pub id: String,
}

impl UserName {
    /// Reads the `name` field of a request.
    pub fn parse(v: &serde_json::Value) -> Result<UserName, ApiError> {
        let Some(s) = v.as_str() else {
            return Err(ApiError::invalid("name", "name: a string"));
        };
        let ok = (3..=20).contains(&s.len())
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
            && s.as_bytes()[0].is_ascii_alphanumeric();
        if !ok {
            return Err(ApiError::invalid(
                "name",
                "name: 3 to 20 letters, digits, _ or -, starting with a letter or digit",
            ));
        }
        Ok(UserName {
            name: s.to_owned(),
            id: s.to_ascii_lowercase(),
        })
    }
}

/// Reads a password field (`field` names it in the error): 8 to 128 bytes.
///
/// ```
/// use arbiter_server::account::credentials::password;
/// assert!(password(&serde_json::json!("correct horse"), "password").is_ok());
/// assert_eq!(password(&serde_json::json!("short"), "password").unwrap_err().field.as_deref(), Some("password"));
/// ```
pub fn password(v: &serde_json::Value, field: &str) -> Result<String, ApiError> {
    match v.as_str() {
        Some(p) if (MIN_PASSWORD..=MAX_PASSWORD).contains(&p.len()) => Ok(p.to_owned()),
        Some(_) => Err(ApiError::invalid(
            field,
            format!("{field}: {MIN_PASSWORD} to {MAX_PASSWORD} bytes"),
        )),
        None => Err(ApiError::invalid(field, format!("{field}: a string"))),
    }
}

/// The argon2id hash of `password` with a fresh random salt (PHC form).
///
/// ```
/// use arbiter_server::account::credentials::{hash, verify};
/// let h = hash("correct horse").unwrap();
/// assert!(h.starts_with("$argon2id$"));
/// assert!(verify("correct horse", &h) && !verify("wrong horse", &h));
/// ```
pub fn hash(password: &str) -> Result<String, ApiError> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|_| ApiError::internal("the password cannot be hashed"))
}

/// Does `password` match the stored `hash`? (A malformed hash matches
/// nothing.)
pub fn verify(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash)
        .map(|h| {
            Argon2::default()
                .verify_password(password.as_bytes(), &h)
                .is_ok()
        })
        .unwrap_or(false)
}

/// A hash no password was hashed into, for verifying against when the user
/// does not exist: an unknown name takes as long as a wrong password.
pub fn decoy() -> &'static str {
    static DECOY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DECOY.get_or_init(|| hash(&crate::seat::new_token()).unwrap_or_default())
}
