//! Renders what servers return: content blocks (text, image, audio, resources) and resource
//! contents. Everything is rendered as text or as attribute values, never as HTML.

use leptos::prelude::*;
use rmcp::model::{ContentBlock, ResourceContents};
use serde_json::Value;

/// Longer texts are cut for display (a huge result must not freeze the page).
const DISPLAY_LIMIT: usize = 100_000;

/// Text as shown: JSON objects and arrays pretty-printed, and cut at [`DISPLAY_LIMIT`].
fn display_text(text: &str) -> (String, bool, Option<usize>) {
    let pretty = match serde_json::from_str::<Value>(text) {
        Ok(value @ (Value::Object(_) | Value::Array(_))) => {
            serde_json::to_string_pretty(&value).ok()
        }
        _ => None,
    };
    let is_json = pretty.is_some();
    let shown = pretty.unwrap_or_else(|| text.to_owned());
    let total = shown.chars().count();
    if total > DISPLAY_LIMIT {
        (
            shown.chars().take(DISPLAY_LIMIT).collect(),
            is_json,
            Some(total),
        )
    } else {
        (shown, is_json, None)
    }
}

#[component]
pub fn TextBlock(text: String) -> impl IntoView {
    let (shown, is_json, cut_from) = display_text(&text);
    view! {
        <pre class="content-text" class:json=is_json>{shown}</pre>
        {cut_from.map(|total| view! {
            <p class="muted">{format!("Showing the first {DISPLAY_LIMIT} of {total} characters.")}</p>
        })}
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

#[component]
pub fn ContentList(content: Vec<ContentBlock>) -> impl IntoView {
    if content.is_empty() {
        return view! { <p class="muted">"The result has no content."</p> }.into_any();
    }
    content
        .into_iter()
        .map(|block| view! { <Content block/> })
        .collect_view()
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
    fn json_text_is_pretty_printed_and_long_text_cut() {
        let (shown, is_json, cut) = display_text(r#"{"a":1}"#);
        assert_eq!(
            (shown.as_str(), is_json, cut),
            ("{\n  \"a\": 1\n}", true, None)
        );
        let (shown, is_json, _) = display_text("Echo: hi");
        assert_eq!((shown.as_str(), is_json), ("Echo: hi", false));
        let (shown, _, cut) = display_text(&"x".repeat(DISPLAY_LIMIT + 5));
        assert_eq!((shown.len(), cut), (DISPLAY_LIMIT, Some(DISPLAY_LIMIT + 5)));
    }
}
