//! The connection bar: URL, token, custom headers, Connect/Disconnect and the status.

use super::servers::{use_servers, Settings};
use super::{use_connection, Identity, Status};
use crate::client::config::{
    check_server_url, parse_header_lines, parse_megabytes, parse_root_lines, parse_seconds,
    ClientConfig,
};
use crate::protocol::era::VersionChoice;
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
    let connect = move || super::lazy::connect_settings(connection, settings, input_error);
    let status = connection.status;
    let busy = move || status.get() == Status::Connecting;
    let error = move || input_error.get().or_else(|| connection.error.get());

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
                on:click=move |_| connection.disconnect()>"Disconnect"</button>
            <span id="status" role="status" class=move || format!("status status-{:?}", status.get()).to_lowercase()>
                {move || status.get().label()}
            </span>
        </form>
        // The rest of the bar comes a task after the first paint: Connect is usable sooner.
        <super::lazy::AfterPaint load=|| super::lazy::now(|| view! { <ConnectionFields/> }.into_any())/>
        <details id="settings" class="settings" node_ref=settings_panel
            on:toggle=move |ev| { if event_target::<web_sys::HtmlDetailsElement>(&ev).open() { settings_open.set(true) } }>
            <summary>"Settings"</summary>
            // The fields come from a chunk of their own once the panel is first opened: neither
            // the first paint nor a connect waits for them.
            {move || settings_open.get().then(|| view! { <super::lazy::SettingsFields/> })}
        </details>
        {move || connection.connect_ask.get().map(|origin| view! {
            <p id="connect-ask" class="warning" role="alert">
                {format!("This link asks to connect to {origin}, an address on your own machine or network. Connect?")}
                " "
                <button id="connect-ask-yes" type="button" on:click=move |_| {
                    connection.connect_ask.set(None);
                    connect();
                }>"Connect"</button>
                " "
                <button id="connect-ask-no" type="button" class="secondary"
                    on:click=move |_| connection.connect_ask.set(None)>"Not now"</button>
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
        <super::lazy::UrlTarget/>
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
pub(super) fn connect_if_linked(settings: Settings, connection: super::Connection) {
    if !connection.auto_connect.get_value() {
        return;
    }
    connection.auto_connect.set_value(false);
    match check_server_url(&settings.url.get_untracked()) {
        Ok(address) if address.is_private_network() => {
            connection.connect_ask.set(Some(address.origin()));
        }
        Ok(_) => super::lazy::connect_settings(connection, settings, RwSignal::new(None)),
        // An address that cannot be used is said by a Connect click.
        Err(_) => {}
    }
}

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

/// The configuration a connect of these settings goes out with, and the sign-in client chosen;
/// or why the settings cannot be used (a sentence). Also what a sign-in that comes back to a
/// new page in this tab connects with (`auth::resume_in_this_tab`).
pub(super) fn config_of(settings: Settings) -> Result<(ClientConfig, Identity), String> {
    let Settings {
        name,
        url,
        token,
        headers,
        transport,
        version,
        roots,
        timeout,
        max_total,
        server_request_timeout,
        max_message_mb,
        remember_secrets,
        client_id,
        client_secret,
        client_credentials,
        private_key,
        xaa_token_endpoint,
        xaa_client_id,
        xaa_id_token,
        workload_jwt,
        ..
    } = settings;
    // What requests use is the address as the browser reads it (`check_server_url`).
    let target = check_server_url(&url.get_untracked())?.into_href();
    let custom = parse_header_lines(&headers.get_untracked())?;
    let mut config = ClientConfig::new(target);
    config.name = name.get_untracked();
    config.bearer_token = Some(token.get_untracked()).filter(|t| !t.trim().is_empty());
    config.headers = custom;
    config.transport = transport.get_untracked();
    config.version = version.get_untracked();
    config.known_handshake = settings.known_handshake.get_untracked();
    config.roots = parse_root_lines(&roots.get_untracked());
    // Tools' `ui://` apps are rendered (src/ui/apps.rs): the extension is declared.
    config.mcp_apps = true;
    // A tool call answered with a task (SEP-2663) is shown and followed in the Tasks tab.
    config.tasks_extension = true;
    let limits = [
        (timeout, "request timeout"),
        (max_total, "maximum total time"),
        (
            server_request_timeout,
            "time limit for the server's requests",
        ),
    ]
    .map(|(text, what)| {
        parse_seconds(&text.get_untracked())
            .ok_or(format!("The {what} must be a positive number of seconds."))
    });
    let [idle, total, person] = limits;
    config.request_timeout_ms = idle?;
    config.max_total_ms = total?;
    config.server_request_timeout_ms = person?;
    config.max_message_bytes =
        parse_megabytes(&max_message_mb.get_untracked()).ok_or_else(|| {
            "The largest message must be a number of megabytes from 0 to 1024.".to_owned()
        })?;
    let cross_app = [xaa_token_endpoint, xaa_client_id, xaa_id_token].map(|s| s.get_untracked());
    let identity = Identity {
        client_id: client_id.get_untracked(),
        client_issuer: settings.client_issuer.get_untracked(),
        client_secret: client_secret.get_untracked(),
        private_key: private_key.get_untracked(),
        machine: client_credentials.get_untracked(),
        cross_app,
        workload_jwt: workload_jwt.get_untracked(),
        remember: remember_secrets.get_untracked(),
    };
    Ok((config, identity))
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
        <super::lazy::SignInClient/>
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
            on:click=move |_| { let key = servers.selected.get_untracked(); servers.remove(key); }>
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
