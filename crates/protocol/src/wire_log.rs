//! The wire log: every message in both directions, in a ring buffer bounded by count and by
//! bytes, with secrets redacted when an entry is made (so they never reach the page, an
//! export, or a copied curl command).
//!
//! Bytes: a server may send hundreds of messages just under the 16 MB one message may be, so
//! a count alone bounds nothing (1,000 such entries are 16 GB). A body over
//! [`MAX_BODY_BYTES`] keeps only its start, and once the entries hold more than the log's byte
//! budget ([`DEFAULT_BYTE_BUDGET`]) the oldest bodies are dropped first: their rows stay, with
//! their method, id, status and timing, and say why their body is gone ([`BodyCut`]).

use crate::jsonrpc::Incoming;
use crate::url::WebUrl;
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{HashMap, VecDeque};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    Sent,
    Received,
}

/// The `via` of a message between the page and an MCP App's frame (`postMessage`, not
/// HTTP): its `url` is the app's `ui://` resource, `Sent` is host -> app.
pub const APP_VIA: &str = "app";

/// The `via` of a request from the chat to a language model's provider (and of its answer):
/// logged beside MCP traffic, its key header redacted like any other secret header.
pub const MODEL_VIA: &str = "model";

/// The `via` of an authorization request (metadata, registration, token), logged from the
/// sign-in's own step log with its secrets redacted: `Sent`, with its answer in the entry.
pub const AUTH_VIA: &str = "oauth";

/// One message, or one HTTP exchange without a JSON-RPC body (GET stream, DELETE).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WireEntry {
    pub seq: u64,
    pub server: String,
    /// Milliseconds since the page started.
    pub at_ms: f64,
    pub direction: Direction,
    /// `POST`, `GET`, `DELETE` for what we sent; `SSE` or `JSON` for what arrived.
    pub via: String,
    pub url: String,
    pub method: Option<String>,
    pub id: Option<String>,
    /// For an answer: the time since its request was sent.
    pub duration_ms: Option<f64>,
    pub http_status: Option<u16>,
    /// Request headers, secrets replaced by `[redacted]`.
    pub headers: Vec<(String, String)>,
    pub body: String,
    /// For an HTTP request we sent: its number within its client, which the answer's
    /// [`WireAnswer`] names to complete this entry.
    pub exchange: Option<u64>,
    /// Sent, and no answer (or failure) yet.
    pub pending: bool,
    /// Why no answer came (the request failed in the browser: network, CORS, aborted).
    pub failure: Option<String>,
    /// The answer's headers (those the browser shows the page), redacted like requests'.
    pub response_headers: Vec<(String, String)>,
    /// The start of an error answer's body (JSON-RPC answers are entries of their own).
    pub response_body: Option<String>,
    /// The body is not all here: only its start was kept, or it was dropped to bound memory.
    /// Set by the log, never by whoever makes the entry.
    pub body_cut: Option<BodyCut>,
}

/// Why an entry's body is not whole: the row says so, the export carries it, and curl is not
/// offered (it would send something else).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case", tag = "why")]
pub enum BodyCut {
    /// Longer than [`MAX_BODY_BYTES`]: its first part is kept; `bytes` is its whole length.
    Truncated { bytes: usize },
    /// Dropped when the log went over its byte budget (oldest bodies first); `bytes` is the
    /// length it had.
    Dropped { bytes: usize },
}

impl std::fmt::Display for BodyCut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BodyCut::Truncated { bytes } => write!(
                f,
                "Only the first {} of this message's {} are kept: the wire log keeps at most that of one message.",
                size_text(MAX_BODY_BYTES),
                size_text(*bytes)
            ),
            BodyCut::Dropped { bytes } => write!(
                f,
                "Its body ({}) was dropped to bound memory: the wire log keeps the newest bodies, at most {} in all.",
                size_text(*bytes),
                size_text(DEFAULT_BYTE_BUDGET)
            ),
        }
    }
}

/// A byte count as a person reads it (`812 bytes`, `16.0 MB`).
pub fn size_text(bytes: usize) -> String {
    const KB: usize = 1024;
    match bytes {
        b if b < KB => format!("{b} bytes"),
        b if b < KB * KB => format!("{:.1} KB", b as f64 / KB as f64),
        b => format!("{:.1} MB", b as f64 / (KB * KB) as f64),
    }
}

/// The outcome of an HTTP request logged as pending: completes its [`WireEntry`].
#[derive(Debug, Clone, PartialEq)]
pub struct WireAnswer {
    pub server: String,
    pub exchange: u64,
    pub at_ms: f64,
    pub http_status: Option<u16>,
    pub response_headers: Vec<(String, String)>,
    pub failure: Option<String>,
    pub response_body: Option<String>,
}

/// Headers whose values are shown as they are; every other value (authorization, the
/// person's custom headers) may be a secret and is redacted.
const PLAIN_HEADERS: [&str; 7] = [
    "mcp-name",
    "content-type",
    "accept",
    "mcp-session-id",
    "mcp-protocol-version",
    "last-event-id",
    "mcp-method",
];

pub const REDACTED: &str = "[redacted]";

/// Query parameter names that usually carry a credential.
const CREDENTIAL_PARAMETERS: [&str; 14] = [
    "key",
    "apikey",
    "api_key",
    "api-key",
    "token",
    "access_token",
    "auth",
    "authorization",
    "secret",
    "client_secret",
    "password",
    "pass",
    "sig",
    "signature",
];

fn is_credential_parameter(name: &str) -> bool {
    // `X-Api-Key`, `x_api_key` and `xApiKey` are one name written three ways.
    let name = name.to_ascii_lowercase().replace('-', "_");
    CREDENTIAL_PARAMETERS.contains(&name.as_str())
        || name.ends_with("key")
        || name.contains("token")
        || name.contains("secret")
        || name.contains("password")
        || name.ends_with("credential")
        || name.ends_with("credentials")
}

/// The URL with its credentials replaced by `[redacted]`: a user name and password before
/// the host, and the values of query and fragment parameters named like credentials
/// (`api_key`, `token`, `secret`, ...). Other parts are kept, so the URL still says where it
/// goes. An http(s) URL is read as a browser reads it (see [`crate::url`]), so userinfo a
/// browser would see is what is cut; any other text is cut at the same places by hand.
///
/// ```
/// use mcp_lens_protocol::wire_log::redact_url;
/// assert_eq!(
///     redact_url("http://user:PASSW0RD@host/mcp?api_key=SECRET&x=1"),
///     "http://[redacted]@host/mcp?api_key=[redacted]&x=1"
/// );
/// ```
pub fn redact_url(url: &str) -> String {
    let Ok(parsed) = WebUrl::parse(url) else {
        return redact_unparsed_url(url);
    };
    let mut out = format!("{}://", parsed.scheme());
    if parsed.has_credentials() {
        out.push_str(REDACTED);
        out.push('@');
    }
    let host_onwards = parsed.without_credentials();
    let host_onwards = &host_onwards.href()[parsed.scheme().len() + 3..];
    let query_start = host_onwards.find(['?', '#']).unwrap_or(host_onwards.len());
    out.push_str(&host_onwards[..query_start]);
    if let Some(query) = parsed.query() {
        out.push('?');
        out.push_str(&redact_parameters(query));
    }
    if let Some(fragment) = parsed.fragment() {
        out.push('#');
        out.push_str(&redact_parameters(fragment));
    }
    out
}

/// Text that is no http(s) URL, redacted at the places a browser would cut an http URL
/// (authority up to `/`, `\`, `?` or `#`; userinfo up to its last `@`).
fn redact_unparsed_url(url: &str) -> String {
    let (before_fragment, fragment) = match url.find('#') {
        Some(i) => (&url[..i], Some(&url[i + 1..])),
        None => (url, None),
    };
    let (base, query) = match before_fragment.find('?') {
        Some(i) => (&before_fragment[..i], Some(&before_fragment[i + 1..])),
        None => (before_fragment, None),
    };
    let mut out = match base.find("://") {
        Some(scheme_end) => {
            let rest = &base[scheme_end + 3..];
            let authority_end = rest.find(['/', '\\']).unwrap_or(rest.len());
            match rest[..authority_end].rfind('@') {
                Some(at) => format!("{}{REDACTED}@{}", &base[..scheme_end + 3], &rest[at + 1..]),
                None => base.to_owned(),
            }
        }
        None => base.to_owned(),
    };
    if let Some(query) = query {
        out.push('?');
        out.push_str(&redact_parameters(query));
    }
    if let Some(fragment) = fragment {
        out.push('#');
        out.push_str(&redact_parameters(fragment));
    }
    out
}

/// `a=1&token=x` -> `a=1&token=[redacted]`.
fn redact_parameters(parameters: &str) -> String {
    parameters
        .split('&')
        .map(|pair| match pair.split_once('=') {
            Some((name, _)) if is_credential_parameter(&percent_decoded_name(name)) => {
                format!("{name}={REDACTED}")
            }
            _ => pair.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("&")
}

/// A parameter's name with its escapes undone (`api%5Fkey` is `api_key`), for the check only.
fn percent_decoded_name(name: &str) -> String {
    let name = name.replace('+', " ");
    String::from_utf8_lossy(&crate::url::percent_decode(&name)).into_owned()
}

/// Whether a URL carries a credential (see [`redact_url`]).
pub fn url_has_credentials(url: &str) -> bool {
    match WebUrl::parse(url) {
        Ok(parsed) => {
            parsed.has_credentials()
                || parsed.query().is_some_and(|q| redact_parameters(q) != q)
                || parsed.fragment().is_some_and(|f| redact_parameters(f) != f)
        }
        Err(_) => redact_unparsed_url(url) != url,
    }
}

/// Free text (an error message, a title, a name) with every http(s) URL in it redacted as
/// [`redact_url`] does: a browser's error quotes the URL it refused, credentials and all.
///
/// ```
/// use mcp_lens_protocol::wire_log::redact_urls_in;
/// assert_eq!(
///     redact_urls_in("Failed to fetch 'http://u:pw@h/mcp?token=t'."),
///     "Failed to fetch 'http://[redacted]@h/mcp?token=[redacted]'."
/// );
/// ```
pub fn redact_urls_in(text: &str) -> String {
    let lower = text.to_ascii_lowercase();
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    let mut from = 0;
    while let Some(found) = lower[from..].find("http").map(|i| from + i) {
        let rest = &lower[found..];
        if !(rest.starts_with("http://")
            || rest.starts_with("https://")
            || rest.starts_with("http:\\")
            || rest.starts_with("https:\\"))
        {
            from = found + 4;
            continue;
        }
        // A URL in text ends at whitespace, a quote, or a bracket that closes around it
        // (not the `]` of its own IPv6 host).
        let mut depth = 0usize;
        let end = text[found..]
            .find(|c: char| match c {
                '[' | '(' => {
                    depth += 1;
                    false
                }
                ']' | ')' if depth > 0 => {
                    depth -= 1;
                    false
                }
                ']' | ')' => true,
                _ => c.is_whitespace() || matches!(c, '"' | '\'' | '<' | '>' | '`'),
            })
            .map_or(text.len(), |i| found + i);
        // A sentence's closing punctuation is not part of the URL.
        let end = found
            + text[found..end]
                .trim_end_matches(['.', ',', ';', '!'])
                .len();
        out.push_str(&text[copied..found]);
        out.push_str(&redact_url(&text[found..end]));
        copied = end;
        from = end.max(found + 4);
    }
    out.push_str(&text[copied..]);
    out
}

/// A name made from a URL (a server's host, say), with any credential in it redacted.
pub fn redact_name(name: &str) -> String {
    match name.rfind('@') {
        Some(at) if !name.contains("://") => format!("{REDACTED}@{}", &name[at + 1..]),
        _ => redact_urls_in(name),
    }
}

/// Whether a request header is one of the protocol's own (never a secret): anything else
/// is the person's (their token, their custom headers).
pub fn is_protocol_header(name: &str) -> bool {
    PLAIN_HEADERS
        .iter()
        .any(|plain| name.eq_ignore_ascii_case(plain))
}

pub fn redact_headers(headers: &[(String, String)]) -> Vec<(String, String)> {
    headers
        .iter()
        .map(|(name, value)| {
            let plain = PLAIN_HEADERS
                .iter()
                .any(|plain| name.eq_ignore_ascii_case(plain));
            let value = if plain {
                value.clone()
            } else {
                REDACTED.to_owned()
            };
            (name.to_ascii_lowercase(), value)
        })
        .collect()
}

/// Answer headers that are never secret and help to debug (authentication challenges,
/// redirects, CORS). Cookies and anything unknown are redacted.
const PLAIN_RESPONSE_HEADERS: [&str; 11] = [
    "content-type",
    "content-length",
    "mcp-session-id",
    "mcp-protocol-version",
    "www-authenticate",
    "location",
    "retry-after",
    "allow",
    "date",
    "server",
    "cache-control",
];

pub fn redact_response_headers(headers: &[(String, String)]) -> Vec<(String, String)> {
    headers
        .iter()
        .map(|(name, value)| {
            let name = name.to_ascii_lowercase();
            let plain = PLAIN_RESPONSE_HEADERS.contains(&name.as_str())
                || name.starts_with("access-control-");
            let value = if plain {
                value.clone()
            } else {
                REDACTED.to_owned()
            };
            (name, value)
        })
        .collect()
}

/// The method and id of a JSON-RPC payload, for the log's columns. The payload is read, not
/// built: an answer can be megabytes, and only `method`, `id` and whether there is a `result`
/// or an `error` are kept (the rest is skipped without allocating).
pub fn summarize(body: &str) -> (Option<String>, Option<String>) {
    let Ok(Payload { first, count }) = serde_json::from_str::<Payload>(body) else {
        return (None, None);
    };
    let method = first.method.or_else(|| match () {
        _ if first.result => Some("(result)".to_owned()),
        _ if first.error => Some("(error)".to_owned()),
        _ => None,
    });
    let method = match count {
        Some(count) if count > 1 => method.map(|m| format!("{m} (batch of {count})")),
        _ => method,
    };
    (method, first.id)
}

/// The method and id of a payload that was received and decoded: the same columns as
/// [`summarize`] gives, without reading the payload a second time.
pub fn summarize_decoded(messages: &[Incoming]) -> (Option<String>, Option<String>) {
    let (method, id) = match messages.first() {
        Some(Incoming::Result { id, .. }) => (Some("(result)".to_owned()), Some(id.to_string())),
        Some(Incoming::Error { id, .. }) => (
            Some("(error)".to_owned()),
            id.as_ref().map(ToString::to_string),
        ),
        Some(Incoming::Request { id, method, .. }) => (Some(method.clone()), Some(id.to_string())),
        Some(Incoming::Notification { method, .. }) => (Some(method.clone()), None),
        Some(Incoming::Invalid { .. }) | None => (None, None),
    };
    let method = match messages.len() {
        count if count > 1 => method.map(|m| format!("{m} (batch of {count})")),
        _ => method,
    };
    (method, id)
}

/// What [`summarize`] keeps of a payload: its (first) message, and for a batch its length.
struct Payload {
    first: Fields,
    count: Option<usize>,
}

/// What [`summarize`] keeps of one message. Anything but an object has none of it; of keys
/// given twice, the last counts (as when the payload is parsed whole).
#[derive(Default)]
struct Fields {
    method: Option<String>,
    id: Option<String>,
    result: bool,
    error: bool,
}

impl<'de> Deserialize<'de> for Payload {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(PayloadVisitor { top: true })
    }
}

/// Reads a payload (`top`: a batch is counted) or a message inside a batch.
struct PayloadVisitor {
    top: bool,
}

impl<'de> Visitor<'de> for PayloadVisitor {
    type Value = Payload;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Payload, A::Error> {
        let mut fields = Fields::default();
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "method" => fields.method = map.next_value::<Value>()?.as_str().map(str::to_owned),
                "id" => {
                    fields.id = match map.next_value::<Value>()? {
                        Value::Null => None,
                        Value::String(text) => Some(text),
                        other => Some(other.to_string()),
                    }
                }
                "result" => {
                    map.next_value::<IgnoredAny>()?;
                    fields.result = true;
                }
                "error" => {
                    map.next_value::<IgnoredAny>()?;
                    fields.error = true;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(Payload {
            first: fields,
            count: None,
        })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Payload, A::Error> {
        if !self.top {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            return Ok(Payload::none());
        }
        let first = seq
            .next_element_seed(PayloadVisitor { top: false })?
            .map(|message| message.first);
        let mut count = usize::from(first.is_some());
        while seq.next_element::<IgnoredAny>()?.is_some() {
            count += 1;
        }
        Ok(Payload {
            first: first.unwrap_or_default(),
            count: Some(count),
        })
    }

    fn visit_bool<E>(self, _: bool) -> Result<Payload, E> {
        Ok(Payload::none())
    }

    fn visit_i64<E>(self, _: i64) -> Result<Payload, E> {
        Ok(Payload::none())
    }

    fn visit_u64<E>(self, _: u64) -> Result<Payload, E> {
        Ok(Payload::none())
    }

    fn visit_f64<E>(self, _: f64) -> Result<Payload, E> {
        Ok(Payload::none())
    }

    fn visit_str<E>(self, _: &str) -> Result<Payload, E> {
        Ok(Payload::none())
    }

    fn visit_unit<E>(self) -> Result<Payload, E> {
        Ok(Payload::none())
    }
}

impl<'de> DeserializeSeed<'de> for PayloadVisitor {
    type Value = Payload;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Payload, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl Payload {
    fn none() -> Self {
        Payload {
            first: Fields::default(),
            count: None,
        }
    }
}

/// Which entries to show.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filter {
    pub server: Option<String>,
    pub direction: Option<Direction>,
    /// A substring of the method, case-insensitive.
    pub method: String,
    /// `Some(true)`: only host <-> MCP App messages ([`APP_VIA`]); `Some(false)`: none of them.
    pub app: Option<bool>,
    /// `Some(true)`: only the chat's model requests ([`MODEL_VIA`]); `Some(false)`: none of them.
    pub model: Option<bool>,
}

impl Filter {
    pub fn matches(&self, entry: &WireEntry) -> bool {
        self.server.as_ref().is_none_or(|s| s == &entry.server)
            && self.direction.is_none_or(|d| d == entry.direction)
            && self.app.is_none_or(|app| app == (entry.via == APP_VIA))
            && self
                .model
                .is_none_or(|model| model == (entry.via == MODEL_VIA))
            && (self.method.is_empty()
                || entry.method.as_ref().is_some_and(|m| {
                    m.to_ascii_lowercase()
                        .contains(&self.method.to_ascii_lowercase())
                }))
    }
}

#[derive(Debug, Clone)]
pub struct WireLog {
    entries: VecDeque<WireEntry>,
    capacity: usize,
    next_seq: u64,
    /// When each request (server, id) was sent, to time its answer. Bounded like the log.
    sent_at: HashMap<(String, String, u8), f64>,
    /// What the entries hold ([`weight`] of each), and the most they may.
    bytes: usize,
    byte_budget: usize,
    /// Entries before this index have had their bodies dropped: trimming starts here, so a
    /// log over its budget costs each new entry a step or two, not a walk over every row.
    first_body: usize,
}

pub const DEFAULT_CAPACITY: usize = 1000;

/// The most one message's body keeps: the client's default limit on a message, so every
/// message it accepts is logged whole unless the person raised that limit.
pub const MAX_BODY_BYTES: usize = 16 * 1024 * 1024;

/// The most all entries hold together: four messages of the largest size, or a thousand of
/// 64 KB, before the oldest bodies go.
pub const DEFAULT_BYTE_BUDGET: usize = 64 * 1024 * 1024;

/// The longest request id whose answer is timed (ids are numbers or short strings).
const MAX_TIMED_ID_BYTES: usize = 256;

/// What an entry costs the log besides its strings (the struct, the deque slot, the
/// allocations' own bookkeeping), so a flood of empty entries is counted too.
const ENTRY_OVERHEAD: usize = 256;

/// The bytes an entry holds: its strings and a fixed overhead.
fn weight(entry: &WireEntry) -> usize {
    let headers = |list: &[(String, String)]| {
        list.iter()
            .map(|(name, value)| name.len() + value.len())
            .sum::<usize>()
    };
    ENTRY_OVERHEAD
        + entry.server.len()
        + entry.via.len()
        + entry.url.len()
        + entry.method.as_ref().map_or(0, String::len)
        + entry.id.as_ref().map_or(0, String::len)
        + headers(&entry.headers)
        + entry.body.len()
        + entry.failure.as_ref().map_or(0, String::len)
        + headers(&entry.response_headers)
        + entry.response_body.as_ref().map_or(0, String::len)
}

/// Cuts `text` to at most `max` bytes, on a character boundary, and gives back the memory of
/// the rest. Returns the length it had, if it was cut.
fn clip(text: &mut String, max: usize) -> Option<usize> {
    if text.len() <= max {
        return None;
    }
    let whole = text.len();
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
    text.shrink_to_fit();
    Some(whole)
}

impl Default for WireLog {
    fn default() -> Self {
        Self::new(DEFAULT_CAPACITY)
    }
}

impl WireLog {
    pub fn new(capacity: usize) -> Self {
        Self::with_budget(capacity, DEFAULT_BYTE_BUDGET)
    }

    /// A log of at most `capacity` entries holding at most `byte_budget` bytes.
    pub fn with_budget(capacity: usize, byte_budget: usize) -> Self {
        Self {
            entries: VecDeque::new(),
            capacity: capacity.max(1),
            next_seq: 0,
            sent_at: HashMap::new(),
            bytes: 0,
            byte_budget,
            first_body: 0,
        }
    }

    /// The bytes the entries hold now (within the budget once an entry is added, unless the
    /// newest entry's own columns exceed it).
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Changes the cap; the oldest entries go first.
    pub fn set_capacity(&mut self, capacity: usize) {
        self.capacity = capacity.max(1);
        self.trim();
    }

    /// Adds an entry (its `seq` and, for answers, `duration_ms` are filled in here).
    pub fn push(&mut self, mut entry: WireEntry) {
        entry.seq = self.next_seq;
        self.next_seq += 1;
        entry.body_cut =
            clip(&mut entry.body, MAX_BODY_BYTES).map(|bytes| BodyCut::Truncated { bytes });
        if let Some(response) = entry.response_body.as_mut() {
            clip(response, MAX_BODY_BYTES);
        }
        // An id longer than any real one is not timed: the table that times answers keeps a
        // copy of each id, outside the byte budget.
        if let Some(id) = entry
            .id
            .as_ref()
            .filter(|id| id.len() <= MAX_TIMED_ID_BYTES)
        {
            // Who asked: the page asked the server (0), the page asked an app (1), an app
            // asked the page (2). App messages are timed apart from the server's (another
            // numbering of ids) and both ways.
            let app = entry.via == APP_VIA;
            let is_answer = entry.method.as_deref().is_some_and(|m| m.starts_with('('));
            let asker = match (app, entry.direction, is_answer) {
                (false, Direction::Sent, false) | (false, Direction::Received, true) => Some(0),
                (true, Direction::Sent, false) | (true, Direction::Received, true) => Some(1),
                (true, Direction::Received, false) | (true, Direction::Sent, true) => Some(2),
                (false, _, _) => None,
            };
            if let Some(asker) = asker {
                let key = (entry.server.clone(), id.clone(), asker);
                if is_answer {
                    entry.duration_ms = self.sent_at.remove(&key).map(|at| entry.at_ms - at);
                } else {
                    self.sent_at.insert(key, entry.at_ms);
                }
            }
        }
        self.bytes += weight(&entry);
        self.entries.push_back(entry);
        self.trim();
    }

    /// Completes the entry of a request logged as pending: status, headers, time taken,
    /// failure, and later the error body. An answer whose entry left the log is dropped.
    pub fn answer(&mut self, answer: WireAnswer) {
        let entry = self.entries.iter_mut().rev().find(|e| {
            e.exchange == Some(answer.exchange)
                && e.server == answer.server
                && e.direction == Direction::Sent
        });
        let Some(entry) = entry else {
            return;
        };
        let before = weight(entry);
        if entry.pending {
            entry.pending = false;
            entry.duration_ms = Some(answer.at_ms - entry.at_ms);
        }
        if answer.http_status.is_some() {
            entry.http_status = answer.http_status;
        }
        if !answer.response_headers.is_empty() {
            entry.response_headers = answer.response_headers;
        }
        if answer.failure.is_some() {
            entry.failure = answer.failure;
        }
        if let Some(mut body) = answer.response_body {
            clip(&mut body, MAX_BODY_BYTES);
            entry.response_body = Some(body);
        }
        let after = weight(entry);
        self.bytes = self.bytes + after - before;
        self.trim();
    }

    /// Back under both bounds: the oldest entries go past the count; past the byte budget the
    /// oldest bodies go first (their rows stay, saying so), then, if the rows alone are still
    /// too much, the oldest rows (never the newest).
    fn trim(&mut self) {
        while self.entries.len() > self.capacity {
            self.pop_oldest();
        }
        while self.bytes > self.byte_budget && self.first_body < self.entries.len() {
            let entry = &mut self.entries[self.first_body];
            self.first_body += 1;
            let held = entry.body.len() + entry.response_body.as_ref().map_or(0, String::len);
            if held == 0 {
                continue;
            }
            let whole = match entry.body_cut {
                Some(BodyCut::Truncated { bytes }) => bytes,
                _ => entry.body.len(),
            };
            entry.body = String::new();
            if entry.response_body.is_some() {
                entry.response_body = Some(String::new());
            }
            entry.body_cut = Some(BodyCut::Dropped { bytes: whole });
            self.bytes -= held;
        }
        while self.bytes > self.byte_budget && self.entries.len() > 1 {
            self.pop_oldest();
        }
        if self.sent_at.len() > self.capacity {
            self.sent_at.clear(); // unanswered requests this old no longer need timing
        }
    }

    fn pop_oldest(&mut self) {
        if let Some(gone) = self.entries.pop_front() {
            self.bytes -= weight(&gone);
            self.first_body = self.first_body.saturating_sub(1);
        }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn clear(&mut self) {
        self.entries.clear();
        self.sent_at.clear();
        self.bytes = 0;
        self.first_body = 0;
    }

    pub fn entries<'a>(&'a self, filter: &'a Filter) -> impl Iterator<Item = &'a WireEntry> + 'a {
        self.entries.iter().filter(move |e| filter.matches(e))
    }

    /// The entries the filter shows, as pretty JSON (already redacted).
    pub fn export(&self, filter: &Filter) -> String {
        let shown: Vec<&WireEntry> = self.entries(filter).collect();
        serde_json::to_string_pretty(&shown).unwrap_or_else(|_| "[]".to_owned())
    }
}

/// A curl command that repeats a request we sent, safe to paste into a shell: every literal
/// (URL, header values the server chose such as `Mcp-Session-Id`, the body) is single-quoted,
/// so nothing in it expands (`$HOME`, `` ` ``, `!!`). Redacted headers become shell variables
/// (`$MCP_TOKEN` for the bearer token), the only live parts, outside the quotes, so the
/// command works once they are set and never contains the secret itself. `--globoff`: curl
/// would otherwise expand `[1-100000]` or `{a,b}` in a server-chosen URL into as many
/// requests.
pub fn curl_command(entry: &WireEntry) -> String {
    let mut parts = vec![
        "curl".to_owned(),
        "--globoff".to_owned(),
        "-X".to_owned(),
        shell_quote(&entry.via),
        shell_quote(&entry.url),
    ];
    for (name, value) in &entry.headers {
        parts.push("-H".to_owned());
        if value == REDACTED {
            let (prefix, variable) = if name == "authorization" {
                ("Bearer ", "MCP_TOKEN".to_owned())
            } else {
                ("", variable_name(name))
            };
            parts.push(format!(
                "{}\"${variable}\"",
                shell_quote(&format!("{name}: {prefix}"))
            ));
        } else {
            parts.push(shell_quote(&format!("{name}: {value}")));
        }
    }
    if !entry.body.is_empty() && entry.direction == Direction::Sent {
        parts.push("--data-raw".to_owned());
        parts.push(shell_quote(&entry.body));
    }
    parts.join(" ")
}

/// The shell variable a redacted header's value is read from.
fn variable_name(header: &str) -> String {
    header
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect()
}

/// Single quotes: the shell takes everything inside literally (a `'` is closed, escaped and
/// reopened).
fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(direction: Direction, body: &str, at_ms: f64) -> WireEntry {
        let (method, id) = summarize(body);
        WireEntry {
            seq: 0,
            server: "everything".into(),
            at_ms,
            direction,
            via: "POST".into(),
            url: "http://127.0.0.1:3001/mcp".into(),
            method,
            id,
            duration_ms: None,
            http_status: Some(200),
            headers: Vec::new(),
            body: body.into(),
            exchange: None,
            pending: false,
            failure: None,
            response_headers: Vec::new(),
            response_body: None,
            body_cut: None,
        }
    }

    #[test]
    fn a_request_is_logged_when_sent_and_completed_by_its_answer() {
        let mut log = WireLog::new(10);
        let mut first = entry(
            Direction::Sent,
            r#"{"jsonrpc":"2.0","id":0,"method":"initialize"}"#,
            10.0,
        );
        first.exchange = Some(0);
        first.pending = true;
        first.http_status = None;
        let mut second = entry(
            Direction::Sent,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#,
            12.0,
        );
        second.exchange = Some(1);
        second.pending = true;
        second.http_status = None;
        log.push(first);
        log.push(second);
        let answer = |exchange, at_ms, status, body: Option<&str>| WireAnswer {
            server: "everything".into(),
            exchange,
            at_ms,
            http_status: status,
            response_headers: vec![("www-authenticate".into(), "Bearer".into())],
            failure: None,
            response_body: body.map(str::to_owned),
        };
        // The second request is answered first; rows stay in send order.
        log.answer(answer(1, 20.0, Some(400), None));
        log.answer(answer(1, 25.0, Some(400), Some("{\"error\":\"x\"}")));
        let all = Filter::default();
        let rows: Vec<_> = log.entries(&all).collect();
        assert_eq!(rows[0].method.as_deref(), Some("initialize"));
        assert!(rows[0].pending, "the unanswered request stays pending");
        assert!(!rows[1].pending);
        assert_eq!(rows[1].http_status, Some(400));
        assert_eq!(rows[1].duration_ms, Some(8.0), "timed by the first answer");
        assert_eq!(rows[1].response_body.as_deref(), Some("{\"error\":\"x\"}"));
        // Another server's exchange 0 is not ours.
        let mut other = answer(0, 30.0, None, None);
        other.server = "other".into();
        other.failure = Some("Failed to fetch".into());
        log.answer(other);
        assert!(log.entries(&all).next().unwrap().pending);
    }

    #[test]
    fn answer_headers_keep_debugging_facts_and_hide_cookies() {
        let headers = vec![
            (
                "WWW-Authenticate".to_owned(),
                "Bearer resource_metadata=\"x\"".to_owned(),
            ),
            ("Set-Cookie".to_owned(), "sid=s3cret".to_owned()),
            ("Access-Control-Allow-Origin".to_owned(), "*".to_owned()),
        ];
        assert_eq!(
            redact_response_headers(&headers),
            vec![
                (
                    "www-authenticate".to_owned(),
                    "Bearer resource_metadata=\"x\"".to_owned()
                ),
                ("set-cookie".to_owned(), REDACTED.to_owned()),
                ("access-control-allow-origin".to_owned(), "*".to_owned()),
            ]
        );
    }

    #[test]
    fn credentials_in_urls_are_redacted_and_the_rest_kept() {
        assert_eq!(
            redact_url("https://user:pa55@api.example/mcp?api_key=k3y&team=a&x_token=t0k#top"),
            "https://[redacted]@api.example/mcp?api_key=[redacted]&team=a&x_token=[redacted]#top"
        );
        assert_eq!(
            redact_url("http://127.0.0.1:3001/mcp"),
            "http://127.0.0.1:3001/mcp"
        );
        assert_eq!(
            redact_url("http://h/message?sessionId=abc"),
            "http://h/message?sessionId=abc"
        );
        assert!(url_has_credentials("https://h/mcp?token=x"));
        assert!(url_has_credentials("https://a:b@h/mcp"));
        assert!(!url_has_credentials("https://h/mcp?mode=fast"));
        // Not a URL at all: nothing to find, nothing lost.
        assert_eq!(redact_url("not a url"), "not a url");
        assert_eq!(redact_url("http://h/p@x"), "http://h/p@x");
    }

    #[test]
    fn secrets_are_redacted_and_protocol_headers_kept() {
        let headers = vec![
            ("content-type".to_owned(), "application/json".to_owned()),
            ("Mcp-Session-Id".to_owned(), "abc".to_owned()),
            ("authorization".to_owned(), "Bearer s3cret".to_owned()),
            ("X-Api-Key".to_owned(), "k3y".to_owned()),
        ];
        let redacted = redact_headers(&headers);
        assert_eq!(
            redacted,
            vec![
                ("content-type".to_owned(), "application/json".to_owned()),
                ("mcp-session-id".to_owned(), "abc".to_owned()),
                ("authorization".to_owned(), REDACTED.to_owned()),
                ("x-api-key".to_owned(), REDACTED.to_owned()),
            ]
        );
    }

    #[test]
    fn answers_are_timed_against_their_requests_per_server() {
        let mut log = WireLog::new(10);
        log.push(entry(
            Direction::Sent,
            r#"{"jsonrpc":"2.0","id":0,"method":"tools/list"}"#,
            100.0,
        ));
        log.push(entry(
            Direction::Received,
            r#"{"jsonrpc":"2.0","method":"notifications/message"}"#,
            110.0,
        ));
        log.push(entry(
            Direction::Received,
            r#"{"jsonrpc":"2.0","id":0,"result":{}}"#,
            142.5,
        ));
        let everything = Filter::default();
        let all: Vec<_> = log.entries(&everything).collect();
        assert_eq!(all[2].method.as_deref(), Some("(result)"));
        assert_eq!(all[2].duration_ms, Some(42.5));
        assert_eq!(all[1].duration_ms, None);
        assert_eq!(all.iter().map(|e| e.seq).collect::<Vec<_>>(), vec![0, 1, 2]);
    }

    #[test]
    fn app_messages_are_timed_both_ways_apart_from_the_servers_and_filtered() {
        let mut log = WireLog::new(10);
        let app = |direction, body: &str, at| {
            let mut e = entry(direction, body, at);
            e.via = APP_VIA.into();
            e
        };
        // The server's request 1 and the app's request 1 do not mix.
        log.push(entry(
            Direction::Sent,
            r#"{"id":1,"method":"tools/call"}"#,
            0.0,
        ));
        log.push(app(
            Direction::Received,
            r#"{"id":1,"method":"tools/call"}"#,
            10.0,
        ));
        log.push(app(
            Direction::Sent,
            r#"{"id":0,"method":"ui/resource-teardown"}"#,
            20.0,
        ));
        log.push(entry(Direction::Received, r#"{"id":1,"result":{}}"#, 30.0));
        log.push(app(Direction::Sent, r#"{"id":1,"result":{}}"#, 35.0));
        log.push(app(Direction::Received, r#"{"id":0,"result":{}}"#, 45.0));
        let durations: Vec<_> = log
            .entries(&Filter::default())
            .map(|e| e.duration_ms)
            .collect();
        assert_eq!(
            durations,
            vec![None, None, None, Some(30.0), Some(25.0), Some(25.0)]
        );
        let only = |app| {
            log.entries(&Filter {
                app: Some(app),
                ..Filter::default()
            })
            .count()
        };
        assert_eq!((only(true), only(false)), (4, 2));
        // An app's request with an id of megabytes is logged, not timed (no copy of its id
        // is kept outside the budget).
        let huge = format!(
            r#"{{"id":"{}","method":"tools/call"}}"#,
            "i".repeat(1 << 20)
        );
        log.push(app(Direction::Received, &huge, 50.0));
        assert!(log
            .sent_at
            .keys()
            .all(|(_, id, _)| id.len() <= MAX_TIMED_ID_BYTES));
    }

    #[test]
    fn the_ring_buffer_keeps_the_newest_entries() {
        let mut log = WireLog::new(3);
        for n in 0..10 {
            log.push(entry(
                Direction::Sent,
                &format!(r#"{{"id":{n},"method":"ping"}}"#),
                n as f64,
            ));
        }
        let ids: Vec<_> = log
            .entries(&Filter::default())
            .map(|e| e.id.clone().unwrap())
            .collect();
        assert_eq!(ids, vec!["7", "8", "9"]);
        log.set_capacity(1);
        assert_eq!(log.len(), 1);
    }

    /// What the log should count: every entry's weight, recomputed.
    fn recount(log: &WireLog) -> usize {
        log.entries.iter().map(weight).sum()
    }

    #[test]
    fn the_byte_budget_drops_the_oldest_bodies_first_and_keeps_their_rows() {
        let mut log = WireLog::with_budget(1000, 20_000);
        for n in 0..40 {
            let body = format!(
                r#"{{"id":{n},"method":"notifications/message","data":"{}"}}"#,
                "x".repeat(2_000)
            );
            log.push(entry(Direction::Received, &body, n as f64));
            assert!(log.bytes() <= 20_000, "{} bytes after {n}", log.bytes());
            assert_eq!(log.bytes(), recount(&log));
        }
        let rows: Vec<&WireEntry> = log.entries.iter().collect();
        // Every row stays, with its method and id.
        assert_eq!(rows.len(), 40);
        assert!(rows
            .iter()
            .all(|row| row.method.as_deref() == Some("notifications/message")));
        let kept: Vec<bool> = rows.iter().map(|row| !row.body.is_empty()).collect();
        let first_kept = kept
            .iter()
            .position(|k| *k)
            .expect("the newest bodies are kept");
        // Oldest dropped first: no gap among the kept ones.
        assert!(kept[first_kept..].iter().all(|k| *k), "{kept:?}");
        assert!(first_kept > 20 && first_kept < 39, "{first_kept}");
        for row in &rows[..first_kept] {
            let Some(BodyCut::Dropped { bytes }) = row.body_cut else {
                panic!("no note on a dropped body: {:?}", row.body_cut);
            };
            assert!(bytes > 2_000);
            assert!(BodyCut::Dropped { bytes }
                .to_string()
                .contains("dropped to bound memory"));
        }
        // The export says it too.
        let exported = log.export(&Filter::default());
        assert!(
            exported.contains(r#""why": "dropped""#),
            "{}",
            &exported[..400]
        );
        // Clearing gives every byte back.
        log.clear();
        assert_eq!(log.bytes(), 0);
    }

    #[test]
    fn a_body_over_the_message_limit_keeps_its_start_on_a_character_boundary() {
        let mut log = WireLog::default();
        // A two-byte character across the limit.
        let body = format!("{}é{}", "a".repeat(MAX_BODY_BYTES - 1), "b".repeat(10));
        log.push(entry(Direction::Received, &body, 0.0));
        let row = log.entries.iter().next().unwrap();
        assert_eq!(row.body.len(), MAX_BODY_BYTES - 1);
        assert_eq!(row.body_cut, Some(BodyCut::Truncated { bytes: body.len() }));
        assert!(row
            .body_cut
            .unwrap()
            .to_string()
            .starts_with("Only the first 16.0 MB of this message's 16.0 MB"));
        assert!(log.bytes() <= DEFAULT_BYTE_BUDGET);
        // Dropped later, it still says how long it was.
        let mut small = WireLog::with_budget(10, MAX_BODY_BYTES + 10_000);
        small.push(entry(Direction::Received, &body, 0.0));
        small.push(entry(Direction::Received, &"c".repeat(20_000), 1.0));
        let first = small.entries.iter().next().unwrap();
        assert_eq!(first.body_cut, Some(BodyCut::Dropped { bytes: body.len() }));
    }

    #[test]
    fn answers_that_grow_an_entry_count_against_the_budget() {
        let mut log = WireLog::with_budget(10, 10_000);
        let mut sent = entry(Direction::Sent, r#"{"id":1,"method":"tools/call"}"#, 0.0);
        sent.exchange = Some(1);
        sent.pending = true;
        log.push(sent);
        log.push(entry(Direction::Sent, &"y".repeat(5_000), 1.0));
        log.answer(WireAnswer {
            server: "everything".into(),
            exchange: 1,
            at_ms: 2.0,
            http_status: Some(500),
            response_headers: Vec::new(),
            failure: None,
            response_body: Some("z".repeat(6_000)),
        });
        assert_eq!(log.bytes(), recount(&log));
        assert!(log.bytes() <= 10_000);
        let first = log.entries.iter().next().unwrap();
        assert_eq!(
            first.response_body.as_deref(),
            Some(""),
            "the oldest body went first"
        );
        assert!(matches!(first.body_cut, Some(BodyCut::Dropped { .. })));
    }

    #[test]
    fn filters_by_server_direction_and_method() {
        let mut log = WireLog::default();
        log.push(entry(
            Direction::Sent,
            r#"{"id":1,"method":"tools/call"}"#,
            0.0,
        ));
        log.push(entry(Direction::Received, r#"{"id":1,"result":{}}"#, 1.0));
        let mut other = entry(Direction::Sent, r#"{"id":1,"method":"tools/list"}"#, 2.0);
        other.server = "python".into();
        log.push(other);
        let count = |filter: Filter| log.entries(&filter).count();
        assert_eq!(count(Filter::default()), 3);
        assert_eq!(
            count(Filter {
                direction: Some(Direction::Sent),
                ..Filter::default()
            }),
            2
        );
        assert_eq!(
            count(Filter {
                method: "CALL".into(),
                ..Filter::default()
            }),
            1
        );
        assert_eq!(
            count(Filter {
                server: Some("python".into()),
                ..Filter::default()
            }),
            1
        );
    }

    #[test]
    fn model_provider_keys_are_redacted_and_model_traffic_filtered_apart() {
        let headers: Vec<(String, String)> = [
            ("Authorization", "Bearer sk-openai"),
            ("x-api-key", "sk-ant-key"),
            ("x-goog-api-key", "AIza-key"),
            ("anthropic-version", "2023-06-01"),
            ("content-type", "application/json"),
        ]
        .iter()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect();
        let shown = redact_headers(&headers);
        for (name, value) in &shown[..3] {
            assert_eq!(value, REDACTED, "{name}");
        }
        assert_eq!(shown[4].1, "application/json");
        let mut log = WireLog::default();
        log.push(entry(
            Direction::Sent,
            r#"{"id":1,"method":"tools/call"}"#,
            0.0,
        ));
        let mut model = entry(Direction::Sent, r#"{"model":"m"}"#, 1.0);
        model.via = MODEL_VIA.into();
        log.push(model);
        let count = |filter: Filter| log.entries(&filter).count();
        let only_model = Filter {
            model: Some(true),
            ..Filter::default()
        };
        let no_model = Filter {
            model: Some(false),
            app: Some(false),
            ..Filter::default()
        };
        assert_eq!((count(only_model), count(no_model)), (1, 1));
    }

    #[test]
    fn export_is_json_of_the_shown_entries() {
        let mut log = WireLog::default();
        let mut sent = entry(Direction::Sent, r#"{"id":1,"method":"ping"}"#, 0.0);
        sent.headers = redact_headers(&[("authorization".into(), "Bearer s3cret".into())]);
        log.push(sent);
        let exported = log.export(&Filter::default());
        let parsed: Value = serde_json::from_str(&exported).unwrap();
        assert_eq!(parsed[0]["method"], "ping");
        assert_eq!(parsed[0]["direction"], "sent");
        assert!(!exported.contains("s3cret"));
    }

    #[test]
    fn curl_commands_use_placeholders_for_secrets_and_quote_the_body() {
        let mut sent = entry(
            Direction::Sent,
            r#"{"id":1,"method":"tools/call","params":{"q":"it's"}}"#,
            0.0,
        );
        sent.headers = redact_headers(&[
            ("content-type".into(), "application/json".into()),
            ("authorization".into(), "Bearer s3cret".into()),
            ("x-api-key".into(), "k3y".into()),
        ]);
        let curl = curl_command(&sent);
        assert_eq!(
            curl,
            r#"curl --globoff -X 'POST' 'http://127.0.0.1:3001/mcp' -H 'content-type: application/json' -H 'authorization: Bearer '"$MCP_TOKEN" -H 'x-api-key: '"$X_API_KEY" --data-raw '{"id":1,"method":"tools/call","params":{"q":"it'\''s"}}'"#
        );
        assert!(!curl.contains("s3cret") && !curl.contains("k3y"));
    }

    #[test]
    fn curl_does_not_expand_globs_in_a_server_chosen_url() {
        // A legacy server's `endpoint` (or any URL the server chose) with curl's globbing
        // syntax: without --globoff, pasting the command sends 100,000 requests.
        let mut sent = entry(Direction::Sent, r#"{"id":1,"method":"ping"}"#, 0.0);
        sent.url = "http://127.0.0.1:3001/messages?session=[1-100000]&x={a,b}".into();
        let curl = curl_command(&sent);
        let words: Vec<&str> = curl.split(' ').collect();
        let url_at = words
            .iter()
            .position(|w| w.contains("[1-100000]"))
            .expect("the URL is in the command");
        let globoff_at = words.iter().position(|w| *w == "--globoff");
        assert!(
            globoff_at.is_some_and(|at| at < url_at),
            "no --globoff before the URL: {curl}"
        );
    }

    #[test]
    fn summaries_of_odd_payloads() {
        assert_eq!(summarize("not json"), (None, None));
        assert_eq!(
            summarize(r#"[{"id":"a","method":"ping"},{"id":"b","method":"ping"}]"#),
            (Some("ping (batch of 2)".into()), Some("a".into()))
        );
        assert_eq!(
            summarize(r#"{"id":null,"error":{}}"#),
            (Some("(error)".into()), None)
        );
        // Read as a whole value would read them: null results count, the last key wins,
        // a method that is not a string is none, numbers as ids are text.
        assert_eq!(
            summarize(r#"{"id":7,"result":null,"error":1}"#),
            (Some("(result)".into()), Some("7".into()))
        );
        assert_eq!(
            summarize(r#"{"method":"a","method":"b","id":{"x":[1]}}"#),
            (Some("b".into()), Some(r#"{"x":[1]}"#.into()))
        );
        assert_eq!(
            summarize(r#"{"method":5,"id":"x"}"#),
            (None, Some("x".into()))
        );
        assert_eq!(summarize(r#"[]"#), (None, None));
        assert_eq!(summarize(r#"[1, {"method":"ping"}]"#), (None, None));
        assert_eq!(
            summarize(r#"[{"id":1,"result":[[1],{"a":2}]}]"#),
            (Some("(result)".into()), Some("1".into()))
        );
        for odd in [
            "\"text\"",
            "42",
            "null",
            "true",
            "",
            "{\"id\":1} trailing",
            "[{\"id\":1]",
        ] {
            assert_eq!(summarize(odd), (None, None), "{odd}");
        }
    }

    #[test]
    fn decoded_payloads_summarize_like_their_text() {
        for body in [
            r#"{"jsonrpc":"2.0","id":3,"result":{"content":[]}}"#,
            r#"{"jsonrpc":"2.0","id":"a","error":{"code":-1,"message":"no"}}"#,
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-1,"message":"no"}}"#,
            r#"{"jsonrpc":"2.0","id":4,"method":"roots/list"}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{}}"#,
            r#"[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","id":1,"result":{}}]"#,
            "not json",
        ] {
            let decoded = crate::jsonrpc::decode_incoming(body);
            assert_eq!(summarize_decoded(&decoded), summarize(body), "{body}");
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        /// The summary reads what the whole value says, for any JSON.
        #[test]
        fn summaries_agree_with_the_whole_value(value in crate::arbitrary::json()) {
            let body = serde_json::to_string(&value).unwrap();
            proptest::prop_assert_eq!(summarize(&body), summarize_whole(&body));
        }
    }

    /// The summary as it was made before: from the whole value.
    #[cfg(not(target_arch = "wasm32"))]
    fn summarize_whole(body: &str) -> (Option<String>, Option<String>) {
        let Ok(value) = serde_json::from_str::<Value>(body) else {
            return (None, None);
        };
        let first = match &value {
            Value::Array(items) => items.first().cloned().unwrap_or(Value::Null),
            other => other.clone(),
        };
        let method = first
            .get("method")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .or_else(|| match () {
                _ if first.get("result").is_some() => Some("(result)".to_owned()),
                _ if first.get("error").is_some() => Some("(error)".to_owned()),
                _ => None,
            });
        let id = first
            .get("id")
            .filter(|id| !id.is_null())
            .map(|id| match id {
                Value::String(text) => text.clone(),
                other => other.to_string(),
            });
        let method = match &value {
            Value::Array(items) if items.len() > 1 => {
                method.map(|m| format!("{m} (batch of {})", items.len()))
            }
            _ => method,
        };
        (method, id)
    }

    #[cfg(not(target_arch = "wasm32"))]
    mod properties {
        use super::*;
        use crate::arbitrary;
        use proptest::prelude::*;

        /// The words bash makes of a command line (NUL-separated by printf), with the
        /// placeholders set.
        fn bash_words(command: &str) -> Vec<String> {
            let line = command.replacen("curl", "printf '%s\\0'", 1);
            let output = std::process::Command::new("bash")
                .args(["--norc", "--noprofile", "-c", &line])
                .env("MCP_TOKEN", "the-token")
                .env("X_API_KEY", "the-key")
                .env("HOME", "/home/someone")
                .output()
                .expect("bash runs");
            assert!(output.status.success(), "{line}");
            String::from_utf8_lossy(&output.stdout)
                .split('\0')
                .filter(|w| !w.is_empty())
                .map(str::to_owned)
                .collect()
        }

        #[test]
        fn server_values_do_not_expand_in_a_shell() {
            let mut sent = entry(Direction::Sent, r#"{"q":"$(id) `id` !!"}"#, 0.0);
            sent.url = "http://h/mcp?a=$HOME&b=`id`".into();
            sent.headers = vec![
                ("mcp-session-id".into(), "$HOME".into()),
                ("last-event-id".into(), "!! $(touch /tmp/x) \\\" '".into()),
                ("authorization".into(), REDACTED.into()),
                ("x-api-key".into(), REDACTED.into()),
            ];
            assert_eq!(
                bash_words(&curl_command(&sent)),
                vec![
                    "--globoff",
                    "-X",
                    "POST",
                    "http://h/mcp?a=$HOME&b=`id`",
                    "-H",
                    "mcp-session-id: $HOME",
                    "-H",
                    "last-event-id: !! $(touch /tmp/x) \\\" '",
                    "-H",
                    "authorization: Bearer the-token",
                    "-H",
                    "x-api-key: the-key",
                    "--data-raw",
                    r#"{"q":"$(id) `id` !!"}"#,
                ]
            );
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(64))]
            /// Any header value (no NUL: HTTP forbids it and bash cannot carry it), pasted
            /// into bash, reaches curl unchanged.
            #[test]
            fn any_header_value_reaches_curl_unchanged(value in "[^\\x00]{0,40}", url in "[^\\x00]{0,30}") {
                let mut sent = entry(Direction::Sent, &value, 0.0);
                sent.url = url.clone();
                sent.headers = vec![("mcp-session-id".into(), value.clone())];
                let words = bash_words(&curl_command(&sent));
                let mut expected = vec!["--globoff".to_owned(), "-X".to_owned(), "POST".to_owned()];
                if !url.is_empty() { expected.push(url.clone()); }
                expected.extend(["-H".to_owned(), format!("mcp-session-id: {value}")]);
                if !value.is_empty() { expected.extend(["--data-raw".to_owned(), value.clone()]); }
                prop_assert_eq!(words, expected);
            }
        }

        proptest! {
            /// Whatever arrives, in whatever sizes, and whatever answers complete it: the log
            /// counts exactly what it holds and stays within its budget (its newest entry's
            /// columns aside), within its count, and in order.
            #[test]
            fn the_log_stays_within_its_bounds(
                steps in prop::collection::vec((0usize..6_000, any::<bool>(), 0u64..8, 0usize..3_000), 1..60),
                capacity in 1usize..30,
            ) {
                let mut log = WireLog::with_budget(capacity, 8_000);
                for (n, (size, sent, exchange, answer)) in steps.into_iter().enumerate() {
                    if sent && answer > 0 {
                        log.answer(WireAnswer {
                            server: "everything".into(),
                            exchange,
                            at_ms: n as f64,
                            http_status: Some(400),
                            response_headers: vec![("x".into(), "y".repeat(answer % 50))],
                            failure: None,
                            response_body: Some("e".repeat(answer)),
                        });
                    } else {
                        let mut e = entry(if sent { Direction::Sent } else { Direction::Received }, &"b".repeat(size), n as f64);
                        e.exchange = Some(exchange);
                        log.push(e);
                    }
                    prop_assert_eq!(log.bytes(), recount(&log));
                    prop_assert!(log.len() <= capacity);
                    let newest = log.entries.back().map_or(0, weight);
                    prop_assert!(log.bytes() <= 8_000usize.max(newest));
                    let seqs: Vec<u64> = log.entries(&Filter::default()).map(|e| e.seq).collect();
                    prop_assert!(seqs.windows(2).all(|w| w[0] < w[1]));
                }
            }

            #[test]
            fn any_payload_is_logged_and_quoted_without_panicking(payload in arbitrary::json(), text in ".{0,40}") {
                let mut log = WireLog::new(4);
                for body in [payload.to_string(), text.clone()] {
                    let mut sent = entry(Direction::Sent, &body, 0.0);
                    sent.headers = redact_headers(&[("authorization".into(), text.clone())]);
                    let curl = curl_command(&sent);
                    // Whatever the secret was, the command carries only the placeholder.
                    prop_assert!(curl.contains("-H 'authorization: Bearer '\"$MCP_TOKEN\""));
                    log.push(sent);
                }
                let _ = log.export(&Filter::default());
            }
        }
    }
}
