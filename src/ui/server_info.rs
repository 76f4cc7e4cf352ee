//! Who the server is: name, version, negotiated protocol version, capabilities, instructions.

use super::store::use_connection;
use crate::protocol::era::MODERN;
use crate::protocol::error::reveal_controls;
use crate::protocol::mcp::LOG_LEVELS;
use crate::protocol::transport_choice::TransportUsed;
use leptos::prelude::*;
use leptos::task::spawn_local;
use rmcp::model::InitializeResult;
use serde_json::Value;

/// "tools (listChanged)", "resources (subscribe, listChanged)", ... from the capabilities object.
fn capability_labels(capabilities: &Value) -> Vec<String> {
    let Some(object) = capabilities.as_object() else {
        return Vec::new();
    };
    object
        .iter()
        .map(|(name, detail)| {
            let flags: Vec<&str> = detail
                .as_object()
                .map(|d| {
                    d.iter()
                        .filter(|(_, v)| v.as_bool() == Some(true))
                        .map(|(k, _)| k.as_str())
                        .collect()
                })
                .unwrap_or_default();
            if flags.is_empty() {
                name.clone()
            } else {
                format!("{name} ({})", flags.join(", "))
            }
        })
        .collect()
}

/// Ping, and the log level when the server offers logging.
#[component]
fn ServerActions(logging: bool) -> impl IntoView {
    let connection = use_connection();
    let ping_result = RwSignal::new(None::<String>);
    let level_result = RwSignal::new(None::<String>);
    let ping = move |_| {
        let Some(client) = connection.client() else {
            return;
        };
        ping_result.set(Some("Pinging…".to_owned()));
        spawn_local(async move {
            let text = match client.ping().await {
                Ok(ms) => format!("Pong in {ms:.0} ms."),
                Err(error) => error.to_string(),
            };
            ping_result.set(Some(text));
        });
    };
    let set_level = move |ev| {
        let level = event_target_value(&ev);
        let Some(client) = connection.client() else {
            return;
        };
        spawn_local(async move {
            let text = match client.set_log_level(&level).await {
                Ok(()) => format!("Log level set to {level}."),
                Err(error) => error.to_string(),
            };
            level_result.set(Some(text));
        });
    };
    view! {
        <div class="server-actions">
            <button id="ping" class="secondary" on:click=ping>"Ping"</button>
            <span id="ping-result" class="muted">{move || ping_result.get()}</span>
            {logging.then(|| view! {
                <label>"Log level "
                    <select id="log-level" on:change=set_level>
                        <option value="" disabled selected>"(server default)"</option>
                        {LOG_LEVELS.map(|level| view! { <option value=level>{level}</option> })}
                    </select>
                </label>
                <span id="log-level-result" class="muted">{move || level_result.get()}</span>
            })}
        </div>
    }
}

/// What [`ServerInfo`] shows of the server state: a list fetched or continued makes a new
/// state with the same server, which does not redraw the section.
#[derive(Clone, PartialEq)]
struct Head {
    info: InitializeResult,
    transport: TransportUsed,
    era_reason: String,
    era_warning: bool,
}

#[component]
pub fn ServerInfo() -> impl IntoView {
    let connection = use_connection();
    let head = Memo::new(move |_| {
        connection.server().with(|state| {
            state.as_ref().map(|state| Head {
                info: state.info.clone(),
                transport: state.transport.clone(),
                era_reason: state.era_reason.clone(),
                era_warning: state.era_warning,
            })
        })
    });
    move || {
        head.get().map(|state| {
            let info = &state.info;
            let capabilities = serde_json::to_value(&info.capabilities).unwrap_or(Value::Null);
            let title = info.server_info.title.clone();
            let instructions = info.instructions.clone();
            let stateless = info.protocol_version.to_string() == MODERN;
            // The stateless era removed ping and logging/setLevel.
            let logging = info.capabilities.logging.is_some() && !stateless;
            view! {
                <section id="server-info" class="server-info">
                    <div class="identity">
                        <strong class="server-name">{reveal_controls(&info.server_info.name)}</strong>
                        {title.map(|t| view! { <span class="server-title">{t}</span> })}
                        <span class="server-version">"v" {info.server_info.version.clone()}</span>
                        <span class="protocol-version">
                            "protocol " {info.protocol_version.to_string()} {stateless.then_some(" (stateless)")}
                        </span>
                        <span class="transport" title=state.transport.reason.clone()>
                            {state.transport.label()}
                        </span>
                    </div>
                    // The normal path is quiet: why this transport and era, one click away;
                    // open when the era line is something to fix.
                    <details class="connect-reasons" open=state.era_warning>
                        <summary class="muted">"Why this transport and protocol"</summary>
                        <p class="transport-reason muted">{format!("Transport: {} ({}).", state.transport.label(), state.transport.reason)}</p>
                        <p class="era-reason" class:muted=!state.era_warning class:warning=state.era_warning>
                            {format!("Protocol {}: {}.", info.protocol_version, state.era_reason)}
                        </p>
                        {move || connection.stream_note().get().map(|note| view! { <p class="stream-note muted">{format!("Server messages: {note}.")}</p> })}
                    </details>
                    {(!stateless).then(|| view! { <ServerActions logging/> })}
                    <ul class="capabilities">
                        {capability_labels(&capabilities).into_iter().map(|c| view! { <li>{c}</li> }).collect_view()}
                        // A stateless server without `subscriptions/listen`: said here, quietly
                        // (why, under "Why this transport and protocol").
                        {move || (stateless && connection.stream_note().with(Option::is_some))
                            .then(|| view! { <li class="no-stream muted">"no subscription stream"</li> })}
                    </ul>
                    {instructions.map(|text| view! {
                        <details class="instructions"><summary>"Instructions"</summary><pre>{text}</pre></details>
                    })}
                </section>
            }
        })
    }
}
