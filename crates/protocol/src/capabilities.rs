//! What this client declares it can do, in `initialize` and in each request of the stateless
//! era: MCP's own capabilities and the extensions the page speaks. Above both [`crate::mcp`]
//! and [`crate::apps`], so neither needs the other.

use crate::apps;
use serde_json::{json, Value};

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
        capabilities["extensions"] = json!({ apps::EXTENSION_ID: apps::client_extension() });
    }
    capabilities
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
