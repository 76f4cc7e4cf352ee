//! Google Gemini API (`POST {base_url}/models/{model}:streamGenerateContent?alt=sse`, or
//! `:generateContent`; the key in `x-goog-api-key`, never in the URL).
//!
//! Requests: `systemInstruction`; `contents` with roles `user` and `model`; the model's calls as
//! `functionCall` parts (with the `thoughtSignature` Gemini gave, which it requires back);
//! results as `functionResponse` parts (`response.output`, or `response.error` for an error),
//! their images as `inlineData` parts beside them; `tools[].functionDeclarations` with the
//! converted schemas; `toolConfig.functionCallingConfig` (`AUTO`/`ANY`/`NONE`, allowed names);
//! `generationConfig` (`temperature`, `maxOutputTokens`, `stopSequences`).
//! Answers: `candidates[0].content.parts` (`text`, `thought`, `functionCall`), `finishReason`
//! (`STOP` even when it calls functions; `SAFETY` and its kin are refusals;
//! `MALFORMED_FUNCTION_CALL`), `promptFeedback.blockReason`, `usageMetadata`, `modelVersion`.
//! The stream is events of that same shape, with no end marker.

use super::shared::{
    arguments_object, call_names, count, event_json, invalid, ModelRequest, StreamDecoder,
    ToolChoice,
};
use super::shared::{call_id_or_generated, error_delta, string_at, HttpCall};
use crate::conversation::{Part, Role, StopReason, Usage, GENERATED_CALL_ID_PREFIX};
use crate::error::{ChatError, ChatErrorKind};
use crate::provider::ProviderConfig;
use crate::stream::Delta;
use crate::tool_result::result_pieces;
use mcp_lens_client::protocol::sse::SseEvent;
use serde_json::{json, Map, Value};

pub(crate) fn build(
    config: &ProviderConfig,
    request: &ModelRequest<'_>,
) -> Result<HttpCall, ChatError> {
    let key = config.require_key()?;
    let model = config
        .model
        .strip_prefix("models/")
        .unwrap_or(&config.model);
    if model.is_empty()
        || !model
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        return Err(invalid("A Gemini model name has only letters, digits, dots, dashes and underscores (for example gemini-2.5-flash)."));
    }
    let mut dropped = Vec::new();
    let names = call_names(request.messages, request.tools);
    let mut contents = Vec::new();
    for message in request.messages {
        let mut parts: Vec<Value> = Vec::new();
        match message.role {
            Role::Assistant => {
                for part in &message.parts {
                    match part {
                        Part::Text { text } if !text.is_empty() => {
                            parts.push(json!({ "text": text }))
                        }
                        Part::ToolCall(call) => {
                            let mut function_call = Map::new();
                            function_call.insert(
                                "name".into(),
                                json!(names.get(call.id.as_str()).cloned().unwrap_or_default()),
                            );
                            function_call.insert("args".into(), arguments_object(call));
                            if !call.id.starts_with(GENERATED_CALL_ID_PREFIX) {
                                function_call.insert("id".into(), json!(call.id));
                            }
                            let mut part = Map::new();
                            part.insert("functionCall".into(), Value::Object(function_call));
                            if let Some(signature) = call
                                .provider_data
                                .as_ref()
                                .and_then(|d| d.get("thoughtSignature"))
                            {
                                part.insert("thoughtSignature".into(), signature.clone());
                            }
                            parts.push(Value::Object(part));
                        }
                        _ => {}
                    }
                }
            }
            Role::User => {
                let mut images = Vec::new();
                for result in message.tool_results() {
                    let pieces = result_pieces(&result.result, request.max_tool_result_chars);
                    dropped.extend(pieces.dropped);
                    let key = if pieces.is_error { "error" } else { "output" };
                    let mut response = Map::new();
                    response.insert(
                        "name".into(),
                        json!(names
                            .get(result.call_id.as_str())
                            .cloned()
                            .unwrap_or_else(|| result.name.clone())),
                    );
                    response.insert("response".into(), json!({ key: pieces.text }));
                    if !result.call_id.starts_with(GENERATED_CALL_ID_PREFIX) {
                        response.insert("id".into(), json!(result.call_id));
                    }
                    parts.push(json!({ "functionResponse": response }));
                    images.extend(pieces.images);
                    images.extend(pieces.audio);
                }
                for (mime, data) in images {
                    parts.push(json!({ "inlineData": { "mimeType": mime, "data": data } }));
                }
                for part in &message.parts {
                    match part {
                        Part::Text { text } if !text.is_empty() => {
                            parts.push(json!({ "text": text }))
                        }
                        Part::Image { mime_type, data } | Part::Audio { mime_type, data } => parts
                            .push(json!({ "inlineData": { "mimeType": mime_type, "data": data } })),
                        _ => {}
                    }
                }
            }
        }
        if parts.is_empty() {
            continue;
        }
        let role = if message.role == Role::User {
            "user"
        } else {
            "model"
        };
        contents.push(json!({ "role": role, "parts": parts }));
    }
    if contents.is_empty() {
        return Err(invalid(
            "There is nothing to send yet: write a message first.",
        ));
    }

    let mut body = Map::new();
    if let Some(system) = request.system.filter(|s| !s.trim().is_empty()) {
        body.insert(
            "systemInstruction".into(),
            json!({ "parts": [{ "text": system }] }),
        );
    }
    body.insert("contents".into(), Value::Array(contents));
    if !request.tools.definitions.is_empty() {
        let declarations: Vec<Value> = request
            .tools
            .definitions
            .iter()
            .map(|d| {
                let mut declaration = Map::new();
                declaration.insert("name".into(), json!(d.provider_name));
                declaration.insert("description".into(), json!(d.description));
                if let Some(parameters) = &d.parameters {
                    declaration.insert("parameters".into(), parameters.clone());
                }
                Value::Object(declaration)
            })
            .collect();
        body.insert(
            "tools".into(),
            json!([{ "functionDeclarations": declarations }]),
        );
        let config = match &request.tool_choice {
            ToolChoice::Auto => json!({ "mode": "AUTO" }),
            ToolChoice::Required => json!({ "mode": "ANY" }),
            ToolChoice::None => json!({ "mode": "NONE" }),
            ToolChoice::Tool(name) => json!({ "mode": "ANY", "allowedFunctionNames": [name] }),
        };
        body.insert(
            "toolConfig".into(),
            json!({ "functionCallingConfig": config }),
        );
    }
    let mut generation = Map::new();
    if let Some(temperature) = request.temperature {
        generation.insert("temperature".into(), json!(temperature));
    }
    if let Some(max_tokens) = request.max_tokens {
        generation.insert("maxOutputTokens".into(), json!(max_tokens));
    }
    if !request.stop_sequences.is_empty() {
        generation.insert("stopSequences".into(), json!(request.stop_sequences));
    }
    if !generation.is_empty() {
        body.insert("generationConfig".into(), Value::Object(generation));
    }
    let method = if request.stream {
        "streamGenerateContent?alt=sse"
    } else {
        "generateContent"
    };
    Ok(HttpCall {
        url: format!("{}/models/{model}:{method}", config.base_url),
        headers: vec![
            ("content-type".to_owned(), "application/json".to_owned()),
            ("x-goog-api-key".to_owned(), key.expose().trim().to_owned()),
        ],
        body: Value::Object(body).to_string(),
        dropped,
    })
}

fn stop_reason(reason: &str) -> Option<StopReason> {
    Some(match reason {
        "STOP" => StopReason::EndTurn,
        "MAX_TOKENS" => StopReason::MaxTokens,
        "SAFETY" | "RECITATION" | "BLOCKLIST" | "PROHIBITED_CONTENT" | "SPII" | "IMAGE_SAFETY"
        | "LANGUAGE" => StopReason::Refusal {
            detail: format!("Gemini stopped the answer (finishReason: {reason})"),
        },
        "FINISH_REASON_UNSPECIFIED" => return None,
        other => StopReason::Other {
            reason: other.to_owned(),
        },
    })
}

/// One `GenerateContentResponse`: a streamed chunk or the whole answer. `calls` numbers the
/// function calls across chunks.
fn response_deltas(json: &Value, calls: &mut usize, out: &mut Vec<Delta>) {
    if let Some(error) = json.get("error").filter(|e| !e.is_null()) {
        out.push(error_delta(error));
        return;
    }
    if let Some(model) = json.get("modelVersion").and_then(Value::as_str) {
        out.push(Delta::Model(model.to_owned()));
    }
    if let Some(reason) = json
        .pointer("/promptFeedback/blockReason")
        .and_then(Value::as_str)
    {
        let detail = json
            .pointer("/promptFeedback/blockReasonMessage")
            .and_then(Value::as_str)
            .map(|m| format!("{m} (blockReason: {reason})"))
            .unwrap_or_else(|| format!("Gemini blocked the prompt (blockReason: {reason})"));
        out.push(Delta::Error(ChatErrorKind::Refused { detail }));
        return;
    }
    let candidate = json
        .get("candidates")
        .and_then(Value::as_array)
        .and_then(|c| c.first());
    if let Some(candidate) = candidate {
        for part in candidate
            .pointer("/content/parts")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(call) = part.get("functionCall") {
                let key = *calls;
                *calls += 1;
                let id = call_id_or_generated(call.get("id"), key);
                out.push(Delta::ToolCallStart {
                    key,
                    id,
                    name: string_at(call, "name"),
                    provider_data: part
                        .get("thoughtSignature")
                        .map(|s| json!({ "thoughtSignature": s })),
                });
                let args = call.get("args").cloned().unwrap_or_else(|| json!({}));
                out.push(Delta::ToolCallArguments {
                    key,
                    json: args.to_string(),
                });
                out.push(Delta::ToolCallEnd { key });
            } else if let Some(text) = part.get("text").and_then(Value::as_str) {
                if part.get("thought") == Some(&Value::Bool(true)) {
                    out.push(Delta::Reasoning(text.to_owned()));
                } else if !text.is_empty() {
                    out.push(Delta::Text(text.to_owned()));
                }
            }
        }
    }
    if let Some(usage) = json.get("usageMetadata").filter(|u| u.is_object()) {
        out.push(Delta::Usage(Usage {
            input_tokens: count(usage.get("promptTokenCount")),
            output_tokens: count(usage.get("candidatesTokenCount")),
        }));
    }
    if let Some(reason) = candidate
        .and_then(|c| c.get("finishReason"))
        .and_then(Value::as_str)
    {
        if reason == "MALFORMED_FUNCTION_CALL" {
            let message = candidate
                .and_then(|c| c.get("finishMessage"))
                .and_then(Value::as_str)
                .unwrap_or("the model wrote a function call Gemini could not read");
            out.push(Delta::Error(ChatErrorKind::ProviderFailed {
                status: None,
                message: format!("{message} (finishReason: MALFORMED_FUNCTION_CALL)"),
            }));
        } else if let Some(stop) = stop_reason(reason) {
            out.push(Delta::Stop(stop));
        }
    }
}

/// A whole answer, or the JSON array `streamGenerateContent` gives without `alt=sse`.
pub(crate) fn answer_deltas(json: &Value, out: &mut Vec<Delta>) -> Result<(), String> {
    let mut calls = 0;
    match json {
        Value::Array(chunks) => {
            for chunk in chunks {
                response_deltas(chunk, &mut calls, out);
            }
        }
        Value::Object(_) => response_deltas(json, &mut calls, out),
        _ => return Err("the answer is not a JSON object".into()),
    }
    Ok(())
}

#[derive(Default)]
pub struct GeminiStream {
    calls: usize,
}

impl StreamDecoder for GeminiStream {
    fn event(&mut self, event: &SseEvent, out: &mut Vec<Delta>) {
        if event.data.trim().is_empty() {
            return;
        }
        if let Some(json) = event_json(event, out) {
            response_deltas(&json, &mut self.calls, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gemini_call_keeps_its_thought_signature() {
        let mut out = Vec::new();
        let chunk = json!({ "candidates": [{ "content": { "role": "model", "parts": [
            { "functionCall": { "name": "echo", "args": { "m": "hi" } }, "thoughtSignature": "c2ln" }
        ] }, "finishReason": "STOP" }] });
        answer_deltas(&chunk, &mut out).unwrap();
        assert!(
            matches!(&out[0], Delta::ToolCallStart { provider_data: Some(data), .. } if data["thoughtSignature"] == "c2ln")
        );
    }
}
