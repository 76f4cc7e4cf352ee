//! The three wire formats: a provider-neutral [`ModelRequest`] in, the dialect's HTTP request
//! out ([`build_request`]); the dialect's answer in, [`Delta`]s out, whole
//! ([`decode_answer`]) or as an event stream ([`stream_decoder`]); an error answer in, a typed
//! error out ([`classify_error`]).
//!
//! Every function here is pure and total: any bytes a provider sends give deltas or an error
//! value, never a panic (property-tested in `tests/stream_properties.rs`).
//!
//! This file picks the dialect; `shared.rs` holds what every dialect builds from and reads
//! with, and the dialects (`openai.rs`, `anthropic.rs`, `gemini.rs`) import it, never this file.

pub mod anthropic;
pub mod gemini;
pub mod openai;
mod provider_error;
mod shared;

pub use provider_error::classify_error;
pub use shared::{
    HttpCall, ModelRequest, StreamDecoder, ToolChoice, DEFAULT_MAX_TOKENS,
    DEFAULT_MAX_TOOL_RESULT_CHARS,
};

use crate::error::{ChatError, ChatErrorKind, ChatStep};
use crate::provider::{Dialect, ProviderConfig};
use crate::stream::Delta;
use mcp_lens_client::protocol::url::WebUrl;
use serde_json::Value;
use shared::invalid;

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

pub fn stream_decoder(dialect: Dialect) -> Box<dyn StreamDecoder> {
    match dialect {
        Dialect::OpenAiCompatible => Box::new(openai::OpenAiStream::default()),
        Dialect::Anthropic => Box::new(anthropic::AnthropicStream::default()),
        Dialect::Gemini => Box::new(gemini::GeminiStream::default()),
    }
}
