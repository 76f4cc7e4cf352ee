//! Everything the server sends, on any stream: answers to our requests, its own requests,
//! and notifications. One entry point, the [`Inbox`] every transport hands its payloads to,
//! so every stream behaves the same.

use crate::client::McpClient;
use crate::events::{ClientEvent, ListKind, Progress};
use crate::transport::Inbox;
use crate::wire;
use futures::future::LocalBoxFuture;
use mcp_lens_protocol::error::ErrorKind;
use mcp_lens_protocol::jsonrpc::{decode_incoming, Incoming, RequestId};
use mcp_lens_protocol::large::{next_step_bytes, StepDecoder, FIRST_STEP_BYTES};
use mcp_lens_protocol::mcp;
use mcp_lens_protocol::task_extension::{self, read_task, TaskShape};
use mcp_lens_protocol::tasks;
use mcp_lens_protocol::wire_log::{summarize_decoded, Via};
use rmcp::model::ProgressNotificationParam;
use serde_json::Value;

/// A payload longer than this is read in steps ([`McpClient::dispatch_in_steps`]).
const READ_IN_STEPS: usize = 1 << 20;

impl Inbox for McpClient {
    fn deliver<'a>(
        &'a self,
        via: Via,
        payload: String,
        answering: Option<&'a RequestId>,
    ) -> LocalBoxFuture<'a, ()> {
        Box::pin(self.dispatch_in_steps(via, payload, answering))
    }

    fn waiting(&self, id: &RequestId) -> bool {
        self.engine().waiting(id)
    }

    fn lost(&self, ended: ErrorKind, reason: String) {
        if self.session().is_closed() {
            return; // we closed it
        }
        // Nothing else can deliver answers: fail what is waiting, and say so.
        self.fail_pending(ended);
        self.emit(ClientEvent::ConnectionLost { reason });
    }
}

impl McpClient {
    /// Routes every message in a payload of any size. `answering` is the request whose
    /// stream carried the payload: an error without an id there can only be about that
    /// request. A payload over [`READ_IN_STEPS`] is read in steps (`protocol::large`) with a
    /// turn of the page's event loop before, between and after them, so neither reading it
    /// nor what the caller does with it (decoding, drawing) is one long task with the rest.
    /// The payload then goes to the wire log as it is (not a copy of megabytes).
    async fn dispatch_in_steps(&self, via: Via, payload: String, answering: Option<&RequestId>) {
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
        via: Via,
        payload: String,
        messages: Vec<Incoming>,
        answering: Option<&RequestId>,
    ) {
        // Read once: the wire log's columns come from what was decoded.
        self.emit(wire::received(
            &self.config().name,
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
        if !self.engine().resolve(id, answer) {
            self.emit(ClientEvent::Ignored {
                reason: format!("an answer for unknown request id {id}"),
            });
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
            "notifications/tools/list_changed" => self.changed(ListKind::Tools),
            "notifications/prompts/list_changed" => self.changed(ListKind::Prompts),
            mcp::RESOURCES_LIST_CHANGED => {
                self.changed(ListKind::Resources);
                self.changed(ListKind::Templates);
            }
            task_extension::TASK_NOTIFICATION => {
                match params
                    .as_ref()
                    .and_then(|p| read_task(p, TaskShape::Extension))
                {
                    Some(task) => self.emit(ClientEvent::ExtensionTaskStatus(task)),
                    None => self.emit(ClientEvent::Ignored {
                        reason: "a task notification that is not a task".to_owned(),
                    }),
                }
            }
            _ => {}
        }
        self.emit(ClientEvent::Notification { method, params });
    }

    /// The server said a list changed: stale whatever its lifetime said, and listed again.
    fn changed(&self, kind: ListKind) {
        self.lists().invalidate(kind);
        self.relist(kind);
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
        self.engine().progressed(&request, self.now_ms());
        self.emit(ClientEvent::Progress(Progress {
            request,
            progress: progress.progress,
            total: progress.total,
            message: progress.message,
        }));
    }
}
