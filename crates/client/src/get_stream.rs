//! The standalone GET stream of Streamable HTTP (2025 era): where a server sends its own
//! requests and notifications outside of any answer. Opened after `initialize` when the
//! server allows it (405 means it does not, which is fine), kept open, and re-opened with
//! backoff when it ends.

use crate::runtime::{Abort, SseReader};
use crate::{ClientEvent, McpClient};
use mcp_lens_protocol::resume::reconnect_delay;
use mcp_lens_protocol::streamable::media_type;
use std::cell::RefCell;
use std::rc::Rc;

/// First and largest wait before re-opening the stream, in milliseconds.
const BACKOFF_START_MS: u32 = 1_000;
const BACKOFF_MAX_MS: u32 = 30_000;

/// How one attempt at a long-lived stream ended.
pub(crate) enum StreamEnd {
    /// The server does not offer the stream (405, an error answer): do not retry.
    Refused(String),
    /// The stream ended or broke: retry after the backoff (or the server's `retry`).
    Ended { retry_ms: Option<u64> },
}

impl McpClient {
    /// Keeps a long-lived stream open in the background until the session closes: `open`
    /// runs one attempt; between attempts the client waits with backoff (or the server's
    /// `retry`). Shared by the GET stream and `subscriptions/listen`.
    pub(crate) fn keep_stream_open<Fut>(&self, open: impl Fn(McpClient) -> Fut + 'static)
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
            while !client.0.closed.get() {
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

    /// Runs the standalone GET stream, resuming each attempt after the last event seen.
    pub(crate) fn start_get_stream(&self) {
        let last_event_id = Rc::new(RefCell::new(None::<String>));
        self.keep_stream_open(move |client| {
            let last_event_id = last_event_id.clone();
            async move {
                let mut last = last_event_id.borrow().clone();
                let end = client.get_stream_once(&mut last).await;
                *last_event_id.borrow_mut() = last;
                end
            }
        });
    }

    async fn get_stream_once(&self, last_event_id: &mut Option<String>) -> StreamEnd {
        let abort = Abort::new();
        *self.0.get_stream.borrow_mut() = Some(abort.clone());
        let response = match self
            .get_event_stream(last_event_id.as_deref(), Some(&abort))
            .await
        {
            Ok(response) => response,
            Err(_) => return StreamEnd::Ended { retry_ms: None },
        };
        let status = response.status();
        let content_type = response.header("content-type").unwrap_or_default();
        let has_session = self.0.session.borrow().session_id.is_some();
        if (status == 404 || status == 400) && has_session {
            // Most likely the session was lost; a renewal gives the next attempt a new one.
            return StreamEnd::Ended { retry_ms: None };
        }
        if status == 405 {
            return StreamEnd::Refused(
                "no standalone GET stream (405): the server's own requests and notifications come only with answers".to_owned(),
            );
        }
        if !(200..300).contains(&status) || media_type(&content_type) != "text/event-stream" {
            return StreamEnd::Refused(format!(
                "the standalone GET stream was refused (HTTP {status}, \"{content_type}\"), so it is not retried; the server's own messages come only with answers"
            ));
        }
        let Some(body) = response.body() else {
            return StreamEnd::Ended { retry_ms: None };
        };
        let mut events = SseReader::new(body, self.0.config.max_message_bytes);
        let mut pacer = self.pacer();
        while let Ok(Some(event)) = events.next_event().await {
            if event.id.is_some() {
                last_event_id.clone_from(&event.id);
            }
            if !event.data.trim().is_empty() {
                self.dispatch_in_steps("SSE", event.data, None).await;
            }
            self.pace(&mut pacer).await;
        }
        StreamEnd::Ended {
            retry_ms: events.retry_ms(),
        }
    }
}
