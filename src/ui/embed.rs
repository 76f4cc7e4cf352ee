//! The embed view (`?embed&url=...`, options in `address.rs`): one server without the
//! sidebar, for an iframe in a docs page. `EmbedView` is the embed chunk's shell (connect
//! button, status, problems with the address, "Open in mcp-lens"); what it shows of a session
//! is `embed_panels.rs`, in the session chunk with the full app's panels, which it reuses
//! (forms, results, server requests, errors).
//!
//! The parent page hears, by `postMessage` to `window.parent` only (targeted at the
//! referrer's origin when the browser tells it), `{source: "mcp-lens", type, ...}` with
//! `type` one of `height` (`height` in CSS pixels), `connected`, `error` and `result`
//! (`kind`, `name`, `isError`: the target the widget's author named): never a server's name,
//! an error's sentence or a result's content, which would tell any page that frames the widget
//! what answers at an address; never a secret (the embed has none).
//!
//! Since any page may frame it: an address on the person's machine or network is refused
//! unless the deployment allows it (`address::EmbedAllow`, checked in `config.rs`), and the first call shows what will run
//! (server origin, target, arguments) and waits for a second click (`browse::model::EmbedAsk`).
//! It hears one message, from its parent only: `{source: "mcp-lens-host", type: "measure"}`
//! (sent by `embed.js` when it starts, as it may load after the first `height`), answered
//! with its height.

use super::address::{self, Address};
use super::browse::model::EmbedAsk;
use super::embed_host::{post_connected, post_error, set_root_property, watch_height};
use super::lazy::connect::{disconnect, embed_connect};
use super::lazy::load::SessionChunk;
use super::lazy::session::{preload_after_paint, EmbedPanels};
use super::store::{Connection, Status};
use super::theme;
use crate::protocol::error::reveal_controls;
use crate::protocol::transport_choice::TransportChoice;
use crate::protocol::wire_log::WireLog;
use leptos::prelude::*;

/// The address's look: theme, and the host's accent and font size as custom properties
/// (validated values only: `Accent::css` and a number).
fn apply_look(address: &Address) {
    theme::apply(address.theme.key());
    if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute("data-embed", "");
    }
    if let Some(accent) = address.accent {
        set_root_property("--accent", &accent.css());
        set_root_property("--accent-fg", accent.foreground());
    }
    if let Some(size) = address.font_size {
        set_root_property("--font-size", &format!("{size}px"));
    }
}

/// The host part of a URL, as the widget's title before the server names itself.
fn host_of(url: &str) -> String {
    crate::client::saved::name_from_url(url)
}

#[component]
pub fn EmbedView() -> impl IntoView {
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    let address = address::parse(&search);
    apply_look(&address);
    let connection = Connection::new(RwSignal::new(WireLog::default()), "embed".to_owned());
    connection.link_to(address.target.clone().map(|t| (t, address.args.clone())));
    provide_context(connection);
    let chunk = SessionChunk::new();
    provide_context(chunk);
    preload_after_paint(chunk, None);

    let url = address.url.clone().unwrap_or_default();
    let transport = address
        .transport
        .as_deref()
        .and_then(TransportChoice::from_key)
        .unwrap_or_default();
    let known_handshake = RwSignal::new(false);
    let input_error = RwSignal::new(None::<String>);
    let connect = {
        let url = url.clone();
        move || {
            embed_connect(
                connection,
                url.clone(),
                transport,
                input_error,
                known_handshake,
            )
        }
    };
    if address.connect && address.url.is_some() {
        connect();
    }
    let status = connection.status();
    let error = move || input_error.get().or_else(|| connection.error().get());
    // The host page hears that the widget connected or failed, and nothing more: the server's
    // name or the error's sentence would tell any framing page which addresses answer.
    Effect::new(move |_| match status.get() {
        Status::Connected => post_connected(),
        Status::Failed => post_error(),
        _ => {}
    });
    // A connect refused before anything was sent (an unusable or private address) is a failure too.
    Effect::new(move |_| {
        if input_error.with(Option::is_some) {
            post_error();
        }
    });
    let title = {
        let host = host_of(&url);
        move || {
            connection
                .server()
                .with(|s| s.as_ref().map(|s| s.info.server_info.name.clone()))
                .unwrap_or_else(|| host.clone())
        }
    };
    // "Open in mcp-lens": the full app on the same server, tool and arguments.
    let open_link = {
        let full = Address {
            embed: false,
            connect: false,
            problems: Vec::new(),
            theme: address::Theme::System,
            accent: None,
            font_size: None,
            ..address.clone()
        };
        let path = web_sys::window()
            .and_then(|w| w.location().pathname().ok())
            .unwrap_or_default();
        format!("{path}{}", address::build(&full))
    };
    let target = address.target.clone().map(|t| {
        view! { <code class="embed-target">{reveal_controls(&t.name)}</code> }
    });
    let problems = (!address.problems.is_empty()).then(|| {
        view! {
            <div id="embed-problems" role="alert">
                <ul class="embed-problems">
                    {address.problems.iter().map(|p| view! { <li class="warning">{p.clone()}</li> }).collect_view()}
                </ul>
            </div>
        }
    });
    // The first call waits for the person's word (see `EmbedAsk`; asked in `embed_panels`).
    provide_context(EmbedAsk {
        confirmed: RwSignal::new(false),
        asking: RwSignal::new(None),
        url: StoredValue::new(url.clone()),
    });
    let root = NodeRef::<leptos::html::Div>::new();
    Effect::new(move |_| {
        if let Some(element) = root.get() {
            let element: &wasm_bindgen::JsValue = element.as_ref();
            watch_height(element);
        }
    });
    view! {
        <div id="embed" class="embed" node_ref=root>
            <div class="embed-bar">
                <strong class="embed-server" title=url.clone()>{title}</strong>
                {target}
                <Show when=move || status.get() != Status::Connected
                    fallback=move || view! { <button id="disconnect" type="button" class="secondary" on:click=move |_| disconnect(connection)>"Disconnect"</button> }>
                    <button id="connect" type="button" disabled=move || status.get() == Status::Connecting
                        on:click={ let connect = connect.clone(); move |_| connect() }>"Connect"</button>
                </Show>
                <span id="status" role="status" class=move || format!("status status-{:?}", status.get()).to_lowercase()>
                    {move || status.get().label()}
                </span>
                <a id="open-in-lens" class="embed-open" href=open_link target="_blank" rel="noopener">"Open in mcp-lens"</a>
            </div>
            {problems}
            <Show when=move || error().is_some()>
                <p id="connect-error" class="error" role="alert">{error}</p>
            </Show>
            <EmbedPanels/>
        </div>
    }
}
