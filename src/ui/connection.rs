//! The connection bar: URL, token, custom headers, Connect/Disconnect and the status.

use super::lazy::connect::{connect_settings, disconnect};
use super::lazy::load::{now, AfterPaint};
use super::lazy::views::{SettingsFields, UrlTarget};
use super::servers::{use_servers, Settings};
use super::store::{use_connection, Connection, Status};
use crate::client::config::check_server_url;
use crate::protocol::transport_choice::TransportChoice;
use crate::protocol::wire_log::url_has_credentials;
use leptos::prelude::*;

#[component]
pub fn ConnectionBar() -> impl IntoView {
    let connection = use_connection();
    let servers = use_servers();
    let settings = expect_context::<Settings>();
    let Settings {
        url,
        token,
        transport,
        ..
    } = settings;
    let input_error = RwSignal::new(None::<String>);
    // Stays true once opened: the fields, drawn, keep what is typed while it is closed again.
    // (Another server's bar patches this one's elements in place: an open panel stays open,
    // and its fields are drawn for the new server at once.)
    let settings_open = RwSignal::new(false);
    let settings_panel = NodeRef::<leptos::html::Details>::new();
    Effect::new(move |_| {
        if settings_panel.get().is_some_and(|panel| panel.open()) {
            settings_open.set(true);
        }
    });

    // The settings are read (and checked) in the session chunk, fetched first if needed.
    let connect = move || connect_settings(connection, settings, input_error);
    let status = connection.status();
    let busy = move || status.get() == Status::Connecting;
    let error = move || input_error.get().or_else(|| connection.error().get());

    view! {
        <form class="connection" novalidate on:submit=move |ev| { ev.prevent_default(); connect(); }>
            <input id="server-url" type="url" placeholder="http://127.0.0.1:3001/mcp" aria-label="Server URL"
                prop:value=move || url.get() on:input=move |ev| servers.set_url(settings, event_target_value(&ev))/>
            <input id="bearer-token" type="password" placeholder="Bearer token (optional)" autocomplete="off"
                aria-label="Bearer token" prop:value=move || token.get() on:input=move |ev| token.set(event_target_value(&ev))/>
            <select id="transport" aria-label="Transport" title="Transport"
                prop:value=move || transport.get().key()
                on:change=move |ev| transport.set(TransportChoice::from_key(&event_target_value(&ev)).unwrap_or_default())>
                {TransportChoice::ALL.map(|choice| view! { <option value=choice.key()>{choice.label()}</option> })}
            </select>
            <button id="connect" type="submit" disabled=busy>"Connect"</button>
            <button id="disconnect" type="button" class="secondary"
                disabled=move || !matches!(status.get(), Status::Connected | Status::Connecting)
                on:click=move |_| disconnect(connection)>"Disconnect"</button>
            <span id="status" role="status" class=move || format!("status status-{:?}", status.get()).to_lowercase()>
                {move || status.get().label()}
            </span>
        </form>
        // The rest of the bar comes a task after the first paint: Connect is usable sooner.
        <AfterPaint load=|| now(|| view! { <ConnectionFields/> }.into_any())/>
        <details id="settings" class="settings" node_ref=settings_panel
            on:toggle=move |ev| { if event_target::<web_sys::HtmlDetailsElement>(&ev).open() { settings_open.set(true) } }>
            <summary>"Settings"</summary>
            // The fields come from a chunk of their own once the panel is first opened: neither
            // the first paint nor a connect waits for them.
            {move || settings_open.get().then(|| view! { <SettingsFields/> })}
        </details>
        {move || connection.connect_ask().get().map(|origin| view! {
            <p id="connect-ask" class="warning" role="alert">
                {format!("This link asks to connect to {origin}, an address on your own machine or network. Connect?")}
                " "
                <button id="connect-ask-yes" type="button" on:click=move |_| {
                    connection.ask_to_connect(None);
                    connect();
                }>"Connect"</button>
                " "
                <button id="connect-ask-no" type="button" class="secondary"
                    on:click=move |_| connection.ask_to_connect(None)>"Not now"</button>
            </p>
        })}
        <Show when=move || error().is_some()>
            <p id="connect-error" class="error" role="alert">{error}</p>
        </Show>
    }
}

/// The connection bar's lesser fields (notes, custom headers), drawn a task after the first
/// paint ([`super::lazy::AfterPaint`]). (Not the settings' `<details>`: inside a lazy view it
/// would be made anew, closed, whenever another server is selected.)
#[component]
fn ConnectionFields() -> impl IntoView {
    let settings = expect_context::<Settings>();
    let Settings { url, headers, .. } = settings;
    let show_headers = RwSignal::new(false);
    view! {
        {move || settings.secrets_note.get().map(|note| view! { <p id="secrets-note" class="warning">{note}</p> })}
        // Where requests will really go, when the address does not say so plainly (or why it
        // cannot be used), read as the browser reads it: with the URL parser, in the session chunk.
        <UrlTarget/>
        {move || url_has_credentials(&url.get()).then(|| view! {
            <p id="url-credential-warning" class="warning">
                "This address seems to carry a credential (a user name or a key in the query). It is redacted in the saved \
                 settings, the wire log, exports and curl, and kept whole only in this tab if you tick \"Remember\"; \
                 a token or custom header is safer."
            </p>
        })}
        // Header values are often keys: masked like the token unless the person asks.
        <textarea id="custom-headers" class="headers" class:masked=move || !show_headers.get()
            placeholder="X-Api-Key: abc123 (one per line)" rows="1" aria-label="Custom headers, one per line"
            autocomplete="off" spellcheck="false"
            prop:value=move || headers.get() on:input=move |ev| headers.set(event_target_value(&ev))></textarea>
        <label class="checkbox show-headers">
            <input id="show-headers" type="checkbox" prop:checked=move || show_headers.get()
                on:change=move |ev| show_headers.set(event_target_checked(&ev))/>
            " Show header values"
        </label>
    }
}

/// A full-app link with `&connect` (session chunk, once it is here): connects at once, unless
/// the address is on the person's machine or network: a link from anywhere must not silently
/// reach a local server, so the bar asks first (`Connection::connect_ask`).
pub(super) fn connect_if_linked(settings: Settings, connection: Connection) {
    if !connection.take_auto_connect() {
        return;
    }
    match check_server_url(&settings.url.get_untracked()) {
        Ok(address) if address.is_private_network() => {
            connection.ask_to_connect(Some(address.origin()));
        }
        Ok(_) => connect_settings(connection, settings, RwSignal::new(None)),
        // An address that cannot be used is said by a Connect click.
        Err(_) => {}
    }
}
