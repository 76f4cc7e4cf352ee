//! Secrets out of what the sign-in steps show: the token endpoint's answers and the requests
//! sent to it, as JSON (members at any depth), as a form (`application/x-www-form-urlencoded`),
//! or as any other text that quotes them (an error page with `refresh_token=…` in a link).
//!
//! One rule says which names hold secrets ([`is_secret_name`]); every value under such a name
//! is replaced by [`REDACTED`] whatever its type, so a nested or listed token
//! (`{"authed_user": {"access_token": …}}`, `[{"id_token": …}]`) is as hidden as a top-level one.

use serde_json::Value;

use super::encode::{decode_query, form_encode};
use crate::error::excerpt;

pub const REDACTED: &str = "[redacted]";

/// How much of an answer that is not JSON the steps show (after its secrets are replaced).
pub const TEXT_CHARS: usize = 2_000;

/// Names whose values are secrets wherever they appear (compared without case).
const SECRET_NAMES: [&str; 17] = [
    "access_token",
    "refresh_token",
    "id_token",
    "registration_access_token",
    "client_secret",
    "client_assertion",
    "assertion",
    "subject_token",
    "actor_token",
    "code",
    "code_verifier",
    "device_code",
    "token",
    "password",
    "private_key",
    "apikey",
    "api_key",
];

/// Whether a member or field named `name` holds a secret: the names of RFC 6749, 7523, 7591,
/// 8628 and 8693 that carry credentials, and any name ending like one (`…_token`, `…secret`,
/// `…password`, `…_assertion`, `…_verifier`, `…_key`), so an authorization server's own
/// (`upstream_access_token`, `session_token`) is covered too. Names that only describe a
/// secret (`token_type`, `expires_in`, `token_endpoint`, `code_challenge`) are not.
pub fn is_secret_name(name: &str) -> bool {
    let name = name.trim().to_ascii_lowercase();
    SECRET_NAMES.contains(&name.as_str())
        || [
            "_token",
            "secret",
            "password",
            "_assertion",
            "_verifier",
            "_key",
        ]
        .iter()
        .any(|end| name.ends_with(end))
}

/// A JSON value with every secret member, at any depth, replaced by [`REDACTED`].
pub fn redact_json(value: &mut Value) {
    match value {
        Value::Object(members) => {
            for (name, member) in members.iter_mut() {
                if is_secret_name(name) {
                    *member = Value::String(REDACTED.to_owned());
                } else {
                    redact_json(member);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(redact_json),
        _ => {}
    }
}

/// A form body (`a=1&b=2`) with the values of secret fields replaced by [`REDACTED`]. The
/// other fields are decoded and encoded again, so the text shown is canonical.
pub fn redact_form(body: &str) -> String {
    let pairs = decode_query(body);
    let pairs: Vec<(&str, &str)> = pairs
        .iter()
        .map(|(name, value)| {
            let value = if is_secret_name(name) {
                REDACTED
            } else {
                value.as_str()
            };
            (name.as_str(), value)
        })
        .collect();
    form_encode(&pairs)
}

/// An answer as the steps show it: JSON with its secret members replaced at any depth (and
/// written compactly), anything else with every `name=value` or `"name": "value"` of a secret
/// name replaced, then cut to [`TEXT_CHARS`]. Total on any text.
///
/// ```
/// use mcp_lens_protocol::auth::redact::redact_answer;
/// let nested = redact_answer(r#"{"ok":true,"authed_user":{"access_token":"xoxp-1"}}"#);
/// assert_eq!(nested, r#"{"ok":true,"authed_user":{"access_token":"[redacted]"}}"#);
/// let form = redact_answer("access_token=gho_1&scope=repo&token_type=bearer");
/// assert_eq!(form, "access_token=[redacted]&scope=repo&token_type=bearer");
/// ```
pub fn redact_answer(body: &str) -> String {
    match serde_json::from_str::<Value>(body) {
        Ok(mut value @ (Value::Object(_) | Value::Array(_))) => {
            redact_json(&mut value);
            value.to_string()
        }
        _ => excerpt(&redact_text(body), TEXT_CHARS),
    }
}

/// Bytes that end a name or a bare value in text: form and URL delimiters, whitespace,
/// quotes, markup and JSON punctuation.
fn ends_value(byte: u8) -> bool {
    matches!(
        byte,
        b'&' | b';'
            | b','
            | b'#'
            | b'"'
            | b'\''
            | b'<'
            | b'>'
            | b'('
            | b')'
            | b'['
            | b']'
            | b'{'
            | b'}'
            | b'\\'
    ) || byte.is_ascii_whitespace()
}

fn in_name(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'-' | b'.' | b'%' | b'+')
}

/// Any text with the value after every secret name followed by `=` or `:` (optionally
/// quoted, with spaces around) replaced by [`REDACTED`]: form bodies, query strings inside
/// markup, JSON that does not parse, `key: value` lines. One pass, linear in the text.
pub fn redact_text(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    // `copied`: everything before it is in `out` already.
    let mut copied = 0;
    let mut at = 0;
    while at < bytes.len() {
        if !in_name(bytes[at]) || (at > 0 && in_name(bytes[at - 1])) {
            at += 1;
            continue;
        }
        let name_start = at;
        while at < bytes.len() && in_name(bytes[at]) {
            at += 1;
        }
        let name = &text[name_start..at];
        let decoded = decode_query(&format!("{name}=")).pop().map(|(n, _)| n);
        if !decoded.as_deref().is_some_and(is_secret_name) {
            continue;
        }
        // After the name: an optional closing quote, spaces, then `=` or `:`.
        let mut cursor = at;
        if matches!(bytes.get(cursor), Some(b'"' | b'\'')) {
            cursor += 1;
        }
        while bytes.get(cursor).is_some_and(|b| *b == b' ' || *b == b'\t') {
            cursor += 1;
        }
        if !matches!(bytes.get(cursor), Some(b'=' | b':')) {
            continue;
        }
        cursor += 1;
        while bytes.get(cursor).is_some_and(|b| *b == b' ' || *b == b'\t') {
            cursor += 1;
        }
        let (value_start, value_end) = match bytes.get(cursor) {
            Some(&quote @ (b'"' | b'\'')) => {
                let start = cursor + 1;
                let mut end = start;
                while end < bytes.len() && bytes[end] != quote {
                    end += if bytes[end] == b'\\' { 2 } else { 1 };
                }
                (start, end.min(bytes.len()))
            }
            _ => {
                let mut end = cursor;
                while end < bytes.len() && !ends_value(bytes[end]) {
                    end += 1;
                }
                (cursor, end)
            }
        };
        if value_end > value_start {
            out.push_str(&text[copied..value_start]);
            out.push_str(REDACTED);
            copied = value_end;
        }
        at = value_end.max(at);
    }
    out.push_str(&text[copied..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn secret_names_and_names_that_only_describe_secrets() {
        for name in [
            "access_token",
            "Refresh_Token",
            "id_token",
            "client_secret",
            "code",
            "code_verifier",
            "upstream_access_token",
            "session_token",
            "app_secret",
            "subject_token",
            "client_assertion",
            "private_key",
        ] {
            assert!(is_secret_name(name), "{name}");
        }
        for name in [
            "token_type",
            "issued_token_type",
            "expires_in",
            "token_endpoint",
            "code_challenge",
            "code_challenge_method",
            "scope",
            "client_id",
            "error_description",
            "id_token_signing_alg_values_supported",
            "client_secret_expires_at",
        ] {
            assert!(!is_secret_name(name), "{name}");
        }
    }

    #[test]
    fn nested_and_listed_members_are_redacted_whatever_their_type() {
        let answer = json!({
            "ok": true,
            "access_token": "top",
            "authed_user": { "id": "U1", "access_token": "nested", "scope": "chat" },
            "issued": [{ "id_token": "in-array" }, { "kind": "x", "refresh_token": { "value": "object" } }],
            "client_secret": 42,
        });
        let shown = redact_answer(&answer.to_string());
        for secret in ["top", "nested", "in-array", "object", "42"] {
            assert!(!shown.contains(secret), "{secret}: {shown}");
        }
        for kept in ["U1", "chat", "\"kind\":\"x\"", "\"ok\":true"] {
            assert!(shown.contains(kept), "{kept}: {shown}");
        }
    }

    #[test]
    fn forms_and_text_quoting_secrets() {
        assert_eq!(
            redact_form("grant_type=refresh_token&refresh_token=r%2B1&actor_token=a&resource=https%3A%2F%2Fh"),
            "grant_type=refresh_token&refresh_token=%5Bredacted%5D&actor_token=%5Bredacted%5D&resource=https%3A%2F%2Fh"
        );
        assert_eq!(
            redact_answer("access_token=gho_16C7&scope=repo%2Cgist&token_type=bearer"),
            "access_token=[redacted]&scope=repo%2Cgist&token_type=bearer"
        );
        let html = r#"<a href="/x?refresh_token=r1&y=2">refresh_token=r2</a> "id_token": "i\"3" code: c4; client%5Fsecret=s5"#;
        let shown = redact_answer(html);
        for secret in ["r1", "r2", "i\\\"3", "c4", "s5"] {
            assert!(!shown.contains(secret), "{secret}: {shown}");
        }
        assert!(
            shown.contains("y=2") && shown.contains("<a href=\"/x?"),
            "{shown}"
        );
        // Names inside other words are not names.
        assert_eq!(redact_text("barcode=1 decode: 2"), "barcode=1 decode: 2");
        // Odd text: nothing to find, nothing lost, no panic.
        for odd in [
            "",
            "=",
            "token=",
            "token",
            "\"token\"",
            "token:\"unterminated",
            "é token=é",
        ] {
            let _ = redact_answer(odd);
        }
        assert!(!redact_answer("token:\"unterminated").contains("unterminated"));
        assert!(!redact_answer("é token=é").contains("=é"));
    }

    #[cfg(not(target_arch = "wasm32"))]
    mod properties {
        use super::*;
        use proptest::prelude::*;

        /// A secret value: distinctive, so its absence from the text shown is meaningful.
        fn secret() -> impl Strategy<Value = String> {
            "[A-Za-z0-9]{6,16}".prop_map(|tail| format!("SECRET{tail}"))
        }

        /// Any JSON with secret members planted at any depth: in objects (beside other
        /// members) and in objects inside arrays.
        fn planted() -> impl Strategy<Value = Value> {
            let name = prop::sample::select(vec![
                "access_token",
                "refresh_token",
                "id_token",
                "client_secret",
                "registration_access_token",
                "upstream_access_token",
                "Code",
            ]);
            let leaf = prop_oneof![
                crate::arbitrary::json(),
                (name.clone(), secret()).prop_map(|(n, s)| json!({ n: s })),
            ];
            leaf.prop_recursive(5, 64, 6, move |inner| {
                prop_oneof![
                    prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                    (
                        prop::collection::vec(("[a-z_]{1,8}", inner.clone()), 0..4),
                        prop::option::of((name.clone(), secret())),
                    )
                        .prop_map(|(members, planted)| {
                            let mut object = serde_json::Map::new();
                            for (key, value) in members {
                                object.insert(key, value);
                            }
                            if let Some((name, secret)) = planted {
                                object.insert(name.to_owned(), Value::String(secret));
                            }
                            Value::Object(object)
                        }),
                ]
            })
        }

        /// The keys and strings of a value, depth first.
        fn texts(value: &Value) -> Vec<String> {
            match value {
                Value::String(text) => vec![text.clone()],
                Value::Array(items) => items.iter().flat_map(texts).collect(),
                Value::Object(members) => members
                    .iter()
                    .flat_map(|(key, member)| std::iter::once(key.clone()).chain(texts(member)))
                    .collect(),
                _ => Vec::new(),
            }
        }

        proptest! {
            /// No planted secret survives, at any depth, and the rest is kept.
            #[test]
            fn no_secret_at_any_depth_survives(value in planted()) {
                let shown = redact_answer(&value.to_string());
                prop_assert!(!shown.contains("SECRET"), "{}", shown);
                if value.is_object() || value.is_array() {
                    // Every key and string but the secrets, in order (numbers aside: floats
                    // do not round-trip through text exactly).
                    let mut expected = value.clone();
                    redact_json(&mut expected);
                    let shown: Value = serde_json::from_str(&shown).unwrap_or(Value::Null);
                    prop_assert_eq!(texts(&shown), texts(&expected));
                }
            }

            /// A form answer or request with secrets among other fields, in any order and
            /// percent-encoding: no secret survives, other fields are kept.
            #[test]
            fn no_secret_in_a_form_survives(
                fields in prop::collection::vec(
                    (prop::sample::select(vec!["access_token", "refresh_token", "code", "code_verifier", "scope", "token_type", "state"]),
                     secret(), any::<bool>()),
                    1..8,
                )
            ) {
                let body = fields
                    .iter()
                    .map(|(name, value, encoded)| {
                        let name = if *encoded { name.replace('_', "%5F") } else { (*name).to_owned() };
                        format!("{name}={value}")
                    })
                    .collect::<Vec<_>>()
                    .join("&");
                for shown in [redact_answer(&body), redact_form(&body)] {
                    for (name, value, _) in &fields {
                        prop_assert_eq!(shown.contains(value.as_str()), !is_secret_name(name), "{}", shown);
                    }
                }
            }

            /// Any text: no panic, and the result is no longer than the text plus the
            /// placeholders (each replaces at least one byte).
            #[test]
            fn any_text_is_redacted_without_panicking(text in ".{0,200}") {
                let shown = redact_text(&text);
                prop_assert!(shown.len() <= text.len() * (REDACTED.len() + 1));
                let _ = redact_answer(&text);
            }
        }
    }
}
