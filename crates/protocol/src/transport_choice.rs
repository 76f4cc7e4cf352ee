//! Which transport to use, and the rules of the legacy HTTP+SSE transport (protocol
//! 2024-11-05), as data: when Auto falls back to it, and where its POSTs go.

/// The transport a person picked.
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

/// The path of a URL (no query or fragment), or "" when it has none.
fn url_path(url: &str) -> &str {
    let after_scheme = url.find("://").map_or(url, |i| &url[i + 3..]);
    let after_authority = after_scheme
        .find(['/', '?', '#'])
        .map_or("", |i| &after_scheme[i..]);
    let end = after_authority
        .find(['?', '#'])
        .unwrap_or(after_authority.len());
    &after_authority[..end]
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
    let base = url
        .split(['?', '#'])
        .next()
        .unwrap_or(url)
        .trim_end_matches('/');
    Some(format!(
        "Nothing answered at this path. MCP servers usually serve Streamable HTTP at /mcp and legacy SSE at /sse: try {base}/mcp or {base}/sse."
    ))
}

/// The origin of an absolute http(s) URL, normalised (scheme and host lower-case, the
/// default port dropped): `http://H:80/x` -> `http://h`. `None` for anything else.
pub fn origin_of(url: &str) -> Option<String> {
    let scheme_end = url.find("://")?;
    let scheme = url[..scheme_end].to_ascii_lowercase();
    let default_port = match scheme.as_str() {
        "http" => "80",
        "https" => "443",
        _ => return None,
    };
    let rest = &url[scheme_end + 3..];
    let authority = &rest[..rest.find(['/', '?', '#']).unwrap_or(rest.len())];
    // Userinfo never counts as part of the origin.
    let host_port = authority.rsplit('@').next().unwrap_or(authority);
    let (host, port) = match host_port.rfind(':') {
        Some(colon) if !host_port[colon..].contains(']') => {
            (&host_port[..colon], &host_port[colon + 1..])
        }
        _ => (host_port, default_port),
    };
    if host.is_empty() || !port.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let port = port.trim_start_matches('0');
    let host = host.to_ascii_lowercase();
    Some(
        if port == default_port || port.is_empty() && default_port.is_empty() {
            format!("{scheme}://{host}")
        } else {
            format!("{scheme}://{host}:{port}")
        },
    )
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
    let Some(scheme_end) = sse_url.find("://") else {
        return Err(format!("the SSE URL \"{sse_url}\" has no scheme"));
    };
    let scheme = &sse_url[..scheme_end];
    let after_scheme = &sse_url[scheme_end + 3..];
    let authority_end = after_scheme
        .find(['/', '?', '#'])
        .unwrap_or(after_scheme.len());
    let origin = &sse_url[..scheme_end + 3 + authority_end];
    let lower = endpoint.to_ascii_lowercase();
    let resolved = if lower.starts_with("http://") || lower.starts_with("https://") {
        endpoint.to_owned()
    } else if let Some(rest) = endpoint.strip_prefix("//") {
        format!("{scheme}://{rest}")
    } else if endpoint.starts_with('/') {
        format!("{origin}{endpoint}")
    } else if lower
        .find(':')
        .is_some_and(|colon| lower.find('/').is_none_or(|slash| colon < slash))
    {
        // Another scheme (`javascript:`, `data:` ...) or a scheme-less `host:port`.
        return Err(format!(
            "the server's endpoint event names a URL that is not http(s) ({:?}); it was not used",
            crate::error::excerpt(endpoint, 120)
        ));
    } else {
        // A relative path: replace the last segment of the SSE URL's path.
        let path = &after_scheme[authority_end..];
        let path = &path[..path.find(['?', '#']).unwrap_or(path.len())];
        let directory = &path[..path.rfind('/').map_or(0, |i| i + 1)];
        let directory = if directory.is_empty() { "/" } else { directory };
        format!("{origin}{directory}{endpoint}")
    };
    let (Some(wanted), Some(offered)) = (origin_of(sse_url), origin_of(&resolved)) else {
        return Err(format!(
            "the server's endpoint event names \"{}\", which is not an http(s) URL on the SSE URL's origin",
            crate::error::excerpt(&resolved, 120)
        ));
    };
    if wanted != offered {
        return Err(format!(
            "the server's endpoint event sends messages to another origin ({offered}); mcp-lens posts your \
             token and headers only to the origin you connected to ({wanted}), so it did not follow it"
        ));
    }
    Ok(resolved)
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
