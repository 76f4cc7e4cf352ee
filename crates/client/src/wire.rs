//! Every HTTP exchange and every message goes through here, so the wire log sees all of
//! them. Entries are redacted as they are made (`protocol::wire_log`).
//!
//! A request is logged as it is sent (pending), right after it left (the browser's fetch is
//! called first, so the row costs the request nothing), so a request that hangs is visible
//! and rows come in send order; its answer's status, headers and timing complete that row when
//! they arrive, and an error answer's body is added once read.

use crate::runtime::{HttpRequest, HttpResponse};
use crate::{ClientEvent, McpClient};
use futures::future::LocalBoxFuture;
use mcp_lens_protocol::error::ErrorKind;
use mcp_lens_protocol::wire_log::{
    redact_headers, redact_response_headers, redact_url, summarize, Direction, WireAnswer,
    WireEntry,
};
use std::ops::Deref;

/// How much of an error answer's body is read, for the error and the wire log.
pub(crate) const ERROR_BODY_BYTES: usize = 16 * 1024;

/// An answer whose exchange is in the wire log; reads as the [`HttpResponse`] it wraps.
pub(crate) struct LoggedResponse {
    response: HttpResponse,
    exchange: u64,
}

impl Deref for LoggedResponse {
    type Target = HttpResponse;
    fn deref(&self) -> &HttpResponse {
        &self.response
    }
}

impl McpClient {
    /// Sends an HTTP request, logging it at once as pending and completing the row with the
    /// answer's status and headers (or the failure); with [`crate::ClientConfig::auth`],
    /// through `auth::send_with_auth` (bearer token, renewal and one retry on 401). Boxed: awaited from several places, one
    /// copy of it in the wasm.
    pub(crate) fn send_http<'a>(
        &'a self,
        request: HttpRequest<'a>,
    ) -> LocalBoxFuture<'a, Result<LoggedResponse, ErrorKind>> {
        match &self.0.config.auth {
            Some(auth) => Box::pin(self.send_with_auth(auth, request)),
            None => self.send_logged(request),
        }
    }

    /// [`Self::send_http`] without authorization: the request as given, logged.
    pub(crate) fn send_logged<'a>(
        &'a self,
        request: HttpRequest<'a>,
    ) -> LocalBoxFuture<'a, Result<LoggedResponse, ErrorKind>> {
        Box::pin(async move {
            let exchange = self.0.exchanges.get();
            self.0.exchanges.set(exchange + 1);
            let started = self.now_ms();
            let (via, url, body) = (request.method, request.url, request.body);
            let headers = redact_headers(&request.headers);
            // The request leaves first (the browser's `send` calls fetch before it returns);
            // its row is made after, in the same task, so it still comes before any answer.
            let sending = self.0.runtime.http.send(request);
            let (method, id) = body.map(summarize).unwrap_or_default();
            self.emit(ClientEvent::Wire(WireEntry {
                seq: 0,
                server: self.0.config.name.clone(),
                at_ms: started,
                direction: Direction::Sent,
                via: via.to_owned(),
                // A credential in the URL itself stays out of the log, exports and curl.
                url: redact_url(url),
                method,
                id,
                duration_ms: None,
                http_status: None,
                headers,
                body: body.unwrap_or_default().to_owned(),
                exchange: Some(exchange),
                pending: true,
                failure: None,
                response_headers: Vec::new(),
                response_body: None,
                body_cut: None,
            }));
            let outcome = sending.await;
            let mut answer = WireAnswer {
                server: self.0.config.name.clone(),
                exchange,
                at_ms: self.now_ms(),
                http_status: None,
                response_headers: Vec::new(),
                failure: None,
                response_body: None,
            };
            match &outcome {
                Ok(response) => {
                    answer.http_status = Some(response.status());
                    answer.response_headers = redact_response_headers(&response.headers());
                }
                Err(kind) => answer.failure = Some(kind.to_string()),
            }
            self.emit(ClientEvent::WireAnswer(answer));
            outcome.map(|response| LoggedResponse { response, exchange })
        })
    }

    /// Reads the start of an error answer's body (for the error value) and adds it to the
    /// answer's wire-log row.
    pub(crate) async fn error_body(&self, response: &LoggedResponse) -> String {
        let body = response.text_start(ERROR_BODY_BYTES).await;
        self.emit(ClientEvent::WireAnswer(WireAnswer {
            server: self.0.config.name.clone(),
            exchange: response.exchange,
            at_ms: self.now_ms(),
            http_status: Some(response.status()),
            response_headers: redact_response_headers(&response.headers()),
            failure: None,
            response_body: Some(body.clone()),
        }));
        body
    }

    /// Logs a payload that arrived (`via` is `JSON` or `SSE`) with its method and id.
    pub(crate) fn log_received(
        &self,
        via: &'static str,
        payload: String,
        (method, id): (Option<String>, Option<String>),
    ) {
        self.emit(ClientEvent::Wire(WireEntry {
            seq: 0,
            server: self.0.config.name.clone(),
            at_ms: self.now_ms(),
            direction: Direction::Received,
            via: via.to_owned(),
            url: String::new(),
            method,
            id,
            duration_ms: None,
            http_status: None,
            headers: Vec::new(),
            body: payload,
            exchange: None,
            pending: false,
            failure: None,
            response_headers: Vec::new(),
            response_body: None,
            body_cut: None,
        }));
    }
}
