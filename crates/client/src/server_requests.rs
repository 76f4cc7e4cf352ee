//! Answering the server: its requests (`ping` and `roots/list` at once; sampling and
//! elicitation by a person, declined after a time limit or when too many wait), the
//! requests embedded in a 2026-07-28 `input_required` round, and the outbox every message of
//! the client's own goes out through.

use crate::client::McpClient;
use crate::events::ClientEvent;
use crate::state::server_requests::DECLINED;
use mcp_lens_protocol::era::InputRequest;
use mcp_lens_protocol::error::{ErrorKind, McpError, Step};
use mcp_lens_protocol::jsonrpc::{encode_error, encode_result, RequestId, METHOD_NOT_FOUND};
use mcp_lens_protocol::mcp;
use mcp_lens_protocol::shrink::json_bytes;
use serde_json::{json, Map, Value};

impl McpClient {
    /// A request from the server. `ping` and `roots/list` are answered at once; sampling and
    /// elicitation wait for a person (with a time limit); anything else is "method not found".
    pub(crate) fn server_request(&self, id: RequestId, method: String, params: Option<Value>) {
        let waiting = self.server_requests();
        let bytes = params.as_ref().map_or(0, json_bytes);
        if mcp::needs_a_person(&method) {
            // The specification says clients SHOULD rate-limit server requests: a server
            // flooding the person with thousands of them, or with a few huge ones, gets each
            // one past the limit declined.
            if let Some(why) = waiting.refusal(bytes) {
                let body = encode_error(&id, DECLINED, &format!("Declined: {why}."));
                self.emit(ClientEvent::Answered {
                    id,
                    method,
                    how: format!("declined: {why}"),
                });
                self.send_in_background(body, Step::AnswerServer);
                return;
            }
            waiting.await_person(id.clone(), bytes);
            self.expire_later(id.clone());
            self.emit(ClientEvent::ServerRequest { id, method, params });
            return;
        }
        let (body, how) = match method.as_str() {
            mcp::PING => (encode_result(&id, json!({})), "answered automatically"),
            mcp::ROOTS_LIST => (
                encode_result(&id, mcp::roots_result(&self.config().roots)),
                "answered with the configured roots",
            ),
            _ => (
                encode_error(
                    &id,
                    METHOD_NOT_FOUND,
                    &format!("mcp-lens does not handle {method}"),
                ),
                "declined: not supported",
            ),
        };
        self.emit(ClientEvent::Answered {
            id,
            method,
            how: how.to_owned(),
        });
        self.send_in_background(body, Step::AnswerServer);
    }

    /// Answers the requests embedded in an `input_required` result (2026-07-28), through the
    /// same paths as server-sent requests: roots from the configuration; sampling and
    /// elicitation by a person (`ClientEvent::ServerRequest`, answered with
    /// [`McpClient::answer_server_request`]). Returns the `inputResponses`.
    pub(crate) async fn answer_input_requests(
        &self,
        step: Step,
        requests: Vec<InputRequest>,
    ) -> Result<Map<String, Value>, McpError> {
        let mut responses = Map::new();
        for request in requests {
            let response = match request.method.as_str() {
                mcp::ROOTS_LIST => mcp::roots_result(&self.config().roots),
                method if mcp::needs_a_person(method) => {
                    let id = RequestId::String(format!("input {}", request.key).into());
                    let waiting = self.server_requests();
                    let bytes = request.params.as_ref().map_or(0, json_bytes);
                    if let Some(why) = waiting.refusal(bytes) {
                        return Err(McpError::new(
                            step,
                            ErrorKind::InvalidAnswer {
                                detail: format!("the server asked for input, declined: {why}"),
                            },
                        ));
                    }
                    let answered = waiting.await_input(id.clone(), bytes);
                    self.expire_later(id.clone());
                    self.emit(ClientEvent::ServerRequest {
                        id,
                        method: request.method.clone(),
                        params: request.params,
                    });
                    match answered.await {
                        Ok(Ok(result)) => result,
                        Ok(Err(_)) | Err(_) => {
                            return Err(McpError::new(
                                step,
                                ErrorKind::Declined {
                                    what: request.method,
                                },
                            ))
                        }
                    }
                }
                other => {
                    return Err(McpError::new(
                        step,
                        ErrorKind::InvalidAnswer {
                            detail: format!(
                                "the server asked for input this client cannot give ({other})"
                            ),
                        },
                    ))
                }
            };
            responses.insert(request.key, response);
        }
        Ok(responses)
    }

    /// Answers a request that waited for a person: `Ok(result)` or `Err((code, message))`.
    /// Returns false when it is no longer waiting (answered, expired, or disconnected).
    ///
    /// ```no_run
    /// use mcp_lens_client::{ClientEvent, McpClient};
    /// fn on_event(client: &McpClient, event: ClientEvent) {
    ///     if let ClientEvent::ServerRequest { id, method, .. } = event {
    ///         if method == "elicitation/create" {
    ///             let answer = serde_json::json!({ "action": "decline" });
    ///             client.answer_server_request(&id, Ok(answer));
    ///         }
    ///     }
    /// }
    /// ```
    pub fn answer_server_request(
        &self,
        id: &RequestId,
        outcome: Result<Value, (i32, String)>,
    ) -> bool {
        let waiting = self.server_requests();
        if !waiting.stop_waiting(id) || self.session().is_closed() {
            return false;
        }
        // An input request of a 2026-07-28 round: the answer goes back to that round.
        if let Some(round) = waiting.take_input_waiter(id) {
            let _ = round.send(outcome);
            return true;
        }
        let body = match outcome {
            Ok(result) => encode_result(id, result),
            Err((code, message)) => encode_error(id, code, &message),
        };
        self.send_in_background(body, Step::AnswerServer);
        true
    }

    /// Declines a person-answered request that nobody answered in time.
    fn expire_later(&self, id: RequestId) {
        let client = self.background();
        let limit = self.config().server_request_timeout_ms;
        let sleep = self.sleep(limit);
        self.spawn(async move {
            sleep.await;
            let message = format!("Nobody answered within {} seconds.", limit / 1000);
            if client.answer_server_request(&id, Err((DECLINED, message))) {
                client.emit(ClientEvent::ServerRequestExpired { id });
            }
        });
    }

    /// Sends a message of the client's own (an answer to a server request, a cancellation)
    /// without waiting for it. Messages go out through the outbox, a batch of at most
    /// `OUTBOX_BATCH` per turn of the event loop: starting a fetch costs the page about
    /// half a millisecond, so the answers to a storm of 2,000 pings started at once would be
    /// one task of a second.
    pub(crate) fn send_in_background(&self, body: String, step: Step) {
        if self.server_requests().queue(body, step) {
            let client = self.background();
            self.spawn(async move { client.drain_outbox().await });
        }
    }

    async fn drain_outbox(self) {
        loop {
            let batch = self
                .server_requests()
                .next_batch(self.session().is_closed());
            if batch.is_empty() {
                return;
            }
            for (body, step) in batch {
                let client = self.clone();
                self.spawn(async move {
                    if let Err(kind) = client.transport().send_message(&body).await {
                        client.emit(ClientEvent::Ignored {
                            reason: McpError::new(step, kind).to_string(),
                        });
                    }
                });
            }
            // The batch's fetches start when this task yields; the next batch waits for a
            // later turn (a timer, not a microtask: the page renders and takes input between).
            self.sleep(1).await;
        }
    }
}
