//! JSON-RPC 2.0 envelopes: id allocation, encoding outgoing messages, and classifying
//! incoming ones without trusting their shape.

use rmcp::model::ErrorData;
pub use rmcp::model::RequestId;
use serde::Serialize;
use serde_json::{Map, Value};

/// Hands out request ids: 0, 1, 2, ... (like the TypeScript SDK, so id 0 is exercised on
/// every connection: JavaScript servers that treat 0 as "no id" are caught at once).
#[derive(Debug, Default)]
pub struct IdAllocator {
    next: i64,
}

impl IdAllocator {
    pub fn next_id(&mut self) -> RequestId {
        let id = self.next;
        self.next += 1;
        RequestId::Number(id)
    }
}

/// Serializes a request. `params` of `None` omits the member.
pub fn encode_request(id: &RequestId, method: &str, params: Option<&impl Serialize>) -> String {
    let mut message = envelope();
    message.insert("id".into(), id.clone().into_json_value());
    message.insert("method".into(), method.into());
    insert_params(&mut message, params);
    Value::Object(message).to_string()
}

/// Serializes a notification (a request without an id).
pub fn encode_notification(method: &str, params: Option<&impl Serialize>) -> String {
    let mut message = envelope();
    message.insert("method".into(), method.into());
    insert_params(&mut message, params);
    Value::Object(message).to_string()
}

/// Serializes a successful response to a server-to-client request.
pub fn encode_result(id: &RequestId, result: Value) -> String {
    let mut message = envelope();
    message.insert("id".into(), id.clone().into_json_value());
    message.insert("result".into(), result);
    Value::Object(message).to_string()
}

/// Serializes an error response to a server-to-client request.
pub fn encode_error(id: &RequestId, code: i32, text: &str) -> String {
    let mut message = envelope();
    message.insert("id".into(), id.clone().into_json_value());
    message.insert(
        "error".into(),
        serde_json::json!({ "code": code, "message": text }),
    );
    Value::Object(message).to_string()
}

fn envelope() -> Map<String, Value> {
    let mut message = Map::new();
    message.insert("jsonrpc".into(), "2.0".into());
    message
}

fn insert_params(message: &mut Map<String, Value>, params: Option<&impl Serialize>) {
    if let Some(params) = params {
        // Serializing our own parameter types cannot fail; `Null` keeps this total anyway.
        let value = serde_json::to_value(params).unwrap_or(Value::Null);
        message.insert("params".into(), value);
    }
}

/// JSON-RPC "method not found", answered to server requests this client does not handle.
pub const METHOD_NOT_FOUND: i32 = -32601;

/// One classified incoming message.
#[derive(Debug, Clone, PartialEq)]
pub enum Incoming {
    /// A successful response; `result` is still raw, to be decoded by whoever asked.
    Result { id: RequestId, result: Value },
    /// An error response. `id` is `None` when the server could not read our id.
    Error {
        id: Option<RequestId>,
        error: ErrorData,
    },
    /// A request from the server that needs an answer.
    Request {
        id: RequestId,
        method: String,
        params: Option<Value>,
    },
    /// A notification from the server.
    Notification {
        method: String,
        params: Option<Value>,
    },
    /// Anything else: kept with a human reason so it can be logged, never acted on.
    Invalid { reason: String },
}

/// Parses a JSON-RPC payload (one message or a batch) into classified messages.
/// Never fails: malformed input becomes [`Incoming::Invalid`].
pub fn decode_incoming(text: &str) -> Vec<Incoming> {
    decode_value(serde_json::from_str::<Value>(text))
}

/// [`decode_incoming`] of a payload already parsed (or refused) by `serde_json`.
pub(crate) fn decode_value(parsed: Result<Value, serde_json::Error>) -> Vec<Incoming> {
    match parsed {
        Ok(Value::Array(items)) if !items.is_empty() => items.into_iter().map(classify).collect(),
        Ok(Value::Array(_)) => vec![invalid("an empty JSON-RPC batch")],
        Ok(value) => vec![classify(value)],
        Err(err) if err.to_string().contains("recursion limit") => vec![invalid(format!(
            "the message is nested deeper than the 128 levels JSON is read to here ({err})"
        ))],
        Err(err) => vec![invalid(format!("the message is not valid JSON ({err})"))],
    }
}

fn invalid(reason: impl Into<String>) -> Incoming {
    Incoming::Invalid {
        reason: reason.into(),
    }
}

fn classify(value: Value) -> Incoming {
    let Value::Object(mut message) = value else {
        return invalid("the message is not a JSON object");
    };
    let id = match message.remove("id") {
        None | Some(Value::Null) => None,
        Some(raw) => match serde_json::from_value::<RequestId>(raw) {
            Ok(id) => Some(id),
            Err(_) => return invalid("the message id is neither an integer nor a string"),
        },
    };
    let method = match message.remove("method") {
        None => None,
        Some(Value::String(method)) => Some(method),
        Some(_) => return invalid("the message's method is not a string"),
    };
    let params = message.remove("params");
    if let Some(method) = method {
        return match id {
            Some(id) => Incoming::Request { id, method, params },
            None => Incoming::Notification { method, params },
        };
    }
    if let Some(error) = message.remove("error") {
        return match serde_json::from_value::<ErrorData>(error) {
            Ok(error) => Incoming::Error { id, error },
            Err(err) => invalid(format!("the error object is malformed ({err})")),
        };
    }
    match (id, message.remove("result")) {
        (Some(id), Some(result)) => Incoming::Result { id, result },
        (None, Some(_)) => invalid("a result without an id"),
        _ => invalid("the message has neither method, result nor error"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ids_start_at_zero_and_increase() {
        let mut ids = IdAllocator::default();
        assert_eq!(ids.next_id(), RequestId::Number(0));
        assert_eq!(ids.next_id(), RequestId::Number(1));
    }

    #[test]
    fn encodes_requests_and_notifications() {
        let text = encode_request(&RequestId::Number(0), "tools/list", Some(&json!({})));
        let value: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            value,
            json!({"jsonrpc":"2.0","id":0,"method":"tools/list","params":{}})
        );
        let text = encode_notification("notifications/initialized", None::<&Value>);
        let value: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            value,
            json!({"jsonrpc":"2.0","method":"notifications/initialized"})
        );
    }

    #[test]
    fn classifies_every_kind() {
        let batch = r#"[
            {"jsonrpc":"2.0","id":0,"result":{"tools":[]}},
            {"jsonrpc":"2.0","id":"abc","error":{"code":-32602,"message":"bad"}},
            {"jsonrpc":"2.0","id":0,"method":"roots/list"},
            {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info"}},
            {"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}},
            42
        ]"#;
        let messages = decode_incoming(batch);
        assert!(
            matches!(&messages[0], Incoming::Result { id: RequestId::Number(0), result } if result == &json!({"tools":[]}))
        );
        assert!(
            matches!(&messages[1], Incoming::Error { id: Some(RequestId::String(s)), error } if &**s == "abc" && error.code.0 == -32602)
        );
        assert!(
            matches!(&messages[2], Incoming::Request { id: RequestId::Number(0), method, .. } if method == "roots/list")
        );
        assert!(
            matches!(&messages[3], Incoming::Notification { method, .. } if method == "notifications/message")
        );
        assert!(matches!(&messages[4], Incoming::Error { id: None, .. }));
        assert!(matches!(&messages[5], Incoming::Invalid { .. }));
    }

    #[test]
    fn malformed_input_is_invalid_not_a_panic() {
        for text in [
            "",
            "not json",
            "[]",
            "{}",
            r#"{"id":{"x":1},"result":1}"#,
            r#"{"id":1.5,"result":1}"#,
            r#"{"method":7}"#,
            r#"{"result":1}"#,
            r#"{"id":1,"error":"boom"}"#,
        ] {
            let messages = decode_incoming(text);
            assert_eq!(messages.len(), 1, "{text}");
            assert!(matches!(messages[0], Incoming::Invalid { .. }), "{text}");
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    mod properties {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #[test]
            fn arbitrary_text_never_panics(text in ".{0,200}") {
                let _ = decode_incoming(&text);
            }
        }
    }
}
