//! What every dialect builds from and reads with: the provider-neutral request, the HTTP
//! call, the stream decoder's trait, and the helpers the three dialects share.

use super::provider_error::classify_error;
use crate::conversation::{Message, ToolCall};
use crate::error::{ChatError, ChatErrorKind, ChatStep};
use crate::names::provider_name;
use crate::schema_convert::Dropped;
use crate::stream::Delta;
use crate::tools::ToolSet;
use mcp_lens_client::protocol::sse::SseEvent;
use serde_json::Value;
use std::collections::HashMap;

/// How the model may use the tools.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum ToolChoice {
    #[default]
    Auto,
    /// At least one tool call.
    Required,
    None,
    /// This tool (its provider-visible name).
    Tool(String),
}

/// What to ask the model, whatever the dialect.
#[derive(Debug, Clone)]
pub struct ModelRequest<'a> {
    pub system: Option<&'a str>,
    pub messages: &'a [Message],
    pub temperature: Option<f64>,
    pub max_tokens: Option<u32>,
    pub stop_sequences: &'a [String],
    pub tools: &'a ToolSet,
    pub tool_choice: ToolChoice,
    pub stream: bool,
    /// Each tool result's text is cut to this many characters.
    pub max_tool_result_chars: usize,
}

/// Anthropic requires `max_tokens`; this is sent when the conversation sets none.
pub const DEFAULT_MAX_TOKENS: u32 = 4_096;
/// Tool-result text sent to the model, per result, when nothing else is set.
pub const DEFAULT_MAX_TOOL_RESULT_CHARS: usize = 100_000;

/// The HTTP request for one model turn.
#[derive(Clone, PartialEq)]
pub struct HttpCall {
    pub url: String,
    /// Holds the key: never logged whole (see [`mcp_lens_client::protocol::wire_log::redact_headers`]).
    pub headers: Vec<(String, String)>,
    pub body: String,
    /// What the conversion to this dialect could not keep.
    pub dropped: Vec<Dropped>,
}

impl std::fmt::Debug for HttpCall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpCall")
            .field("url", &crate::provider::redacted_url(&self.url))
            .field(
                "headers",
                &mcp_lens_client::protocol::wire_log::redact_headers(&self.headers),
            )
            .field("body_bytes", &self.body.len())
            .finish()
    }
}

pub(crate) fn invalid(detail: &str) -> ChatError {
    ChatError::new(
        ChatStep::BuildRequest,
        ChatErrorKind::InvalidSettings {
            detail: detail.to_owned(),
        },
    )
}

/// Turns a dialect's event stream into deltas, an event at a time.
pub trait StreamDecoder {
    fn event(&mut self, event: &SseEvent, out: &mut Vec<Delta>);
    /// The stream ended (after its last event).
    fn end(&mut self, _out: &mut Vec<Delta>) {}
}

/// The name each earlier call goes back under: the tool's name in the current set when the
/// call's tool is there (names can change when servers are added), else the name the model
/// wrote, made valid for the dialect.
pub(crate) fn call_names<'a>(messages: &'a [Message], tools: &ToolSet) -> HashMap<&'a str, String> {
    let mut names = HashMap::new();
    for message in messages {
        for call in message.tool_calls() {
            names.insert(call.id.as_str(), name_for(call, tools));
        }
    }
    names
}

fn name_for(call: &ToolCall, tools: &ToolSet) -> String {
    match (&call.server_id, &call.tool_name) {
        (Some(server), Some(tool)) => match tools.find(server, tool) {
            Some(definition) => definition.provider_name.clone(),
            None => provider_name(&call.name, tools.dialect),
        },
        _ => provider_name(&call.name, tools.dialect),
    }
}

/// A call's arguments as the object a dialect sends back (the text, when they were not JSON,
/// is replaced by an empty object: the model sees the error in the call's result).
pub(crate) fn arguments_object(call: &ToolCall) -> Value {
    match &call.arguments {
        Value::Object(_) if call.invalid_arguments.is_none() => call.arguments.clone(),
        _ => Value::Object(Default::default()),
    }
}

/// The error a provider put inside an answer (`{"error": ...}`) as a delta.
pub(crate) fn error_delta(error: &Value) -> Delta {
    Delta::Error(classify_error(
        None,
        None,
        &serde_json::json!({ "error": error }).to_string(),
    ))
}

/// A string member of a provider's JSON, or "" (answers are read leniently).
pub(crate) fn string_at(value: &Value, key: &str) -> String {
    value
        .get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

/// The provider's id for a call, or one made up for the `key`th call of the answer.
pub(crate) fn call_id_or_generated(id: Option<&Value>, key: usize) -> String {
    match id.and_then(Value::as_str) {
        Some(id) if !id.is_empty() => id.to_owned(),
        _ => generated_call_id(key),
    }
}

pub(crate) fn generated_call_id(key: usize) -> String {
    format!("{}{key}", crate::conversation::GENERATED_CALL_ID_PREFIX)
}

/// A number a provider sent, as a token count.
pub(crate) fn count(value: Option<&Value>) -> Option<u64> {
    value.and_then(Value::as_u64)
}

/// The data of an event as JSON; when it is not, the malformed-answer delta goes out instead.
pub(crate) fn event_json(event: &SseEvent, out: &mut Vec<Delta>) -> Option<Value> {
    match serde_json::from_str(&event.data) {
        Ok(json) => Some(json),
        Err(error) => {
            out.push(Delta::Error(ChatErrorKind::Malformed {
                detail: format!(
                    "an event of the stream is not JSON ({error}): {:?}",
                    crate::error::excerpt(&event.data, 200)
                ),
            }));
            None
        }
    }
}

/// An image MIME type Anthropic and OpenAI take.
pub(crate) fn is_common_image(mime: &str) -> bool {
    matches!(
        mime,
        "image/png" | "image/jpeg" | "image/gif" | "image/webp"
    )
}
