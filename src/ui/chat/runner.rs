//! The chat's tool calls, through the app's MCP clients (the one `Manager`): the same requests,
//! progress, timeouts, input rounds and tasks as the tool panel's. A call the chat no longer
//! wants (the person stopped it) is cancelled: its fetch aborted and the server told
//! (`notifications/cancelled`, or `tasks/cancel` for a task).

use crate::client::McpClient;
use crate::protocol::jsonrpc::RequestId;
use futures::future::LocalBoxFuture;
use leptos::prelude::*;
use mcp_lens_chat::chat_loop::ToolRunner;
use serde_json::{Map, Value};
use std::rc::Rc;

/// The chat's servers by the name the model's tool set knows them by.
pub struct PageTools {
    /// (name in the tool set, connection id in the manager).
    pub servers: Vec<(String, String)>,
    /// The MCP request running now, for its progress.
    pub running: RwSignal<Option<(String, RequestId)>>,
}

impl ToolRunner for PageTools {
    fn call(
        &self,
        server_id: &str,
        tool_name: &str,
        arguments: Value,
    ) -> LocalBoxFuture<'static, Result<Value, String>> {
        let Some((_, connection_id)) = self.servers.iter().find(|(name, _)| name == server_id)
        else {
            let text = format!("{server_id} is not one of the chat's servers.");
            return Box::pin(async move { Err(text) });
        };
        let client = match crate::ui::store::manager().client(connection_id) {
            Ok(client) => client,
            Err(error) => {
                let text = format!("{server_id} is not connected ({error}).");
                return Box::pin(async move { Err(text) });
            }
        };
        let arguments = match arguments {
            Value::Object(map) => map,
            Value::Null => Map::new(),
            other => {
                let text = format!("The arguments are not a JSON object: {other}");
                return Box::pin(async move { Err(text) });
            }
        };
        let running = self.running;
        let connection_id = connection_id.clone();
        if client.runs_as_task(tool_name) {
            return as_task(client, tool_name, arguments, running, connection_id);
        }
        let (id, call) = client.call_tool_json(tool_name, arguments);
        running.try_set(Some((connection_id, id.clone())));
        let mut guard = CancelOnDrop {
            client: Some(client),
            id,
        };
        Box::pin(async move {
            let outcome = call.await;
            guard.disarm();
            running.try_set(None);
            outcome.map_err(|error| error.to_string())
        })
    }
}

/// A call that runs as a task (the tool requires one, or allows one and the server offers
/// them): created, followed to its end, its result given as the call's.
fn as_task(
    client: McpClient,
    tool: &str,
    arguments: Map<String, Value>,
    running: RwSignal<Option<(String, RequestId)>>,
    connection_id: String,
) -> LocalBoxFuture<'static, Result<Value, String>> {
    let (id, created) = client.call_tool_as_task(tool, arguments, None);
    running.try_set(Some((connection_id, id.clone())));
    let mut guard = CancelOnDrop {
        client: Some(client.clone()),
        id,
    };
    Box::pin(async move {
        let task = created.await.map_err(|error| error.to_string())?;
        guard.disarm();
        let task_guard = CancelTaskOnDrop {
            client: Some(client.clone()),
            task_id: task.task_id.clone(),
        };
        let result = client.follow_task(task, Rc::new(|_| {})).await;
        drop(task_guard.disarm());
        running.try_set(None);
        match result {
            Ok(Some(result)) => serde_json::to_value(result).map_err(|e| e.to_string()),
            Ok(None) => Err("The task ended without a result.".to_owned()),
            Err(error) => Err(error.to_string()),
        }
    })
}

/// Cancels a request whose answer is no longer wanted.
struct CancelOnDrop {
    client: Option<McpClient>,
    id: RequestId,
}

impl CancelOnDrop {
    /// The answer came: nothing to cancel.
    fn disarm(&mut self) {
        self.client = None;
    }
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if let Some(client) = self.client.take() {
            client.cancel(&self.id);
        }
    }
}

/// Cancels a task whose result is no longer wanted.
struct CancelTaskOnDrop {
    client: Option<McpClient>,
    task_id: String,
}

impl CancelTaskOnDrop {
    fn disarm(mut self) -> Self {
        self.client = None;
        self
    }
}

impl Drop for CancelTaskOnDrop {
    fn drop(&mut self) {
        if let Some(client) = self.client.take() {
            let task_id = std::mem::take(&mut self.task_id);
            leptos::task::spawn_local(async move {
                let _ = client.cancel_task(&task_id).await;
            });
        }
    }
}
