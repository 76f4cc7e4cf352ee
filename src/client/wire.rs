//! Every HTTP exchange and every message goes through here, so the wire log sees all of
//! them. Entries are redacted as they are made (`protocol::wire_log`).

use super::{ClientEvent, McpClient};
use crate::protocol::error::ErrorKind;
use crate::protocol::wire_log::{redact_headers, summarize, Direction, WireEntry};
use crate::transport::http::{self, HttpRequest, HttpResponse};
use crate::transport::timer::now_ms;
use futures::future::LocalBoxFuture;

impl McpClient {
    /// Sends an HTTP request and logs it (with the answer's status). Boxed: awaited from
    /// several places, one copy of it in the wasm.
    pub(super) fn send_http<'a>(
        &'a self,
        request: HttpRequest<'a>,
    ) -> LocalBoxFuture<'a, Result<HttpResponse, ErrorKind>> {
        Box::pin(async move {
            let (method, id) = request.body.map(summarize).unwrap_or_default();
            let mut entry = WireEntry {
                seq: 0,
                server: self.0.config.name.clone(),
                at_ms: now_ms(),
                direction: Direction::Sent,
                via: request.method.to_owned(),
                url: request.url.to_owned(),
                method,
                id,
                duration_ms: None,
                http_status: None,
                headers: redact_headers(&request.headers),
                body: request.body.unwrap_or_default().to_owned(),
            };
            let outcome = http::send(request).await;
            entry.http_status = outcome.as_ref().ok().map(HttpResponse::status);
            self.emit(ClientEvent::Wire(entry));
            outcome
        })
    }

    /// Logs a payload that arrived (`via` is `JSON` or `SSE`).
    pub(super) fn log_received(&self, via: &'static str, payload: &str) {
        let (method, id) = summarize(payload);
        self.emit(ClientEvent::Wire(WireEntry {
            seq: 0,
            server: self.0.config.name.clone(),
            at_ms: now_ms(),
            direction: Direction::Received,
            via: via.to_owned(),
            url: String::new(),
            method,
            id,
            duration_ms: None,
            http_status: None,
            headers: Vec::new(),
            body: payload.to_owned(),
        }));
    }
}
