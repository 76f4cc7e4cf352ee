//! One row of the log ([`WireEntry`]) and the answer that completes a pending one
//! ([`WireAnswer`]). Entries are made here only, by what they log (an HTTP request sent, a
//! payload received, an MCP App's message, a sign-in's request): each constructor redacts
//! what it is given and reads the payload's columns, so no caller can forget either.

use super::budget::BodyCut;
use super::redact::{redact_headers, redact_url};
use super::summary::{method_text, summarize, MessageKind, Summary};
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    Sent,
    Received,
}

/// How a message travelled: an HTTP request we sent, how a payload arrived, or a message
/// that is no MCP traffic of the session. Exported as the strings the log always used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Via {
    #[serde(rename = "POST")]
    Post,
    #[serde(rename = "GET")]
    Get,
    #[serde(rename = "DELETE")]
    Delete,
    /// A payload that arrived as a JSON answer.
    #[serde(rename = "JSON")]
    Json,
    /// A payload that arrived as an event of a stream.
    #[serde(rename = "SSE")]
    Sse,
    /// A message between the page and an MCP App's frame (`postMessage`, not HTTP): its `url`
    /// is the app's `ui://` resource, `Sent` is host -> app.
    #[serde(rename = "app")]
    App,
    /// An authorization request (metadata, registration, token), logged from the sign-in's
    /// own step log with its secrets redacted: `Sent`, with its answer in the entry.
    #[serde(rename = "oauth")]
    Auth,
    /// A request from the chat to a language model's provider, or its answer.
    #[serde(rename = "model")]
    Model,
}

impl Via {
    /// The `via` column (and the export's `via`).
    ///
    /// ```
    /// use mcp_lens_protocol::wire_log::Via;
    /// assert_eq!(Via::of_request("DELETE").as_str(), "DELETE");
    /// assert_eq!(Via::App.as_str(), "app");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Via::Post => "POST",
            Via::Get => "GET",
            Via::Delete => "DELETE",
            Via::Json => "JSON",
            Via::Sse => "SSE",
            Via::App => "app",
            Via::Auth => "oauth",
            Via::Model => "model",
        }
    }

    /// The `via` of a session's HTTP request by its method: `GET` (a server stream), `DELETE`
    /// (the session's end), else `POST` (every other request a session sends).
    pub fn of_request(method: &str) -> Via {
        match method {
            "GET" => Via::Get,
            "DELETE" => Via::Delete,
            _ => Via::Post,
        }
    }
}

/// One message, or one HTTP exchange without a JSON-RPC body (GET stream, DELETE).
#[derive(Debug, Clone, PartialEq)]
pub struct WireEntry {
    pub seq: u64,
    pub server: String,
    /// Milliseconds since the page started.
    pub at_ms: f64,
    pub direction: Direction,
    pub via: Via,
    pub url: String,
    /// What the (first) message is; none for what is no JSON-RPC message.
    pub kind: Option<MessageKind>,
    /// The method of a request or notification; for what is no JSON-RPC message, what it is
    /// (an authorization step, a model's endpoint, `(ignored)`).
    pub method: Option<String>,
    pub id: Option<String>,
    /// How many messages the payload holds, when it is a batch of more than one.
    pub batch: Option<usize>,
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

impl WireEntry {
    /// The one place an entry is made: `body` with its columns, everything else empty (the
    /// log numbers and times it).
    fn new(
        server: String,
        at_ms: f64,
        (direction, via): (Direction, Via),
        url: String,
        body: String,
        summary: Summary,
    ) -> Self {
        let Summary {
            kind,
            method,
            id,
            batch,
        } = summary;
        WireEntry {
            seq: 0,
            server,
            at_ms,
            direction,
            via,
            url,
            kind,
            method,
            id,
            batch,
            duration_ms: None,
            http_status: None,
            headers: Vec::new(),
            body,
            exchange: None,
            pending: false,
            failure: None,
            response_headers: Vec::new(),
            response_body: None,
            body_cut: None,
        }
    }

    /// An HTTP request as it leaves, pending until the [`WireAnswer`] naming `exchange`
    /// completes it: its URL and headers redacted, its columns read from its body.
    ///
    /// ```
    /// use mcp_lens_protocol::wire_log::{Via, WireEntry, REDACTED};
    /// let headers = [("Authorization".to_owned(), "Bearer s3cret".to_owned())];
    /// let body = r#"{"jsonrpc":"2.0","id":0,"method":"initialize"}"#;
    /// let entry = WireEntry::sent("docs".into(), 0.0, Via::Post, "http://h/mcp?token=t", &headers, Some(body), 0);
    /// assert_eq!(entry.url, "http://h/mcp?token=[redacted]");
    /// assert_eq!(entry.headers[0].1, REDACTED);
    /// assert_eq!((entry.method.as_deref(), entry.id.as_deref()), (Some("initialize"), Some("0")));
    /// assert!(entry.pending);
    /// ```
    pub fn sent(
        server: String,
        at_ms: f64,
        via: Via,
        url: &str,
        headers: &[(String, String)],
        body: Option<&str>,
        exchange: u64,
    ) -> Self {
        let summary = body.map(summarize).unwrap_or_default();
        let body = body.unwrap_or_default().to_owned();
        // A credential in the URL itself stays out of the log, exports and curl.
        let url = redact_url(url);
        let mut entry = WireEntry::new(server, at_ms, (Direction::Sent, via), url, body, summary);
        entry.headers = redact_headers(headers);
        entry.exchange = Some(exchange);
        entry.pending = true;
        entry
    }

    /// A payload that arrived (`via`: how), with its columns (read by whoever decoded it).
    pub fn received(server: String, at_ms: f64, via: Via, body: String, summary: Summary) -> Self {
        let (direction, url) = (Direction::Received, String::new());
        WireEntry::new(server, at_ms, (direction, via), url, body, summary)
    }

    /// A message between the page and the MCP App of the resource `uri` (`Sent`: to the
    /// app). What is no JSON-RPC message is shown as `(ignored)`; `failure` says why the page
    /// did not accept it.
    pub fn app(
        server: String,
        at_ms: f64,
        direction: Direction,
        uri: String,
        body: &str,
        failure: Option<String>,
    ) -> Self {
        let mut summary = summarize(body);
        if summary.method.is_none() && summary.kind.is_none() {
            summary.method = Some("(ignored)".to_owned());
        }
        let body = body.to_owned();
        let mut entry = WireEntry::new(server, at_ms, (direction, Via::App), uri, body, summary);
        entry.failure = failure;
        entry
    }

    /// An authorization request to `url` (already redacted, as the sign-in's step log keeps
    /// it), named by `label` (`GET metadata`); its status, bodies and failure are the
    /// caller's to set.
    pub fn auth(server: String, at_ms: f64, url: String, label: String) -> Self {
        let summary = Summary {
            method: Some(label),
            ..Summary::default()
        };
        let how = (Direction::Sent, Via::Auth);
        WireEntry::new(server, at_ms, how, url, String::new(), summary)
    }

    /// The method column: the method (or what the entry is), `(result)` or `(error)` for an
    /// answer, and a batch's length (`ping (batch of 2)`).
    pub fn method_text(&self) -> Option<String> {
        method_text(self.kind, self.method.as_deref(), self.batch)
    }
}

/// An entry of `body` sent by POST to a test server, for the tests of the log's parts.
#[cfg(test)]
pub(super) fn sample(direction: Direction, body: &str, at_ms: f64) -> WireEntry {
    let url = "http://127.0.0.1:3001/mcp".to_owned();
    let mut entry = WireEntry::new(
        "everything".into(),
        at_ms,
        (direction, Via::Post),
        url,
        body.into(),
        summarize(body),
    );
    entry.http_status = Some(200);
    entry
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_via_is_exported_as_its_column() {
        for via in [
            Via::Post,
            Via::Get,
            Via::Delete,
            Via::Json,
            Via::Sse,
            Via::App,
            Via::Auth,
            Via::Model,
        ] {
            assert_eq!(
                serde_json::to_value(via).unwrap(),
                serde_json::Value::from(via.as_str())
            );
        }
        assert_eq!(Via::of_request("GET"), Via::Get);
        assert_eq!(Via::of_request("POST"), Via::Post);
    }

    #[test]
    fn an_app_message_that_is_no_json_rpc_is_shown_as_ignored() {
        let ignored = WireEntry::app(
            "s".into(),
            0.0,
            Direction::Received,
            "ui://a".into(),
            "{\"x\":1}",
            Some("refused".into()),
        );
        assert_eq!(ignored.method_text().as_deref(), Some("(ignored)"));
        assert_eq!(ignored.kind, None);
        let answer = WireEntry::app(
            "s".into(),
            0.0,
            Direction::Received,
            "ui://a".into(),
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
            None,
        );
        assert_eq!(answer.method_text().as_deref(), Some("(result)"));
        assert_eq!(answer.kind, Some(MessageKind::Answer));
    }
}
