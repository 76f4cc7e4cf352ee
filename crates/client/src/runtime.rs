//! What the client needs from the world, behind traits so it runs in the page and in native
//! tests alike: an HTTP interface ([`Http`]), a clock with timers ([`Clock`]), a way to run
//! background tasks ([`Spawn`]), and for authorization random bytes ([`Random`]) and
//! signatures ([`Signer`]). The page's are in `browser` (`Runtime::browser()` is `fetch`,
//! `setTimeout` and `spawn_local`); tests bring a scripted HTTP fake and a manual clock.
//!
//! API boundary: this module knows no implementation of its traits; `browser` and the
//! tests implement them.
//!
//! API boundary: no `web_sys` type appears here. Aborting goes through [`Abort`], a plain
//! handle the browser implementation maps to an `AbortController`.
//!
//! Dynamic dispatch on purpose (`Rc<dyn Http>`, boxed futures): the client's request path is
//! compiled once into the wasm, not once per runtime type.

use futures::future::LocalBoxFuture;
use mcp_lens_protocol::auth::jwt::PrivateKey;
use mcp_lens_protocol::error::ErrorKind;
use mcp_lens_protocol::sse::{SseEvent, SseParser};
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;

/// Sends HTTP requests; the browser's is `fetch`.
///
/// ```
/// use futures::future::LocalBoxFuture;
/// use mcp_lens_client::protocol::error::ErrorKind;
/// use mcp_lens_client::runtime::{Http, HttpRequest, HttpResponse};
///
/// /// Answers every request with 404 and no body.
/// struct NotFound;
/// impl Http for NotFound {
///     fn send<'a>(
///         &'a self,
///         _request: HttpRequest<'a>,
///     ) -> LocalBoxFuture<'a, Result<HttpResponse, ErrorKind>> {
///         Box::pin(async { Ok(HttpResponse::new(404, Vec::new(), None)) })
///     }
/// }
/// ```
pub trait Http {
    /// Starts the exchange; resolves with the status line and headers, the body still to be
    /// read. The browser's implementation hands the request to the browser before it
    /// returns (the caller's bookkeeping then costs the request nothing); others may start
    /// it when first polled. A network failure is [`ErrorKind::Network`], an aborted request
    /// [`ErrorKind::Cancelled`], an invalid header [`ErrorKind::InvalidHeader`].
    fn send<'a>(
        &'a self,
        request: HttpRequest<'a>,
    ) -> LocalBoxFuture<'a, Result<HttpResponse, ErrorKind>>;
}

/// Time, as the page measures it (never `std::time`, which panics in wasm32).
///
/// ```
/// use futures::future::LocalBoxFuture;
/// use mcp_lens_client::runtime::Clock;
///
/// /// A clock that never moves and never waits (enough for code that only reads time).
/// struct Frozen;
/// impl Clock for Frozen {
///     fn now_ms(&self) -> f64 { 0.0 }
///     fn sleep(&self, _ms: u32) -> LocalBoxFuture<'static, ()> { Box::pin(async {}) }
///     fn after_paint(&self) -> LocalBoxFuture<'static, ()> { Box::pin(async {}) }
/// }
/// ```
pub trait Clock {
    /// Milliseconds since some fixed start, for durations and deadlines.
    fn now_ms(&self) -> f64;
    /// Resolves after `ms` milliseconds.
    fn sleep(&self, ms: u32) -> LocalBoxFuture<'static, ()>;
    /// Resolves once the page has painted what is on screen now (work that must not delay
    /// showing the connect result waits for this).
    fn after_paint(&self) -> LocalBoxFuture<'static, ()>;
    /// Resolves in a later task, as soon as the page had its turn (input, rendering); a long
    /// piece of work split in steps yields with this. `sleep(0)` unless a clock does better
    /// (the browser's `setTimeout(0)` waits at least 4 ms once nested).
    fn yield_now(&self) -> LocalBoxFuture<'static, ()> {
        self.sleep(0)
    }
    /// Resolves once the page has painted and is idle (background work that should neither
    /// delay showing a result nor follow it at once waits for this). `after_paint` unless a
    /// clock does better.
    fn idle(&self) -> LocalBoxFuture<'static, ()> {
        self.after_paint()
    }
}

/// Runs background work (streams, re-lists, answers to the server) on the current thread.
///
/// ```
/// use futures::future::LocalBoxFuture;
/// use mcp_lens_client::runtime::Spawn;
///
/// struct Forget;
/// impl Spawn for Forget {
///     fn spawn(&self, task: LocalBoxFuture<'static, ()>) { drop(task) }
/// }
/// ```
pub trait Spawn {
    fn spawn(&self, task: LocalBoxFuture<'static, ()>);
}

/// Cryptographic random bytes (the page's `crypto.getRandomValues`; fixed bytes in tests).
///
/// ```
/// use mcp_lens_client::runtime::Random;
/// struct Zeros;
/// impl Random for Zeros {
///     fn fill(&self, bytes: &mut [u8]) -> Result<(), String> { bytes.fill(0); Ok(()) }
/// }
/// let mut bytes = [1u8; 4];
/// Zeros.fill(&mut bytes).unwrap();
/// assert_eq!(bytes, [0; 4]);
/// ```
pub trait Random {
    fn fill(&self, bytes: &mut [u8]) -> Result<(), String>;
}

/// Signs `private_key_jwt` client assertions (the page's WebCrypto,
/// `browser::sign::WebCryptoSigner`), and tells the time they carry.
///
/// ```
/// use futures::future::LocalBoxFuture;
/// use mcp_lens_client::runtime::Signer;
/// use mcp_lens_client::protocol::auth::jwt::PrivateKey;
/// /// A test double: a fixed time and a signature that is the data's length.
/// struct Fake;
/// impl Signer for Fake {
///     fn unix_seconds(&self) -> u64 { 1_700_000_000 }
///     fn sign(&self, _key: &PrivateKey, data: &[u8]) -> LocalBoxFuture<'static, Result<Vec<u8>, String>> {
///         let signature = vec![data.len() as u8];
///         Box::pin(async move { Ok(signature) })
///     }
/// }
/// assert_eq!(Fake.unix_seconds(), 1_700_000_000);
/// ```
pub trait Signer {
    /// Seconds since the Unix epoch, for the assertion's `iat` and `exp`.
    fn unix_seconds(&self) -> u64;
    /// The JWS signature of `data` by `key` (for ECDSA: `r || s`).
    fn sign(
        &self,
        key: &PrivateKey,
        data: &[u8],
    ) -> LocalBoxFuture<'static, Result<Vec<u8>, String>>;
    /// A new DPoP key pair (RFC 9449): in the page, a P-256 WebCrypto key whose private half
    /// cannot be exported. A signer without one refuses, and DPoP is not used.
    fn dpop_key(&self) -> LocalBoxFuture<'static, Result<Rc<dyn DpopKey>, String>> {
        Box::pin(async { Err("this client was made without DPoP keys".to_owned()) })
    }
}

/// A DPoP key pair whose private half the client never reads.
pub trait DpopKey {
    /// The public key as an uncompressed P-256 point (`0x04 || X || Y`).
    fn public_point(&self) -> Vec<u8>;
    /// The ES256 signature (`r || s`) of `data`.
    fn sign(&self, data: &[u8]) -> LocalBoxFuture<'static, Result<Vec<u8>, String>>;
}

/// Everything the client does I/O with. Cheap to clone.
///
/// ```no_run
/// use mcp_lens_client::runtime::Runtime;
/// // In the page: fetch, setTimeout and spawn_local.
/// let runtime = Runtime::browser();
/// # let _ = runtime;
/// ```
#[derive(Clone)]
pub struct Runtime {
    pub http: Rc<dyn Http>,
    pub clock: Rc<dyn Clock>,
    pub spawner: Rc<dyn Spawn>,
}

/// One HTTP exchange to start.
///
/// ```
/// use mcp_lens_client::runtime::{Abort, HttpRequest};
/// let abort = Abort::new();
/// let request = HttpRequest {
///     method: "POST",
///     url: "http://127.0.0.1:3001/mcp",
///     headers: vec![("content-type".to_owned(), "application/json".to_owned())],
///     body: Some(r#"{"jsonrpc":"2.0","id":0,"method":"ping"}"#),
///     abort: Some(&abort),
///     refuse_redirects: false,
/// };
/// assert_eq!(request.method, "POST");
/// ```
pub struct HttpRequest<'a> {
    pub method: &'static str,
    pub url: &'a str,
    pub headers: Vec<(String, String)>,
    pub body: Option<&'a str>,
    /// Aborting this handle cancels the exchange, its body included.
    pub abort: Option<&'a Abort>,
    /// The exchange never follows a redirect: its body carries a secret (an authorization
    /// code and its verifier, a refresh token, a client secret or assertion, an ID token) or
    /// something that goes to one party only (a conversation for a model's provider), and a
    /// 307 or 308 would send the same body to wherever it points. (A request whose headers
    /// carry the person's token or custom headers never follows one either.)
    pub refuse_redirects: bool,
}

/// A cancellation handle: clones share it; [`Abort::abort`] runs every hook an HTTP
/// implementation registered with [`Abort::on_abort`] (the browser aborts its fetch).
///
/// ```
/// use mcp_lens_client::runtime::Abort;
/// use std::{cell::Cell, rc::Rc};
/// let abort = Abort::new();
/// let seen = Rc::new(Cell::new(false));
/// let hook = seen.clone();
/// abort.on_abort(move || hook.set(true));
/// abort.clone().abort();
/// assert!(abort.is_aborted() && seen.get());
/// ```
#[derive(Clone, Default)]
pub struct Abort(Rc<AbortState>);

#[derive(Default)]
struct AbortState {
    aborted: Cell<bool>,
    hooks: RefCell<Vec<Box<dyn FnOnce()>>>,
}

impl Abort {
    pub fn new() -> Self {
        Self::default()
    }

    /// Aborts every exchange this handle was given to (now and later).
    pub fn abort(&self) {
        self.0.aborted.set(true);
        let hooks = std::mem::take(&mut *self.0.hooks.borrow_mut());
        for hook in hooks {
            hook();
        }
    }

    pub fn is_aborted(&self) -> bool {
        self.0.aborted.get()
    }

    /// Runs `hook` when aborted (at once if already aborted).
    pub fn on_abort(&self, hook: impl FnOnce() + 'static) {
        if self.is_aborted() {
            hook();
        } else {
            self.0.hooks.borrow_mut().push(Box::new(hook));
        }
    }
}

/// A response body, read chunk by chunk as the network delivers it.
pub trait Body {
    /// The next chunk, or `None` at the end of the body.
    fn next_chunk(&mut self) -> LocalBoxFuture<'_, Result<Option<Vec<u8>>, ErrorKind>>;
    /// Appends the next chunk to `out`: its length, or `None` at the end of the body. The
    /// default goes through [`Self::next_chunk`]; a body that can write into `out` directly
    /// saves a copy of every chunk (a 10 MB answer is read with this).
    fn next_chunk_into<'a>(
        &'a mut self,
        out: &'a mut Vec<u8>,
    ) -> LocalBoxFuture<'a, Result<Option<usize>, ErrorKind>> {
        Box::pin(async move {
            let chunk = self.next_chunk().await?;
            Ok(chunk.map(|chunk| {
                out.extend_from_slice(&chunk);
                chunk.len()
            }))
        })
    }
    /// Stops reading; the rest of the body is dropped.
    fn cancel(&self);
}

/// The answer's status line and headers; the body is read on demand, once.
///
/// ```
/// use mcp_lens_client::runtime::HttpResponse;
/// let response = HttpResponse::new(
///     202,
///     vec![("Content-Type".to_owned(), "application/json".to_owned())],
///     None,
/// );
/// assert_eq!(response.header("content-type").as_deref(), Some("application/json"));
/// ```
pub struct HttpResponse {
    status: u16,
    headers: Vec<(String, String)>,
    body: RefCell<Option<Box<dyn Body>>>,
    /// Hears what [`HttpResponse::text_start`] read (see [`HttpResponse::on_text_start`]).
    quoted: Option<Hearer>,
}

/// Hears text read from a response (see [`HttpResponse::on_text_start`]).
type Hearer = Box<dyn Fn(&str)>;

impl HttpResponse {
    /// `headers` are those the page may see (CORS hides the rest).
    pub fn new(status: u16, headers: Vec<(String, String)>, body: Option<Box<dyn Body>>) -> Self {
        Self {
            status,
            headers,
            body: RefCell::new(body),
            quoted: None,
        }
    }

    /// Has `hear` called with the text each [`HttpResponse::text_start`] reads: the wire log
    /// adds the start of an error answer's body to its row so.
    pub(crate) fn on_text_start(mut self, hear: impl Fn(&str) + 'static) -> Self {
        self.quoted = Some(Box::new(hear));
        self
    }

    pub fn status(&self) -> u16 {
        self.status
    }

    /// A response header (names compare case-insensitively).
    pub fn header(&self, name: &str) -> Option<String> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.clone())
    }

    /// Every header the page may see.
    pub fn headers(&self) -> Vec<(String, String)> {
        self.headers.clone()
    }

    /// The body as a stream of chunks. `None` for bodiless answers, and once taken.
    pub fn body(&self) -> Option<BodyReader> {
        self.body.borrow_mut().take().map(BodyReader)
    }

    /// Reads the whole body as UTF-8 text (invalid sequences replaced), up to `limit` bytes: a
    /// longer body is abandoned with [`ErrorKind::TooLarge`] rather than held in memory.
    /// Each chunk is checked and added to the text as it arrives (room for it is made once
    /// when its length is announced), so what is left to do after the last byte of an answer
    /// of megabytes is its last chunk, not a pass over the whole.
    pub async fn text(&self, limit: usize) -> Result<String, ErrorKind> {
        let announced = self
            .header("content-length")
            .and_then(|length| length.trim().parse::<usize>().ok())
            .unwrap_or(0);
        let mut text = Utf8Text::with_capacity(announced.min(limit));
        let mut read = 0usize;
        if let Some(mut body) = self.body() {
            while let Some(length) = body.next_chunk_into(&mut text.pending).await? {
                read = read.saturating_add(length);
                if read > limit {
                    body.cancel();
                    return Err(ErrorKind::TooLarge {
                        what: "a JSON answer",
                        limit: limit as u64,
                    });
                }
                text.take_pending();
            }
        }
        Ok(text.finish())
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
        let text = String::from_utf8_lossy(&bytes).into_owned();
        if let Some(hear) = &self.quoted {
            hear(&text);
        }
        text
    }
}

/// Text decoded from UTF-8 as its bytes arrive, exactly as `String::from_utf8_lossy` would
/// decode them all at once: each invalid sequence becomes one U+FFFD; a character split between
/// chunks waits for the rest of it.
struct Utf8Text {
    text: String,
    /// Bytes not yet decoded: the last chunk, or the start of a character it ended inside.
    pending: Vec<u8>,
}

impl Utf8Text {
    fn with_capacity(capacity: usize) -> Self {
        Self {
            text: String::with_capacity(capacity),
            pending: Vec::new(),
        }
    }

    /// Decodes what is pending, up to a character that may continue in the next chunk.
    fn take_pending(&mut self) {
        let mut from = 0;
        loop {
            match std::str::from_utf8(&self.pending[from..]) {
                Ok(valid) => {
                    self.text.push_str(valid);
                    from = self.pending.len();
                    break;
                }
                Err(error) => {
                    let valid = from + error.valid_up_to();
                    if let Ok(valid) = std::str::from_utf8(&self.pending[from..valid]) {
                        self.text.push_str(valid);
                    }
                    match error.error_len() {
                        Some(invalid) => {
                            self.text.push(char::REPLACEMENT_CHARACTER);
                            from = valid + invalid;
                        }
                        // The chunk ends inside a character: the next one has the rest.
                        None => {
                            from = valid;
                            break;
                        }
                    }
                }
            }
        }
        self.pending.drain(..from);
    }

    /// The text; a character left unfinished at the end is one U+FFFD.
    fn finish(mut self) -> String {
        self.take_pending();
        if !self.pending.is_empty() {
            self.text.push(char::REPLACEMENT_CHARACTER);
        }
        self.text
    }
}

/// A response body being read.
pub struct BodyReader(Box<dyn Body>);

impl BodyReader {
    /// The next chunk, or `None` at the end of the body.
    pub async fn next_chunk(&mut self) -> Result<Option<Vec<u8>>, ErrorKind> {
        self.0.next_chunk().await
    }

    /// Appends the next chunk to `out`: its length, or `None` at the end of the body.
    pub async fn next_chunk_into(&mut self, out: &mut Vec<u8>) -> Result<Option<usize>, ErrorKind> {
        self.0.next_chunk_into(out).await
    }

    /// Stops reading and drops the rest of the body.
    pub fn cancel(&self) {
        self.0.cancel();
    }
}

/// Server-Sent Events read from a body: chunks through the incremental parser, events
/// handled as they arrive (never after buffering the whole stream).
pub struct SseReader {
    body: BodyReader,
    parser: SseParser,
    ready: VecDeque<SseEvent>,
    limit: usize,
}

impl SseReader {
    /// A reader that gives up at the first event over `limit` bytes.
    pub fn new(body: BodyReader, limit: usize) -> Self {
        Self {
            body,
            parser: SseParser::with_limit(limit),
            ready: VecDeque::new(),
            limit,
        }
    }

    /// The next complete event, or `None` when the stream has ended.
    pub async fn next_event(&mut self) -> Result<Option<SseEvent>, ErrorKind> {
        loop {
            if let Some(event) = self.ready.pop_front() {
                return Ok(Some(event));
            }
            match self.body.next_chunk().await? {
                Some(chunk) => {
                    self.ready.extend(self.parser.push(&chunk));
                    if self.parser.overflowed() && self.ready.is_empty() {
                        self.body.cancel();
                        return Err(ErrorKind::TooLarge {
                            what: "an event-stream event",
                            limit: self.limit as u64,
                        });
                    }
                }
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

/// How long the client handles one burst of messages before it lets the page breathe.
const BURST_MS: f64 = 8.0;

/// Paces a loop over a stream's events: once a burst of them has been handled for
/// [`BURST_MS`], the page renders and takes input (a timer task) before the next. Events
/// already buffered are read without any pause, so a storm of 10,000 messages in one chunk
/// would otherwise be one long task.
pub(crate) struct Pacer {
    clock: Rc<dyn Clock>,
    /// When the current burst started.
    since: f64,
}

impl Pacer {
    /// A pacer whose first burst starts now.
    pub(crate) fn new(clock: Rc<dyn Clock>) -> Self {
        let since = clock.now_ms();
        Self { clock, since }
    }

    /// Lets the page breathe if the burst has lasted [`BURST_MS`].
    pub(crate) async fn pace(&mut self) {
        if self.clock.now_ms() - self.since >= BURST_MS {
            self.clock.sleep(0).await;
            self.since = self.clock.now_ms();
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    /// A body that gives these chunks.
    struct Chunks(std::collections::VecDeque<Vec<u8>>);

    impl Body for Chunks {
        fn next_chunk(&mut self) -> LocalBoxFuture<'_, Result<Option<Vec<u8>>, ErrorKind>> {
            let next = self.0.pop_front();
            Box::pin(async move { Ok(next) })
        }
        fn cancel(&self) {}
    }

    fn text_of(
        chunks: &[&[u8]],
        headers: &[(&str, &str)],
        limit: usize,
    ) -> Result<String, ErrorKind> {
        let body = Chunks(chunks.iter().map(|c| c.to_vec()).collect());
        let headers = headers
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect();
        let response = HttpResponse::new(200, headers, Some(Box::new(body)));
        futures::executor::block_on(response.text(limit))
    }

    #[test]
    fn a_body_is_read_whole_with_or_without_its_length_and_invalid_utf8_replaced() {
        let chunks: &[&[u8]] = &[b"{\"a\":", "\"é".as_bytes(), b"\"}"];
        assert_eq!(text_of(chunks, &[], 100).unwrap(), "{\"a\":\"é\"}");
        assert_eq!(
            text_of(chunks, &[("Content-Length", "11")], 100).unwrap(),
            "{\"a\":\"é\"}"
        );
        // A wrong or absurd announced length changes nothing.
        assert_eq!(
            text_of(chunks, &[("content-length", "2")], 100).unwrap(),
            "{\"a\":\"é\"}"
        );
        assert_eq!(
            text_of(chunks, &[("content-length", "99999999999")], 100).unwrap(),
            "{\"a\":\"é\"}"
        );
        assert_eq!(text_of(&[b"a\xffb"], &[], 100).unwrap(), "a\u{fffd}b");
        // A character split across chunks is whole in the text.
        assert_eq!(text_of(&[&[0xC3], &[0xA9]], &[], 100).unwrap(), "é");
        assert!(matches!(
            text_of(chunks, &[], 5),
            Err(ErrorKind::TooLarge { .. })
        ));
    }

    proptest::proptest! {
        /// Any bytes (UTF-8 and not, characters cut anywhere), in any chunks: the text a
        /// lossy decoding of them all at once gives, and the limit is the body's length.
        #[test]
        fn a_body_in_any_chunks_reads_as_it_would_at_once(
            bytes in proptest::collection::vec(proptest::prop_oneof![
                proptest::prelude::any::<u8>(),
                proptest::sample::select(vec![0xC3u8, 0xA9, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x98, 0x80, 0xED, 0xA0, 0x80, 0xBF, b'a']),
            ], 0..200),
            cuts in proptest::collection::vec(0usize..200, 0..8),
        ) {
            let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(bytes.len())).collect();
            cuts.sort_unstable();
            let mut chunks: Vec<&[u8]> = Vec::new();
            let mut from = 0;
            for cut in cuts.into_iter().chain([bytes.len()]) {
                chunks.push(&bytes[from..cut]);
                from = cut;
            }
            let whole = String::from_utf8_lossy(&bytes).into_owned();
            proptest::prop_assert_eq!(text_of(&chunks, &[], bytes.len()).unwrap(), whole);
            if !bytes.is_empty() {
                proptest::prop_assert!(text_of(&chunks, &[], bytes.len() - 1).is_err());
            }
        }
    }
}
