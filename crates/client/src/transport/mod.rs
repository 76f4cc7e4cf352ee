//! MCP transports behind one trait: [`StreamableHttp`] (the current one) and [`Legacy`]
//! HTTP+SSE (protocol 2024-11-05). The engine above them does correlation and timeouts;
//! a transport only moves a message to the server and gets its answer (or its
//! acknowledgement) back into `dispatch`.
//!
//! API boundary: transports talk HTTP only through the runtime's [`crate::runtime::Http`]
//! (via `send_http`, so the wire log sees every exchange).

mod legacy;
mod streamable;

use crate::runtime::Abort;
use crate::McpClient;
use futures::future::LocalBoxFuture;
use mcp_lens_protocol::error::ErrorKind;
use mcp_lens_protocol::jsonrpc::RequestId;
use mcp_lens_protocol::streamable::Session;

/// A request the engine hands a transport, already encoded.
pub(crate) struct OutgoingRequest<'a> {
    pub method: &'a str,
    pub body: &'a str,
    pub id: &'a RequestId,
    pub abort: &'a Abort,
    /// The 2026-07-28 routing headers (`Mcp-Method`, `Mcp-Name`), empty otherwise.
    pub routing: &'a [(&'static str, String)],
}

/// How messages reach the server once a transport is chosen.
pub(crate) trait Transport {
    /// Sends a request. Resolves once its answer has gone through `dispatch`, or, when the
    /// answer comes on another stream (legacy SSE, a 202), once the server accepted it.
    fn send_request<'a>(
        &'a self,
        client: &'a McpClient,
        request: OutgoingRequest<'a>,
    ) -> LocalBoxFuture<'a, Result<(), ErrorKind>>;

    /// Where a message is POSTed and the protocol headers it carries.
    fn post_target(&self, client: &McpClient) -> (String, Vec<(&'static str, String)>);

    /// The legacy transport: only the handshake era, no standalone GET stream.
    fn is_legacy(&self) -> bool;

    /// Stops the transport's own streams (on disconnect).
    fn close(&self);
}

/// Streamable HTTP: every message is POSTed to the configured URL.
pub(crate) struct StreamableHttp;

impl Transport for StreamableHttp {
    fn send_request<'a>(
        &'a self,
        client: &'a McpClient,
        request: OutgoingRequest<'a>,
    ) -> LocalBoxFuture<'a, Result<(), ErrorKind>> {
        Box::pin(client.streamable_exchange(request))
    }

    fn post_target(&self, client: &McpClient) -> (String, Vec<(&'static str, String)>) {
        (
            client.0.config.url.clone(),
            client.0.session.borrow().post_headers(),
        )
    }

    fn is_legacy(&self) -> bool {
        false
    }

    fn close(&self) {}
}

/// Legacy HTTP+SSE: messages are POSTed to the endpoint the SSE stream named; answers come
/// back on that stream, which `stream` aborts.
pub(crate) struct Legacy {
    pub post_url: String,
    pub stream: Abort,
}

impl Transport for Legacy {
    fn send_request<'a>(
        &'a self,
        client: &'a McpClient,
        request: OutgoingRequest<'a>,
    ) -> LocalBoxFuture<'a, Result<(), ErrorKind>> {
        Box::pin(client.post_message(request.body))
    }

    /// The legacy transport predates session and version headers: the session is in the
    /// endpoint URL.
    fn post_target(&self, _client: &McpClient) -> (String, Vec<(&'static str, String)>) {
        (self.post_url.clone(), Session::default().post_headers())
    }

    fn is_legacy(&self) -> bool {
        true
    }

    fn close(&self) {
        self.stream.abort();
    }
}
