//! Leptos components. No protocol logic here: components call `client::McpClient` and render
//! what it returns. Server-supplied text is only ever rendered as text (never `inner_html`).

mod browse;
mod connection;
mod content;
mod events;
mod form;
mod server_info;

use crate::client::{ClientConfig, ClientEvent, McpClient, ServerState};
use browse::{Browser, Kind};
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::sync::Arc;

/// How many server messages the events panel keeps.
const EVENT_LIMIT: usize = 200;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Disconnected,
    Connecting,
    Connected,
    Failed,
}

impl Status {
    fn label(self) -> &'static str {
        match self {
            Status::Disconnected => "Disconnected",
            Status::Connecting => "Connecting…",
            Status::Connected => "Connected",
            Status::Failed => "Error",
        }
    }
}

/// The connection, shared with every panel through context.
#[derive(Clone, Copy)]
pub struct Connection {
    pub client: StoredValue<Option<McpClient>, LocalStorage>,
    pub status: RwSignal<Status>,
    pub error: RwSignal<Option<String>>,
    pub server: RwSignal<Option<Arc<ServerState>>>,
    pub events: RwSignal<Vec<ClientEvent>>,
    /// Bumped by every connect and disconnect, so a slow connect that was superseded
    /// does not overwrite the newer state.
    generation: StoredValue<u64>,
}

impl Connection {
    fn new() -> Self {
        Self {
            client: StoredValue::new_local(None),
            status: RwSignal::new(Status::Disconnected),
            error: RwSignal::new(None),
            server: RwSignal::new(None),
            events: RwSignal::new(Vec::new()),
            generation: StoredValue::new(0),
        }
    }

    fn next_generation(&self) -> u64 {
        self.generation.update_value(|g| *g += 1);
        self.generation.get_value()
    }

    /// Ends the current session (DELETE) before anything else happens.
    async fn end_session(&self) {
        let old = self.client.try_update_value(Option::take).flatten();
        if let Some(old) = old {
            if let Err(error) = old.disconnect().await {
                self.error.set(Some(error.to_string()));
            }
        }
    }

    pub fn connect(self, config: ClientConfig) {
        let generation = self.next_generation();
        spawn_local(async move {
            self.end_session().await;
            if self.generation.get_value() != generation {
                return; // superseded while the old session was ending
            }
            self.status.set(Status::Connecting);
            self.error.set(None);
            self.server.set(None);
            self.events.set(Vec::new());
            let events = self.events;
            let (status, error) = (self.status, self.error);
            let outcome = McpClient::connect(config, move |event| {
                if let ClientEvent::ConnectionLost { reason } = &event {
                    status.set(Status::Failed);
                    error.set(Some(reason.clone()));
                }
                events.update(|list| {
                    if list.len() >= EVENT_LIMIT {
                        list.remove(0);
                    }
                    list.push(event);
                })
            })
            .await;
            if self.generation.get_value() != generation {
                if let Ok((client, _)) = outcome {
                    let _ = client.disconnect().await;
                }
                return;
            }
            match outcome {
                Ok((client, state)) => {
                    self.client.set_value(Some(client));
                    self.server.set(Some(Arc::new(state)));
                    self.status.set(Status::Connected);
                }
                Err(error) => {
                    self.error.set(Some(error.to_string()));
                    self.status.set(Status::Failed);
                }
            }
        });
    }

    pub fn disconnect(self) {
        self.next_generation();
        spawn_local(async move {
            self.error.set(None);
            self.end_session().await;
            self.server.set(None);
            self.status.set(Status::Disconnected);
        });
    }

    /// The live client, if connected.
    pub fn client(&self) -> Option<McpClient> {
        self.client.get_value()
    }
}

#[component]
pub fn App() -> impl IntoView {
    let connection = Connection::new();
    provide_context(connection);
    let tab = RwSignal::new(Kind::Tools);
    let tab_button = move |which: Kind, id: &'static str, label: &'static str| {
        view! {
            <button id=id class="tab" class:active=move || tab.get() == which on:click=move |_| tab.set(which)>
                {label}
            </button>
        }
    };
    view! {
        <header class="topbar">
            <h1>"mcp-lens"</h1>
            <connection::ConnectionBar/>
        </header>
        <main>
            <Show when=move || connection.server.with(Option::is_some)>
                <server_info::ServerInfo/>
                <nav class="tabs">
                    {tab_button(Kind::Tools, "tab-tools", "Tools")}
                    {tab_button(Kind::Prompts, "tab-prompts", "Prompts")}
                    {tab_button(Kind::Resources, "tab-resources", "Resources")}
                </nav>
                {move || view! { <Browser kind=tab.get()/> }}
            </Show>
            <events::EventsPanel/>
        </main>
    }
}

/// The connection from context; every panel lives under [`App`].
pub fn use_connection() -> Connection {
    expect_context::<Connection>()
}
