//! What the host sends the app: requests, notifications, results and errors, with the
//! JSON-RPC error codes it answers with.

use crate::apps::spec::methods as m;
use crate::error::excerpt;
use crate::jsonrpc::RequestId;
use serde_json::{json, Map, Value};

/// Longest error message passed on to the app (or kept from it).
pub const MAX_ERROR_CHARS: usize = 1_000;

/// JSON-RPC error codes the host answers with.
pub mod codes {
    /// Not a valid request object.
    pub const INVALID_REQUEST: i32 = -32600;
    /// The SDK's answer to a method without a handler (and to capabilities not declared).
    pub const METHOD_NOT_FOUND: i32 = -32601;
    /// Parameters of the wrong shape; also a tool the app may not call (MCP answers an
    /// unknown tool with -32602, and an app-hidden tool is unknown to the app).
    pub const INVALID_PARAMS: i32 = -32602;
    pub const INTERNAL_ERROR: i32 = -32603;
    /// "Implementation-defined": the spec's examples for a denial ("Link opening denied by
    /// user", "Policy violation", "Message sending denied").
    pub const DENIED: i32 = -32000;
}

/// A notification to the app.
pub fn notification(method: &str, params: Value) -> Value {
    json!({ "jsonrpc": "2.0", "method": method, "params": params })
}

/// A request to the app.
pub fn request(id: &RequestId, method: &str, params: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id.clone().into_json_value(), "method": method, "params": params })
}

/// A result for the app's request `id`.
pub fn result(id: &RequestId, result: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id.clone().into_json_value(), "result": result })
}

/// An error answer to the app's request `id` (the message shortened to
/// [`MAX_ERROR_CHARS`], since a server's error text is passed through).
pub fn error(id: &RequestId, code: i32, message: &str) -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": id.clone().into_json_value(),
        "error": { "code": code, "message": excerpt(message, MAX_ERROR_CHARS) }
    })
}

/// `ui/notifications/tool-input`: the complete arguments.
pub fn tool_input(arguments: &Map<String, Value>) -> Value {
    notification(m::TOOL_INPUT, json!({ "arguments": arguments }))
}

/// `ui/notifications/tool-input-partial`: arguments so far (best effort).
pub fn tool_input_partial(arguments: &Map<String, Value>) -> Value {
    notification(m::TOOL_INPUT_PARTIAL, json!({ "arguments": arguments }))
}

/// `ui/notifications/tool-result`: the server's `CallToolResult`, as it came.
pub fn tool_result(call_tool_result: &Value) -> Value {
    notification(m::TOOL_RESULT, call_tool_result.clone())
}

/// `ui/notifications/tool-cancelled`.
pub fn tool_cancelled(reason: Option<&str>) -> Value {
    let params = match reason {
        Some(reason) => json!({ "reason": reason }),
        None => json!({}),
    };
    notification(m::TOOL_CANCELLED, params)
}

/// `ui/notifications/host-context-changed` with the changed members only.
pub fn host_context_changed(changed: Map<String, Value>) -> Value {
    notification(m::HOST_CONTEXT_CHANGED, Value::Object(changed))
}

/// The `ui/resource-teardown` request (`params: {}` as in the spec types).
pub fn resource_teardown(id: &RequestId) -> Value {
    request(id, m::RESOURCE_TEARDOWN, json!({}))
}
