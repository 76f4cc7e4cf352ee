//! After "unsupported protocol version" (-32022, 2026-07-28): which version to retry with,
//! and which refusals of a first request must not send Auto to `initialize` or to the
//! legacy SSE transport.
//!
//! ```
//! use mcp_lens_protocol::era::VersionChoice;
//! use mcp_lens_protocol::version_retry::{retry_after_unsupported, unsupported_version_in_body, VersionRetry};
//! let body = r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version",
//!     "data":{"supported":["2026-07-28","2025-11-25"],"requested":"1900-01-01"}}}"#;
//! let refused = unsupported_version_in_body(body).unwrap();
//! assert_eq!(retry_after_unsupported(&refused, false, VersionChoice::Auto), VersionRetry::Modern("2026-07-28"));
//! ```

use crate::era::{VersionChoice, HANDSHAKE, MODERN, UNSUPPORTED_PROTOCOL_VERSION};
use crate::error::ErrorKind;
use serde_json::Value;

/// JSON-RPC error: a required client capability (or extension) was not declared.
pub const MISSING_REQUIRED_CLIENT_CAPABILITY: i32 = -32021;
/// JSON-RPC error: the HTTP headers do not match the body (SEP-2243).
pub const HEADER_MISMATCH: i32 = crate::headers::HEADER_MISMATCH;

/// What an "unsupported protocol version" error (-32022) said.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UnsupportedVersion {
    /// The versions the server supports, as listed in `error.data.supported` (empty when
    /// the answer did not say).
    pub supported: Vec<String>,
    pub requested: Option<String>,
}

/// Reads a -32022 from a failed request: the JSON-RPC error of an HTTP answer's body (400 in
/// the specification), or one delivered as a JSON-RPC error (whose `data` the client does
/// not keep, so its list is empty). A body cut short still yields the versions it shows.
pub fn unsupported_version(error: &ErrorKind) -> Option<UnsupportedVersion> {
    match error {
        ErrorKind::JsonRpc { code, .. } if *code == UNSUPPORTED_PROTOCOL_VERSION => {
            Some(UnsupportedVersion::default())
        }
        ErrorKind::HttpStatus { body_start, .. } => unsupported_version_in_body(body_start),
        _ => None,
    }
}

/// The -32022 error in an answer's body, if it is one.
pub fn unsupported_version_in_body(body: &str) -> Option<UnsupportedVersion> {
    if let Ok(value) = serde_json::from_str::<Value>(body) {
        let error = value.get("error")?;
        if error.get("code").and_then(Value::as_i64)
            != Some(i64::from(UNSUPPORTED_PROTOCOL_VERSION))
        {
            return None;
        }
        let data = error.get("data");
        let supported = data
            .and_then(|d| d.get("supported"))
            .and_then(Value::as_array)
            .map(|list| {
                list.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        let requested = data
            .and_then(|d| d.get("requested"))
            .and_then(Value::as_str)
            .map(str::to_owned);
        return Some(UnsupportedVersion {
            supported,
            requested,
        });
    }
    // Cut short (the client keeps only the start of an error body): trust the code and read
    // the dated versions after "supported".
    let compact: String = body.chars().filter(|c| !c.is_whitespace()).collect();
    if !compact.contains(&format!("\"code\":{UNSUPPORTED_PROTOCOL_VERSION}")) {
        return None;
    }
    let listed = compact.split("\"supported\":[").nth(1).unwrap_or("");
    let listed = listed.split(']').next().unwrap_or("");
    let supported = listed
        .split(',')
        .map(|item| item.trim_matches('"'))
        .filter(|item| is_dated_version(item))
        .map(str::to_owned)
        .collect();
    Some(UnsupportedVersion {
        supported,
        requested: None,
    })
}

/// `YYYY-MM-DD`, the form of every protocol version.
fn is_dated_version(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 10
        && bytes.iter().enumerate().all(|(i, b)| match i {
            4 | 7 => *b == b'-',
            _ => b.is_ascii_digit(),
        })
}

/// What to do after a -32022 (the specification: "the client SHOULD select a mutually
/// supported version from the `supported` list and retry the request, or surface an error
/// to the user if no compatible version exists"). There is deliberately no "fall back to
/// legacy SSE": a -32022 proves a modern server, which the legacy transport cannot reach.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VersionRetry {
    /// Send the same request again (a new JSON-RPC id) with this version in both the
    /// `MCP-Protocol-Version` header and `_meta`.
    Modern(&'static str),
    /// The server also speaks this handshake version: `initialize` with it.
    Initialize(&'static str),
    /// No version in common, or the server did not list any: `sentence` says which.
    NoCommonVersion { sentence: String },
    /// The one retry was refused too: report, do not loop.
    GiveUp { sentence: String },
}

/// Chooses the retry after a -32022: the newest version both sides speak, modern first (a
/// modern server must not be pushed back to `initialize` while it lists a modern version we
/// speak), then a handshake version. `retried_already`: the request was already re-sent once
/// after a -32022 (a server that lists the very version it refused, as the conformance
/// suite's `request-metadata` does once on purpose, gets exactly one more try). A person's
/// pinned version is kept: no other is chosen for them.
pub fn retry_after_unsupported(
    unsupported: &UnsupportedVersion,
    retried_already: bool,
    choice: VersionChoice,
) -> VersionRetry {
    let listed = if unsupported.supported.is_empty() {
        "did not say which versions it supports".to_owned()
    } else {
        format!("supports {}", unsupported.supported.join(", "))
    };
    if retried_already {
        return VersionRetry::GiveUp {
            sentence: format!(
                "the server refused the protocol version again after one retry; it {listed}"
            ),
        };
    }
    let speaks = |version: &str| unsupported.supported.iter().any(|s| s == version);
    let ours: Vec<&'static str> = match choice {
        VersionChoice::Auto => std::iter::once(MODERN).chain(HANDSHAKE).collect(),
        VersionChoice::Pinned(version) => vec![version],
    };
    match ours.into_iter().find(|version| speaks(version)) {
        Some(version) if version == MODERN => VersionRetry::Modern(version),
        Some(version) => VersionRetry::Initialize(version),
        None => {
            let we_speak = match choice {
                VersionChoice::Pinned(version) => {
                    format!("the version pinned in the settings is {version}")
                }
                VersionChoice::Auto => {
                    format!("this client speaks {MODERN}, {}", HANDSHAKE.join(", "))
                }
            };
            VersionRetry::NoCommonVersion {
                sentence: format!(
                    "no protocol version in common: the server {listed}, and {we_speak}"
                ),
            }
        }
    }
}

/// Why a failed first request must NOT send Auto to `initialize` or to the legacy SSE
/// transport, if so (the specification's backward-compatibility rule: a recognized modern
/// JSON-RPC error in the body identifies a modern server; and an authorization refusal says
/// nothing about the era, so the answer to it is signing in, not another transport).
pub fn no_fallback_because(error: &ErrorKind) -> Option<&'static str> {
    let ErrorKind::HttpStatus { status, body_start } = error else {
        return match error {
            ErrorKind::JsonRpc { code, .. } if is_modern_error_code(*code) => {
                Some("the server answered with a 2026-07-28 error, so it speaks that era")
            }
            _ => None,
        };
    };
    if matches!(status, 401 | 403) {
        return Some("the server asked for authorization, which says nothing about its era");
    }
    let code = serde_json::from_str::<Value>(body_start)
        .ok()
        .and_then(|body| body.get("error")?.get("code")?.as_i64());
    match code {
        Some(code) if i32::try_from(code).is_ok_and(is_modern_error_code) => {
            Some("the server answered with a 2026-07-28 error, so it speaks that era")
        }
        None if unsupported_version_in_body(body_start).is_some() => {
            Some("the server answered with a 2026-07-28 error, so it speaks that era")
        }
        _ => None,
    }
}

fn is_modern_error_code(code: i32) -> bool {
    matches!(
        code,
        UNSUPPORTED_PROTOCOL_VERSION | MISSING_REQUIRED_CLIENT_CAPABILITY | HEADER_MISMATCH
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(body: &str) -> ErrorKind {
        ErrorKind::HttpStatus {
            status: 400,
            body_start: body.into(),
        }
    }

    #[test]
    fn an_unsupported_version_is_retried_with_a_version_both_sides_speak() {
        use VersionRetry::*;
        // The conformance suite's request-metadata: the first request is refused, listing the
        // very version it asked for.
        let suite = refused(
            r#"{"jsonrpc":"2.0","id":0,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"],"requested":"2026-07-28"}}}"#,
        );
        let read = unsupported_version(&suite).unwrap();
        assert_eq!(read.requested.as_deref(), Some("2026-07-28"));
        assert_eq!(
            retry_after_unsupported(&read, false, VersionChoice::Auto),
            Modern(MODERN)
        );
        assert!(matches!(
            retry_after_unsupported(&read, true, VersionChoice::Auto),
            GiveUp { .. }
        ));
        // The specification's example.
        let example = refused(
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28","2025-11-25"],"requested":"1900-01-01"}}}"#,
        );
        let read = unsupported_version(&example).unwrap();
        assert_eq!(
            retry_after_unsupported(&read, false, VersionChoice::Auto),
            Modern(MODERN)
        );
        let handshake_only = UnsupportedVersion {
            supported: vec!["2024-11-05".into(), "2025-06-18".into()],
            requested: None,
        };
        assert_eq!(
            retry_after_unsupported(&handshake_only, false, VersionChoice::Auto),
            Initialize("2025-06-18")
        );
        let future = UnsupportedVersion {
            supported: vec!["2027-01-01".into()],
            requested: None,
        };
        assert_eq!(
            retry_after_unsupported(&future, false, VersionChoice::Auto),
            NoCommonVersion { sentence: "no protocol version in common: the server supports 2027-01-01, and this client speaks 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26".into() }
        );
        let pinned = VersionChoice::Pinned("2025-03-26");
        let modern_only = UnsupportedVersion {
            supported: vec![MODERN.into()],
            requested: None,
        };
        assert_eq!(
            retry_after_unsupported(&modern_only, false, pinned),
            NoCommonVersion { sentence: "no protocol version in common: the server supports 2026-07-28, and the version pinned in the settings is 2025-03-26".into() }
        );
        let silent = unsupported_version(&ErrorKind::JsonRpc {
            code: -32022,
            message: "Unsupported".into(),
        })
        .unwrap();
        assert!(
            matches!(retry_after_unsupported(&silent, false, VersionChoice::Auto), NoCommonVersion { sentence } if sentence.contains("did not say"))
        );
        assert_eq!(
            unsupported_version(&ErrorKind::JsonRpc {
                code: -32601,
                message: String::new()
            }),
            None
        );
        assert_eq!(
            unsupported_version(&refused(r#"{"error":{"code":-32600}}"#)),
            None
        );
    }

    #[test]
    fn a_body_cut_short_still_lists_the_versions_it_shows() {
        let cut = r#"{"jsonrpc":"2.0","id":0,"error":{"code": -32022,"message":"Unsupported protocol version","data":{"supported":["2027-01-01", "2026-07-28","2025-1"#;
        let read = unsupported_version(&refused(cut)).unwrap();
        assert_eq!(read.supported, ["2027-01-01", "2026-07-28"]);
        assert_eq!(
            unsupported_version(&refused(r#"{"error":{"code":-32600,"message":"Bad"#)),
            None
        );
    }

    #[test]
    fn modern_errors_and_authorization_never_send_auto_elsewhere() {
        let modern = refused(
            r#"{"jsonrpc":"2.0","id":0,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"]}}}"#,
        );
        assert!(no_fallback_because(&modern).is_some());
        let header_mismatch = refused(
            r#"{"jsonrpc":"2.0","id":0,"error":{"code":-32020,"message":"Header mismatch"}}"#,
        );
        assert!(no_fallback_because(&header_mismatch).is_some());
        let unauthorized = ErrorKind::HttpStatus {
            status: 401,
            body_start: String::new(),
        };
        assert_eq!(
            no_fallback_because(&unauthorized),
            Some("the server asked for authorization, which says nothing about its era")
        );
        // A handshake-only server's 400 (recorded from mcp 1.30.0, stateless) may fall back.
        let legacy = refused(
            r#"{"jsonrpc":"2.0","id":"server-error","error":{"code":-32600,"message":"Bad Request: Unsupported protocol version: 2026-07-28."}}"#,
        );
        assert_eq!(no_fallback_because(&legacy), None);
        assert_eq!(
            no_fallback_because(&ErrorKind::HttpStatus {
                status: 405,
                body_start: String::new()
            }),
            None
        );
        assert!(no_fallback_because(&ErrorKind::JsonRpc {
            code: -32021,
            message: String::new()
        })
        .is_some());
    }

    #[cfg(not(target_arch = "wasm32"))]
    mod properties {
        use super::*;
        use crate::arbitrary;
        use proptest::prelude::*;

        proptest! {
            #[test]
            fn any_answer_is_read_without_panicking(result in arbitrary::json(), name in ".{0,40}") {
                let body = ErrorKind::HttpStatus { status: 400, body_start: result.to_string() };
                let _ = no_fallback_because(&body);
                for text in [result.to_string(), name] {
                    if let Some(read) = unsupported_version_in_body(&text) {
                        prop_assert!(read.supported.iter().all(|v| v.len() == 10));
                        let _ = retry_after_unsupported(&read, false, VersionChoice::Auto);
                    }
                }
            }
        }
    }
}
