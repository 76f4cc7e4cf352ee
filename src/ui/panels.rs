//! A connected server's panels (session chunk): the link's problems, the sign-in, the server's
//! details, its tabs (tools, prompts, resources, tasks, skills), the share dialog, its requests
//! and events. The tabs' own views come from their chunks (`lazy::views`, `lazy::signin`).

use super::address;
use super::browse::model::Kind;
use super::browse::{link_missing, open_linked, Browser};
use super::events::EventsPanel;
use super::lazy::signin::SignIn;
use super::lazy::views::{ServerRequests, Share, Skills, Tasks};
use super::server_info::ServerInfo;
use super::servers::Settings;
use super::store::use_connection;
use leptos::prelude::*;

/// What the server's view (`app::ServerView`) shows of a session: the server, its tabs, its requests and events.
/// In the session chunk (`lazy::session::SessionPanels`).
pub(super) fn session_panels() -> AnyView {
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
        connection.server().with(|state| {
            state
                .as_ref()
                .is_some_and(|state| state.info.capabilities.supports_skills())
        })
    };
    // The Tasks tab is there when the server declares tasks, in either shape (or some task
    // was seen).
    let has_tasks = move || {
        connection.server().with(|state| {
            state
                .as_ref()
                .is_some_and(|state| state.info.capabilities.supports_tasks())
        }) || connection.server().with(Option::is_some)
            && (connection
                .client()
                .is_some_and(|client| client.server_tasks().declared)
                || connection.tasks().with(|rows| !rows.is_empty()))
    };
    // A linked tool, prompt or resource opens in its tab once the server lists it.
    if connection.take_link_pending() {
        let search = web_sys::window()
            .and_then(|w| w.location().search().ok())
            .unwrap_or_default();
        let linked = address::parse_link(&search);
        connection.set_link(
            linked.target.map(|target| (target, linked.args)),
            linked.problems,
        );
    }
    // What could not be used of the link (arguments that are not JSON, say) is said, never
    // silently dropped, until the person dismisses it.
    let link_problems = move || {
        (!connection.link_problems().with(Vec::is_empty)).then(|| view! {
            <div id="link-problems" class="link-problems" role="alert">
                <ul>
                    {connection.link_problems().get().into_iter().map(|p| view! { <li class="warning">{p}</li> }).collect_view()}
                </ul>
                <button id="dismiss-link-problems" type="button" class="secondary" on:click=move |_| {
                    connection.dismiss_link_problems();
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
        let opened = connection.server().with(|state| {
            let state = state.as_ref()?;
            let (target, args) = connection.linked()?;
            match open_linked(connection.memory(), state, &target, args.as_ref()) {
                Some(kind) => Some(Ok(kind)),
                None => link_missing(state, &target).map(Err),
            }
        });
        match opened {
            Some(Ok(kind)) => {
                connection.link_done();
                tab.set(Some(kind));
            }
            // Not there: said with the link's other problems, not silently ignored.
            Some(Err(missing)) => {
                connection.link_missing(missing);
            }
            None => {}
        }
    });
    // The share dialog is the full app's (the embed view has no settings to share from).
    let settings = use_context::<Settings>();
    // Open for the tab in view (what it shares is read in the dialog's chunk).
    let sharing = RwSignal::new(None::<Option<Kind>>);
    let open_share = move |_| {
        if settings.is_some() {
            sharing.set(Some(tab.get_untracked()));
        }
    };
    view! {
        {link_problems}
        <SignIn/>
        <Show when=move || connection.server().with(Option::is_some)>
            <ServerInfo/>
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
            {move || sharing.get().and_then(|kind| Some(view! { <Share settings=settings? connection kind open=sharing/> }))}
            {move || match tab.get() {
                _ if skills.get() => view! { <Skills/> }.into_any(),
                Some(kind) => view! { <Browser kind/> }.into_any(),
                None => view! { <Tasks/> }.into_any(),
            }}
        </Show>
        <ServerRequests/>
        <EventsPanel/>
    }
    .into_any()
}
