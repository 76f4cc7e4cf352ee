//! The app <-> host messages (JSON-RPC 2.0 over `postMessage`, shapes from `spec.types.ts`):
//! [`classify`] turns anything the app posts into an [`AppMessage`]; the builders make what
//! the host sends.
//!
//! Like the reference host's `PostMessageTransport`, anything without `"jsonrpc": "2.0"` is
//! not a message at all; like its SDK `Protocol` (TypeScript SDK 1.32), an unknown request
//! method is answered "method not found" (-32601). A request whose parameters have the wrong
//! shape is answered "invalid params" (-32602), as JSON-RPC 2.0 defines it; the reference
//! host answers -32603 there (its handler wrapper throws the schema's error, which has no
//! code, so it becomes "internal error"). Unknown members are ignored (forward compatibility).

use serde_json::{json, Map, Value};

pub use super::display::*;
pub use super::host_context::*;
use super::link::{check_link, LinkRefusal, WebLink};
use super::spec::methods as m;
use crate::error::excerpt;
pub use crate::jsonrpc::RequestId;
use crate::mcp::LOG_LEVELS;

/// Largest message [`classify_text`] reads.
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024 * 1024;

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

/// An error object from the app (in a response to a host request).
#[derive(Debug, Clone, PartialEq)]
pub struct RpcError {
    pub code: i64,
    pub message: String,
}

/// What the app asks for in `ui/initialize`.
#[derive(Debug, Clone, PartialEq)]
pub struct AppInit {
    pub protocol_version: String,
    pub app_name: String,
    pub app_version: String,
    /// `appCapabilities.availableDisplayModes`, if declared (unknown modes left out).
    pub display_modes: Option<Vec<DisplayMode>>,
}

/// A message from the app, classified. Requests carry their `id` for the answer.
#[derive(Debug, Clone, PartialEq)]
pub enum AppMessage {
    Initialize {
        id: RequestId,
        init: AppInit,
    },
    Initialized,
    /// Sizes rounded up and capped at [`MAX_FRAME_PX`].
    SizeChanged {
        width: Option<u32>,
        height: Option<u32>,
    },
    /// The app's `_meta` and `task` are not kept: only the name and arguments go on.
    CallTool {
        id: RequestId,
        name: String,
        arguments: Option<Map<String, Value>>,
    },
    ReadResource {
        id: RequestId,
        uri: String,
    },
    /// `link` says whether the URL may be offered to the person.
    OpenLink {
        id: RequestId,
        url: String,
        link: Result<WebLink, LinkRefusal>,
    },
    /// `ui/message` (role `user`): content blocks, as sent.
    Message {
        id: RequestId,
        content: Vec<Value>,
    },
    UpdateModelContext {
        id: RequestId,
        content: Option<Vec<Value>>,
        structured_content: Option<Map<String, Value>>,
    },
    RequestDisplayMode {
        id: RequestId,
        mode: DisplayMode,
    },
    RequestTeardown,
    DownloadFile {
        id: RequestId,
        contents: Vec<Value>,
    },
    /// `notifications/message`.
    Log {
        level: String,
        logger: Option<String>,
        data: Value,
    },
    Ping {
        id: RequestId,
    },
    /// An answer to a host request.
    Response {
        id: RequestId,
        outcome: Result<Value, RpcError>,
    },
    /// A request this host does not serve (answered "method not found").
    OtherRequest {
        id: RequestId,
        method: String,
    },
    /// `notifications/cancelled`: the app gave up on its request `request_id` (the SDK's
    /// `App` sends it when a call's `AbortSignal` fires).
    Cancelled {
        request_id: RequestId,
        reason: Option<String>,
    },
    /// A notification this host does not act on.
    OtherNotification {
        method: String,
    },
    /// Not a message, or a known method with the wrong shape. With an `id` it is answered
    /// (`code`); without, only logged.
    Invalid {
        id: Option<RequestId>,
        code: i32,
        reason: String,
    },
}

/// Classifies a message's text (what `JSON.stringify(event.data)` gives): at most
/// [`MAX_MESSAGE_BYTES`], nested at most 128 deep (serde_json's limit).
pub fn classify_text(text: &str) -> AppMessage {
    if text.len() > MAX_MESSAGE_BYTES {
        return invalid(
            None,
            codes::INVALID_REQUEST,
            "the message is larger than 16 MiB",
        );
    }
    match serde_json::from_str::<Value>(text) {
        Ok(value) => classify(&value),
        Err(err) => invalid(None, codes::INVALID_REQUEST, format!("not JSON ({err})")),
    }
}

fn invalid(id: Option<RequestId>, code: i32, reason: impl Into<String>) -> AppMessage {
    AppMessage::Invalid {
        id,
        code,
        reason: reason.into(),
    }
}

/// Classifies whatever the app posted. Total: never panics, whatever the JSON.
///
/// ```
/// use mcp_lens_protocol::apps::{classify, AppMessage};
/// use serde_json::json;
/// let call = classify(&json!({
///     "jsonrpc": "2.0", "id": 3, "method": "tools/call",
///     "params": { "name": "refresh_dashboard", "arguments": {} }
/// }));
/// assert!(matches!(call, AppMessage::CallTool { ref name, .. } if name == "refresh_dashboard"));
/// assert!(matches!(classify(&json!("hello")), AppMessage::Invalid { id: None, .. }));
/// ```
pub fn classify(message: &Value) -> AppMessage {
    let Some(object) = message.as_object() else {
        return invalid(None, codes::INVALID_REQUEST, "not a JSON object");
    };
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return invalid(
            None,
            codes::INVALID_REQUEST,
            "not JSON-RPC 2.0 (no \"jsonrpc\": \"2.0\")",
        );
    }
    let id = match object.get("id") {
        None => None,
        Some(raw) => match serde_json::from_value::<RequestId>(raw.clone()) {
            Ok(id) if raw.is_string() || raw.is_i64() || raw.is_u64() => Some(id),
            _ => {
                return invalid(
                    None,
                    codes::INVALID_REQUEST,
                    "the id is neither an integer nor a string",
                )
            }
        },
    };
    match object.get("method") {
        Some(Value::String(method)) => {
            let params = object.get("params");
            if params.is_some_and(|p| !p.is_object() && !p.is_null()) {
                return invalid(
                    id,
                    codes::INVALID_PARAMS,
                    format!("{}: params is not an object", short(method)),
                );
            }
            let empty = Map::new();
            let params = params.and_then(Value::as_object).unwrap_or(&empty);
            match id {
                Some(id) => classify_request(id, method, params),
                None => classify_notification(method, params),
            }
        }
        Some(_) => invalid(id, codes::INVALID_REQUEST, "the method is not a string"),
        None => classify_response(id, object),
    }
}

fn short(method: &str) -> String {
    excerpt(method, 80)
}

fn classify_response(id: Option<RequestId>, object: &Map<String, Value>) -> AppMessage {
    let Some(id) = id else {
        return invalid(
            None,
            codes::INVALID_REQUEST,
            "neither a request, a notification nor a response",
        );
    };
    match (object.get("result"), object.get("error")) {
        (Some(result), None) => AppMessage::Response {
            id,
            outcome: Ok(result.clone()),
        },
        (None, Some(error)) => {
            let code = error.get("code").and_then(Value::as_i64);
            let message = error.get("message").and_then(Value::as_str);
            match (code, message) {
                (Some(code), Some(message)) => AppMessage::Response {
                    id,
                    outcome: Err(RpcError {
                        code,
                        message: excerpt(message, MAX_ERROR_CHARS),
                    }),
                },
                // A response is never answered.
                _ => invalid(
                    None,
                    codes::INVALID_REQUEST,
                    "an error response without an integer code and a message",
                ),
            }
        }
        _ => invalid(
            None,
            codes::INVALID_REQUEST,
            "a response needs exactly one of result and error",
        ),
    }
}

fn classify_notification(method: &str, params: &Map<String, Value>) -> AppMessage {
    let bad = |why: &str| invalid(None, codes::INVALID_PARAMS, format!("{method}: {why}"));
    match method {
        m::INITIALIZED => AppMessage::Initialized,
        m::REQUEST_TEARDOWN => AppMessage::RequestTeardown,
        m::SIZE_CHANGED => {
            let side = |key: &str| -> Result<Option<u32>, ()> {
                match params.get(key) {
                    None | Some(Value::Null) => Ok(None),
                    Some(Value::Number(n)) => {
                        let px = n
                            .as_f64()
                            .unwrap_or(0.0)
                            .ceil()
                            .clamp(0.0, f64::from(MAX_FRAME_PX));
                        Ok(Some(px as u32))
                    }
                    Some(_) => Err(()),
                }
            };
            match (side("width"), side("height")) {
                (Ok(width), Ok(height)) => AppMessage::SizeChanged { width, height },
                _ => bad("width and height must be numbers"),
            }
        }
        m::LOG => {
            let level = params.get("level").and_then(Value::as_str);
            let Some(level) = level.filter(|l| LOG_LEVELS.contains(l)) else {
                return bad("level is not one of the syslog levels");
            };
            let logger = match params.get("logger") {
                None | Some(Value::Null) => None,
                Some(Value::String(logger)) => Some(logger.clone()),
                Some(_) => return bad("logger is not a string"),
            };
            AppMessage::Log {
                level: level.to_owned(),
                logger,
                data: params.get("data").cloned().unwrap_or(Value::Null),
            }
        }
        m::CANCELLED => {
            let request_id = params
                .get("requestId")
                .filter(|id| id.is_string() || id.is_i64())
                .and_then(|id| serde_json::from_value::<RequestId>(id.clone()).ok());
            let Some(request_id) = request_id else {
                return bad("requestId must be an integer or a string");
            };
            let reason = params
                .get("reason")
                .and_then(Value::as_str)
                .map(|r| excerpt(r, MAX_ERROR_CHARS));
            AppMessage::Cancelled { request_id, reason }
        }
        _ => AppMessage::OtherNotification {
            method: short(method),
        },
    }
}

fn classify_request(id: RequestId, method: &str, params: &Map<String, Value>) -> AppMessage {
    let bad = |why: &str| {
        invalid(
            Some(id.clone()),
            codes::INVALID_PARAMS,
            format!("{method}: {why}"),
        )
    };
    let string = |key: &str| params.get(key).and_then(Value::as_str).map(str::to_owned);
    match method {
        m::INITIALIZE => {
            let info = params.get("appInfo");
            let name = info.and_then(|i| i.get("name")).and_then(Value::as_str);
            let version = info.and_then(|i| i.get("version")).and_then(Value::as_str);
            let (Some(name), Some(version), Some(protocol_version)) =
                (name, version, string("protocolVersion"))
            else {
                return bad("appInfo.name, appInfo.version and protocolVersion must be strings");
            };
            let Some(capabilities) = params.get("appCapabilities").and_then(Value::as_object)
            else {
                return bad("appCapabilities must be an object");
            };
            let display_modes = match capabilities.get("availableDisplayModes") {
                None | Some(Value::Null) => None,
                Some(Value::Array(modes)) => Some(
                    modes
                        .iter()
                        .filter_map(|m| m.as_str().and_then(DisplayMode::parse))
                        .collect(),
                ),
                Some(_) => return bad("availableDisplayModes is not an array"),
            };
            AppMessage::Initialize {
                id,
                init: AppInit {
                    protocol_version: excerpt(&protocol_version, 40),
                    app_name: excerpt(name, 200),
                    app_version: excerpt(version, 100),
                    display_modes,
                },
            }
        }
        m::TOOLS_CALL => {
            let Some(name) = string("name") else {
                return bad("name must be a string");
            };
            let arguments = match params.get("arguments") {
                None | Some(Value::Null) => None,
                Some(Value::Object(arguments)) => Some(arguments.clone()),
                Some(_) => return bad("arguments must be an object"),
            };
            AppMessage::CallTool {
                id,
                name,
                arguments,
            }
        }
        m::RESOURCES_READ => match string("uri") {
            Some(uri) => AppMessage::ReadResource { id, uri },
            None => bad("uri must be a string"),
        },
        m::OPEN_LINK => match string("url") {
            Some(url) => {
                let link = check_link(&url);
                AppMessage::OpenLink { id, url, link }
            }
            None => bad("url must be a string"),
        },
        m::MESSAGE => {
            if params.get("role").and_then(Value::as_str) != Some("user") {
                return bad("role must be \"user\"");
            }
            match content_blocks(params.get("content")) {
                Some(Some(content)) => AppMessage::Message { id, content },
                _ => bad("content must be an array of content blocks"),
            }
        }
        m::UPDATE_MODEL_CONTEXT => {
            let Some(content) = content_blocks(params.get("content")) else {
                return bad("content must be an array of content blocks");
            };
            let structured_content = match params.get("structuredContent") {
                None | Some(Value::Null) => None,
                Some(Value::Object(s)) => Some(s.clone()),
                Some(_) => return bad("structuredContent must be an object"),
            };
            AppMessage::UpdateModelContext {
                id,
                content,
                structured_content,
            }
        }
        m::REQUEST_DISPLAY_MODE => {
            match params
                .get("mode")
                .and_then(Value::as_str)
                .and_then(DisplayMode::parse)
            {
                Some(mode) => AppMessage::RequestDisplayMode { id, mode },
                None => bad("mode must be inline, fullscreen or pip"),
            }
        }
        m::DOWNLOAD_FILE => match params.get("contents") {
            Some(Value::Array(contents)) if contents.iter().all(Value::is_object) => {
                AppMessage::DownloadFile {
                    id,
                    contents: contents.clone(),
                }
            }
            _ => bad("contents must be an array of resources"),
        },
        m::PING => AppMessage::Ping { id },
        _ => AppMessage::OtherRequest {
            id,
            method: short(method),
        },
    }
}

/// `None`: malformed; `Some(None)`: absent; `Some(Some(blocks))`: an array of objects with a
/// string `type`.
fn content_blocks(value: Option<&Value>) -> Option<Option<Vec<Value>>> {
    match value {
        None | Some(Value::Null) => Some(None),
        Some(Value::Array(blocks))
            if blocks
                .iter()
                .all(|b| b.get("type").and_then(Value::as_str).is_some()) =>
        {
            Some(Some(blocks.clone()))
        }
        Some(_) => None,
    }
}

impl AppMessage {
    /// The method, for the wire log (`None` for responses and invalid messages).
    pub fn method(&self) -> Option<&str> {
        Some(match self {
            AppMessage::Initialize { .. } => m::INITIALIZE,
            AppMessage::Initialized => m::INITIALIZED,
            AppMessage::SizeChanged { .. } => m::SIZE_CHANGED,
            AppMessage::CallTool { .. } => m::TOOLS_CALL,
            AppMessage::ReadResource { .. } => m::RESOURCES_READ,
            AppMessage::OpenLink { .. } => m::OPEN_LINK,
            AppMessage::Message { .. } => m::MESSAGE,
            AppMessage::UpdateModelContext { .. } => m::UPDATE_MODEL_CONTEXT,
            AppMessage::RequestDisplayMode { .. } => m::REQUEST_DISPLAY_MODE,
            AppMessage::RequestTeardown => m::REQUEST_TEARDOWN,
            AppMessage::DownloadFile { .. } => m::DOWNLOAD_FILE,
            AppMessage::Log { .. } => m::LOG,
            AppMessage::Cancelled { .. } => m::CANCELLED,
            AppMessage::Ping { .. } => m::PING,
            AppMessage::OtherRequest { method, .. } | AppMessage::OtherNotification { method } => {
                method
            }
            AppMessage::Response { .. } | AppMessage::Invalid { .. } => return None,
        })
    }

    /// The id of a request the host must answer.
    pub fn request_id(&self) -> Option<&RequestId> {
        match self {
            AppMessage::Initialize { id, .. }
            | AppMessage::CallTool { id, .. }
            | AppMessage::ReadResource { id, .. }
            | AppMessage::OpenLink { id, .. }
            | AppMessage::Message { id, .. }
            | AppMessage::UpdateModelContext { id, .. }
            | AppMessage::RequestDisplayMode { id, .. }
            | AppMessage::DownloadFile { id, .. }
            | AppMessage::Ping { id }
            | AppMessage::OtherRequest { id, .. } => Some(id),
            AppMessage::Invalid { id, .. } => id.as_ref(),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apps::spec::LATEST_PROTOCOL_VERSION;

    fn req(method: &str, params: Value) -> Value {
        json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params })
    }

    fn note(method: &str, params: Value) -> Value {
        json!({ "jsonrpc": "2.0", "method": method, "params": params })
    }

    fn invalid_code(message: &Value) -> Option<(Option<RequestId>, i32)> {
        match classify(message) {
            AppMessage::Invalid { id, code, .. } => Some((id, code)),
            _ => None,
        }
    }

    #[test]
    fn the_spec_examples_classify() {
        let one = RequestId::Number(1);
        // The spec's "Transport Layer" example of an SDK-less app.
        assert_eq!(
            classify(&req(
                "ui/initialize",
                json!({
                    "appCapabilities": {},
                    "appInfo": { "name": "My UI", "version": "1.0.0" },
                    "protocolVersion": "2026-01-26"
                })
            )),
            AppMessage::Initialize {
                id: one.clone(),
                init: AppInit {
                    protocol_version: "2026-01-26".into(),
                    app_name: "My UI".into(),
                    app_version: "1.0.0".into(),
                    display_modes: None,
                },
            }
        );
        // What App.connect sends after the result (no params).
        assert_eq!(
            classify(&json!({ "jsonrpc": "2.0", "method": "ui/notifications/initialized" })),
            AppMessage::Initialized
        );
        // setupSizeChangedNotifications: { width, height } from getBoundingClientRect.
        assert_eq!(
            classify(&note(
                "ui/notifications/size-changed",
                json!({ "width": 400, "height": 300.2 })
            )),
            AppMessage::SizeChanged {
                width: Some(400),
                height: Some(301)
            }
        );
        assert_eq!(
            classify(&req(
                "ui/request-display-mode",
                json!({ "mode": "fullscreen" })
            )),
            AppMessage::RequestDisplayMode {
                id: one.clone(),
                mode: DisplayMode::Fullscreen
            }
        );
        // The spec's ui/message shows `content` as one block; spec.types has an array.
        assert_eq!(
            classify(&req(
                "ui/message",
                json!({ "role": "user", "content": [{ "type": "text", "text": "hi" }] })
            )),
            AppMessage::Message {
                id: one.clone(),
                content: vec![json!({ "type": "text", "text": "hi" })]
            }
        );
        assert!(invalid_code(&req(
            "ui/message",
            json!({ "role": "user", "content": { "type": "text", "text": "hi" } })
        ))
        .is_some());
        assert_eq!(
            classify(&req(
                "ui/update-model-context",
                json!({ "structuredContent": { "a": 1 } })
            )),
            AppMessage::UpdateModelContext {
                id: one.clone(),
                content: None,
                structured_content: Some(json!({ "a": 1 }).as_object().unwrap().clone()),
            }
        );
        assert_eq!(
            classify(&note(
                "notifications/message",
                json!({ "level": "info", "data": "x" })
            )),
            AppMessage::Log {
                level: "info".into(),
                logger: None,
                data: json!("x")
            }
        );
        assert_eq!(
            classify(&req("ping", json!({}))),
            AppMessage::Ping { id: one.clone() }
        );
        // What the SDK's Protocol sends when a request's AbortSignal fires.
        assert_eq!(
            classify(&note(
                "notifications/cancelled",
                json!({ "requestId": 4, "reason": "aborted" })
            )),
            AppMessage::Cancelled {
                request_id: RequestId::Number(4),
                reason: Some("aborted".into())
            }
        );
        assert_eq!(
            classify(&json!({ "jsonrpc": "2.0", "method": "ui/notifications/request-teardown" })),
            AppMessage::RequestTeardown
        );
        assert_eq!(
            classify(&req("resources/read", json!({ "uri": "ui://a/b" }))),
            AppMessage::ReadResource {
                id: one.clone(),
                uri: "ui://a/b".into()
            }
        );
        match classify(&req(
            "ui/open-link",
            json!({ "url": "javascript:alert(1)" }),
        )) {
            AppMessage::OpenLink {
                link: Err(LinkRefusal::Scheme(s)),
                ..
            } => assert_eq!(s, "javascript"),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            classify(&json!({ "jsonrpc": "2.0", "id": "t1", "result": {} })),
            AppMessage::Response {
                id: RequestId::String("t1".into()),
                outcome: Ok(json!({}))
            }
        );
        assert_eq!(
            classify(
                &json!({ "jsonrpc": "2.0", "id": 7, "error": { "code": -32000, "message": "Teardown error" } })
            ),
            AppMessage::Response {
                id: RequestId::Number(7),
                outcome: Err(RpcError {
                    code: -32000,
                    message: "Teardown error".into()
                })
            }
        );
        assert_eq!(
            classify(&req("resources/list", json!({}))),
            AppMessage::OtherRequest {
                id: one,
                method: "resources/list".into()
            }
        );
    }

    #[test]
    fn wrong_shapes_are_invalid_with_the_sdk_codes() {
        let one = Some(RequestId::Number(1));
        for message in [
            json!(null),
            json!([{ "jsonrpc": "2.0", "method": "ping", "id": 1 }]),
            json!({ "method": "ping", "id": 1 }),
            json!({ "jsonrpc": "1.0", "method": "ping", "id": 1 }),
            json!({ "jsonrpc": "2.0", "method": "ping", "id": 1.5 }),
            json!({ "jsonrpc": "2.0", "method": "ping", "id": [1] }),
            json!({ "jsonrpc": "2.0", "id": 1 }),
            json!({ "jsonrpc": "2.0", "id": 1, "result": {}, "error": {} }),
            json!({ "jsonrpc": "2.0", "id": 1, "error": { "code": "x" } }),
            json!({ "jsonrpc": "2.0" }),
        ] {
            assert_eq!(
                invalid_code(&message),
                Some((None, codes::INVALID_REQUEST)),
                "{message}"
            );
        }
        assert_eq!(
            invalid_code(&json!({ "jsonrpc": "2.0", "id": 1, "method": 5 })),
            Some((one.clone(), codes::INVALID_REQUEST))
        );
        for message in [
            req("tools/call", json!({})),
            req("tools/call", json!({ "name": "x", "arguments": [1] })),
            req("tools/call", json!("name")),
            req("resources/read", json!({ "uri": 3 })),
            req("ui/open-link", json!({})),
            req(
                "ui/initialize",
                json!({ "appInfo": { "name": "a" }, "protocolVersion": "x", "appCapabilities": {} }),
            ),
            req(
                "ui/initialize",
                json!({ "appInfo": { "name": "a", "version": "1" }, "protocolVersion": "x" }),
            ),
            req("ui/message", json!({ "role": "assistant", "content": [] })),
            req(
                "ui/message",
                json!({ "role": "user", "content": [{ "text": "no type" }] }),
            ),
            req(
                "ui/update-model-context",
                json!({ "structuredContent": [1] }),
            ),
            req("ui/request-display-mode", json!({ "mode": "maximized" })),
            req("ui/download-file", json!({ "contents": "x" })),
        ] {
            assert_eq!(
                invalid_code(&message),
                Some((one.clone(), codes::INVALID_PARAMS)),
                "{message}"
            );
        }
        for message in [
            note("ui/notifications/size-changed", json!({ "width": "400px" })),
            note(
                "notifications/message",
                json!({ "level": "loud", "data": 1 }),
            ),
            note(
                "notifications/message",
                json!({ "level": "info", "logger": 5 }),
            ),
            note("notifications/cancelled", json!({ "requestId": 1.5 })),
            note("notifications/cancelled", json!({})),
        ] {
            assert_eq!(
                invalid_code(&message),
                Some((None, codes::INVALID_PARAMS)),
                "{message}"
            );
        }
        // Sizes are clamped, never negative or huge.
        assert_eq!(
            classify(&note(
                "ui/notifications/size-changed",
                json!({ "width": -5, "height": 1e300 })
            )),
            AppMessage::SizeChanged {
                width: Some(0),
                height: Some(MAX_FRAME_PX)
            }
        );
        assert!(matches!(
            classify_text("{"),
            AppMessage::Invalid { id: None, .. }
        ));
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert!(matches!(classify_text(&deep), AppMessage::Invalid { .. }));
    }

    #[test]
    fn builders_make_the_spec_shapes() {
        let id = RequestId::Number(0);
        let args = json!({ "location": "San Francisco" })
            .as_object()
            .unwrap()
            .clone();
        // The spec's "Data Passing" examples.
        assert_eq!(
            tool_input(&args),
            json!({ "jsonrpc": "2.0", "method": "ui/notifications/tool-input",
                    "params": { "arguments": { "location": "San Francisco" } } })
        );
        let result_json = json!({ "content": [{ "type": "text", "text": "Current weather: Sunny, 72°F" }],
                                  "structuredContent": { "temperature": 72 } });
        assert_eq!(tool_result(&result_json)["params"], result_json);
        assert_eq!(
            tool_cancelled(Some("user action"))["params"],
            json!({ "reason": "user action" })
        );
        assert_eq!(tool_cancelled(None)["params"], json!({}));
        assert_eq!(
            resource_teardown(&id),
            json!({ "jsonrpc": "2.0", "id": 0, "method": "ui/resource-teardown", "params": {} })
        );
        let long = "x".repeat(5000);
        let answer = error(&id, codes::DENIED, &long);
        assert!(
            answer["error"]["message"].as_str().unwrap().chars().count() <= MAX_ERROR_CHARS + 1
        );
        // Version negotiation as AppBridge._oninitialize.
        let caps = HostCapabilities::mcp_lens(true, true);
        let old = initialize_result(
            "2025-11-21",
            &HostInfo::mcp_lens(),
            &caps,
            &HostContext::default(),
        );
        assert_eq!(old["protocolVersion"], LATEST_PROTOCOL_VERSION);
        let caps_json = caps.to_json();
        assert!(caps_json.get("downloadFile").is_none());
        assert!(caps_json.get("sampling").is_none());
        assert_eq!(caps_json["openLinks"], json!({}));
        assert_eq!(
            caps_json["updateModelContext"]["structuredContent"],
            json!({})
        );
        assert_eq!(
            HostCapabilities::mcp_lens(false, false)
                .to_json()
                .get("serverTools"),
            None
        );
    }
}
