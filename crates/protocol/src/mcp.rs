//! MCP on top of JSON-RPC: method names, the parameters this client sends, and decoding each
//! `result` into the rmcp type the request expects (never through rmcp's big message unions,
//! which would triple the wasm size).

use super::error::ErrorKind;
use serde::de::DeserializeOwned;
use serde_json::{json, Value};

pub const INITIALIZE: &str = "initialize";
pub const INITIALIZED: &str = "notifications/initialized";
pub const PING: &str = "ping";
pub const TOOLS_LIST: &str = "tools/list";
pub const TOOLS_CALL: &str = "tools/call";
pub const PROMPTS_LIST: &str = "prompts/list";
pub const PROMPTS_GET: &str = "prompts/get";
pub const RESOURCES_LIST: &str = "resources/list";
pub const RESOURCES_READ: &str = "resources/read";
pub const RESOURCES_SUBSCRIBE: &str = "resources/subscribe";
pub const RESOURCES_UNSUBSCRIBE: &str = "resources/unsubscribe";
/// Sent by the server for a subscribed resource that changed (`params.uri`).
pub const RESOURCES_UPDATED: &str = "notifications/resources/updated";
/// Sent by the server when its list of resources changed.
pub const RESOURCES_LIST_CHANGED: &str = "notifications/resources/list_changed";
pub const RESOURCE_TEMPLATES_LIST: &str = "resources/templates/list";
pub const SET_LOG_LEVEL: &str = "logging/setLevel";
pub const COMPLETE: &str = "completion/complete";
/// The levels `logging/setLevel` takes, least severe first (RFC 5424).
pub const LOG_LEVELS: [&str; 8] = [
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
];
pub const CANCELLED: &str = "notifications/cancelled";
pub const PROGRESS: &str = "notifications/progress";
pub const ROOTS_LIST: &str = "roots/list";
pub const SAMPLING_CREATE_MESSAGE: &str = "sampling/createMessage";
pub const ELICITATION_CREATE: &str = "elicitation/create";
/// The server's word that a URL-mode elicitation is done (2025-11-25).
pub const ELICITATION_COMPLETE: &str = "notifications/elicitation/complete";

/// Server requests that only a person can answer.
pub fn needs_a_person(method: &str) -> bool {
    matches!(method, SAMPLING_CREATE_MESSAGE | ELICITATION_CREATE)
}

/// The answer to `roots/list`.
pub fn roots_result(roots: &[(String, Option<String>)]) -> Value {
    let roots: Vec<Value> = roots
        .iter()
        .map(|(uri, name)| match name {
            Some(name) => json!({ "uri": uri, "name": name }),
            None => json!({ "uri": uri }),
        })
        .collect();
    json!({ "roots": roots })
}

/// Decodes a `result` into the type the request expects, or says why it does not fit.
pub fn decode_result<R: DeserializeOwned>(method: &str, result: Value) -> Result<R, ErrorKind> {
    serde_json::from_value(result).map_err(|err| ErrorKind::InvalidAnswer {
        detail: format!("the result of {method} does not match the MCP schema ({err})"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::{CallToolResult, ContentBlock, InitializeResult, ListToolsResult};

    #[test]
    #[allow(deprecated)] // rmcp marks roots deprecated (SEP-2577); 2025 servers still ask for them.
    fn roots_answer_in_the_protocol_shape() {
        let result = roots_result(&[
            ("file:///work".into(), Some("work".into())),
            ("file:///tmp".into(), None),
        ]);
        let parsed: rmcp::model::ListRootsResult = serde_json::from_value(result.clone()).unwrap();
        assert_eq!(parsed.roots.len(), 2);
        assert_eq!(result["roots"][1], json!({"uri": "file:///tmp"}));
    }

    #[test]
    fn decodes_recorded_results() {
        // Recorded from server-everything 2026.8.31 (trimmed).
        let init: InitializeResult = decode_result(
            INITIALIZE,
            json!({"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true},"prompts":{},"logging":{}},
                   "serverInfo":{"name":"mcp-servers/everything","title":"Everything Reference Server","version":"2.0.0"},
                   "instructions":"Testing server"}),
        )
        .unwrap();
        assert_eq!(init.server_info.name, "mcp-servers/everything");
        assert!(init.capabilities.tools.is_some());
        assert!(init.capabilities.resources.is_none());

        let tools: ListToolsResult = decode_result(
            TOOLS_LIST,
            json!({"tools":[{"name":"echo","description":"Echoes back the input string",
                    "inputSchema":{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}}]}),
        )
        .unwrap();
        assert_eq!(tools.tools[0].name, "echo");

        let call: CallToolResult = decode_result(
            TOOLS_CALL,
            json!({"content":[{"type":"text","text":"Echo: hi"}]}),
        )
        .unwrap();
        assert!(matches!(&call.content[0], ContentBlock::Text(t) if t.text == "Echo: hi"));
    }

    #[test]
    fn wrong_shapes_become_invalid_answer_errors() {
        let err = decode_result::<ListToolsResult>(TOOLS_LIST, json!({"tools": 5})).unwrap_err();
        let ErrorKind::InvalidAnswer { detail } = err else {
            panic!("wrong kind")
        };
        assert!(detail.starts_with("the result of tools/list does not match"));
    }
}
