//! What a panel's action returned ([`Outcome`]) and how it is drawn ([`OutcomeView`]):
//! content blocks, structured content checked against the tool's `outputSchema`, a prompt's
//! messages, a resource's contents, a task's card. In the panel chunk, with the panels.

use crate::protocol::server_requests::UrlElicitation;
use crate::schema::validate;
use crate::ui::content::{
    content_size, human_size, resource_size, value_size, Content, ContentList, ResourceContent,
    TextBlock,
};
use crate::ui::form::BrowserPatterns;
use crate::ui::server_requests::UrlPages;
use leptos::prelude::*;
use rmcp::model::{CallToolResult, GetPromptResult, ReadResourceResult};
use serde_json::{Map, Value};
use std::sync::Arc;

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
/// panel lets it go when it closes anyway). Tracks `outcome`.
pub(super) fn outcome_to_draw(outcome: RwSignal<Option<Outcome>>) -> Option<Outcome> {
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
pub(super) const LARGE_RESULT_BYTES: usize = 1024 * 1024;

/// About how many bytes an outcome holds, counted until past `limit`.
pub(super) fn outcome_size(outcome: &Outcome, limit: usize) -> usize {
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

#[component]
pub(in crate::ui) fn OutcomeView(
    id: Option<&'static str>,
    outcome: Outcome,
    output_schema: Option<Arc<Map<String, Value>>>,
) -> impl IntoView {
    let is_error = match &outcome {
        Outcome::HandedOver { .. } => false,
        outcome => outcome.failed(),
    };
    let body = match outcome {
        Outcome::Failed(message) => view! { <p class="error">{message}</p> }.into_any(),
        Outcome::Cancelled => view! { <p class="muted cancelled">"Cancelled."</p> }.into_any(),
        Outcome::NeedsPages(message, pages) => view! {
            <p class="error">{message}</p>
            <UrlPages pages/>
        }
        .into_any(),
        Outcome::Task(id) => view! { <crate::ui::tasks::TaskCard id/> }.into_any(),
        // Drawn only if its view went without its panel's cleanup (which releases it).
        Outcome::Released(size) | Outcome::HandedOver { size, .. } => view! {
            <p class="muted released">{format!(
                "The last result ({}) was let go when its panel closed, to free memory; run again to see it.",
                human_size(size),
            )}</p>
        }
        .into_any(),
        Outcome::Tool(result) => {
            let structured = result
                .structured_content
                .as_ref()
                .map(|value| serde_json::to_string(value).unwrap_or_default());
            let conformance = output_schema
                .filter(|_| result.is_error != Some(true))
                .map(|schema| view! { <OutputCheck schema=Value::Object((*schema).clone()) structured=result.structured_content.clone()/> });
            view! {
                {(result.is_error == Some(true)).then(|| view! { <p class="error">"The tool reported an error."</p> })}
                {conformance}
                <ContentList content=result.content/>
                {structured.map(|text| view! {
                    <h3>"Structured content"</h3>
                    <div class="structured"><TextBlock text/></div>
                })}
            }
            .into_any()
        }
        Outcome::Prompt(rendered) => view! {
            {rendered.description.map(|d| view! { <p class="description">{d}</p> })}
            {rendered.messages.into_iter().map(|message| {
                let role = serde_json::to_value(&message.role).ok().and_then(|r| r.as_str().map(str::to_owned)).unwrap_or_default();
                view! {
                    <div class="prompt-message">
                        <span class="role">{role}</span>
                        <Content block=message.content/>
                    </div>
                }
            }).collect_view()}
        }
        .into_any(),
        Outcome::Resource(read) if read.contents.is_empty() => {
            view! { <p class="muted">"The resource is empty."</p> }.into_any()
        }
        Outcome::Resource(read) => read
            .contents
            .into_iter()
            .map(|contents| view! { <ResourceContent contents/> })
            .collect_view()
            .into_any(),
    };
    view! { <div id=id class="result" class:result-error=is_error>{body}</div> }
}

/// A tool's structuredContent checked against its outputSchema (skipped for errors).
#[component]
fn OutputCheck(schema: Value, structured: Option<Value>) -> impl IntoView {
    let Some(structured) = structured else {
        return view! {
            <div class="output-check output-invalid">
                <p class="error">"The tool declares an output schema but returned no structuredContent."</p>
            </div>
        }
        .into_any();
    };
    let report = validate(&schema, &structured, &BrowserPatterns);
    let incomplete = report
        .incomplete
        .map(|why| view! { <p class="muted">{why}</p> });
    if report.issues.is_empty() {
        return view! {
            <div class="output-check output-valid">
                <p class="ok">"structuredContent matches the output schema."</p>
                {incomplete}
            </div>
        }
        .into_any();
    }
    let count = report.issues.len();
    view! {
        <div class="output-check output-invalid">
            <p class="error">{format!("structuredContent does not match the output schema ({count} problem{}):", if count == 1 { "" } else { "s" })}</p>
            <ul class="field-errors">
                {report.issues.into_iter().map(|issue| {
                    let at = if issue.path.is_empty() { "(whole value)".to_owned() } else { issue.path.clone() };
                    view! { <li class="error" data-issue-path=issue.path><code>{at}</code>" "{issue.message}</li> }
                }).collect_view()}
            </ul>
            {incomplete}
        </div>
    }
    .into_any()
}
