//! A scripted runtime for native tests: an HTTP fake that serves recorded exchanges (and
//! asserts on each request), a manual clock, and a single-threaded executor.
//!
//! Requests are matched to the first queued exchange with the same HTTP method and
//! JSON-RPC method (so background streams may interleave with the request under test in any
//! order); the exchange's expectations on URL, headers and body are then asserted. A request
//! nothing was queued for fails the test.

#![allow(dead_code)]

use futures::executor::{LocalPool, LocalSpawner};
use futures::future::LocalBoxFuture;
use futures::task::LocalSpawnExt;
use mcp_lens_client::protocol::error::ErrorKind;
use mcp_lens_client::runtime::{
    Abort, Body, Clock, Http, HttpRequest, HttpResponse, Runtime, Spawn,
};
use mcp_lens_client::{ClientConfig, ClientEvent, McpClient, ServerState};
use serde_json::Value;
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

pub const URL: &str = "http://127.0.0.1:3001/mcp";

// ---------------------------------------------------------------- the manual clock

#[derive(Default)]
pub struct ManualClock {
    now: Cell<f64>,
    timers: RefCell<Vec<Timer>>,
}

struct Timer {
    at: f64,
    waker: Waker,
    alive: Rc<Cell<bool>>,
}

impl ManualClock {
    pub fn now(&self) -> f64 {
        self.now.get()
    }

    /// Moves to the earliest live timer and wakes what is due. False when none is set.
    pub fn advance_to_next(&self) -> bool {
        let mut timers = self.timers.borrow_mut();
        timers.retain(|t| t.alive.get());
        let Some(next) = timers.iter().map(|t| t.at).reduce(f64::min) else {
            return false;
        };
        if next > self.now.get() {
            self.now.set(next);
        }
        let now = self.now.get();
        let (due, waiting): (Vec<_>, Vec<_>) = timers.drain(..).partition(|t| t.at <= now);
        *timers = waiting;
        drop(timers);
        for timer in due {
            timer.waker.wake();
        }
        true
    }

    fn sleep_until(self: &Rc<Self>, at: f64) -> Sleep {
        Sleep {
            clock: self.clone(),
            at,
            alive: Rc::new(Cell::new(true)),
        }
    }
}

struct Sleep {
    clock: Rc<ManualClock>,
    at: f64,
    alive: Rc<Cell<bool>>,
}

impl Future for Sleep {
    type Output = ();
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.clock.now() >= self.at {
            return Poll::Ready(());
        }
        self.clock.timers.borrow_mut().push(Timer {
            at: self.at,
            waker: cx.waker().clone(),
            alive: self.alive.clone(),
        });
        Poll::Pending
    }
}

impl Drop for Sleep {
    fn drop(&mut self) {
        self.alive.set(false);
    }
}

struct ClockHandle(Rc<ManualClock>);

impl Clock for ClockHandle {
    fn now_ms(&self) -> f64 {
        self.0.now()
    }
    fn sleep(&self, ms: u32) -> LocalBoxFuture<'static, ()> {
        Box::pin(self.0.sleep_until(self.0.now() + f64::from(ms)))
    }
    fn after_paint(&self) -> LocalBoxFuture<'static, ()> {
        Box::pin(async {})
    }
}

struct Spawner(LocalSpawner);

impl Spawn for Spawner {
    fn spawn(&self, task: LocalBoxFuture<'static, ()>) {
        self.0.spawn_local(task).expect("the pool is alive");
    }
}

// ---------------------------------------------------------------- live streams

/// A response body the test (or a later exchange) writes into while the client reads it.
#[derive(Clone, Default)]
pub struct LiveStream(Rc<LiveState>);

#[derive(Default)]
struct LiveState {
    chunks: RefCell<VecDeque<Vec<u8>>>,
    ended: Cell<bool>,
    waker: RefCell<Option<Waker>>,
}

impl LiveStream {
    pub fn push(&self, chunk: &str) {
        self.0
            .chunks
            .borrow_mut()
            .push_back(chunk.as_bytes().to_vec());
        self.wake();
    }

    pub fn end(&self) {
        self.0.ended.set(true);
        self.wake();
    }

    fn wake(&self) {
        if let Some(waker) = self.0.waker.borrow_mut().take() {
            waker.wake();
        }
    }
}

/// What a body serves: fixed chunks, then the end, or a hang until aborted, or a live stream.
struct FakeBody {
    chunks: VecDeque<Vec<u8>>,
    then: Then,
    abort: Option<Abort>,
    cancelled: Cell<bool>,
}

#[derive(Clone)]
enum Then {
    End,
    Hang,
    Live(LiveStream),
}

impl Body for FakeBody {
    fn next_chunk(&mut self) -> LocalBoxFuture<'_, Result<Option<Vec<u8>>, ErrorKind>> {
        Box::pin(futures::future::poll_fn(move |cx| {
            if self.abort.as_ref().is_some_and(Abort::is_aborted) {
                return Poll::Ready(Err(ErrorKind::Cancelled));
            }
            if self.cancelled.get() {
                return Poll::Ready(Ok(None));
            }
            if let Some(chunk) = self.chunks.pop_front() {
                return Poll::Ready(Ok(Some(chunk)));
            }
            match &self.then {
                Then::End => Poll::Ready(Ok(None)),
                Then::Hang => {
                    let waker = cx.waker().clone();
                    if let Some(abort) = &self.abort {
                        abort.on_abort(move || waker.wake());
                    }
                    Poll::Pending
                }
                Then::Live(live) => {
                    if let Some(chunk) = live.0.chunks.borrow_mut().pop_front() {
                        return Poll::Ready(Ok(Some(chunk)));
                    }
                    if live.0.ended.get() {
                        return Poll::Ready(Ok(None));
                    }
                    *live.0.waker.borrow_mut() = Some(cx.waker().clone());
                    if let Some(abort) = &self.abort {
                        let waker = cx.waker().clone();
                        abort.on_abort(move || waker.wake());
                    }
                    Poll::Pending
                }
            }
        }))
    }

    fn cancel(&self) {
        self.cancelled.set(true);
    }
}

// ---------------------------------------------------------------- recorded exchanges

type Check = Box<dyn Fn(&Value)>;

/// One recorded exchange: what the request must look like, and the answer.
pub struct Exchange {
    method: &'static str,
    rpc: Option<String>,
    url: Option<String>,
    headers: Vec<(&'static str, Option<String>)>,
    checks: Vec<Check>,
    status: u16,
    response_headers: Vec<(String, String)>,
    chunks: Vec<String>,
    then: Then,
    delay_ms: u32,
    pushes: Vec<(LiveStream, String)>,
    /// Matched by URL too ([`Exchange::at`]).
    routed: bool,
    /// Fails as the browser's `fetch` does when it may not read the answer (CORS) or
    /// reaches nothing.
    unreachable: bool,
}

impl Exchange {
    fn new(method: &'static str, rpc: Option<&str>) -> Self {
        Self {
            method,
            rpc: rpc.map(str::to_owned),
            url: None,
            headers: Vec::new(),
            checks: Vec::new(),
            status: 200,
            response_headers: Vec::new(),
            chunks: Vec::new(),
            then: Then::End,
            delay_ms: 0,
            pushes: Vec::new(),
            routed: false,
            unreachable: false,
        }
    }

    /// The request fails in the browser (`TypeError: Failed to fetch`): no CORS headers, or
    /// nothing listening.
    pub fn unreachable(mut self) -> Self {
        self.unreachable = true;
        self
    }

    /// A request to exactly this URL (matched by method and URL, whatever the order), as
    /// the authorization flow's GETs and form POSTs are.
    pub fn at(method: &'static str, url: &str) -> Self {
        let mut this = Self::new(method, None);
        this.url = Some(url.to_owned());
        this.routed = true;
        this
    }

    /// A POST of the JSON-RPC message `rpc` (a request or a notification).
    pub fn post(rpc: &str) -> Self {
        Self::new("POST", Some(rpc))
    }

    /// A POST whose body is a response (no method).
    pub fn post_response() -> Self {
        Self::new("POST", None)
    }

    pub fn get() -> Self {
        Self::new("GET", None)
    }

    pub fn delete() -> Self {
        Self::new("DELETE", None)
    }

    pub fn url(mut self, url: &str) -> Self {
        self.url = Some(url.to_owned());
        self
    }

    /// The request must carry this header with this value.
    pub fn header(mut self, name: &'static str, value: &str) -> Self {
        self.headers.push((name, Some(value.to_owned())));
        self
    }

    /// The request must not carry this header.
    pub fn no_header(mut self, name: &'static str) -> Self {
        self.headers.push((name, None));
        self
    }

    /// Asserts on the request's JSON body.
    pub fn check(mut self, check: impl Fn(&Value) + 'static) -> Self {
        self.checks.push(Box::new(check));
        self
    }

    pub fn status(mut self, status: u16) -> Self {
        self.status = status;
        self
    }

    pub fn answer_header(mut self, name: &str, value: &str) -> Self {
        self.response_headers
            .push((name.to_owned(), value.to_owned()));
        self
    }

    /// A JSON body; `$ID` is replaced by the request's id.
    pub fn json_body(self, body: &str) -> Self {
        let mut this = self.answer_header("content-type", "application/json");
        this.chunks = vec![body.to_owned()];
        this
    }

    /// A body as it is, of the content type given with [`Exchange::answer_header`].
    pub fn body(mut self, body: &str) -> Self {
        self.chunks = vec![body.to_owned()];
        self
    }

    /// A JSON-RPC result for the request.
    pub fn result(self, result: Value) -> Self {
        self.json_body(&format!(
            r#"{{"jsonrpc":"2.0","id":$ID,"result":{result}}}"#
        ))
    }

    /// An event stream given as chunks (split anywhere); `$ID` is the request's id.
    pub fn sse(mut self, chunks: &[&str]) -> Self {
        self = self.answer_header("content-type", "text/event-stream");
        self.chunks = chunks.iter().map(|c| (*c).to_owned()).collect();
        self
    }

    /// After its chunks the body stays open until the request is aborted.
    pub fn hang(mut self) -> Self {
        self.then = Then::Hang;
        self
    }

    /// After its chunks the body serves what is pushed into `stream`.
    pub fn live(mut self, stream: &LiveStream) -> Self {
        self.then = Then::Live(stream.clone());
        self
    }

    /// The answer arrives `ms` after the request.
    pub fn delay(mut self, ms: u32) -> Self {
        self.delay_ms = ms;
        self
    }

    /// When matched, writes `chunk` (with `$ID`) into another exchange's live body: an answer
    /// that comes on another stream (legacy SSE).
    pub fn push_to(mut self, stream: &LiveStream, chunk: &str) -> Self {
        self.pushes.push((stream.clone(), chunk.to_owned()));
        self
    }
}

/// A request as the fake saw it.
#[derive(Debug, Clone)]
pub struct Seen {
    pub method: &'static str,
    /// Whether the request refused to follow redirects (its body carries a secret).
    pub refuse_redirects: bool,
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: Option<Value>,
}

impl Seen {
    pub fn rpc(&self) -> Option<&str> {
        self.body.as_ref()?.get("method")?.as_str()
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

#[derive(Default)]
pub struct FakeHttp {
    queue: RefCell<Vec<Exchange>>,
    pub seen: RefCell<Vec<Seen>>,
    clock: Rc<ManualClock>,
}

impl FakeHttp {
    pub fn push(&self, exchange: Exchange) {
        self.queue.borrow_mut().push(exchange);
    }

    pub fn remaining(&self) -> Vec<String> {
        self.queue
            .borrow()
            .iter()
            .map(|e| format!("{} {:?}", e.method, e.rpc))
            .collect()
    }

    /// One line per request seen: method, URL, JSON-RPC method, session and event ids.
    pub fn summary(&self) -> Vec<String> {
        self.seen
            .borrow()
            .iter()
            .map(|s| {
                format!(
                    "{} {} {:?} session={:?} last-event-id={:?}",
                    s.method,
                    s.url,
                    s.rpc(),
                    s.header("mcp-session-id"),
                    s.header("last-event-id")
                )
            })
            .collect()
    }

    /// The requests seen with this JSON-RPC method.
    pub fn seen_rpc(&self, rpc: &str) -> Vec<Seen> {
        self.seen
            .borrow()
            .iter()
            .filter(|s| s.rpc() == Some(rpc))
            .cloned()
            .collect()
    }
}

impl Http for FakeHttp {
    fn send<'a>(
        &'a self,
        request: HttpRequest<'a>,
    ) -> LocalBoxFuture<'a, Result<HttpResponse, ErrorKind>> {
        // A form body (an OAuth token request) is kept as a string; anything else is JSON.
        let form = request.headers.iter().any(|(n, v)| {
            n.eq_ignore_ascii_case("content-type") && v == "application/x-www-form-urlencoded"
        });
        let body: Option<Value> = request.body.map(|b| {
            if form {
                Value::String(b.to_owned())
            } else {
                serde_json::from_str(b).expect("the client sends JSON")
            }
        });
        let rpc = body
            .as_ref()
            .and_then(|b| b.get("method"))
            .and_then(Value::as_str)
            .map(str::to_owned);
        let seen = Seen {
            refuse_redirects: request.refuse_redirects,
            method: request.method,
            url: request.url.to_owned(),
            headers: request.headers.clone(),
            body: body.clone(),
        };
        self.seen.borrow_mut().push(seen.clone());
        let exchange = {
            let mut queue = self.queue.borrow_mut();
            let index = queue
                .iter()
                .position(|e| {
                    e.method == request.method
                        && e.rpc == rpc
                        && (!e.routed || e.url.as_deref() == Some(request.url))
                })
                .unwrap_or_else(|| {
                    panic!(
                        "nothing scripted for {} {} {:?}\n  body: {:?}\n  seen: {:?}\n  still queued: {:?}",
                        request.method,
                        request.url,
                        rpc,
                        body,
                        self.summary(),
                        queue
                            .iter()
                            .map(|e| format!("{} {:?}", e.method, e.rpc))
                            .collect::<Vec<_>>()
                    )
                });
            queue.remove(index)
        };
        let what = format!("{} {:?}", request.method, rpc);
        if let Some(url) = &exchange.url {
            assert_eq!(&seen.url, url, "URL of {what}");
        }
        for (name, expected) in &exchange.headers {
            assert_eq!(
                seen.header(name),
                expected.as_deref(),
                "header {name} of {what}"
            );
        }
        for check in &exchange.checks {
            check(body.as_ref().expect("a body"));
        }

        let id = body
            .as_ref()
            .and_then(|b| b.get("id"))
            .map(Value::to_string)
            .unwrap_or_else(|| "null".to_owned());
        for (stream, chunk) in &exchange.pushes {
            stream.push(&chunk.replace("$ID", &id));
        }
        let abort = request.abort.cloned();
        let clock = self.clock.clone();
        Box::pin(async move {
            if exchange.delay_ms > 0 {
                clock
                    .sleep_until(clock.now() + f64::from(exchange.delay_ms))
                    .await;
            }
            if abort.as_ref().is_some_and(Abort::is_aborted) {
                return Err(ErrorKind::Cancelled);
            }
            if exchange.unreachable {
                return Err(ErrorKind::Network {
                    detail: "TypeError: Failed to fetch".to_owned(),
                });
            }
            let body = FakeBody {
                chunks: exchange
                    .chunks
                    .iter()
                    .map(|c| c.replace("$ID", &id).into_bytes())
                    .collect(),
                then: exchange.then.clone(),
                abort,
                cancelled: Cell::new(false),
            };
            Ok(HttpResponse::new(
                exchange.status,
                exchange.response_headers.clone(),
                Some(Box::new(body)),
            ))
        })
    }
}

// ---------------------------------------------------------------- the harness

/// A person's answer to a sampling or elicitation request: (method, params) -> outcome.
type Person = Box<dyn Fn(&str, &Option<Value>) -> Result<Value, (i32, String)>>;

pub struct Harness {
    pub pool: LocalPool,
    pub clock: Rc<ManualClock>,
    pub http: Rc<FakeHttp>,
    pub events: Rc<RefCell<Vec<ClientEvent>>>,
    pub client: Rc<RefCell<Option<McpClient>>>,
    person: Rc<RefCell<Option<Person>>>,
}

impl Harness {
    pub fn new() -> Self {
        let clock = Rc::new(ManualClock::default());
        let http = Rc::new(FakeHttp {
            clock: clock.clone(),
            ..FakeHttp::default()
        });
        Self {
            pool: LocalPool::new(),
            clock,
            http,
            events: Rc::default(),
            client: Rc::default(),
            person: Rc::default(),
        }
    }

    pub fn script(&self, exchanges: impl IntoIterator<Item = Exchange>) {
        for exchange in exchanges {
            self.http.push(exchange);
        }
    }

    /// Answers every sampling or elicitation request with `person`.
    pub fn person(
        &self,
        person: impl Fn(&str, &Option<Value>) -> Result<Value, (i32, String)> + 'static,
    ) {
        *self.person.borrow_mut() = Some(Box::new(person));
    }

    pub fn runtime(&self) -> Runtime {
        Runtime {
            http: self.http.clone(),
            clock: Rc::new(ClockHandle(self.clock.clone())),
            spawner: Rc::new(Spawner(self.pool.spawner())),
        }
    }

    /// Connects over the fake (the person handler answers server requests).
    pub fn connect(&mut self, config: ClientConfig) -> Result<ServerState, ErrorKind> {
        let events = self.events.clone();
        let person = self.person.clone();
        let late_client = self.client.clone();
        let spawner = self.pool.spawner();
        let on_event = move |event: ClientEvent| {
            if let ClientEvent::ServerRequest { id, method, params } = &event {
                if let (Some(person), Some(client)) =
                    (&*person.borrow(), late_client.borrow().clone())
                {
                    let outcome = person(method, params);
                    let id = id.clone();
                    spawner
                        .spawn_local(async move {
                            client.answer_server_request(&id, outcome);
                        })
                        .expect("the pool is alive");
                }
            }
            events.borrow_mut().push(event);
        };
        let runtime = self.runtime();
        let connected = self.run(McpClient::connect_with(runtime, config, on_event));
        match connected {
            Ok((client, state)) => {
                *self.client.borrow_mut() = Some(client);
                Ok(state)
            }
            Err(error) => Err(error.kind),
        }
    }

    pub fn client(&self) -> McpClient {
        self.client.borrow().clone().expect("connected")
    }

    /// Runs `future` to its end, moving the clock to the next timer whenever nothing else
    /// can run. Panics when everything waits and no timer is set.
    pub fn run<T: 'static>(&mut self, future: impl Future<Output = T> + 'static) -> T {
        let handle = self.spawn(future);
        self.finish(handle)
    }

    /// Starts `future` without running it.
    pub fn spawn<T: 'static>(&mut self, future: impl Future<Output = T> + 'static) -> Done<T> {
        let done: Done<T> = Rc::default();
        let slot = done.clone();
        self.pool
            .spawner()
            .spawn_local(async move {
                *slot.borrow_mut() = Some(future.await);
            })
            .expect("the pool is alive");
        done
    }

    /// Runs until `done` is filled (see [`Harness::run`]).
    pub fn finish<T>(&mut self, done: Done<T>) -> T {
        loop {
            self.pool.run_until_stalled();
            if let Some(value) = done.borrow_mut().take() {
                return value;
            }
            assert!(
                self.clock.advance_to_next(),
                "stalled: nothing can run and no timer is set; still queued: {:?}",
                self.http.remaining()
            );
        }
    }

    /// Runs whatever can run now, without moving the clock.
    pub fn settle(&mut self) {
        self.pool.run_until_stalled();
    }

    pub fn events(&self) -> Vec<ClientEvent> {
        self.events.borrow().clone()
    }
}

pub type Done<T> = Rc<RefCell<Option<T>>>;

/// `initialize`'s answer from a handshake-era server.
pub fn initialize_result(version: &str, capabilities: Value) -> Value {
    serde_json::json!({
        "protocolVersion": version,
        "capabilities": capabilities,
        "serverInfo": { "name": "recorded", "version": "1.0.0" }
    })
}

pub fn tool(name: &str) -> Value {
    serde_json::json!({ "name": name, "inputSchema": { "type": "object" } })
}
