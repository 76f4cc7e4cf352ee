//! The long-lived streams that carry the server's own requests and notifications outside any
//! answer: the standalone GET stream of Streamable HTTP (2025 era; 405 means the server has
//! none, which is fine) or `subscriptions/listen` (its 2026-07-28 replacement: a request
//! whose answer stays open). Opened after connect, kept open until the session closes, and
//! re-opened with backoff when they end. The transport reads each attempt.

use crate::client::McpClient;
use crate::events::ClientEvent;
use crate::runtime::Abort;
use crate::transport::{OutgoingRequest, ServerStream, StreamEnd};
use mcp_lens_protocol::era;
use mcp_lens_protocol::jsonrpc::encode_request;
use mcp_lens_protocol::resume::reconnect_delay;
use serde_json::json;

/// First and largest wait before re-opening a stream, in milliseconds.
const BACKOFF_START_MS: u32 = 1_000;
const BACKOFF_MAX_MS: u32 = 30_000;

const LISTEN: &str = "subscriptions/listen";

impl McpClient {
    /// Keeps a long-lived stream open in the background until the session closes: `open`
    /// runs one attempt; between attempts the client waits with backoff (or the server's
    /// `retry`). Shared by the GET stream and `subscriptions/listen`.
    fn keep_stream_open<Fut>(&self, open: impl Fn(McpClient) -> Fut + 'static)
    where
        Fut: std::future::Future<Output = StreamEnd> + 'static,
    {
        let client = self.background();
        let turn = self.yield_now();
        self.spawn(async move {
            // Opened a task after the connect's list requests have left, so it never stands
            // before them, but not after the paint: a server may send its own requests right
            // after `initialized` (server-everything asks for the roots 350 ms later), and one
            // sent before this stream is open is lost (the SDKs' servers drop it).
            turn.await;
            let mut backoff = BACKOFF_START_MS;
            while !client.session().is_closed() {
                let opened_at = client.now_ms();
                match open(client.clone()).await {
                    StreamEnd::Refused(reason) => {
                        client.emit(ClientEvent::NoServerStream { reason });
                        return;
                    }
                    StreamEnd::Ended { retry_ms } => {
                        // A stream that stayed up a while starts the backoff over.
                        if client.now_ms() - opened_at > 10_000.0 {
                            backoff = BACKOFF_START_MS;
                        }
                        let wait = reconnect_delay(retry_ms, u64::from(backoff)) as u32;
                        client.sleep(wait).await;
                        backoff = (backoff * 2).min(BACKOFF_MAX_MS);
                    }
                }
            }
        });
    }

    /// Runs the standalone GET stream (the transport resumes each attempt after the last
    /// event seen).
    pub(crate) fn start_get_stream(&self) {
        self.keep_stream_open(|client| async move {
            client
                .transport()
                .server_stream(ServerStream::Get, &client)
                .await
        });
    }

    /// Runs `subscriptions/listen`, opting in to every list change.
    pub(crate) fn start_listening(&self) {
        self.keep_stream_open(|client| async move { client.listen_once().await });
    }

    async fn listen_once(&self) -> StreamEnd {
        let id = self.engine().next_id();
        // Opt in to every list change; resources/updated needs subscriptions per URI.
        let params = era::with_envelope(
            Some(json!({ "notifications": {
                "toolsListChanged": true,
                "promptsListChanged": true,
                "resourcesListChanged": true
            } })),
            &self.envelope_capabilities(),
        );
        let routing = era::routing_headers(LISTEN, &params);
        let body = encode_request(&id, LISTEN, Some(&params));
        let abort = Abort::new();
        // Registered so the stream's closing result (and errors) resolve it quietly.
        let _answered = self
            .engine()
            .expect(id.clone(), LISTEN, abort.clone(), self.now_ms());
        let request = OutgoingRequest {
            method: LISTEN,
            body: &body,
            id: &id,
            abort: &abort,
            routing: &routing,
            mirrored: &[],
        };
        let end = self
            .transport()
            .server_stream(ServerStream::Request(request), self)
            .await;
        self.engine().forget(&id);
        end
    }
}
