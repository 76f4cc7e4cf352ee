//! What an item's panel does when asked (its controller): call the tool (as a task, for its MCP
//! App, or plainly; the server may answer with a task of the extension), get the prompt or read
//! the resource, and say how it went as an [`Outcome`]. A plain async function, run by the
//! panel's Leptos `Action` (`PanelState::action`, as a `Job`); `panel.rs` draws.

use super::model::Kind;
use super::outcome::Outcome;
use crate::client::{McpClient, ToolAnswer};
use crate::protocol::error::{ErrorKind, McpError, Step};
use crate::protocol::jsonrpc::RequestId;
use crate::protocol::mcp::{decode_result, TOOLS_CALL};
use crate::ui::apps::AppCall;
use crate::ui::store::Connection;
use leptos::prelude::*;
use rmcp::model::CallToolResult;
use serde_json::{Map, Value};

/// One run of a panel's action: the item, what its form holds, and the signals of the panel
/// that the run reports to.
#[derive(Clone)]
pub(super) struct Run {
    pub connection: Connection,
    pub client: McpClient,
    pub kind: Kind,
    /// The tool's or prompt's name, or the resource's URI (a template's, expanded).
    pub key: String,
    /// The tool's MCP App (`ui://` URI), when it has one.
    pub ui: Option<String>,
    pub arguments: Map<String, Value>,
    /// The tool's MCP App for the last result: closed before a new call, set by one that has it.
    pub app: RwSignal<Option<AppCall>>,
    /// The call in flight: its id is the progress token and what Cancel takes.
    pub running: RwSignal<Option<RequestId>>,
}

/// Runs the action and says how it went: a result, a task, or an error as a sentence (a
/// request the browser blocked, with the CORS diagnosis when the tool mirrors headers).
pub(super) async fn run(run: Run) -> Outcome {
    let Run {
        connection,
        client,
        kind,
        key,
        ui,
        arguments,
        app,
        running,
    } = run;
    // A call the browser blocks is most likely its mirrored headers (SEP-2243) refused by the
    // server's CORS settings: the diagnosis names them.
    let cors = if kind == Kind::Tools {
        client.tool_cors_refusal(&key)
    } else {
        None
    };
    // The last run's app is torn down (its answer awaited, briefly) before its frame goes and
    // the tool runs again.
    if kind == Kind::Tools {
        connection.close_apps(Some(&key)).await;
    }
    if app.try_with_untracked(Option::is_some) == Some(true) {
        let _ = app.try_set(None);
    }
    let result = match kind {
        Kind::Tools if client.runs_as_task(&key) => {
            let (id, call) = client.call_tool_as_task(&key, arguments, None);
            running.set(Some(id.clone()));
            call.await.map(|task| {
                let task_id = task.task_id.clone();
                crate::ui::tasks::follow(connection, client.clone(), key.clone(), id, task);
                Outcome::Task(task_id)
            })
        }
        Kind::Tools if ui.is_some() => {
            // A tool with an MCP App: its result as the server sent it goes to the app
            // (undecoded: nothing the server added is lost, and no serializer of rmcp's types
            // is needed), decoded for the panel.
            let app_arguments = arguments.clone();
            let (id, call) = client.call_tool_json(&key, arguments);
            running.set(Some(id.clone()));
            let raw = call.await;
            let result = raw.clone().and_then(|value| {
                decode_result::<CallToolResult>(TOOLS_CALL, value)
                    .map_err(|kind| McpError::new(Step::CallTool, kind))
            });
            if let (Ok(raw), Ok(_), Some(uri)) = (raw, &result, ui) {
                let _ = app.try_set(Some(AppCall {
                    connection,
                    tool: key.clone(),
                    uri,
                    arguments: app_arguments,
                    result: Some(raw),
                    call_id: Some(id),
                }));
            }
            result.map(Outcome::Tool)
        }
        Kind::Tools => {
            // The server may answer with a task (the tasks extension, SEP-2663).
            let (id, call) = client.call_tool_or_task(&key, arguments);
            running.set(Some(id.clone()));
            call.await.map(|answer| match answer {
                ToolAnswer::Result(result) => Outcome::Tool(result),
                ToolAnswer::Task(task) => {
                    let task_id = task.task_id.clone();
                    crate::ui::tasks::follow_extension(
                        connection,
                        client.clone(),
                        key.clone(),
                        id,
                        task,
                    );
                    Outcome::Task(task_id)
                }
            })
        }
        Kind::Prompts => client
            .get_prompt(&key, arguments)
            .await
            .map(Outcome::Prompt),
        Kind::Resources => client.read_resource(&key).await.map(Outcome::Resource),
    };
    running.set(None);
    result.unwrap_or_else(|error| failed(error, cors.as_deref()))
}

/// A failed request as an outcome: pages to visit (-32042), a cancel said quietly, or the
/// error's sentence (with the CORS diagnosis for a request the browser blocked).
fn failed(error: McpError, cors: Option<&str>) -> Outcome {
    match error.kind {
        ErrorKind::UrlElicitationRequired {
            ref elicitations, ..
        } => Outcome::NeedsPages(error.to_string(), elicitations.clone()),
        ErrorKind::Network { .. } if cors.is_some() => {
            Outcome::Failed(format!("{error} Most likely {}.", cors.unwrap_or_default()))
        }
        ErrorKind::Cancelled => Outcome::Cancelled,
        _ => Outcome::Failed(error.to_string()),
    }
}

/// Subscribes to a resource's updates (`resources/subscribe`) or stops them: whether it is
/// subscribed now, and the server's refusal as an outcome. Unsubscribed even if the server
/// refused: its updates are not wanted.
pub(super) async fn set_subscription(
    client: McpClient,
    uri: String,
    subscribe: bool,
) -> (bool, Option<Outcome>) {
    let done = if subscribe {
        client.subscribe_resource(&uri).await
    } else {
        client.unsubscribe_resource(&uri).await
    };
    let refused = done
        .as_ref()
        .err()
        .map(|error| Outcome::Failed(error.to_string()));
    (subscribe && done.is_ok(), refused)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn network() -> McpError {
        McpError::new(
            Step::CallTool,
            ErrorKind::Network {
                detail: "Failed to fetch".into(),
            },
        )
    }

    #[test]
    fn a_blocked_call_names_the_cors_diagnosis_when_there_is_one() {
        let diagnosed = failed(
            network(),
            Some("the server's CORS settings refuse Mcp-Param-City"),
        );
        assert!(
            matches!(&diagnosed, Outcome::Failed(m) if m.ends_with(" Most likely the server's CORS settings refuse Mcp-Param-City.") && m.contains("could not be reached")),
            "{diagnosed:?}"
        );
        let plain = failed(network(), None);
        assert!(matches!(&plain, Outcome::Failed(m) if !m.contains("Most likely")));
        assert!(plain.failed());
    }

    #[test]
    fn a_cancel_is_said_quietly_and_pages_to_visit_are_kept() {
        let cancelled = failed(McpError::new(Step::CallTool, ErrorKind::Cancelled), None);
        assert!(matches!(cancelled, Outcome::Cancelled));
        assert!(!cancelled.failed());
        let pages = McpError::new(
            Step::CallTool,
            ErrorKind::UrlElicitationRequired {
                message: "Visit the page first".into(),
                elicitations: Vec::new(),
            },
        );
        let needs = failed(pages, Some("ignored for a server that answered"));
        assert!(
            matches!(&needs, Outcome::NeedsPages(m, pages) if m.contains("Visit the page first") && pages.is_empty())
        );
    }
}
