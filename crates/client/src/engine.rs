//! The request engine, above the transports (as the TypeScript SDK's `Protocol`): every
//! request gets an id and a waiter in the engine's table (`state::engine`) and is matched by
//! id on whatever stream its answer arrives; idle and total timeouts; the 2026-07-28
//! `input_required` rounds; the version retry; cancellation. The session's entries
//! (`request`, `request_as`, `request_mirrored` in `session.rs`) call it, and renew a session
//! the server lost before sending the request again: the engine never calls back up.
//!
//! Architecture invariant: every request goes through `request_inner`, which adds the
//! stateless envelope and routing headers when that era is in use, so no caller knows which
//! era it speaks; the entries are non-generic and boxed, one copy in the wasm. The engine hands
//! a transport an encoded request and itself as the [`crate::transport::Inbox`]; it never
//! asks a transport where messages go.

use crate::client::McpClient;
use crate::runtime::Abort;
use crate::transport::OutgoingRequest;
use futures::future::{select, Either};
use mcp_lens_protocol::deadline::{Deadline, Expired};
use mcp_lens_protocol::era;
use mcp_lens_protocol::error::{ErrorKind, McpError, Step};
use mcp_lens_protocol::jsonrpc::{encode_notification, encode_request, RequestId};
use mcp_lens_protocol::mcp::{self, decode_result};
use mcp_lens_protocol::version_retry::{self, VersionRetry};
use serde::de::DeserializeOwned;
use serde_json::{json, Value};
use std::cell::Cell;
use std::pin::pin;

/// A server that keeps asking for input (2026-07-28 `input_required`) is cut off after this
/// many rounds.
const MAX_INPUT_ROUNDS: u32 = 8;

/// What a request has been through: its `input_required` rounds, and whether it was already
/// sent again after "unsupported protocol version".
#[derive(Clone, Copy, Default)]
pub(crate) struct Tries {
    round: u32,
    version_retried: bool,
}

/// A raw `result` decoded into the rmcp type its request expects (never through rmcp's
/// message unions: they triple the wasm size).
pub(crate) fn decode<R: DeserializeOwned>(
    step: Step,
    method: &str,
    value: Value,
) -> Result<R, McpError> {
    decode_result(method, value).map_err(|kind| McpError::new(step, kind))
}

impl McpClient {
    /// Fails every request in flight (disconnect, or the stream that would answer them ended).
    pub(crate) fn fail_pending(&self, kind: ErrorKind) {
        self.engine().fail_all(kind);
    }

    /// One request through the transport, and what its answer asks for in the same era (the
    /// stateless era's input rounds, its version retry). A session the server lost is the
    /// caller's to renew ([`McpClient::request_mirrored`] in `session.rs`).
    pub(crate) async fn request_inner(
        &self,
        id: RequestId,
        step: Step,
        method: &'static str,
        params: Option<Value>,
        mirrored: Vec<(String, String)>,
        tries: Tries,
    ) -> Result<Value, McpError> {
        let fail = |kind| McpError::new(step, kind);
        let modern = self.session().is_modern();
        // Stateless era: every request carries the envelope and names itself in headers.
        let (sent_params, routing) = if modern {
            let enveloped = era::with_envelope(params.clone(), &self.envelope_capabilities());
            let routing = era::routing_headers(method, &enveloped);
            (Some(enveloped), routing)
        } else {
            (params.clone(), Vec::new())
        };
        if self.session().is_closed() {
            return Err(fail(ErrorKind::NotConnected));
        }
        let abort = Abort::new();
        let (answered, activity) =
            self.engine()
                .expect(id.clone(), method, abort.clone(), self.now_ms());
        let body = encode_request(&id, method, sent_params.as_ref());
        let transport = self.transport();
        let exchange = async {
            let request = OutgoingRequest {
                method,
                body: &body,
                id: &id,
                abort: &abort,
                routing: &routing,
                mirrored: if modern { &mirrored } else { &[] },
            };
            transport.send_request(request, self).await?;
            // The answer may have come with the POST's answer, or is still to come on
            // another stream (the legacy SSE stream).
            answered.await.unwrap_or(Err(ErrorKind::StreamEnded))
        };
        let outcome = match select(pin!(exchange), pin!(self.expiry(&activity))).await {
            Either::Left((outcome, _)) => outcome,
            Either::Right((expired, _)) => {
                abort.abort();
                // The specification forbids cancelling `initialize`.
                if method != mcp::INITIALIZE {
                    self.cancel_on_server(&id, "The request timed out.");
                }
                Err(expired)
            }
        };
        if outcome.is_err() {
            self.engine().forget(&id);
        }
        match outcome {
            Err(kind) if modern => {
                // "Unsupported protocol version" (-32022): the specification's SHOULD is to
                // retry once with a version both sides speak, never another transport.
                let Some(refused) = version_retry::unsupported_version(&kind) else {
                    return Err(fail(kind));
                };
                let retried = tries.version_retried;
                match version_retry::retry_after_unsupported(
                    &refused,
                    retried,
                    self.config().version,
                ) {
                    VersionRetry::Modern(version) => {
                        self.transport()
                            .set_protocol_version(Some(version.to_owned()));
                        self.session()
                            .set_protocol_version(Some(version.to_owned()));
                        let id = self.engine().next_id();
                        let tries = Tries {
                            version_retried: true,
                            ..tries
                        };
                        Box::pin(self.request_inner(id, step, method, params, mirrored, tries))
                            .await
                    }
                    // The caller decides (server/discover goes on with `initialize`).
                    VersionRetry::Initialize(_) => Err(fail(kind)),
                    VersionRetry::NoCommonVersion { sentence }
                    | VersionRetry::GiveUp { sentence } => {
                        Err(fail(ErrorKind::VersionRefused { detail: sentence }))
                    }
                }
            }
            Ok(result) if self.session().is_modern() => match era::input_required(&result) {
                // The server needs answers first (sampling, elicitation, roots): get them,
                // then send the request again with them, as a new request.
                Some(asked) if tries.round < MAX_INPUT_ROUNDS => {
                    let responses = self.answer_input_requests(step, asked.requests).await?;
                    let retry = era::retry_params(params, responses, asked.request_state);
                    let id = self.engine().next_id();
                    let tries = Tries {
                        round: tries.round + 1,
                        ..tries
                    };
                    Box::pin(self.request_inner(id, step, method, Some(retry), mirrored, tries))
                        .await
                }
                Some(_) => Err(fail(ErrorKind::InvalidAnswer {
                    detail: format!("the server asked for input {MAX_INPUT_ROUNDS} times in a row"),
                })),
                None => Ok(result),
            },
            outcome => outcome.map_err(fail),
        }
    }

    /// Resolves when the request should be given up: no answer or progress for the idle
    /// timeout, or the maximum total time reached.
    async fn expiry(&self, activity: &Cell<f64>) -> ErrorKind {
        let config = self.config();
        let deadline = Deadline::new(
            config.request_timeout_ms,
            config.max_total_ms,
            self.now_ms(),
        );
        loop {
            match deadline.check(self.now_ms(), activity.get()) {
                Ok(wait_ms) => self.sleep(wait_ms.ceil() as u32).await,
                Err(Expired::Idle) => {
                    return ErrorKind::Timeout {
                        after_ms: u64::from(config.request_timeout_ms),
                    }
                }
                Err(Expired::Total) => {
                    return ErrorKind::TimeLimit {
                        after_ms: u64::from(config.max_total_ms),
                    }
                }
            }
        }
    }

    /// Sends a notification, which the server only acknowledges.
    pub(crate) async fn notify(
        &self,
        step: Step,
        method: &str,
        params: Option<&Value>,
    ) -> Result<(), McpError> {
        self.transport()
            .send_message(&encode_notification(method, params))
            .await
            .map_err(|kind| McpError::new(step, kind))
    }

    /// Cancels a request in flight: its fetch is aborted, its caller gets "cancelled", and
    /// the server is told with `notifications/cancelled`.
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// let (id, call) = client.call_tool("slow", serde_json::Map::new());
    /// client.cancel(&id);
    /// assert!(call.await.is_err()); // ErrorKind::Cancelled
    /// # Ok(()) }
    /// ```
    pub fn cancel(&self, id: &RequestId) {
        if self.engine().cancel(id) {
            self.cancel_on_server(id, "Cancelled by the user.");
        }
    }

    /// Tells the server a request is given up (`notifications/cancelled`), in the background.
    pub(crate) fn cancel_on_server(&self, id: &RequestId, reason: &str) {
        let body = encode_notification(
            mcp::CANCELLED,
            Some(&json!({ "requestId": id.clone().into_json_value(), "reason": reason })),
        );
        self.send_in_background(body, Step::Cancel);
    }
}
