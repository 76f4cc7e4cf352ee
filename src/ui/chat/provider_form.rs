//! A lane's provider: dialect, base URL, model, key (a password field; kept in memory, and in
//! this tab's sessionStorage only on "Remember in this tab").

use super::state::ProviderFields;
use leptos::prelude::*;
use mcp_lens_chat::Dialect;

const DIALECTS: [(Dialect, &str); 3] = [
    (Dialect::OpenAiCompatible, "openai"),
    (Dialect::Anthropic, "anthropic"),
    (Dialect::Gemini, "gemini"),
];

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
        if let Some((dialect, _)) = DIALECTS.iter().find(|(_, k)| *k == key) {
            fields.dialect.set(*dialect);
        }
    };
    view! {
        <div class="provider-form" data-lane=index>
            <label class="field">
                <span class="field-label">"API"</span>
                <select class="provider-dialect" on:change=choose prop:value=move || dialect_key(fields.dialect.get())>
                    {DIALECTS.iter().map(|(dialect, key)| view! {
                        <option value=*key>{dialect.label()}</option>
                    }).collect_view()}
                </select>
            </label>
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
    }
}
