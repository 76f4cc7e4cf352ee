//! A tool's MCP App drawn ([`McpApp`]): the frame, its permissions asked of the person, its
//! display mode, and what the page noticed of it.

use super::bridge::*;
use super::host_js::*;
use super::model::*;
use super::resource::*;
use crate::protocol::apps::message::{
    container_for, Dimension, DisplayMode, Layout, INLINE_MAX_HEIGHT,
};
use crate::protocol::apps::{AppSession, Permissions};
use crate::protocol::error::reveal_controls;
use crate::ui::servers::Settings;
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::collections::VecDeque;

/// The permissions an app may ask for, as the person reads them.
pub(super) const PERMISSION_NAMES: [(&str, &str); 4] = [
    ("camera", "Camera"),
    ("microphone", "Microphone"),
    ("geolocation", "Location"),
    ("clipboard-write", "Write to the clipboard"),
];

/// A tool's app, framed beside its result (or on its own, from "View app").
#[component]
pub fn McpApp(call: AppCall) -> impl IntoView {
    let connection = call.connection;
    let server = use_context::<Settings>()
        .map(|settings| settings.name.get_untracked())
        .unwrap_or_default();
    let preview = call.result.is_none();
    let host = Host {
        connection,
        server: StoredValue::new(server),
        uri: StoredValue::new(call.uri.clone()),
        tool: StoredValue::new(call.tool.clone()),
        call: StoredValue::new_local(call.clone()),
        stage: RwSignal::new(Stage::Reading),
        ready: RwSignal::new(false),
        session: StoredValue::new(None),
        frame: NodeRef::new(),
        frame_id: StoredValue::new(NEXT_FRAME.with(|n| {
            n.set(n.get() + 1);
            n.get().to_string()
        })),
        load: StoredValue::new(None),
        height: RwSignal::new(None),
        width: RwSignal::new(None),
        mode: RwSignal::new(DisplayMode::Inline),
        layout: RwSignal::new(Layout::default()),
        resource: StoredValue::new_local(None),
        requested: RwSignal::new(Permissions::default()),
        granted: RwSignal::new(Permissions::default()),
        allow: RwSignal::new(String::new()),
        notes: RwSignal::new(VecDeque::new()),
        notes_seen: StoredValue::new(0),
        link: RwSignal::new(None),
        display_ask: RwSignal::new(None),
        in_flight: StoredValue::new(Vec::new()),
        frame_loads: StoredValue::new(0),
        foreign: StoredValue::new((0.0, 0)),
    };
    let live_id = host.frame_id.get_value();
    connection.register_app(crate::ui::live_apps::LiveApp {
        frame: live_id.clone(),
        tool: std::rc::Rc::new(move || host.tool.try_get_value().unwrap_or_default()),
        teardown: std::rc::Rc::new(move || host.teardown()),
        closing: std::rc::Rc::new(move || host.stage.try_get_untracked() == Some(Stage::Closing)),
    });
    // What the app may reach, the domains refused, and those on the person's machine or
    // network (warnings).
    let resource = RwSignal::new(None::<(String, Vec<String>, Vec<String>)>);
    {
        let call = call.clone();
        spawn_local(async move {
            let read = ui_resource(connection, &call.uri).await;
            if host.stage.try_get_untracked() != Some(Stage::Reading) {
                return; // closed (or gone) while it was read
            }
            match read {
                Ok(ui) => {
                    let rejected = ui
                        .csp
                        .rejected
                        .iter()
                        .map(|r| {
                            let list = r.list.map_or("csp", |list| list.key());
                            format!("{list}: {} ({})", r.entry, r.reason)
                        })
                        .collect();
                    let reach = if ui.csp.reaches_network() {
                        format!(
                            "May reach: {}",
                            [
                                ("connect", &ui.csp.connect),
                                ("resources", &ui.csp.resource),
                                ("frames", &ui.csp.frame),
                                ("base", &ui.csp.base_uri)
                            ]
                            .iter()
                            .filter(|(_, list)| !list.is_empty())
                            .map(|(what, list)| format!("{what} {}", list.join(" ")))
                            .collect::<Vec<_>>()
                            .join("; ")
                        )
                    } else {
                        "No network access (the app declares no domains).".to_owned()
                    };
                    let local = ui
                        .csp
                        .local_sources()
                        .iter()
                        .map(ToString::to_string)
                        .collect();
                    let _ = resource.try_set(Some((reach, rejected, local)));
                    if ui.permissions.any() {
                        // Nothing is framed until the person has chosen: the frame's `allow`
                        // cannot change once it exists.
                        host.requested.set(ui.permissions);
                        host.resource.set_value(Some(ui));
                        host.stage.set(Stage::Asking);
                    } else {
                        host.start(&ui, Permissions::default());
                    }
                }
                Err(reason) => {
                    let _ = host.stage.try_set(Stage::Failed(reason));
                }
            }
        });
    }
    let listener = window_event_listener(leptos::ev::message, move |event| host.on_message(event));
    // The theme or a size changed: the app is told (`apps_host`'s `watch`).
    let env_listener =
        window_event_listener_untyped("mcp-lens-app-env", move |_| host.env_changed());
    let listeners = StoredValue::new_local(Some((listener, env_listener)));
    on_cleanup(move || {
        if let Some(Some((listener, env_listener))) = listeners.try_update_value(Option::take) {
            listener.remove();
            env_listener.remove();
        }
        connection.unregister_app(&live_id);
        if let Some(Some(frame)) = host.frame.try_get_untracked() {
            apps_host("unwatch", &frame, "");
        }
        // The view is going without having been closed first (another tab, another server):
        // the app is told, though its frame goes with the view at once. A re-run, another
        // tool and a disconnect close it first (`close_apps`) and wait for its answer.
        if let Some(Some(Some(request))) = host
            .session
            .try_update_value(|s| s.as_mut().map(AppSession::teardown))
        {
            host.send(vec![request]);
        }
        host.with_session(AppSession::close);
    });
    let stage_text = move || match host.stage.get() {
        Stage::Reading => "Reading the app…".to_owned(),
        Stage::Asking => "Waiting for your decision on permissions".to_owned(),
        Stage::Framed if host.ready.get() => "Running".to_owned(),
        Stage::Framed => "Starting…".to_owned(),
        Stage::Closing => "Closing…".to_owned(),
        Stage::Closed => "Closed".to_owned(),
        Stage::Failed(_) => "Not shown".to_owned(),
    };
    let framed = move || matches!(host.stage.get(), Stage::Framed | Stage::Closing);
    let container = move || container_for(host.mode.get(), host.layout.get());
    // Set through the CSSOM (`style:`), which the page's policy allows; a `style` attribute
    // it would refuse (no 'unsafe-inline'). The frame gets what the app is told it gets.
    let frame_height = move || {
        let wanted = host.height.get().unwrap_or(DEFAULT_HEIGHT_PX);
        let px = match container().0 {
            Dimension::Fixed(px) => px,
            Dimension::Max(max) => wanted.min(max),
            Dimension::Unbounded => wanted.min(INLINE_MAX_HEIGHT),
        };
        format!("{px}px")
    };
    let frame_width = move || match container().1 {
        Dimension::Fixed(px) => format!("{px}px"),
        _ => String::new(),
    };
    // Inline, the app's width is a minimum within the panel (as the reference host): a fixed
    // width would outlive a narrower panel and clip the app.
    let frame_min_width = move || match (host.mode.get(), host.width.get()) {
        (DisplayMode::Inline, Some(w)) => format!("min({w}px, 100%)"),
        _ => String::new(),
    };
    // The modes the person may switch to now (the host offers them and the app, if it said,
    // supports them).
    let offered = move |mode: DisplayMode| {
        host.ready.get()
            && host.mode.get() == DisplayMode::Inline
            && host
                .session
                .try_with_value(|s| s.as_ref().is_some_and(|s| s.offers(mode)))
                .unwrap_or(false)
    };
    let granted_text = move || {
        let requested = host.requested.get();
        if !requested.any() || host.stage.get() == Stage::Asking {
            return None;
        }
        let granted = requested.intersect(host.granted.get());
        let list = |p: Permissions| p.features().join(", ");
        Some(if granted.any() {
            format!(
                "Permissions asked for: {}; granted: {}.",
                list(requested),
                list(granted)
            )
        } else {
            format!("Permissions asked for: {}; none granted.", list(requested))
        })
    };
    view! {
        <section class="mcp-app" data-stage=move || format!("{:?}", host.stage.get()).to_lowercase()
            aria-label="MCP App">
            <header class="mcp-app-head">
                <strong>"MCP App"</strong>
                <code class="app-uri">{reveal_controls(&call.uri)}</code>
                <span class="app-stage" role="status">{stage_text}</span>
                <Show when=move || offered(DisplayMode::Fullscreen)>
                    <button class="secondary app-mode" data-mode="fullscreen"
                        on:click=move |_| host.show_in(DisplayMode::Fullscreen)>"Full screen"</button>
                </Show>
                <Show when=move || offered(DisplayMode::Pip)>
                    <button class="secondary app-mode" data-mode="pip"
                        on:click=move |_| host.show_in(DisplayMode::Pip)>"Picture-in-picture"</button>
                </Show>
                <Show when=framed>
                    <button class="secondary app-close" on:click=move |_| host.teardown()>"Close app"</button>
                </Show>
            </header>
            {preview.then(|| view! {
                <p class="muted app-preview">"Viewed on its own: the tool was not called, so the app gets no tool input or result."</p>
            })}
            {move || resource.get().map(|(reach, rejected, local)| view! {
                <p class="muted app-reach">{reach}</p>
                {(!local.is_empty()).then(|| view! {
                    <ul class="app-local" role="alert">
                        {local.into_iter().map(|warning| view! { <li class="warning app-local-source">{format!("Warning: {warning}")}</li> }).collect_view()}
                    </ul>
                })}
                {(!rejected.is_empty()).then(|| view! {
                    <ul class="app-rejected">
                        {rejected.into_iter().map(|r| view! { <li class="error">{format!("Domain refused: {r}")}</li> }).collect_view()}
                    </ul>
                })}
            })}
            {move || granted_text().map(|text| view! { <p class="muted app-granted">{text}</p> })}
            {move || match host.stage.get() {
                Stage::Failed(reason) => Some(view! { <p class="error app-error" role="alert">{reason}</p> }.into_any()),
                Stage::Asking => Some(view! { <PermissionChoice host/> }.into_any()),
                _ => None,
            }}
            <Show when=framed>
                <div class="app-frame-box" data-mode=move || host.mode.get().as_str()>
                    <iframe class="app-frame" node_ref=host.frame data-app=host.frame_id.get_value() title="MCP App (sandboxed)"
                        sandbox="allow-scripts" allow=host.allow.with_untracked(|a| (!a.is_empty()).then(|| a.clone())) referrerpolicy="no-referrer" src=PROXY_URL
                        style:height=frame_height style:width=frame_width style:min-width=frame_min_width
                        on:load=move |_| host.frame_loaded()></iframe>
                    // After the frame, so showing it never moves the frame (which would reload
                    // it); drawn above it by CSS.
                    <Show when=move || host.mode.get() != DisplayMode::Inline>
                        <div class="app-mode-bar">
                            <strong>"MCP App"</strong>
                            <button class="secondary app-exit-mode" on:click=move |_| host.show_in(DisplayMode::Inline)>
                                {move || if host.mode.get() == DisplayMode::Fullscreen { "Exit full screen" } else { "Back inline" }}
                            </button>
                        </div>
                    </Show>
                </div>
            </Show>
            {move || host.display_ask.get().filter(|_| framed()).map(|(_, mode)| view! {
                <div class="app-display-ask card" role="alertdialog" aria-label="The app asks to change how it is shown">
                    <p>{format!("The app asks to be shown {}, though you did nothing in it just now. Allow it?", match mode {
                        DisplayMode::Fullscreen => "full screen, covering this page",
                        DisplayMode::Pip => "picture-in-picture",
                        DisplayMode::Inline => "inline",
                    })}</p>
                    <button class="app-display-allow" on:click=move |_| host.decide_display_mode(true)>"Allow"</button>
                    <button class="secondary app-display-decline" on:click=move |_| host.decide_display_mode(false)>"Keep it inline"</button>
                </div>
            })}
            {move || host.link.get().map(|(_, link)| view! {
                <div class="app-link card" role="alertdialog" aria-label="The app asks to open a link">
                    <p>"The app asks to open this link in a new tab:"</p>
                    <p><code class="app-link-url">{reveal_controls(&link.url)}</code></p>
                    <button class="app-link-open" on:click=move |_| host.decide_link(true)>"Open"</button>
                    <button class="secondary app-link-decline" on:click=move |_| host.decide_link(false)>"Decline"</button>
                </div>
            })}
            <AppNotes notes=host.notes/>
        </section>
    }
}

/// The permissions the app's resource asks for, each unticked: the frame is made with only
/// those the person ticks.
#[component]
pub(super) fn PermissionChoice(host: Host) -> impl IntoView {
    let requested = host.requested.get_untracked();
    let features = requested.features();
    let rows = PERMISSION_NAMES
        .iter()
        .filter(|(feature, _)| features.contains(feature))
        .map(|&(feature, name)| {
            let toggle = move |ev: leptos::ev::Event| {
                let on = event_target_checked(&ev);
                host.granted.update(|granted| granted.set(feature, on));
            };
            view! {
                <li><label>
                    <input type="checkbox" class="app-permission" data-permission=feature on:change=toggle/>
                    " " {name}
                </label></li>
            }
        })
        .collect_view();
    view! {
        <div class="app-permissions card" role="group" aria-label="Permissions the app asks for">
            <p>"The app asks for these permissions. It gets none unless you tick them:"</p>
            <ul>{rows}</ul>
            <button class="app-start" on:click=move |_| host.permissions_decided()>"Start the app"</button>
        </div>
    }
}

/// What the app said to the "chat" (there is none here: this is what one would receive),
/// its logs, and what the page noticed.
#[component]
pub(super) fn AppNotes(notes: RwSignal<VecDeque<Note>>) -> impl IntoView {
    let rows = move || notes.with(|notes| notes.iter().cloned().collect::<Vec<_>>());
    view! {
        <Show when=move || notes.with(|n| !n.is_empty())>
            <div class="app-notes">
                <h3>"From the app"</h3>
                <ul>
                    <For each=rows key=|note| note.seq let:note>
                        <li class="app-note" data-kind=note.kind>
                            <span class="app-note-title">{note.title}</span>
                            <pre class="app-note-text">{note.text}</pre>
                        </li>
                    </For>
                </ul>
            </div>
        </Show>
    }
}
