//! The legacy HTTP+SSE transport (protocol 2024-11-05): one long GET event stream carries
//! every message from the server; its first `endpoint` event says where to POST.
//!
//! The stream is read through `fetch` (not `EventSource`, which cannot send Authorization or
//! custom headers).

use super::Legacy;
use crate::runtime::{Abort, HttpRequest, SseReader};
use crate::{ClientEvent, McpClient};
use futures::future::{select, Either};
use mcp_lens_protocol::error::{ErrorKind, McpError, Step};
use mcp_lens_protocol::streamable::{media_type, AnswerError};
use mcp_lens_protocol::transport_choice::resolve_endpoint;
use std::pin::pin;

impl McpClient {
    /// Opens the SSE stream, waits for its `endpoint` event, then keeps reading the stream in
    /// the background, routing every message through `dispatch`.
    pub(crate) async fn open_legacy_stream(&self) -> Result<(), McpError> {
        let fail = |kind| McpError::new(Step::Initialize, kind);
        let stream = Abort::new();
        let mut headers = vec![("accept".to_owned(), "text/event-stream".to_owned())];
        headers.extend(self.0.config.user_headers());
        let response = self
            .send_http(HttpRequest {
                method: "GET",
                url: &self.0.config.url,
                headers,
                body: None,
                abort: Some(&stream),
                refuse_redirects: false,
            })
            .await
            .map_err(fail)?;
        let content_type = response.header("content-type").unwrap_or_default();
        let status = response.status();
        if !(200..300).contains(&status) || media_type(&content_type) != "text/event-stream" {
            let error = if (200..300).contains(&status) {
                AnswerError::UnexpectedContent(content_type)
            } else {
                AnswerError::HttpStatus(status)
            };
            let body = self.error_body(&response).await;
            return Err(fail(error.with_body(&body)));
        }
        let Some(body) = response.body() else {
            return Err(fail(ErrorKind::StreamEnded));
        };
        let mut events = SseReader::new(body, self.0.config.max_message_bytes);
        let timeout_ms = self.0.config.request_timeout_ms;
        let endpoint = {
            let wait = pin!(self.wait_for_endpoint(&mut events));
            match select(wait, self.sleep(timeout_ms)).await {
                Either::Left((endpoint, _)) => endpoint,
                Either::Right(_) => Err(ErrorKind::InvalidAnswer {
                    detail: "the SSE stream sent no endpoint event; is this a legacy HTTP+SSE MCP endpoint?".to_owned(),
                }),
            }
        };
        let post_url = match endpoint {
            Ok(url) => url,
            Err(kind) => {
                stream.abort();
                return Err(fail(kind));
            }
        };
        self.set_transport(Legacy {
            post_url,
            stream: stream.clone(),
        });
        let client = self.background();
        self.spawn(async move {
            client.read_legacy_stream(events).await;
        });
        Ok(())
    }

    async fn wait_for_endpoint(&self, events: &mut SseReader) -> Result<String, ErrorKind> {
        while let Some(event) = events.next_event().await? {
            if event.event == "endpoint" {
                return resolve_endpoint(&self.0.config.url, &event.data)
                    .map_err(|detail| ErrorKind::InvalidAnswer { detail });
            }
            self.dispatch("SSE", &event.data, None);
        }
        Err(ErrorKind::StreamEnded)
    }

    async fn read_legacy_stream(self, mut events: SseReader) {
        let mut pacer = self.pacer();
        let ended = loop {
            match events.next_event().await {
                Ok(Some(event)) if event.event == "message" && !event.data.trim().is_empty() => {
                    self.dispatch_in_steps("SSE", event.data, None).await;
                    self.pace(&mut pacer).await;
                }
                Ok(Some(_)) => {}
                Ok(None) => break ErrorKind::StreamEnded,
                Err(kind) => break kind,
            }
        };
        if self.0.closed.get() {
            return; // we closed it
        }
        // Nothing else can deliver answers: fail what is waiting, and say so.
        let reason = match &ended {
            ErrorKind::StreamEnded => {
                "The server closed the SSE stream; reconnect to continue.".to_owned()
            }
            other => format!("The SSE stream failed: {other} Reconnect to continue."),
        };
        self.fail_pending(ended);
        self.emit(ClientEvent::ConnectionLost { reason });
    }
}
