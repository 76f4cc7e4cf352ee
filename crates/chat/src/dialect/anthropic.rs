//! Anthropic Messages (`POST {base_url}/v1/messages`, `anthropic-version: 2023-06-01`, and
//! `anthropic-dangerous-direct-browser-access: true`, without which Anthropic refuses a page).
//!
//! Requests: `system` at the top; `max_tokens` always (required); `temperature` within 0..1;
//! tool results as `tool_result` blocks first in the user message (as Anthropic requires), with
//! `is_error` and image blocks; `tool_choice` `auto`/`any`/`none`/`tool`.
//! Answers: `content` blocks (`text`, `tool_use`, `thinking`), `stop_reason` (`end_turn`,
//! `max_tokens`, `stop_sequence`, `tool_use`, `refusal`, `pause_turn`), `usage`; the stream's
//! `message_start`, `content_block_start`/`_delta`/`_stop` (`text_delta`, `input_json_delta`,
//! `thinking_delta`), `message_delta`, `message_stop`, `ping` and `error` events.

use super::provider_error::classify_error;
use super::shared::{
    arguments_object, call_names, count, event_json, invalid, ModelRequest, StreamDecoder,
    ToolChoice,
};
use super::shared::{is_common_image, string_at, HttpCall, DEFAULT_MAX_TOKENS};
use crate::conversation::{Part, Role, StopReason, Usage};
use crate::error::ChatError;
use crate::provider::ProviderConfig;
use crate::schema_convert::Dropped;
use crate::stream::Delta;
use crate::tool_result::result_pieces;
use mcp_lens_client::protocol::sse::SseEvent;
use serde_json::{json, Map, Value};

pub const ANTHROPIC_VERSION: &str = "2023-06-01";

pub(crate) fn build(
    config: &ProviderConfig,
    request: &ModelRequest<'_>,
) -> Result<HttpCall, ChatError> {
    let key = config.require_key()?;
    let mut dropped = Vec::new();
    let names = call_names(request.messages, request.tools);
    let mut messages = Vec::new();
    for message in request.messages {
        let mut blocks: Vec<Value> = Vec::new();
        match message.role {
            Role::Assistant => {
                for part in &message.parts {
                    match part {
                        Part::Text { text } if !text.is_empty() => {
                            blocks.push(json!({ "type": "text", "text": text }))
                        }
                        Part::ToolCall(call) => {
                            if call.invalid_arguments.is_some() {
                                dropped.push(Dropped::new("/messages", format!("the unreadable arguments of the call {}", call.id), "Anthropic takes a call's input as an object; an empty one is sent (its result says what was wrong)"));
                            }
                            blocks.push(json!({
                                "type": "tool_use",
                                "id": call.id,
                                "name": names.get(call.id.as_str()).cloned().unwrap_or_default(),
                                "input": arguments_object(call)
                            }));
                        }
                        _ => {}
                    }
                }
            }
            Role::User => {
                // Tool results first: Anthropic refuses them after other blocks.
                for result in message.tool_results() {
                    let pieces = result_pieces(&result.result, request.max_tool_result_chars);
                    dropped.extend(pieces.dropped);
                    let mut content: Vec<Value> = Vec::new();
                    if !pieces.text.is_empty() {
                        content.push(json!({ "type": "text", "text": pieces.text }));
                    }
                    for (mime, data) in &pieces.images {
                        content.push(image_block(mime, data, &mut dropped));
                    }
                    if !pieces.audio.is_empty() {
                        dropped.push(Dropped::new(
                            "/content",
                            format!("audio in the result of {}", result.name),
                            "Anthropic takes text and images",
                        ));
                    }
                    content.retain(|c| !c.is_null());
                    let mut block = Map::new();
                    block.insert("type".into(), json!("tool_result"));
                    block.insert("tool_use_id".into(), json!(result.call_id));
                    if !content.is_empty() {
                        block.insert("content".into(), Value::Array(content));
                    }
                    if pieces.is_error {
                        block.insert("is_error".into(), json!(true));
                    }
                    blocks.push(Value::Object(block));
                }
                for part in &message.parts {
                    match part {
                        Part::Text { text } if !text.is_empty() => {
                            blocks.push(json!({ "type": "text", "text": text }))
                        }
                        Part::Image { mime_type, data } => {
                            blocks.push(image_block(mime_type, data, &mut dropped))
                        }
                        Part::Audio { mime_type, .. } => dropped.push(Dropped::new(
                            "/messages",
                            format!("audio ({mime_type})"),
                            "Anthropic takes text and images",
                        )),
                        _ => {}
                    }
                }
                blocks.retain(|b| !b.is_null());
            }
        }
        if blocks.is_empty() {
            continue;
        }
        let role = if message.role == Role::User {
            "user"
        } else {
            "assistant"
        };
        messages.push(json!({ "role": role, "content": blocks }));
    }
    if messages.is_empty() {
        return Err(invalid(
            "There is nothing to send yet: write a message first.",
        ));
    }

    let mut body = Map::new();
    body.insert("model".into(), json!(config.model));
    body.insert(
        "max_tokens".into(),
        json!(request.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS)),
    );
    if let Some(system) = request.system.filter(|s| !s.trim().is_empty()) {
        body.insert("system".into(), json!(system));
    }
    body.insert("messages".into(), Value::Array(messages));
    if let Some(temperature) = request.temperature {
        let clamped = temperature.clamp(0.0, 1.0);
        if clamped != temperature {
            dropped.push(Dropped::new(
                "/temperature",
                format!("temperature {temperature}"),
                format!("Anthropic takes 0 to 1; sent as {clamped}"),
            ));
        }
        body.insert("temperature".into(), json!(clamped));
    }
    if !request.stop_sequences.is_empty() {
        body.insert("stop_sequences".into(), json!(request.stop_sequences));
    }
    if !request.tools.definitions.is_empty() {
        let tools: Vec<Value> = request
            .tools
            .definitions
            .iter()
            .map(|d| {
                json!({
                    "name": d.provider_name,
                    "description": d.description,
                    "input_schema": d.parameters.clone().unwrap_or_else(|| json!({ "type": "object", "properties": {} }))
                })
            })
            .collect();
        body.insert("tools".into(), Value::Array(tools));
        body.insert(
            "tool_choice".into(),
            match &request.tool_choice {
                ToolChoice::Auto => json!({ "type": "auto" }),
                ToolChoice::Required => json!({ "type": "any" }),
                ToolChoice::None => json!({ "type": "none" }),
                ToolChoice::Tool(name) => json!({ "type": "tool", "name": name }),
            },
        );
    }
    if request.stream {
        body.insert("stream".into(), json!(true));
    }
    Ok(HttpCall {
        url: format!("{}/v1/messages", config.base_url),
        headers: vec![
            ("content-type".to_owned(), "application/json".to_owned()),
            ("x-api-key".to_owned(), key.expose().trim().to_owned()),
            ("anthropic-version".to_owned(), ANTHROPIC_VERSION.to_owned()),
            (
                "anthropic-dangerous-direct-browser-access".to_owned(),
                "true".to_owned(),
            ),
        ],
        body: Value::Object(body).to_string(),
        dropped,
    })
}

fn image_block(mime: &str, data: &str, dropped: &mut Vec<Dropped>) -> Value {
    if !is_common_image(mime) {
        dropped.push(Dropped::new(
            "/content",
            format!("an image of type {mime}"),
            "Anthropic takes PNG, JPEG, GIF and WebP",
        ));
        return Value::Null;
    }
    json!({ "type": "image", "source": { "type": "base64", "media_type": mime, "data": data } })
}

fn stop_reason(reason: &str, sequence: Option<&Value>) -> StopReason {
    match reason {
        "end_turn" => StopReason::EndTurn,
        "max_tokens" => StopReason::MaxTokens,
        "tool_use" => StopReason::ToolUse,
        "stop_sequence" => StopReason::StopSequence {
            sequence: sequence.and_then(Value::as_str).map(str::to_owned),
        },
        "refusal" => StopReason::Refusal {
            detail: "the model declined to answer (stop_reason: refusal)".into(),
        },
        other => StopReason::Other {
            reason: other.to_owned(),
        },
    }
}

fn usage(value: Option<&Value>) -> Option<Usage> {
    let usage = value.filter(|u| u.is_object())?;
    Some(Usage {
        input_tokens: count(usage.get("input_tokens")),
        output_tokens: count(usage.get("output_tokens")),
    })
}

/// A whole answer (`"type": "message"`).
pub(crate) fn answer_deltas(json: &Value, out: &mut Vec<Delta>) -> Result<(), String> {
    if json.get("type").and_then(Value::as_str) == Some("error") {
        out.push(Delta::Error(classify_error(None, None, &json.to_string())));
        return Ok(());
    }
    let content = json
        .get("content")
        .and_then(Value::as_array)
        .ok_or("the answer has no content")?;
    if let Some(model) = json.get("model").and_then(Value::as_str) {
        out.push(Delta::Model(model.to_owned()));
    }
    for (key, block) in content.iter().enumerate() {
        match block.get("type").and_then(Value::as_str) {
            Some("text") => {
                if let Some(text) = block.get("text").and_then(Value::as_str) {
                    out.push(Delta::Text(text.to_owned()));
                }
            }
            Some("thinking") => {
                if let Some(text) = block.get("thinking").and_then(Value::as_str) {
                    out.push(Delta::Reasoning(text.to_owned()));
                }
            }
            Some("tool_use") => {
                out.push(Delta::ToolCallStart {
                    key,
                    id: string_at(block, "id"),
                    name: string_at(block, "name"),
                    provider_data: None,
                });
                let input = block.get("input").cloned().unwrap_or_else(|| json!({}));
                out.push(Delta::ToolCallArguments {
                    key,
                    json: input.to_string(),
                });
                out.push(Delta::ToolCallEnd { key });
            }
            _ => {}
        }
    }
    if let Some(usage) = usage(json.get("usage")) {
        out.push(Delta::Usage(usage));
    }
    let reason = json
        .get("stop_reason")
        .and_then(Value::as_str)
        .unwrap_or("end_turn");
    out.push(Delta::Stop(stop_reason(reason, json.get("stop_sequence"))));
    Ok(())
}

/// The stream's state: the content blocks that are tool calls.
#[derive(Default)]
pub struct AnthropicStream {
    tool_blocks: Vec<usize>,
    stopped: bool,
}

impl StreamDecoder for AnthropicStream {
    fn event(&mut self, event: &SseEvent, out: &mut Vec<Delta>) {
        if event.data.trim().is_empty() {
            return;
        }
        let Some(json) = event_json(event, out) else {
            return;
        };
        let kind = json
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or(event.event.as_str());
        let index = json
            .get("index")
            .and_then(Value::as_u64)
            .map(|i| i as usize);
        match kind {
            "message_start" => {
                let message = json.get("message").unwrap_or(&Value::Null);
                if let Some(model) = message.get("model").and_then(Value::as_str) {
                    out.push(Delta::Model(model.to_owned()));
                }
                if let Some(usage) = usage(message.get("usage")) {
                    out.push(Delta::Usage(usage));
                }
            }
            "content_block_start" => {
                let (Some(index), Some(block)) = (index, json.get("content_block")) else {
                    return;
                };
                match block.get("type").and_then(Value::as_str) {
                    Some("tool_use") => {
                        self.tool_blocks.push(index);
                        out.push(Delta::ToolCallStart {
                            key: index,
                            id: string_at(block, "id"),
                            name: string_at(block, "name"),
                            provider_data: None,
                        });
                    }
                    Some("text") => {
                        if let Some(text) = block
                            .get("text")
                            .and_then(Value::as_str)
                            .filter(|t| !t.is_empty())
                        {
                            out.push(Delta::Text(text.to_owned()));
                        }
                    }
                    _ => {}
                }
            }
            "content_block_delta" => {
                let (Some(index), Some(delta)) = (index, json.get("delta")) else {
                    return;
                };
                match delta.get("type").and_then(Value::as_str) {
                    Some("text_delta") => {
                        if let Some(text) = delta.get("text").and_then(Value::as_str) {
                            out.push(Delta::Text(text.to_owned()));
                        }
                    }
                    Some("input_json_delta") => {
                        if let Some(piece) = delta.get("partial_json").and_then(Value::as_str) {
                            out.push(Delta::ToolCallArguments {
                                key: index,
                                json: piece.to_owned(),
                            });
                        }
                    }
                    Some("thinking_delta") => {
                        if let Some(text) = delta.get("thinking").and_then(Value::as_str) {
                            out.push(Delta::Reasoning(text.to_owned()));
                        }
                    }
                    _ => {}
                }
            }
            "content_block_stop" => {
                if let Some(index) = index.filter(|i| self.tool_blocks.contains(i)) {
                    out.push(Delta::ToolCallEnd { key: index });
                }
            }
            "message_delta" => {
                if let Some(reason) = json.pointer("/delta/stop_reason").and_then(Value::as_str) {
                    self.stopped = true;
                    out.push(Delta::Stop(stop_reason(
                        reason,
                        json.pointer("/delta/stop_sequence"),
                    )));
                }
                if let Some(usage) = usage(json.get("usage")) {
                    out.push(Delta::Usage(usage));
                }
            }
            "message_stop" if !self.stopped => {
                self.stopped = true;
                out.push(Delta::Stop(StopReason::EndTurn));
            }
            "error" => out.push(Delta::Error(classify_error(None, None, &json.to_string()))),
            // `ping`, and event types added later (Anthropic's versioning policy allows them).
            _ => {}
        }
    }
}
