//! A lane's provider: dialect, base URL, model, key (a password field; kept in memory, and in
//! this tab's sessionStorage only on "Remember in this tab"); or the page's own model ("In this
//! page", `in_page.rs`), whose code is fetched only when it is picked here.

use super::in_page::{prepare, InPagePanel};
use super::state::{ChatState, ProviderFields};
use leptos::prelude::*;
use mcp_lens_chat::Dialect;

const DIALECTS: [(Dialect, &str); 3] = [
    (Dialect::OpenAiCompatible, "openai"),
    (Dialect::Anthropic, "anthropic"),
    (Dialect::Gemini, "gemini"),
];

/// The select's value for the page's own model.
const IN_PAGE: &str = "in-page";

fn dialect_key(dialect: Dialect) -> &'static str {
    DIALECTS
        .iter()
        .find(|(d, _)| *d == dialect)
        .map_or("openai", |(_, key)| key)
}

#[component]
pub fn ProviderForm(fields: ProviderFields, index: usize) -> impl IntoView {
    let placeholder = move || fields.dialect.get().default_base_url();
    let choose = move |ev| {
        let key = event_target_value(&ev);
        if key == IN_PAGE {
            let model = ChatState::get().in_page;
            fields.in_page.set(true);
            fields.dialect.set(Dialect::OpenAiCompatible);
            fields.model.set(model.ready_name().unwrap_or_default());
            prepare(model);
            return;
        }
        if fields.in_page.get_untracked() {
            fields.in_page.set(false);
            fields.model.set(String::new());
        }
        if let Some((dialect, _)) = DIALECTS.iter().find(|(_, k)| *k == key) {
            fields.dialect.set(*dialect);
        }
    };
    let in_page = move || fields.in_page.get();
    let chosen = move || {
        if fields.in_page.get() {
            IN_PAGE
        } else {
            dialect_key(fields.dialect.get())
        }
    };
    view! {
        <div class="provider-form" data-lane=index>
            <label class="field">
                <span class="field-label">"API"</span>
                <select class="provider-dialect" on:change=choose prop:value=chosen>
                    {DIALECTS.iter().map(|(dialect, key)| view! {
                        <option value=*key>{dialect.label()}</option>
                    }).collect_view()}
                    <option value=IN_PAGE>"In this page (no key, nothing installed)"</option>
                </select>
            </label>
            <Show when=in_page>
                <InPagePanel/>
            </Show>
            <div class="provider-remote" hidden=in_page>
            <label class="field">
                <span class="field-label">"Base URL"</span>
                <input class="provider-base-url" type="url" spellcheck="false" placeholder=placeholder
                    prop:value=move || fields.base_url.get()
                    on:input=move |ev| fields.base_url.set(event_target_value(&ev))/>
            </label>
            <label class="field">
                <span class="field-label">"Model"</span>
                <input class="provider-model" spellcheck="false" placeholder="gpt-4o-mini, claude-sonnet-4-5, gemini-2.5-flash, …"
                    prop:value=move || fields.model.get()
                    on:input=move |ev| fields.model.set(event_target_value(&ev))/>
            </label>
            <label class="field">
                <span class="field-label">"Key"</span>
                <input class="provider-key" type="password" autocomplete="off" spellcheck="false"
                    placeholder="none for a local server"
                    prop:value=move || fields.key.get()
                    on:input=move |ev| fields.key.set(event_target_value(&ev))/>
            </label>
            <label class="check">
                <input class="provider-remember" type="checkbox" prop:checked=move || fields.remember.get()
                    on:change=move |ev| fields.remember.set(event_target_checked(&ev))/>
                " Remember in this tab"
            </label>
            <p class="muted provider-note">
                "The key stays in this page (and, if you tick the box, in this tab until it closes). \
                 It is sent only to this provider's address, in a header, and never to an MCP server, \
                 the wire log, an export or a link."
            </p>
            </div>
        </div>
    }
}
