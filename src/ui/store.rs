//! One store per connection: [`Connection`], the signals a server entry's views read and the
//! manager's taps write (status, the server's state, events, requests, tasks, the tabs'
//! memory, sign-in state), with the methods that change them (connect, the taps, answer,
//! disconnect). The app's one [`Manager`] lives here too; only code in the session chunk
//! reaches it (through `lazy`), so the client stays out of the first paint's download.
//!
//! The store names no chunk and no view: what it asks of the sign-in chunk comes in as
//! [`SignInCalls`] with each connect, and a resource panel's refresh as a function the panel
//! chunk hands it ([`Connection::on_resource_updated`]).

use super::address;
use super::browse::model::{Kind, Memory};
use super::live_apps::{self, LiveApp, LiveApps};
use super::storage::has_remembered_tokens;
use super::task_rows::{self, TaskRow};
use crate::client::manager::{Manager, ManagerError, WireLine};
use crate::client::{
    ClientConfig, ClientEvent, ListKind, ListUpdate, McpClient, Progress, ServerState,
};
use crate::protocol::era::VersionChoice;
use crate::protocol::jsonrpc::RequestId;
use crate::protocol::mcp::RESOURCES_UPDATED;
use crate::protocol::transport_choice::missing_path_hint;
use crate::protocol::wire_log::WireLog;
use futures::future::LocalBoxFuture;
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::any::Any;
use std::rc::Rc;
use std::sync::Arc;

mod changes;
mod reads;
#[cfg(test)]
mod tests;

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
    pub fn label(self) -> &'static str {
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

pub(super) fn manager() -> Manager {
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
    status: RwSignal<Status>,
    error: RwSignal<Option<String>>,
    server: RwSignal<Option<Arc<ServerState>>>,
    /// The server's messages outside answers, numbered (the events panel keys rows by it).
    events: RwSignal<std::collections::VecDeque<(u64, ClientEvent)>>,
    events_seen: StoredValue<u64>,
    /// What `events` holds ([`ClientEvent::held_bytes`] of each), kept under [`EVENTS_BUDGET`].
    events_bytes: StoredValue<usize>,
    /// Server requests waiting for a person: (id, method, params).
    server_requests: RwSignal<Vec<ServerRequest>>,
    /// Every message in both directions, shared by all servers (bounded).
    wire: RwSignal<WireLog>,
    /// The latest progress notification (panels show it when it is for their request).
    progress: RwSignal<Option<Progress>>,
    /// Why the server's own messages come only with answers (no GET stream or
    /// subscriptions/listen), shown quietly with the server's details.
    stream_note: RwSignal<Option<String>>,
    /// URL elicitations the server said are complete (`notifications/elicitation/complete`).
    completed_elicitations: RwSignal<Vec<String>>,
    /// What the tabs remember while connected (selection, forms, results).
    memory: Memory,
    /// The session's tasks, newest first.
    tasks: RwSignal<Vec<TaskRow>>,
    /// Signing in to this server.
    sign_in: RwSignal<SignIn>,
    /// Bumped by every new step of the sign-in log (the auth view reads the log then).
    auth_log: RwSignal<u64>,
    /// Bumped by every connect and disconnect, so a slow connect that was superseded
    /// does not overwrite the newer state.
    generation: StoredValue<u64>,
    /// What the page address linked to (`&tool=echo&args=...`): opened, its form filled,
    /// once the server lists it.
    linked: StoredValue<Option<Linked>>,
    /// The full app's deep link named this server: `linked` is read from the address when
    /// its panels are first drawn.
    link_pending: StoredValue<bool>,
    /// What could not be used of the full app's deep link, one sentence each.
    link_problems: RwSignal<Vec<String>>,
    /// The sign-in chunk holds an authorization for this server (`auth::prepare` made one):
    /// connects go through it, and it hears the server's refusals itself.
    signin: StoredValue<bool>,
    /// The server's last 401 or 403 (status, `WWW-Authenticate`), for a sign-in that starts
    /// from a refusal the session saw without one.
    refusal: StoredValue<Option<(u16, Option<String>)>>,
    /// What the last connect went out with, for a sign-in that starts after it.
    last_connect: StoredValue<Option<LastConnect>, LocalStorage>,
    /// The full app's link asked to connect at once (`&connect`): done once the session
    /// chunk is here, or asked first for an address on the person's machine or network.
    auto_connect: StoredValue<bool>,
    /// Such a link's address is on the person's machine or network: its origin, while the
    /// page asks whether to connect.
    connect_ask: RwSignal<Option<String>>,
    warm_up: bool,
    /// What the lazily loaded chunks keep for this connection (its sign-in, its MCP Apps and
    /// their resources), each typed by its chunk: it lives and goes with the connection, and
    /// the store, made with the first paint, never names those types ([`Connection::kept`]).
    kept: StoredValue<Vec<Rc<dyn Any>>, LocalStorage>,
    /// What the code above it handed it (see [`Handed`]).
    handed: StoredValue<Handed, LocalStorage>,
}

/// What the code above a connection hands it: the manager its session runs on when it is not
/// the app's (a warm-up's in-memory one); the sign-in chunk's calls, as the last connect
/// handed them ([`SignInCalls`]); how a subscribed resource's panel reads it again (the panel
/// chunk hands it in when it makes a panel; only a panel it made can be subscribed).
#[derive(Clone, Default)]
struct Handed {
    manager: Option<Manager>,
    sign_in: Option<SignInCalls>,
    resource_refresh: Option<fn(Connection, String)>,
}

/// What a connection asks of the sign-in chunk (`lazy/signin.rs` hands them in with a connect,
/// and to the servers a sign-in in this tab comes back to): make an authorization for a connect
/// (the store then connects with it), drop it, offer a sign-in after a refusal, follow a connect that went through one.
/// Functions, not an import: the sign-in chunk's code is above the store and imports it.
#[derive(Clone, Copy)]
pub struct SignInCalls {
    /// The connect's configuration with its authorization (made, or kept from before); None
    /// when the sign-in chunk could not be fetched (said on the connection).
    pub prepare: fn(
        Connection,
        ClientConfig,
        Identity,
        RwSignal<bool>,
    ) -> LocalBoxFuture<'static, Option<ClientConfig>>,
    pub forget: fn(Connection),
    pub refused: fn(Connection),
    pub settled: fn(Connection),
}

/// A connect's configuration, the sign-in client chosen with it, and its era flag.
#[derive(Clone)]
pub(in crate::ui) struct LastConnect {
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
    pub(super) fn new(wire: RwSignal<WireLog>, id: String) -> Self {
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
            memory: Memory::new(),
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
            warm_up: false,
            kept: StoredValue::new_local(Vec::new()),
            handed: StoredValue::new_local(Handed::default()),
        }
    }

    /// A warm-up's connection (`warm_up.rs`): it compiles the page's paths, starts no warm-up
    /// of its own, and runs on the manager its connect is given.
    pub(super) fn new_warm_up(wire: RwSignal<WireLog>, id: String) -> Self {
        Self {
            warm_up: true,
            ..Self::new(wire, id)
        }
    }

    /// The connection's id in the manager (its entry's stable id).
    pub fn id(&self) -> String {
        self.id.get_value()
    }

    /// How many server messages outside answers this connection has heard (an MCP App's
    /// cached resource is read again once one came after it).
    pub fn events_seen(&self) -> u64 {
        self.events_seen.get_value()
    }

    /// What a chunk keeps for this connection, of its own type `T` (made empty on first use).
    pub(super) fn kept<T: Default + 'static>(self) -> Rc<T> {
        let found = self.kept.with_value(|all| of_type::<T>(all));
        found.unwrap_or_else(|| {
            let made = Rc::new(T::default());
            self.kept.update_value(|all| all.push(made.clone()));
            made
        })
    }

    /// What a chunk keeps for this connection, if it keeps anything and the connection is
    /// still in the page (its server not removed).
    pub(super) fn kept_if_any<T: 'static>(self) -> Option<Rc<T>> {
        self.kept.try_with_value(|all| of_type::<T>(all)).flatten()
    }

    /// One of its MCP Apps came into the page.
    pub(super) fn register_app(self, app: LiveApp) {
        self.kept::<LiveApps>().register(app);
    }

    /// Its frame `frame` left the page.
    pub(super) fn unregister_app(self, frame: &str) {
        if let Some(apps) = self.kept_if_any::<LiveApps>() {
            apps.unregister(frame);
        }
    }

    /// Whether one of its MCP Apps (of `tool`, if given) is in the page.
    pub(super) fn has_apps(self, tool: Option<&str>) -> bool {
        self.kept_if_any::<LiveApps>()
            .is_some_and(|apps| !apps.of(tool).is_empty())
    }

    /// Tears down its MCP Apps (only `tool`'s, if given) and waits for their answers, briefly
    /// (`live_apps::close`), before what takes their frames away.
    pub(super) async fn close_apps(self, tool: Option<&str>) {
        let apps = self.kept_if_any::<LiveApps>();
        live_apps::close(apps.map(|apps| apps.of(tool)).unwrap_or_default()).await;
    }

    /// Hands in what connects ask of the sign-in chunk (see [`SignInCalls`]).
    pub(super) fn hand_sign_in(self, calls: SignInCalls) {
        self.handed
            .update_value(|handed| handed.sign_in = Some(calls));
    }

    /// Hands in how a subscribed resource's panel reads it again (the panel chunk does, when
    /// it makes a panel).
    pub(super) fn on_resource_updated(self, refresh: fn(Connection, String)) {
        self.handed
            .update_value(|handed| handed.resource_refresh = Some(refresh));
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
            if let Some(calls) = self.handed.with_value(|handed| handed.sign_in) {
                (calls.refused)(self);
            }
        }
    }

    /// Connects with `config` and the sign-in client `identity`: through this server's
    /// authorization when it has one or one is asked for (a client typed, tokens remembered:
    /// the sign-in chunk makes it, `calls.prepare`), else at once without.
    pub(super) fn connect_as(
        self,
        config: ClientConfig,
        identity: Identity,
        known_handshake: RwSignal<bool>,
        calls: SignInCalls,
    ) {
        self.hand_sign_in(calls);
        self.refusal.set_value(None);
        self.last_connect.set_value(Some(LastConnect {
            config: config.clone(),
            identity: identity.clone(),
            known_handshake,
        }));
        let own_token = config.bearer_token.is_some();
        if own_token && self.signin.get_value() {
            // The person's own token: the sign-in goes.
            (calls.forget)(self);
        }
        let wants = !own_token
            && (self.signin.get_value()
                || identity.wants_sign_in()
                || (identity.remember && has_remembered_tokens(&self.id.get_value())));
        if wants {
            self.status.set(Status::Connecting);
            spawn_local(async move {
                if let Some(config) = (calls.prepare)(self, config, identity, known_handshake).await
                {
                    self.connect_now(config, known_handshake);
                }
            });
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
        let Some(calls) = self.handed.with_value(|handed| handed.sign_in) else {
            return; // a warm-up's: never signed in, never refused
        };
        if self.signin.get_value() {
            (calls.settled)(self);
        } else if refused {
            (calls.refused)(self);
        }
    }

    /// Connects (in the session chunk: `lazy::connect_settings`, `lazy::embed_connect`);
    /// `known_handshake` learns whether the server refused `server/discover`, so the next
    /// connect (with Auto) skips that round trip.
    pub(super) fn connect_now(self, config: ClientConfig, known_handshake: RwSignal<bool>) {
        spawn_local(self.connect_on(manager(), config, known_handshake));
    }

    /// Connects through `manager` (the app's, or the warm-up's): the status at once, the
    /// session in the future returned.
    pub(super) fn connect_on(
        self,
        manager: Manager,
        config: ClientConfig,
        known_handshake: RwSignal<bool>,
    ) -> impl std::future::Future<Output = ()> {
        let auto = config.version == VersionChoice::Auto;
        let url = config.url.clone();
        if self.warm_up {
            self.handed
                .update_value(|handed| handed.manager = Some(manager.clone()));
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
                task_rows::upsert(self.tasks, task.into(), None, None);
                return;
            }
            ClientEvent::ExtensionTaskStatus(task) => {
                // A notification (in the events list) or a task the client follows itself.
                task_rows::upsert(self.tasks, task, None, None);
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
                        if let Some(refresh) =
                            self.handed.with_value(|handed| handed.resource_refresh)
                        {
                            refresh(self, uri.to_owned());
                        }
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
    async fn list_more(
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

    /// Disconnects, in the session chunk (`lazy::connect::disconnect` brings it).
    pub(super) fn disconnect_now(self) {
        self.disconnect_then(|| {});
    }

    /// Disconnects, and calls `ended` once the session has ended (its DELETE answered), before
    /// the status says so.
    pub(super) fn disconnect_then(self, ended: impl FnOnce() + 'static) {
        self.next_generation();
        spawn_local(async move {
            // Its MCP Apps are torn down first (their answers awaited, briefly): an app may
            // still call the server while it cleans up.
            self.close_apps(None).await;
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
        let manager = self
            .handed
            .with_value(|handed| handed.manager.clone())
            .unwrap_or_else(manager);
        manager.client(&id).ok()
    }

    /// A warm-up's connection (see `warm_up.rs`): it compiles the page's paths, and starts no
    /// warm-up of its own.
    pub fn is_warm_up(&self) -> bool {
        self.warm_up
    }
}

/// The value of type `T` among what the chunks keep for a connection.
fn of_type<T: 'static>(all: &[Rc<dyn Any>]) -> Option<Rc<T>> {
    all.iter()
        .find_map(|kept| Rc::clone(kept).downcast::<T>().ok())
}

/// The connection from context; every panel lives under the app or the embed view.
pub fn use_connection() -> Connection {
    expect_context::<Connection>()
}
