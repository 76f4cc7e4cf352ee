//! MCP transports behind one trait: `streamable::StreamableHttp` (the current one) and
//! `legacy::Legacy` HTTP+SSE (protocol 2024-11-05). A transport owns where messages go (the server URL, or
//! the endpoint the legacy stream named), the session id, and its streams; it speaks
//! send / server stream / close and hands whatever arrives to an [`Inbox`] (the TypeScript
//! SDK's `onmessage`). The engine above does correlation, deadlines and renewal.
//!
//! API boundary: transports talk HTTP only through the `Http` they were given (the
//! session's layers: authorization, the wire log); they know nothing of the client but the
//! [`Inbox`].

pub(crate) mod legacy;
pub(crate) mod streamable;

use crate::runtime::{Abort, HttpResponse};
use futures::future::LocalBoxFuture;
use mcp_lens_protocol::error::ErrorKind;
use mcp_lens_protocol::jsonrpc::RequestId;
use mcp_lens_protocol::streamable::{classify_answer, AnswerForm, Sent};
use mcp_lens_protocol::wire_log::Via;

/// How much of an error answer's body is read, for the error and the wire log.
const ERROR_BODY_BYTES: usize = 16 * 1024;

/// The server as every request reaches it: its address (as the browser reads it), the
/// person's headers (the bearer token among them), and the largest message accepted.
#[derive(Clone)]
pub(crate) struct Endpoint {
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub max_message_bytes: usize,
}

impl Endpoint {
    /// The protocol's headers, a call's mirrored parameters (`Mcp-Param-*`), then the person's.
    fn headers(
        &self,
        protocol_headers: Vec<(&'static str, String)>,
        mirrored: &[(String, String)],
    ) -> Vec<(String, String)> {
        let mut headers: Vec<(String, String)> = protocol_headers
            .into_iter()
            .map(|(name, value)| (name.to_owned(), value))
            .collect();
        headers.extend(mirrored.iter().cloned());
        headers.extend(self.headers.iter().cloned());
        headers
    }
}

/// A request the engine hands a transport, already encoded.
pub(crate) struct OutgoingRequest<'a> {
    pub method: &'a str,
    pub body: &'a str,
    pub id: &'a RequestId,
    pub abort: &'a Abort,
    /// The 2026-07-28 routing headers (`Mcp-Method`, `Mcp-Name`), empty otherwise.
    pub routing: &'a [(&'static str, String)],
    /// A 2026-07-28 tool call's arguments mirrored into `Mcp-Param-*` headers (SEP-2243),
    /// empty otherwise.
    pub mirrored: &'a [(String, String)],
}

/// Where a transport hands what arrives: implemented by the client above it.
pub(crate) trait Inbox {
    /// Routes every message of a payload (`via`: [`Via::Json`] or [`Via::Sse`]) that arrived on the stream
    /// of `answering`, if any; resolves once they are handled.
    fn deliver<'a>(
        &'a self,
        via: Via,
        payload: String,
        answering: Option<&'a RequestId>,
    ) -> LocalBoxFuture<'a, ()>;

    /// Whether the request still waits for its answer (a transport stops reading its stream
    /// once it has it).
    fn waiting(&self, id: &RequestId) -> bool;

    /// The stream that carried every answer ended (`reason` says so to the person): nothing
    /// more will arrive.
    fn lost(&self, ended: ErrorKind, reason: String);
}

/// A long-lived stream that carries the server's own messages.
pub(crate) enum ServerStream<'a> {
    /// The standalone GET stream (2025 era), resumed after the last event it gave.
    Get,
    /// A request whose answer stays open (`subscriptions/listen`, 2026-07-28).
    Request(OutgoingRequest<'a>),
}

/// How one attempt at a long-lived stream ended.
pub(crate) enum StreamEnd {
    /// The server does not offer the stream (405, an error answer): do not retry.
    Refused(String),
    /// The stream ended or broke: retry after the backoff (or the server's `retry`).
    Ended { retry_ms: Option<u64> },
}

/// How messages reach the server once a transport is chosen.
pub(crate) trait Transport {
    /// Sends a request. Resolves once its answer has gone to `inbox`, or, when the answer
    /// comes on another stream (legacy SSE, a 202), once the server accepted it.
    fn send_request<'a>(
        &'a self,
        request: OutgoingRequest<'a>,
        inbox: &'a dyn Inbox,
    ) -> LocalBoxFuture<'a, Result<(), ErrorKind>>;

    /// Sends a notification or a response, which the server only acknowledges.
    fn send_message<'a>(&'a self, body: &'a str) -> LocalBoxFuture<'a, Result<(), ErrorKind>>;

    /// One attempt at a stream of the server's own messages, read to its end into `inbox`;
    /// closing the transport stops it.
    fn server_stream<'a>(
        &'a self,
        stream: ServerStream<'a>,
        inbox: &'a dyn Inbox,
    ) -> LocalBoxFuture<'a, StreamEnd>;

    /// The session id the server gave, if any.
    fn session_id(&self) -> Option<String>;

    /// The protocol version the requests name from now on (`None`: none).
    fn set_protocol_version(&self, version: Option<String>);

    /// Forgets the session id (the server lost the session; a new one is initialized).
    fn forget_session(&self);

    /// The legacy transport: only the handshake era, no standalone GET stream.
    fn is_legacy(&self) -> bool;

    /// Stops the transport's streams, then ends the session on the server (DELETE, when it
    /// gave a session id).
    fn close(&self) -> LocalBoxFuture<'_, Result<(), ErrorKind>>;
}

/// Reads the start of an error answer's body, to quote in the error (the wire log adds it to
/// the answer's row).
async fn error_body(response: &HttpResponse) -> String {
    response.text_start(ERROR_BODY_BYTES).await
}

/// The answer to a notification or a response: an acknowledgement, or an error.
async fn acknowledged(response: HttpResponse) -> Result<(), ErrorKind> {
    let content_type = response.header("content-type");
    match classify_answer(
        response.status(),
        content_type.as_deref(),
        Sent::NotificationOrResponse,
    ) {
        AnswerForm::Error(error) => {
            let body = error_body(&response).await;
            Err(error.with_body(&body))
        }
        _ => {
            // Drop any body the server sent with its acknowledgement.
            if let Some(body) = response.body() {
                body.cancel();
            }
            Ok(())
        }
    }
}
