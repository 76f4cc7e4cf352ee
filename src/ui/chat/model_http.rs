//! The page's `fetch` for model requests, each logged in the wire log beside the MCP traffic:
//! the request (`via` "model", headers redacted by the wire log's rule, so the key never shows),
//! its status, and the answer as it arrived (its first [`LOGGED_ANSWER_BYTES`]).

use crate::client::runtime::{Body, BodyReader, Clock, Http, HttpRequest, HttpResponse, Runtime};
use crate::protocol::error::ErrorKind;
use crate::protocol::url::WebUrl;
use crate::protocol::wire_log::{
    redact_response_headers, Summary, Via, WireAnswer, WireEntry, WireLog,
};
use futures::future::LocalBoxFuture;
use leptos::prelude::*;
use std::cell::Cell;
use std::rc::Rc;

/// The most of one model answer the wire log keeps (a stream of text is rarely more).
const LOGGED_ANSWER_BYTES: usize = 1024 * 1024;

thread_local! {
    /// Model requests' numbers, shared by every lane (the wire log matches answers by them).
    static EXCHANGES: Cell<u64> = const { Cell::new(0) };
}

/// `fetch`, logged.
pub struct ModelHttp {
    inner: Rc<dyn Http>,
    clock: Rc<dyn Clock>,
    wire: RwSignal<WireLog>,
    /// The wire log's "server" column: which model.
    name: String,
}

impl ModelHttp {
    /// The page's `fetch` (or, for the page's own model, its host script: `in_page.rs`),
    /// logging into `wire` under `name` (the model and its provider's address, no key).
    pub fn page(
        wire: RwSignal<WireLog>,
        name: String,
        in_page: bool,
    ) -> (Rc<dyn Http>, Rc<dyn Clock>) {
        let runtime = Runtime::browser();
        let clock = runtime.clock.clone();
        let inner: Rc<dyn Http> = if in_page {
            Rc::new(super::in_page::InPageHttp)
        } else {
            runtime.http
        };
        let http = Rc::new(Self {
            inner,
            clock: clock.clone(),
            wire,
            name,
        });
        (http, clock)
    }
}

impl Http for ModelHttp {
    fn send<'a>(
        &'a self,
        request: HttpRequest<'a>,
    ) -> LocalBoxFuture<'a, Result<HttpResponse, ErrorKind>> {
        let exchange = EXCHANGES.with(|n| {
            n.set(n.get() + 1);
            n.get()
        });
        // The "method" column: the endpoint's path (`/v1/chat/completions`).
        let path = WebUrl::parse(request.url)
            .map(|url| url.path().to_owned())
            .unwrap_or_default();
        let method = Some(format!("POST {path}"));
        self.wire.try_update(|log| {
            let mut entry = WireEntry::sent(
                self.name.clone(),
                self.clock.now_ms(),
                Via::Model,
                request.url,
                &request.headers,
                request.body,
                exchange,
            );
            // The method column: the endpoint's path (a model request is no JSON-RPC message).
            entry.kind = None;
            entry.id = None;
            entry.method = method.clone();
            log.push(entry);
        });
        Box::pin(async move {
            let outcome = self.inner.send(request).await;
            let mut answer = WireAnswer {
                server: self.name.clone(),
                exchange,
                at_ms: self.clock.now_ms(),
                http_status: None,
                response_headers: Vec::new(),
                failure: None,
                response_body: None,
            };
            let outcome = match outcome {
                Ok(response) => {
                    let status = response.status();
                    let headers = response.headers();
                    answer.http_status = Some(status);
                    answer.response_headers = redact_response_headers(&headers);
                    let body = response.body().map(|reader| {
                        Box::new(LoggedBody {
                            reader,
                            wire: self.wire,
                            clock: self.clock.clone(),
                            name: self.name.clone(),
                            method,
                            status,
                            kept: Vec::new(),
                            total: 0,
                            logged: false,
                        }) as Box<dyn Body>
                    });
                    Ok(HttpResponse::new(status, headers, body))
                }
                Err(kind) => {
                    answer.failure = Some(kind.to_string());
                    Err(kind)
                }
            };
            self.wire.try_update(|log| log.answer(answer));
            outcome
        })
    }
}

/// An answer's body, read by the chat and copied (its first bytes) into the wire log once it
/// ends, or once it is let go before its end (stopped, or an error cut it).
struct LoggedBody {
    reader: BodyReader,
    wire: RwSignal<WireLog>,
    clock: Rc<dyn Clock>,
    name: String,
    method: Option<String>,
    status: u16,
    kept: Vec<u8>,
    total: usize,
    logged: bool,
}

impl LoggedBody {
    fn log(&mut self, ended: bool) {
        if self.logged {
            return;
        }
        self.logged = true;
        let mut body = String::from_utf8_lossy(&self.kept).into_owned();
        if self.total > self.kept.len() {
            body.push_str(&format!(
                "\n[… {} more bytes not kept in the wire log]",
                self.total - self.kept.len()
            ));
        }
        let failure = (!ended).then(|| {
            "The answer was not read to its end (stopped, or cut short by an error).".to_owned()
        });
        let summary = Summary {
            method: self.method.take(),
            ..Summary::default()
        };
        let mut entry = WireEntry::received(
            std::mem::take(&mut self.name),
            self.clock.now_ms(),
            Via::Model,
            body,
            summary,
        );
        entry.http_status = Some(self.status);
        entry.failure = failure;
        self.kept = Vec::new();
        self.wire.try_update(|log| log.push(entry));
    }
}

impl Body for LoggedBody {
    fn next_chunk(&mut self) -> LocalBoxFuture<'_, Result<Option<Vec<u8>>, ErrorKind>> {
        Box::pin(async move {
            let chunk = self.reader.next_chunk().await;
            match &chunk {
                Ok(Some(bytes)) => {
                    self.total = self.total.saturating_add(bytes.len());
                    let room = LOGGED_ANSWER_BYTES.saturating_sub(self.kept.len());
                    self.kept.extend_from_slice(&bytes[..bytes.len().min(room)]);
                }
                Ok(None) => self.log(true),
                Err(_) => self.log(false),
            }
            chunk
        })
    }

    fn cancel(&self) {
        self.reader.cancel();
    }
}

impl Drop for LoggedBody {
    fn drop(&mut self) {
        self.log(false);
    }
}
