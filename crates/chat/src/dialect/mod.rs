//! The three wire formats: a provider-neutral [`ModelRequest`] in, the dialect's HTTP request
//! out ([`build_request`]); the dialect's answer in, [`Delta`]s out, whole
//! ([`decode_answer`]) or as an event stream ([`stream_decoder`]); an error answer in, a typed
//! error out ([`classify_error`]).
//!
//! Every function here is pure and total: any bytes a provider sends give deltas or an error
//! value, never a panic (property-tested in `tests/stream_properties.rs`).

pub mod anthropic;
pub mod gemini;
pub mod openai;
mod provider_error;

pub use provider_error::classify_error;

use crate::conversation::{Message, ToolCall};
use crate::error::{ChatError, ChatErrorKind, ChatStep};
use crate::names::provider_name;
use crate::provider::{Dialect, ProviderConfig};
use crate::schema_convert::Dropped;
use crate::stream::Delta;
use crate::tools::ToolSet;
use mcp_lens_client::protocol::sse::SseEvent;
use mcp_lens_client::protocol::url::WebUrl;
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

/// The request for `config`'s dialect. Its URL is built from `config.base_url` and checked to
/// stay on that origin: the key goes nowhere else.
pub fn build_request(
    config: &ProviderConfig,
    request: &ModelRequest<'_>,
) -> Result<HttpCall, ChatError> {
    let origin = config.origin()?;
    if config.model.is_empty() {
        return Err(invalid("Choose a model: the provider needs its name."));
    }
    let mut call = match config.dialect {
        Dialect::OpenAiCompatible => openai::build(config, request),
        Dialect::Anthropic => anthropic::build(config, request)?,
        Dialect::Gemini => gemini::build(config, request)?,
    };
    // What is sent is the address as this reader wrote it, which the browser reads back the
    // same: the origin checked is the origin fetched.
    match WebUrl::parse(&call.url) {
        Ok(url) if url.origin() == origin.origin() && !url.has_credentials() => {
            call.url = url.into_href();
            Ok(call)
        }
        _ => Err(invalid(
            "The model name would send the request to another address; check it.",
        )),
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

/// Reads an answer that came whole (not as an event stream).
pub fn decode_answer(dialect: Dialect, body: &str) -> Result<Vec<Delta>, ChatError> {
    let malformed =
        |detail: String| ChatError::new(ChatStep::ReadAnswer, ChatErrorKind::Malformed { detail });
    let json: Value =
        serde_json::from_str(body.trim_start_matches('\u{feff}')).map_err(|error| {
            malformed(format!(
                "the answer is not JSON ({error}); it starts with {:?}",
                crate::error::excerpt(body, 200)
            ))
        })?;
    let mut out = Vec::new();
    match dialect {
        Dialect::OpenAiCompatible => openai::answer_deltas(&json, &mut out),
        Dialect::Anthropic => anthropic::answer_deltas(&json, &mut out),
        Dialect::Gemini => gemini::answer_deltas(&json, &mut out),
    }
    .map_err(malformed)?;
    Ok(out)
}

/// Turns a dialect's event stream into deltas, an event at a time.
pub trait StreamDecoder {
    fn event(&mut self, event: &SseEvent, out: &mut Vec<Delta>);
    /// The stream ended (after its last event).
    fn end(&mut self, _out: &mut Vec<Delta>) {}
}

pub fn stream_decoder(dialect: Dialect) -> Box<dyn StreamDecoder> {
    match dialect {
        Dialect::OpenAiCompatible => Box::new(openai::OpenAiStream::default()),
        Dialect::Anthropic => Box::new(anthropic::AnthropicStream::default()),
        Dialect::Gemini => Box::new(gemini::GeminiStream::default()),
    }
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
