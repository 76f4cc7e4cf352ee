//! The app's `ui://` resource, read as the reference host reads it (`basic-host`
//! `implementation.ts`, `getUiResource`): exactly one content item; its `mimeType` equal to
//! `text/html;profile=mcp-app` (a plain string comparison there: no case folding, no
//! parameter parsing, so `text/html; profile=mcp-app` is refused; here too, reported as a
//! near miss so a server author learns why); the HTML from `text`, or from `blob` decoded as
//! base64 (`atob`, whose forgiving decoding is followed); `_meta.ui` from the content item
//! (`_meta`, or `meta` as the Python SDK once wrote it), else from the `resources/list` entry.

use std::fmt;

use serde_json::Value;

use super::csp::{CspDecl, Permissions};
use super::spec::RESOURCE_MIME_TYPE;
use crate::error::excerpt;

/// Largest HTML accepted (decoded).
pub const MAX_HTML_BYTES: usize = 8 * 1024 * 1024;

/// Why a resource cannot be rendered as an app.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UiResourceError {
    /// The result has no `contents` array.
    NoContents,
    /// Not exactly one content item (the reference host's "Unexpected contents count").
    ContentCount(usize),
    /// The MIME type is not `text/html;profile=mcp-app`. `near_miss`: it is, ignoring case
    /// and spaces, which the reference host does not ignore either.
    MimeType {
        found: String,
        near_miss: bool,
    },
    /// Neither a `text` nor a `blob` string.
    NoHtml,
    /// `blob` is not base64.
    Base64,
    /// The decoded `blob` is not UTF-8.
    NotUtf8,
    TooLarge,
}

impl fmt::Display for UiResourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UiResourceError::NoContents => write!(f, "the resources/read result has no contents"),
            UiResourceError::ContentCount(n) => {
                write!(
                    f,
                    "the UI resource has {n} content items; exactly one is rendered"
                )
            }
            UiResourceError::MimeType { found, near_miss } => {
                write!(
                    f,
                    "the MIME type is \"{found}\", not \"{RESOURCE_MIME_TYPE}\""
                )?;
                if *near_miss {
                    write!(f, " (hosts compare it exactly: no spaces, lowercase)")?;
                }
                Ok(())
            }
            UiResourceError::NoHtml => write!(f, "the content has neither text nor blob"),
            UiResourceError::Base64 => write!(f, "the blob is not valid base64"),
            UiResourceError::NotUtf8 => write!(f, "the blob is not UTF-8 text"),
            UiResourceError::TooLarge => write!(f, "the HTML is larger than 8 MiB"),
        }
    }
}

/// Where `_meta.ui` was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetaSource {
    /// The `resources/read` content item (the spec's place).
    Content,
    /// The `resources/list` entry (the spec's fallback).
    Listing,
    /// Neither: nothing declared, so the most restrictive policy.
    None,
}

/// An app ready to be framed.
///
/// ```
/// use mcp_lens_protocol::apps::read_ui_resource;
/// use serde_json::json;
/// // The spec's "Resource content with metadata" example.
/// let app = read_ui_resource(&json!({ "contents": [{
///     "uri": "ui://weather-server/dashboard-template",
///     "mimeType": "text/html;profile=mcp-app",
///     "text": "<!DOCTYPE html><html>...</html>",
///     "_meta": { "ui": {
///         "csp": { "connectDomains": ["https://api.openweathermap.org"],
///                  "resourceDomains": ["https://cdn.jsdelivr.net"] },
///         "prefersBorder": true
///     } }
/// }] }), None).unwrap();
/// assert_eq!(app.csp.connect, ["https://api.openweathermap.org"]);
/// assert_eq!(app.prefers_border, Some(true));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct UiResource {
    /// The content item's `uri` (empty if it had none).
    pub uri: String,
    pub html: String,
    pub csp: CspDecl,
    /// What the resource asks for; the frame gets only what the person also grants.
    pub permissions: Permissions,
    /// `_meta.ui.domain`, shown only: a static page cannot give an app a dedicated origin.
    pub domain: Option<String>,
    pub prefers_border: Option<bool>,
    pub meta_source: MetaSource,
}

impl UiResource {
    /// `hostCapabilities.sandbox` for this app: the permissions it requested that the person
    /// `granted`, and the CSP domains accepted (not the ones rejected).
    ///
    /// ```
    /// use mcp_lens_protocol::apps::{read_ui_resource, Permissions};
    /// use serde_json::json;
    /// let app = read_ui_resource(&json!({ "contents": [{
    ///     "mimeType": "text/html;profile=mcp-app", "text": "<p>",
    ///     "_meta": { "ui": { "permissions": { "camera": {}, "microphone": {} },
    ///                        "csp": { "connectDomains": ["https://api.example.com", "*"] } } }
    /// }] }), None).unwrap();
    /// let granted = Permissions { microphone: true, geolocation: true, ..Permissions::default() };
    /// let (permissions, csp) = app.sandbox_capability(granted);
    /// assert_eq!(permissions.to_json(), json!({ "microphone": {} }));
    /// assert_eq!(csp, json!({ "connectDomains": ["https://api.example.com"] }));
    /// ```
    pub fn sandbox_capability(&self, granted: Permissions) -> (Permissions, Value) {
        (self.permissions.intersect(granted), self.csp.to_json())
    }
}

/// Reads a `resources/read` result for an app. `listing` is the resource's `resources/list`
/// entry, if the server listed it (its `_meta.ui` is the fallback).
pub fn read_ui_resource(
    result: &Value,
    listing: Option<&Value>,
) -> Result<UiResource, UiResourceError> {
    let contents = result
        .get("contents")
        .and_then(Value::as_array)
        .ok_or(UiResourceError::NoContents)?;
    let [content] = contents.as_slice() else {
        return Err(UiResourceError::ContentCount(contents.len()));
    };
    let mime = content.get("mimeType").and_then(Value::as_str);
    if mime != Some(RESOURCE_MIME_TYPE) {
        let found = match content.get("mimeType") {
            Some(Value::String(s)) => s.clone(),
            Some(other) => other.to_string(),
            None => String::new(),
        };
        let near_miss = mime.is_some_and(|m| {
            let squeezed: String = m.chars().filter(|c| !c.is_whitespace()).collect();
            squeezed.eq_ignore_ascii_case(RESOURCE_MIME_TYPE)
        });
        return Err(UiResourceError::MimeType {
            found: excerpt(&found, 100),
            near_miss,
        });
    }
    let html = html_of(content)?;
    // `content._meta || content.meta`, then `contentMeta?.ui ?? listingMeta?.ui`.
    let content_meta = [content.get("_meta"), content.get("meta")]
        .into_iter()
        .flatten()
        .find(|m| super::csp::truthy(m));
    let content_ui = content_meta
        .and_then(|m| m.get("ui"))
        .filter(|ui| !ui.is_null());
    let listing_ui = listing
        .and_then(|l| l.get("_meta"))
        .and_then(|m| m.get("ui"))
        .filter(|ui| !ui.is_null());
    let (ui, meta_source) = match (content_ui, listing_ui) {
        (Some(ui), _) => (Some(ui), MetaSource::Content),
        (None, Some(ui)) => (Some(ui), MetaSource::Listing),
        (None, None) => (None, MetaSource::None),
    };
    let field = |key: &str| ui.and_then(|ui| ui.get(key));
    Ok(UiResource {
        uri: content
            .get("uri")
            .and_then(Value::as_str)
            .map(|u| excerpt(u, super::tool::MAX_URI_CHARS))
            .unwrap_or_default(),
        html,
        csp: CspDecl::from_value(field("csp")),
        permissions: Permissions::from_value(field("permissions")),
        domain: field("domain")
            .and_then(Value::as_str)
            .map(|d| crate::error::reveal_controls(&excerpt(d, 253))),
        prefers_border: field("prefersBorder").and_then(Value::as_bool),
        meta_source,
    })
}

fn html_of(content: &Value) -> Result<String, UiResourceError> {
    // `"blob" in content ? atob(content.blob) : content.text`.
    if let Some(blob) = content.get("blob") {
        let blob = blob.as_str().ok_or(UiResourceError::NoHtml)?;
        if blob.len() / 4 * 3 > MAX_HTML_BYTES + 3 {
            return Err(UiResourceError::TooLarge);
        }
        let bytes = forgiving_base64(blob).ok_or(UiResourceError::Base64)?;
        if bytes.len() > MAX_HTML_BYTES {
            return Err(UiResourceError::TooLarge);
        }
        return String::from_utf8(bytes).map_err(|_| UiResourceError::NotUtf8);
    }
    let text = content
        .get("text")
        .and_then(Value::as_str)
        .ok_or(UiResourceError::NoHtml)?;
    if text.len() > MAX_HTML_BYTES {
        return Err(UiResourceError::TooLarge);
    }
    Ok(text.to_owned())
}

/// The WHATWG "forgiving-base64 decode" that `atob` uses: ASCII whitespace ignored, padding
/// optional.
pub fn forgiving_base64(text: &str) -> Option<Vec<u8>> {
    let mut data: Vec<u8> = text
        .bytes()
        .filter(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\x0c' | b'\r'))
        .collect();
    if data.len().is_multiple_of(4) {
        if data.ends_with(b"==") {
            data.truncate(data.len() - 2);
        } else if data.ends_with(b"=") {
            data.truncate(data.len() - 1);
        }
    }
    if data.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(data.len() / 4 * 3 + 2);
    let mut buffer: u32 = 0;
    let mut bits = 0;
    for byte in data {
        let value = match byte {
            b'A'..=b'Z' => byte - b'A',
            b'a'..=b'z' => byte - b'a' + 26,
            b'0'..=b'9' => byte - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        };
        buffer = buffer << 6 | u32::from(value);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((buffer >> bits) as u8);
            buffer &= (1 << bits) - 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn one(content: Value) -> Value {
        json!({ "contents": [content] })
    }

    #[test]
    fn text_and_blob_give_the_html() {
        let app = read_ui_resource(
            &one(json!({ "uri": "ui://a/b", "mimeType": RESOURCE_MIME_TYPE, "text": "<p>hi</p>" })),
            None,
        )
        .unwrap();
        assert_eq!(app.html, "<p>hi</p>");
        assert_eq!(app.uri, "ui://a/b");
        assert_eq!(app.meta_source, MetaSource::None);
        assert!(!app.csp.reaches_network());
        // base64 of "<p>é</p>", with whitespace and without padding, as atob accepts.
        let blob = crate::auth::encode::base64("<p>é</p>".as_bytes());
        for encoded in [
            blob.clone(),
            blob.trim_end_matches('=').to_owned(),
            format!(" {blob}\n"),
        ] {
            let app = read_ui_resource(
                &one(json!({ "mimeType": RESOURCE_MIME_TYPE, "blob": encoded })),
                None,
            )
            .unwrap();
            assert_eq!(app.html, "<p>é</p>");
        }
        // A blob wins over text ("blob" in content).
        let app = read_ui_resource(
            &one(json!({ "mimeType": RESOURCE_MIME_TYPE, "blob": "eA==", "text": "y" })),
            None,
        )
        .unwrap();
        assert_eq!(app.html, "x");
    }

    #[test]
    fn what_the_reference_host_refuses_is_an_error() {
        let html = |mime: Value| one(json!({ "mimeType": mime, "text": "x" }));
        assert_eq!(
            read_ui_resource(&json!({}), None),
            Err(UiResourceError::NoContents)
        );
        assert_eq!(
            read_ui_resource(&json!({ "contents": [] }), None),
            Err(UiResourceError::ContentCount(0))
        );
        let two = json!({ "mimeType": RESOURCE_MIME_TYPE, "text": "x" });
        assert_eq!(
            read_ui_resource(&json!({ "contents": [two.clone(), two] }), None),
            Err(UiResourceError::ContentCount(2))
        );
        for (mime, near_miss) in [
            (json!("text/html; profile=mcp-app"), true),
            (json!("TEXT/HTML;PROFILE=MCP-APP"), true),
            (json!("text/html"), false),
            (json!("text/html;profile=mcp-app;charset=utf-8"), false),
            (json!(null), false),
            (json!(7), false),
        ] {
            match read_ui_resource(&html(mime.clone()), None) {
                Err(UiResourceError::MimeType { near_miss: n, .. }) => {
                    assert_eq!(n, near_miss, "{mime}")
                }
                other => panic!("{mime}: {other:?}"),
            }
        }
        let mime = RESOURCE_MIME_TYPE;
        for (content, error) in [
            (json!({ "mimeType": mime }), UiResourceError::NoHtml),
            (
                json!({ "mimeType": mime, "text": 5 }),
                UiResourceError::NoHtml,
            ),
            (
                json!({ "mimeType": mime, "blob": null, "text": "x" }),
                UiResourceError::NoHtml,
            ),
            (
                json!({ "mimeType": mime, "blob": "!!!!" }),
                UiResourceError::Base64,
            ),
            (
                json!({ "mimeType": mime, "blob": "a" }),
                UiResourceError::Base64,
            ),
            (
                json!({ "mimeType": mime, "blob": "/w==" }),
                UiResourceError::NotUtf8,
            ),
        ] {
            assert_eq!(
                read_ui_resource(&one(content.clone()), None),
                Err(error),
                "{content}"
            );
        }
        let big = "a".repeat(MAX_HTML_BYTES + 1);
        assert_eq!(
            read_ui_resource(&one(json!({ "mimeType": mime, "text": big })), None),
            Err(UiResourceError::TooLarge)
        );
        assert!(UiResourceError::MimeType {
            found: "text/html; profile=mcp-app".into(),
            near_miss: true
        }
        .to_string()
        .contains("compare it exactly"));
    }

    #[test]
    fn content_meta_wins_over_the_listing_as_a_whole() {
        let listing = json!({ "uri": "ui://a", "_meta": { "ui": {
            "csp": { "connectDomains": ["https://listed.example.com"] },
            "permissions": { "camera": {} }
        } } });
        // Content-level `ui` present: the listing is not merged in.
        let app = read_ui_resource(
            &one(json!({ "mimeType": RESOURCE_MIME_TYPE, "text": "x",
                         "_meta": { "ui": { "csp": { "resourceDomains": ["https://cdn.example.com"] } } } })),
            Some(&listing),
        )
        .unwrap();
        assert_eq!(app.meta_source, MetaSource::Content);
        assert!(app.csp.connect.is_empty());
        assert_eq!(app.csp.resource, ["https://cdn.example.com"]);
        assert!(!app.permissions.any());
        // No content-level `ui`: the listing's.
        let app = read_ui_resource(
            &one(json!({ "mimeType": RESOURCE_MIME_TYPE, "text": "x", "_meta": {} })),
            Some(&listing),
        )
        .unwrap();
        assert_eq!(app.meta_source, MetaSource::Listing);
        assert_eq!(app.csp.connect, ["https://listed.example.com"]);
        assert!(app.permissions.camera);
        // The Python SDK's `meta`.
        let app = read_ui_resource(
            &one(json!({ "mimeType": RESOURCE_MIME_TYPE, "text": "x",
                         "meta": { "ui": { "domain": "a.example.com", "prefersBorder": false } } })),
            None,
        )
        .unwrap();
        assert_eq!(app.domain.as_deref(), Some("a.example.com"));
        assert_eq!(app.prefers_border, Some(false));
    }

    #[test]
    fn forgiving_base64_matches_rfc_4648_vectors() {
        for (plain, encoded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(forgiving_base64(encoded).unwrap(), plain.as_bytes());
        }
        assert_eq!(forgiving_base64("Zg").unwrap(), b"f");
        assert!(forgiving_base64("Zg=").is_none());
        assert!(forgiving_base64("Z===").is_none());
    }
}
