//! The provider-neutral conversation: a system prompt, settings, and messages whose parts are
//! text, images, audio, the model's reasoning, tool calls and tool results; per model turn its
//! usage, timing and stop reason. Every dialect is built from this, so a conversation can move
//! from one provider to another (or run on two side by side).
//!
//! Tool results travel in a user message (as Anthropic has them); the OpenAI and Gemini
//! builders split them out. The conversation never holds a key: what it records of a provider
//! is [`crate::provider::ProviderConfig::label`].

use crate::error::{ChatError, ChatErrorKind, ChatStep};
use crate::schema_convert::Dropped;
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub type MessageId = u64;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    User,
    Assistant,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    pub id: MessageId,
    pub role: Role,
    pub parts: Vec<Part>,
    /// For the model's messages: how the turn went.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<TurnInfo>,
}

impl Message {
    /// The message's text parts joined.
    pub fn text(&self) -> String {
        self.parts
            .iter()
            .filter_map(|part| match part {
                Part::Text { text } => Some(text.as_str()),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join("")
    }

    pub fn tool_calls(&self) -> impl Iterator<Item = &ToolCall> {
        self.parts.iter().filter_map(|part| match part {
            Part::ToolCall(call) => Some(call),
            _ => None,
        })
    }

    pub fn tool_results(&self) -> impl Iterator<Item = &ToolResult> {
        self.parts.iter().filter_map(|part| match part {
            Part::ToolResult(result) => Some(result),
            _ => None,
        })
    }

    /// Whether the person wrote it (a user message that is not only tool results).
    pub fn is_from_person(&self) -> bool {
        self.role == Role::User
            && self
                .parts
                .iter()
                .any(|part| !matches!(part, Part::ToolResult(_)))
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Part {
    Text {
        text: String,
    },
    /// Base64 data, as MCP carries it.
    Image {
        mime_type: String,
        data: String,
    },
    Audio {
        mime_type: String,
        data: String,
    },
    /// The model's visible reasoning (shown; never sent back).
    Reasoning {
        text: String,
    },
    ToolCall(ToolCall),
    ToolResult(ToolResult),
}

/// A call the model asked for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    /// The provider's call id (generated when the provider gives none, see
    /// [`GENERATED_CALL_ID_PREFIX`]).
    pub id: String,
    /// The name as the model wrote it.
    pub name: String,
    /// The server and MCP tool the name stands for; None for a name no tool has.
    #[serde(default)]
    pub server_id: Option<String>,
    #[serde(default)]
    pub tool_name: Option<String>,
    /// The arguments, an object when they could be read.
    pub arguments: Value,
    /// Why the arguments could not be read (then `arguments` is their raw text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invalid_arguments: Option<String>,
    /// What the provider needs back with this call (Gemini's `thoughtSignature`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider_data: Option<Value>,
}

/// The start of call ids made up for providers that give none (never sent back as theirs).
pub const GENERATED_CALL_ID_PREFIX: &str = "mcp-lens-call-";

/// What became of a tool call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolResult {
    pub call_id: String,
    /// The call's name as the model wrote it.
    pub name: String,
    pub status: ToolStatus,
    /// A `CallToolResult` (`content`, `structuredContent`, `isError`): the server's, or one
    /// written here saying why the tool did not run.
    pub result: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<f64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolStatus {
    /// The server answered (its `isError` may still say the tool failed).
    Done,
    /// The call failed before a result (network, protocol, timeout).
    Failed,
    /// The person declined this call.
    Declined,
    /// The tool's policy is "never".
    NotAllowed,
    /// Not run: stopped, or a limit was reached.
    Skipped,
    /// The model named a tool that does not exist.
    UnknownTool,
    /// The model's arguments were not a JSON object.
    InvalidArguments,
}

impl ToolResult {
    /// A result written here (not the server's): `text` as its content, an error.
    pub fn not_run(call: &ToolCall, status: ToolStatus, text: &str) -> Self {
        Self {
            call_id: call.id.clone(),
            name: call.name.clone(),
            status,
            result: serde_json::json!({
                "content": [{ "type": "text", "text": text }],
                "isError": true
            }),
            duration_ms: None,
        }
    }

    /// What became of the call, in a few words ("done", "declined", ...).
    pub fn outcome(&self) -> &'static str {
        match self.status {
            ToolStatus::Done if self.is_error() => "the tool reported an error",
            ToolStatus::Done => "done",
            ToolStatus::Failed => "failed",
            ToolStatus::Declined => "declined",
            ToolStatus::NotAllowed => "not allowed",
            ToolStatus::Skipped => "not run",
            ToolStatus::UnknownTool => "unknown tool",
            ToolStatus::InvalidArguments => "invalid arguments",
        }
    }

    /// The result's `isError`.
    pub fn is_error(&self) -> bool {
        self.result.get("isError") == Some(&Value::Bool(true))
    }
}

/// How one model turn went.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct TurnInfo {
    /// What answered: the model the provider reported, else the one asked for.
    pub model: String,
    /// The provider's label (no key, credentials in the address redacted).
    pub provider: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop: Option<StopReason>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_to_first_token_ms: Option<f64>,
    pub duration_ms: f64,
    /// The answer was cut (stopped, an error, a limit); its tool calls, if any, were dropped.
    #[serde(default)]
    pub interrupted: bool,
    /// What the request's conversion to the dialect could not keep.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dropped: Vec<Dropped>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Usage {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_tokens: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_tokens: Option<u64>,
}

impl Usage {
    /// `self` with the counts `newer` has.
    pub fn updated(self, newer: Usage) -> Usage {
        Usage {
            input_tokens: newer.input_tokens.or(self.input_tokens),
            output_tokens: newer.output_tokens.or(self.output_tokens),
        }
    }
}

/// Why the model stopped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum StopReason {
    EndTurn,
    ToolUse,
    MaxTokens,
    StopSequence {
        #[serde(default)]
        sequence: Option<String>,
    },
    /// The model or the provider's filter refused (Anthropic `refusal`, OpenAI `refusal` and
    /// `content_filter`, Gemini `SAFETY` and its kin).
    Refusal {
        detail: String,
    },
    Other {
        reason: String,
    },
}

/// A conversation and its settings.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Conversation {
    #[serde(default)]
    pub system_prompt: Option<String>,
    #[serde(default)]
    pub temperature: Option<f64>,
    #[serde(default)]
    pub max_tokens: Option<u32>,
    /// Whether the model must call a tool (see [`ToolUse`]).
    #[serde(default, skip_serializing_if = "ToolUse::is_auto")]
    pub tool_use: ToolUse,
    pub messages: Vec<Message>,
    #[serde(default)]
    next_id: MessageId,
}

/// Whether the model must call a tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolUse {
    /// The model chooses (`tool_choice: auto`).
    #[default]
    Auto,
    /// Its answer to the person must call a tool; after tool results it chooses. Small models
    /// that never call a tool by themselves do with this (a server enforcing it with a grammar).
    RequiredFirst,
    /// No tool may be called (the tools are still described).
    None,
}

impl ToolUse {
    pub fn is_auto(&self) -> bool {
        *self == ToolUse::Auto
    }
}

impl Conversation {
    pub fn new() -> Self {
        Self::default()
    }

    /// An id no message of this conversation has.
    pub fn next_id(&mut self) -> MessageId {
        let used = self.messages.iter().map(|m| m.id + 1).max().unwrap_or(0);
        self.next_id = self.next_id.max(used);
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    /// Adds a message; its id.
    pub fn push(&mut self, role: Role, parts: Vec<Part>, turn: Option<TurnInfo>) -> MessageId {
        let id = self.next_id();
        self.messages.push(Message {
            id,
            role,
            parts,
            turn,
        });
        id
    }

    /// Adds the person's text; its id.
    pub fn push_user_text(&mut self, text: &str) -> MessageId {
        self.push(
            Role::User,
            vec![Part::Text {
                text: text.to_owned(),
            }],
            None,
        )
    }

    pub fn message(&self, id: MessageId) -> Option<&Message> {
        self.messages.iter().find(|m| m.id == id)
    }

    /// Removes every message.
    pub fn clear(&mut self) {
        self.messages.clear();
    }

    /// Edit-and-resend: the person's message `id` gets `text` as its text (its images and
    /// other parts stay), and every message after it is removed.
    pub fn edit(&mut self, id: MessageId, text: &str) -> Result<(), ChatError> {
        let index = self.index_of_person_message(id)?;
        let message = &mut self.messages[index];
        message
            .parts
            .retain(|part| !matches!(part, Part::Text { .. }));
        message.parts.insert(
            0,
            Part::Text {
                text: text.to_owned(),
            },
        );
        self.messages.truncate(index + 1);
        Ok(())
    }

    /// Retry: removes everything after the person's last message, so the next run answers it
    /// again.
    pub fn prepare_retry(&mut self) -> Result<(), ChatError> {
        let Some(index) = self.messages.iter().rposition(Message::is_from_person) else {
            return Err(cannot_edit("There is no message of yours to answer again."));
        };
        self.messages.truncate(index + 1);
        Ok(())
    }

    fn index_of_person_message(&self, id: MessageId) -> Result<usize, ChatError> {
        match self.messages.iter().position(|m| m.id == id) {
            Some(index) if self.messages[index].is_from_person() => Ok(index),
            Some(_) => Err(cannot_edit("Only your own messages can be edited.")),
            None => Err(cannot_edit(
                "That message is no longer in the conversation.",
            )),
        }
    }

    /// The calls of the last message that have no result yet (the model's last turn asked
    /// for them and they have not run).
    pub fn pending_tool_calls(&self) -> Vec<ToolCall> {
        match self.messages.last() {
            Some(last) if last.role == Role::Assistant => last.tool_calls().cloned().collect(),
            _ => Vec::new(),
        }
    }

    /// The size of the conversation as JSON, counted without building the text.
    pub fn approximate_bytes(&self) -> usize {
        let mut counter = ByteCounter(0);
        // Writing to a counter cannot fail; a failure would only undercount.
        let _ = serde_json::to_writer(&mut counter, &self.messages);
        counter.0 + self.system_prompt.as_ref().map_or(0, String::len)
    }

    /// Tokens used by every model turn so far.
    pub fn total_usage(&self) -> Usage {
        let mut total = Usage::default();
        for usage in self.messages.iter().filter_map(|m| m.turn.as_ref()?.usage) {
            let add = |a: Option<u64>, b: Option<u64>| match (a, b) {
                (None, None) => None,
                (a, b) => Some(a.unwrap_or(0).saturating_add(b.unwrap_or(0))),
            };
            total.input_tokens = add(total.input_tokens, usage.input_tokens);
            total.output_tokens = add(total.output_tokens, usage.output_tokens);
        }
        total
    }
}

fn cannot_edit(detail: &str) -> ChatError {
    ChatError::new(
        ChatStep::EditConversation,
        ChatErrorKind::CannotEdit {
            detail: detail.to_owned(),
        },
    )
}

struct ByteCounter(usize);

impl std::io::Write for ByteCounter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn call(id: &str) -> Part {
        Part::ToolCall(ToolCall {
            id: id.into(),
            name: "echo".into(),
            server_id: Some("s".into()),
            tool_name: Some("echo".into()),
            arguments: json!({}),
            invalid_arguments: None,
            provider_data: None,
        })
    }

    fn sample() -> Conversation {
        let mut conversation = Conversation::new();
        conversation.push_user_text("first");
        conversation.push(Role::Assistant, vec![call("c1")], None);
        let result = ToolResult::not_run(
            &ToolCall {
                id: "c1".into(),
                name: "echo".into(),
                server_id: None,
                tool_name: None,
                arguments: json!({}),
                invalid_arguments: None,
                provider_data: None,
            },
            ToolStatus::Skipped,
            "x",
        );
        conversation.push(Role::User, vec![Part::ToolResult(result)], None);
        conversation.push(
            Role::Assistant,
            vec![Part::Text {
                text: "done".into(),
            }],
            None,
        );
        conversation.push_user_text("second");
        conversation.push(
            Role::Assistant,
            vec![Part::Text {
                text: "answer".into(),
            }],
            None,
        );
        conversation
    }

    #[test]
    fn retry_removes_everything_after_the_persons_last_message() {
        let mut conversation = sample();
        conversation.prepare_retry().unwrap();
        assert_eq!(conversation.messages.len(), 5);
        assert_eq!(conversation.messages.last().unwrap().text(), "second");
        // A tool-results message is not the person's.
        assert!(!conversation.messages[2].is_from_person());
    }

    #[test]
    fn edit_replaces_the_text_and_truncates_after_it() {
        let mut conversation = sample();
        let first = conversation.messages[0].id;
        conversation.edit(first, "changed").unwrap();
        assert_eq!(conversation.messages.len(), 1);
        assert_eq!(conversation.messages[0].text(), "changed");
        let new_id = conversation.push_user_text("again");
        assert!(new_id > first, "ids are never reused");
    }

    #[test]
    fn only_the_persons_messages_can_be_edited() {
        let mut conversation = sample();
        let answer = conversation.messages[1].id;
        let error = conversation.edit(answer, "x").unwrap_err();
        assert!(matches!(error.kind, ChatErrorKind::CannotEdit { .. }));
        assert!(conversation.edit(999, "x").is_err());
        assert!(Conversation::new().prepare_retry().is_err());
    }

    #[test]
    fn pending_calls_are_those_of_a_last_model_message() {
        let mut conversation = Conversation::new();
        conversation.push_user_text("hi");
        assert!(conversation.pending_tool_calls().is_empty());
        conversation.push(Role::Assistant, vec![call("a"), call("b")], None);
        assert_eq!(conversation.pending_tool_calls().len(), 2);
    }

    #[test]
    fn the_size_counts_the_json_of_every_message() {
        let conversation = sample();
        let exact = serde_json::to_string(&conversation.messages).unwrap().len();
        assert_eq!(conversation.approximate_bytes(), exact);
    }
}
