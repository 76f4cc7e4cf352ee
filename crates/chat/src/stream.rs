//! What an answer is made of, whatever the dialect: [`Delta`]s (text, reasoning, a tool call's
//! start, its argument pieces and end, usage, the stop reason, an error inside the stream),
//! and [`TurnBuilder`], which puts them together into the model's message.
//!
//! A streamed answer and a whole one go through the same path: each dialect's decoder turns
//! either into deltas. Tool calls are keyed by the dialect's own index, so calls split across
//! chunks and parallel calls interleaved in one stream come out whole and in order.

use crate::conversation::{Part, StopReason, ToolCall, Usage};
use crate::error::ChatErrorKind;
use serde_json::Value;

/// One piece of an answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Delta {
    /// The model the provider says answered.
    Model(String),
    Text(String),
    Reasoning(String),
    /// A tool call starts; `key` is the dialect's index for it.
    ToolCallStart {
        key: usize,
        id: String,
        name: String,
        provider_data: Option<Value>,
    },
    /// A piece of the call's arguments (JSON text, split anywhere).
    ToolCallArguments {
        key: usize,
        json: String,
    },
    ToolCallEnd {
        key: usize,
    },
    Usage(Usage),
    Stop(StopReason),
    /// OpenAI's `refusal` text (its own field, beside the content).
    Refusal(String),
    /// The provider reported an error inside the answer.
    Error(ChatErrorKind),
}

struct CallInProgress {
    key: usize,
    /// Where the call sits in the message's parts.
    part: usize,
    arguments: String,
    ended: bool,
}

/// An answer put together from its deltas.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AssistantTurn {
    pub parts: Vec<Part>,
    pub model: Option<String>,
    pub usage: Option<Usage>,
    pub stop: Option<StopReason>,
    /// An error the provider reported inside the answer.
    pub error: Option<ChatErrorKind>,
}

impl AssistantTurn {
    pub fn has_content(&self) -> bool {
        !self.parts.is_empty()
    }

    pub fn tool_calls(&self) -> impl Iterator<Item = &ToolCall> {
        self.parts.iter().filter_map(|part| match part {
            Part::ToolCall(call) => Some(call),
            _ => None,
        })
    }
}

/// Puts deltas together.
#[derive(Default)]
pub struct TurnBuilder {
    turn: AssistantTurn,
    calls: Vec<CallInProgress>,
    refusal: String,
    /// Whether text or a tool call has arrived (time to first token).
    started: bool,
}

impl TurnBuilder {
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether anything the person sees (text, reasoning, a call) has arrived.
    pub fn has_output(&self) -> bool {
        self.started
    }

    pub fn has_error(&self) -> bool {
        self.turn.error.is_some()
    }

    pub fn apply(&mut self, delta: &Delta) {
        match delta {
            Delta::Model(model) => self.turn.model = Some(model.clone()),
            Delta::Text(text) => {
                self.started = true;
                match self.turn.parts.last_mut() {
                    Some(Part::Text { text: last }) => last.push_str(text),
                    _ => self.turn.parts.push(Part::Text { text: text.clone() }),
                }
            }
            Delta::Reasoning(text) => {
                self.started = true;
                match self.turn.parts.last_mut() {
                    Some(Part::Reasoning { text: last }) => last.push_str(text),
                    _ => self.turn.parts.push(Part::Reasoning { text: text.clone() }),
                }
            }
            Delta::ToolCallStart {
                key,
                id,
                name,
                provider_data,
            } => {
                self.started = true;
                if self.calls.iter().any(|c| c.key == *key && !c.ended) {
                    return;
                }
                self.calls.push(CallInProgress {
                    key: *key,
                    part: self.turn.parts.len(),
                    arguments: String::new(),
                    ended: false,
                });
                self.turn.parts.push(Part::ToolCall(ToolCall {
                    id: id.clone(),
                    name: name.clone(),
                    server_id: None,
                    tool_name: None,
                    arguments: Value::Null,
                    invalid_arguments: None,
                    provider_data: provider_data.clone(),
                }));
            }
            Delta::ToolCallArguments { key, json } => {
                if let Some(call) = self.open_call(*key) {
                    call.arguments.push_str(json);
                }
            }
            Delta::ToolCallEnd { key } => {
                if let Some(call) = self.open_call(*key) {
                    call.ended = true;
                }
            }
            Delta::Usage(usage) => {
                self.turn.usage = Some(self.turn.usage.unwrap_or_default().updated(*usage));
            }
            Delta::Stop(stop) => self.turn.stop = Some(stop.clone()),
            Delta::Refusal(text) => {
                self.started = true;
                self.refusal.push_str(text);
            }
            Delta::Error(kind) => {
                if self.turn.error.is_none() {
                    self.turn.error = Some(kind.clone());
                }
            }
        }
    }

    fn open_call(&mut self, key: usize) -> Option<&mut CallInProgress> {
        self.calls
            .iter_mut()
            .rev()
            .find(|c| c.key == key && !c.ended)
    }

    /// The answer. Each call's arguments are read as JSON (an empty text is `{}`; a JSON
    /// string holding an object, as some servers double-encode, is read once more). A call
    /// that never ended in an answer cut short is dropped: its arguments are incomplete.
    pub fn finish(mut self, complete: bool) -> AssistantTurn {
        let mut drop_parts = Vec::new();
        for call in &self.calls {
            let Some(Part::ToolCall(tool_call)) = self.turn.parts.get_mut(call.part) else {
                continue;
            };
            if !complete && !call.ended && self.turn.stop.is_none() {
                drop_parts.push(call.part);
                continue;
            }
            let (arguments, invalid) = read_arguments(&call.arguments);
            tool_call.arguments = arguments;
            tool_call.invalid_arguments = invalid;
        }
        for index in drop_parts.into_iter().rev() {
            self.turn.parts.remove(index);
        }
        if !self.refusal.is_empty() {
            self.turn.parts.push(Part::Text {
                text: self.refusal.clone(),
            });
            self.turn.stop = Some(StopReason::Refusal {
                detail: self.refusal,
            });
        }
        // Gemini says STOP when it calls functions; the turn is a tool turn all the same.
        if self.turn.stop == Some(StopReason::EndTurn) && self.turn.tool_calls().next().is_some() {
            self.turn.stop = Some(StopReason::ToolUse);
        }
        self.turn
    }
}

/// A call's arguments from their JSON text: an object, or why not (and the text as it was).
pub fn read_arguments(text: &str) -> (Value, Option<String>) {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return (Value::Object(Default::default()), None);
    }
    match serde_json::from_str::<Value>(trimmed) {
        Ok(Value::Object(map)) => (Value::Object(map), None),
        Ok(Value::String(inner)) => match serde_json::from_str::<Value>(&inner) {
            Ok(Value::Object(map)) => (Value::Object(map), None),
            _ => (
                Value::String(text.to_owned()),
                Some("the arguments are a JSON string, not an object".to_owned()),
            ),
        },
        Ok(other) => (
            other,
            Some("the arguments are JSON but not an object".to_owned()),
        ),
        Err(error) => (
            Value::String(text.to_owned()),
            Some(format!("the arguments are not valid JSON ({error})")),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn start(key: usize, id: &str, name: &str) -> Delta {
        Delta::ToolCallStart {
            key,
            id: id.into(),
            name: name.into(),
            provider_data: None,
        }
    }

    fn args(key: usize, json: &str) -> Delta {
        Delta::ToolCallArguments {
            key,
            json: json.into(),
        }
    }

    #[test]
    fn interleaved_parallel_calls_come_out_whole_and_in_order() {
        let mut builder = TurnBuilder::new();
        for delta in [
            Delta::Text("Let me ".into()),
            Delta::Text("check.".into()),
            start(0, "a", "echo"),
            start(1, "b", "add"),
            args(1, "{\"a\":"),
            args(0, "{\"message\":\"hi"),
            args(1, "1,\"b\":2}"),
            args(0, "\"}"),
            Delta::ToolCallEnd { key: 0 },
            Delta::ToolCallEnd { key: 1 },
            Delta::Stop(StopReason::ToolUse),
        ] {
            builder.apply(&delta);
        }
        let turn = builder.finish(true);
        assert_eq!(
            turn.parts[0],
            Part::Text {
                text: "Let me check.".into()
            }
        );
        let calls: Vec<(&str, &Value)> = turn
            .tool_calls()
            .map(|c| (c.id.as_str(), &c.arguments))
            .collect();
        assert_eq!(
            calls,
            [
                ("a", &json!({ "message": "hi" })),
                ("b", &json!({ "a": 1, "b": 2 }))
            ]
        );
    }

    #[test]
    fn arguments_are_read_leniently_and_failures_said() {
        assert_eq!(read_arguments(""), (json!({}), None));
        assert_eq!(
            read_arguments("\"{\\\"x\\\":1}\""),
            (json!({ "x": 1 }), None)
        );
        let (raw, why) = read_arguments("{\"x\":");
        assert_eq!(raw, json!("{\"x\":"));
        assert!(why.unwrap().contains("not valid JSON"));
        assert!(read_arguments("[1]").1.unwrap().contains("not an object"));
    }

    #[test]
    fn a_call_cut_off_by_an_interrupted_answer_is_dropped_and_text_kept() {
        let mut builder = TurnBuilder::new();
        builder.apply(&Delta::Text("partial".into()));
        builder.apply(&start(0, "a", "echo"));
        builder.apply(&args(0, "{\"mess"));
        let turn = builder.finish(false);
        assert_eq!(
            turn.parts,
            vec![Part::Text {
                text: "partial".into()
            }]
        );
    }

    #[test]
    fn a_refusal_becomes_the_text_and_the_stop_reason() {
        let mut builder = TurnBuilder::new();
        builder.apply(&Delta::Refusal("I can't help with that.".into()));
        builder.apply(&Delta::Stop(StopReason::EndTurn));
        let turn = builder.finish(true);
        assert_eq!(
            turn.parts,
            vec![Part::Text {
                text: "I can't help with that.".into()
            }]
        );
        assert_eq!(
            turn.stop,
            Some(StopReason::Refusal {
                detail: "I can't help with that.".into()
            })
        );
    }

    #[test]
    fn usage_counts_are_merged_as_they_arrive() {
        let mut builder = TurnBuilder::new();
        builder.apply(&Delta::Usage(Usage {
            input_tokens: Some(10),
            output_tokens: Some(1),
        }));
        builder.apply(&Delta::Usage(Usage {
            input_tokens: None,
            output_tokens: Some(7),
        }));
        assert_eq!(
            builder.finish(true).usage,
            Some(Usage {
                input_tokens: Some(10),
                output_tokens: Some(7)
            })
        );
    }
}
