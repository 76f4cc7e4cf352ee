//! A scripted runtime for the chat's native tests: an HTTP fake that answers model requests in
//! order from scripted answers (fixtures split into chunks anywhere, live bodies the test writes
//! into, bodies that hang until aborted), a clock that ticks, a tool runner and an approver
//! that follow a script, and a single-threaded executor (`futures::executor::LocalPool`).

#![allow(dead_code)]

use futures::channel::oneshot;
use futures::executor::LocalPool;
use futures::future::LocalBoxFuture;
use futures::task::LocalSpawnExt;
use mcp_lens_chat::chat_loop::{
    Approval, ApprovalRequest, Approver, ChatEvent, ChatSetup, Limits, ToolRunner,
};
use mcp_lens_chat::{ApiKey, ChatLoop, Dialect, ProviderConfig, ServerTools, ToolSet};
use mcp_lens_client::protocol::error::ErrorKind;
use mcp_lens_client::runtime::{Abort, Body, Clock, Http, HttpRequest, HttpResponse};
use serde_json::{json, Value};
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::future::Future;
use std::rc::Rc;
use std::task::{Poll, Waker};

pub const KEY: &str = "sk-test-SECRET-4242";
pub const PAGE_ORIGIN: &str = "https://lens.example";

/// A fixture's text (`tests/fixtures/<path>`).
pub fn fixture(path: &str) -> String {
    let full = format!("{}/tests/fixtures/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

// ---------------------------------------------------------------- bodies

/// A body the test writes into while the chat reads it.
#[derive(Clone, Default)]
pub struct LiveStream(Rc<LiveState>);

#[derive(Default)]
struct LiveState {
    chunks: RefCell<VecDeque<Vec<u8>>>,
    ended: Cell<bool>,
    waker: RefCell<Option<Waker>>,
}

impl LiveStream {
    pub fn push(&self, text: &str) {
        self.0
            .chunks
            .borrow_mut()
            .push_back(text.as_bytes().to_vec());
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

#[derive(Clone)]
enum Then {
    End,
    Hang,
    Live(LiveStream),
}

struct FakeBody {
    chunks: VecDeque<Vec<u8>>,
    then: Then,
    abort: Option<Abort>,
    cancelled: Rc<Cell<bool>>,
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
            let live = match &self.then {
                Then::End => return Poll::Ready(Ok(None)),
                Then::Hang => None,
                Then::Live(live) => Some(live.clone()),
            };
            if let Some(live) = &live {
                if let Some(chunk) = live.0.chunks.borrow_mut().pop_front() {
                    return Poll::Ready(Ok(Some(chunk)));
                }
                if live.0.ended.get() {
                    return Poll::Ready(Ok(None));
                }
                *live.0.waker.borrow_mut() = Some(cx.waker().clone());
            }
            if let Some(abort) = &self.abort {
                let waker = cx.waker().clone();
                abort.on_abort(move || waker.wake());
            }
            Poll::Pending
        }))
    }

    fn cancel(&self) {
        self.cancelled.set(true);
    }
}

// ---------------------------------------------------------------- scripted answers

/// One answer of the fake provider.
pub struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    chunks: Vec<Vec<u8>>,
    then: Then,
    unreachable: bool,
}

impl Answer {
    fn new(status: u16, content_type: &str, body: &str) -> Self {
        Self {
            status,
            headers: vec![("content-type".to_owned(), content_type.to_owned())],
            chunks: vec![body.as_bytes().to_vec()],
            then: Then::End,
            unreachable: false,
        }
    }

    /// An event stream, in one chunk.
    pub fn sse(text: &str) -> Self {
        Self::new(200, "text/event-stream", text)
    }

    /// An event stream cut into chunks of `size` bytes (through lines, events and characters).
    pub fn sse_in_chunks(text: &str, size: usize) -> Self {
        let mut answer = Self::sse("");
        answer.chunks = text
            .as_bytes()
            .chunks(size.max(1))
            .map(<[u8]>::to_vec)
            .collect();
        answer
    }

    /// A JSON body with this status.
    pub fn json(status: u16, body: &str) -> Self {
        Self::new(status, "application/json", body)
    }

    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.to_owned(), value.to_owned()));
        self
    }

    /// After its chunks the body serves what is pushed into `stream`.
    pub fn live(mut self, stream: &LiveStream) -> Self {
        self.then = Then::Live(stream.clone());
        self
    }

    /// After its chunks the body stays open until the request is aborted.
    pub fn hang(mut self) -> Self {
        self.then = Then::Hang;
        self
    }

    /// The browser's "Failed to fetch" (CORS refusal or nothing listening).
    pub fn unreachable() -> Self {
        let mut answer = Self::json(200, "");
        answer.unreachable = true;
        answer
    }
}

/// A request as the fake saw it.
#[derive(Debug, Clone)]
pub struct Seen {
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: Value,
    pub refuse_redirects: bool,
}

impl Seen {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

#[derive(Default)]
pub struct FakeHttp {
    answers: RefCell<VecDeque<Answer>>,
    pub seen: RefCell<Vec<Seen>>,
}

impl FakeHttp {
    pub fn script(&self, answers: impl IntoIterator<Item = Answer>) {
        self.answers.borrow_mut().extend(answers);
    }

    pub fn seen(&self) -> Vec<Seen> {
        self.seen.borrow().clone()
    }

    pub fn remaining(&self) -> usize {
        self.answers.borrow().len()
    }
}

impl Http for FakeHttp {
    fn send<'a>(
        &'a self,
        request: HttpRequest<'a>,
    ) -> LocalBoxFuture<'a, Result<HttpResponse, ErrorKind>> {
        let body = request
            .body
            .map(|b| serde_json::from_str(b).expect("the chat sends JSON"))
            .unwrap_or(Value::Null);
        self.seen.borrow_mut().push(Seen {
            url: request.url.to_owned(),
            headers: request.headers.clone(),
            body,
            refuse_redirects: request.refuse_redirects,
        });
        let answer = self.answers.borrow_mut().pop_front().unwrap_or_else(|| {
            panic!(
                "nothing scripted for request {} to {}",
                self.seen.borrow().len(),
                request.url
            )
        });
        let abort = request.abort.cloned();
        Box::pin(async move {
            if abort.as_ref().is_some_and(Abort::is_aborted) {
                return Err(ErrorKind::Cancelled);
            }
            if answer.unreachable {
                return Err(ErrorKind::Network {
                    detail: "TypeError: Failed to fetch".into(),
                });
            }
            let body = FakeBody {
                chunks: answer.chunks.into_iter().collect(),
                then: answer.then,
                abort,
                cancelled: Rc::default(),
            };
            Ok(HttpResponse::new(
                answer.status,
                answer.headers,
                Some(Box::new(body)),
            ))
        })
    }
}

// ---------------------------------------------------------------- clock, runner, approver

/// Each reading is 10 ms after the last.
#[derive(Default)]
pub struct TickingClock(Cell<f64>);

impl Clock for TickingClock {
    fn now_ms(&self) -> f64 {
        let now = self.0.get();
        self.0.set(now + 10.0);
        now
    }
    fn sleep(&self, _ms: u32) -> LocalBoxFuture<'static, ()> {
        Box::pin(async {})
    }
    fn after_paint(&self) -> LocalBoxFuture<'static, ()> {
        Box::pin(async {})
    }
}

/// What a tool call gives back.
pub type ToolScript = Box<dyn Fn(&str, &str, &Value) -> ToolOutcome>;

pub enum ToolOutcome {
    Result(Value),
    Failure(String),
    /// Never resolves (until the call is dropped).
    Hang,
}

/// Runs tools from a script; remembers every call.
pub struct FakeRunner {
    pub calls: RefCell<Vec<(String, String, Value)>>,
    script: ToolScript,
}

impl FakeRunner {
    pub fn new(script: impl Fn(&str, &str, &Value) -> ToolOutcome + 'static) -> Self {
        Self {
            calls: RefCell::default(),
            script: Box::new(script),
        }
    }

    /// Answers every call with its arguments as text.
    pub fn echoing() -> Self {
        Self::new(|_, tool, args| ToolOutcome::Result(text_result(&format!("{tool}: {args}"))))
    }
}

impl ToolRunner for FakeRunner {
    fn call(
        &self,
        server_id: &str,
        tool_name: &str,
        arguments: Value,
    ) -> LocalBoxFuture<'static, Result<Value, String>> {
        let outcome = (self.script)(server_id, tool_name, &arguments);
        self.calls
            .borrow_mut()
            .push((server_id.to_owned(), tool_name.to_owned(), arguments));
        match outcome {
            ToolOutcome::Result(value) => Box::pin(async move { Ok(value) }),
            ToolOutcome::Failure(why) => Box::pin(async move { Err(why) }),
            ToolOutcome::Hang => Box::pin(futures::future::pending()),
        }
    }
}

pub fn text_result(text: &str) -> Value {
    json!({ "content": [{ "type": "text", "text": text }] })
}

/// Answers approvals from a queue (Allow when empty), or waits for the test to answer.
#[derive(Default)]
pub struct FakeApprover {
    pub asked: RefCell<Vec<ApprovalRequest>>,
    pub answers: RefCell<VecDeque<Approval>>,
    /// When set, approvals wait until the test sends an answer through `waiting`.
    pub wait: Cell<bool>,
    pub waiting: RefCell<Vec<oneshot::Sender<Approval>>>,
}

impl Approver for FakeApprover {
    fn approve(&self, request: &ApprovalRequest) -> LocalBoxFuture<'static, Approval> {
        self.asked.borrow_mut().push(request.clone());
        if self.wait.get() {
            let (send, receive) = oneshot::channel();
            self.waiting.borrow_mut().push(send);
            return Box::pin(
                async move { receive.await.unwrap_or(Approval::Deny { reason: None }) },
            );
        }
        let answer = self
            .answers
            .borrow_mut()
            .pop_front()
            .unwrap_or(Approval::Allow);
        Box::pin(async move { answer })
    }
}

// ---------------------------------------------------------------- the harness

pub fn everything_tools() -> Vec<Value> {
    vec![
        json!({ "name": "echo", "description": "Echoes back the input",
                "inputSchema": { "type": "object", "properties": { "message": { "type": "string" } }, "required": ["message"] } }),
        json!({ "name": "add", "description": "Adds two numbers",
                "inputSchema": { "type": "object", "properties": { "a": { "type": "number" }, "b": { "type": "number" } }, "required": ["a", "b"] },
                "annotations": { "readOnlyHint": true } }),
        json!({ "name": "refresh", "inputSchema": { "type": "object" }, "_meta": { "ui": { "visibility": ["app"] } } }),
    ]
}

pub fn provider(dialect: Dialect) -> ProviderConfig {
    let base = match dialect {
        Dialect::OpenAiCompatible => "https://api.openai.com/v1",
        Dialect::Anthropic => "https://api.anthropic.com",
        Dialect::Gemini => "https://generativelanguage.googleapis.com/v1beta",
    };
    let model = match dialect {
        Dialect::OpenAiCompatible => "gpt-4o",
        Dialect::Anthropic => "claude-sonnet-4-5",
        Dialect::Gemini => "gemini-2.5-flash",
    };
    ProviderConfig::new(dialect, base, model, Some(ApiKey::new(KEY)))
}

pub struct Harness {
    pub pool: LocalPool,
    pub http: Rc<FakeHttp>,
    pub clock: Rc<TickingClock>,
    pub runner: Rc<FakeRunner>,
    pub approver: Rc<FakeApprover>,
    pub events: Rc<RefCell<Vec<ChatEvent>>>,
    pub chat: Rc<ChatLoop>,
}

impl Harness {
    /// A loop over server-everything's tools (echo asks, add is read-only) for `dialect`.
    pub fn new(dialect: Dialect, runner: FakeRunner, limits: Limits) -> Self {
        let tools = everything_tools();
        let set = ToolSet::build(
            dialect,
            &[ServerTools {
                server_id: "everything",
                tools: &tools,
            }],
        );
        Self::with_tools(provider(dialect), set, runner, limits)
    }

    pub fn with_tools(
        provider: ProviderConfig,
        tools: ToolSet,
        runner: FakeRunner,
        limits: Limits,
    ) -> Self {
        let http = Rc::new(FakeHttp::default());
        let clock = Rc::new(TickingClock::default());
        let runner = Rc::new(runner);
        let approver = Rc::new(FakeApprover::default());
        let events: Rc<RefCell<Vec<ChatEvent>>> = Rc::default();
        let sink = events.clone();
        let chat = Rc::new(ChatLoop::new(ChatSetup {
            http: http.clone(),
            clock: clock.clone(),
            provider,
            tools,
            runner: runner.clone(),
            approver: approver.clone(),
            limits,
            page_origin: PAGE_ORIGIN.to_owned(),
            on_event: Rc::new(move |event: &ChatEvent| sink.borrow_mut().push(event.clone())),
        }));
        Self {
            pool: LocalPool::new(),
            http,
            clock,
            runner,
            approver,
            events,
            chat,
        }
    }

    pub fn run<T: 'static>(&mut self, future: impl Future<Output = T> + 'static) -> T {
        self.pool.run_until(future)
    }

    /// Starts `future`; `settle` runs it as far as it goes.
    pub fn spawn<T: 'static>(
        &mut self,
        future: impl Future<Output = T> + 'static,
    ) -> Rc<RefCell<Option<T>>> {
        let done: Rc<RefCell<Option<T>>> = Rc::default();
        let slot = done.clone();
        self.pool
            .spawner()
            .spawn_local(async move {
                *slot.borrow_mut() = Some(future.await);
            })
            .expect("the pool is alive");
        done
    }

    pub fn settle(&mut self) {
        self.pool.run_until_stalled();
    }

    pub fn events(&self) -> Vec<ChatEvent> {
        self.events.borrow().clone()
    }
}
