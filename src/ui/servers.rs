//! Many servers: each server's settings and connection, the one shown, and remembering them
//! (`sidebar.rs` draws them).
//!
//! Settings persist in localStorage without secrets. A token and custom headers stay in
//! memory, or, if the person ticks "Remember token and headers in this tab", in the tab's
//! sessionStorage (gone when the tab closes).

use super::storage::{local_storage, session_storage, TOKENS_KEY};
use super::store::Connection;
use crate::client::saved::{self, SavedServer, TabSecrets};
use crate::protocol::era::VersionChoice;
use crate::protocol::transport_choice::TransportChoice;
use crate::protocol::url::origin_key;
use crate::protocol::wire_log::{url_has_credentials, WireLog};
use leptos::prelude::*;

const STORAGE_KEY: &str = "mcp-lens.servers";
const SECRETS_KEY: &str = "mcp-lens.secrets.";

/// What the connection bar edits, per server.
#[derive(Clone, Copy)]
pub struct Settings {
    /// Stable for the entry's life: remembered secrets are keyed by it.
    pub id: StoredValue<String>,
    /// Why the token and headers were just cleared (the server moved to another origin).
    pub secrets_note: RwSignal<Option<String>>,
    pub name: RwSignal<String>,
    pub url: RwSignal<String>,
    pub token: RwSignal<String>,
    pub headers: RwSignal<String>,
    pub transport: RwSignal<TransportChoice>,
    pub version: RwSignal<VersionChoice>,
    /// Learned, not set: the server refused `server/discover` before.
    pub known_handshake: RwSignal<bool>,
    pub roots: RwSignal<String>,
    pub timeout: RwSignal<String>,
    pub max_total: RwSignal<String>,
    pub server_request_timeout: RwSignal<String>,
    pub max_message_mb: RwSignal<String>,
    pub remember_secrets: RwSignal<bool>,
    /// Sign-in: a pre-registered client id (empty: automatic) and its optional secret
    /// (a secret: kept like the token).
    pub client_id: RwSignal<String>,
    /// The authorization server (issuer) the secret or key is for (empty: asked at first use).
    pub client_issuer: RwSignal<String>,
    pub client_secret: RwSignal<String>,
    /// Sign in with the client credentials grant instead of a person's sign-in window.
    pub client_credentials: RwSignal<bool>,
    /// `private_key_jwt`: the client's PKCS #8 key (memory only, never stored).
    pub private_key: RwSignal<String>,
    /// Cross-app access: the identity provider's token endpoint, this app's client id
    /// there, and the person's ID token (memory only, never stored).
    pub xaa_token_endpoint: RwSignal<String>,
    pub xaa_client_id: RwSignal<String>,
    pub xaa_id_token: RwSignal<String>,
    /// Workload identity: a workload JWT for the JWT bearer grant (memory only, never stored).
    pub workload_jwt: RwSignal<String>,
}

impl Settings {
    fn from_saved(saved: SavedServer, secrets: Option<TabSecrets>) -> Self {
        let remembered = secrets.is_some();
        let mut secrets = secrets.unwrap_or_default();
        if secrets.headers.trim().is_empty() {
            secrets.headers = saved::header_lines(&saved.header_names);
        }
        // The saved URL has its credentials redacted; the tab may hold the full one.
        let url = if !secrets.url.is_empty() && secrets.saved_url == saved.url {
            secrets.url.clone()
        } else {
            saved.url
        };
        Self {
            id: StoredValue::new(saved.id),
            secrets_note: RwSignal::new(None),
            name: RwSignal::new(saved.name),
            url: RwSignal::new(url),
            token: RwSignal::new(secrets.token),
            headers: RwSignal::new(secrets.headers),
            transport: RwSignal::new(saved.transport),
            version: RwSignal::new(saved.version),
            known_handshake: RwSignal::new(saved.known_handshake),
            roots: RwSignal::new(saved.roots),
            timeout: RwSignal::new(saved.timeout),
            max_total: RwSignal::new(saved.max_total),
            server_request_timeout: RwSignal::new(saved.server_request_timeout),
            max_message_mb: RwSignal::new(saved.max_message_mb),
            remember_secrets: RwSignal::new(remembered),
            client_id: RwSignal::new(saved.client_id),
            client_issuer: RwSignal::new(saved.client_issuer),
            client_secret: RwSignal::new(secrets.client_secret),
            client_credentials: RwSignal::new(saved.client_credentials),
            private_key: RwSignal::new(String::new()),
            xaa_token_endpoint: RwSignal::new(String::new()),
            xaa_client_id: RwSignal::new(String::new()),
            xaa_id_token: RwSignal::new(String::new()),
            workload_jwt: RwSignal::new(String::new()),
        }
    }

    fn saved(&self) -> SavedServer {
        SavedServer {
            id: self.id.get_value(),
            name: self.name.get(),
            url: saved::saved_url(&self.url.get()),
            transport: self.transport.get(),
            version: self.version.get(),
            known_handshake: self.known_handshake.get(),
            roots: self.roots.get(),
            timeout: self.timeout.get(),
            max_total: self.max_total.get(),
            server_request_timeout: self.server_request_timeout.get(),
            max_message_mb: self.max_message_mb.get(),
            client_id: self.client_id.get(),
            client_issuer: self.client_issuer.get(),
            client_credentials: self.client_credentials.get(),
            header_names: saved::header_names(&self.headers.get()),
        }
    }
}

#[derive(Clone, Copy)]
pub struct ServerEntry {
    pub key: u64,
    pub settings: Settings,
    pub connection: Connection,
}

/// The sidebar's dialogs (their code is in the import chunk, `lazy::ImportExport`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Dialog {
    Import,
    Export,
}

/// Every server, the one shown, and the wire log they share.
#[derive(Clone, Copy)]
pub struct Servers {
    pub list: RwSignal<Vec<ServerEntry>>,
    pub selected: RwSignal<u64>,
    pub wire: RwSignal<WireLog>,
    /// The import or export dialog, when open.
    pub dialog: RwSignal<Option<Dialog>>,
    next_key: StoredValue<u64>,
    /// The app's owner: an entry added from a dialog is made under it (see `import.rs`), or it
    /// would be disposed with the dialog.
    pub owner: StoredValue<Owner>,
}

/// A deep-link parameter (`?url=`, `?transport=`, `?version=`; the rest is `address.rs`'s).
/// Tokens are never read from the address.
fn address_parameter(name: &str) -> Option<String> {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .and_then(|search| web_sys::UrlSearchParams::new_with_str(&search).ok())
        .and_then(|params| params.get(name))
}

impl Servers {
    /// The remembered servers, plus the deep-linked one (selected), plus an empty one if
    /// there is nothing at all.
    pub fn load() -> Self {
        let wire = RwSignal::new(WireLog::default());
        let servers = Servers {
            list: RwSignal::new(Vec::new()),
            selected: RwSignal::new(0),
            wire,
            dialog: RwSignal::new(None),
            next_key: StoredValue::new(0),
            owner: StoredValue::new(Owner::current().unwrap_or_default()),
        };
        let stored = local_storage().and_then(|s| s.get_item(STORAGE_KEY).ok().flatten());
        for saved in saved::load(stored.as_deref()) {
            servers.push(saved);
        }
        if let Some(url) = address_parameter("url").filter(|u| !u.trim().is_empty()) {
            let transport = address_parameter("transport")
                .and_then(|key| TransportChoice::from_key(&key))
                .unwrap_or_default();
            let version = address_parameter("version")
                .and_then(|key| VersionChoice::from_key(&key))
                .unwrap_or_default();
            let existing = servers.list.with_untracked(|list| {
                list.iter()
                    .find(|e| e.settings.url.get_untracked() == url)
                    .copied()
            });
            let entry = existing.unwrap_or_else(|| servers.add(&url));
            entry.settings.transport.set(transport);
            entry.settings.version.set(version);
            // A linked tool, prompt or resource (`&tool=`) is read from the address and opened
            // by the session's panels once connected (`session_panels`), so its parsing stays
            // out of the first paint.
            entry.connection.expect_link();
            // `&connect`: connected once the session chunk is here (its files are preloaded
            // with the first paint's), or asked first for a local address.
            let connect = address_parameter("connect").is_some_and(|value| {
                !matches!(
                    value.trim().to_ascii_lowercase().as_str(),
                    "0" | "false" | "no" | "off"
                )
            });
            entry.connection.connect_when_ready(connect);
            servers.selected.set(entry.key);
        }
        if servers.list.with_untracked(Vec::is_empty) {
            servers.add("");
        }
        if !servers.list.with_untracked(|list| {
            list.iter()
                .any(|e| e.key == servers.selected.get_untracked())
        }) {
            let first = servers.list.with_untracked(|list| list[0].key);
            servers.selected.set(first);
        }
        // Kept in localStorage from when the session chunk is here (`lazy::session_started`):
        // the first paint neither downloads nor runs the settings' serialization.
        servers
    }

    pub(super) fn push(&self, mut saved: SavedServer) -> ServerEntry {
        let key = self.next_key.get_value();
        self.next_key.set_value(key + 1);
        if saved.id.is_empty() {
            saved.id = saved::new_id(js_sys::Date::now(), key);
        }
        // Secrets entered for this entry, and only while it points at the same origin.
        let secrets = session_storage()
            .and_then(|s| {
                s.get_item(&format!("{SECRETS_KEY}{}", saved.id))
                    .ok()
                    .flatten()
            })
            .and_then(|text| serde_json::from_str::<TabSecrets>(&text).ok())
            .and_then(|secrets| secrets.for_url(&saved.url));
        let connection = Connection::new(self.wire, saved.id.clone());
        let entry = ServerEntry {
            key,
            settings: Settings::from_saved(saved, secrets),
            connection,
        };
        self.list.update(|list| list.push(entry));
        entry
    }

    /// Adds a server for `url` (may be empty) and shows it.
    pub fn add(&self, url: &str) -> ServerEntry {
        let taken: Vec<String> = self.list.with_untracked(|list| {
            list.iter()
                .map(|e| e.settings.name.get_untracked())
                .collect()
        });
        let entry = self.push(SavedServer::new(
            String::new(),
            saved::unique_name(&saved::name_from_url(url), &taken),
            url.to_owned(),
        ));
        self.selected.set(entry.key);
        entry
    }

    /// Disconnects and forgets a server; shows another (or a new empty one).
    /// (`disconnect` is the session chunk's, `lazy::connect::disconnect`.)
    pub fn remove(&self, key: u64, disconnect: fn(Connection)) {
        let removed = self
            .list
            .with_untracked(|list| list.iter().find(|e| e.key == key).copied());
        if let Some(entry) = removed {
            disconnect(entry.connection);
            if let Some(storage) = session_storage() {
                let id = entry.settings.id.get_value();
                let _ = storage.remove_item(&format!("{SECRETS_KEY}{id}"));
                let _ = storage.remove_item(&format!("{TOKENS_KEY}{id}"));
            }
        }
        self.list.update(|list| list.retain(|e| e.key != key));
        match self.list.with_untracked(|list| list.first().map(|e| e.key)) {
            Some(first) => self.selected.set(first),
            None => {
                self.add("");
            }
        }
    }

    /// Changes a server's URL; a name that was only derived from the URL follows it.
    pub fn set_url(&self, settings: Settings, url: String) {
        let name = settings.name.get_untracked();
        let derived = saved::name_from_url(&settings.url.get_untracked());
        if name == derived || name.starts_with(&derived) && name.ends_with(')') {
            let taken: Vec<String> = self.list.with_untracked(|list| {
                list.iter()
                    .map(|e| e.settings.name.get_untracked())
                    .filter(|n| n != &name)
                    .collect()
            });
            settings
                .name
                .set(saved::unique_name(&saved::name_from_url(&url), &taken));
        }
        // A token or headers typed for one origin never go to another: moving the entry to
        // another origin clears them (and says so). Compared by `origin_key` (the first paint
        // has no URL parser): another spelling of the same origin clears them too.
        let before = origin_key(&settings.url.get_untracked());
        let after = origin_key(&url);
        let has_secrets = !settings.token.get_untracked().is_empty()
            || !settings.headers.get_untracked().trim().is_empty()
            || !settings.client_secret.get_untracked().is_empty()
            || !settings.private_key.get_untracked().is_empty()
            || !settings.xaa_id_token.get_untracked().is_empty()
            || !settings.workload_jwt.get_untracked().is_empty();
        if before.is_some() && before != after && has_secrets {
            settings.token.set(String::new());
            settings.headers.set(String::new());
            settings.client_secret.set(String::new());
            settings.private_key.set(String::new());
            settings.xaa_id_token.set(String::new());
            settings.workload_jwt.set(String::new());
            settings.secrets_note.set(Some(format!(
                "The token, custom headers and sign-in secrets were cleared: they were entered for {}, not for this address.",
                before.unwrap_or_default()
            )));
        }
        settings.url.set(url);
        settings.known_handshake.set(false); // another server, perhaps another era
    }

    /// The selected server, read without subscribing.
    pub fn current_untracked(&self) -> Option<ServerEntry> {
        let selected = self.selected.get_untracked();
        self.list
            .with_untracked(|list| list.iter().find(|e| e.key == selected).copied())
    }

    pub fn current(&self) -> Option<ServerEntry> {
        let selected = self.selected.get();
        self.list
            .with(|list| list.iter().find(|e| e.key == selected).copied())
    }

    /// Keeps localStorage (and, where asked, sessionStorage) in step with the settings, from
    /// now on (each effect's first run stores what is there now). Once per page; called from the
    /// session chunk, so the serialization is not part of the first paint.
    pub(super) fn persist(&self) {
        // Page-wide: the settings are stored once per page, whichever entry point comes first.
        thread_local! {
            static STARTED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
        }
        if STARTED.with(|started| started.replace(true)) {
            return;
        }
        let list = self.list;
        Effect::new(move |_| {
            let saved: Vec<SavedServer> =
                list.with(|list| list.iter().map(|e| e.settings.saved()).collect());
            if let Some(storage) = local_storage() {
                let _ = storage.set_item(STORAGE_KEY, &saved::store(&saved));
            }
        });
        Effect::new(move |_| {
            let Some(storage) = session_storage() else {
                return;
            };
            list.with(|list| {
                for entry in list {
                    let settings = entry.settings;
                    let key = format!("{SECRETS_KEY}{}", settings.id.get_value());
                    if settings.remember_secrets.get() {
                        let url = settings.url.get();
                        let secrets = TabSecrets {
                            token: settings.token.get(),
                            headers: settings.headers.get(),
                            client_secret: settings.client_secret.get(),
                            origin: origin_key(&url).unwrap_or_default(),
                            saved_url: if url_has_credentials(&url) {
                                saved::saved_url(&url)
                            } else {
                                String::new()
                            },
                            url: if url_has_credentials(&url) {
                                url
                            } else {
                                String::new()
                            },
                        };
                        let text = serde_json::to_string(&secrets).unwrap_or_default();
                        let _ = storage.set_item(&key, &text);
                    } else {
                        let _ = storage.remove_item(&key);
                        let _ = storage
                            .remove_item(&format!("{TOKENS_KEY}{}", settings.id.get_value()));
                    }
                }
            });
        });
    }
}

pub fn use_servers() -> Servers {
    expect_context::<Servers>()
}
