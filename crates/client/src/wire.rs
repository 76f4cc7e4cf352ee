//! The wire log: a layer around the session's [`Http`] (the TypeScript SDK's `withLogging`)
//! that logs every HTTP exchange of the session, and the entry of every payload that arrived.
//! Entries are redacted as they are made (`protocol::wire_log`).
//!
//! A request is logged as it is sent (pending), right after it left (the browser's fetch is
//! called first, so the row costs the request nothing), so a request that hangs is visible
//! and rows come in send order; its answer's status, headers and timing complete that row when
//! they arrive, and an error answer's body is added once read
//! ([`HttpResponse::text_start`]).
//!
//! API boundary: it knows nothing of sessions or transports; it reports through the
//! client's event callback.

use crate::events::{ClientEvent, Events};
use crate::runtime::{Clock, Http, HttpRequest, HttpResponse};
use futures::future::LocalBoxFuture;
use mcp_lens_protocol::error::ErrorKind;
use mcp_lens_protocol::wire_log::{redact_response_headers, Summary, Via, WireAnswer, WireEntry};
use std::cell::Cell;
use std::rc::Rc;

/// Every exchange through `http`, logged for the server called `server`.
pub(crate) struct WireLog {
    http: Rc<dyn Http>,
    clock: Rc<dyn Clock>,
    events: Events,
    server: String,
    /// HTTP exchanges sent so far (numbers them for the log).
    exchanges: Cell<u64>,
}

impl WireLog {
    /// `http` with every exchange logged.
    pub(crate) fn around(
        http: Rc<dyn Http>,
        clock: Rc<dyn Clock>,
        events: Events,
        server: String,
    ) -> Rc<dyn Http> {
        Rc::new(WireLog {
            http,
            clock,
            events,
            server,
            exchanges: Cell::new(0),
        })
    }
}

impl Http for WireLog {
    /// Sends the request, logging it at once as pending and completing the row with the
    /// answer's status and headers (or the failure). Boxed: one copy of it in the wasm.
    fn send<'a>(
        &'a self,
        request: HttpRequest<'a>,
    ) -> LocalBoxFuture<'a, Result<HttpResponse, ErrorKind>> {
        Box::pin(async move {
            let exchange = self.exchanges.get();
            self.exchanges.set(exchange + 1);
            let started = self.clock.now_ms();
            let (via, url, body) = (Via::of_request(request.method), request.url, request.body);
            let headers = request.headers.clone();
            // The request leaves first (the browser's `send` calls fetch before it returns);
            // its row is made after (redacted, its columns read), in the same task, so it
            // still comes before any answer.
            let sending = self.http.send(request);
            (self.events)(ClientEvent::Wire(WireEntry::sent(
                self.server.clone(),
                started,
                via,
                url,
                &headers,
                body,
                exchange,
            )));
            let outcome = sending.await;
            let mut answer = WireAnswer {
                server: self.server.clone(),
                exchange,
                at_ms: self.clock.now_ms(),
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
            let quoted = answer.clone();
            (self.events)(ClientEvent::WireAnswer(answer));
            let (clock, events) = (self.clock.clone(), self.events.clone());
            outcome.map(|response| {
                // The start of an error answer's body, once read, goes to the same row.
                response.on_text_start(move |body| {
                    events(ClientEvent::WireAnswer(WireAnswer {
                        at_ms: clock.now_ms(),
                        response_body: Some(body.to_owned()),
                        ..quoted.clone()
                    }))
                })
            })
        })
    }
}

/// The log entry of a payload that arrived (`via`: JSON or SSE), with its columns.
pub(crate) fn received(
    server: &str,
    at_ms: f64,
    via: Via,
    payload: String,
    summary: Summary,
) -> ClientEvent {
    ClientEvent::Wire(WireEntry::received(
        server.to_owned(),
        at_ms,
        via,
        payload,
        summary,
    ))
}
