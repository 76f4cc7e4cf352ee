//! Renders what servers return: content blocks (text, image, audio, resources) and resource
//! contents. Everything is rendered as text or as attribute values, never as HTML.
//!
//! A result can be megabytes, so nothing here costs what is not shown: a long text draws its
//! first part and the rest on request (a part per frame for "Show all"; `text.rs` says where
//! parts end and formats JSON only as far as it is shown); a long list of blocks draws its
//! first [`FIRST_BLOCKS`]; Copy and Download always give the whole, as the server sent it.
//! Large texts live in the view that shows them, and go with it.

mod text;

use crate::client::browser::timer::{after_paint, sleep};
use leptos::prelude::*;
use leptos::task::spawn_local;
use rmcp::model::{ContentBlock, ResourceContents};
use serde_json::Value;
use wasm_bindgen::JsCast;

pub use text::human_size;

/// The part of a long text drawn at first: quick to lay out, and still several screens. 32 KB
/// of formatted JSON, about 1,500 short lines, made a frame of 40-60 ms on a busy machine;
/// 16 KB, the first layout of a page's first result 24-29 ms (8 KB: 12 ms; traced with
/// `scripts/bench/trace-big.mjs`).
const FIRST_PART_BYTES: usize = 8 * 1024;
/// What "Show more" adds, and "Show all" adds per frame (about 20 ms to lay out).
const MORE_PART_BYTES: usize = 128 * 1024;
/// The blocks of a long result drawn at first, and what "Show more" adds.
const FIRST_BLOCKS: usize = 50;
/// What "Show all" adds per frame.
const MORE_BLOCKS: usize = 250;

/// Runs what drawing a short text result reads through (plain and JSON) on samples, for
/// `browse::warm_up`: the results are dropped.
pub(super) fn warm_up() {
    for sample in ["warm", "{\"warm\":[1]}"] {
        let _ = text::first_part(sample, FIRST_PART_BYTES);
    }
}

/// A text block of a result.
#[component]
pub fn TextBlock(text: String) -> impl IntoView {
    view! { <LongText text class="content-text" file_name="result"/> }
}

/// What is left of a long text to draw.
struct Reading {
    text: String,
    pos: usize,
    reader: text::Reader,
}

/// A text of any length in a `<pre class={class}>`, JSON formatted (as far as it is shown).
/// Past [`FIRST_PART_BYTES`], the rest comes with "Show more" and "Show all", and Copy and
/// Download (`{file_name}.json` or `.txt`) give the text as it came.
#[component]
pub fn LongText(text: String, class: &'static str, file_name: &'static str) -> impl IntoView {
    let total = text.len();
    let (first, pos, reader) = text::first_part(&text, FIRST_PART_BYTES);
    let is_json = reader.is_json();
    if pos >= total {
        return view! { <pre class=class class:json=is_json>{first}</pre> }.into_any();
    }
    let reading = StoredValue::new(Reading { text, pos, reader });
    let shown = RwSignal::new(pos);
    let showing_all = RwSignal::new(false);
    let pre = NodeRef::<leptos::html::Pre>::new();
    // Draws the next part (in an element of its own, so laying it out does not lay out
    // what is above again); false once everything is drawn or the view is gone.
    let append = move |max: usize| -> bool {
        let Some(element) = pre.get_untracked() else {
            return false;
        };
        let part = reading.try_update_value(|r| {
            let part = r.reader.next(&r.text, &mut r.pos, max);
            (part, r.pos)
        });
        let Some((part, pos)) = part else {
            return false;
        };
        if let Some(div) = element
            .owner_document()
            .and_then(|document| document.create_element("div").ok())
        {
            div.set_class_name("part");
            div.set_text_content(Some(&part));
            let _ = element.append_child(&div);
        }
        shown.set(pos);
        pos < total
    };
    let show_all = move || each_frame(showing_all, move || append(MORE_PART_BYTES));
    let copy = move |copied| reading.with_value(|r| copy_reporting(&r.text, copied));
    let (name, mime) = if is_json {
        (format!("{file_name}.json"), "application/json")
    } else {
        (format!("{file_name}.txt"), "text/plain")
    };
    let save = move || reading.with_value(|r| download(&name, mime, &r.text));
    view! {
        <pre class=class class:json=is_json node_ref=pre>{first}</pre>
        <MoreBar kind="text" shown total describe=describe_text showing_all
            more=move || { append(MORE_PART_BYTES); } show_all copy save whole=""/>
    }
    .into_any()
}

/// What a long text shows, in words.
fn describe_text(shown: usize, total: usize) -> String {
    if shown < total {
        format!("Showing {} of {}.", human_size(shown), human_size(total))
    } else {
        format!("All {} shown.", human_size(total))
    }
}

/// What a long list of blocks shows, in words.
fn describe_blocks(shown: usize, total: usize) -> String {
    if shown < total {
        format!(
            "Showing the first {shown} of {total} blocks; {} more.",
            total - shown
        )
    } else {
        format!("All {total} blocks shown.")
    }
}

/// The bar under a long text or list of blocks: what is shown (`.{kind}-shown`, with
/// `data-shown` and `data-total`), "Show more" and "Show all" while there is more, and Copy
/// and Download of the whole.
#[component]
fn MoreBar(
    kind: &'static str,
    shown: RwSignal<usize>,
    total: usize,
    describe: fn(usize, usize) -> String,
    showing_all: RwSignal<bool>,
    more: impl Fn() + Copy + Send + Sync + 'static,
    show_all: impl Fn() + Copy + Send + Sync + 'static,
    copy: impl Fn(RwSignal<Option<bool>>) + 'static,
    save: impl Fn() + 'static,
    /// After "Copy" and "Download": "" for a text, " all" for blocks.
    whole: &'static str,
) -> impl IntoView {
    let copied = RwSignal::new(None::<bool>);
    view! {
        <div class=format!("more-bar {kind}-more")>
            <span class=format!("muted {kind}-shown") data-shown=move || shown.get() data-total=total>
                {move || describe(shown.get(), total)}
            </span>
            <Show when=move || shown.get() < total>
                <button class="secondary show-more" on:click=move |_| more() disabled=move || showing_all.get()>
                    "Show more"
                </button>
                <button class="secondary show-all" on:click=move |_| show_all() disabled=move || showing_all.get()>
                    {move || if showing_all.get() { "Showing…" } else { "Show all" }}
                </button>
            </Show>
            <button class="secondary copy-text" on:click=move |_| copy(copied)>{format!("Copy{whole}")}</button>
            <button class="secondary download-text" on:click=move |_| save()>{format!("Download{whole}")}</button>
            {move || copied.get().map(copied_note)}
        </div>
    }
}

/// `data:` URL for base64 media, only for the expected media family (an `image/` type for
/// an image), so a server cannot make the page load something else.
fn media_url(family: &str, mime_type: &str, data: &str) -> Option<String> {
    let mime = mime_type.trim();
    let valid = mime.starts_with(family)
        && mime.len() < 100
        && mime
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/+-.".contains(c));
    valid.then(|| format!("data:{mime};base64,{}", data.trim()))
}

/// Decoded size of base64 data, without decoding it.
pub fn base64_size(data: &str) -> usize {
    let data = data.trim();
    let padding = data.bytes().rev().take_while(|&b| b == b'=').count().min(2);
    (data.len() / 4 * 3).saturating_sub(padding)
}

/// The blocks of a result: the first [`FIRST_BLOCKS`] of a long list, the rest on request,
/// with Copy and Download of them all (as JSON).
#[component]
pub fn ContentList(content: Vec<ContentBlock>) -> impl IntoView {
    if content.is_empty() {
        return view! { <p class="muted">"The result has no content."</p> }.into_any();
    }
    let total = content.len();
    if total <= FIRST_BLOCKS {
        return content
            .into_iter()
            .map(|block| view! { <Content block/> })
            .collect_view()
            .into_any();
    }
    let blocks = StoredValue::new(content);
    let shown = RwSignal::new(FIRST_BLOCKS);
    let showing_all = RwSignal::new(false);
    // Shows `n` more blocks; false once all are shown or the view is gone.
    let more = move |n: usize| {
        shown
            .try_update(|shown| {
                *shown = shown.saturating_add(n).min(total);
                *shown < total
            })
            .unwrap_or(false)
    };
    let show_all = move || each_frame(showing_all, move || more(MORE_BLOCKS));
    let as_json = move || {
        blocks.with_value(|blocks| serde_json::to_string_pretty(blocks).unwrap_or_default())
    };
    let copy = move |copied| copy_reporting(&as_json(), copied);
    let save = move || download("content.json", "application/json", &as_json());
    view! {
        // Keyed by position: showing more adds rows, never redraws the shown ones.
        <For each=move || 0..shown.get() key=|n| *n let:n>
            {blocks.with_value(|blocks| blocks.get(n).cloned()).map(|block| view! { <Content block/> })}
        </For>
        <MoreBar kind="blocks" shown total describe=describe_blocks showing_all
            more=move || { more(FIRST_BLOCKS); } show_all copy save whole=" all"/>
    }
    .into_any()
}

#[component]
pub fn Content(block: ContentBlock) -> impl IntoView {
    match block {
        ContentBlock::Text(text) => view! { <TextBlock text=text.text/> }.into_any(),
        ContentBlock::Image(image) => match media_url("image/", &image.mime_type, &image.data) {
            Some(src) => view! {
                <figure class="content-image">
                    <img src=src alt="Image returned by the server"/>
                    <figcaption>{format!("{}, {} bytes", image.mime_type, base64_size(&image.data))}</figcaption>
                </figure>
            }
            .into_any(),
            None => unsupported_media("image", &image.mime_type),
        },
        ContentBlock::Audio(audio) => match media_url("audio/", &audio.mime_type, &audio.data) {
            Some(src) => view! { <audio class="content-audio" controls src=src></audio> }.into_any(),
            None => unsupported_media("audio", &audio.mime_type),
        },
        ContentBlock::Resource(embedded) => view! {
            <div class="content-resource"><ResourceContent contents=embedded.resource/></div>
        }
        .into_any(),
        ContentBlock::ResourceLink(link) => view! {
            <p class="content-link">
                "Resource link: " <strong>{link.name}</strong> " " <code>{link.uri}</code>
                {link.mime_type.map(|m| view! { <span class="muted">" (" {m} ")"</span> })}
            </p>
        }
        .into_any(),
        _ => view! { <p class="muted">"A content type this version cannot show."</p> }.into_any(),
    }
}

fn unsupported_media(kind: &str, mime_type: &str) -> AnyView {
    view! { <p class="error">{format!("The server sent {kind} content with an unusable type \"{mime_type}\".")}</p> }
        .into_any()
}

#[component]
pub fn ResourceContent(contents: ResourceContents) -> impl IntoView {
    match contents {
        ResourceContents::TextResourceContents {
            uri,
            mime_type,
            text,
            ..
        } => view! {
            <div class="resource-content">
                <p class="muted"><code>{uri}</code> {mime_type.map(|m| format!(" ({m})"))}</p>
                <TextBlock text/>
            </div>
        }
        .into_any(),
        ResourceContents::BlobResourceContents {
            uri,
            mime_type,
            blob,
            ..
        } => {
            let mime = mime_type.unwrap_or_else(|| "unknown type".to_owned());
            let image = media_url("image/", &mime, &blob);
            view! {
                <div class="resource-content">
                    <p class="muted"><code>{uri}</code></p>
                    <p class="content-blob">{format!("Binary content: {} bytes, {mime}", base64_size(&blob))}</p>
                    {image.map(|src| view! { <img src=src alt="Binary resource shown as an image"/> })}
                </div>
            }
            .into_any()
        }
        _ => view! { <p class="muted">"Resource contents of a kind this version cannot show."</p> }
            .into_any(),
    }
}

/// Runs `step` once a frame until it says there is no more, `busy` meanwhile (a second
/// start while busy does nothing). Stops by itself when its view is gone (`step` says so).
fn each_frame(busy: RwSignal<bool>, step: impl Fn() -> bool + 'static) {
    if busy.get_untracked() {
        return;
    }
    busy.set(true);
    spawn_local(async move {
        while step() {
            after_paint().await;
        }
        let _ = busy.try_set(false);
    });
}

/// Copies `text` to the clipboard, and says in `copied` whether the browser did.
fn copy_reporting(text: &str, copied: RwSignal<Option<bool>>) {
    let promise = copy_to_clipboard(text);
    spawn_local(async move {
        let done = match promise {
            Some(promise) => wasm_bindgen_futures::JsFuture::from(promise).await.is_ok(),
            None => false,
        };
        let _ = copied.try_set(Some(done));
    });
}

fn copied_note(done: bool) -> impl IntoView {
    let note = if done {
        "Copied."
    } else {
        "The browser refused to copy."
    };
    view! { <span class="muted copied">{note}</span> }
}

/// How long an object URL given to a download lives: the download has started long before.
const REVOKE_AFTER_MS: u32 = 10_000;

/// Offers `text` as a file download (nothing leaves the browser): a Blob behind an object
/// URL, revoked once the download has started.
pub fn download(file_name: &str, mime: &str, text: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let parts = js_sys::Array::of1(&text.into());
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    if let Some(anchor) = document
        .create_element("a")
        .ok()
        .and_then(|a| a.dyn_into::<web_sys::HtmlAnchorElement>().ok())
    {
        anchor.set_href(&url);
        anchor.set_download(file_name);
        anchor.click();
    }
    spawn_local(async move {
        sleep(REVOKE_AFTER_MS).await;
        let _ = web_sys::Url::revoke_object_url(&url);
    });
}

/// Starts copying `text` to the clipboard; the promise settles when it is done or refused.
pub fn copy_to_clipboard(text: &str) -> Option<js_sys::Promise> {
    web_sys::window().map(|window| window.navigator().clipboard().write_text(text))
}

/// About how many bytes a content block holds (its text or data).
pub fn content_size(block: &ContentBlock) -> usize {
    match block {
        ContentBlock::Text(text) => text.text.len(),
        ContentBlock::Image(image) => image.data.len(),
        ContentBlock::Audio(audio) => audio.data.len(),
        ContentBlock::Resource(embedded) => resource_size(&embedded.resource),
        ContentBlock::ResourceLink(link) => link.uri.len(),
        _ => 0,
    }
}

/// About how many bytes resource contents hold.
pub fn resource_size(contents: &ResourceContents) -> usize {
    match contents {
        ResourceContents::TextResourceContents { text, .. } => text.len(),
        ResourceContents::BlobResourceContents { blob, .. } => blob.len(),
        _ => 0,
    }
}

/// About how many bytes a JSON value holds, counted until past `limit` (a huge value costs
/// about `limit` to size, plus the length of the arrays and objects opened on the way).
pub fn value_size(value: &Value, limit: usize) -> usize {
    let mut size = 0usize;
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        if size > limit {
            break;
        }
        size = size.saturating_add(match value {
            Value::String(text) => text.len() + 2,
            Value::Array(items) => {
                stack.extend(items);
                2 + items.len()
            }
            Value::Object(map) => {
                stack.extend(map.values());
                2 + map.keys().map(|key| key.len() + 4).sum::<usize>()
            }
            _ => 8,
        });
    }
    size
}

/// Copies `text`, then says whether the browser let it ("Copied.").
pub fn copy_and_say(text: String, note: RwSignal<&'static str>) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_sizes() {
        assert_eq!(base64_size("aGVsbG8="), 5);
        assert_eq!(base64_size("aGk="), 2);
        assert_eq!(base64_size("aGV5"), 3);
        assert_eq!(base64_size(""), 0);
    }

    #[test]
    fn media_urls_only_for_the_expected_family() {
        assert_eq!(
            media_url("image/", "image/png", "AAAA").as_deref(),
            Some("data:image/png;base64,AAAA")
        );
        assert_eq!(media_url("image/", "text/html", "AAAA"), None);
        assert_eq!(media_url("image/", "image/png;x=<", "AAAA"), None);
    }

    #[test]
    fn sizes_of_blocks_and_values() {
        let block: ContentBlock =
            serde_json::from_value(serde_json::json!({"type": "text", "text": "hello"})).unwrap();
        assert_eq!(content_size(&block), 5);
        let value = serde_json::json!({"a": ["xyz", 1, null], "b": {}});
        assert!(value_size(&value, usize::MAX) >= 5);
        // Counting stops soon after the limit, whatever the value's size.
        let row = Value::Array(vec![Value::from("x".repeat(1000)); 100]);
        let big = Value::Array(vec![row; 100]);
        let counted = value_size(&big, 5_000);
        assert!((5_000..7_000).contains(&counted), "{counted}");
    }
}
