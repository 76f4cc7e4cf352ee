//! OpenAI-compatible chat completions (`POST {base_url}/chat/completions`), the dialect of
//! OpenAI, OpenRouter, Groq, Mistral, DeepSeek, xAI, Together, Ollama, llama.cpp's server,
//! LM Studio and vLLM.
//!
//! Requests: a `system` message, `tool` messages for results (text only: their images follow in
//! a user message), `max_completion_tokens` for OpenAI itself (its newer models refuse
//! `max_tokens`) and `max_tokens` elsewhere, `stream_options.include_usage` when streaming.
//! Answers: `choices[0].message` or `choices[0].delta` with `content`, `tool_calls` (keyed by
//! `index`; a server that omits it is followed by `id`), `refusal`, `reasoning_content` (DeepSeek,
//! llama.cpp) or `reasoning`; `finish_reason`; `usage` (the last chunk, with `choices: []`);
//! `data: [DONE]`; `{"error": ...}` inside a stream (OpenRouter, llama.cpp).

use super::shared::{
    arguments_object, call_names, count, event_json, ModelRequest, StreamDecoder, ToolChoice,
};
use super::shared::{
    call_id_or_generated, error_delta, generated_call_id, is_common_image, string_at, HttpCall,
};
use crate::conversation::{Part, Role, StopReason, Usage};
use crate::provider::{KnownProvider, ProviderConfig};
use crate::schema_convert::Dropped;
use crate::stream::Delta;
use crate::tool_result::result_pieces;
use mcp_lens_client::protocol::sse::SseEvent;
use serde_json::{json, Map, Value};

/// OpenAI refuses longer function descriptions.
const OPENAI_DESCRIPTION_CHARS: usize = 1_024;

pub(crate) fn build(config: &ProviderConfig, request: &ModelRequest<'_>) -> HttpCall {
    let is_openai = config.known() == KnownProvider::OpenAi;
    let mut dropped = Vec::new();
    let names = call_names(request.messages, request.tools);
    let mut messages: Vec<Value> = Vec::new();
    if let Some(system) = request.system.filter(|s| !s.trim().is_empty()) {
        messages.push(json!({ "role": "system", "content": system }));
    }
    for message in request.messages {
        match message.role {
            Role::Assistant => {
                let text = message.text();
                let calls: Vec<Value> = message
                    .tool_calls()
                    .map(|call| {
                        let arguments = match (&call.invalid_arguments, &call.arguments) {
                            (Some(_), Value::String(raw)) => raw.clone(),
                            _ => arguments_object(call).to_string(),
                        };
                        json!({
                            "id": call.id,
                            "type": "function",
                            "function": { "name": names.get(call.id.as_str()).cloned().unwrap_or_default(), "arguments": arguments }
                        })
                    })
                    .collect();
                if text.is_empty() && calls.is_empty() {
                    continue;
                }
                let mut out = Map::new();
                out.insert("role".into(), json!("assistant"));
                out.insert(
                    "content".into(),
                    if text.is_empty() {
                        Value::Null
                    } else {
                        Value::String(text)
                    },
                );
                if !calls.is_empty() {
                    out.insert("tool_calls".into(), Value::Array(calls));
                }
                messages.push(Value::Object(out));
            }
            Role::User => {
                let mut result_images = Vec::new();
                for result in message.tool_results() {
                    let pieces = result_pieces(&result.result, request.max_tool_result_chars);
                    dropped.extend(pieces.dropped);
                    let mut text = pieces.text;
                    if pieces.is_error {
                        text = format!("The tool reported an error:\n{text}");
                    }
                    if !pieces.images.is_empty() {
                        dropped.push(Dropped::new(
                            "/content",
                            format!("{} image(s) in the result of {}", pieces.images.len(), result.name),
                            "OpenAI-compatible tool messages carry only text; the images are sent in a user message after the results",
                        ));
                        result_images.extend(pieces.images);
                    }
                    if !pieces.audio.is_empty() {
                        dropped.push(Dropped::new(
                            "/content",
                            format!("audio in the result of {}", result.name),
                            "OpenAI-compatible tool messages carry only text",
                        ));
                    }
                    messages.push(
                        json!({ "role": "tool", "tool_call_id": result.call_id, "content": text }),
                    );
                }
                let mut content: Vec<Value> = Vec::new();
                if !result_images.is_empty() {
                    content.push(json!({ "type": "text", "text": "The tool results above included these images." }));
                    for (mime, data) in &result_images {
                        content.push(image_part(mime, data, &mut dropped));
                    }
                }
                for part in &message.parts {
                    match part {
                        Part::Text { text } => {
                            content.push(json!({ "type": "text", "text": text }))
                        }
                        Part::Image { mime_type, data } => {
                            content.push(image_part(mime_type, data, &mut dropped))
                        }
                        Part::Audio { mime_type, .. } => dropped.push(Dropped::new(
                            "/messages",
                            format!("audio ({mime_type})"),
                            "not sent to OpenAI-compatible chat completions",
                        )),
                        Part::Reasoning { .. } | Part::ToolCall(_) | Part::ToolResult(_) => {}
                    }
                }
                content.retain(|c| !c.is_null());
                if content.is_empty() {
                    continue;
                }
                // Text alone goes as a string: every compatible server takes that form.
                let content = if content.iter().all(|c| c["type"] == "text") {
                    Value::String(
                        content
                            .iter()
                            .filter_map(|c| c["text"].as_str())
                            .collect::<Vec<_>>()
                            .join("\n"),
                    )
                } else {
                    Value::Array(content)
                };
                messages.push(json!({ "role": "user", "content": content }));
            }
        }
    }

    let mut body = Map::new();
    body.insert("model".into(), json!(config.model));
    body.insert("messages".into(), Value::Array(messages));
    if request.stream {
        body.insert("stream".into(), json!(true));
        body.insert("stream_options".into(), json!({ "include_usage": true }));
    }
    if let Some(temperature) = request.temperature {
        body.insert("temperature".into(), json!(temperature));
    }
    if let Some(max_tokens) = request.max_tokens {
        let key = if is_openai {
            "max_completion_tokens"
        } else {
            "max_tokens"
        };
        body.insert(key.into(), json!(max_tokens));
    }
    if !request.stop_sequences.is_empty() {
        body.insert("stop".into(), json!(request.stop_sequences));
    }
    if !request.tools.definitions.is_empty() {
        let tools: Vec<Value> = request
            .tools
            .definitions
            .iter()
            .map(|definition| {
                let mut description = definition.description.clone();
                if is_openai {
                    if let Some((cut, _)) = description.char_indices().nth(OPENAI_DESCRIPTION_CHARS) {
                        description.truncate(cut);
                        dropped.push(Dropped::new(
                            "/description",
                            format!("the description of {} after {OPENAI_DESCRIPTION_CHARS} characters", definition.provider_name),
                            "OpenAI refuses longer function descriptions",
                        ));
                    }
                }
                json!({
                    "type": "function",
                    "function": {
                        "name": definition.provider_name,
                        "description": description,
                        "parameters": definition.parameters.clone().unwrap_or_else(|| json!({ "type": "object", "properties": {} }))
                    }
                })
            })
            .collect();
        body.insert("tools".into(), Value::Array(tools));
        body.insert(
            "tool_choice".into(),
            match &request.tool_choice {
                ToolChoice::Auto => json!("auto"),
                ToolChoice::Required => json!("required"),
                ToolChoice::None => json!("none"),
                ToolChoice::Tool(name) => {
                    json!({ "type": "function", "function": { "name": name } })
                }
            },
        );
    }

    let mut headers = vec![("content-type".to_owned(), "application/json".to_owned())];
    if let Some(key) = config
        .key
        .as_ref()
        .filter(|k| !k.expose().trim().is_empty())
    {
        headers.push((
            "authorization".to_owned(),
            format!("Bearer {}", key.expose().trim()),
        ));
    }
    HttpCall {
        url: format!("{}/chat/completions", config.base_url),
        headers,
        body: Value::Object(body).to_string(),
        dropped,
    }
}

fn image_part(mime: &str, data: &str, dropped: &mut Vec<Dropped>) -> Value {
    if !is_common_image(mime) {
        dropped.push(Dropped::new(
            "/content",
            format!("an image of type {mime}"),
            "OpenAI-compatible APIs take PNG, JPEG, GIF and WebP",
        ));
        return Value::Null;
    }
    json!({ "type": "image_url", "image_url": { "url": format!("data:{mime};base64,{data}") } })
}

fn stop_reason(reason: &str) -> StopReason {
    match reason {
        "stop" => StopReason::EndTurn,
        "length" => StopReason::MaxTokens,
        "tool_calls" | "function_call" => StopReason::ToolUse,
        "content_filter" => StopReason::Refusal {
            detail: "the provider's content filter stopped the answer".into(),
        },
        other => StopReason::Other {
            reason: other.to_owned(),
        },
    }
}

fn usage(value: &Value) -> Option<Usage> {
    let usage = value.get("usage").filter(|u| u.is_object())?;
    Some(Usage {
        input_tokens: count(usage.get("prompt_tokens")),
        output_tokens: count(usage.get("completion_tokens")),
    })
}

/// Text from `content` (a string, or a list of text parts as some servers send).
fn content_text(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join(""),
        _ => String::new(),
    }
}

fn reasoning_text(message: &Value) -> Option<&str> {
    message
        .get("reasoning_content")
        .or_else(|| message.get("reasoning"))
        .and_then(Value::as_str)
        .filter(|text| !text.is_empty())
}

/// A whole answer (`"object": "chat.completion"`).
pub(crate) fn answer_deltas(json: &Value, out: &mut Vec<Delta>) -> Result<(), String> {
    if let Some(error) = json.get("error").filter(|e| !e.is_null()) {
        out.push(error_delta(error));
        return Ok(());
    }
    let choice = json
        .get("choices")
        .and_then(Value::as_array)
        .and_then(|choices| choices.first())
        .ok_or("the answer has no choices")?;
    if let Some(model) = json.get("model").and_then(Value::as_str) {
        out.push(Delta::Model(model.to_owned()));
    }
    let message = choice.get("message").unwrap_or(&Value::Null);
    if let Some(reasoning) = reasoning_text(message) {
        out.push(Delta::Reasoning(reasoning.to_owned()));
    }
    let text = content_text(message.get("content"));
    if !text.is_empty() {
        out.push(Delta::Text(text));
    }
    if let Some(refusal) = message
        .get("refusal")
        .and_then(Value::as_str)
        .filter(|r| !r.is_empty())
    {
        out.push(Delta::Refusal(refusal.to_owned()));
    }
    for (key, call) in message
        .get("tool_calls")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        let function = call.get("function").unwrap_or(&Value::Null);
        let id = call_id_or_generated(call.get("id"), key);
        out.push(Delta::ToolCallStart {
            key,
            id,
            name: string_at(function, "name"),
            provider_data: None,
        });
        let arguments = match function.get("arguments") {
            Some(Value::String(text)) => text.clone(),
            Some(Value::Null) | None => String::new(),
            Some(other) => other.to_string(),
        };
        out.push(Delta::ToolCallArguments {
            key,
            json: arguments,
        });
        out.push(Delta::ToolCallEnd { key });
    }
    if let Some(usage) = usage(json) {
        out.push(Delta::Usage(usage));
    }
    let reason = choice
        .get("finish_reason")
        .and_then(Value::as_str)
        .unwrap_or("stop");
    out.push(Delta::Stop(stop_reason(reason)));
    Ok(())
}

/// The stream's state: which calls are open, by the server's `index` (or `id`).
#[derive(Default)]
pub struct OpenAiStream {
    /// (the server's index, its id, our key), in order of arrival.
    calls: Vec<(Option<u64>, Option<String>, usize)>,
    open: Vec<usize>,
    model_seen: bool,
    stopped: bool,
}

impl OpenAiStream {
    fn call_key(&mut self, call: &Value, out: &mut Vec<Delta>) -> usize {
        let index = call.get("index").and_then(Value::as_u64);
        let id = call
            .get("id")
            .and_then(Value::as_str)
            .filter(|id| !id.is_empty())
            .map(str::to_owned);
        let existing = match (index, &id) {
            // The same index with another id is another call (servers that number every call 0).
            (Some(index), id) => self
                .calls
                .iter()
                .rev()
                .find(|(i, _, _)| *i == Some(index))
                .filter(|(_, known, _)| id.is_none() || known.is_none() || known == id),
            (None, Some(id)) => self
                .calls
                .iter()
                .rev()
                .find(|(_, known, _)| known.as_ref() == Some(id)),
            (None, None) => self.calls.last(),
        }
        .map(|(_, _, key)| *key);
        if let Some(key) = existing {
            return key;
        }
        let key = self.calls.len();
        self.calls.push((index, id.clone(), key));
        self.open.push(key);
        let name = call
            .pointer("/function/name")
            .and_then(Value::as_str)
            .unwrap_or_default();
        out.push(Delta::ToolCallStart {
            key,
            id: id.unwrap_or_else(|| generated_call_id(key)),
            name: name.to_owned(),
            provider_data: None,
        });
        key
    }

    fn end_calls(&mut self, out: &mut Vec<Delta>) {
        for key in self.open.drain(..) {
            out.push(Delta::ToolCallEnd { key });
        }
    }
}

impl StreamDecoder for OpenAiStream {
    fn event(&mut self, event: &SseEvent, out: &mut Vec<Delta>) {
        let data = event.data.trim();
        if data.is_empty() {
            return;
        }
        if data == "[DONE]" {
            self.end_calls(out);
            if !self.stopped {
                self.stopped = true;
                out.push(Delta::Stop(StopReason::EndTurn));
            }
            return;
        }
        let Some(json) = event_json(event, out) else {
            return;
        };
        if let Some(error) = json.get("error").filter(|e| !e.is_null()) {
            out.push(error_delta(error));
            return;
        }
        if !self.model_seen {
            if let Some(model) = json.get("model").and_then(Value::as_str) {
                self.model_seen = true;
                out.push(Delta::Model(model.to_owned()));
            }
        }
        if let Some(choice) = json
            .get("choices")
            .and_then(Value::as_array)
            .and_then(|c| c.first())
        {
            let delta = choice.get("delta").unwrap_or(&Value::Null);
            if let Some(reasoning) = reasoning_text(delta) {
                out.push(Delta::Reasoning(reasoning.to_owned()));
            }
            let text = content_text(delta.get("content"));
            if !text.is_empty() {
                out.push(Delta::Text(text));
            }
            if let Some(refusal) = delta
                .get("refusal")
                .and_then(Value::as_str)
                .filter(|r| !r.is_empty())
            {
                out.push(Delta::Refusal(refusal.to_owned()));
            }
            for call in delta
                .get("tool_calls")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let key = self.call_key(call, out);
                let arguments = match call.pointer("/function/arguments") {
                    Some(Value::String(text)) => text.clone(),
                    Some(Value::Null) | None => String::new(),
                    Some(other) => other.to_string(),
                };
                if !arguments.is_empty() {
                    out.push(Delta::ToolCallArguments {
                        key,
                        json: arguments,
                    });
                }
            }
            if let Some(reason) = choice.get("finish_reason").and_then(Value::as_str) {
                self.end_calls(out);
                self.stopped = true;
                out.push(Delta::Stop(stop_reason(reason)));
            }
        }
        if let Some(usage) = usage(&json) {
            out.push(Delta::Usage(usage));
        }
    }

    fn end(&mut self, out: &mut Vec<Delta>) {
        self.end_calls(out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(chunks: &[Value]) -> Vec<Delta> {
        let mut decoder = OpenAiStream::default();
        let mut out = Vec::new();
        for chunk in chunks {
            let event = SseEvent {
                event: "message".into(),
                data: chunk.to_string(),
                id: None,
            };
            decoder.event(&event, &mut out);
        }
        out
    }

    fn starts(deltas: &[Delta]) -> Vec<(usize, String)> {
        deltas
            .iter()
            .filter_map(|d| match d {
                Delta::ToolCallStart { key, id, .. } => Some((*key, id.clone())),
                _ => None,
            })
            .collect()
    }

    fn tool_chunk(call: Value) -> Value {
        json!({ "choices": [{ "index": 0, "delta": { "tool_calls": [call] } }] })
    }

    #[test]
    fn calls_without_an_index_are_told_apart_by_their_id() {
        let deltas = events(&[
            tool_chunk(json!({ "id": "a", "function": { "name": "echo", "arguments": "{}" } })),
            tool_chunk(json!({ "id": "b", "function": { "name": "add", "arguments": "{}" } })),
        ]);
        assert_eq!(starts(&deltas), [(0, "a".to_owned()), (1, "b".to_owned())]);
    }

    #[test]
    fn a_server_that_numbers_every_call_zero_still_gives_two_calls() {
        let deltas = events(&[
            tool_chunk(
                json!({ "index": 0, "id": "a", "function": { "name": "echo", "arguments": "{}" } }),
            ),
            tool_chunk(
                json!({ "index": 0, "id": "b", "function": { "name": "add", "arguments": "{}" } }),
            ),
            tool_chunk(json!({ "index": 0, "function": { "arguments": "" } })),
        ]);
        assert_eq!(starts(&deltas), [(0, "a".to_owned()), (1, "b".to_owned())]);
    }

    #[test]
    fn a_call_without_index_or_id_continues_the_last_one_or_gets_a_made_up_id() {
        let deltas = events(&[
            tool_chunk(json!({ "function": { "name": "echo", "arguments": "{\"m\":" } })),
            tool_chunk(json!({ "function": { "arguments": "1}" } })),
        ]);
        assert_eq!(starts(&deltas), [(0, "mcp-lens-call-0".to_owned())]);
        let pieces = deltas
            .iter()
            .filter(|d| matches!(d, Delta::ToolCallArguments { key: 0, .. }))
            .count();
        assert_eq!(pieces, 2);
    }
}
