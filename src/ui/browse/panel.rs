//! One item's panel (a tool, prompt or resource): its form, its action and the result, and
//! what each item's panel remembers while the server stays connected ([`PanelState`], kept
//! in the connection's [`Memory`]). In the panel chunk (`lazy::ItemPanel`): the list of a
//! connected server is drawn without it, and it is fetched while the list is shown.

use super::model::{EmbedAsk, EmbedCall, Item, Kind, Memory};
use super::outcome::{outcome_size, outcome_to_draw, Outcome, LARGE_RESULT_BYTES};
use super::outcome_view::OutcomeView;
use super::panel_state::{Job, PanelState};
use super::run::{run, set_subscription, Run};
use crate::client::browser::timer::{after_paint, sleep};
use crate::protocol::era::{needs_handshake_era, VersionChoice, HANDSHAKE, MODERN};
use crate::protocol::error::{reveal_controls, reveal_in_prose};
use crate::protocol::mcp::{decode_result, TOOLS_CALL};
use crate::schema::uri_template::{expand_arguments, UriTemplate};
use crate::ui::address::{Target, TargetKind};
use crate::ui::form::{FormState, SchemaForm};
use crate::ui::lazy::apps::mcp_app;
use crate::ui::lazy::connect::connect_settings;
use crate::ui::store::{use_connection, Connection};
use crate::ui::warm_up::{end_warm_up, warm_up_connection, warm_up_manager};
use leptos::prelude::*;
use leptos::task::spawn_local;
use rmcp::model::CallToolResult;
use serde_json::{Map, Value};

impl Memory {
    /// The state of an item's panel, made on first use (and again when its form's schema
    /// changed on the server); a new one's form starts from a link's arguments when there are
    /// some ([`Memory::link_args`]).
    fn panel(&self, kind: Kind, item: &Item) -> PanelState {
        let key = (kind as usize, item.key.clone());
        self.panels
            .try_update_value(|panels| {
                if let Some(state) = panels.states.get(&key) {
                    if state.is_for(&item.form) {
                        return *state;
                    }
                }
                let state = panels.owner.with(|| PanelState::new(item.form.clone()));
                if let (Some(form), Some(args)) = (state.form, panels.linked.remove(&key)) {
                    form.fill(&Value::Object(args));
                } else if let Some(last) = panels.previous.remove(&key) {
                    // Typed in the last session (a Disconnect and Connect): kept as it was.
                    if let (Some(form), Some(old), true) =
                        (state.form, last.form, last.is_for(&item.form))
                    {
                        form.take_from(&old);
                    }
                }
                panels.states.insert(key, state);
                state
            })
            .unwrap_or_else(|| PanelState::new(item.form.clone()))
    }
}

impl Memory {
    /// The selected item of a tab and what its form holds now (as entered, unchecked), for
    /// the share dialog.
    pub fn current(&self, kind: Kind) -> Option<(String, Option<Map<String, Value>>)> {
        let key = self
            .selected
            .with_untracked(|keys| keys[kind as usize].clone())?;
        let state = self
            .panels
            .try_with_value(|panels| panels.states.get(&(kind as usize, key.clone())).copied())
            .flatten();
        let args = state
            .and_then(|state| state.form)
            .and_then(|form| form.current_arguments());
        Some((key, args))
    }

    /// The server says a resource changed: when subscribed to it, read it again and mark the
    /// panel ("updated at HH:MM:SS"), whether or not the panel is shown.
    pub fn resource_updated(&self, connection: Connection, uri: &str) {
        let key = (Kind::Resources as usize, uri.to_owned());
        let Some(Some(state)) = self
            .panels
            .try_with_value(|panels| panels.states.get(&key).copied())
        else {
            return;
        };
        if !state.subscribed.get_untracked() {
            return;
        }
        let Some(client) = connection.client() else {
            return;
        };
        let uri = uri.to_owned();
        spawn_local(async move {
            let read = client.read_resource(&uri).await;
            if !state.subscribed.try_get_untracked().unwrap_or(false) {
                return; // unsubscribed (or a new session) meanwhile
            }
            state.outcome.set(Some(match read {
                Ok(read) => Outcome::Resource(read),
                Err(error) => Outcome::Failed(error.to_string()),
            }));
            state.updated_at.set(Some(clock_time()));
            state.updates.update(|n| *n += 1);
            state.runs.update(|n| *n += 1);
        });
    }
}

/// The local time of day, HH:MM:SS.
fn clock_time() -> String {
    let now = js_sys::Date::new_0();
    format!(
        "{:02}:{:02}:{:02}",
        now.get_hours(),
        now.get_minutes(),
        now.get_seconds()
    )
}

/// How long typing must pause before completions are asked for.
const COMPLETION_PAUSE_MS: u32 = 200;

/// Asks the server for completions of each prompt argument as it is typed (when the server
/// offers completions), and shows them as the input's suggestions.
fn suggest_completions(connection: Connection, prompt: String, form: FormState) {
    let offered = connection.server().with_untracked(|state| {
        state
            .as_ref()
            .is_some_and(|s| s.info.capabilities.completions.is_some())
    });
    if !offered {
        return;
    }
    for (argument, value) in form.text_fields() {
        let prompt = prompt.clone();
        // Bumped on every keystroke: a request waits until typing pauses, and an answer
        // to older text than what is typed now is dropped.
        let typing = StoredValue::new(0u64);
        Effect::new(move |previous: Option<String>| {
            let typed = value.get();
            if previous.as_ref() != Some(&typed) {
                typing.update_value(|n| *n += 1);
                let this = typing.get_value();
                let current = move || typing.try_get_value() == Some(this);
                if let Some(client) = connection.client() {
                    let (prompt, argument, text) =
                        (prompt.clone(), argument.clone(), typed.clone());
                    spawn_local(async move {
                        sleep(COMPLETION_PAUSE_MS).await;
                        if !current() {
                            return;
                        }
                        if let Ok(values) = client
                            .complete_prompt_argument(&prompt, &argument, &text)
                            .await
                        {
                            if current() {
                                form.suggest(&argument, values);
                            }
                        }
                    });
                }
            }
            typed
        });
    }
}

/// V8 compiles each wasm function at its first call, so a page's first tool call would wait
/// for the code of checking its form and of reading its result to compile (a few ms each way
/// on a slow machine). When a tool's panel opens, that code runs once after the panel's first
/// paint, on harmless inputs, its results dropped: the form's check on what it holds, decoding a small
/// result and drawing it into elements that are never attached to the page. Nothing is sent,
/// shown or kept. Once per page for
/// each part (the form's check waits for a tool with a form).
fn warm_up(form: Option<FormState>) {
    use std::cell::Cell;
    thread_local! {
        static RESULT: Cell<bool> = const { Cell::new(false) };
        static FORM: Cell<bool> = const { Cell::new(false) };
    }
    let result = !RESULT.with(|done| done.replace(true));
    let form = form.filter(|_| !FORM.with(|done| done.replace(true)));
    if !result && form.is_none() {
        return;
    }
    spawn_local(async move {
        after_paint().await;
        if let Some(form) = form {
            form.check_unseen();
        }
        if result {
            let sample = serde_json::json!({ "content": [{ "type": "text", "text": "warm" }] });
            if let Ok(sample) = decode_result::<CallToolResult>(TOOLS_CALL, sample) {
                crate::ui::warm_up::draw_detached(|| {
                    let outcome = Outcome::Tool(sample);
                    view! { <OutcomeView id=None outcome output_schema=None/> }
                });
            }
            crate::ui::content::warm_up();
        }
    });
}

/// The tool call's warm-up connection id (a server entry's id is made of a time and a number).
const WARM_UP_CALL_ID: &str = "warm-up-call";

/// A warm-up connection's tools tab with a tool opened by a link (`browse::warm_up_tools`),
/// handed to [`warm_up_call`] by the list, which this chunk does not import.
pub(in crate::ui) type ToolsTab = fn(Connection, Target, Map<String, Value>) -> Option<AnyView>;

/// V8 compiles each wasm function at its first call, so the page's first tool call waited for
/// the code of its own path to compile: the Run click's handler, the panel's task, the client's
/// call, reading its answer, and the effects that show "Working…", the Cancel button and the
/// result (a few milliseconds each way on a slow machine, more than the call itself; [`warm_up`]
/// covers only the form's check and drawing a result). Once per page, in idle time after a
/// server's tools are first drawn, a tool call runs through that same code: a connection of its
/// own connects to the in-memory server (`client::warm_up`: nothing is sent), its tools tab is
/// drawn with the echo tool's panel into an element never attached to the page, its form filled
/// as a link's arguments fill it and its Run button clicked; once the result is drawn,
/// everything is dropped. Nothing is sent, shown or kept (its wire log and events are its own).
pub(in crate::ui) fn warm_up_call(tools_tab: ToolsTab) {
    use crate::client::browser::timer::idle;
    use leptos::tachys::view::{Mountable, Render};
    use std::cell::Cell;
    use wasm_bindgen::JsCast;
    thread_local! {
        static DONE: Cell<bool> = const { Cell::new(false) };
    }
    if DONE.with(|done| done.replace(true)) {
        return;
    }
    spawn_local(async move {
        idle().await;
        let manager = warm_up_manager();
        let (owner, connection) = warm_up_connection(&manager, WARM_UP_CALL_ID).await;
        idle().await;
        // The echo tool's panel, its form filled as a link's arguments fill it.
        let target = Target {
            kind: TargetKind::Tool,
            name: "echo".to_owned(),
        };
        let mut args = Map::new();
        args.insert("message".to_owned(), Value::from("warm"));
        let drawn = owner.with(|| {
            provide_context(connection);
            let tab = tools_tab(connection, target, args)?;
            let container = document().create_element("div").ok()?;
            let mut view = tab.build();
            view.mount(&container, None);
            Some((container, view))
        });
        if let Some((container, _view)) = &drawn {
            let find = |selector: &str| container.query_selector(selector).ok().flatten();
            if let Some(run) =
                find("#run-tool").and_then(|run| run.dyn_into::<web_sys::HtmlElement>().ok())
            {
                run.click();
                // The in-memory server answers in a later task; the result is drawn soon after.
                for _ in 0..200 {
                    sleep(5).await;
                    let runs =
                        find("#tool-panel").and_then(|panel| panel.get_attribute("data-runs"));
                    if runs.as_deref().is_some_and(|runs| runs != "0") {
                        break;
                    }
                }
            }
        }
        drop(drawn);
        end_warm_up(owner, &manager, WARM_UP_CALL_ID).await;
    });
}

#[component]
fn Panel(kind: Kind, item: Item, state: PanelState) -> impl IntoView {
    let connection = use_connection();
    let embed_ask = use_context::<EmbedAsk>();
    let (_, panel_id, button_id, result_id) = kind.ids();
    if kind == Kind::Tools {
        warm_up(state.form);
    }
    let PanelState {
        form,
        action,
        pending,
        outcome,
        runs,
        running,
        expanded,
        subscribed,
        updates,
        updated_at,
        ..
    } = state;
    // A concrete resource of a server that offers subscriptions gets a toggle.
    let subscribable = kind == Kind::Resources
        && item.template.is_none()
        && connection.server().with_untracked(|state| {
            state.as_ref().is_some_and(|s| {
                s.info
                    .capabilities
                    .resources
                    .as_ref()
                    .and_then(|r| r.subscribe)
                    == Some(true)
            })
        });
    let not_callable = if kind == Kind::Tools {
        connection
            .client()
            .and_then(|client| client.tool_not_callable(&item.key))
    } else {
        None
    };
    let uri = item.key.clone();
    // Not an `Action` like the panel's own: a second one cost the panel's chunk 2.6 KB gzip,
    // for a flag no one else reads.
    let toggling = RwSignal::new(false);
    let toggle_subscription = move |_| {
        if let Some(client) = connection.client() {
            let subscription = set_subscription(client, uri.clone(), !subscribed.get_untracked());
            toggling.set(true);
            spawn_local(async move {
                let (now, refused) = subscription.await;
                subscribed.set(now);
                if refused.is_some() {
                    outcome.set(refused);
                }
                toggling.set(false);
            });
        }
    };
    // A result of megabytes lives as long as this view: when it closes, it is let go.
    on_cleanup(move || {
        let large = outcome.try_with_untracked(|outcome| {
            outcome
                .as_ref()
                .map(|outcome| outcome_size(outcome, LARGE_RESULT_BYTES))
                .filter(|&size| size > LARGE_RESULT_BYTES)
        });
        if let Some(Some(size)) = large {
            outcome.try_set(Some(Outcome::Released(size)));
        }
    });
    let output_schema = item.output_schema.clone();
    // The tool's MCP App for the last result (a new run replaces it).
    let app = RwSignal::new(None::<crate::ui::apps::AppCall>);
    let ui = item.ui.clone();
    if let (Kind::Prompts, Some(form)) = (kind, form) {
        suggest_completions(connection, item.key.clone(), form);
    }
    // "View app": the tool's app on its own, without calling the tool (no input, no result).
    let view_app = {
        let (tool, uri) = (item.key.clone(), item.ui.clone());
        move |_| {
            let (tool, Some(uri)) = (tool.clone(), uri.clone()) else {
                return;
            };
            spawn_local(async move {
                connection.close_apps(Some(&tool)).await;
                let _ = app.try_set(None);
                let _ = app.try_set(Some(crate::ui::apps::AppCall {
                    connection,
                    tool,
                    uri,
                    arguments: Map::new(),
                    result: None,
                    call_id: None,
                }));
            });
        }
    };
    let has_app = kind == Kind::Tools && item.ui.is_some();
    let key = item.key.clone();
    let template = item.template.clone();
    let act = move |_| {
        if pending.get_untracked() {
            return;
        }
        let arguments = match form {
            Some(form) => match form.arguments() {
                Some(arguments) => arguments,
                None => return,
            },
            None => Map::new(),
        };
        if let Some(ask) = embed_ask.filter(|ask| !ask.confirmed.get_untracked()) {
            ask.asking.set(Some(EmbedCall {
                what: format!("the {} {}", kind.noun(), reveal_controls(&key)),
                arguments: serde_json::to_string_pretty(&arguments).unwrap_or_default(),
                button: button_id,
            }));
            return;
        }
        let Some(client) = connection.client() else {
            outcome.set(Some(Outcome::Failed("Not connected.".to_owned())));
            return;
        };
        let key = match &template {
            Some(template) => {
                let uri = expand_arguments(&UriTemplate::parse(template), &arguments);
                expanded.set(Some(uri.clone()));
                uri
            }
            None => key.clone(),
        };
        // The request is spawned as the action is dispatched, before it is pending, so it
        // leaves before the effects that show "Working…" run (`panel_state::started`).
        action.dispatch_local(Job::new(run(Run {
            connection,
            client,
            kind,
            key,
            ui: ui.clone(),
            arguments,
            app,
            running,
        })));
    };
    let cancel = move |_| {
        if let (Some(client), Some(id)) = (connection.client(), running.get_untracked()) {
            client.cancel(&id);
        }
    };
    // Progress reported for the call in flight.
    let progress = move || {
        let id = running.get()?;
        connection
            .progress()
            .get()
            .filter(|progress| progress.request == id)
    };
    // A server that says this needs the earlier era (on a 2026-07-28 connection): offered a
    // reconnect pinned to the newest handshake version, with this panel and its form kept.
    let settings = use_context::<crate::ui::servers::Settings>();
    let era_offer = Memo::new(move |_| {
        let modern = connection.server().with(|state| {
            state
                .as_ref()
                .is_some_and(|state| state.info.protocol_version.to_string() == MODERN)
        });
        settings.is_some()
            && modern
            && outcome.with(|outcome| outcome.as_ref().is_some_and(says_needs_handshake_era))
    });
    let reconnect_earlier = move |_| {
        if let Some(settings) = settings {
            settings.version.set(VersionChoice::Pinned(HANDSHAKE[0]));
            connect_settings(connection, settings, RwSignal::new(None));
        }
    };
    let heading = NodeRef::<leptos::html::H2>::new();
    Effect::new(move |_| {
        if let Some(heading) = heading.get() {
            reveal_picked(heading);
        }
    });
    view! {
        <div id=panel_id class="panel" data-runs=move || runs.get()>
            <h2 tabindex="-1" node_ref=heading>{reveal_controls(&item.title)} {(item.title != item.key && kind != Kind::Resources).then(|| view! { <code class="muted">{reveal_controls(&item.key)}</code> })}</h2>
            {item.detail.map(|d| view! { <p><code>{d}</code></p> })}
            {item.description.map(|d| view! { <p class="description">{reveal_in_prose(&d)}</p> })}
            {form.map(|state| super::kept::kept_draft(state, kind, item.key.clone()))}
            {form.map(|state| view! { <SchemaForm state/> })}
            {match not_callable {
                // SEP-2243: a tool whose x-mcp-header annotations are invalid is not called.
                Some(why) => view! {
                    <p id="tool-not-callable" class="error">"Not offered for calling: " {why}</p>
                }.into_any(),
                // Not `disabled` while it works: a disabled button loses the focus (to the
                // page's body), and a keyboard user would have to find their way back.
                None => view! {
                    <button id=button_id on:click=act aria-disabled=move || pending.get().to_string()>
                        {move || if pending.get() { "Working…" } else { kind.button_label() }}
                    </button>
                }.into_any(),
            }}
            <Show when=move || running.with(Option::is_some)>
                <button id="cancel-request" class="secondary" on:click=cancel>"Cancel"</button>
            </Show>
            {has_app.then(|| view! {
                <button id="view-app" class="secondary" title="Open the tool's MCP App on its own, without calling the tool"
                    on:click=view_app disabled=move || pending.get()>"View app"</button>
            })}
            {subscribable.then(|| view! {
                <button id="subscribe-resource" class="secondary" data-subscribed=move || subscribed.get().to_string()
                    on:click=toggle_subscription disabled=move || toggling.get()>
                    {move || if subscribed.get() { "Unsubscribe" } else { "Subscribe" }}
                </button>
            })}
            {move || updated_at.get().map(|time| view! {
                <p id="resource-updated" class="updated" data-updates=move || updates.get()>
                    {format!("updated at {time}")}
                </p>
            })}
            {move || progress().map(|p| {
                let label = match (p.total, &p.message) {
                    (Some(total), Some(message)) => format!("{} / {total}: {message}", p.progress),
                    (Some(total), None) => format!("{} / {total}", p.progress),
                    (None, Some(message)) => format!("{}: {message}", p.progress),
                    (None, None) => p.progress.to_string(),
                };
                view! {
                    <div id="progress" class="progress">
                        <progress max=p.total.unwrap_or(0.0) value=p.progress></progress>
                        <span class="progress-label">{label}</span>
                    </div>
                }
            })}
            {move || expanded.get().map(|uri| view! { <p class="expanded-uri">"Reading " <code>{uri}</code></p> })}
            // While a new action runs, the last result stays visible but marked as previous.
            // The region is there before any result, so a screen reader announces each one.
            <div class="outcome-live" aria-live="polite" aria-busy=move || pending.get().to_string()>
            {move || outcome_to_draw(outcome).map(|outcome| view! {
                <div class="outcome" class:previous=move || pending.get()>
                    <Show when=move || pending.get()>
                        <p class="muted previous-note">"Previous result; the new one is on its way."</p>
                    </Show>
                    <OutcomeView id=Some(result_id) outcome output_schema=output_schema.clone()/>
                </div>
            })}
            </div>
            {move || era_offer.get().then(|| view! {
                <p class="era-offer">
                    "The server says this needs the earlier protocol era. "
                    <button id="reconnect-earlier-era" type="button" class="secondary" on:click=reconnect_earlier>
                        {format!("Reconnect with {}", HANDSHAKE[0])}
                    </button>
                </p>
            })}
            {move || app.get().map(mcp_app)}
        </div>
    }
}

/// Whether an outcome is the server saying that what was asked needs the handshake era.
fn says_needs_handshake_era(outcome: &Outcome) -> bool {
    match outcome {
        Outcome::Failed(message) => needs_handshake_era(message),
        Outcome::Tool(result) if result.is_error == Some(true) => result
            .content
            .iter()
            .any(|c| c.as_text().is_some_and(|t| needs_handshake_era(&t.text))),
        _ => false,
    }
}

/// A panel just opened from its list (the focus is on a row) but drawn out of view, as below
/// the list on a phone: it is scrolled into view and its heading takes the focus.
fn reveal_picked(heading: web_sys::HtmlHeadingElement) {
    use wasm_bindgen::JsCast;
    let picked = document()
        .active_element()
        .is_some_and(|active| active.matches("ul.items li.item").unwrap_or(false));
    if !picked {
        return;
    }
    request_animation_frame(move || {
        let height = window()
            .inner_height()
            .ok()
            .and_then(|h| h.as_f64())
            .unwrap_or(0.0);
        let rect = heading.get_bounding_client_rect();
        if rect.top() >= 0.0 && rect.bottom() <= height {
            return; // in view beside the list: the focus stays on the row
        }
        heading.scroll_into_view_with_bool(true);
        let _ = heading.unchecked_ref::<web_sys::HtmlElement>().focus();
    });
}

/// A subscribed resource changed (the store's tap heard `notifications/resources/updated`): its
/// panel reads it again, in a task of its own. Handed to the store by each panel made.
fn refresh_resource(connection: Connection, uri: String) {
    spawn_local(async move { connection.memory().resource_updated(connection, &uri) });
}

/// An item's panel (`lazy::ItemPanel`): its state from the connection's memory, its form
/// filled from a link's `args` when it is first made; in the embed view (`report`) the host
/// page hears of each result (the name and whether it failed, no content).
pub(in crate::ui) fn item_panel(
    kind: Kind,
    item: Item,
    args: Option<Map<String, Value>>,
    report: bool,
) -> AnyView {
    let connection = use_connection();
    if !connection.memory().has_panel(kind, &item.key) {
        connection
            .memory()
            .link_args(kind, &item.key, args.as_ref());
    }
    let state = connection.memory().panel(kind, &item);
    connection.on_resource_updated(refresh_resource);
    if report {
        let key = item.key.clone();
        Effect::new(move |seen: Option<usize>| {
            let runs = state.runs.get();
            if seen.is_some_and(|seen| seen != runs) {
                let failed = state
                    .outcome
                    .with_untracked(|outcome| outcome.as_ref().is_some_and(Outcome::failed));
                crate::ui::embed_host::post_result(kind.target(), &key, failed);
            }
            runs
        });
    }
    view! { <Panel kind item state/> }.into_any()
}
