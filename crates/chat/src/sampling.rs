//! A server's `sampling/createMessage` answered by a model: the request's messages, system
//! prompt, `maxTokens`, `temperature`, `stopSequences`, and (SEP-1577, 2025-11-25) `tools` and
//! `toolChoice` become a model request in any dialect; the model's answer becomes the
//! `CreateMessageResult` (`role`, `content`, `model`, `stopReason`; `tool_use` blocks with the
//! server's own tool names when it gave tools).
//!
//! The person sees the request and the answer before the server does (the UI's part); this
//! only converts, and [`answer_sampling`] runs one model turn.

use crate::conversation::{Message, Part, Role, StopReason, ToolCall, ToolResult, ToolStatus};
use crate::dialect::{ModelRequest, ToolChoice, DEFAULT_MAX_TOKENS, DEFAULT_MAX_TOOL_RESULT_CHARS};
use crate::error::{ChatError, ChatErrorKind, ChatStep};
use crate::model_call::{call_model, number_generated_call_ids, ModelCall};
use crate::names::provider_name;
use crate::provider::Dialect;
use crate::schema_convert::Dropped;
use crate::stream::Delta;
use crate::tools::{ServerTools, ToolSet};
use serde_json::{json, Map, Value};

/// The server id the sampling request's tools are filed under in its [`ToolSet`].
pub const SAMPLING_TOOLS: &str = "sampling";

/// A sampling request as a model request.
#[derive(Debug, Clone, PartialEq)]
pub struct SamplingPlan {
    pub system_prompt: Option<String>,
    pub messages: Vec<Message>,
    pub max_tokens: u32,
    pub temperature: Option<f64>,
    pub stop_sequences: Vec<String>,
    /// The request's tools (under [`SAMPLING_TOOLS`]), empty when it gave none.
    pub tools: ToolSet,
    pub tool_choice: ToolChoice,
    /// `modelPreferences.hints[].name`, for the person choosing the model.
    pub model_hints: Vec<String>,
    /// What the request asked that the conversion ignores or changes.
    pub dropped: Vec<Dropped>,
}

impl SamplingPlan {
    pub fn request(&self, stream: bool) -> ModelRequest<'_> {
        ModelRequest {
            system: self.system_prompt.as_deref(),
            messages: &self.messages,
            temperature: self.temperature,
            max_tokens: Some(self.max_tokens),
            stop_sequences: &self.stop_sequences,
            tools: &self.tools,
            tool_choice: self.tool_choice.clone(),
            stream,
            max_tool_result_chars: DEFAULT_MAX_TOOL_RESULT_CHARS,
        }
    }
}

fn refuse(detail: impl Into<String>) -> ChatError {
    ChatError::new(
        ChatStep::ReadSamplingRequest,
        ChatErrorKind::InvalidSamplingRequest {
            detail: detail.into(),
        },
    )
}

/// Reads `sampling/createMessage` params for `dialect`.
pub fn plan_sampling(params: &Value, dialect: Dialect) -> Result<SamplingPlan, ChatError> {
    let params = params
        .as_object()
        .ok_or_else(|| refuse("The request has no parameters object."))?;
    let mut dropped = Vec::new();
    let tools_given: Vec<Value> = match params.get("tools") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(tools)) => tools.clone(),
        Some(_) => return Err(refuse("The request's tools are not a list.")),
    };
    let tools = ToolSet::build(
        dialect,
        &[ServerTools {
            server_id: SAMPLING_TOOLS,
            tools: &tools_given,
        }],
    );
    let tool_choice = match params
        .get("toolChoice")
        .and_then(|c| c.get("mode"))
        .and_then(Value::as_str)
    {
        None | Some("auto") => ToolChoice::Auto,
        Some("required") => ToolChoice::Required,
        Some("none") => ToolChoice::None,
        Some(other) => {
            return Err(refuse(format!(
                "The request's toolChoice mode {other:?} is not auto, required or none."
            )))
        }
    };

    let raw_messages = params
        .get("messages")
        .and_then(Value::as_array)
        .filter(|m| !m.is_empty())
        .ok_or_else(|| refuse("The request has no messages."))?;
    let mut messages = Vec::with_capacity(raw_messages.len());
    for (index, raw) in raw_messages.iter().enumerate() {
        let role = match raw.get("role").and_then(Value::as_str) {
            Some("user") => Role::User,
            Some("assistant") => Role::Assistant,
            other => {
                return Err(refuse(format!(
                    "Message {index} has the role {other:?}, not user or assistant."
                )))
            }
        };
        let blocks: Vec<&Value> = match raw.get("content") {
            Some(Value::Array(blocks)) => blocks.iter().collect(),
            Some(block @ Value::Object(_)) => vec![block],
            _ => return Err(refuse(format!("Message {index} has no content."))),
        };
        let mut parts = Vec::with_capacity(blocks.len());
        for (block_index, block) in blocks.into_iter().enumerate() {
            let at = format!("/messages/{index}/content/{block_index}");
            if let Some(part) = sampling_part(block, &tools, dialect, &at, &mut dropped)? {
                parts.push(part);
            }
        }
        messages.push(Message {
            id: index as u64,
            role,
            parts,
            turn: None,
        });
    }

    let max_tokens = match params.get("maxTokens").and_then(Value::as_u64) {
        Some(n) if n > 0 => n.min(u64::from(u32::MAX)) as u32,
        _ => {
            dropped.push(Dropped::new(
                "/maxTokens",
                "a missing or invalid maxTokens",
                format!("it is required; {DEFAULT_MAX_TOKENS} was used"),
            ));
            DEFAULT_MAX_TOKENS
        }
    };
    let stop_sequences = params
        .get("stopSequences")
        .and_then(Value::as_array)
        .map(|s| {
            s.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    let model_hints = params
        .get("modelPreferences")
        .and_then(|p| p.get("hints"))
        .and_then(Value::as_array)
        .map(|hints| {
            hints
                .iter()
                .filter_map(|h| h.get("name")?.as_str())
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    match params.get("includeContext").and_then(Value::as_str) {
        None | Some("none") => {}
        Some(other) => dropped.push(Dropped::new(
            "/includeContext",
            format!("includeContext {other:?}"),
            "this client adds no server context to sampling (the value is soft-deprecated)",
        )),
    }
    if params.get("metadata").is_some_and(|m| !m.is_null()) {
        dropped.push(Dropped::new(
            "/metadata",
            "metadata",
            "provider-specific metadata is not passed on",
        ));
    }
    for (definition, note) in tools.dropped() {
        dropped.push(Dropped::new(
            &format!("/tools/{}{}", definition.tool_name, note.path),
            note.what.clone(),
            note.why.clone(),
        ));
    }
    Ok(SamplingPlan {
        system_prompt: params
            .get("systemPrompt")
            .and_then(Value::as_str)
            .map(str::to_owned),
        messages,
        max_tokens,
        temperature: params.get("temperature").and_then(Value::as_f64),
        stop_sequences,
        tools,
        tool_choice,
        model_hints,
        dropped,
    })
}

/// One block of a sampling message as a conversation part.
fn sampling_part(
    block: &Value,
    tools: &ToolSet,
    dialect: Dialect,
    at: &str,
    dropped: &mut Vec<Dropped>,
) -> Result<Option<Part>, ChatError> {
    let field = |name: &str| block.get(name).and_then(Value::as_str);
    Ok(Some(match field("type") {
        Some("text") => Part::Text {
            text: field("text").unwrap_or_default().to_owned(),
        },
        Some("image") | Some("audio") => {
            let (Some(mime_type), Some(data)) = (field("mimeType"), field("data")) else {
                return Err(refuse(format!(
                    "The block at {at} has no mimeType or data."
                )));
            };
            let (mime_type, data) = (mime_type.to_owned(), data.to_owned());
            if field("type") == Some("image") {
                Part::Image { mime_type, data }
            } else {
                Part::Audio { mime_type, data }
            }
        }
        Some("tool_use") => {
            let name = field("name")
                .ok_or_else(|| refuse(format!("The tool_use at {at} has no name.")))?;
            let visible = tools
                .find(SAMPLING_TOOLS, name)
                .map(|d| d.provider_name.clone())
                .unwrap_or_else(|| provider_name(name, dialect));
            Part::ToolCall(ToolCall {
                id: field("id").unwrap_or_default().to_owned(),
                name: visible,
                server_id: Some(SAMPLING_TOOLS.to_owned()),
                tool_name: Some(name.to_owned()),
                arguments: block.get("input").cloned().unwrap_or_else(|| json!({})),
                invalid_arguments: None,
                provider_data: None,
            })
        }
        Some("tool_result") => {
            let call_id = field("toolUseId")
                .ok_or_else(|| refuse(format!("The tool_result at {at} has no toolUseId.")))?;
            let mut result = Map::new();
            result.insert(
                "content".into(),
                block.get("content").cloned().unwrap_or_else(|| json!([])),
            );
            for key in ["structuredContent", "isError"] {
                if let Some(value) = block.get(key) {
                    result.insert(key.into(), value.clone());
                }
            }
            Part::ToolResult(ToolResult {
                call_id: call_id.to_owned(),
                name: String::new(),
                status: ToolStatus::Done,
                result: Value::Object(result),
                duration_ms: None,
            })
        }
        other => {
            dropped.push(Dropped::new(
                at,
                format!("a block of type {other:?}"),
                "sampling messages hold text, image, audio, tool_use and tool_result",
            ));
            return Ok(None);
        }
    }))
}

/// The `CreateMessageResult` for the model's answer: its text and (when the request gave
/// tools) its calls as `tool_use` blocks under the server's own tool names. One text block
/// goes as a single object (as servers before 2025-11-25 expect); anything else as a list.
pub fn create_message_result(
    parts: &[Part],
    stop: &StopReason,
    model: &str,
    tools: &ToolSet,
) -> Value {
    let mut blocks: Vec<Value> = Vec::new();
    for part in parts {
        match part {
            Part::Text { text } => match blocks.last_mut() {
                Some(last) if last["type"] == "text" => {
                    let joined = format!("{}{text}", last["text"].as_str().unwrap_or_default());
                    last["text"] = Value::String(joined);
                }
                _ => blocks.push(json!({ "type": "text", "text": text })),
            },
            Part::ToolCall(call) => {
                let name = tools
                    .resolve(&call.name)
                    .map(|d| d.tool_name.clone())
                    .or_else(|| call.tool_name.clone())
                    .unwrap_or_else(|| call.name.clone());
                blocks.push(json!({ "type": "tool_use", "id": call.id, "name": name, "input": call.arguments }));
            }
            _ => {}
        }
    }
    let content = match blocks.len() {
        0 => json!({ "type": "text", "text": "" }),
        1 if blocks[0]["type"] == "text" => blocks.remove(0),
        _ => Value::Array(blocks),
    };
    let stop_reason = match stop {
        StopReason::EndTurn => "endTurn".to_owned(),
        StopReason::ToolUse => "toolUse".to_owned(),
        StopReason::MaxTokens => "maxTokens".to_owned(),
        StopReason::StopSequence { .. } => "stopSequence".to_owned(),
        StopReason::Refusal { .. } => "refusal".to_owned(),
        StopReason::Other { reason } => reason.clone(),
    };
    json!({ "role": "assistant", "content": content, "model": model, "stopReason": stop_reason })
}

/// Answers a sampling request with one model turn: the `CreateMessageResult`, or the error.
pub async fn answer_sampling(
    call: &ModelCall<'_>,
    params: &Value,
    on_delta: &mut dyn FnMut(&Delta),
) -> Result<Value, ChatError> {
    let plan = plan_sampling(params, call.config.dialect)?;
    let mut answer = call_model(call, &plan.request(true), on_delta).await;
    if let Some(error) = answer.error {
        return Err(error);
    }
    number_generated_call_ids(&mut answer.turn, plan.messages.len() as u64);
    let stop = answer.turn.stop.clone().unwrap_or(StopReason::EndTurn);
    Ok(create_message_result(
        &answer.turn.parts,
        &stop,
        &answer.info.model,
        &plan.tools,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_sampling_request_becomes_a_conversation() {
        let params = json!({
            "messages": [{ "role": "user", "content": { "type": "text", "text": "Hello" } }],
            "systemPrompt": "Be brief.",
            "maxTokens": 100,
            "temperature": 0.2,
            "stopSequences": ["\n\n"],
            "modelPreferences": { "hints": [{ "name": "claude-3" }], "speedPriority": 0.8 },
            "includeContext": "thisServer"
        });
        let plan = plan_sampling(&params, Dialect::Anthropic).unwrap();
        assert_eq!(plan.system_prompt.as_deref(), Some("Be brief."));
        assert_eq!(plan.messages.len(), 1);
        assert_eq!(plan.messages[0].text(), "Hello");
        assert_eq!((plan.max_tokens, plan.temperature), (100, Some(0.2)));
        assert_eq!(plan.stop_sequences, ["\n\n"]);
        assert_eq!(plan.model_hints, ["claude-3"]);
        assert!(plan.tools.definitions.is_empty());
        assert_eq!(plan.dropped.len(), 1);
        assert_eq!(plan.dropped[0].path, "/includeContext");
    }

    #[test]
    fn sampling_with_tools_keeps_the_history_of_calls_and_results() {
        let params = json!({
            "messages": [
                { "role": "user", "content": [{ "type": "text", "text": "Weather in Paris?" }] },
                { "role": "assistant", "content": [{ "type": "tool_use", "id": "t1", "name": "get.weather", "input": { "city": "Paris" } }] },
                { "role": "user", "content": [{ "type": "tool_result", "toolUseId": "t1", "content": [{ "type": "text", "text": "18°C" }], "isError": false }] }
            ],
            "maxTokens": 200,
            "tools": [{ "name": "get.weather", "inputSchema": { "type": "object", "properties": { "city": { "type": "string" } } } }],
            "toolChoice": { "mode": "required" }
        });
        let plan = plan_sampling(&params, Dialect::OpenAiCompatible).unwrap();
        assert_eq!(plan.tool_choice, ToolChoice::Required);
        assert_eq!(plan.tools.definitions[0].provider_name, "get_weather");
        let call = plan.messages[1].tool_calls().next().unwrap();
        assert_eq!(
            (call.name.as_str(), call.tool_name.as_deref()),
            ("get_weather", Some("get.weather"))
        );
        let result = plan.messages[2].tool_results().next().unwrap();
        assert_eq!(result.call_id, "t1");
        assert_eq!(result.result["content"][0]["text"], "18°C");
    }

    #[test]
    fn a_malformed_sampling_request_is_refused_with_a_reason() {
        for params in [
            json!(null),
            json!({ "maxTokens": 10 }),
            json!({ "messages": [] }),
            json!({ "messages": [{ "role": "system", "content": { "type": "text", "text": "x" } }] }),
            json!({ "messages": [{ "role": "user", "content": { "type": "image" } }] }),
            json!({ "messages": [{ "role": "user", "content": "x" }], "toolChoice": { "mode": "sometimes" } }),
        ] {
            let error = plan_sampling(&params, Dialect::Gemini).unwrap_err();
            assert_eq!(error.step, ChatStep::ReadSamplingRequest, "{params}");
        }
    }

    #[test]
    fn the_models_answer_becomes_a_create_message_result() {
        let text = [
            Part::Text { text: "Hi".into() },
            Part::Text {
                text: " there".into(),
            },
        ];
        assert_eq!(
            create_message_result(
                &text,
                &StopReason::EndTurn,
                "gpt-4o",
                &ToolSet::empty(Dialect::OpenAiCompatible)
            ),
            json!({ "role": "assistant", "content": { "type": "text", "text": "Hi there" }, "model": "gpt-4o", "stopReason": "endTurn" })
        );
        let tools = [json!({ "name": "get.weather", "inputSchema": {} })];
        let set = ToolSet::build(
            Dialect::OpenAiCompatible,
            &[ServerTools {
                server_id: SAMPLING_TOOLS,
                tools: &tools,
            }],
        );
        let call = [Part::ToolCall(ToolCall {
            id: "c1".into(),
            name: "get_weather".into(),
            server_id: None,
            tool_name: None,
            arguments: json!({ "city": "Paris" }),
            invalid_arguments: None,
            provider_data: None,
        })];
        assert_eq!(
            create_message_result(&call, &StopReason::ToolUse, "m", &set),
            json!({ "role": "assistant", "content": [{ "type": "tool_use", "id": "c1", "name": "get.weather", "input": { "city": "Paris" } }], "model": "m", "stopReason": "toolUse" })
        );
    }
}
