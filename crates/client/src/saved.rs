//! Server configurations as they are remembered between visits: everything but secrets.
//! (Tokens and header values stay in memory, or in the tab's sessionStorage if the person
//! asks; see `ui/servers.rs`.) Pure, so the format is tested natively.
//!
//! ```
//! use mcp_lens_client::saved::{load, name_from_url, store, unique_name};
//! let name = name_from_url("http://127.0.0.1:3001/mcp");
//! assert_eq!(name, "127.0.0.1:3001");
//! assert_eq!(unique_name(&name, &[name.clone()]), "127.0.0.1:3001 (2)");
//! let servers = load(Some(r#"[{"name":"a","url":"http://a/mcp"}, "unreadable"]"#));
//! assert_eq!(servers.len(), 1);
//! assert_eq!(load(Some(&store(&servers))), servers);
//! ```

use mcp_lens_protocol::transport_choice::origin_of;
use mcp_lens_protocol::wire_log::redact_url;
use serde::{Deserialize, Serialize};

/// One remembered server (see the module example).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedServer {
    /// A stable id (what remembered secrets are keyed by; names and URLs change as typed).
    /// Entries saved before ids existed get one when loaded.
    #[serde(default)]
    pub id: String,
    pub name: String,
    /// The URL, with any credential in it redacted (see [`redact_url`]); the full URL is
    /// kept only with the tab's secrets.
    pub url: String,
    /// `auto`, `streamable-http` or `sse`.
    #[serde(default = "auto")]
    pub transport: String,
    /// `auto` or a pinned protocol version.
    #[serde(default = "auto")]
    pub version: String,
    /// The server refused `server/discover` before (so Auto goes straight to `initialize`).
    #[serde(default)]
    pub known_handshake: bool,
    /// The roots box, one root per line.
    #[serde(default)]
    pub roots: String,
    /// The request timeout box, in seconds.
    #[serde(default = "sixty")]
    pub timeout: String,
    /// The maximum total time of a request (progress cannot extend it), in seconds.
    #[serde(default = "six_hundred")]
    pub max_total: String,
    /// How long a server request (sampling, elicitation) waits for a person, in seconds.
    #[serde(default = "three_hundred")]
    pub server_request_timeout: String,
    /// The largest message accepted, in megabytes.
    #[serde(default = "sixteen")]
    pub max_message_mb: String,
    /// A pre-registered OAuth client id for signing in (empty: automatic). Not a secret.
    #[serde(default)]
    pub client_id: String,
    /// Sign in with the client credentials grant (machine to machine, no sign-in window).
    #[serde(default)]
    pub client_credentials: bool,
    /// The names of its custom headers, one a line (their values are secrets: memory or the
    /// tab only). One string rather than a list: a smaller first-paint wasm.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub header_names: String,
}

fn auto() -> String {
    "auto".to_owned()
}

fn sixty() -> String {
    "60".to_owned()
}

fn six_hundred() -> String {
    "600".to_owned()
}

fn three_hundred() -> String {
    "300".to_owned()
}

fn sixteen() -> String {
    "16".to_owned()
}

impl SavedServer {
    /// A new entry for `url` with every setting at its default.
    pub fn new(id: String, name: String, url: String) -> Self {
        Self {
            id,
            name,
            url,
            transport: auto(),
            version: auto(),
            known_handshake: false,
            roots: String::new(),
            timeout: sixty(),
            max_total: six_hundred(),
            server_request_timeout: three_hundred(),
            max_message_mb: sixteen(),
            client_id: String::new(),
            client_credentials: false,
            header_names: String::new(),
        }
    }
}

/// The names in a custom-headers box (`Name: value` per line), in order, one a line,
/// without values.
pub fn header_names(text: &str) -> String {
    let mut names = String::new();
    for line in text.lines() {
        if let Some((name, _)) = line.split_once(':') {
            let name = name.trim();
            if !name.is_empty() {
                if !names.is_empty() {
                    names.push('\n');
                }
                names.push_str(name);
            }
        }
    }
    names
}

/// A custom-headers box holding `names` (one a line) with empty values, for the person to
/// fill in.
pub fn header_lines(names: &str) -> String {
    let lines: Vec<String> = names.lines().map(|name| format!("{name}: ")).collect();
    lines.join("\n")
}

/// The secrets of one server, kept only in the tab's sessionStorage and only on request,
/// bound to the origin they were entered for.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TabSecrets {
    pub token: String,
    pub headers: String,
    /// The origin of the server URL when they were saved: never offered to another.
    #[serde(default)]
    pub origin: String,
    /// The full URL when it carries a credential (the saved settings keep it redacted).
    #[serde(default)]
    pub url: String,
    /// The pre-registered OAuth client's secret, if the person typed one.
    #[serde(default)]
    pub client_secret: String,
}

impl TabSecrets {
    /// The secrets for a server now at `url`: none when they were entered for another origin.
    pub fn for_url(self, url: &str) -> Option<TabSecrets> {
        let origin = origin_of(url)?;
        (self.origin == origin).then_some(self)
    }
}

/// A new entry id, unique in this browser: the time, and a counter for entries made in the
/// same millisecond.
pub fn new_id(now_ms: f64, counter: u64) -> String {
    format!("s{:x}-{counter:x}", now_ms as u64)
}

/// What is kept in localStorage of a URL: credentials redacted.
pub fn saved_url(url: &str) -> String {
    redact_url(url)
}

/// Reads the remembered list. Anything unreadable is dropped, never an error: a bad
/// entry must not keep the page from starting.
pub fn load(text: Option<&str>) -> Vec<SavedServer> {
    let Some(text) = text else {
        return Vec::new();
    };
    let Ok(serde_json::Value::Array(items)) = serde_json::from_str(text) else {
        return Vec::new();
    };
    items
        .into_iter()
        .filter_map(|item| serde_json::from_value(item).ok())
        .collect()
}

pub fn store(servers: &[SavedServer]) -> String {
    serde_json::to_string(servers).unwrap_or_else(|_| "[]".to_owned())
}

/// A name for a server added from its URL: its host and port.
pub fn name_from_url(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    if host.is_empty() {
        "New server".to_owned()
    } else {
        host.to_owned()
    }
}

/// `wanted`, or `wanted (2)`, `wanted (3)`... so names stay unique (the wire log filters
/// by name).
pub fn unique_name(wanted: &str, taken: &[String]) -> String {
    if !taken.iter().any(|t| t == wanted) {
        return wanted.to_owned();
    }
    (2..)
        .map(|n| format!("{wanted} ({n})"))
        .find(|candidate| !taken.contains(candidate))
        .unwrap_or_else(|| wanted.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_drops_what_it_cannot_read() {
        let servers = vec![SavedServer {
            id: "s1-0".into(),
            name: "everything".into(),
            url: "http://127.0.0.1:3001/mcp".into(),
            transport: "sse".into(),
            version: "2025-06-18".into(),
            known_handshake: true,
            roots: "file:///work".into(),
            timeout: "30".into(),
            max_total: "900".into(),
            server_request_timeout: "120".into(),
            max_message_mb: "64".into(),
            client_id: "my-app".into(),
            client_credentials: true,
            header_names: "X-Api-Key".into(),
        }];
        assert_eq!(load(Some(&store(&servers))), servers);
        assert_eq!(load(None), vec![]);
        assert_eq!(load(Some("not json")), vec![]);
        let mixed = load(Some(r#"[{"name":"a","url":"http://a/mcp"},{"nope":1},7]"#));
        assert_eq!(mixed.len(), 1);
        assert_eq!(mixed[0].transport, "auto");
        assert_eq!(mixed[0].version, "auto");
        assert_eq!(mixed[0].timeout, "60");
        assert_eq!(mixed[0].max_total, "600");
        assert_eq!(mixed[0].server_request_timeout, "300");
    }

    #[test]
    fn nothing_secret_is_in_the_stored_form() {
        let text = store(&[SavedServer::new(
            "s1".into(),
            "a".into(),
            "http://a/mcp".into(),
        )]);
        for field in ["token", "headers", "authorization"] {
            assert!(!text.contains(field), "{text}");
        }
    }

    #[test]
    fn secrets_belong_to_the_origin_they_were_entered_for() {
        let secrets = TabSecrets {
            token: "t".into(),
            headers: String::new(),
            origin: "https://a.example".into(),
            url: String::new(),
            client_secret: String::new(),
        };
        assert!(secrets
            .clone()
            .for_url("https://A.example:443/mcp")
            .is_some());
        assert!(secrets.clone().for_url("https://b.example/mcp").is_none());
        assert!(secrets.clone().for_url("http://a.example/mcp").is_none());
        assert!(secrets.for_url("not a url").is_none());
        assert_ne!(new_id(1000.0, 0), new_id(1000.0, 1));
        assert_eq!(
            saved_url("https://h/mcp?api_key=k"),
            "https://h/mcp?api_key=[redacted]"
        );
    }

    #[test]
    fn header_names_without_their_values() {
        let names = header_names("X-Api-Key: secret\n\n  X-Team : docs\nno colon\n: v");
        assert_eq!(names, "X-Api-Key\nX-Team");
        assert_eq!(header_lines(&names), "X-Api-Key: \nX-Team: ");
        let mut server = SavedServer::new("s".into(), "a".into(), "http://a/mcp".into());
        server.header_names = names;
        let text = store(&[server]);
        assert!(!text.contains("secret") && !text.contains("docs"), "{text}");
    }

    #[test]
    fn names_come_from_urls_and_stay_unique() {
        assert_eq!(name_from_url("http://127.0.0.1:3001/mcp"), "127.0.0.1:3001");
        assert_eq!(name_from_url(""), "New server");
        let taken = vec!["x".to_owned(), "x (2)".to_owned()];
        assert_eq!(unique_name("x", &taken), "x (3)");
        assert_eq!(unique_name("y", &taken), "y");
    }
}
