//! The connection's lesser views, in chunks of their own: where the address's requests go
//! ([`UrlTarget`], session chunk) and the settings inside the collapsed Settings panel
//! ([`SettingsFields`], sign-in chunk), so the first paint carries neither.

use super::lazy::connect::disconnect;
use super::lazy::signin::SignInClient;
use super::servers::{use_servers, Settings};
use crate::client::config::check_server_url;
use crate::protocol::era::VersionChoice;
use leptos::prelude::*;

/// Under the address field: where its requests go, when that is not plain (session chunk,
/// through `lazy::UrlTarget`).
#[component]
pub fn UrlTarget() -> impl IntoView {
    let url = expect_context::<Settings>().url;
    move || {
        url_target(&url.get()).map(|(text, warning)| {
            view! { <p id="url-target" class:warning=warning class:muted=!warning>{text}</p> }
        })
    }
}

/// What to say under the address field: nothing while it is empty or reads as it is written;
/// the origin requests will go to when the browser's reading differs from the text (case, a
/// default port, dot segments); why it cannot be used, as a warning, once it looks like an
/// address (it has a scheme).
fn url_target(text: &str) -> Option<(String, bool)> {
    let typed = text.trim();
    if typed.is_empty() || !typed.contains("://") {
        return None;
    }
    match check_server_url(typed) {
        Ok(url) if typed.to_ascii_lowercase().starts_with(&url.origin()) => None,
        Ok(url) => Some((format!("Requests go to {}.", url.origin()), false)),
        Err(reason) => Some((reason, true)),
    }
}

/// The connection's settings (name, "Remember", the sign-in client, protocol version, roots,
/// limits, removal), inside the collapsed Settings panel: in the session chunk, reached only
/// through `lazy::SettingsFields`, so the first paint does not carry them.
#[component]
pub fn SettingsFields() -> impl IntoView {
    let servers = use_servers();
    let Settings {
        name,
        version,
        roots,
        timeout,
        max_total,
        server_request_timeout,
        max_message_mb,
        remember_secrets,
        ..
    } = expect_context::<Settings>();
    view! {
        <label class="field">
            <span class="field-label">"Name (in the sidebar and the wire log)"</span>
            <input id="server-name" prop:value=move || name.get() on:input=move |ev| name.set(event_target_value(&ev))/>
        </label>
        <label class="checkbox">
            <input id="remember-secrets" type="checkbox" prop:checked=move || remember_secrets.get()
                on:change=move |ev| remember_secrets.set(event_target_checked(&ev))/>
            " Remember token, headers, client secret and sign-in tokens in this tab (sessionStorage; never saved beyond it)"
        </label>
        <SignInClient/>
        <label class="field">
            <span class="field-label">"Protocol version"</span>
            <select id="protocol-version" prop:value=move || version.get().key()
                on:change=move |ev| version.set(VersionChoice::from_key(&event_target_value(&ev)).unwrap_or_default())>
                {VersionChoice::all().into_iter().map(|choice| view! { <option value=choice.key()>{choice.label()}</option> }).collect_view()}
            </select>
        </label>
        <label class="field">
            <span class="field-label">"Roots offered to the server (roots/list)"</span>
            <textarea id="roots" rows="2" placeholder="One per line: file:///path/to/project Optional name"
                prop:value=move || roots.get() on:input=move |ev| roots.set(event_target_value(&ev))></textarea>
        </label>
        {number_field("request-timeout", "Request timeout, seconds (reset by progress)", timeout)}
        {number_field("max-total", "Maximum total time of a request, seconds (progress does not extend it; never below the timeout)", max_total)}
        {number_field("max-message", "Largest message accepted, MB (a larger answer or event fails its request)", max_message_mb)}
        {number_field("server-request-timeout", "Time to answer the server's own requests (sampling, elicitation), seconds", server_request_timeout)}
        <button id="remove-server" type="button" class="secondary"
            on:click=move |_| { let key = servers.selected.get_untracked(); servers.remove(key, disconnect); }>
            "Remove this server"
        </button>
    }
}

/// A labelled number input (seconds, megabytes) bound to a settings signal.
fn number_field(id: &'static str, label: &'static str, value: RwSignal<String>) -> impl IntoView {
    view! {
        <label class="field">
            <span class="field-label">{label}</span>
            <input id=id inputmode="decimal" prop:value=move || value.get()
                on:input=move |ev| value.set(event_target_value(&ev))/>
        </label>
    }
}
