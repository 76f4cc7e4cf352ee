//! Who the server is: name, version, negotiated protocol version, capabilities, instructions.

use super::use_connection;
use leptos::prelude::*;
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

#[component]
pub fn ServerInfo() -> impl IntoView {
    let connection = use_connection();
    move || {
        connection.server.get().map(|state| {
            let info = &state.info;
            let capabilities = serde_json::to_value(&info.capabilities).unwrap_or(Value::Null);
            let title = info.server_info.title.clone();
            let instructions = info.instructions.clone();
            view! {
                <section id="server-info" class="server-info">
                    <div class="identity">
                        <strong class="server-name">{info.server_info.name.clone()}</strong>
                        {title.map(|t| view! { <span class="server-title">{t}</span> })}
                        <span class="server-version">"v" {info.server_info.version.clone()}</span>
                        <span class="protocol-version">"protocol " {info.protocol_version.to_string()}</span>
                        <span class="transport" title=state.transport.reason.clone()>
                            {state.transport.label()}
                        </span>
                    </div>
                    <p class="transport-reason muted">{format!("Transport: {} ({}).", state.transport.label(), state.transport.reason)}</p>
                    <ul class="capabilities">
                        {capability_labels(&capabilities).into_iter().map(|c| view! { <li>{c}</li> }).collect_view()}
                    </ul>
                    {instructions.map(|text| view! {
                        <details class="instructions"><summary>"Instructions"</summary><pre>{text}</pre></details>
                    })}
                </section>
            }
        })
    }
}
