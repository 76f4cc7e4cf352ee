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

/// The `initialize` parameters. Capabilities are declared honestly: roots are answered from
/// the roots the person configured; sampling and elicitation (form and URL modes) are
/// answered by a person in the page; `tasks` is declared empty: this client augments its own
/// tool calls with tasks (a requestor needs no capability for that) but receives none, so it
/// claims neither `tasks/list`, `tasks/cancel` nor task-augmented sampling or elicitation.
/// `apps`: the page renders MCP Apps, so the `io.modelcontextprotocol/ui` extension is declared.
pub fn initialize_params(version: &str, apps: bool) -> Value {
    json!({
        "protocolVersion": version,
        "capabilities": client_capabilities(apps),
        "clientInfo": { "name": "mcp-lens", "version": env!("CARGO_PKG_VERSION") }
    })
}

/// What this client can answer, in either era. `apps`: declare the MCP Apps extension
/// (`extensions["io.modelcontextprotocol/ui"]` with the MIME types rendered), only when the
/// UI that renders apps is there (a client library user without it declares nothing).
pub fn client_capabilities(apps: bool) -> Value {
    let mut capabilities = json!({
        "roots": {},
        "sampling": {},
        "elicitation": { "form": {}, "url": {} },
        "tasks": {}
    });
    if apps {
        capabilities["extensions"] =
            json!({ crate::apps::EXTENSION_ID: crate::apps::client_extension() });
    }
    capabilities
}

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
    fn initialize_params_ask_for_the_current_version_and_declare_what_the_page_answers() {
        let value = initialize_params(crate::streamable::PROTOCOL_VERSION, false);
        assert!(value["capabilities"].get("extensions").is_none());
        let with_apps = initialize_params(crate::streamable::PROTOCOL_VERSION, true);
        assert_eq!(
            with_apps["capabilities"]["extensions"]["io.modelcontextprotocol/ui"]["mimeTypes"],
            json!(["text/html;profile=mcp-app"])
        );
        assert_eq!(value["protocolVersion"], "2025-11-25");
        assert_eq!(value["clientInfo"]["name"], "mcp-lens");
        // rmcp's own type accepts them: the shape is the protocol's.
        let params: rmcp::model::InitializeRequestParams =
            serde_json::from_value(value.clone()).unwrap();
        assert!(params.capabilities.roots.is_some());
        assert!(params.capabilities.sampling.is_some());
        assert!(params.capabilities.elicitation.is_some());
        assert_eq!(value["capabilities"]["tasks"], json!({}));
    }

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
