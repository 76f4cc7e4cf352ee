//! An outcome drawn ([`ResultView`]): content blocks, structured content checked against the
//! tool's `outputSchema`, a prompt's messages, a resource's contents; everything but a task,
//! whose card (`tasks.rs`) draws its result through this view (`OutcomeView` adds the card).

use super::outcome::Outcome;
use crate::schema::validate;
use crate::ui::content::{human_size, Content, ContentList, ResourceContent, TextBlock};
use crate::ui::form::BrowserPatterns;
use crate::ui::server_requests::UrlPages;
use leptos::prelude::*;
use serde_json::{Map, Value};
use std::sync::Arc;

#[component]
pub(in crate::ui) fn ResultView(
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
        // Drawn by `OutcomeView` (a task's card shows its result through this view).
        Outcome::Task(_) => ().into_any(),
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
