//! `subscriptions/listen` (2026-07-28): the stateless era's replacement for the standalone
//! GET stream. A long-lived request whose event stream carries the notifications the client
//! opted in to; re-opened with backoff when it ends.

use super::{ClientEvent, McpClient, Waiter};
use crate::protocol::era;
use crate::protocol::jsonrpc::encode_request;
use crate::protocol::mcp;
use crate::protocol::streamable::{classify_answer, AnswerForm, Sent};
use crate::transport::http::{Abort, SseReader};
use crate::transport::timer::{after_paint, now_ms, sleep};
use futures::channel::oneshot;
use serde_json::json;
use std::cell::Cell;
use std::rc::Rc;

const LISTEN: &str = "subscriptions/listen";
const BACKOFF_START_MS: u32 = 1_000;
const BACKOFF_MAX_MS: u32 = 30_000;

enum ListenEnd {
    /// The server does not offer it (an error answer): do not retry.
    Refused(String),
    Ended,
}

impl McpClient {
    pub(super) fn start_listening(&self) {
        let client = self.clone();
        wasm_bindgen_futures::spawn_local(async move {
            // Like the GET stream: only once the connect result is on the screen.
            after_paint().await;
            let mut backoff = BACKOFF_START_MS;
            while !client.0.closed.get() {
                let opened_at = now_ms();
                match client.listen_once().await {
                    ListenEnd::Refused(reason) => {
                        client.emit(ClientEvent::Ignored { reason });
                        return;
                    }
                    ListenEnd::Ended => {
                        if now_ms() - opened_at > 10_000.0 {
                            backoff = BACKOFF_START_MS;
                        }
                        sleep(backoff).await;
                        backoff = (backoff * 2).min(BACKOFF_MAX_MS);
                    }
                }
            }
        });
    }

    async fn listen_once(&self) -> ListenEnd {
        let id = self.0.ids.borrow_mut().next_id();
        // Opt in to every list change; resources/updated needs subscriptions per URI.
        let params = era::with_envelope(
            Some(json!({ "notifications": {
                "toolsListChanged": true,
                "promptsListChanged": true,
                "resourcesListChanged": true
            } })),
            &mcp::client_capabilities(),
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
                activity: Rc::new(Cell::new(now_ms())),
            },
        );
        let signal = abort.signal();
        let outcome = match self.post(&body, signal.as_ref(), &routing).await {
            Err(_) => ListenEnd::Ended,
            Ok(response) => {
                let content_type = response.header("content-type");
                match classify_answer(response.status(), content_type.as_deref(), Sent::Request) {
                    AnswerForm::EventStream => match response.body() {
                        Some(body) => {
                            let mut events = SseReader::new(body);
                            while let Ok(Some(event)) = events.next_event().await {
                                if !event.data.trim().is_empty() {
                                    self.dispatch("SSE", &event.data, Some(&id));
                                }
                            }
                            ListenEnd::Ended
                        }
                        None => ListenEnd::Ended,
                    },
                    AnswerForm::Json => match response.text().await {
                        Ok(text) => {
                            self.dispatch("JSON", &text, Some(&id));
                            ListenEnd::Refused(format!(
                                "The server answered subscriptions/listen at once ({}); it sends no notifications outside answers.",
                                crate::protocol::error::excerpt(&text, 200)
                            ))
                        }
                        Err(_) => ListenEnd::Ended,
                    },
                    AnswerForm::Accepted => ListenEnd::Ended,
                    AnswerForm::Error(error) => {
                        let body = response.text_start(2048).await;
                        ListenEnd::Refused(format!(
                            "The server refused subscriptions/listen: {}",
                            error.with_body(&body)
                        ))
                    }
                }
            }
        };
        self.0.pending.borrow_mut().forget(&id);
        outcome
    }
}
