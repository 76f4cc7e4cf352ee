//! `fetch` as the client's [`Http`]: the body read incrementally from its ReadableStream,
//! an [`crate::runtime::Abort`] mapped to an `AbortController`.
//!
//! Every browser failure becomes an [`ErrorKind`] value; nothing here can throw into or panic
//! the page. Header names and values come from the user and may be invalid: that is an error
//! value too.

use crate::runtime::{Body, Http, HttpRequest, HttpResponse};
use futures::future::LocalBoxFuture;
use js_sys::{Reflect, Uint8Array};
use mcp_lens_protocol::error::ErrorKind;
use mcp_lens_protocol::wire_log::is_protocol_header;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    AbortController, ReadableStreamDefaultReader, RequestInit, RequestRedirect, ResponseType,
};

/// `fetch` as the client's [`Http`].
pub struct Fetch;

impl Http for Fetch {
    fn send<'a>(
        &'a self,
        request: HttpRequest<'a>,
    ) -> LocalBoxFuture<'a, Result<HttpResponse, ErrorKind>> {
        send(request)
    }
}

/// Sends the request: `fetch` is called before this returns (so whoever sends it can do its
/// bookkeeping, such as the wire log's row, after the request has left), and the future
/// resolves with the answer's status and headers. A rejected fetch (the browser's opaque
/// "Failed to fetch", which covers both "server down" and "blocked by CORS") becomes
/// [`ErrorKind::Network`].
fn send(request: HttpRequest<'_>) -> LocalBoxFuture<'static, Result<HttpResponse, ErrorKind>> {
    let promise = match start(&request) {
        Ok(promise) => promise,
        Err(error) => return Box::pin(std::future::ready(Err(error))),
    };
    answer_of(promise)
}

/// The answer of a promise of a `Response` (what `fetch` returns, or a `Response` the page made
/// itself, as the chat's in-page model does) as an [`HttpResponse`], its body read from its
/// ReadableStream; a rejected promise is [`ErrorKind::Network`] (or `Cancelled` on an abort).
pub fn answer_of(
    promise: js_sys::Promise,
) -> LocalBoxFuture<'static, Result<HttpResponse, ErrorKind>> {
    Box::pin(async move {
        let raw = JsFuture::from(promise)
            .await
            .map_err(|err| fetch_error(&err))?;
        let raw = raw
            .dyn_into::<web_sys::Response>()
            .map_err(|_| network("fetch did not return a Response"))?;
        if raw.type_() == ResponseType::Opaqueredirect {
            return Err(ErrorKind::Redirected);
        }
        let body = raw
            .body()
            .and_then(|stream| {
                stream
                    .get_reader()
                    .dyn_into::<ReadableStreamDefaultReader>()
                    .ok()
            })
            .map(|reader| {
                Box::new(FetchBody {
                    reader,
                    unyielded: 0,
                }) as Box<dyn Body>
            });
        Ok(HttpResponse::new(raw.status(), headers_of(&raw), body))
    })
}

/// Calls `fetch`: the request as the browser takes it, its headers, redirect rule and abort
/// signal.
fn start(request: &HttpRequest<'_>) -> Result<js_sys::Promise, ErrorKind> {
    let window = web_sys::window().ok_or_else(|| network("no window"))?;
    let headers = web_sys::Headers::new().map_err(|err| network(&describe(&err)))?;
    for (name, value) in &request.headers {
        headers
            .set(name, value)
            .map_err(|_| ErrorKind::InvalidHeader { name: name.clone() })?;
    }
    let init = RequestInit::new();
    init.set_method(request.method);
    init.set_headers(&headers);
    // fetch follows redirects by default, carrying custom headers along even to another
    // origin (Chromium drops only Authorization). A request with the person's token or
    // headers stops at a redirect instead, and so does one that asks to (a model request).
    let refuse_redirectss = request
        .headers
        .iter()
        .any(|(name, _)| !is_protocol_header(name));
    if refuse_redirectss || request.refuse_redirects {
        init.set_redirect(RequestRedirect::Manual);
    }
    if let Some(body) = request.body {
        init.set_body(&JsValue::from_str(body));
    }
    if let Some(abort) = request.abort {
        // One controller per fetch; the handle aborts every fetch it was given to.
        if let Ok(controller) = AbortController::new() {
            init.set_signal(Some(&controller.signal()));
            abort.on_abort(move || controller.abort());
        }
    }
    Ok(window.fetch_with_str_and_init(request.url, &init))
}

/// Every header the browser lets the page see (CORS hides the rest), names lower-case.
fn headers_of(raw: &web_sys::Response) -> Vec<(String, String)> {
    let Ok(Some(entries)) = js_sys::try_iter(&raw.headers()) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|pair| {
            let pair = js_sys::Array::from(&pair);
            Some((pair.get(0).as_string()?, pair.get(1).as_string()?))
        })
        .collect()
}

/// How many bytes of a body are read (and handled by the caller) between two turns of the
/// page's event loop.
///
/// A read of a chunk the browser already holds resolves in a microtask, so reading a body
/// that arrived faster than the page took it (10 MB on loopback) chains every chunk, and what
/// the caller does with each (copying, decoding UTF-8, parsing an event stream), into one
/// task: 45-90 ms of the main thread, measured for 10 MB answers. 5-12 ms of work per
/// megabyte in the page (the more at its first use, still unoptimized); an answer smaller
/// than this never waits.
const BYTES_PER_TASK: usize = 512 * 1024;

/// A fetch body's ReadableStream, read chunk by chunk.
struct FetchBody {
    reader: ReadableStreamDefaultReader,
    /// Bytes read since the last turn of the event loop (see [`BYTES_PER_TASK`]).
    unyielded: usize,
}

impl FetchBody {
    /// The next chunk as the stream gives it, or `None` at the end. Once
    /// [`BYTES_PER_TASK`] were read in a row, the page has a turn first.
    async fn read(&mut self) -> Result<Option<Uint8Array>, ErrorKind> {
        if self.unyielded >= BYTES_PER_TASK {
            self.unyielded = 0;
            super::timer::yield_now().await;
        }
        let result = JsFuture::from(self.reader.read())
            .await
            .map_err(|err| fetch_error(&err))?;
        let done = Reflect::get(&result, &JsValue::from_str("done"))
            .ok()
            .and_then(|d| d.as_bool())
            .unwrap_or(true);
        if done {
            return Ok(None);
        }
        let value =
            Reflect::get(&result, &JsValue::from_str("value")).unwrap_or(JsValue::UNDEFINED);
        let chunk = value
            .dyn_into::<Uint8Array>()
            .unwrap_or_else(|_| Uint8Array::new_with_length(0));
        self.unyielded = self.unyielded.saturating_add(chunk.length() as usize);
        Ok(Some(chunk))
    }
}

impl Body for FetchBody {
    fn next_chunk(&mut self) -> LocalBoxFuture<'_, Result<Option<Vec<u8>>, ErrorKind>> {
        Box::pin(async move { Ok(self.read().await?.map(|chunk| chunk.to_vec())) })
    }

    /// Copies the chunk straight into `out` (one copy, no buffer of its own).
    fn next_chunk_into<'a>(
        &'a mut self,
        out: &'a mut Vec<u8>,
    ) -> LocalBoxFuture<'a, Result<Option<usize>, ErrorKind>> {
        Box::pin(async move {
            let Some(chunk) = self.read().await? else {
                return Ok(None);
            };
            let (from, len) = (out.len(), chunk.length() as usize);
            out.resize(from + len, 0);
            chunk.copy_to(&mut out[from..]);
            Ok(Some(len))
        })
    }

    fn cancel(&self) {
        // The returned promise only reports when cancelling finished; nothing to wait for.
        let _ = self.reader.cancel();
    }
}

fn network(detail: &str) -> ErrorKind {
    ErrorKind::network(detail)
}

fn fetch_error(err: &JsValue) -> ErrorKind {
    let text = describe(err);
    if text.starts_with("AbortError") {
        ErrorKind::Cancelled
    } else {
        network(&text)
    }
}

/// "Name: message" for a JS error, without trusting its shape.
fn describe(err: &JsValue) -> String {
    let field = |name: &str| {
        Reflect::get(err, &JsValue::from_str(name))
            .ok()
            .and_then(|v| v.as_string())
    };
    match (field("name"), field("message")) {
        (Some(name), Some(message)) => format!("{name}: {message}"),
        (None, Some(message)) => message,
        _ => err
            .as_string()
            .unwrap_or_else(|| "unknown error".to_owned()),
    }
}
