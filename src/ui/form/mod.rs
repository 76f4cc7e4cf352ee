//! A form generated from a JSON Schema, with a raw-JSON mode synced both ways.
//!
//! All the form's input lives in one `Draft` signal (see `schema::draft`); each input reads
//! its own part through a memo, so typing in one field re-renders only that field. Checking
//! happens on submit and, after the first submit, live as the person types.

mod binding;
mod field;
mod focus;
mod inputs;
mod patterns;
mod state;

use crate::schema;
use field::FieldView;
use leptos::prelude::*;
pub use patterns::BrowserPatterns;
use serde_json::Value;
pub use state::FormState;

#[component]
pub fn SchemaForm(state: FormState) -> impl IntoView {
    let root = state.root.get_value();
    let body = move || {
        if state.raw_mode.get() {
            view! {
                <textarea class="raw-json" rows="10" spellcheck="false" aria-label="Value as JSON"
                    prop:value=move || state.raw_text.get()
                    on:input=move |ev| state.raw_text.set(event_target_value(&ev))></textarea>
                {move || state.raw_error.get().map(|e| view! { <p class="error raw-error">{e}</p> })}
            }
            .into_any()
        } else {
            // A tool without parameters (`{"type": "object"}`, `properties: {}`) has no form;
            // a key-value editor appears only when the schema asks for extra keys.
            let asks_for_keys = state.schema.with_value(|s| {
                s.get("additionalProperties")
                    .is_some_and(|a| a != &Value::Bool(false))
                    || s.get("patternProperties").is_some()
            });
            let empty = matches!(&root.kind, schema::Kind::Object(o) if o.properties.is_empty() && !asks_for_keys);
            if empty {
                view! { <p class="muted">"No arguments."</p> }.into_any()
            } else {
                view! {
                    <FieldView state node=root.clone() path=Vec::new() name=String::new()
                        required=true depth=0 pointer=Signal::stored(String::new())/>
                }
                .into_any()
            }
        }
    };
    let issues = state.issues;
    view! {
        <div class="form">
            <div class="form-tools">
                <label class="raw-toggle">
                    <input type="checkbox" class="raw-mode" prop:checked=move || state.raw_mode.get()
                        on:change=move |ev| {
                        state.toggle_raw();
                        // Refused (the JSON does not parse): the box stays as the mode is.
                        event_target::<web_sys::HtmlInputElement>(&ev).set_checked(state.raw_mode.get_untracked());
                    }/>
                    " Raw JSON"
                </label>
                <button type="button" class="link fill-example" on:click=move |_| state.fill_example()
                    disabled=move || state.raw_mode.get()>"Fill with example"</button>
                <button type="button" class="link reset-form" on:click=move |_| state.reset()
                    disabled=move || state.raw_mode.get()>"Reset"</button>
            </div>
            {body}
            {move || (!state.raw_mode.get()).then(|| state.raw_error.get().map(|e| view! { <p class="muted form-note">{e}</p> })).flatten()}
            <Show when=move || issues.with(|i| !i.is_empty())>
                <div class="form-issues" role="alert">
                    <ul class="field-errors">
                        {move || issues.get().into_iter().map(|issue| {
                            let at = if issue.path.is_empty() { "(whole value)".to_owned() } else { issue.path.clone() };
                            view! { <li class="error" data-issue-path=issue.path><code>{at}</code>" "{issue.message}</li> }
                        }).collect_view()}
                    </ul>
                    <label class="send-anyway">
                        <input type="checkbox" prop:checked=move || state.send_anyway.get()
                            on:change=move |ev| state.send_anyway.set(event_target_checked(&ev))/>
                        " Send anyway (to test the server's own validation)"
                    </label>
                </div>
            </Show>
            {move || state.check.with(|(_, why)| why.clone()).map(|why| view! { <p class="muted check-incomplete">{why}</p> })}
        </div>
    }
}
