//! The mcp.json import and export dialogs. Their code is in the `import` chunk: the main
//! module reaches it only through `lazy::ImportExport`.
//!
//! Import adds remote servers to the sidebar (never replacing one); their header values and
//! token go only into the entry's memory (the persisted settings keep header names). Export
//! writes the sidebar in the chosen format without any secret. File and server text is shown
//! as text nodes only.

use super::servers::{use_servers, Dialog, Servers};
use crate::client::mcp_config::{self, ExportServer, Format, Imported, StdioServer};
use crate::client::saved::{self, SavedServer};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

#[component]
pub fn ImportExportDialog(dialog: Dialog) -> impl IntoView {
    let servers = use_servers();
    let (label, body) = match dialog {
        Dialog::Import => (
            "Import servers",
            view! { <ImportPanel servers/> }.into_any(),
        ),
        Dialog::Export => (
            "Export servers",
            view! { <ExportPanel servers/> }.into_any(),
        ),
    };
    let opener = match dialog {
        Dialog::Import => "import-servers",
        Dialog::Export => "export-servers",
    };
    // Closing gives the focus back to the button that opened the dialog (keyboard users keep
    // their place); opening moves it into the dialog.
    let close = move || {
        servers.dialog.set(None);
        if let Some(button) = document().get_element_by_id(opener) {
            let _ = button.unchecked_into::<web_sys::HtmlElement>().focus();
        }
    };
    let section = NodeRef::<leptos::html::Section>::new();
    Effect::new(move |_| {
        if let Some(section) = section.get() {
            let _ = section.focus();
        }
    });
    view! {
        <section id="import-export" class="dialog panel" role="dialog" aria-label=label tabindex="-1"
            node_ref=section
            on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                if ev.key() == "Escape" {
                    ev.prevent_default();
                    close();
                }
            }>
            <div class="dialog-head">
                <h3>{label}</h3>
                <button id="close-dialog" class="link" aria-label="Close" on:click=move |_| close()>"Close"</button>
            </div>
            {body}
        </section>
    }
}

#[derive(Clone)]
enum Outcome {
    Failed(String),
    Done {
        added: Vec<String>,
        notes: Vec<String>,
        skipped: Vec<String>,
        stdio: Vec<StdioServer>,
        /// Entries past the import's limit, left out (the sentence saying how many).
        left_out: Option<String>,
    },
}

#[component]
fn ImportPanel(servers: Servers) -> impl IntoView {
    let text = RwSignal::new(String::new());
    let outcome = RwSignal::new(None::<Outcome>);
    let run = move || {
        if let Some(typed) = text.try_get_untracked() {
            outcome.try_set(Some(import_text(servers, &typed)));
        }
    };
    let read = move |file: web_sys::File| {
        leptos::task::spawn_local(async move {
            match wasm_bindgen_futures::JsFuture::from(file.text()).await {
                // The dialog may have been closed meanwhile: then nothing happens.
                Ok(value) => {
                    if text
                        .try_set(value.as_string().unwrap_or_default())
                        .is_none()
                    {
                        run();
                    }
                }
                Err(_) => {
                    outcome.try_set(Some(Outcome::Failed(format!(
                        "The file {} could not be read; nothing was imported.",
                        file.name()
                    ))));
                }
            }
        })
    };
    // A file dropped on the dialog.
    let dropped = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        let file = ev
            .data_transfer()
            .and_then(|t| t.files())
            .and_then(|files| files.get(0));
        if let Some(file) = file {
            read(file);
        }
    };
    let picked = move |ev: leptos::ev::Event| {
        if let Some(file) = chosen_file(&ev) {
            read(file);
        }
    };
    view! {
        <div class="drop-zone" on:dragover=move |ev: web_sys::DragEvent| ev.prevent_default() on:drop=dropped>
        <p class="muted">"Paste an mcp.json (Claude Desktop, Cursor, VS Code or MCP Inspector), choose a file, or drop one here. Servers are added; none is replaced."</p>
        <textarea id="import-text" class="import-text" rows="8" spellcheck="false" aria-label="mcp.json to import"
            placeholder="{ \"mcpServers\": { ... } }"
            prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev))></textarea>
        <div class="actions">
            <button id="import-run" on:click=move |_| run()>"Import"</button>
            <label class="secondary file-pick">"Choose a file… "
                <input id="import-file" type="file" accept=".json,.jsonc,application/json" on:change=picked/>
            </label>
        </div>
        </div>
        {move || outcome.get().map(|outcome| view! { <OutcomeView servers outcome/> })}
    }
}

fn import_text(servers: Servers, text: &str) -> Outcome {
    match mcp_config::parse(text) {
        Err(error) => Outcome::Failed(format!("Nothing was imported. {error}")),
        Ok(imported) => {
            let (added, notes) = add_remote(servers, &imported);
            Outcome::Done {
                added,
                notes,
                skipped: imported.skipped.iter().map(ToString::to_string).collect(),
                left_out: imported.left_out(),
                stdio: imported.stdio,
            }
        }
    }
}

/// Adds each remote server as a new entry (selecting the first); its secrets in memory only.
fn add_remote(servers: Servers, imported: &Imported) -> (Vec<String>, Vec<String>) {
    let mut added = Vec::new();
    let mut notes = Vec::new();
    for remote in &imported.remote {
        let name = add_entry(
            servers,
            &remote.name,
            &remote.url,
            &remote.transport,
            &remote.headers,
            &remote.token,
            added.is_empty(),
        );
        if !remote.placeholders.is_empty() {
            notes.push(format!(
                "{name}: fill in {} (the file names a placeholder, not a value).",
                remote.placeholders.join(", ")
            ));
        }
        added.push(name);
    }
    (added, notes)
}

fn add_entry(
    servers: Servers,
    name: &str,
    url: &str,
    transport: &str,
    headers: &[(String, String)],
    token: &str,
    select: bool,
) -> String {
    let taken: Vec<String> = servers.list.with_untracked(|list| {
        list.iter()
            .map(|e| e.settings.name.get_untracked())
            .collect()
    });
    let name = saved::unique_name(name, &taken);
    let mut entry = SavedServer::new(String::new(), name.clone(), saved::saved_url(url));
    entry.transport =
        crate::protocol::transport_choice::TransportChoice::from_key(transport).unwrap_or_default();
    entry.header_names = headers
        .iter()
        .map(|(n, _)| n.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    // Under the app's owner: made under the dialog's, the entry would go when the dialog does.
    let entry = servers
        .owner
        .with_value(|owner| owner.with(|| servers.push(entry)));
    let settings = entry.settings;
    // The full URL, token and header values: memory only (the saved form has none of them).
    settings.url.set(url.to_owned());
    settings.token.set(token.to_owned());
    settings.headers.set(
        headers
            .iter()
            .map(|(n, v)| format!("{n}: {v}"))
            .collect::<Vec<_>>()
            .join("\n"),
    );
    if select {
        servers.selected.set(entry.key);
    }
    name
}

#[component]
fn OutcomeView(servers: Servers, outcome: Outcome) -> impl IntoView {
    match outcome {
        Outcome::Failed(message) => {
            view! { <p id="import-error" class="error" role="alert">{message}</p> }.into_any()
        }
        Outcome::Done {
            added,
            notes,
            skipped,
            stdio,
            left_out,
        } => {
            let summary = match added.len() {
                0 => "No remote server was added.".to_owned(),
                1 => format!("Added 1 server: {}.", added[0]),
                n => format!("Added {n} servers: {}.", added.join(", ")),
            };
            let stdio_rows = stdio
                .into_iter()
                .map(|server| view! { <StdioRow servers server/> })
                .collect_view();
            view! {
                <div id="import-result" role="status">
                    {left_out.map(|text| view! { <p id="import-left-out" class="error">{text}</p> })}
                    <p class="import-summary">{summary}</p>
                    <ul class="import-notes">{notes.into_iter().map(|n| view! { <li class="import-note">{n}</li> }).collect_view()}</ul>
                    <ul class="import-skipped-list">{skipped.into_iter().map(|s| view! { <li class="import-skipped error">"Skipped. "{s}</li> }).collect_view()}</ul>
                    <ul class="import-stdio-list">{stdio_rows}</ul>
                </div>
            }
            .into_any()
        }
    }
}

#[component]
fn StdioRow(servers: Servers, server: StdioServer) -> impl IntoView {
    let env = (!server.env_names.is_empty()).then(|| {
        format!(
            "Set {} in that shell first: values from the file are not copied here.",
            server.env_names.join(", ")
        )
    });
    let url = server.bridge_url.clone();
    let name = server.name.clone();
    let add = move |_| {
        add_entry(servers, &name, &url, "streamable-http", &[], "", true);
    };
    view! {
        <li class="import-stdio" data-server=server.name.clone()>
            <strong>{server.name.clone()}</strong>
            " runs a local command ("<code>{server.command_line}</code>
            "), which a browser page cannot start. Serve it over Streamable HTTP with CORS:"
            <pre class="bridge-command">{server.bridge}</pre>
            {env.map(|e| view! { <p class="muted">{e}</p> })}
            <button class="secondary add-bridge" on:click=add>{format!("Add {}", server.bridge_url)}</button>
        </li>
    }
}

#[component]
fn ExportPanel(servers: Servers) -> impl IntoView {
    let format = RwSignal::new(Format::McpServers);
    let text = Memo::new(move |_| {
        let list: Vec<ExportServer> = servers.list.with(|list| {
            list.iter()
                .map(|e| ExportServer {
                    name: e.settings.name.get(),
                    url: saved::saved_url(&e.settings.url.get()),
                    transport: e.settings.transport.get().key().to_owned(),
                    header_names: saved::header_names(&e.settings.headers.get())
                        .lines()
                        .map(str::to_owned)
                        .collect(),
                })
                .collect()
        });
        mcp_config::export(format.get(), &list)
    });
    let note = RwSignal::new("");
    let copy = move |_| super::content::copy_and_say(text.get_untracked(), note);
    let download = move |_| {
        let href = format!(
            "data:application/json;charset=utf-8,{}",
            String::from(js_sys::encode_uri_component(&text.get_untracked()))
        );
        let anchor = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.create_element("a").ok())
            .and_then(|a| a.dyn_into::<web_sys::HtmlAnchorElement>().ok());
        if let Some(anchor) = anchor {
            anchor.set_href(&href);
            anchor.set_download(format.get_untracked().file_name());
            anchor.click();
        }
    };
    let choose = move |ev| {
        if let Some(chosen) = Format::from_key(&event_target_value(&ev)) {
            format.set(chosen);
        }
    };
    view! {
        <label class="field">"Format"
            <select id="export-format" on:change=choose>
                {Format::ALL.map(|f| view! { <option value=f.key()>{f.label()}</option> })}
            </select>
        </label>
        <textarea id="export-text" class="import-text" rows="10" readonly spellcheck="false" aria-label="Exported servers"
            prop:value=move || text.get()></textarea>
        <p class="muted">"Without secrets: tokens are left out and header values are written empty. Servers without an address are left out."</p>
        <div class="actions">
            <button id="export-copy" on:click=copy>"Copy"</button>
            <button id="export-download" class="secondary" on:click=download>"Download"</button>
            <span class="muted">{move || note.get()}</span>
        </div>
    }
}

/// The file a file input's change event chose (the first, if several).
pub(crate) fn chosen_file(ev: &leptos::ev::Event) -> Option<web_sys::File> {
    ev.target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        .and_then(|input| input.files())
        .and_then(|files| files.get(0))
}
