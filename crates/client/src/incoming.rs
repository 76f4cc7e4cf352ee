//! Everything the server sends, on any stream: answers to our requests, its own requests,
//! and notifications. One entry point, `dispatch`, so every stream behaves the same.

use crate::{ClientEvent, ListKind, McpClient, Progress};
use futures::channel::oneshot;
use futures::future::LocalBoxFuture;
use mcp_lens_protocol::era::InputRequest;
use mcp_lens_protocol::error::{ErrorKind, McpError, Step};
use mcp_lens_protocol::jsonrpc::{
    decode_incoming, encode_error, encode_notification, encode_result, Incoming, RequestId,
    METHOD_NOT_FOUND,
};
use mcp_lens_protocol::large::{next_step_bytes, StepDecoder, FIRST_STEP_BYTES};
use mcp_lens_protocol::mcp;
use mcp_lens_protocol::tasks;
use mcp_lens_protocol::wire_log::summarize_decoded;
use rmcp::model::ProgressNotificationParam;
use serde_json::Map;
use serde_json::{json, Value};

/// A payload longer than this is read in steps ([`McpClient::dispatch_in_steps`]).
pub(crate) const READ_IN_STEPS: usize = 1 << 20;

/// JSON-RPC code for a server request the person declined or let expire.
pub const DECLINED: i32 = -1;
/// The most server requests (sampling, elicitation) waiting for a person at once; more are
/// declined at once.
pub const MAX_WAITING_FOR_PERSON: usize = 16;

impl McpClient {
    /// Routes every message in a payload. `answering` is the request whose POST carried the
    /// payload: an error without an id there can only be about that request.
    pub(crate) fn dispatch(&self, via: &'static str, payload: &str, answering: Option<&RequestId>) {
        self.dispatch_decoded(via, payload.to_owned(), decode_incoming(payload), answering);
    }

    /// [`Self::dispatch`] for a payload of any size: one over [`READ_IN_STEPS`] is read in
    /// steps (`protocol::large`) with a turn of the page's event loop before, between and
    /// after them, so neither reading it nor what the caller does with it (decoding, drawing)
    /// is one long task with the rest. The payload then goes to the wire log as it is (not a
    /// copy of megabytes).
    pub(crate) async fn dispatch_in_steps(
        &self,
        via: &'static str,
        payload: String,
        answering: Option<&RequestId>,
    ) {
        if payload.len() <= READ_IN_STEPS {
            let messages = decode_incoming(&payload);
            return self.dispatch_decoded(via, payload, messages, answering);
        }
        let mut decoder = StepDecoder::new(payload.len());
        // Steps timed to a few milliseconds each, whatever the machine's load and whether
        // the reading code is still unoptimized (its first use in the page).
        let mut bytes = FIRST_STEP_BYTES;
        loop {
            self.yield_now().await;
            let started = self.now_ms();
            if decoder.step(&payload, bytes) {
                break;
            }
            bytes = next_step_bytes(bytes, self.now_ms() - started);
        }
        self.yield_now().await;
        let messages = decoder.finish(&payload);
        self.dispatch_decoded(via, payload, messages, answering);
        self.yield_now().await;
    }

    fn dispatch_decoded(
        &self,
        via: &'static str,
        payload: String,
        messages: Vec<Incoming>,
        answering: Option<&RequestId>,
    ) {
        // Read once: the wire log's columns come from what was decoded.
        self.emit(crate::wire::received(
            &self.0.config.name,
            self.now_ms(),
            via,
            payload,
            summarize_decoded(&messages),
        ));
        // An unreadable payload that came as the answer to a request is that request's
        // answer: say what is wrong with it, rather than wait and report a closed stream.
        if let ([Incoming::Invalid { reason }], Some(id)) = (messages.as_slice(), answering) {
            self.emit(ClientEvent::Ignored {
                reason: reason.clone(),
            });
            self.resolve(
                id,
                Err(ErrorKind::InvalidAnswer {
                    detail: reason.clone(),
                }),
            );
            return;
        }
        for message in messages {
            match message {
                Incoming::Result { id, result } => self.resolve(&id, Ok(result)),
                Incoming::Error { id, error } => {
                    let kind = ErrorKind::from_jsonrpc(
                        error.code.0,
                        error.message.into_owned(),
                        error.data.as_ref(),
                    );
                    match id.as_ref().or(answering) {
                        Some(id) => self.resolve(id, Err(kind)),
                        None => self.emit(ClientEvent::Ignored {
                            reason: format!("an error without a request id: {kind}"),
                        }),
                    }
                }
                Incoming::Request { id, method, params } => self.server_request(id, method, params),
                Incoming::Notification { method, params } => self.notification(method, params),
                Incoming::Invalid { reason } => self.emit(ClientEvent::Ignored { reason }),
            }
        }
    }

    fn resolve(&self, id: &RequestId, answer: Result<Value, ErrorKind>) {
        let pending = self.0.pending.borrow_mut().take(id);
        match pending {
            Some(pending) => {
                let _ = pending.waiter.answer.send(answer);
            }
            None => self.emit(ClientEvent::Ignored {
                reason: format!("an answer for unknown request id {id}"),
            }),
        }
    }

    fn notification(&self, method: String, params: Option<Value>) {
        match method.as_str() {
            mcp::PROGRESS => self.progress(params.clone()),
            tasks::TASK_STATUS => match params.clone().map(serde_json::from_value::<tasks::Task>) {
                Some(Ok(task)) => self.emit(ClientEvent::TaskStatus(task)),
                _ => self.emit(ClientEvent::Ignored {
                    reason: "a task status notification that is not a task".to_owned(),
                }),
            },
            "notifications/tools/list_changed" => self.relist(ListKind::Tools),
            "notifications/prompts/list_changed" => self.relist(ListKind::Prompts),
            mcp::RESOURCES_LIST_CHANGED => {
                self.relist(ListKind::Resources);
                self.relist(ListKind::Templates);
            }
            _ => {}
        }
        self.emit(ClientEvent::Notification { method, params });
    }

    /// Progress resets its request's idle timeout and is reported to the page.
    fn progress(&self, params: Option<Value>) {
        let Some(progress) =
            params.and_then(|p| serde_json::from_value::<ProgressNotificationParam>(p).ok())
        else {
            return self.emit(ClientEvent::Ignored {
                reason: "a progress notification without a valid token and progress".to_owned(),
            });
        };
        let request = progress.progress_token.0;
        if let Some(pending) = self.0.pending.borrow().get(&request) {
            pending.waiter.activity.set(self.now_ms());
        }
        self.emit(ClientEvent::Progress(Progress {
            request,
            progress: progress.progress,
            total: progress.total,
            message: progress.message,
        }));
    }

    /// A list changed on the server: fetch its first page again and hand it to the page.
    fn relist(&self, kind: ListKind) {
        self.relist_when(kind, false);
    }

    /// Fetches a list once the page is idle after painting (what the connect result does not
    /// need): not in the frame that shows the result, nor in the tasks queued right behind it.
    pub(crate) fn relist_after_paint(&self, kind: ListKind) {
        self.relist_when(kind, true);
    }

    /// At most one re-list per kind is in flight: a change announced meanwhile is served by
    /// exactly one more re-list once it ends (however many announcements came), so the lists
    /// arrive in the order they were fetched and an older one never replaces a newer one.
    fn relist_when(&self, kind: ListKind, after_painting: bool) {
        if !self.0.relists.borrow_mut().start(kind) {
            return;
        }
        self.spawn_relist(kind, after_painting.then(|| self.0.runtime.clock.idle()));
    }

    /// Fetches a claimed kind, again as long as changes were announced meanwhile.
    fn spawn_relist(&self, kind: ListKind, painted: Option<LocalBoxFuture<'static, ()>>) {
        let client = self.background();
        self.spawn(async move {
            if let Some(painted) = painted {
                painted.await;
            }
            loop {
                // The first page, like connect: a paginating server's list starts over.
                let (update, next) = client.list_of(kind, None, 1).await;
                if !client.0.closed.get() {
                    client.emit(ClientEvent::ListChanged(update));
                    if let Some(cursor) = next {
                        client.emit(ClientEvent::NextCursor { kind, cursor });
                    }
                }
                if !client.0.relists.borrow_mut().finish(kind) {
                    break;
                }
            }
        });
    }

    /// Runs a list fetch of the connect path as the kind's one fetch in flight: a change
    /// announced while it runs is fetched again after it (as a list update).
    pub(crate) async fn connect_list<T>(
        &self,
        kind: ListKind,
        list: impl std::future::Future<Output = T>,
    ) -> T {
        let started = self.0.relists.borrow_mut().start(kind);
        let listed = list.await;
        if started && self.0.relists.borrow_mut().finish(kind) {
            self.spawn_relist(kind, None);
        }
        listed
    }

    /// A request from the server. `ping` and `roots/list` are answered at once; sampling and
    /// elicitation wait for a person (with a time limit); anything else is "method not found".
    fn server_request(&self, id: RequestId, method: String, params: Option<Value>) {
        if mcp::needs_a_person(&method)
            && self.0.awaiting_person.borrow().len() >= MAX_WAITING_FOR_PERSON
        {
            // The specification says clients SHOULD rate-limit server requests: a server
            // flooding the person with thousands of them gets each one past the limit declined.
            let body = encode_error(
                &id,
                DECLINED,
                &format!(
                    "{MAX_WAITING_FOR_PERSON} requests are already waiting for the person; this one was declined."
                ),
            );
            self.emit(ClientEvent::Answered {
                id,
                method,
                how: format!("declined: {MAX_WAITING_FOR_PERSON} requests were already waiting"),
            });
            self.send_in_background(body, Step::AnswerServer);
            return;
        }
        if mcp::needs_a_person(&method) {
            self.0.awaiting_person.borrow_mut().push(id.clone());
            self.expire_later(id.clone());
            self.emit(ClientEvent::ServerRequest { id, method, params });
            return;
        }
        let (body, how) = match method.as_str() {
            mcp::PING => (encode_result(&id, json!({})), "answered automatically"),
            mcp::ROOTS_LIST => (
                encode_result(&id, mcp::roots_result(&self.0.config.roots)),
                "answered with the configured roots",
            ),
            _ => (
                encode_error(
                    &id,
                    METHOD_NOT_FOUND,
                    &format!("mcp-lens does not handle {method}"),
                ),
                "declined: not supported",
            ),
        };
        self.emit(ClientEvent::Answered {
            id,
            method,
            how: how.to_owned(),
        });
        self.send_in_background(body, Step::AnswerServer);
    }

    /// Answers the requests embedded in an `input_required` result (2026-07-28), through the
    /// same paths as server-sent requests: roots from the configuration; sampling and
    /// elicitation by a person (`ClientEvent::ServerRequest`, answered with
    /// [`McpClient::answer_server_request`]). Returns the `inputResponses`.
    pub(crate) async fn answer_input_requests(
        &self,
        step: Step,
        requests: Vec<InputRequest>,
    ) -> Result<Map<String, Value>, McpError> {
        let mut responses = Map::new();
        for request in requests {
            let response = match request.method.as_str() {
                mcp::ROOTS_LIST => mcp::roots_result(&self.0.config.roots),
                method if mcp::needs_a_person(method) => {
                    let id = RequestId::String(format!("input {}", request.key).into());
                    let (answer, answered) = oneshot::channel();
                    self.0.input_waiters.borrow_mut().push((id.clone(), answer));
                    self.0.awaiting_person.borrow_mut().push(id.clone());
                    self.expire_later(id.clone());
                    self.emit(ClientEvent::ServerRequest {
                        id,
                        method: request.method.clone(),
                        params: request.params,
                    });
                    match answered.await {
                        Ok(Ok(result)) => result,
                        Ok(Err(_)) | Err(_) => {
                            return Err(McpError::new(
                                step,
                                ErrorKind::Declined {
                                    what: request.method,
                                },
                            ))
                        }
                    }
                }
                other => {
                    return Err(McpError::new(
                        step,
                        ErrorKind::InvalidAnswer {
                            detail: format!(
                                "the server asked for input this client cannot give ({other})"
                            ),
                        },
                    ))
                }
            };
            responses.insert(request.key, response);
        }
        Ok(responses)
    }

    /// Answers a request that waited for a person: `Ok(result)` or `Err((code, message))`.
    /// Returns false when it is no longer waiting (answered, expired, or disconnected).
    ///
    /// ```no_run
    /// use mcp_lens_client::{ClientEvent, McpClient};
    /// fn on_event(client: &McpClient, event: ClientEvent) {
    ///     if let ClientEvent::ServerRequest { id, method, .. } = event {
    ///         if method == "elicitation/create" {
    ///             let answer = serde_json::json!({ "action": "decline" });
    ///             client.answer_server_request(&id, Ok(answer));
    ///         }
    ///     }
    /// }
    /// ```
    pub fn answer_server_request(
        &self,
        id: &RequestId,
        outcome: Result<Value, (i32, String)>,
    ) -> bool {
        let was_waiting = {
            let mut awaiting = self.0.awaiting_person.borrow_mut();
            let before = awaiting.len();
            awaiting.retain(|waiting| waiting != id);
            awaiting.len() != before
        };
        if !was_waiting || self.0.closed.get() {
            return false;
        }
        // An input request of a 2026-07-28 round: the answer goes back to that round.
        let waiter = {
            let mut waiters = self.0.input_waiters.borrow_mut();
            let index = waiters.iter().position(|(waiting, _)| waiting == id);
            index.map(|index| waiters.remove(index).1)
        };
        if let Some(waiter) = waiter {
            let _ = waiter.send(outcome);
            return true;
        }
        let body = match outcome {
            Ok(result) => encode_result(id, result),
            Err((code, message)) => encode_error(id, code, &message),
        };
        self.send_in_background(body, Step::AnswerServer);
        true
    }

    /// Declines a person-answered request that nobody answered in time.
    fn expire_later(&self, id: RequestId) {
        let client = self.background();
        let limit = self.0.config.server_request_timeout_ms;
        let sleep = self.sleep(limit);
        self.spawn(async move {
            sleep.await;
            let message = format!("Nobody answered within {} seconds.", limit / 1000);
            if client.answer_server_request(&id, Err((DECLINED, message))) {
                client.emit(ClientEvent::ServerRequestExpired { id });
            }
        });
    }

    pub(crate) fn cancel_on_server(&self, id: &RequestId, reason: &str) {
        let body = encode_notification(
            mcp::CANCELLED,
            Some(&json!({ "requestId": id.clone().into_json_value(), "reason": reason })),
        );
        self.send_in_background(body, Step::Cancel);
    }

    /// Sends a message of the client's own (an answer to a server request, a cancellation)
    /// without waiting for it. Messages go out through the [`Outbox`], at most
    /// [`OUTBOX_BATCH`] per turn of the event loop: starting a fetch costs the page about
    /// half a millisecond, so the answers to a storm of 2,000 pings started at once would be
    /// one task of a second.
    pub(crate) fn send_in_background(&self, body: String, step: Step) {
        let mut outbox = self.0.outbox.borrow_mut();
        outbox.queue.push_back((body, step));
        if outbox.draining {
            return;
        }
        outbox.draining = true;
        drop(outbox);
        let client = self.background();
        self.spawn(async move { client.drain_outbox().await });
    }

    async fn drain_outbox(self) {
        loop {
            let batch: Vec<(String, Step)> = {
                let mut outbox = self.0.outbox.borrow_mut();
                if self.0.closed.get() {
                    outbox.queue.clear();
                }
                let take = outbox.queue.len().min(OUTBOX_BATCH);
                if take == 0 {
                    outbox.draining = false;
                    return;
                }
                outbox.queue.drain(..take).collect()
            };
            for (body, step) in batch {
                let client = self.clone();
                self.spawn(async move {
                    if let Err(kind) = client.post_message(&body).await {
                        client.emit(ClientEvent::Ignored {
                            reason: McpError::new(step, kind).to_string(),
                        });
                    }
                });
            }
            // The batch's fetches start when this task yields; the next batch waits for a
            // later turn (a timer, not a microtask: the page renders and takes input between).
            self.sleep(1).await;
        }
    }

    pub(crate) fn emit(&self, event: ClientEvent) {
        (self.0.on_event)(event);
    }
}

/// How many of the client's own messages start per turn of the event loop.
pub(crate) const OUTBOX_BATCH: usize = 12;

/// The client's own messages waiting to be sent (see [`McpClient::send_in_background`]).
#[derive(Default)]
pub(crate) struct Outbox {
    queue: std::collections::VecDeque<(String, Step)>,
    /// A task is sending them.
    draining: bool,
}

/// The re-list state of one list kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Relist {
    #[default]
    Idle,
    Running,
    /// Running, and a change was announced since it started.
    RunAgain,
}

/// Re-list states by [`ListKind`].
#[derive(Debug, Default)]
pub(crate) struct Relists {
    state: [Relist; 4],
}

impl Relists {
    /// Claims the kind's fetch: true when the caller should fetch now, false when one is in
    /// flight (which will then fetch once more).
    fn start(&mut self, kind: ListKind) -> bool {
        let state = &mut self.state[kind as usize];
        match state {
            Relist::Idle => {
                *state = Relist::Running;
                true
            }
            Relist::Running | Relist::RunAgain => {
                *state = Relist::RunAgain;
                false
            }
        }
    }

    /// A fetch ended: true when it must run once more (and stays claimed).
    fn finish(&mut self, kind: ListKind) -> bool {
        let state = &mut self.state[kind as usize];
        let again = *state == Relist::RunAgain;
        *state = if again { Relist::Running } else { Relist::Idle };
        again
    }
}
