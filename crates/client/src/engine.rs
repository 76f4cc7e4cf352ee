//! The request engine, above the transports (as the TypeScript SDK's `Protocol`): every
//! request gets an id and a waiter in the pending table and is matched by id on whatever
//! stream its answer arrives; idle and total timeouts; the 2026-07-28 `input_required`
//! rounds; replaying a request once after the session was renewed.
//!
//! Architecture invariant: every request goes through `request_inner`, which adds the
//! stateless envelope and routing headers when that era is in use, so no caller knows which
//! era it speaks; `request` and `post` are non-generic and boxed, one copy in the wasm.

use crate::runtime::{Abort, HttpRequest, HttpResponse};
use crate::transport::OutgoingRequest;
use crate::{McpClient, Waiter};
use futures::channel::oneshot;
use futures::future::{select, Either, LocalBoxFuture};
use mcp_lens_protocol::deadline::{Deadline, Expired};
use mcp_lens_protocol::era;
use mcp_lens_protocol::error::{ErrorKind, McpError, Step};
use mcp_lens_protocol::jsonrpc::{encode_notification, encode_request, RequestId};
use mcp_lens_protocol::mcp;
use mcp_lens_protocol::streamable::{classify_answer, session_gone, AnswerForm, Sent};
use serde_json::Value;
use std::cell::Cell;
use std::pin::pin;
use std::rc::Rc;

/// A server that keeps asking for input (2026-07-28 `input_required`) is cut off after this
/// many rounds.
const MAX_INPUT_ROUNDS: u32 = 8;

/// How much of an error answer's body is read, for the error and the wire log.
pub(crate) const ERROR_BODY_BYTES: usize = 16 * 1024;

impl McpClient {
    /// Fails every request in flight (disconnect, or the stream that would answer them ended).
    pub(crate) fn fail_pending(&self, kind: ErrorKind) {
        let in_flight = self.0.pending.borrow_mut().drain();
        for (_, pending) in in_flight {
            pending.waiter.abort.abort();
            let _ = pending.waiter.answer.send(Err(kind.clone()));
        }
    }

    /// Sends a request and waits for its raw `result`.
    ///
    /// Deliberately not generic over the result type, and boxed: async state machines are
    /// inlined into every caller otherwise, and this one is large. One copy in the wasm;
    /// decoding into the expected type happens after.
    pub(crate) fn request(
        &self,
        step: Step,
        method: &'static str,
        params: Option<Value>,
    ) -> LocalBoxFuture<'_, Result<Value, McpError>> {
        let id = self.0.ids.borrow_mut().next_id();
        self.request_as(id, step, method, params)
    }

    /// [`Self::request`] with an id allocated by the caller (who may need it first, to
    /// cancel the request or match its progress).
    pub(crate) fn request_as(
        &self,
        id: RequestId,
        step: Step,
        method: &'static str,
        params: Option<Value>,
    ) -> LocalBoxFuture<'_, Result<Value, McpError>> {
        Box::pin(self.request_inner(id, step, method, params, 0))
    }

    async fn request_inner(
        &self,
        id: RequestId,
        step: Step,
        method: &'static str,
        params: Option<Value>,
        round: u32,
    ) -> Result<Value, McpError> {
        let fail = |kind| McpError::new(step, kind);
        // Stateless era: every request carries the envelope and names itself in headers.
        let (sent_params, routing) = if self.0.modern.get() {
            let enveloped = era::with_envelope(
                params.clone(),
                &mcp::client_capabilities(self.0.config.mcp_apps),
            );
            let routing = era::routing_headers(method, &enveloped);
            (Some(enveloped), routing)
        } else {
            (params.clone(), Vec::new())
        };
        if self.0.closed.get() {
            return Err(fail(ErrorKind::NotConnected));
        }
        let (answer, answered) = oneshot::channel();
        let abort = Abort::new();
        let activity = Rc::new(Cell::new(self.now_ms()));
        self.0.pending.borrow_mut().insert(
            id.clone(),
            method,
            Waiter {
                answer,
                abort: abort.clone(),
                activity: activity.clone(),
            },
        );
        let body = encode_request(&id, method, sent_params.as_ref());
        let sent_session = self.0.session.borrow().session_id.clone();
        let exchange = async {
            let transport = self.transport();
            let request = OutgoingRequest {
                method,
                body: &body,
                id: &id,
                abort: &abort,
                routing: &routing,
            };
            transport.send_request(self, request).await?;
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
            self.0.pending.borrow_mut().forget(&id);
        }
        match outcome {
            Err(kind)
                if method != mcp::INITIALIZE && session_gone(&kind, sent_session.is_some()) =>
            {
                // The server forgot the session (restarted, or expired it): start a new one
                // once, then send this request again.
                self.renew_session(sent_session, &kind).await?;
                self.request_as(id, step, method, params).await
            }
            Ok(result) if self.0.modern.get() => match era::input_required(&result) {
                // The server needs answers first (sampling, elicitation, roots): get them,
                // then send the request again with them, as a new request.
                Some(asked) if round < MAX_INPUT_ROUNDS => {
                    let responses = self.answer_input_requests(step, asked.requests).await?;
                    let retry = era::retry_params(params, responses, asked.request_state);
                    let id = self.0.ids.borrow_mut().next_id();
                    Box::pin(self.request_inner(id, step, method, Some(retry), round + 1)).await
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
        let config = &self.0.config;
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

    /// POSTs a notification or a response, which the server only acknowledges.
    pub(crate) async fn notify(
        &self,
        step: Step,
        method: &str,
        params: Option<&Value>,
    ) -> Result<(), McpError> {
        self.post_message(&encode_notification(method, params))
            .await
            .map_err(|kind| McpError::new(step, kind))
    }

    pub(crate) async fn post_message(&self, body: &str) -> Result<(), ErrorKind> {
        let response = self.post(body, None, &[]).await?;
        let content_type = response.header("content-type");
        match classify_answer(
            response.status(),
            content_type.as_deref(),
            Sent::NotificationOrResponse,
        ) {
            AnswerForm::Error(error) => {
                let body = self.error_body(&response).await;
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

    /// Boxed for the same reason as [`Self::request`]: it is awaited from several places.
    pub(crate) fn post<'a>(
        &'a self,
        body: &'a str,
        abort: Option<&'a Abort>,
        routing: &'a [(&'static str, String)],
    ) -> LocalBoxFuture<'a, Result<HttpResponse, ErrorKind>> {
        Box::pin(self.post_inner(body, abort, routing))
    }

    async fn post_inner(
        &self,
        body: &str,
        abort: Option<&Abort>,
        routing: &[(&'static str, String)],
    ) -> Result<HttpResponse, ErrorKind> {
        let (url, mut protocol_headers) = self.transport().post_target(self);
        protocol_headers.extend(routing.iter().cloned());
        self.send_http(HttpRequest {
            method: "POST",
            url: &url,
            headers: self.headers(protocol_headers),
            body: Some(body),
            abort,
            refuse_redirects: false,
        })
        .await
    }

    /// Sends an HTTP request through the session's layers (authorization, the wire log).
    pub(crate) fn send_http<'a>(
        &'a self,
        request: HttpRequest<'a>,
    ) -> LocalBoxFuture<'a, Result<HttpResponse, ErrorKind>> {
        self.0.runtime.http.send(request)
    }

    /// Reads the start of an error answer's body (for the error value; the wire log adds it
    /// to the answer's row).
    pub(crate) async fn error_body(&self, response: &HttpResponse) -> String {
        response.text_start(ERROR_BODY_BYTES).await
    }

    pub(crate) fn headers(
        &self,
        protocol_headers: Vec<(&'static str, String)>,
    ) -> Vec<(String, String)> {
        let mut headers: Vec<(String, String)> = protocol_headers
            .into_iter()
            .map(|(name, value)| (name.to_owned(), value))
            .collect();
        headers.extend(self.0.config.user_headers());
        headers
    }
}
