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

use mcp_lens_protocol::era::VersionChoice;
use mcp_lens_protocol::transport_choice::TransportChoice;
use mcp_lens_protocol::url::origin_key;
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
    /// Saved as its key (`auto`, `streamable-http` or `sse`); a key this version does not
    /// know is read as Auto.
    #[serde(default)]
    pub transport: TransportChoice,
    /// Saved as its key (`auto` or a pinned protocol version); a version this client no
    /// longer speaks is read as Auto.
    #[serde(default)]
    pub version: VersionChoice,
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
    /// The authorization server (issuer) the client's secret or key is for; empty until the
    /// person confirms one. Not a secret.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub client_issuer: String,
    /// Sign in with the client credentials grant (machine to machine, no sign-in window).
    #[serde(default)]
    pub client_credentials: bool,
    /// The names of its custom headers, one a line (their values are secrets: memory or the
    /// tab only). One string rather than a list: a smaller first-paint wasm.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub header_names: String,
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
            transport: TransportChoice::default(),
            version: VersionChoice::default(),
            known_handshake: false,
            roots: String::new(),
            timeout: sixty(),
            max_total: six_hundred(),
            server_request_timeout: three_hundred(),
            max_message_mb: sixteen(),
            client_id: String::new(),
            client_issuer: String::new(),
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
    /// The origin of the server URL when they were saved ([`origin_key`]: equal keys are
    /// equal origins): never offered to another.
    #[serde(default)]
    pub origin: String,
    /// The full URL when it carries a credential (the saved settings keep it redacted).
    #[serde(default)]
    pub url: String,
    /// That URL as the saved settings keep it ([`saved_url`]), which it replaces on load when
    /// they match (compared as text: the first paint does not carry the URL parser).
    #[serde(default)]
    pub saved_url: String,
    /// The pre-registered OAuth client's secret, if the person typed one.
    #[serde(default)]
    pub client_secret: String,
}

impl TabSecrets {
    /// The secrets for a server now at `url`: none when they were entered for another origin.
    pub fn for_url(self, url: &str) -> Option<TabSecrets> {
        let origin = origin_key(url)?;
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
        .filter_map(|item| serde_json::from_value::<SavedServer>(item).ok())
        .map(|mut server| {
            server.name = without_derived_credentials(server.name, &server.url);
            server
        })
        .collect()
}

pub fn store(servers: &[SavedServer]) -> String {
    serde_json::to_string(servers).unwrap_or_else(|_| "[]".to_owned())
}

/// A name for a server added from its URL: its host and port as written, never a user name
/// or password written before the host.
pub fn name_from_url(url: &str) -> String {
    // Cut where a browser cuts (the authority ends at `/`, `\\`, `?` or `#`; userinfo at its
    // last `@`), from the text alone: the page's first paint does not carry the URL parser.
    let url: String = url
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    let rest = url.split_once("://").map_or(url.as_str(), |(_, rest)| rest);
    let authority = rest.split(['/', '\\', '?', '#']).next().unwrap_or_default();
    let host = authority.rsplit('@').next().unwrap_or_default().trim();
    if host.is_empty() {
        "New server".to_owned()
    } else {
        host.to_owned()
    }
}

/// A remembered name as it may be shown and saved: a name an earlier version derived from an
/// address with credentials (`user:password@host`) becomes the host's name.
fn without_derived_credentials(name: String, url: &str) -> String {
    match name.rsplit_once('@') {
        Some((userinfo, host)) if userinfo.contains(':') || host == name_from_url(url) => {
            host.to_owned()
        }
        _ => name,
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
            transport: TransportChoice::LegacySse,
            version: VersionChoice::Pinned("2025-06-18"),
            known_handshake: true,
            roots: "file:///work".into(),
            timeout: "30".into(),
            max_total: "900".into(),
            server_request_timeout: "120".into(),
            max_message_mb: "64".into(),
            client_id: "my-app".into(),
            client_issuer: "https://as.example".into(),
            client_credentials: true,
            header_names: "X-Api-Key".into(),
        }];
        assert_eq!(load(Some(&store(&servers))), servers);
        assert_eq!(load(None), vec![]);
        assert_eq!(load(Some("not json")), vec![]);
        let mixed = load(Some(r#"[{"name":"a","url":"http://a/mcp"},{"nope":1},7]"#));
        assert_eq!(mixed.len(), 1);
        assert_eq!(mixed[0].transport, TransportChoice::Auto);
        assert_eq!(mixed[0].version, VersionChoice::Auto);
        assert_eq!(mixed[0].timeout, "60");
        assert_eq!(mixed[0].max_total, "600");
        assert_eq!(mixed[0].server_request_timeout, "300");
    }

    #[test]
    fn transport_and_version_are_saved_as_their_keys_and_read_leniently() {
        for transport in TransportChoice::ALL {
            for version in VersionChoice::all() {
                let mut server = SavedServer::new("s".into(), "a".into(), "http://a/mcp".into());
                server.transport = transport;
                server.version = version;
                let text = store(std::slice::from_ref(&server));
                assert!(
                    text.contains(&format!(
                        r#""transport":"{}","version":"{}""#,
                        transport.key(),
                        version.key()
                    )),
                    "{text}"
                );
                assert_eq!(load(Some(&text)), vec![server]);
            }
        }
        // Keys this version does not know are the defaults; what is no string is unreadable.
        let servers = load(Some(
            r#"[{"name":"a","url":"http://a/mcp","transport":"carrier-pigeon","version":"1999-01-01"},
                {"name":"b","url":"http://b/mcp","transport":"sse","version":"2025-03-26"},
                {"name":"c","url":"http://c/mcp","transport":7}]"#,
        ));
        assert_eq!(servers.len(), 2);
        assert_eq!(
            (servers[0].transport, servers[0].version),
            (TransportChoice::Auto, VersionChoice::Auto)
        );
        assert_eq!(
            (servers[1].transport, servers[1].version),
            (
                TransportChoice::LegacySse,
                VersionChoice::Pinned("2025-03-26")
            )
        );
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
            saved_url: String::new(),
            client_secret: String::new(),
        };
        assert!(secrets.clone().for_url("https://A.example/mcp").is_some());
        // Compared by the text's origin key: another spelling of the same origin is not
        // trusted to be it (failing safe: the secrets are typed again).
        assert!(secrets
            .clone()
            .for_url("https://a.example:443/mcp")
            .is_none());
        assert!(secrets
            .clone()
            .for_url("https://x.example\\@a.example/mcp")
            .is_none());
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
    fn names_saved_with_credentials_lose_them_when_read() {
        let servers = load(Some(
            r#"[{"name":"user:PASSW0RD@host","url":"http://[redacted]@host/mcp"},
                {"name":"me@work","url":"http://other/mcp"}]"#,
        ));
        assert_eq!(servers[0].name, "host");
        assert_eq!(servers[1].name, "me@work");
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
        assert_eq!(name_from_url("http://user:PASSW0RD@host/mcp"), "host");
        assert_eq!(name_from_url("http://user:PASSW0RD@ho"), "ho");
        assert_eq!(
            name_from_url("https://evil.example\\@good.example/"),
            "evil.example"
        );
        assert_eq!(name_from_url("HTTP://Example.com:80/mcp"), "Example.com:80");
        let taken = vec!["x".to_owned(), "x (2)".to_owned()];
        assert_eq!(unique_name("x", &taken), "x (3)");
        assert_eq!(unique_name("y", &taken), "y");
    }

    /// Every text made from a server URL (its name, the saved URL, errors quoting it, the
    /// page's messages about it) leaves out the credentials the URL carries.
    #[cfg(not(target_arch = "wasm32"))]
    mod properties {
        use super::*;
        use crate::config::check_server_url;
        use mcp_lens_protocol::auth::{AuthError, AuthErrorKind, AuthStep};
        use mcp_lens_protocol::error::{ErrorKind, McpError, Step};
        use mcp_lens_protocol::wire_log::{redact_url, redact_urls_in, url_has_credentials};
        use proptest::prelude::*;

        /// A URL with a password and a secret-looking query parameter, both marked
        /// `SECRET...` so a leak is easy to find.
        fn url_with_secrets() -> impl Strategy<Value = (String, String, String)> {
            (
                prop_oneof![Just("http"), Just("https"), Just("HTTP")],
                "[a-z]{1,8}",
                "SECRETPW[a-zA-Z0-9]{4,8}",
                prop_oneof![
                    Just("127.0.0.1:3001"),
                    Just("example.com"),
                    Just("[::1]:8"),
                    Just("h")
                ],
                "(/[a-z]{0,5}){0,3}",
                prop_oneof![
                    Just("api_key"),
                    Just("token"),
                    Just("access_token"),
                    Just("X-Api-Key"),
                    Just("client_secret"),
                    Just("sig")
                ],
                "SECRETQ[a-zA-Z0-9]{4,8}",
                prop_oneof![Just(""), Just("&x=1"), Just("#top")],
            )
                .prop_map(|(scheme, user, password, host, path, name, value, tail)| {
                    (
                        format!("{scheme}://{user}:{password}@{host}{path}?{name}={value}{tail}"),
                        password,
                        value,
                    )
                })
        }

        proptest! {
            #[test]
            fn no_text_made_from_a_url_repeats_its_secrets((url, password, value) in url_with_secrets()) {
                let texts = [
                    name_from_url(&url),
                    saved_url(&url),
                    redact_url(&url),
                    check_server_url(&url).map(|u| u.href().to_owned()).unwrap_or_else(|e| e),
                    McpError::new(
                        Step::Initialize,
                        ErrorKind::network(&format!(
                            "TypeError: Failed to execute 'fetch' on 'Window': Request cannot be constructed from a URL that includes credentials: {url}"
                        )),
                    )
                    .to_string(),
                    AuthError::new(
                        AuthStep::AuthServerMetadata,
                        AuthErrorKind::Network { url: url.clone(), detail: "TypeError: Failed to fetch".into() },
                    )
                    .to_string(),
                    AuthError::new(
                        AuthStep::AuthServerMetadata,
                        AuthErrorKind::HttpStatus { url: url.clone(), status: 404, body_start: String::new() },
                    )
                    .to_string(),
                    redact_urls_in(&format!("Connected to {url}.")),
                    without_derived_credentials(format!("{}@x", &url[url.find("://").unwrap_or(0) + 3..url.find('@').unwrap_or(0)]), &url),
                ];
                for text in &texts {
                    prop_assert!(!text.contains(&password), "{text}");
                    prop_assert!(!text.contains(&value), "{text}");
                }
                prop_assert!(url_has_credentials(&url));
            }
        }
    }
}
