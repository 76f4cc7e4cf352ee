//! `subscriptions/listen` (2026-07-28): the stateless era's replacement for the standalone
//! GET stream. A long-lived request whose event stream carries the notifications the client
//! opted in to; re-opened with backoff when it ends.

use crate::get_stream::StreamEnd;
use crate::runtime::{Abort, SseReader};
use crate::{McpClient, Waiter};
use futures::channel::oneshot;
use mcp_lens_protocol::era;
use mcp_lens_protocol::jsonrpc::encode_request;
use mcp_lens_protocol::mcp;
use mcp_lens_protocol::streamable::{classify_answer, AnswerForm, Sent};
use serde_json::json;
use std::cell::Cell;
use std::rc::Rc;

const LISTEN: &str = "subscriptions/listen";

impl McpClient {
    pub(crate) fn start_listening(&self) {
        self.keep_stream_open(|client| async move { client.listen_once().await });
    }

    async fn listen_once(&self) -> StreamEnd {
        let id = self.0.ids.borrow_mut().next_id();
        // Opt in to every list change; resources/updated needs subscriptions per URI.
        let params = era::with_envelope(
            Some(json!({ "notifications": {
                "toolsListChanged": true,
                "promptsListChanged": true,
                "resourcesListChanged": true
            } })),
            &mcp::client_capabilities(self.0.config.mcp_apps),
        );
        let routing = era::routing_headers(LISTEN, &params);
        let body = encode_request(&id, LISTEN, Some(&params));
        let abort = Abort::new();
        *self.0.get_stream.borrow_mut() = Some(abort.clone());
        // Registered so the stream's closing result (and errors) resolve it quietly.
        let (answer, _answered) = oneshot::channel();
        self.0.pending.borrow_mut().insert(
            id.clone(),
            LISTEN,
            Waiter {
                answer,
                abort: abort.clone(),
                activity: Rc::new(Cell::new(self.now_ms())),
            },
        );
        let outcome = match self.post(&body, Some(&abort), &routing).await {
            Err(_) => StreamEnd::Ended { retry_ms: None },
            Ok(response) => {
                let content_type = response.header("content-type");
                match classify_answer(response.status(), content_type.as_deref(), Sent::Request) {
                    AnswerForm::EventStream => match response.body() {
                        Some(body) => {
                            let mut events = SseReader::new(body, self.0.config.max_message_bytes);
                            let mut pacer = self.pacer();
                            while let Ok(Some(event)) = events.next_event().await {
                                if !event.data.trim().is_empty() {
                                    self.dispatch_in_steps("SSE", event.data, Some(&id)).await;
                                }
                                self.pace(&mut pacer).await;
                            }
                            StreamEnd::Ended { retry_ms: None }
                        }
                        None => StreamEnd::Ended { retry_ms: None },
                    },
                    AnswerForm::Json => {
                        match response.text(self.0.config.max_message_bytes).await {
                            Ok(text) => {
                                let refused = format!(
                                    "subscriptions/listen was answered at once ({}): the server sends no notifications outside answers",
                                    mcp_lens_protocol::error::excerpt(&text, 200)
                                );
                                self.dispatch_in_steps("JSON", text, Some(&id)).await;
                                StreamEnd::Refused(refused)
                            }
                            Err(_) => StreamEnd::Ended { retry_ms: None },
                        }
                    }
                    AnswerForm::Accepted => StreamEnd::Ended { retry_ms: None },
                    AnswerForm::Error(error) => {
                        let body = self.error_body(&response).await;
                        StreamEnd::Refused(match response.status() {
                            // The method is not implemented: a fact about the server.
                            404 | 405 | 501 => format!(
                                "no subscriptions/listen (HTTP {}): the server's notifications come only with answers",
                                response.status()
                            ),
                            _ => format!(
                                "subscriptions/listen was refused, so it is not retried: {}",
                                error.with_body(&body)
                            ),
                        })
                    }
                }
            }
        };
        self.0.pending.borrow_mut().forget(&id);
        outcome
    }
}
