//! HTTP errors in the shape of protocol §3.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;

/// An error answer: status, `code`, English `message`, and `field` for
/// `invalid_request`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// HTTP status.
    pub status: StatusCode,
    /// Protocol code.
    pub code: &'static str,
    /// For developers.
    pub message: String,
    /// The offending request field.
    pub field: Option<String>,
}

#[derive(Serialize)]
struct Body<'a> {
    error: Inner<'a>,
}

#[derive(Serialize)]
struct Inner<'a> {
    code: &'a str,
    message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    field: Option<&'a str>,
}

impl ApiError {
    /// 400 `invalid_request` naming `field`.
    pub fn invalid(field: &str, message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            code: "invalid_request",
            message: message.into(),
            field: Some(field.to_owned()),
        }
    }

    /// Any other code with its status.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            field: None,
        }
    }

    /// 404 `not_found`.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, "not_found", message)
    }

    /// 500 `internal`.
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = Body {
            error: Inner {
                code: self.code,
                message: &self.message,
                field: self.field.as_deref(),
            },
        };
        let mut resp = (self.status, Json(body)).into_response();
        resp.headers_mut().insert(
            axum::http::header::CACHE_CONTROL,
            axum::http::HeaderValue::from_static("no-store"),
        );
        resp
    }
}

impl From<crate::store::StoreError> for ApiError {
    fn from(e: crate::store::StoreError) -> ApiError {
        tracing::error!("{e}");
        ApiError::internal("storage error")
    }
}

/// A request's body read as JSON, or a 400 `invalid` naming `body` with
/// [`public_json_error`]'s message.
///
/// ```
/// use arbiter_server::error::json_body;
/// assert_eq!(json_body(br#"{"a": 1}"#).unwrap()["a"], 1);
/// assert!(json_body(b"{").is_err());
/// ```
pub fn json_body(body: &[u8]) -> Result<serde_json::Value, ApiError> {
    serde_json::from_slice(body).map_err(|e| {
        ApiError::invalid(
            "body",
            format!("the body is not JSON: {}", public_json_error(&e)),
        )
    })
}

/// A JSON error for the client, without the server's type names (serde
/// says `invalid type: integer, expected struct CreateRequest`; the client
/// reads `invalid type: integer, expected an object`) and with where.
///
/// ```
/// use arbiter_server::error::public_json_error;
/// #[derive(serde::Deserialize, Debug)]
/// struct Secret { _a: u8 }
/// let e = serde_json::from_str::<Secret>("[1, 2]").unwrap_err();
/// let m = public_json_error(&e);
/// assert!(!m.contains("Secret"), "{m}");
/// assert!(m.contains("line 1"), "{m}");
/// ```
pub fn public_json_error(e: &serde_json::Error) -> String {
    let text = e.to_string();
    // serde_json appends " at line L column C"; keep it apart.
    let (what, at) = match text.rfind(" at line ") {
        Some(i) => (&text[..i], &text[i + 1..]),
        None => (text.as_str(), ""),
    };
    let mut out = String::with_capacity(what.len());
    let mut words = what.split(' ').peekable();
    while let Some(w) = words.next() {
        match w {
            // "struct Name", "enum Name", "tuple struct Name": a name follows.
            "struct" | "enum" => {
                let _ = words.next();
                out.push_str(if w == "struct" {
                    "an object"
                } else {
                    "a value"
                });
                // "with N elements" describes the struct's arity.
                if words.peek() == Some(&"with") {
                    let _ = words.next();
                    let _ = words.next();
                    let _ = words.next();
                }
            }
            "tuple" | "unit" if words.peek() == Some(&"struct") => {}
            _ => out.push_str(w),
        }
        out.push(' ');
    }
    let what = out.trim_end().replace("an an object", "an object");
    match e.classify() {
        serde_json::error::Category::Syntax | serde_json::error::Category::Eof => {
            format!("not valid JSON ({what}) {at}")
                .trim_end()
                .to_owned()
        }
        _ => format!("{what} {at}").trim_end().to_owned(),
    }
}
