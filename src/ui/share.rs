//! The share and embed dialog (in the session chunk, through `lazy::Share`): for the server in view, and the
//! selected tool, prompt or resource with what its form holds, the full app's deep link and
//! the embed view's iframe snippet, with the embed's options, a live preview and one-click
//! copies. Secrets never go into either: the address format has no place for a token or a
//! header (see `address.rs`), and a URL's own credentials are redacted first.

use super::address::{self, Accent, Address, Target, Theme, FONT_SIZES};
use super::browse::model::Kind;
use super::servers::Settings;
use super::store::Connection;
use crate::client::saved;
use crate::protocol::wire_log::url_has_credentials;
use leptos::prelude::*;
use serde_json::{Map, Value};
use wasm_bindgen::JsCast;

/// What is shared, taken when the dialog opens.
#[derive(Debug, Clone, PartialEq)]
pub struct Subject {
    /// The server URL with any credentials in it redacted.
    url: String,
    transport: String,
    name: String,
    target: Option<Target>,
    args: Option<Map<String, Value>>,
    /// Why the link alone may not be enough: the server is used with a token or headers.
    secrets: Option<&'static str>,
    url_redacted: bool,
}

impl Subject {
    /// The server of `settings` and, in the tab `kind` (`None`: Tasks), its selected item.
    pub fn of(settings: Settings, connection: Connection, kind: Option<Kind>) -> Self {
        let url = settings.url.get_untracked();
        let token = !settings.token.get_untracked().trim().is_empty();
        let headers = !settings.headers.get_untracked().trim().is_empty();
        let (target, args) = kind
            .and_then(|kind| {
                let (name, args) = connection.memory().current(kind)?;
                Some((
                    Some(Target {
                        kind: kind.target(),
                        name,
                    }),
                    args.filter(|args| !args.is_empty()),
                ))
            })
            .unwrap_or((None, None));
        Subject {
            url: saved::saved_url(&url),
            url_redacted: url_has_credentials(&url),
            transport: settings.transport.get_untracked().key().to_owned(),
            name: settings.name.get_untracked(),
            target,
            args,
            secrets: match (token, headers) {
                (true, true) => Some("a bearer token and custom headers"),
                (true, false) => Some("a bearer token"),
                (false, true) => Some("custom headers"),
                (false, false) => None,
            },
        }
    }
}

/// The page's own address without its query: where the links point.
fn app_base() -> String {
    web_sys::window()
        .and_then(|w| {
            let location = w.location();
            Some(format!(
                "{}{}",
                location.origin().ok()?,
                location.pathname().ok()?
            ))
        })
        .unwrap_or_default()
}

#[component]
pub fn ShareDialog(subject: Subject, open: RwSignal<Option<Option<Kind>>>) -> impl IntoView {
    let with_args = RwSignal::new(subject.args.is_some());
    let connect = RwSignal::new(false);
    let theme = RwSignal::new(Theme::System);
    let accent_text = RwSignal::new(String::new());
    let font_text = RwSignal::new(String::new());
    let height = RwSignal::new("420".to_owned());
    let accent = move || accent_text.with(|t| Accent::parse(t));
    let font_size = move || {
        font_text.with(|t| {
            t.trim()
                .parse::<u8>()
                .ok()
                .filter(|s| FONT_SIZES.contains(s))
        })
    };
    let base = app_base();
    let subject = StoredValue::new(subject);
    let options = move |embed: bool| {
        subject.with_value(|s| Address {
            embed,
            url: Some(s.url.clone()),
            transport: (s.transport != "auto").then(|| s.transport.clone()),
            target: s.target.clone(),
            args: s.args.clone().filter(|_| with_args.get()),
            connect: embed && connect.get(),
            theme: if embed { theme.get() } else { Theme::System },
            accent: accent().filter(|_| embed),
            font_size: font_size().filter(|_| embed),
            problems: Vec::new(),
        })
    };
    let link = {
        let base = base.clone();
        Memo::new(move |_| format!("{base}{}", address::build(&options(false))))
    };
    let embed_link = {
        let base = base.clone();
        Memo::new(move |_| format!("{base}{}", address::build(&options(true))))
    };
    let pixels = move || {
        height.with(|h| {
            h.trim()
                .parse::<u32>()
                .ok()
                .filter(|h| (100..=4000).contains(h))
        })
    };
    let snippet = Memo::new(move |_| {
        let title = subject.with_value(|s| s.name.replace(['"', '<', '>', '&'], ""));
        // The script sits beside index.html: the base's folder.
        let script = match base.rfind('/') {
            Some(slash) => format!("{}embed.js", &base[..=slash]),
            None => "embed.js".to_owned(),
        };
        format!(
            "<iframe src=\"{}\" title=\"{title} (mcp-lens)\" style=\"width: 100%; height: {}px; border: 0;\" loading=\"lazy\"></iframe>\n<script src=\"{script}\" async></script>",
            embed_link.get().replace('&', "&amp;").replace('"', "&quot;"),
            pixels().unwrap_or(420),
        )
    });
    let link_note = RwSignal::new("");
    let snippet_note = RwSignal::new("");
    let (has_args, secrets, redacted, what) = subject.with_value(|s| {
        let what = match &s.target {
            Some(target) => format!("{} {} on {}", target.kind.parameter(), target.name, s.name),
            None => s.name.clone(),
        };
        (s.args.is_some(), s.secrets, s.url_redacted, what)
    });
    // As the import dialog: opening moves the focus into the dialog, closing (Close or Escape)
    // gives it back to the Share button.
    let close = move || {
        open.set(None);
        if let Some(button) = document().get_element_by_id("share") {
            let _ = button.unchecked_into::<web_sys::HtmlElement>().focus();
        }
    };
    let dialog = NodeRef::<leptos::html::Div>::new();
    Effect::new(move |_| {
        if let Some(dialog) = dialog.get() {
            let _ = dialog.focus();
        }
    });
    view! {
        <div id="share-dialog" class="dialog panel share-dialog" role="dialog" aria-labelledby="share-title"
            tabindex="-1" node_ref=dialog
            on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                if ev.key() == "Escape" {
                    ev.prevent_default();
                    close();
                }
            }>
            <div class="dialog-head">
                <h3 id="share-title">"Share and embed " <span class="muted">{what}</span></h3>
                <button id="share-close" type="button" class="link" on:click=move |_| close()>"Close"</button>
            </div>
            {secrets.map(|what| view! {
                <p id="share-secrets" class="warning">
                    {format!("This server is used here with {what}. They are never put into a link or snippet: \
                              whoever opens the link must enter them, and an embedded widget can only reach a \
                              server that answers without them.")}
                </p>
            })}
            {redacted.then(|| view! {
                <p id="share-url-redacted" class="warning">"The server address carried a credential; it is redacted in the link."</p>
            })}
            <div class="share-options">
                {has_args.then(|| view! {
                    <label class="checkbox"><input id="share-args" type="checkbox" prop:checked=move || with_args.get()
                        on:change=move |ev| with_args.set(event_target_checked(&ev))/>" Include the form's arguments"</label>
                })}
                <label class="checkbox"><input id="share-connect" type="checkbox" prop:checked=move || connect.get()
                    on:change=move |ev| connect.set(event_target_checked(&ev))/>" Embed connects at once"</label>
                <label class="field">"Theme"
                    <select id="share-theme" on:change=move |ev| theme.set(match event_target_value(&ev).as_str() {
                        "light" => Theme::Light, "dark" => Theme::Dark, _ => Theme::System })>
                        <option value="system">"System"</option>
                        <option value="light">"Light"</option>
                        <option value="dark">"Dark"</option>
                    </select>
                </label>
                <label class="field">"Accent colour (hex)"
                    <input id="share-accent" placeholder="#0b7285" prop:value=move || accent_text.get()
                        on:input=move |ev| accent_text.set(event_target_value(&ev))/>
                </label>
                <label class="field">"Font size (px)"
                    <input id="share-font-size" inputmode="numeric" placeholder="14" prop:value=move || font_text.get()
                        on:input=move |ev| font_text.set(event_target_value(&ev))/>
                </label>
                <label class="field">"Height (px)"
                    <input id="share-height" inputmode="numeric" prop:value=move || height.get()
                        on:input=move |ev| height.set(event_target_value(&ev))/>
                </label>
            </div>
            {move || {
                let mut wrong = Vec::new();
                if !accent_text.with(|t| t.trim().is_empty()) && accent().is_none() {
                    wrong.push("The accent must be a hex colour such as #0b7285; it is left out.".to_owned());
                }
                if !font_text.with(|t| t.trim().is_empty()) && font_size().is_none() {
                    wrong.push(format!("The font size must be a whole number from {} to {}; it is left out.", FONT_SIZES.start(), FONT_SIZES.end()));
                }
                if pixels().is_none() {
                    wrong.push("The height must be a whole number of pixels from 100 to 4000; 420 is used.".to_owned());
                }
                (!wrong.is_empty()).then(|| view! {
                    <ul id="share-problems" class="share-problems">
                        {wrong.into_iter().map(|w| view! { <li class="warning">{w}</li> }).collect_view()}
                    </ul>
                })
            }}
            <label class="field">"Link to the full app"
                <input id="share-link" readonly prop:value=move || link.get()/>
            </label>
            <div class="actions">
                <button id="copy-link" type="button" on:click=move |_| super::content::copy_and_say(link.get_untracked(), link_note)>"Copy link"</button>
                <span class="muted">{move || link_note.get()}</span>
            </div>
            <label class="field">"Embed in a page (iframe; the script resizes it to its content)"
                <textarea id="share-snippet" class="share-snippet" rows="4" readonly spellcheck="false"
                    prop:value=move || snippet.get()></textarea>
            </label>
            <div class="actions">
                <button id="copy-snippet" type="button" on:click=move |_| super::content::copy_and_say(snippet.get_untracked(), snippet_note)>"Copy snippet"</button>
                <span class="muted">{move || snippet_note.get()}</span>
            </div>
            <p class="muted">"Preview:"</p>
            <iframe id="share-preview" class="share-preview" title="Preview of the embedded widget"
                src=move || embed_link.get() style:height=move || format!("{}px", pixels().unwrap_or(420))></iframe>
        </div>
    }
}
