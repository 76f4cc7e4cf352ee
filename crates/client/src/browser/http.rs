//! `fetch` with the body read incrementally from its ReadableStream.
//!
//! Every browser failure becomes an [`ErrorKind`] value; nothing here can throw into or panic
//! the page. Header names and values come from the user and may be invalid: that is an error
//! value too.

use js_sys::{Reflect, Uint8Array};
use mcp_lens_protocol::error::ErrorKind;
use mcp_lens_protocol::sse::{SseEvent, SseParser};
use std::collections::VecDeque;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortController, AbortSignal, ReadableStreamDefaultReader, RequestInit};

/// One HTTP exchange to start.
pub struct HttpRequest<'a> {
    pub method: &'static str,
    pub url: &'a str,
    pub headers: Vec<(String, String)>,
    pub body: Option<&'a str>,
    pub signal: Option<&'a AbortSignal>,
}

/// The answer's status line and headers; the body is read on demand.
pub struct HttpResponse {
    raw: web_sys::Response,
}

/// Sends the request. A rejected fetch (the browser's opaque "Failed to fetch", which covers
/// both "server down" and "blocked by CORS") becomes [`ErrorKind::Network`].
pub async fn send(request: HttpRequest<'_>) -> Result<HttpResponse, ErrorKind> {
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
    if let Some(body) = request.body {
        init.set_body(&JsValue::from_str(body));
    }
    init.set_signal(request.signal);
    let promise = window.fetch_with_str_and_init(request.url, &init);
    let raw = JsFuture::from(promise)
        .await
        .map_err(|err| fetch_error(&err))?;
    let raw = raw
        .dyn_into::<web_sys::Response>()
        .map_err(|_| network("fetch did not return a Response"))?;
    Ok(HttpResponse { raw })
}

impl HttpResponse {
    pub fn status(&self) -> u16 {
        self.raw.status()
    }

    /// A response header, if present and exposed to the page by CORS.
    pub fn header(&self, name: &str) -> Option<String> {
        self.raw.headers().get(name).ok().flatten()
    }

    /// Every header the browser lets the page see (CORS hides the rest), names lower-case.
    pub fn headers(&self) -> Vec<(String, String)> {
        let Ok(Some(entries)) = js_sys::try_iter(&self.raw.headers()) else {
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

    /// The body as a stream of chunks. `None` for bodiless answers.
    pub fn body(&self) -> Option<BodyReader> {
        let stream = self.raw.body()?;
        let reader = stream
            .get_reader()
            .dyn_into::<ReadableStreamDefaultReader>()
            .ok()?;
        Some(BodyReader { reader })
    }

    /// Reads the whole body as UTF-8 text (invalid sequences replaced).
    pub async fn text(&self) -> Result<String, ErrorKind> {
        let mut bytes = Vec::new();
        if let Some(mut body) = self.body() {
            while let Some(chunk) = body.next_chunk().await? {
                bytes.extend_from_slice(&chunk);
            }
        }
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    /// Reads at most about `limit` bytes, for quoting the start of an unexpected answer,
    /// then stops reading (the body may be endless).
    pub async fn text_start(&self, limit: usize) -> String {
        let mut bytes = Vec::new();
        if let Some(mut body) = self.body() {
            while bytes.len() < limit {
                match body.next_chunk().await {
                    Ok(Some(chunk)) => bytes.extend_from_slice(&chunk),
                    _ => break,
                }
            }
            body.cancel();
        }
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

/// Reads a response body chunk by chunk, as the network delivers it.
pub struct BodyReader {
    reader: ReadableStreamDefaultReader,
}

impl BodyReader {
    /// The next chunk, or `None` at the end of the body.
    pub async fn next_chunk(&mut self) -> Result<Option<Vec<u8>>, ErrorKind> {
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
        match value.dyn_into::<Uint8Array>() {
            Ok(chunk) => Ok(Some(chunk.to_vec())),
            Err(_) => Ok(Some(Vec::new())),
        }
    }

    /// Stops reading and tells the browser to drop the rest of the body.
    pub fn cancel(&self) {
        // The returned promise only reports when cancelling finished; nothing to wait for.
        let _ = self.reader.cancel();
    }
}

/// Server-Sent Events read from a body: chunks through the incremental parser.
pub struct SseReader {
    body: BodyReader,
    parser: SseParser,
    ready: VecDeque<SseEvent>,
}

impl SseReader {
    pub fn new(body: BodyReader) -> Self {
        Self {
            body,
            parser: SseParser::new(),
            ready: VecDeque::new(),
        }
    }

    /// The next complete event, or `None` when the stream has ended.
    pub async fn next_event(&mut self) -> Result<Option<SseEvent>, ErrorKind> {
        loop {
            if let Some(event) = self.ready.pop_front() {
                return Ok(Some(event));
            }
            match self.body.next_chunk().await? {
                Some(chunk) => self.ready.extend(self.parser.push(&chunk)),
                None => {
                    self.parser.finish();
                    return Ok(None);
                }
            }
        }
    }

    pub fn cancel(&self) {
        self.body.cancel();
    }

    /// The reconnection delay the server asked for with `retry:`.
    pub fn retry_ms(&self) -> Option<u64> {
        self.parser.retry_ms()
    }
}

/// An AbortController that can be handed around; `abort` cancels the fetch it was given to.
#[derive(Clone)]
pub struct Abort {
    controller: Option<AbortController>,
}

impl Abort {
    pub fn new() -> Self {
        Self {
            controller: AbortController::new().ok(),
        }
    }

    pub fn signal(&self) -> Option<AbortSignal> {
        self.controller.as_ref().map(AbortController::signal)
    }

    pub fn abort(&self) {
        if let Some(controller) = &self.controller {
            controller.abort();
        }
    }
}

impl Default for Abort {
    fn default() -> Self {
        Self::new()
    }
}

fn network(detail: &str) -> ErrorKind {
    ErrorKind::Network {
        detail: detail.to_owned(),
    }
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
