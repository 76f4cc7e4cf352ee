//! A conversation saved and read back as versioned JSON, and written as Markdown.
//!
//! Invariant: nothing secret goes out. A [`Conversation`] holds no key and no header by
//! construction (the provider is recorded by its label, with credentials in its address
//! redacted); tool results are the servers' own words and go as they are.

use crate::conversation::{Conversation, Part, Role};
use crate::error::{ChatError, ChatErrorKind, ChatStep};
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub const EXPORT_FORMAT: &str = "mcp-lens-chat";
pub const EXPORT_VERSION: u32 = 1;
/// A larger file is refused before it is read (wasm memory is finite).
pub const MAX_IMPORT_BYTES: usize = 32 * 1024 * 1024;

#[derive(Serialize)]
struct ExportRef<'a> {
    format: &'static str,
    version: u32,
    conversation: &'a Conversation,
}

#[derive(Deserialize)]
struct Export {
    conversation: Conversation,
}

/// The conversation as JSON (`{"format": "mcp-lens-chat", "version": 1, "conversation": ...}`).
pub fn export_json(conversation: &Conversation) -> String {
    let export = ExportRef {
        format: EXPORT_FORMAT,
        version: EXPORT_VERSION,
        conversation,
    };
    // Serializing plain data to a string does not fail; an empty object would say so if it did.
    serde_json::to_string_pretty(&export).unwrap_or_else(|_| "{}".to_owned())
}

/// A conversation read back from [`export_json`]'s output.
pub fn import_json(text: &str) -> Result<Conversation, ChatError> {
    let refuse = |detail: String| {
        ChatError::new(
            ChatStep::ImportConversation,
            ChatErrorKind::InvalidExport { detail },
        )
    };
    if text.len() > MAX_IMPORT_BYTES {
        return Err(refuse(format!(
            "it is larger than {MAX_IMPORT_BYTES} bytes"
        )));
    }
    let head: Value =
        serde_json::from_str(text).map_err(|e| refuse(format!("it is not JSON ({e})")))?;
    if head.get("format").and_then(Value::as_str) != Some(EXPORT_FORMAT) {
        return Err(refuse(format!("its \"format\" is not {EXPORT_FORMAT:?}")));
    }
    match head.get("version").and_then(Value::as_u64) {
        Some(version) if version == u64::from(EXPORT_VERSION) => {}
        Some(version) => {
            return Err(refuse(format!(
                "it is version {version}; this page reads version {EXPORT_VERSION}"
            )))
        }
        None => return Err(refuse("it has no version".into())),
    }
    let export: Export = serde_json::from_value(head)
        .map_err(|e| refuse(format!("its conversation cannot be read ({e})")))?;
    Ok(export.conversation)
}

/// The conversation as Markdown: who said what, each call with its arguments and result,
/// per turn the model, time and tokens.
pub fn export_markdown(conversation: &Conversation) -> String {
    let mut out = String::from("# Conversation\n");
    if let Some(system) = conversation
        .system_prompt
        .as_deref()
        .filter(|s| !s.trim().is_empty())
    {
        out.push_str(&format!("\n## System prompt\n\n{}\n", quote_block(system)));
    }
    for message in &conversation.messages {
        let heading = match (message.role, message.is_from_person(), &message.turn) {
            (Role::User, true, _) => "You".to_owned(),
            (Role::User, false, _) => "Tool results".to_owned(),
            (Role::Assistant, _, Some(turn)) => {
                let mut facts = vec![format!("{:.1} s", turn.duration_ms / 1_000.0)];
                if let Some(usage) = turn.usage {
                    facts.push(format!(
                        "{} tokens in, {} out",
                        usage.input_tokens.map_or("?".into(), |n| n.to_string()),
                        usage.output_tokens.map_or("?".into(), |n| n.to_string())
                    ));
                }
                if turn.interrupted {
                    facts.push("interrupted".into());
                }
                format!("Model: {} ({})", turn.model, facts.join(", "))
            }
            (Role::Assistant, _, None) => "Model".to_owned(),
        };
        out.push_str(&format!("\n## {heading}\n"));
        for part in &message.parts {
            out.push('\n');
            match part {
                Part::Text { text } => out.push_str(&format!("{text}\n")),
                Part::Reasoning { text } => {
                    out.push_str(&format!("*Reasoning:*\n\n{}\n", quote_block(text)))
                }
                Part::Image { mime_type, data } => out.push_str(&format!(
                    "*[image, {mime_type}, {} bytes]*\n",
                    data.len() / 4 * 3
                )),
                Part::Audio { mime_type, data } => out.push_str(&format!(
                    "*[audio, {mime_type}, {} bytes]*\n",
                    data.len() / 4 * 3
                )),
                Part::ToolCall(call) => {
                    let target = match (&call.server_id, &call.tool_name) {
                        (Some(server), Some(tool)) => format!("{tool} on {server}"),
                        _ => call.name.clone(),
                    };
                    let arguments =
                        serde_json::to_string_pretty(&call.arguments).unwrap_or_default();
                    out.push_str(&format!(
                        "**Tool call** `{}`: {target}\n\n{}",
                        call.id,
                        fenced("json", &arguments)
                    ));
                }
                Part::ToolResult(result) => {
                    let status = result.outcome();
                    let result_json =
                        serde_json::to_string_pretty(&result.result).unwrap_or_default();
                    out.push_str(&format!(
                        "**Result** of `{}` ({status}):\n\n{}",
                        result.call_id,
                        fenced("json", &result_json)
                    ));
                }
            }
        }
    }
    out
}

/// `text` in a fenced block whose fence is longer than any backtick run inside it.
fn fenced(language: &str, text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    format!("{fence}{language}\n{text}\n{fence}\n")
}

fn quote_block(text: &str) -> String {
    text.lines()
        .map(|line| format!("> {line}"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fence_is_longer_than_any_backticks_inside() {
        assert_eq!(fenced("json", "a"), "```json\na\n```\n");
        assert!(fenced("", "x ```` y").starts_with("`````\n"));
    }

    #[test]
    fn only_this_format_and_version_are_imported() {
        let conversation = Conversation::new();
        let text = export_json(&conversation);
        assert_eq!(import_json(&text).unwrap(), conversation);
        for wrong in [
            "not json".to_owned(),
            r#"{"format":"other","version":1,"conversation":{"messages":[]}}"#.to_owned(),
            r#"{"format":"mcp-lens-chat","version":2,"conversation":{"messages":[]}}"#.to_owned(),
            r#"{"format":"mcp-lens-chat","version":1,"conversation":{"messages":[{"id":0}]}}"#
                .to_owned(),
        ] {
            let error = import_json(&wrong).unwrap_err();
            assert_eq!(error.step, ChatStep::ImportConversation, "{wrong}");
        }
    }
}
