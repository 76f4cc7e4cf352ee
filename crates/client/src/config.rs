//! What a connection is made with, and the parsers of the connection form. Pure, so it is
//! tested natively.
//!
//! ```
//! use mcp_lens_client::config::{check_server_url, parse_header_lines, parse_seconds};
//! assert!(check_server_url("http://127.0.0.1:3001/mcp").is_ok());
//! assert!(check_server_url("/mcp").is_err());
//! let headers = parse_header_lines("X-Api-Key: abc\n\nX-Team: core").unwrap();
//! assert_eq!(headers[1], ("X-Team".to_owned(), "core".to_owned()));
//! assert_eq!(parse_seconds("1.5"), Some(1_500));
//! ```

use mcp_lens_protocol::era::VersionChoice;
use mcp_lens_protocol::error::excerpt;
use mcp_lens_protocol::transport_choice::TransportChoice;
use mcp_lens_protocol::url::{UrlError, WebUrl};
use mcp_lens_protocol::wire_log::{redact_url, redact_urls_in};
use std::fmt;

/// How long a request may go without an answer or progress before it is cancelled.
pub const DEFAULT_REQUEST_TIMEOUT_MS: u32 = 60_000;
/// The most a request may take, progress or not.
pub const DEFAULT_MAX_TOTAL_MS: u32 = 600_000;
/// How long a server request (sampling, elicitation) waits for a person.
pub const DEFAULT_SERVER_REQUEST_TIMEOUT_MS: u32 = 300_000;

/// How to reach one server: URL, credentials, transport and era choice, limits, roots.
///
/// ```
/// use mcp_lens_client::ClientConfig;
/// let mut config = ClientConfig::new("http://127.0.0.1:3001/mcp");
/// config.bearer_token = Some("secret".to_owned());
/// config.request_timeout_ms = 10_000;
/// assert!(config.user_headers().contains(&("authorization".to_owned(), "Bearer secret".to_owned())));
/// assert!(!format!("{config:?}").contains("secret"));
/// ```
#[derive(Clone, PartialEq)]
pub struct ClientConfig {
    /// The server's MCP endpoint.
    pub url: String,
    /// What the person calls this server (the wire log's server column).
    pub name: String,
    /// Sent as `Authorization: Bearer <token>`. A secret: never logged, never in a URL.
    pub bearer_token: Option<String>,
    /// Extra headers the user asked for, sent on every request.
    pub headers: Vec<(String, String)>,
    pub request_timeout_ms: u32,
    pub max_total_ms: u32,
    /// The most bytes one message (a JSON answer, an event-stream event) may have; a larger
    /// one fails its request instead of filling the page's memory.
    pub max_message_bytes: usize,
    pub server_request_timeout_ms: u32,
    pub transport: TransportChoice,
    /// Negotiate the protocol version, or use the one pinned.
    pub version: VersionChoice,
    /// This server refused `server/discover` last time: go straight to `initialize` (one
    /// round trip less on every reconnect).
    pub known_handshake: bool,
    /// Answered to `roots/list`: (uri, name).
    pub roots: Vec<(String, Option<String>)>,
    /// MCP authorization: its token goes on every request to the server's origin (replacing
    /// any `authorization` header), a refused token is renewed once, and refusals are
    /// recorded there for the page to sign in ([`crate::auth::OAuth`]).
    pub auth: Option<crate::auth::OAuth>,
    /// The page renders MCP Apps: declare the `io.modelcontextprotocol/ui` client extension
    /// (`mcp_lens_protocol::apps::client_extension`). Off by default: a client without the
    /// UI that frames apps must not claim it.
    pub mcp_apps: bool,
    /// Declare the tasks extension (SEP-2663, `io.modelcontextprotocol/tasks`) in each
    /// request of the 2026-07-28 era: the server may then answer any `tools/call` with a task.
    /// [`McpClient::call_tool`](crate::McpClient::call_tool) follows such a task to its
    /// result; [`McpClient::call_tool_or_task`](crate::McpClient::call_tool_or_task) hands it
    /// to the caller. Off by default, like `mcp_apps`.
    pub tasks_extension: bool,
}

impl ClientConfig {
    pub fn new(url: impl Into<String>) -> Self {
        let url = url.into();
        Self {
            name: url.clone(),
            url,
            bearer_token: None,
            headers: Vec::new(),
            request_timeout_ms: DEFAULT_REQUEST_TIMEOUT_MS,
            max_total_ms: DEFAULT_MAX_TOTAL_MS,
            max_message_bytes: mcp_lens_protocol::sse::DEFAULT_MAX_EVENT_BYTES,
            server_request_timeout_ms: DEFAULT_SERVER_REQUEST_TIMEOUT_MS,
            transport: TransportChoice::Auto,
            version: VersionChoice::Auto,
            known_handshake: false,
            roots: Vec::new(),
            auth: None,
            mcp_apps: false,
            tasks_extension: false,
        }
    }

    /// The user's headers plus the bearer token, as sent on every request.
    pub fn user_headers(&self) -> Vec<(String, String)> {
        let mut headers = self.headers.clone();
        if let Some(token) = self.bearer_token.as_deref().filter(|t| !t.is_empty()) {
            headers.push(("authorization".to_owned(), format!("Bearer {token}")));
        }
        headers
    }
}

/// Redacts secrets: the token and every header value, which may carry API keys.
impl fmt::Debug for ClientConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let header_names: Vec<&str> = self.headers.iter().map(|(n, _)| n.as_str()).collect();
        f.debug_struct("ClientConfig")
            .field("url", &self.url)
            .field("name", &self.name)
            .field(
                "bearer_token",
                &self.bearer_token.as_ref().map(|_| "[redacted]"),
            )
            .field("header_names", &header_names)
            .field("request_timeout_ms", &self.request_timeout_ms)
            .field("max_total_ms", &self.max_total_ms)
            .field("max_message_bytes", &self.max_message_bytes)
            .field("transport", &self.transport)
            .field("version", &self.version)
            .field("roots", &self.roots)
            .field("auth", &self.auth)
            .finish()
    }
}

/// The server address as requests will use it: read as a browser reads it ([`WebUrl`]), or
/// why it cannot be used (a sentence that never repeats a credential).
///
/// Refused besides what is no absolute http(s) URL (a relative one would silently go to the
/// page's own host):
/// - text that programs read differently: a backslash, a tab, a line break or another control
///   character, more than one `@` before the path, or extra slashes after the scheme. A
///   browser reads `https://evil.example\@good.example/` as `evil.example`; the sentence
///   names the origin the requests would really go to, so the person can see it;
/// - a user name or password in the address: `fetch` refuses to send one, and it is a secret
///   that would otherwise be saved and shown with the address.
pub fn check_server_url(text: &str) -> Result<WebUrl, String> {
    let trimmed = text.trim();
    let url = WebUrl::parse(trimmed).map_err(|error| {
        let quoted = redact_urls_in(&excerpt(trimmed, 200));
        let why = match error {
            UrlError::Empty | UrlError::Relative | UrlError::NotHttp { .. } => {
                format!("\"{quoted}\" is not an http:// or https:// URL")
            }
            other => format!("\"{quoted}\" is not a usable server address: {other}"),
        };
        format!("{why}; enter the server's full MCP endpoint, e.g. http://127.0.0.1:3001/mcp.")
    })?;
    if let Some(why) = reads_differently(trimmed) {
        return Err(format!(
            "This address {why}, which programs read differently: a browser sends its requests to {}. \
             If that is the server you mean, enter it as {}.",
            url.origin(),
            url.without_credentials()
        ));
    }
    if url.has_credentials() {
        return Err(format!(
            "This address carries a user name or password ({}). Browsers do not send credentials written in an \
             address; remove them and send them in a header instead (Custom headers: Authorization: Basic …).",
            redact_url(url.href())
        ));
    }
    Ok(url)
}

/// What in an address's text makes it read differently in different programs, if anything.
fn reads_differently(text: &str) -> Option<&'static str> {
    if text.contains('\\') {
        return Some("contains a backslash");
    }
    if text.chars().any(|c| c.is_control()) {
        return Some("contains a tab, a line break or another control character");
    }
    let lower = text.to_ascii_lowercase();
    let after_scheme = lower
        .strip_prefix("http://")
        .or_else(|| lower.strip_prefix("https://"));
    let Some(after_scheme) = after_scheme else {
        return Some("does not start with http:// or https://");
    };
    if after_scheme.starts_with('/') {
        return Some("has more than two slashes after its scheme");
    }
    let authority = &after_scheme[..after_scheme
        .find(['/', '?', '#'])
        .unwrap_or(after_scheme.len())];
    if authority.matches('@').count() > 1 {
        return Some("has more than one @ before its path");
    }
    None
}

/// Parses the roots box: one root per line, its URI then, optionally, a name after a space.
pub fn parse_root_lines(text: &str) -> Vec<(String, Option<String>)> {
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .map(|line| match line.split_once(char::is_whitespace) {
            Some((uri, name)) => (uri.to_owned(), Some(name.trim().to_owned())),
            None => (line.to_owned(), None),
        })
        .collect()
}

/// Parses a timeout typed in seconds; `None` for anything that is not a positive number.
pub fn parse_seconds(text: &str) -> Option<u32> {
    let seconds: f64 = text.trim().parse().ok()?;
    (seconds.is_finite() && seconds > 0.0 && seconds <= 86_400.0)
        .then_some((seconds * 1000.0) as u32)
}

/// Parses a size typed in megabytes (the largest message); `None` unless a positive
/// number of at most 1024.
pub fn parse_megabytes(text: &str) -> Option<usize> {
    let megabytes: f64 = text.trim().parse().ok()?;
    (megabytes.is_finite() && megabytes > 0.0 && megabytes <= 1024.0)
        .then_some((megabytes * 1_048_576.0) as usize)
}

/// Parses the custom-headers box: one `Name: value` per line; blank lines are skipped.
pub fn parse_header_lines(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut headers = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let Some((name, value)) = line.split_once(':') else {
            return Err(format!(
                "Custom header line {} has no colon; write it as \"Name: value\".",
                index + 1
            ));
        };
        let name = name.trim();
        if name.is_empty() {
            return Err(format!("Custom header line {} has no name.", index + 1));
        }
        // The wire log shows Mcp-Param-* values (a call's mirrored arguments): a header of
        // the person's may be a secret, so it may not pass for one of those.
        if mcp_lens_protocol::wire_log::is_param_header(name) {
            return Err(format!(
                "Custom header line {}: {name} is a header the client mirrors from a tool's arguments (SEP-2243); choose another name.",
                index + 1
            ));
        }
        headers.push((name.to_owned(), value.trim().to_owned()));
    }
    Ok(headers)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_custom_header_may_not_pass_for_a_mirrored_parameter() {
        assert!(parse_header_lines("MCP-PARAM-Region: x").is_err());
        assert_eq!(
            parse_header_lines("X-Param-Region: x").unwrap(),
            [("X-Param-Region".to_owned(), "x".to_owned())]
        );
    }

    #[test]
    fn server_urls_must_be_absolute_http() {
        assert!(check_server_url("http://127.0.0.1:3001/mcp").is_ok());
        assert!(check_server_url(" HTTPS://example.com/mcp ").is_ok());
        for bad in [
            "",
            "127.0.0.1:3001/mcp",
            "mcp",
            "http://",
            "ftp://x/mcp",
            "https:///mcp",
        ] {
            assert!(check_server_url(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn an_address_a_browser_reads_differently_is_refused_naming_where_it_goes() {
        for (text, goes_to) in [
            (
                "https://evil.example\\@good.example/mcp",
                "https://evil.example",
            ),
            (
                "https://good.example\\.evil.example/mcp",
                "https://good.example",
            ),
            (
                "http://evil.example\tx@good.example/",
                "http://good.example",
            ),
            (
                "http://a@evil.example@good.example/mcp",
                "http://good.example",
            ),
            ("http:///evil.example/mcp", "http://evil.example"),
        ] {
            let error = check_server_url(text).unwrap_err();
            assert!(
                error.contains(&format!("sends its requests to {goes_to}.")),
                "{text}: {error}"
            );
        }
    }

    #[test]
    fn credentials_in_an_address_are_refused_without_repeating_them() {
        let error =
            check_server_url("http://user:PASSW0RD@host/mcp?api_key=SECRET&x=1").unwrap_err();
        assert!(
            !error.contains("PASSW0RD") && !error.contains("SECRET"),
            "{error}"
        );
        assert!(error.contains("Authorization: Basic"), "{error}");
        let error = check_server_url("http://u:PASSW0RD@[bad/mcp").unwrap_err();
        assert!(!error.contains("PASSW0RD"), "{error}");
    }

    #[test]
    fn an_accepted_address_is_the_browser_reading() {
        let url = check_server_url(" HTTP://Example.COM:80/a/../mcp ").unwrap();
        assert_eq!(url.href(), "http://example.com/mcp");
    }

    #[test]
    fn roots_and_timeouts_parse() {
        assert_eq!(
            parse_root_lines("file:///work  My project\n\n file:///tmp \n"),
            vec![
                ("file:///work".to_owned(), Some("My project".to_owned())),
                ("file:///tmp".to_owned(), None)
            ]
        );
        assert_eq!(parse_seconds("60"), Some(60_000));
        assert_eq!(parse_seconds("0.5"), Some(500));
        for bad in ["", "0", "-3", "abc", "NaN", "1e9"] {
            assert_eq!(parse_seconds(bad), None, "{bad}");
        }
    }

    #[test]
    fn header_lines_parse_and_report_bad_lines() {
        assert_eq!(
            parse_header_lines("X-Api-Key: abc:def\n\n  X-Other :  v  \n").unwrap(),
            vec![
                ("X-Api-Key".to_owned(), "abc:def".to_owned()),
                ("X-Other".to_owned(), "v".to_owned())
            ]
        );
        assert_eq!(
            parse_header_lines("ok: 1\nbroken").unwrap_err(),
            "Custom header line 2 has no colon; write it as \"Name: value\"."
        );
        assert!(parse_header_lines(": v").is_err());
    }

    #[test]
    fn token_becomes_a_bearer_header_and_never_shows_in_debug() {
        let mut config = ClientConfig::new("http://127.0.0.1:3001/mcp");
        config.bearer_token = Some("s3cret".into());
        config.headers = vec![("X-Api-Key".into(), "k3y".into())];
        assert_eq!(
            config.user_headers(),
            vec![
                ("X-Api-Key".to_owned(), "k3y".to_owned()),
                ("authorization".to_owned(), "Bearer s3cret".to_owned())
            ]
        );
        let debug = format!("{config:?}");
        assert!(
            !debug.contains("s3cret") && !debug.contains("k3y"),
            "{debug}"
        );
        config.bearer_token = Some(String::new());
        assert_eq!(config.user_headers().len(), 1);
    }
}
