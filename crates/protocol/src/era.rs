//! The two eras of the protocol, as data.
//!
//! - Handshake era (2025-03-26, 2025-06-18, 2025-11-25): `initialize`, then a session
//!   (`Mcp-Session-Id`), server-to-client requests on streams.
//! - Stateless era (2026-07-28): no `initialize` and no session. `server/discover` tells
//!   what the server offers; every request carries the protocol version and the client's
//!   capabilities in `params._meta`, and `Mcp-Method` (plus `Mcp-Name` for calls naming a
//!   tool, prompt or resource) as HTTP headers. A result may be `input_required`: the client
//!   answers the embedded requests and sends the request again with `inputResponses`.
//!
//! Negotiation (the 2026-07-28 backward-compatibility rules): try `server/discover` first;
//! anything that is not positive evidence of a modern server falls back to `initialize`.

use super::error::{excerpt, ErrorKind};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{json, Map, Value};

pub const MODERN: &str = "2026-07-28";
/// Handshake versions this client speaks, newest first.
pub const HANDSHAKE: [&str; 3] = ["2025-11-25", "2025-06-18", "2025-03-26"];
pub const DISCOVER: &str = "server/discover";
/// Every version this client speaks, newest first.
const VERSIONS: [&str; 4] = [MODERN, HANDSHAKE[0], HANDSHAKE[1], HANDSHAKE[2]];

const PROTOCOL_VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";
const CLIENT_CAPABILITIES_KEY: &str = "io.modelcontextprotocol/clientCapabilities";
const CLIENT_INFO_KEY: &str = "io.modelcontextprotocol/clientInfo";
const SERVER_INFO_KEY: &str = "io.modelcontextprotocol/serverInfo";
/// JSON-RPC error: the server does not support the requested protocol version.
pub const UNSUPPORTED_PROTOCOL_VERSION: i32 = -32022;

/// Which protocol version to speak: negotiate, or one pinned by the person. Saved as its
/// [`key`](VersionChoice::key); a key this client does not know (a version it no longer
/// speaks) reads as Auto.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum VersionChoice {
    #[default]
    Auto,
    Pinned(&'static str),
}

impl Serialize for VersionChoice {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.key())
    }
}

impl<'de> Deserialize<'de> for VersionChoice {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let key = String::deserialize(deserializer)?;
        Ok(Self::from_key(&key).unwrap_or_default())
    }
}

impl VersionChoice {
    pub fn all() -> Vec<VersionChoice> {
        let mut all = vec![VersionChoice::Auto];
        all.extend(VERSIONS.map(VersionChoice::Pinned));
        all
    }

    pub fn key(self) -> &'static str {
        match self {
            VersionChoice::Auto => "auto",
            VersionChoice::Pinned(version) => version,
        }
    }

    pub fn from_key(key: &str) -> Option<Self> {
        if key == "auto" {
            return Some(VersionChoice::Auto);
        }
        VERSIONS
            .iter()
            .find(|version| **version == key)
            .map(|version| VersionChoice::Pinned(version))
    }

    pub fn label(self) -> String {
        match self {
            VersionChoice::Auto => "Auto (2026-07-28, else initialize)".to_owned(),
            VersionChoice::Pinned(version) if version == MODERN => format!("{version} (stateless)"),
            VersionChoice::Pinned(version) => version.to_owned(),
        }
    }

    /// Whether to try `server/discover` first.
    pub fn tries_modern(self) -> bool {
        matches!(self, VersionChoice::Auto | VersionChoice::Pinned(MODERN))
    }

    /// The version to ask for in `initialize`.
    pub fn handshake_version(self) -> &'static str {
        match self {
            VersionChoice::Pinned(version) if version != MODERN => version,
            _ => HANDSHAKE[0],
        }
    }
}

/// Adds the per-request envelope to a request's params (creating them if needed).
pub fn with_envelope(params: Option<Value>, capabilities: &Value) -> Value {
    let mut params = match params {
        Some(Value::Object(params)) => params,
        _ => Map::new(),
    };
    let meta = params
        .entry("_meta")
        .or_insert_with(|| Value::Object(Map::new()));
    if !meta.is_object() {
        *meta = Value::Object(Map::new());
    }
    if let Value::Object(meta) = meta {
        meta.insert(PROTOCOL_VERSION_KEY.into(), MODERN.into());
        meta.insert(CLIENT_CAPABILITIES_KEY.into(), capabilities.clone());
        meta.insert(
            CLIENT_INFO_KEY.into(),
            json!({ "name": "mcp-lens", "version": env!("CARGO_PKG_VERSION") }),
        );
    }
    Value::Object(params)
}

/// The routing headers of a stateless-era request: `Mcp-Method`, and `Mcp-Name` for the
/// methods that name something (SEP-2243; the tasks extension, SEP-2663, adds the task
/// methods, named by their task so a load balancer reaches the instance holding it).
pub fn routing_headers(method: &str, params: &Value) -> Vec<(&'static str, String)> {
    let mut headers = vec![("mcp-method", encode_header_value(method))];
    let named = match method {
        "tools/call" | "prompts/get" => params.get("name"),
        "resources/read" => params.get("uri"),
        "tasks/get" | "tasks/update" | "tasks/cancel" => params.get("taskId"),
        _ => None,
    };
    if let Some(name) = named.and_then(Value::as_str) {
        headers.push(("mcp-name", encode_header_value(name)));
    }
    headers
}

/// Printable ASCII without edge whitespace goes as it is; anything else is wrapped as
/// `=?base64?...?=` so the exact bytes survive HTTP.
pub fn encode_header_value(value: &str) -> String {
    let plain = value.bytes().all(|b| (0x20..=0x7e).contains(&b))
        && value.trim() == value
        && !(value.starts_with("=?base64?") && value.ends_with("?="));
    if plain {
        value.to_owned()
    } else {
        format!("=?base64?{}?=", base64(value.as_bytes()))
    }
}

fn base64(bytes: &[u8]) -> String {
    const TABLE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | (u32::from(b) << (16 - 8 * i)));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(TABLE[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// What to do when `server/discover` failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DiscoverFailed {
    /// Not a modern server (or not provably one): use `initialize`.
    UseInitialize,
    /// A modern-only server with no version in common: report the error.
    Incompatible,
}

/// Why the `server/discover` probe did not work, in a few words for the era line (which goes
/// on "…, so initialize was used"). Only shown when `initialize` then succeeded, so a
/// network failure here is CORS refusing the 2026-07-28 era's headers, not a server that is down.
pub fn discover_refusal(error: &ErrorKind) -> String {
    match error {
        ErrorKind::Network { .. } => "the browser blocked server/discover: the server's CORS settings \
             do not allow the mcp-method and mcp-name headers of the 2026-07-28 era (Access-Control-Allow-Headers)"
            .to_owned(),
        ErrorKind::HttpStatus { status, body_start } => {
            let lower = body_start.to_ascii_lowercase();
            let unsupported = lower.contains(&UNSUPPORTED_PROTOCOL_VERSION.to_string())
                || lower.contains("unsupported protocol version");
            let why = if unsupported {
                " (an unsupported protocol version to this server)"
            } else {
                ""
            };
            // The browser prints every HTTP error answer in its console, whatever the page
            // does: said here, so that a red line there is not taken for a fault.
            format!(
                "server/discover was answered HTTP {status}{why}, which the browser's console \
                 shows as a failed load: expected"
            )
        }
        ErrorKind::JsonRpc { code, message } => format!(
            "server/discover was refused (JSON-RPC error {code}: {})",
            excerpt(message, 80)
        ),
        other => format!("server/discover failed ({other})"),
    }
}

/// Decides from a failed probe. Everything falls back to `initialize` (the denylist of the
/// rules) except an "unsupported version" answer that lists only stateless versions we do
/// not speak. A network failure falls back too: in a browser it may be CORS refusing the
/// new `Mcp-Method` header, which `initialize` does not send.
pub fn after_failed_discover(error: &ErrorKind) -> DiscoverFailed {
    let unsupported = match error {
        ErrorKind::JsonRpc { code, message } if *code == UNSUPPORTED_PROTOCOL_VERSION => {
            Some(message.as_str())
        }
        ErrorKind::HttpStatus { body_start, .. } => {
            let value: Option<Value> = serde_json::from_str(body_start).ok();
            match value.as_ref().and_then(|v| v.get("error")) {
                Some(error)
                    if error.get("code").and_then(Value::as_i64)
                        == Some(i64::from(UNSUPPORTED_PROTOCOL_VERSION)) =>
                {
                    let supported = error
                        .get("data")
                        .and_then(|d| d.get("supported"))
                        .and_then(Value::as_array);
                    let any_handshake = supported.is_none_or(|list| {
                        list.iter()
                            .filter_map(Value::as_str)
                            .any(|v| HANDSHAKE.contains(&v))
                    });
                    return if any_handshake {
                        DiscoverFailed::UseInitialize
                    } else {
                        DiscoverFailed::Incompatible
                    };
                }
                _ => None,
            }
        }
        _ => None,
    };
    match (unsupported, error) {
        (Some(_), _) => DiscoverFailed::UseInitialize,
        (None, ErrorKind::Timeout { .. } | ErrorKind::TimeLimit { .. } | ErrorKind::Cancelled) => {
            DiscoverFailed::Incompatible
        }
        _ => DiscoverFailed::UseInitialize,
    }
}

/// A discover result in the shape the rest of the client knows (an `initialize` result):
/// version 2026-07-28, the capabilities, instructions, and the server's info from `_meta`.
/// `None` when the server does not list 2026-07-28 (a legacy advertisement).
pub fn discover_as_initialize(result: &Value) -> Option<Value> {
    let supports_modern = result
        .get("supportedVersions")
        .and_then(Value::as_array)
        .is_some_and(|versions| versions.iter().any(|v| v.as_str() == Some(MODERN)));
    if !supports_modern {
        return None;
    }
    let server_info = result
        .get("_meta")
        .and_then(|m| m.get(SERVER_INFO_KEY))
        .cloned()
        .unwrap_or_else(|| json!({ "name": "(the server did not say)", "version": "?" }));
    let mut info = json!({
        "protocolVersion": MODERN,
        "capabilities": result.get("capabilities").cloned().unwrap_or_else(|| json!({})),
        "serverInfo": server_info,
    });
    if let Some(instructions) = result.get("instructions") {
        info["instructions"] = instructions.clone();
    }
    Some(info)
}

/// One request the server embedded in an `input_required` result.
#[derive(Debug, Clone, PartialEq)]
pub struct InputRequest {
    pub key: String,
    pub method: String,
    pub params: Option<Value>,
}

/// What an `input_required` result asks for.
#[derive(Debug, Clone, PartialEq)]
pub struct InputRequired {
    pub requests: Vec<InputRequest>,
    pub request_state: Option<String>,
}

/// The requests of an `inputRequests` map (an `input_required` result, or a task waiting
/// for input), keyed as the server keyed them; anything but a map holds none.
pub fn input_requests(requests: Option<&Value>) -> Vec<InputRequest> {
    let Some(Value::Object(requests)) = requests else {
        return Vec::new();
    };
    requests
        .iter()
        .map(|(key, request)| InputRequest {
            key: key.clone(),
            method: request
                .get("method")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
            params: request.get("params").cloned(),
        })
        .collect()
}

/// `Some` when a result is `input_required` rather than final.
pub fn input_required(result: &Value) -> Option<InputRequired> {
    if result.get("resultType").and_then(Value::as_str) != Some("input_required") {
        return None;
    }
    let requests = input_requests(result.get("inputRequests"));
    Some(InputRequired {
        requests,
        request_state: result
            .get("requestState")
            .and_then(Value::as_str)
            .map(str::to_owned),
    })
}

/// The params of the retry: the original ones plus the responses and the echoed state.
pub fn retry_params(
    params: Option<Value>,
    responses: Map<String, Value>,
    request_state: Option<String>,
) -> Value {
    let mut params = match params {
        Some(Value::Object(params)) => params,
        _ => Map::new(),
    };
    params.insert("inputResponses".into(), Value::Object(responses));
    match request_state {
        Some(state) => params.insert("requestState".into(), state.into()),
        None => params.remove("requestState"),
    };
    Value::Object(params)
}

/// Whether a server's own words (an error, or a tool's error result) say that what was asked
/// cannot be done on a stateless-era connection and so needs the handshake era, as fastmcp
/// 4.2 says of an old-style elicitation: "elicitation via server-initiated requests is
/// unavailable on 2026-07-28 connections". The app then offers to reconnect pinned to the
/// newest handshake version.
pub fn needs_handshake_era(text: &str) -> bool {
    let text = text.to_ascii_lowercase();
    let refusal = [
        "unavailable",
        "not available",
        "not supported",
        "unsupported",
        "requires",
        "only available",
    ];
    text.contains(MODERN) && refusal.iter().any(|word| text.contains(word))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envelope_and_headers_of_a_stateless_tool_call() {
        let params = with_envelope(
            Some(json!({ "name": "echo", "arguments": { "message": "hi" } })),
            &json!({ "roots": {} }),
        );
        assert_eq!(params["_meta"][PROTOCOL_VERSION_KEY], MODERN);
        assert_eq!(
            params["_meta"][CLIENT_CAPABILITIES_KEY],
            json!({ "roots": {} })
        );
        assert_eq!(params["_meta"][CLIENT_INFO_KEY]["name"], "mcp-lens");
        assert_eq!(params["arguments"]["message"], "hi");
        assert_eq!(
            routing_headers("tools/call", &params),
            vec![
                ("mcp-method", "tools/call".to_owned()),
                ("mcp-name", "echo".to_owned())
            ]
        );
        assert_eq!(
            routing_headers("resources/read", &json!({ "uri": "test://info" })),
            vec![
                ("mcp-method", "resources/read".to_owned()),
                ("mcp-name", "test://info".to_owned())
            ]
        );
        assert_eq!(routing_headers("tools/list", &json!({})).len(), 1);
        // An existing _meta (a progress token) is kept.
        let kept = with_envelope(Some(json!({ "_meta": { "progressToken": 3 } })), &json!({}));
        assert_eq!(kept["_meta"]["progressToken"], 3);
    }

    #[test]
    fn header_values_that_would_not_survive_are_base64_wrapped() {
        assert_eq!(encode_header_value("echo"), "echo");
        assert_eq!(encode_header_value("café"), "=?base64?Y2Fmw6k=?=");
        assert_eq!(encode_header_value(" x"), "=?base64?IHg=?=");
        assert_eq!(encode_header_value("ab"), "ab");
        assert_eq!(base64(b"abc"), "YWJj");
        assert_eq!(base64(b"ab"), "YWI=");
        assert_eq!(base64(b"a"), "YQ==");
    }

    #[test]
    fn discover_failures_fall_back_unless_the_server_is_modern_only() {
        use DiscoverFailed::*;
        // server-everything (handshake only): 400 "Server not initialized".
        let everything = ErrorKind::HttpStatus {
            status: 400,
            body_start: r#"{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Server not initialized"},"id":null}"#.into(),
        };
        assert_eq!(after_failed_discover(&everything), UseInitialize);
        assert_eq!(
            after_failed_discover(&ErrorKind::JsonRpc {
                code: -32601,
                message: "Method not found".into()
            }),
            UseInitialize
        );
        assert_eq!(
            after_failed_discover(&ErrorKind::Network {
                detail: "Failed to fetch".into()
            }),
            UseInitialize
        );
        let modern_only = ErrorKind::HttpStatus {
            status: 400,
            body_start: r#"{"jsonrpc":"2.0","id":0,"error":{"code":-32022,"message":"Unsupported","data":{"supported":["2027-01-01"],"requested":"2026-07-28"}}}"#.into(),
        };
        assert_eq!(after_failed_discover(&modern_only), Incompatible);
        let both = ErrorKind::HttpStatus {
            status: 400,
            body_start: r#"{"jsonrpc":"2.0","id":0,"error":{"code":-32022,"message":"Unsupported","data":{"supported":["2025-11-25"]}}}"#.into(),
        };
        assert_eq!(after_failed_discover(&both), UseInitialize);
        assert_eq!(
            after_failed_discover(&ErrorKind::Timeout { after_ms: 1 }),
            Incompatible
        );
    }

    #[test]
    fn request_state_is_echoed_byte_for_byte_and_never_invented() {
        // The conformance suite's sep-2322-client-request-state: the state is JSON text.
        let state = r#"{"nonce":"3f1c9a7e-2b44-4d0e-9a61-55c2a1b7e901","originalId":7}"#;
        let asked = input_required(&json!({"resultType": "input_required", "requestState": state,
            "inputRequests": {"confirm": {"method": "elicitation/create", "params": {"message": "Please confirm to continue"}}}}))
        .unwrap();
        let mut responses = Map::new();
        responses.insert(
            "confirm".into(),
            json!({"action": "accept", "content": {"confirmed": true}}),
        );
        let retry = retry_params(
            Some(json!({"name": "test_mrtr_echo_state", "arguments": {}})),
            responses.clone(),
            asked.request_state,
        );
        assert_eq!(retry["requestState"].as_str(), Some(state));
        // No state in the result: none in the retry, even if the original params carried one.
        let stateless =
            input_required(&json!({"resultType": "input_required", "inputRequests": {}})).unwrap();
        let retry = retry_params(
            Some(json!({"name": "t", "requestState": "old"})),
            responses,
            stateless.request_state,
        );
        assert!(retry.get("requestState").is_none());
        // A result without resultType is complete.
        assert!(input_required(
            &json!({"content": [{"type": "text", "text": "no-result-type-test-ok"}]})
        )
        .is_none());
    }

    #[test]
    fn task_methods_are_named_by_their_task() {
        for method in ["tasks/get", "tasks/update", "tasks/cancel"] {
            assert_eq!(
                routing_headers(method, &json!({"taskId": "786512e2", "inputResponses": {}})),
                vec![
                    ("mcp-method", method.to_owned()),
                    ("mcp-name", "786512e2".to_owned())
                ]
            );
        }
    }

    #[test]
    fn the_era_line_says_why_discover_did_not_work_in_a_few_words() {
        let cors = discover_refusal(&ErrorKind::Network {
            detail: "TypeError: Failed to fetch".into(),
        });
        assert!(cors.contains("CORS") && cors.contains("mcp-method") && cors.contains("mcp-name"));
        assert!(!cors.contains("may be down"));
        // Recorded from mcp 1.30.0 FastMCP and fastmcp 2.14.7 (stateless_http=True).
        let stateless_py1 = ErrorKind::HttpStatus {
            status: 400,
            body_start: r#"{"jsonrpc":"2.0","id":"server-error","error":{"code":-32600,"message":"Bad Request: Unsupported protocol version: 2026-07-28. Supported versions: 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25"}}"#.into(),
        };
        assert_eq!(
            discover_refusal(&stateless_py1),
            "server/discover was answered HTTP 400 (an unsupported protocol version to this server), \
             which the browser's console shows as a failed load: expected"
        );
        assert_eq!(
            discover_refusal(&ErrorKind::JsonRpc {
                code: -32601,
                message: "Method not found".into()
            }),
            "server/discover was refused (JSON-RPC error -32601: Method not found)"
        );
    }

    #[test]
    fn a_recorded_discover_result_becomes_an_initialize_result() {
        // Recorded from mcp 2.3.0.
        let discover = json!({"cacheScope":"private","capabilities":{"tools":{"listChanged":true}},"resultType":"complete",
            "supportedVersions":["2026-07-28"],"ttlMs":0,"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"mcp-lens-python-test","version":"0.1.0"}}});
        let info = discover_as_initialize(&discover).unwrap();
        let parsed: rmcp::model::InitializeResult = serde_json::from_value(info).unwrap();
        assert_eq!(parsed.server_info.name, "mcp-lens-python-test");
        assert_eq!(parsed.protocol_version.to_string(), MODERN);
        assert!(discover_as_initialize(&json!({"supportedVersions": ["2025-11-25"]})).is_none());
    }

    #[test]
    fn input_required_rounds() {
        // Recorded from mcp 2.3.0 (a tool that elicits), state shortened.
        let result = json!({"inputRequests":{"__main__:ask_colour":{"method":"elicitation/create","params":{"message":"What is your favourite colour?","mode":"form"}}},
            "requestState":"v1.abc","resultType":"input_required"});
        let asked = input_required(&result).unwrap();
        assert_eq!(asked.request_state.as_deref(), Some("v1.abc"));
        assert_eq!(asked.requests[0].key, "__main__:ask_colour");
        assert_eq!(asked.requests[0].method, "elicitation/create");
        assert!(input_required(&json!({"content": [], "resultType": "complete"})).is_none());
        assert!(input_required(&json!({"content": []})).is_none());

        let mut responses = Map::new();
        responses.insert(
            "__main__:ask_colour".into(),
            json!({"action": "accept", "content": {"colour": "blue"}}),
        );
        let retry = retry_params(
            Some(json!({"name": "favourite_colour", "arguments": {}})),
            responses,
            asked.request_state,
        );
        assert_eq!(retry["requestState"], "v1.abc");
        assert_eq!(
            retry["inputResponses"]["__main__:ask_colour"]["content"]["colour"],
            "blue"
        );
        assert_eq!(retry["name"], "favourite_colour");
    }

    #[test]
    fn version_choices() {
        assert_eq!(VersionChoice::from_key("auto"), Some(VersionChoice::Auto));
        assert_eq!(
            VersionChoice::from_key("2025-06-18"),
            Some(VersionChoice::Pinned("2025-06-18"))
        );
        assert!(VersionChoice::Auto.tries_modern());
        assert!(!VersionChoice::Pinned("2025-03-26").tries_modern());
        assert_eq!(
            VersionChoice::Pinned("2025-03-26").handshake_version(),
            "2025-03-26"
        );
        assert_eq!(VersionChoice::Auto.handshake_version(), "2025-11-25");
    }

    #[test]
    fn a_server_saying_a_feature_needs_the_earlier_era() {
        // fastmcp 4.2.3's words, as it sends them.
        assert!(needs_handshake_era(
            "elicitation via server-initiated requests is unavailable on 2026-07-28 connections."
        ));
        assert!(needs_handshake_era(
            "Sampling is not supported on 2026-07-28 connections"
        ));
        // An error naming the era for another reason, or refusing without naming it: no offer.
        assert!(!needs_handshake_era("connected with protocol 2026-07-28"));
        assert!(!needs_handshake_era("elicitation is unavailable"));
    }

    #[cfg(not(target_arch = "wasm32"))]
    mod properties {
        use super::*;
        use crate::arbitrary;
        use proptest::prelude::*;

        proptest! {
            #[test]
            fn any_server_result_is_read_without_panicking(result in arbitrary::json(), name in ".{0,16}") {
                let _ = input_required(&result);
                let _ = discover_as_initialize(&result);
                let params = with_envelope(Some(result.clone()), &json!({}));
                let _ = routing_headers("tools/call", &params);
                let _ = encode_header_value(&name);
                let _ = retry_params(Some(result), Map::new(), Some(name));
            }
        }
    }
}
