//! What a panel's action returned ([`Outcome`]), and how much of it is held: data only;
//! `result_view.rs` and `outcome_view.rs` draw it. In the panel chunk, with the panels.

use crate::protocol::server_requests::UrlElicitation;
use crate::ui::content::{content_size, resource_size, value_size};
use leptos::prelude::*;
use rmcp::model::{CallToolResult, GetPromptResult, ReadResourceResult};

/// What an action returned.
#[derive(Debug, Clone)]
pub(in crate::ui) enum Outcome {
    Failed(String),
    /// The person cancelled the request: said quietly, not as a failure.
    Cancelled,
    /// The server needs the person to visit pages first (-32042): the error sentence and
    /// the pages; the same request can then be sent again.
    NeedsPages(String, Vec<UrlElicitation>),
    Tool(CallToolResult),
    /// The tool runs as this task (shown live, with its result once it ends).
    Task(String),
    Prompt(GetPromptResult),
    Resource(ReadResourceResult),
    /// A result of this many bytes, let go when its panel closed so that memory goes back
    /// to what it was (see [`LARGE_RESULT_BYTES`]); acting again shows a new one.
    Released(usize),
    /// A large result (this many bytes; whether it failed) handed over to the view that shows
    /// it, which holds it (for "Show more", Copy and Download) and lets it go when it closes:
    /// not copied (10 MB took 3-17 ms of the task that draws it) nor held twice.
    HandedOver {
        size: usize,
        failed: bool,
    },
}

impl Outcome {
    /// Whether the action failed (an error, or a tool that reported one).
    pub(in crate::ui) fn failed(&self) -> bool {
        match self {
            Outcome::Failed(_) | Outcome::NeedsPages(..) => true,
            Outcome::Tool(result) => result.is_error == Some(true),
            Outcome::HandedOver { failed, .. } => *failed,
            _ => false,
        }
    }
}

/// The outcome in `outcome`, to draw: a copy of a small one (it stays, to be shown again when
/// its panel opens again); a large one itself, [`Outcome::HandedOver`] left in its place (its
/// panel lets it go when it closes anyway). Tracks `outcome` (a panel's action's value).
pub(in crate::ui) fn outcome_to_draw<Held>(outcome: Held) -> Option<Outcome>
where
    Held: With<Value = Option<Outcome>>
        + WithUntracked<Value = Option<Outcome>>
        + UpdateUntracked<Value = Option<Outcome>>,
{
    let large = outcome.with(|outcome| {
        outcome
            .as_ref()
            .filter(|outcome| !matches!(outcome, Outcome::HandedOver { .. }))
            .map(|outcome| outcome_size(outcome, LARGE_RESULT_BYTES))
            .filter(|&size| size > LARGE_RESULT_BYTES)
    });
    match large {
        Some(size) => outcome
            .try_update_untracked(|outcome| {
                let failed = outcome.as_ref().is_some_and(Outcome::failed);
                outcome.replace(Outcome::HandedOver { size, failed })
            })
            .flatten(),
        None => outcome.get_untracked(),
    }
}

/// A result larger than this is not kept once its panel closes (another item, tab or
/// server, or a disconnect); smaller ones are, to be seen again.
pub(in crate::ui) const LARGE_RESULT_BYTES: usize = 1024 * 1024;

/// About how many bytes an outcome holds, counted until past `limit`.
pub(in crate::ui) fn outcome_size(outcome: &Outcome, limit: usize) -> usize {
    match outcome {
        Outcome::Failed(message) | Outcome::NeedsPages(message, _) => message.len(),
        Outcome::Task(_) | Outcome::Released(_) | Outcome::Cancelled => 0,
        Outcome::HandedOver { size, .. } => *size,
        Outcome::Tool(result) => result
            .content
            .iter()
            .map(content_size)
            .sum::<usize>()
            .saturating_add(
                result
                    .structured_content
                    .as_ref()
                    .map_or(0, |value| value_size(value, limit)),
            ),
        Outcome::Prompt(rendered) => rendered
            .messages
            .iter()
            .map(|message| content_size(&message.content))
            .sum(),
        Outcome::Resource(read) => read.contents.iter().map(resource_size).sum(),
    }
}
