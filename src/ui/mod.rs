//! Leptos components. No protocol logic here: every session is one server of the client
//! library's `Manager` (connect, disconnect, its events and wire lines through the manager's
//! handlers, its calls through the client the manager holds), and components render what
//! it returns. Server-supplied text is only ever rendered as text (never `inner_html`).

mod address;
mod apps;
mod auth;
mod browse;
mod chat;
mod connection;
mod content;
mod embed;
mod events;
mod form;
mod import;
mod lazy;
mod list_lifetime;
mod live_apps;
mod server_info;
mod server_requests;
mod servers;
mod share;
mod skills;
mod tasks;
mod theme;
mod wire_log;

use crate::client::manager::{Manager, ManagerError, WireLine};
use crate::client::{
    ClientConfig, ClientEvent, ListKind, ListUpdate, McpClient, Progress, ServerState,
};
use crate::protocol::era::VersionChoice;
use crate::protocol::jsonrpc::RequestId;
use crate::protocol::mcp::RESOURCES_UPDATED;
use crate::protocol::transport_choice::missing_path_hint;
use crate::protocol::wire_log::WireLog;
use browse::{Browser, Kind};
use leptos::prelude::*;
use leptos::task::spawn_local;
use servers::{ServerEntry, Servers};
use std::sync::Arc;

/// How many server messages the events panel keeps.
const EVENT_LIMIT: usize = 200;

/// The most of one server message the events panel keeps (it shows the first 2,000
/// characters; the wire log has the whole message): 200 messages of 10 MB must not be 2 GB.
const EVENT_BYTES: usize = 16 * 1024;

/// The most the events panel's list holds in all; the oldest go first.
const EVENTS_BUDGET: usize = 2 * 1024 * 1024;

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

/// Where signing in stands for one connection (MCP authorization; the flow itself lives in
/// the session chunk, `auth.rs`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignIn {
    /// Nothing to do: the server did not ask, or the person gave a token of their own.
    Idle,
    /// The server wants authorization; why, or why the last attempt failed.
    Needed(String),
    /// A client secret or key is ready to go to `issuer`, which the server's metadata named
    /// and the person has not confirmed: why, and that issuer.
    Confirm {
        reason: String,
        issuer: String,
    },
    /// The sign-in window is open, or the code is being exchanged.
    Waiting,
    SignedIn,
}

/// The client identity a person chose for signing in: empty = automatic (registration).
/// Holds secrets: no `Debug`.
#[derive(Clone, Default, PartialEq)]
pub struct Identity {
    pub client_id: String,
    /// The issuer the secret or key is for (empty: asked at the first sign-in).
    pub client_issuer: String,
    pub client_secret: String,
    /// A PKCS #8 PEM key for `private_key_jwt`, instead of the secret.
    pub private_key: String,
    /// The client credentials grant (machine to machine) instead of a sign-in window.
    pub machine: bool,
    /// Cross-app access, when its fields are filled in: the identity provider's token
    /// endpoint, this app's client id there, the person's ID token.
    pub cross_app: [String; 3],
    /// Workload identity: a pasted workload JWT (the JWT bearer grant, no window).
    pub workload_jwt: String,
    /// "Remember in this tab": the signed-in tokens go to sessionStorage too.
    pub remember: bool,
}

impl Identity {
    /// Whether the person set up a sign-in client (an id, machine to machine, cross-app
    /// access): then a connect goes out with an authorization from the start.
    pub fn wants_sign_in(&self) -> bool {
        !self.client_id.trim().is_empty()
            || self.machine
            || self.cross_app.iter().any(|field| !field.trim().is_empty())
            || !self.workload_jwt.trim().is_empty()
    }
}

/// A request from the server that waits for a person.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerRequest {
    pub id: RequestId,
    pub method: String,
    pub params: Option<serde_json::Value>,
}

thread_local! {
    /// Every server's session. Only code in the session chunk reaches it (through `lazy`),
    /// so the client stays out of the first paint's download.
    static MANAGER: Manager = Manager::new().with_tool_pages();
}

fn manager() -> Manager {
    MANAGER.with(Manager::clone)
}

/// What a manager call failed on, as the sentence shown (the server is the one in view).
fn failure(error: ManagerError) -> String {
    match error {
        ManagerError::Mcp { error, .. } => error.to_string(),
        other => other.to_string(),
    }
}

/// The connection, shared with every panel through context: signals over one server of the
/// [`Manager`].
#[derive(Clone, Copy)]
pub struct Connection {
    /// The server's id in the manager: its entry's stable id.
    id: StoredValue<String>,
    pub status: RwSignal<Status>,
    pub error: RwSignal<Option<String>>,
    pub server: RwSignal<Option<Arc<ServerState>>>,
    /// The server's messages outside answers, numbered (the events panel keys rows by it).
    pub events: RwSignal<std::collections::VecDeque<(u64, ClientEvent)>>,
    events_seen: StoredValue<u64>,
    /// What `events` holds ([`ClientEvent::held_bytes`] of each), kept under [`EVENTS_BUDGET`].
    events_bytes: StoredValue<usize>,
    /// Server requests waiting for a person: (id, method, params).
    pub server_requests: RwSignal<Vec<ServerRequest>>,
    /// Every message in both directions, shared by all servers (bounded).
    pub wire: RwSignal<WireLog>,
    /// The latest progress notification (panels show it when it is for their request).
    pub progress: RwSignal<Option<Progress>>,
    /// Why the server's own messages come only with answers (no GET stream or
    /// subscriptions/listen), shown quietly with the server's details.
    pub stream_note: RwSignal<Option<String>>,
    /// URL elicitations the server said are complete (`notifications/elicitation/complete`).
    pub completed_elicitations: RwSignal<Vec<String>>,
    /// What the tabs remember while connected (selection, forms, results).
    pub memory: browse::Memory,
    /// The session's tasks, newest first.
    pub tasks: RwSignal<Vec<tasks::TaskRow>>,
    /// Signing in to this server.
    pub sign_in: RwSignal<SignIn>,
    /// Bumped by every new step of the sign-in log (the auth view reads the log then).
    pub auth_log: RwSignal<u64>,
    /// Bumped by every connect and disconnect, so a slow connect that was superseded
    /// does not overwrite the newer state.
    generation: StoredValue<u64>,
    /// What the page address linked to (`&tool=echo&args=...`): opened, its form filled,
    /// once the server lists it.
    pub linked: StoredValue<Option<Linked>>,
    /// The full app's deep link named this server: `linked` is read from the address when
    /// its panels are first drawn.
    pub link_pending: StoredValue<bool>,
    /// What could not be used of the full app's deep link, one sentence each.
    pub link_problems: RwSignal<Vec<String>>,
    /// The sign-in chunk holds an authorization for this server (`auth::prepare` made one):
    /// connects go through it, and it hears the server's refusals itself.
    pub(super) signin: StoredValue<bool>,
    /// The server's last 401 or 403 (status, `WWW-Authenticate`), for a sign-in that starts
    /// from a refusal the session saw without one.
    pub(super) refusal: StoredValue<Option<(u16, Option<String>)>>,
    /// What the last connect went out with, for a sign-in that starts after it.
    pub(super) last_connect: StoredValue<Option<LastConnect>, LocalStorage>,
    /// The full app's link asked to connect at once (`&connect`): done once the session
    /// chunk is here, or asked first for an address on the person's machine or network.
    pub(super) auto_connect: StoredValue<bool>,
    /// Such a link's address is on the person's machine or network: its origin, while the
    /// page asks whether to connect.
    pub connect_ask: RwSignal<Option<String>>,
    /// The manager the session runs on when it is not the app's (a warm-up's in-memory one).
    manager: StoredValue<Option<Manager>, LocalStorage>,
    warm_up: bool,
}

/// A connect's configuration, the sign-in client chosen with it, and its era flag.
#[derive(Clone)]
pub(super) struct LastConnect {
    pub config: ClientConfig,
    pub identity: Identity,
    pub known_handshake: RwSignal<bool>,
}

/// A tool, prompt or resource the address links to, with the arguments for its form.
pub type Linked = (
    address::Target,
    Option<serde_json::Map<String, serde_json::Value>>,
);

impl Connection {
    fn new(wire: RwSignal<WireLog>, id: String) -> Self {
        Self {
            id: StoredValue::new(id),
            status: RwSignal::new(Status::Disconnected),
            error: RwSignal::new(None),
            server: RwSignal::new(None),
            events: RwSignal::new(Default::default()),
            events_seen: StoredValue::new(0),
            events_bytes: StoredValue::new(0),
            server_requests: RwSignal::new(Vec::new()),
            progress: RwSignal::new(None),
            wire,
            memory: browse::Memory::new(),
            tasks: RwSignal::new(Vec::new()),
            stream_note: RwSignal::new(None),
            completed_elicitations: RwSignal::new(Vec::new()),
            sign_in: RwSignal::new(SignIn::Idle),
            auth_log: RwSignal::new(0),
            generation: StoredValue::new(0),
            linked: StoredValue::new(None),
            link_pending: StoredValue::new(false),
            link_problems: RwSignal::new(Vec::new()),
            signin: StoredValue::new(false),
            refusal: StoredValue::new(None),
            last_connect: StoredValue::new_local(None),
            auto_connect: StoredValue::new(false),
            connect_ask: RwSignal::new(None),
            manager: StoredValue::new_local(None),
            warm_up: false,
        }
    }

    fn next_generation(&self) -> u64 {
        self.generation.update_value(|g| *g += 1);
        self.generation.get_value()
    }

    /// Ends the current session (DELETE) and takes the server out of the manager, with its
    /// handlers (a connect still under way ends when it settles). Returns why ending it
    /// failed, if it did (the session is dropped either way).
    async fn end_session(&self, manager: &Manager) -> Option<String> {
        match manager.remove(&self.id.get_value()).await {
            Err(error @ ManagerError::Mcp { .. }) => Some(failure(error)),
            _ => None, // ended, or there was none
        }
    }

    /// Sends the server's events and wire lines to this connection's signals.
    fn listen(self, manager: &Manager) {
        let id = self.id.get_value();
        manager.on_event(Some(&id), move |_, event| self.receive(event));
        let wire = self.wire;
        manager.on_wire(Some(&id), move |_, line| {
            if let WireLine::Answer(answer) = &line {
                self.heard(answer);
            }
            wire.update(|log| match line {
                WireLine::Entry(entry) => log.push(entry),
                WireLine::Answer(answer) => log.answer(answer),
            });
        });
    }

    /// An HTTP answer of this server: a 401 or 403 is kept (its challenge starts a sign-in),
    /// and one that refuses a session that has no authorization offers to sign in (the sign-in
    /// chunk is fetched then: a server that never refuses never costs its download).
    fn heard(self, answer: &crate::protocol::wire_log::WireAnswer) {
        let Some(status @ (401 | 403)) = answer.http_status else {
            return;
        };
        let challenge = answer
            .response_headers
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case("www-authenticate"))
            .map(|(_, value)| value.clone());
        self.refusal.set_value(Some((status, challenge)));
        if !self.signin.get_value() && self.status.get_untracked() == Status::Connected {
            lazy::signin_refused(self);
        }
    }

    /// Connects with `config` and the sign-in client `identity`: through this server's
    /// authorization when it has one or one is asked for (a client typed, tokens remembered:
    /// the sign-in chunk makes it, `lazy::signin_prepare`), else at once without.
    fn connect_as(self, config: ClientConfig, identity: Identity, known_handshake: RwSignal<bool>) {
        self.refusal.set_value(None);
        self.last_connect.set_value(Some(LastConnect {
            config: config.clone(),
            identity: identity.clone(),
            known_handshake,
        }));
        let own_token = config.bearer_token.is_some();
        if own_token && self.signin.get_value() {
            // The person's own token: the sign-in goes.
            lazy::signin_forget(self);
        }
        let wants = !own_token
            && (self.signin.get_value()
                || identity.wants_sign_in()
                || (identity.remember && servers::has_remembered_tokens(&self.id.get_value())));
        if wants {
            lazy::signin_prepare(self, config, identity, known_handshake);
        } else {
            if self.sign_in.with_untracked(|s| *s != SignIn::Idle) {
                self.sign_in.set(SignIn::Idle);
            }
            self.connect_now(config, known_handshake);
        }
    }

    /// After a connect settled: the sign-in's own bookkeeping when there is one, else a sign-in
    /// offered when the connect was refused for want of one.
    fn after_connect(self, refused: bool) {
        if self.signin.get_value() {
            lazy::signin_after_connect(self);
        } else if refused {
            lazy::signin_refused(self);
        }
    }

    /// Connects (in the session chunk: `lazy::connect_settings`, `lazy::embed_connect`);
    /// `known_handshake` learns whether the server refused `server/discover`, so the next
    /// connect (with Auto) skips that round trip.
    fn connect_now(self, config: ClientConfig, known_handshake: RwSignal<bool>) {
        spawn_local(self.connect_on(manager(), config, known_handshake));
    }

    /// Connects through `manager` (the app's, or the warm-up's): the status at once, the
    /// session in the future returned.
    fn connect_on(
        self,
        manager: Manager,
        config: ClientConfig,
        known_handshake: RwSignal<bool>,
    ) -> impl std::future::Future<Output = ()> {
        let auto = config.version == VersionChoice::Auto;
        let url = config.url.clone();
        if self.warm_up {
            self.manager.set_value(Some(manager.clone()));
        }
        let generation = self.next_generation();
        self.status.set(Status::Connecting);
        self.error.set(None);
        self.server.set(None);
        self.stream_note.set(None);
        async move {
            let ended = self.end_session(&manager).await;
            if self.generation.get_value() != generation {
                return; // superseded while the old session was ending
            }
            // A failed DELETE of the previous session is worth knowing, not worth an error.
            self.events.set(Default::default());
            self.events_bytes.set_value(0);
            if let Some(reason) = ended {
                self.record(ClientEvent::Ignored { reason });
            }
            self.server_requests.set(Vec::new());
            self.progress.set(None);
            self.tasks.set(Vec::new());
            self.listen(&manager);
            let outcome = manager.connect(&self.id.get_value(), config).await;
            if self.generation.get_value() != generation {
                // Superseded: whatever superseded it removed the server, so a session that
                // connected meanwhile has ended with it.
                return;
            }
            match outcome {
                Ok(state) => {
                    if let (true, false, Some(client)) =
                        (auto, state.transport.legacy, self.client())
                    {
                        known_handshake.set(!client.is_stateless());
                    }
                    // A new session: nothing typed for the last one applies (no panel is
                    // shown while connecting, so the old panels' signals can go).
                    self.memory.forget();
                    self.server.set(Some(state));
                    self.status.set(Status::Connected);
                    // A server may accept the connect and refuse what follows it.
                    let refused = self.refusal.get_value().is_some();
                    self.after_connect(refused);
                }
                Err(ManagerError::Mcp { error, .. }) => {
                    let mut text = error.to_string();
                    if error.http_status() == Some(404) {
                        if let Some(hint) = missing_path_hint(&url) {
                            text = format!("{text} {hint}");
                        }
                    }
                    self.error.set(Some(text));
                    self.status.set(Status::Failed);
                    self.after_connect(matches!(error.http_status(), Some(401 | 403)));
                }
                Err(other) => {
                    self.error.set(Some(failure(other)));
                    self.status.set(Status::Failed);
                    self.after_connect(false);
                }
            }
        }
    }

    /// What the client reports outside of answers and wire lines (the manager's tap).
    fn receive(self, event: ClientEvent) {
        match event {
            ClientEvent::ServerRequest { id, method, params } => {
                self.server_requests
                    .update(|list| list.push(ServerRequest { id, method, params }));
                return;
            }
            ClientEvent::ServerRequestExpired { ref id } => {
                self.server_requests
                    .update(|list| list.retain(|r| &r.id != id));
            }
            ClientEvent::Progress(progress) => {
                self.progress.set(Some(progress));
                return;
            }
            ClientEvent::TaskStatus(task) => {
                // The notification itself is in the events list.
                tasks::upsert(self.tasks, task.into(), None, None);
                return;
            }
            ClientEvent::ExtensionTaskStatus(task) => {
                // A notification (in the events list) or a task the client follows itself.
                tasks::upsert(self.tasks, task, None, None);
                return;
            }
            ClientEvent::ListChanged(update) => {
                self.server.update(|state| {
                    if let Some(state) = state {
                        // In place when nothing else holds this state (no copy of every list).
                        let next = Arc::make_mut(state);
                        // A re-list is its first page: a NextCursor event follows if it has more.
                        let kind = match update {
                            ListUpdate::Tools(tools) => {
                                next.tools = Some(tools);
                                ListKind::Tools
                            }
                            ListUpdate::Prompts(prompts) => {
                                next.prompts = Some(prompts);
                                ListKind::Prompts
                            }
                            ListUpdate::Resources(resources) => {
                                next.resources = Some(resources);
                                ListKind::Resources
                            }
                            ListUpdate::Templates(templates) => {
                                next.templates = Some(templates);
                                ListKind::Templates
                            }
                        };
                        next.more.set(kind, None);
                    }
                });
                return; // the list_changed notification itself is in the events list
            }
            ClientEvent::Notification {
                ref method,
                ref params,
            } if method == crate::protocol::mcp::ELICITATION_COMPLETE => {
                let id = params
                    .as_ref()
                    .and_then(|p| p.get("elicitationId"))
                    .and_then(serde_json::Value::as_str);
                // An id longer than any real one is no id this page handed out.
                if let Some(id) = id.filter(|id| id.len() <= 1024) {
                    let id = id.to_owned();
                    self.completed_elicitations.update(|ids| {
                        if ids.len() >= EVENT_LIMIT {
                            ids.remove(0);
                        }
                        ids.push(id);
                    });
                }
            }
            ClientEvent::NextCursor { kind, cursor } => {
                self.server.update(|state| {
                    if let Some(state) = state {
                        Arc::make_mut(state).more.set(kind, Some(cursor));
                    }
                });
                return;
            }
            ClientEvent::Notification {
                ref method,
                params: Some(ref params),
            } if method == RESOURCES_UPDATED => {
                if let Some(uri) = params.get("uri").and_then(serde_json::Value::as_str) {
                    // Only a panel made for it can be subscribed (its code: the panel chunk).
                    if self.memory.has_panel(Kind::Resources, uri) {
                        lazy::resource_updated(self, uri.to_owned());
                    }
                }
            }
            ClientEvent::NoServerStream { reason } => {
                self.stream_note.set(Some(reason));
                return;
            }
            ClientEvent::ConnectionLost { ref reason } => {
                self.status.set(Status::Failed);
                self.error.set(Some(reason.clone()));
            }
            _ => {}
        }
        self.record(event);
    }

    /// Adds an event to the list the events panel shows, bounded by count and by bytes: the
    /// event's server text cut to [`EVENT_BYTES`], the oldest events going first.
    fn record(self, mut event: ClientEvent) {
        self.events_seen.update_value(|n| *n += 1);
        let seq = self.events_seen.get_value();
        let bytes = event.shrink(EVENT_BYTES);
        let mut held = self.events_bytes.get_value() + bytes;
        self.events.update(|list| {
            while !list.is_empty() && (list.len() >= EVENT_LIMIT || held > EVENTS_BUDGET) {
                if let Some((_, gone)) = list.pop_front() {
                    held -= gone.held_bytes();
                }
            }
            list.push_back((seq, event));
        });
        self.events_bytes.set_value(held);
    }

    /// Answers a server request a person decided on, and takes it off the list.
    pub fn answer(self, id: &RequestId, outcome: Result<serde_json::Value, (i32, String)>) {
        self.server_requests
            .update(|list| list.retain(|r| &r.id != id));
        manager().answer(&self.id.get_value(), id, outcome);
    }

    /// The next page of one of the server's lists (all the rest with `all`), from `cursor`.
    pub async fn list_more(
        self,
        kind: ListKind,
        cursor: &str,
        all: bool,
    ) -> Result<(ListUpdate, Option<String>), String> {
        manager()
            .list_more(&self.id.get_value(), kind, cursor, all)
            .await
            .map_err(failure)
    }

    pub fn disconnect(self) {
        lazy::disconnect(self);
    }

    /// [`Connection::disconnect`], in the session chunk.
    fn disconnect_now(self) {
        self.disconnect_then(|| {});
    }

    /// Disconnects, and calls `ended` once the session has ended (its DELETE answered), before
    /// the status says so.
    fn disconnect_then(self, ended: impl FnOnce() + 'static) {
        self.next_generation();
        spawn_local(async move {
            // Its MCP Apps are torn down first (their answers awaited, briefly): an app may
            // still call the server while it cleans up.
            live_apps::close_apps(&self.id.get_value(), None).await;
            let failed = self.end_session(&manager()).await;
            ended();
            self.error.set(failed);
            self.server_requests.set(Vec::new());
            self.server.set(None);
            self.status.set(Status::Disconnected);
        });
    }

    /// The live client, if connected: its manager's (the app's, or the warm-up's that
    /// [`Connection::connect_on`] was given), for the calls it does not wrap.
    pub fn client(&self) -> Option<McpClient> {
        let id = self.id.get_value();
        let manager = self.manager.get_value().unwrap_or_else(manager);
        manager.client(&id).ok()
    }

    /// A warm-up's connection (see [`warm_up`]): it compiles the page's paths, and starts no
    /// warm-up of its own.
    pub fn is_warm_up(&self) -> bool {
        self.warm_up
    }
}

/// The page: the embed view when its address asks for it (`?embed`), else the full app. Each
/// is a chunk of its own ([`lazy::Shell`]), so neither pays for the other's code at first paint.
#[component]
pub fn Root() -> impl IntoView {
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    let embed = address::is_embed(&search);
    // A static host sends no `frame-ancestors` for us: the full app refuses to run in a frame
    // itself, since a page could hide it and catch the clicks that connect and run a tool.
    // Only the embed view (which asks before it runs anything) may be framed.
    if !embed && framed() {
        let here = web_sys::window()
            .and_then(|w| w.location().href().ok())
            .unwrap_or_default();
        return view! {
            <p id="framed-refusal" class="error" role="alert">
                "mcp-lens does not run inside another page's frame, where that page could hide it and catch your clicks. "
                <a href=here target="_blank" rel="noopener noreferrer">"Open mcp-lens in its own tab"</a>
                ", or embed the widget view (?embed) instead."
            </p>
        }
        .into_any();
    }
    view! { <lazy::Shell embed/> }.into_any()
}

/// Whether this page is inside a frame (of any origin).
fn framed() -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    match window.top() {
        Ok(Some(top)) => !js_sys::Object::is(&top, &window),
        // A top the page may not even name is another one.
        _ => true,
    }
}

/// Copies `text`, then says whether the browser let it ("Copied.").
pub fn copy_to_clipboard(text: String, note: RwSignal<&'static str>) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let promise = window.navigator().clipboard().write_text(&text);
    spawn_local(async move {
        let done = wasm_bindgen_futures::JsFuture::from(promise).await.is_ok();
        note.try_set(if done {
            "Copied."
        } else {
            "The browser refused to copy."
        });
    });
}

/// The full app (in the app chunk, [`lazy::Shell`]).
#[component]
pub fn App() -> impl IntoView {
    let chunk = lazy::SessionChunk::new();
    provide_context(chunk);
    // This task instantiated the app chunk; the next one draws the frame (the theme applied
    // before anything is painted); the next the servers are made (and provided); the next
    // draws the sidebar's entries; the next the connection form; the task after the first
    // paint the connection's lesser fields, and it fetches the session chunk.
    lazy::after_frame(chunk, Owner::current().unwrap_or_default());
    view! { <lazy::AfterStart load=|| lazy::now(frame)/> }
}

/// The full app's frame: the top bar, the sidebar's place and the selected server's (or the
/// chat's, [`chat_tabs`]).
fn frame() -> AnyView {
    view! {
        <header class="topbar"><h1>"mcp-lens"</h1><lazy::ChatTabs/><theme::ThemeChoice/></header>
        <div class="layout">
            // The sidebar's entries come before the connection form: in the one-column layout
            // (narrow windows) the sidebar is above the form, and entries drawn after it moved
            // Connect down under the person's pointer.
            <aside id="servers" class="sidebar">
                <lazy::AfterServers load=|| lazy::now(|| view! { <servers::Sidebar/> }.into_any())/>
            </aside>
            <main>
                <lazy::ChatArea/>
                <div id="server-view">
                    <lazy::AfterFrame load=|| lazy::now(selected_server)/>
                </div>
                <lazy::WireLog/>
            </main>
        </div>
    }
    .into_any()
}

thread_local! {
    /// Whether the chat is shown instead of the selected server's view, and whether it was
    /// ever opened (then it stays drawn, so a run goes on behind the server's view).
    static CHAT_SHOWN: std::cell::Cell<Option<(RwSignal<bool>, RwSignal<bool>)>> =
        const { std::cell::Cell::new(None) };
}

/// [`CHAT_SHOWN`], made at its first use under the app's owner.
fn chat_shown() -> (RwSignal<bool>, RwSignal<bool>) {
    if let Some(shown) = CHAT_SHOWN.with(std::cell::Cell::get) {
        return shown;
    }
    let owner = use_context::<Servers>()
        .map(|servers| servers.owner.get_value())
        .unwrap_or_default();
    let shown = owner.with(|| (RwSignal::new(false), RwSignal::new(false)));
    CHAT_SHOWN.with(|cell| cell.set(Some(shown)));
    shown
}

/// The Server and Chat buttons in the top bar, from the session chunk (the first paint does not
/// carry them; as links they fit the bar's height, so nothing moves when they appear). While
/// the chat is shown, `<body data-view="chat">` and the chat's stylesheet hide `#server-view`.
fn chat_tabs() -> AnyView {
    let (shown, opened) = chat_shown();
    Effect::new(move |_| {
        let chat = shown.get();
        if let Some(body) = document().body() {
            let _ = match chat {
                true => body.set_attribute("data-view", "chat"),
                false => body.remove_attribute("data-view"),
            };
        }
    });
    view! {
        <nav class="views" aria-label="View">
            <button id="tab-server" class="link" aria-pressed=move || (!shown.get()).to_string()
                on:click=move |_| shown.set(false)>"Server"</button>
            <button id="tab-chat" class="link" aria-pressed=move || shown.get().to_string()
                on:click=move |_| { opened.set(true); shown.set(true); }>"Chat"</button>
        </nav>
    }
    .into_any()
}

/// The chat, once opened (from its own chunk), in `<main>` above the server's view.
fn chat_area() -> AnyView {
    let (shown, opened) = chat_shown();
    (move || {
        opened.get().then(|| {
            view! { <div id="chat" hidden=move || !shown.get()><lazy::Chat/></div> }
        })
    })
    .into_any()
}

/// The selected server's view, redrawn when another is selected.
fn selected_server() -> AnyView {
    let servers = expect_context::<Servers>();
    (move || servers.current().map(|entry| view! { <ServerView entry/> })).into_any()
}

/// Everything about the selected server. Re-created when another server is selected; the
/// connection itself lives on in the server's entry.
#[component]
fn ServerView(entry: ServerEntry) -> impl IntoView {
    let connection = entry.connection;
    provide_context(connection);
    provide_context(entry.settings);
    view! {
        <connection::ConnectionBar/>
        <lazy::SessionPanels/>
    }
}

/// What [`ServerView`] shows of a session: the server, its tabs, its requests and events.
/// In the session chunk ([`lazy`]).
fn session_panels() -> AnyView {
    let connection = use_connection();
    // `None` is the Tasks tab.
    let tab = RwSignal::new(Some(Kind::Tools));
    // The Skills tab, over whichever tab was chosen (SEP-2640; its view in the panel chunk).
    let skills = RwSignal::new(false);
    let tab_button = move |which: Option<Kind>, id: &'static str, label: &'static str| {
        view! {
            <button id=id class="tab" class:active=move || tab.get() == which && !skills.get()
                on:click=move |_| { skills.set(false); tab.set(which) }>
                {label}
            </button>
        }
    };
    let has_skills = move || {
        connection.server.with(|state| {
            state
                .as_ref()
                .is_some_and(|state| state.info.capabilities.supports_skills())
        })
    };
    // The Tasks tab is there when the server declares tasks, in either shape (or some task
    // was seen).
    let has_tasks = move || {
        connection.server.with(|state| {
            state
                .as_ref()
                .is_some_and(|state| state.info.capabilities.supports_tasks())
        }) || connection.server.with(Option::is_some)
            && (connection
                .client()
                .is_some_and(|client| client.server_tasks().declared)
                || connection.tasks.with(|rows| !rows.is_empty()))
    };
    // A linked tool, prompt or resource opens in its tab once the server lists it.
    if connection.link_pending.get_value() {
        connection.link_pending.set_value(false);
        let search = web_sys::window()
            .and_then(|w| w.location().search().ok())
            .unwrap_or_default();
        let linked = address::parse_link(&search);
        connection.link_problems.set(linked.problems);
        connection
            .linked
            .set_value(linked.target.map(|target| (target, linked.args)));
    }
    // What could not be used of the link (arguments that are not JSON, say) is said, never
    // silently dropped, until the person dismisses it.
    let link_problems = move || {
        (!connection.link_problems.with(Vec::is_empty)).then(|| view! {
            <div id="link-problems" class="link-problems" role="alert">
                <ul>
                    {connection.link_problems.get().into_iter().map(|p| view! { <li class="warning">{p}</li> }).collect_view()}
                </ul>
                <button id="dismiss-link-problems" type="button" class="secondary" on:click=move |_| {
                    connection.link_problems.set(Vec::new());
                    // The button goes: the focus moves on to the connection's own button.
                    let next = ["disconnect", "connect"].into_iter().find_map(|id| document().get_element_by_id(id));
                    if let Some(button) = next.and_then(|b| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(b).ok()) {
                        let _ = button.focus();
                    }
                }>"Dismiss"</button>
            </div>
        })
    };
    Effect::new(move |_| {
        let opened = connection.server.with(|state| {
            let state = state.as_ref()?;
            let (target, args) = connection.linked.get_value()?;
            match browse::open_linked(connection.memory, state, &target, args.as_ref()) {
                Some(kind) => Some(Ok(kind)),
                None => browse::link_missing(state, &target).map(Err),
            }
        });
        match opened {
            Some(Ok(kind)) => {
                connection.linked.set_value(None);
                tab.set(Some(kind));
            }
            // Not there: said with the link's other problems, not silently ignored.
            Some(Err(missing)) => {
                connection.linked.set_value(None);
                connection
                    .link_problems
                    .update(|problems| problems.push(missing));
            }
            None => {}
        }
    });
    // The share dialog is the full app's (the embed view has no settings to share from).
    let settings = use_context::<servers::Settings>();
    // Open for the tab in view (what it shares is read in the dialog's chunk).
    let sharing = RwSignal::new(None::<Option<Kind>>);
    let open_share = move |_| {
        if settings.is_some() {
            sharing.set(Some(tab.get_untracked()));
        }
    };
    view! {
        {link_problems}
        <lazy::SignIn/>
        <Show when=move || connection.server.with(Option::is_some)>
            <server_info::ServerInfo/>
            <nav class="tabs">
                {tab_button(Some(Kind::Tools), "tab-tools", "Tools")}
                {tab_button(Some(Kind::Prompts), "tab-prompts", "Prompts")}
                {tab_button(Some(Kind::Resources), "tab-resources", "Resources")}
                <Show when=move || has_tasks() || tab.get().is_none()>
                    {tab_button(None, "tab-tasks", "Tasks")}
                </Show>
                <Show when=has_skills>
                    <button id="tab-skills" class="tab" class:active=move || skills.get() on:click=move |_| skills.set(true)>
                        "Skills"
                    </button>
                </Show>
                {settings.is_some().then(|| view! {
                    <button id="share" class="secondary share-button" aria-haspopup="dialog" on:click=open_share>"Share / embed"</button>
                })}
            </nav>
            {move || sharing.get().and_then(|kind| Some(view! { <lazy::Share settings=settings? connection kind open=sharing/> }))}
            {move || match tab.get() {
                _ if skills.get() => view! { <lazy::Skills/> }.into_any(),
                Some(kind) => view! { <Browser kind/> }.into_any(),
                None => view! { <lazy::Tasks/> }.into_any(),
            }}
        </Show>
        <lazy::ServerRequests/>
        <events::EventsPanel/>
    }
    .into_any()
}

/// The warm-up's connection id (a server entry's id is made of a time and a number).
const WARM_UP_ID: &str = "warm-up";

/// A manager of the in-memory warm-up server's own (`client::warm_up`): nothing goes on the network.
pub(super) fn warm_up_manager() -> Manager {
    Manager::with_runtime(crate::client::warm_up::runtime()).with_tool_pages()
}

/// A throwaway connection `id` on `manager` (see [`warm_up_manager`]), under an owner of its own
/// and with a wire log of its own, connected through the same `connect_on` a click uses. Shared
/// by the first connect's warm-up and the tool call's (`browse::warm_up_call`).
pub(super) async fn warm_up_connection(manager: &Manager, id: &str) -> (Owner, Connection) {
    let owner = Owner::new();
    let (connection, known_handshake) = owner.with(|| {
        (
            Connection {
                warm_up: true,
                ..Connection::new(RwSignal::new(WireLog::default()), id.to_owned())
            },
            RwSignal::new(false),
        )
    });
    let mut config = ClientConfig::new(crate::client::warm_up::URL);
    config.mcp_apps = true;
    config.tasks_extension = true;
    connection
        .connect_on(manager.clone(), config, known_handshake)
        .await;
    (owner, connection)
}

/// Ends a warm-up connection: its session, its sign-in state and everything drawn for it.
pub(super) async fn end_warm_up(owner: Owner, manager: &Manager, id: &str) {
    let _ = manager.remove(id).await;
    owner.cleanup();
}

/// V8 compiles each wasm function at its first call, so the page's first connect waited for
/// the code of its whole path to compile: the click's configuration and request, the answers'
/// decoding, the session's bookkeeping and the panels of a connected server (tens of
/// milliseconds each way on a slow machine; a reconnect, with that code compiled, takes a few).
/// Once per page, when the session chunk is here, that path runs in the page's idle time,
/// through the same functions as a connect: a connection of its own (not in the sidebar, its
/// wire log and events its own) connects through a manager of its own to a server in memory
/// (`client::warm_up`: nothing is sent), then its panels are drawn into elements that are never
/// attached to the page, and everything is dropped. Each step waits for the page to be idle,
/// and the in-memory server answers each request in a task of its own, so no step is a long
/// task. It gives way to a real connect: once any of `servers` is connecting or connected, the
/// steps left are not run (that connect compiles the code itself, and must not share its time).
fn warm_up(servers: Servers) {
    use crate::client::browser::timer::idle;
    use std::cell::Cell;
    thread_local! {
        static DONE: Cell<bool> = const { Cell::new(false) };
    }
    if DONE.with(|done| done.replace(true)) {
        return;
    }
    let quiet = move || {
        servers.list.with_untracked(|list| {
            list.iter().all(|entry| {
                entry.connection.status.with_untracked(|status| {
                    matches!(status, Status::Disconnected | Status::Failed)
                })
            })
        })
    };
    spawn_local(async move {
        idle().await;
        if !quiet() {
            return;
        }
        // The click's configuration (read, nothing changed), and the browser's own HTTP path,
        // which the in-memory server stands in for below.
        if let Some(entry) = servers.current_untracked() {
            let _ = connection::config_of(entry.settings);
        }
        crate::client::warm_up::browser_fetch().await;
        idle().await;
        if !quiet() {
            return;
        }
        let manager = warm_up_manager();
        let (owner, connection) = warm_up_connection(&manager, WARM_UP_ID).await;
        // The panels, a part per idle time: the server's section, the tools tab, the rest.
        let parts: [fn() -> AnyView; 3] = [
            || view! { <server_info::ServerInfo/> }.into_any(),
            || view! { <Browser kind=Kind::Tools/> }.into_any(),
            session_panels,
        ];
        for part in parts {
            idle().await;
            if !quiet() {
                break;
            }
            // Each part under an owner of its own, disposed at once (the tools tab listens
            // for `/` on the window while it lives).
            owner.with(|| {
                draw_detached(|| {
                    provide_context(connection);
                    part()
                })
            });
        }
        end_warm_up(owner, &manager, WARM_UP_ID).await;
    });
}

/// Draws `make`'s view into elements never attached to the page and drops it at once, with an
/// owner of its own for its reactive parts: the warm-ups run a view's code so that V8 compiles
/// it before a person needs it, and keep nothing.
pub(crate) fn draw_detached<V: leptos::tachys::view::Render>(make: impl FnOnce() -> V) {
    let owner = Owner::new();
    owner.with(|| drop(make().build()));
    owner.cleanup();
}

/// The connection from context; every panel lives under [`App`].
pub fn use_connection() -> Connection {
    expect_context::<Connection>()
}
