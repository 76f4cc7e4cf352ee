//! Which transport to use, and the rules of the legacy HTTP+SSE transport (protocol
//! 2024-11-05), as data: when Auto falls back to it, and where its POSTs go.

pub use crate::url::origin_of;
use crate::url::WebUrl;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The transport a person picked. Saved as its [`key`](TransportChoice::key); a key this
/// version does not know reads as Auto.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TransportChoice {
    /// Streamable HTTP, falling back to legacy SSE when the server refuses the first POST.
    #[default]
    Auto,
    StreamableHttp,
    LegacySse,
}

impl TransportChoice {
    pub const ALL: [TransportChoice; 3] = [
        TransportChoice::Auto,
        TransportChoice::StreamableHttp,
        TransportChoice::LegacySse,
    ];

    pub fn label(self) -> &'static str {
        match self {
            TransportChoice::Auto => "Auto",
            TransportChoice::StreamableHttp => "Streamable HTTP",
            TransportChoice::LegacySse => "SSE (legacy)",
        }
    }

    /// The short name used in deep links (`?transport=`).
    pub fn key(self) -> &'static str {
        match self {
            TransportChoice::Auto => "auto",
            TransportChoice::StreamableHttp => "streamable-http",
            TransportChoice::LegacySse => "sse",
        }
    }

    pub fn from_key(key: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|choice| choice.key() == key)
    }
}

impl Serialize for TransportChoice {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.key())
    }
}

impl<'de> Deserialize<'de> for TransportChoice {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let key = String::deserialize(deserializer)?;
        Ok(Self::from_key(&key).unwrap_or_default())
    }
}

/// The transport in use, and why it was chosen (shown to the person).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransportUsed {
    pub legacy: bool,
    pub reason: String,
}

impl TransportUsed {
    pub fn label(&self) -> &'static str {
        if self.legacy {
            "SSE (legacy)"
        } else {
            "Streamable HTTP"
        }
    }
}

/// Per the specification's backward-compatibility section: a server that answers the first
/// POST with 400, 404 or 405 may be an old HTTP+SSE server.
pub fn falls_back_to_legacy(status: u16) -> bool {
    matches!(status, 400 | 404 | 405)
}

/// The path of a URL as a browser reads it, or "" when it is no http(s) URL.
fn url_path(url: &str) -> String {
    WebUrl::parse(url)
        .map(|url| url.path().to_owned())
        .unwrap_or_default()
}

/// On Auto, a URL whose path ends in `/sse` is a legacy HTTP+SSE endpoint by convention (the
/// SDKs serve it there), so it is opened as one at once instead of being POSTed to first.
pub fn auto_prefers_legacy(url: &str) -> bool {
    url_path(url)
        .trim_end_matches('/')
        .to_ascii_lowercase()
        .ends_with("/sse")
}

/// A suggestion for a URL that answered 404 at connect: the SDKs serve Streamable HTTP at
/// `/mcp` and legacy SSE at `/sse`, so a URL with neither likely misses the path.
pub fn missing_path_hint(url: &str) -> Option<String> {
    let path = url_path(url).trim_end_matches('/').to_ascii_lowercase();
    if path.ends_with("/mcp") || path.ends_with("/sse") {
        return None;
    }
    let base = WebUrl::parse(url).ok()?;
    let base = format!("{}{}", base.origin(), base.path().trim_end_matches('/'));
    Some(format!(
        "Nothing answered at this path. MCP servers usually serve Streamable HTTP at /mcp and legacy SSE at /sse: try {base}/mcp or {base}/sse."
    ))
}

/// Resolves the `endpoint` event's URL against the SSE URL. Servers usually send a path
/// (`/message?sessionId=...`); relative paths resolve against the SSE URL's directory.
///
/// The result must have the SSE URL's origin (scheme, host and port), as both official SDKs
/// require: the client POSTs the person's token and headers there, so a server must not be
/// able to send them elsewhere. Text a browser would read differently than this parser
/// (whitespace, control characters, backslashes) is refused rather than guessed at.
pub fn resolve_endpoint(sse_url: &str, endpoint: &str) -> Result<String, String> {
    let endpoint = endpoint.trim_matches([' ', '\t', '\r', '\n']);
    if endpoint.is_empty() {
        return Err("the server's endpoint event is empty".to_owned());
    }
    if endpoint
        .chars()
        .any(|c| c.is_control() || c.is_whitespace() || c == '\\')
    {
        return Err(format!(
            "the server's endpoint event is not a plain URL ({:?}); it was not used",
            crate::error::excerpt(endpoint, 120)
        ));
    }
    let base =
        WebUrl::parse(sse_url).map_err(|error| format!("the SSE URL is not usable: {error}"))?;
    let resolved = base.join(endpoint).map_err(|error| {
        format!(
            "the server's endpoint event names a URL that is not usable ({:?}: {error}); it was not used",
            crate::error::excerpt(endpoint, 120)
        )
    })?;
    let (wanted, offered) = (base.origin(), resolved.origin());
    if wanted != offered {
        return Err(format!(
            "the server's endpoint event sends messages to another origin ({offered}); mcp-lens posts your \
             token and headers only to the origin you connected to ({wanted}), so it did not follow it"
        ));
    }
    Ok(resolved.into_href())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fallback_only_on_the_statuses_the_spec_names() {
        for status in [400, 404, 405] {
            assert!(falls_back_to_legacy(status));
        }
        for status in [200, 202, 401, 403, 406, 415, 500] {
            assert!(!falls_back_to_legacy(status));
        }
    }

    #[test]
    fn endpoints_resolve_like_a_browser_would() {
        let sse = "http://127.0.0.1:3001/sse";
        assert_eq!(
            resolve_endpoint(sse, "/message?sessionId=abc").unwrap(),
            "http://127.0.0.1:3001/message?sessionId=abc"
        );
        assert_eq!(
            resolve_endpoint("http://h:1/api/v1/sse?x=1", "messages/?session_id=9").unwrap(),
            "http://h:1/api/v1/messages/?session_id=9"
        );
        assert_eq!(
            resolve_endpoint(sse, "http://127.0.0.1:3001/m?s=1").unwrap(),
            "http://127.0.0.1:3001/m?s=1"
        );
        assert_eq!(
            resolve_endpoint("https://a.example/sse", "//a.example/m").unwrap(),
            "https://a.example/m"
        );
        assert_eq!(
            resolve_endpoint("http://h:1", "m?s=1").unwrap(),
            "http://h:1/m?s=1"
        );
        assert!(resolve_endpoint(sse, "  ").is_err());
        assert!(resolve_endpoint("nonsense", "/m").is_err());
    }

    #[test]
    fn an_endpoint_on_another_origin_is_refused_naming_it() {
        let sse = "http://127.0.0.1:3001/sse";
        for (endpoint, offered) in [
            ("https://evil.example/m", "https://evil.example"),
            ("//evil.example/m", "http://evil.example"),
            ("http://127.0.0.1:3002/m", "http://127.0.0.1:3002"),
            ("https://127.0.0.1:3001/m", "https://127.0.0.1:3001"),
            (
                "http://127.0.0.1:3001@evil.example/m",
                "http://evil.example",
            ),
        ] {
            let error = resolve_endpoint(sse, endpoint).unwrap_err();
            assert!(
                error.contains(&format!("another origin ({offered})")),
                "{endpoint}: {error}"
            );
            assert!(error.contains("(http://127.0.0.1:3001)"), "{error}");
        }
        for sneaky in [
            "/\\evil.example/m",
            "\u{a0}//evil.example",
            "/m\nHost: x",
            "javascript:alert(1)",
            "evil.example:80/m",
        ] {
            assert!(resolve_endpoint(sse, sneaky).is_err(), "{sneaky:?}");
        }
        // The default port is the same origin written either way.
        assert!(resolve_endpoint("http://h/sse", "http://H:80/m").is_ok());
    }

    #[test]
    fn origins_are_normalised() {
        assert_eq!(
            origin_of("HTTP://Example.COM:80/x").as_deref(),
            Some("http://example.com")
        );
        assert_eq!(
            origin_of("https://h:8443").as_deref(),
            Some("https://h:8443")
        );
        assert_eq!(origin_of("https://u:p@h/").as_deref(), Some("https://h"));
        assert_eq!(
            origin_of("http://[::1]:3001/").as_deref(),
            Some("http://[::1]:3001")
        );
        assert_eq!(origin_of("http://[::1]/").as_deref(), Some("http://[::1]"));
        assert_eq!(origin_of("ftp://h/"), None);
        assert_eq!(origin_of("http://:80/"), None);
    }

    #[test]
    fn urls_ending_in_sse_go_to_legacy_on_auto() {
        assert!(auto_prefers_legacy("http://127.0.0.1:3001/sse"));
        assert!(auto_prefers_legacy("http://h/api/SSE/?token=x"));
        assert!(!auto_prefers_legacy("http://h/mcp"));
        assert!(!auto_prefers_legacy("http://h/sse/mcp"));
        assert!(!auto_prefers_legacy("http://h/mcp?next=/sse"));
        assert!(!auto_prefers_legacy("http://sse"));
        assert!(!auto_prefers_legacy("http://h/ssex"));
    }

    #[test]
    fn a_404_suggests_the_usual_paths_only_when_missing() {
        assert_eq!(
            missing_path_hint("http://127.0.0.1:8000/").unwrap(),
            "Nothing answered at this path. MCP servers usually serve Streamable HTTP at /mcp and legacy SSE at /sse: try http://127.0.0.1:8000/mcp or http://127.0.0.1:8000/sse."
        );
        assert!(missing_path_hint("http://h/api?x=1")
            .unwrap()
            .contains("try http://h/api/mcp"));
        assert_eq!(missing_path_hint("http://h/mcp"), None);
        assert_eq!(missing_path_hint("http://h/v1/mcp/"), None);
        assert_eq!(missing_path_hint("http://h/sse"), None);
    }

    #[test]
    fn choices_round_trip_through_their_keys() {
        for choice in TransportChoice::ALL {
            assert_eq!(TransportChoice::from_key(choice.key()), Some(choice));
        }
        assert_eq!(TransportChoice::from_key("carrier-pigeon"), None);
    }
}
