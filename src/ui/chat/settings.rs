//! The conversation's settings: a system prompt, a temperature and a maximum of tokens per
//! answer (empty: the provider's default), and whether the model must call a tool, the same
//! for every lane.

use super::state::ChatState;
use leptos::prelude::*;
use mcp_lens_chat::conversation::ToolUse;

#[component]
pub fn ConversationSettings() -> impl IntoView {
    let state = ChatState::get();
    view! {
        <div class="chat-settings">
            <label class="field wide">
                <span class="field-label">"System prompt"</span>
                <textarea id="chat-system-prompt" rows="2" prop:value=move || state.system_prompt.get()
                    on:input=move |ev| state.system_prompt.set(event_target_value(&ev))></textarea>
            </label>
            <label class="field">
                <span class="field-label">"Temperature"</span>
                <input id="chat-temperature" class="narrow" inputmode="decimal" placeholder="default"
                    prop:value=move || state.temperature.get()
                    on:input=move |ev| state.temperature.set(event_target_value(&ev))/>
            </label>
            <label class="field">
                <span class="field-label">"Max tokens"</span>
                <input id="chat-max-tokens" class="narrow" inputmode="numeric" placeholder="default"
                    prop:value=move || state.max_tokens.get()
                    on:input=move |ev| state.max_tokens.set(event_target_value(&ev))/>
            </label>
            <label class="field">
                <span class="field-label">"Tools"</span>
                <select id="chat-tool-use" on:change=move |ev| state.tool_use.set(match event_target_value(&ev).as_str() {
                    "required-first" => ToolUse::RequiredFirst,
                    "none" => ToolUse::None,
                    _ => ToolUse::Auto,
                })>
                    <option value="auto">"the model chooses"</option>
                    <option value="required-first">"a tool call first (small models)"</option>
                    <option value="none">"no tool calls"</option>
                </select>
            </label>
        </div>
    }
}
