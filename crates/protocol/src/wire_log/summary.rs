//! What the log's columns say of a JSON-RPC payload: the kind of its (first) message, its
//! method and id, and a batch's length ([`Summary`]), read without building the payload.

use crate::jsonrpc::Incoming;
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;

/// What a JSON-RPC message is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MessageKind {
    /// A `method` with an `id`: an answer is expected.
    Request,
    /// A `method` without an `id`.
    Notification,
    /// A `result`: shown as `(result)`.
    Answer,
    /// An `error`: shown as `(error)`.
    Error,
}

/// The columns of a payload: its (first) message's kind, method and id, and how many messages
/// a batch holds. Anything that is no JSON-RPC message has none of them.
///
/// ```
/// use mcp_lens_protocol::wire_log::{summarize, MessageKind};
/// let answer = summarize(r#"{"jsonrpc":"2.0","id":7,"result":{}}"#);
/// assert_eq!((answer.kind, answer.id.as_deref()), (Some(MessageKind::Answer), Some("7")));
/// assert_eq!(answer.method_text().as_deref(), Some("(result)"));
/// let batch = summarize(r#"[{"method":"ping","id":1},{"method":"ping","id":2}]"#);
/// assert_eq!(batch.method_text().as_deref(), Some("ping (batch of 2)"));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    pub kind: Option<MessageKind>,
    /// The method of a request or a notification.
    pub method: Option<String>,
    pub id: Option<String>,
    /// How many messages the payload holds, when it is a batch of more than one.
    pub batch: Option<usize>,
}

impl Summary {
    /// The method column: the method, `(result)` or `(error)`, and a batch's length.
    pub fn method_text(&self) -> Option<String> {
        method_text(self.kind, self.method.as_deref(), self.batch)
    }
}

/// The method column of a message of `kind` (the method when there is one, else what the
/// kind is called), with a batch's length.
pub(super) fn method_text(
    kind: Option<MessageKind>,
    method: Option<&str>,
    batch: Option<usize>,
) -> Option<String> {
    let text = match (method, kind) {
        (Some(method), _) => method,
        (None, Some(MessageKind::Answer)) => "(result)",
        (None, Some(MessageKind::Error)) => "(error)",
        (None, _) => return None,
    };
    Some(match batch {
        Some(count) => format!("{text} (batch of {count})"),
        None => text.to_owned(),
    })
}

/// The columns of a JSON-RPC payload ([`Summary`]). The payload is read, not built: an answer
/// can be megabytes, and only `method`, `id` and whether there is a `result` or an `error`
/// are kept (the rest is skipped without allocating).
pub fn summarize(body: &str) -> Summary {
    let Ok(Payload { first, count }) = serde_json::from_str::<Payload>(body) else {
        return Summary::default();
    };
    let kind = match (&first.method, &first.id) {
        (Some(_), Some(_)) => Some(MessageKind::Request),
        (Some(_), None) => Some(MessageKind::Notification),
        (None, _) if first.result => Some(MessageKind::Answer),
        (None, _) if first.error => Some(MessageKind::Error),
        (None, _) => None,
    };
    Summary {
        kind,
        method: first.method,
        id: first.id,
        batch: count.filter(|count| *count > 1),
    }
}

/// The columns of a payload that was received and decoded: the same as [`summarize`] gives,
/// without reading the payload a second time.
pub fn summarize_decoded(messages: &[Incoming]) -> Summary {
    let (kind, method, id) = match messages.first() {
        Some(Incoming::Result { id, .. }) => {
            (Some(MessageKind::Answer), None, Some(id.to_string()))
        }
        Some(Incoming::Error { id, .. }) => (
            Some(MessageKind::Error),
            None,
            id.as_ref().map(ToString::to_string),
        ),
        Some(Incoming::Request { id, method, .. }) => (
            Some(MessageKind::Request),
            Some(method.clone()),
            Some(id.to_string()),
        ),
        Some(Incoming::Notification { method, .. }) => {
            (Some(MessageKind::Notification), Some(method.clone()), None)
        }
        Some(Incoming::Invalid { .. }) | None => (None, None, None),
    };
    Summary {
        kind,
        method,
        id,
        batch: Some(messages.len()).filter(|count| *count > 1),
    }
}

/// What [`summarize`] keeps of a payload: its (first) message, and for a batch its length.
struct Payload {
    first: Fields,
    count: Option<usize>,
}

/// What [`summarize`] keeps of one message. Anything but an object has none of it; of keys
/// given twice, the last counts (as when the payload is parsed whole).
#[derive(Default)]
struct Fields {
    method: Option<String>,
    id: Option<String>,
    result: bool,
    error: bool,
}

impl<'de> Deserialize<'de> for Payload {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(PayloadVisitor { top: true })
    }
}

/// Reads a payload (`top`: a batch is counted) or a message inside a batch.
struct PayloadVisitor {
    top: bool,
}

impl<'de> Visitor<'de> for PayloadVisitor {
    type Value = Payload;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Payload, A::Error> {
        let mut fields = Fields::default();
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "method" => fields.method = map.next_value::<Value>()?.as_str().map(str::to_owned),
                "id" => {
                    fields.id = match map.next_value::<Value>()? {
                        Value::Null => None,
                        Value::String(text) => Some(text),
                        other => Some(other.to_string()),
                    }
                }
                "result" => {
                    map.next_value::<IgnoredAny>()?;
                    fields.result = true;
                }
                "error" => {
                    map.next_value::<IgnoredAny>()?;
                    fields.error = true;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(Payload {
            first: fields,
            count: None,
        })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Payload, A::Error> {
        if !self.top {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            return Ok(Payload::none());
        }
        let first = seq
            .next_element_seed(PayloadVisitor { top: false })?
            .map(|message| message.first);
        let mut count = usize::from(first.is_some());
        while seq.next_element::<IgnoredAny>()?.is_some() {
            count += 1;
        }
        Ok(Payload {
            first: first.unwrap_or_default(),
            count: Some(count),
        })
    }

    fn visit_bool<E>(self, _: bool) -> Result<Payload, E> {
        Ok(Payload::none())
    }

    fn visit_i64<E>(self, _: i64) -> Result<Payload, E> {
        Ok(Payload::none())
    }

    fn visit_u64<E>(self, _: u64) -> Result<Payload, E> {
        Ok(Payload::none())
    }

    fn visit_f64<E>(self, _: f64) -> Result<Payload, E> {
        Ok(Payload::none())
    }

    fn visit_str<E>(self, _: &str) -> Result<Payload, E> {
        Ok(Payload::none())
    }

    fn visit_unit<E>(self) -> Result<Payload, E> {
        Ok(Payload::none())
    }
}

impl<'de> DeserializeSeed<'de> for PayloadVisitor {
    type Value = Payload;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Payload, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl Payload {
    fn none() -> Self {
        Payload {
            first: Fields::default(),
            count: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The method and id columns, as text.
    fn columns(summary: Summary) -> (Option<String>, Option<String>) {
        (summary.method_text(), summary.id)
    }

    #[test]
    fn summaries_of_odd_payloads() {
        let summarize = |body: &str| columns(summarize(body));
        assert_eq!(summarize("not json"), (None, None));
        assert_eq!(
            summarize(r#"[{"id":"a","method":"ping"},{"id":"b","method":"ping"}]"#),
            (Some("ping (batch of 2)".into()), Some("a".into()))
        );
        assert_eq!(
            summarize(r#"{"id":null,"error":{}}"#),
            (Some("(error)".into()), None)
        );
        // Read as a whole value would read them: null results count, the last key wins,
        // a method that is not a string is none, numbers as ids are text.
        assert_eq!(
            summarize(r#"{"id":7,"result":null,"error":1}"#),
            (Some("(result)".into()), Some("7".into()))
        );
        assert_eq!(
            summarize(r#"{"method":"a","method":"b","id":{"x":[1]}}"#),
            (Some("b".into()), Some(r#"{"x":[1]}"#.into()))
        );
        assert_eq!(
            summarize(r#"{"method":5,"id":"x"}"#),
            (None, Some("x".into()))
        );
        assert_eq!(summarize(r#"[]"#), (None, None));
        assert_eq!(summarize(r#"[1, {"method":"ping"}]"#), (None, None));
        assert_eq!(
            summarize(r#"[{"id":1,"result":[[1],{"a":2}]}]"#),
            (Some("(result)".into()), Some("1".into()))
        );
        for odd in [
            "\"text\"",
            "42",
            "null",
            "true",
            "",
            "{\"id\":1} trailing",
            "[{\"id\":1]",
        ] {
            assert_eq!(summarize(odd), (None, None), "{odd}");
        }
    }

    #[test]
    fn decoded_payloads_summarize_like_their_text() {
        for body in [
            r#"{"jsonrpc":"2.0","id":3,"result":{"content":[]}}"#,
            r#"{"jsonrpc":"2.0","id":"a","error":{"code":-1,"message":"no"}}"#,
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-1,"message":"no"}}"#,
            r#"{"jsonrpc":"2.0","id":4,"method":"roots/list"}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{}}"#,
            r#"[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","id":1,"result":{}}]"#,
            "not json",
        ] {
            let decoded = crate::jsonrpc::decode_incoming(body);
            assert_eq!(summarize_decoded(&decoded), summarize(body), "{body}");
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        /// The summary reads what the whole value says, for any JSON.
        #[test]
        fn summaries_agree_with_the_whole_value(value in crate::arbitrary::json()) {
            let body = serde_json::to_string(&value).unwrap();
            proptest::prop_assert_eq!(columns(summarize(&body)), summarize_whole(&body));
        }
    }

    /// The summary as it was made before: from the whole value.
    #[cfg(not(target_arch = "wasm32"))]
    fn summarize_whole(body: &str) -> (Option<String>, Option<String>) {
        let Ok(value) = serde_json::from_str::<Value>(body) else {
            return (None, None);
        };
        let first = match &value {
            Value::Array(items) => items.first().cloned().unwrap_or(Value::Null),
            other => other.clone(),
        };
        let method = first
            .get("method")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .or_else(|| match () {
                _ if first.get("result").is_some() => Some("(result)".to_owned()),
                _ if first.get("error").is_some() => Some("(error)".to_owned()),
                _ => None,
            });
        let id = first
            .get("id")
            .filter(|id| !id.is_null())
            .map(|id| match id {
                Value::String(text) => text.clone(),
                other => other.to_string(),
            });
        let method = match &value {
            Value::Array(items) if items.len() > 1 => {
                method.map(|m| format!("{m} (batch of {})", items.len()))
            }
            _ => method,
        };
        (method, id)
    }
}
