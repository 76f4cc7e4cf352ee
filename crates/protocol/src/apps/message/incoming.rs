//! What the app posts, classified: anything without `"jsonrpc": "2.0"` is not a message, an
//! unknown request method is "method not found", parameters of the wrong shape are "invalid
//! params".

use super::outgoing::{codes, MAX_ERROR_CHARS};
use crate::apps::display::{DisplayMode, MAX_FRAME_PX};
use crate::apps::link::{check_link, LinkRefusal, WebLink};
use crate::apps::spec::methods as m;
use crate::error::excerpt;
use crate::jsonrpc::RequestId;
use crate::mcp::LOG_LEVELS;
use serde_json::{Map, Value};

/// Largest message [`classify_text`] reads.
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024 * 1024;

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
