//! MCP on top of JSON-RPC: method names, the parameters this client sends, and decoding each
//! `result` into the rmcp type the request expects (never through rmcp's big message unions,
//! which would triple the wasm size).

use super::error::ErrorKind;
use rmcp::model::{ClientCapabilities, Implementation, InitializeRequestParams, ProtocolVersion};
use serde::de::DeserializeOwned;
use serde_json::Value;

pub const INITIALIZE: &str = "initialize";
pub const INITIALIZED: &str = "notifications/initialized";
pub const PING: &str = "ping";
pub const TOOLS_LIST: &str = "tools/list";
pub const TOOLS_CALL: &str = "tools/call";
pub const PROMPTS_LIST: &str = "prompts/list";
pub const PROMPTS_GET: &str = "prompts/get";
pub const RESOURCES_LIST: &str = "resources/list";
pub const RESOURCES_READ: &str = "resources/read";

/// The `initialize` parameters. Capabilities are declared honestly: this client answers no
/// server-to-client requests but `ping` yet, so it declares none.
pub fn initialize_params() -> InitializeRequestParams {
    InitializeRequestParams::new(
        ClientCapabilities::default(),
        Implementation::new("mcp-lens", env!("CARGO_PKG_VERSION")),
    )
    .with_protocol_version(ProtocolVersion::V_2025_11_25)
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
    use serde_json::json;

    #[test]
    fn initialize_params_ask_for_the_current_version_and_name_the_client() {
        let value = serde_json::to_value(initialize_params()).unwrap();
        assert_eq!(
            value["protocolVersion"],
            crate::protocol::streamable::PROTOCOL_VERSION
        );
        assert_eq!(value["clientInfo"]["name"], "mcp-lens");
        assert_eq!(value["capabilities"], json!({}));
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
