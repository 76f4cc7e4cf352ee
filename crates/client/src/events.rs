//! The client's public data: what it reports ([`ClientEvent`]), what a connect found
//! ([`ServerState`]), and the lists and their pages. Plain values, no behaviour.

use mcp_lens_protocol::error::McpError;
use mcp_lens_protocol::jsonrpc::RequestId;
use mcp_lens_protocol::task_extension::AnyTask;
use mcp_lens_protocol::tasks::Task;
use mcp_lens_protocol::transport_choice::TransportUsed;
use rmcp::model::{InitializeResult, Prompt, Resource, ResourceTemplate, Tool};
use serde_json::Value;
use std::rc::Rc;

/// Where the client's events go: the `on_event` callback given to connect, shared by the
/// client and the layers that report (the wire log).
pub(crate) type Events = Rc<dyn Fn(ClientEvent)>;

/// Something the server said, or that the client noticed, outside of a request's answer.
/// Handed to the `on_event` callback given to [`McpClient::connect`](crate::McpClient::connect).
///
/// ```
/// use mcp_lens_client::ClientEvent;
/// fn on_event(event: ClientEvent) {
///     match event {
///         ClientEvent::Progress(progress) => println!("{}: {}", progress.request, progress.progress),
///         ClientEvent::ConnectionLost { reason } => eprintln!("{reason}"),
///         ClientEvent::Wire(_) | ClientEvent::WireAnswer(_) => {} // the wire log
///         other => println!("{other:?}"),
///     }
/// }
/// on_event(ClientEvent::Ignored { reason: "an answer for unknown request id 7".to_owned() });
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum ClientEvent {
    Notification {
        method: String,
        params: Option<Value>,
    },
    /// A request from the server that waits for a person (sampling, elicitation): answer it
    /// with [`McpClient::answer_server_request`](crate::McpClient::answer_server_request).
    ServerRequest {
        id: RequestId,
        method: String,
        params: Option<Value>,
    },
    /// A server request nobody answered in time; it was declined.
    ServerRequestExpired { id: RequestId },
    /// A server request the client answered by itself (ping, roots/list, unsupported ones).
    Answered {
        id: RequestId,
        method: String,
        how: String,
    },
    /// Progress of one of our requests (its id is the progress token).
    Progress(Progress),
    /// A task's status changed (`notifications/tasks/status`, also reported as a
    /// `Notification`). Merge it with what polling saw through [`Task::supersedes`].
    TaskStatus(Task),
    /// A task of the tasks extension (SEP-2663) changed: `notifications/tasks`, the whole
    /// task as `tasks/get` would give it (also reported as a `Notification`). Merge it
    /// through [`AnyTask::supersedes`].
    ExtensionTaskStatus(AnyTask),
    /// A list changed on the server and was fetched again: its first page (or, for the
    /// resource templates after connect, their first page).
    ListChanged(ListUpdate),
    /// The list just updated (by the `ListChanged` before this event) has more pages:
    /// continue it with [`McpClient::list_more`](crate::McpClient::list_more). No such event means it is complete.
    NextCursor { kind: ListKind, cursor: String },
    /// A message that was logged and otherwise ignored (unknown id, malformed JSON, ...).
    Ignored { reason: String },
    /// The stream that carried the server's messages ended: the session is unusable.
    ConnectionLost { reason: String },
    /// A message or HTTP exchange, for the wire log (already redacted).
    Wire(mcp_lens_protocol::wire_log::WireEntry),
    /// The answer to (or failure of) an HTTP request logged as pending.
    WireAnswer(mcp_lens_protocol::wire_log::WireAnswer),
    /// The server lost the session; a new one was initialized and the request replayed.
    SessionRenewed { reason: String },
    /// The server offers no stream for its own messages (no standalone GET stream, or no
    /// `subscriptions/listen`): a fact about the server, said once per session.
    NoServerStream { reason: String },
}

/// What an event costs to keep besides its server text (the enum, ids, a list slot).
const EVENT_OVERHEAD: usize = 64;

impl ClientEvent {
    /// Cuts the server's text this event carries (a notification's method and params, a
    /// reason, a progress message) to about `max_bytes`, marking each cut, so a list that
    /// shows events can keep many without keeping megabytes of each. Returns
    /// [`ClientEvent::held_bytes`] after the cut.
    pub fn shrink(&mut self, max_bytes: usize) -> usize {
        use mcp_lens_protocol::shrink::{shrink_json, shrink_text};
        let name_bytes = max_bytes.min(1024);
        match self {
            ClientEvent::Notification { method, params }
            | ClientEvent::ServerRequest { method, params, .. } => {
                shrink_text(method, name_bytes);
                if let Some(params) = params {
                    shrink_json(params, max_bytes);
                }
            }
            ClientEvent::Answered { method, how, .. } => {
                shrink_text(method, name_bytes);
                shrink_text(how, max_bytes);
            }
            ClientEvent::Ignored { reason }
            | ClientEvent::ConnectionLost { reason }
            | ClientEvent::SessionRenewed { reason }
            | ClientEvent::NoServerStream { reason } => {
                shrink_text(reason, max_bytes);
            }
            ClientEvent::Progress(progress) => {
                if let Some(message) = &mut progress.message {
                    shrink_text(message, max_bytes);
                }
            }
            ClientEvent::Wire(entry) => {
                shrink_text(&mut entry.body, max_bytes);
            }
            ClientEvent::ExtensionTaskStatus(task) => {
                use mcp_lens_protocol::task_extension::TaskOutcome;
                if let Some(message) = &mut task.status_message {
                    shrink_text(message, max_bytes);
                }
                match &mut task.outcome {
                    TaskOutcome::Completed(value) | TaskOutcome::Failed(value) => {
                        shrink_json(value, max_bytes);
                    }
                    TaskOutcome::InputRequired(requests) => {
                        for request in requests {
                            if let Some(params) = &mut request.params {
                                shrink_json(params, max_bytes);
                            }
                        }
                    }
                    TaskOutcome::Nothing => {}
                }
            }
            ClientEvent::ServerRequestExpired { .. }
            | ClientEvent::TaskStatus(_)
            | ClientEvent::ListChanged(_)
            | ClientEvent::NextCursor { .. }
            | ClientEvent::WireAnswer(_) => {}
        }
        self.held_bytes()
    }

    /// About the bytes this event holds of server text (what [`ClientEvent::shrink`] cuts),
    /// plus a fixed overhead. Lists it carries (a list change) count as the overhead only:
    /// they are not kept in an events list.
    pub fn held_bytes(&self) -> usize {
        use mcp_lens_protocol::shrink::json_bytes;
        EVENT_OVERHEAD
            + match self {
                ClientEvent::Notification { method, params }
                | ClientEvent::ServerRequest { method, params, .. } => {
                    method.len() + params.as_ref().map_or(0, json_bytes)
                }
                ClientEvent::Answered { method, how, .. } => method.len() + how.len(),
                ClientEvent::Ignored { reason }
                | ClientEvent::ConnectionLost { reason }
                | ClientEvent::SessionRenewed { reason }
                | ClientEvent::NoServerStream { reason } => reason.len(),
                ClientEvent::Progress(progress) => progress.message.as_ref().map_or(0, String::len),
                ClientEvent::Wire(entry) => entry.body.len(),
                ClientEvent::ExtensionTaskStatus(task) => {
                    use mcp_lens_protocol::task_extension::TaskOutcome;
                    task.status_message.as_ref().map_or(0, String::len)
                        + match &task.outcome {
                            TaskOutcome::Completed(value) | TaskOutcome::Failed(value) => {
                                json_bytes(value)
                            }
                            TaskOutcome::InputRequired(requests) => requests
                                .iter()
                                .map(|r| r.params.as_ref().map_or(0, json_bytes))
                                .sum(),
                            TaskOutcome::Nothing => 0,
                        }
                }
                ClientEvent::ServerRequestExpired { .. }
                | ClientEvent::TaskStatus(_)
                | ClientEvent::ListChanged(_)
                | ClientEvent::NextCursor { .. }
                | ClientEvent::WireAnswer(_) => 0,
            }
    }
}

/// Progress of a request (a tool call's id is its progress token).
///
/// ```
/// use mcp_lens_client::Progress;
/// use mcp_lens_client::protocol::jsonrpc::RequestId;
/// let progress = Progress { request: RequestId::Number(3), progress: 1.0, total: Some(4.0), message: None };
/// assert_eq!(progress.total.map(|total| progress.progress / total), Some(0.25));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    pub request: RequestId,
    pub progress: f64,
    pub total: Option<f64>,
    pub message: Option<String>,
}

/// The lists a server may offer (and announce changes of).
///
/// ```
/// use mcp_lens_client::ListKind;
/// assert_ne!(ListKind::Resources, ListKind::Templates);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListKind {
    Tools,
    Prompts,
    Resources,
    Templates,
}

/// One page of a list and the cursor of the next one (`None`: the list is complete).
///
/// ```
/// use mcp_lens_client::ListPage;
/// let page = ListPage { items: vec!["a"], next_cursor: Some("2".to_owned()) };
/// assert!(page.next_cursor.is_some());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ListPage<T> {
    pub items: Vec<T>,
    pub next_cursor: Option<String>,
}

/// The `nextCursor` of each list as loaded so far (connect loads the first page of each):
/// `None` for a list that is complete.
///
/// ```
/// use mcp_lens_client::{Cursors, ListKind};
/// let mut cursors = Cursors::default();
/// cursors.set(ListKind::Tools, Some("page-2".to_owned()));
/// assert_eq!(cursors.get(ListKind::Tools), Some("page-2"));
/// assert_eq!(cursors.get(ListKind::Prompts), None);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Cursors([Option<String>; 4]);

impl Cursors {
    pub fn get(&self, kind: ListKind) -> Option<&str> {
        self.0[kind as usize].as_deref()
    }

    pub fn set(&mut self, kind: ListKind, cursor: Option<String>) {
        self.0[kind as usize] = cursor;
    }
}

/// A list fetched again after the server announced a change (or, for the resource templates,
/// after the connect result was painted). Per kind, updates arrive in the order they were
/// fetched, at most one fetch in flight.
///
/// ```
/// use mcp_lens_client::{ClientEvent, ListUpdate};
/// fn on_event(event: ClientEvent) {
///     if let ClientEvent::ListChanged(ListUpdate::Tools(Ok(tools))) = event {
///         println!("{} tools now", tools.len());
///     }
/// }
/// on_event(ClientEvent::ListChanged(ListUpdate::Tools(Ok(Vec::new()))));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum ListUpdate {
    Tools(Result<Vec<Tool>, McpError>),
    Prompts(Result<Vec<Prompt>, McpError>),
    Resources(Result<Vec<Resource>, McpError>),
    Templates(Result<Vec<ResourceTemplate>, McpError>),
}

/// Everything the server offered at connect time. A list the server does not offer is `None`.
///
/// ```no_run
/// # async fn run() -> Result<(), mcp_lens_client::protocol::error::McpError> {
/// use mcp_lens_client::{ClientConfig, McpClient};
/// let (_client, state) = McpClient::connect(ClientConfig::new("http://127.0.0.1:3001/mcp"), |_| {}).await?;
/// println!("{} over {} ({})", state.info.server_info.name, state.transport.label(), state.era_reason);
/// if let Some(Err(error)) = &state.prompts {
///     eprintln!("prompts: {error}");
/// }
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct ServerState {
    pub info: InitializeResult,
    /// The transport in use and why it was chosen.
    pub transport: TransportUsed,
    /// Why this protocol era (stateless 2026-07-28, or the handshake) is in use.
    pub era_reason: String,
    /// The reason is a problem the person should fix (the browser blocked `server/discover`:
    /// the server's CORS settings lack the 2026-07-28 headers), not just a fact.
    pub era_warning: bool,
    pub tools: Option<Result<Vec<Tool>, McpError>>,
    pub prompts: Option<Result<Vec<Prompt>, McpError>>,
    pub resources: Option<Result<Vec<Resource>, McpError>>,
    /// Fetched after the connect result is painted; `None` until then (or when the server
    /// offers no resources).
    pub templates: Option<Result<Vec<ResourceTemplate>, McpError>>,
    /// Where each list continues: connect loads one page of each, so a server that
    /// paginates leaves a cursor here (see [`McpClient::list_more`](crate::McpClient::list_more)).
    pub more: Cursors,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_flooding_notification_is_kept_small_and_still_says_what_it_was() {
        let mut event = ClientEvent::Notification {
            method: "notifications/message".to_owned(),
            params: Some(
                json!({ "level": "info", "logger": "flood", "data": "x".repeat(10 << 20) }),
            ),
        };
        let held = event.shrink(16 * 1024);
        assert!(held < 16 * 1024 + 200, "{held}");
        assert_eq!(held, event.held_bytes());
        let ClientEvent::Notification { method, params } = &event else {
            unreachable!("still a notification");
        };
        assert_eq!(method, "notifications/message");
        let params = params.as_ref().expect("params kept");
        assert_eq!(params["logger"], "flood");
        assert!(params["data"]
            .as_str()
            .is_some_and(|data| data.ends_with("more bytes)")));
        // A reason of server text is cut too; a small event is left as it is.
        let mut ignored = ClientEvent::Ignored {
            reason: "y".repeat(1 << 20),
        };
        assert!(ignored.shrink(1_000) < 1_200);
        let mut small = ClientEvent::Ignored {
            reason: "an answer for unknown request id 7".to_owned(),
        };
        let before = small.clone();
        small.shrink(1_000);
        assert_eq!(small, before);
    }
}
