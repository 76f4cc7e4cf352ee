//! A tool's result (MCP `CallToolResult` JSON, or a sampling `tool_result` block, which has the
//! same members) as the pieces every dialect sends back: text, images, audio, and whether it
//! is an error. Each dialect puts the pieces where it accepts them.
//!
//! Text items are kept; resource links and embedded resources become text that names them
//! (an embedded image becomes an image); `structuredContent` is added as JSON text unless a
//! text item already holds it (the spec asks servers to send both); unknown items are named.
//! The text is cut at a limit (it is sent with every later request).

use crate::schema_convert::Dropped;
use serde_json::Value;

/// What a result gives the model.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ResultPieces {
    pub text: String,
    /// (MIME type, base64 data).
    pub images: Vec<(String, String)>,
    pub audio: Vec<(String, String)>,
    pub is_error: bool,
    pub dropped: Vec<Dropped>,
}

/// The pieces of `result`, its text cut to `max_chars` characters.
pub fn result_pieces(result: &Value, max_chars: usize) -> ResultPieces {
    let mut pieces = ResultPieces {
        is_error: result.get("isError") == Some(&Value::Bool(true)),
        ..ResultPieces::default()
    };
    let mut texts: Vec<String> = Vec::new();
    let items = result
        .get("content")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    for (index, item) in items.iter().enumerate() {
        let field = |name: &str| item.get(name).and_then(Value::as_str);
        match field("type") {
            Some("text") => texts.push(field("text").unwrap_or_default().to_owned()),
            Some("image") => match (field("mimeType"), field("data")) {
                (Some(mime), Some(data)) => pieces.images.push((mime.to_owned(), data.to_owned())),
                _ => texts.push("[an image without its data or type]".to_owned()),
            },
            Some("audio") => match (field("mimeType"), field("data")) {
                (Some(mime), Some(data)) => pieces.audio.push((mime.to_owned(), data.to_owned())),
                _ => texts.push("[audio without its data or type]".to_owned()),
            },
            Some("resource_link") => texts.push(resource_link_text(item)),
            Some("resource") => {
                let resource = item.get("resource").unwrap_or(&Value::Null);
                let uri = resource.get("uri").and_then(Value::as_str).unwrap_or("?");
                let mime = resource.get("mimeType").and_then(Value::as_str);
                if let Some(text) = resource.get("text").and_then(Value::as_str) {
                    texts.push(format!("Resource {uri}{}:\n{text}", mime_suffix(mime)));
                } else if let (Some(blob), Some(mime)) =
                    (resource.get("blob").and_then(Value::as_str), mime)
                {
                    if mime.starts_with("image/") {
                        pieces.images.push((mime.to_owned(), blob.to_owned()));
                    } else {
                        texts.push(format!(
                            "[Resource {uri} ({mime}), {} bytes of binary data, not shown to the model]",
                            blob.len() / 4 * 3
                        ));
                        pieces.dropped.push(Dropped::new(
                            &format!("/content/{index}"),
                            format!("the binary resource {uri}"),
                            "models take text and images; it is named instead",
                        ));
                    }
                } else {
                    texts.push(format!("[Resource {uri}]"));
                }
            }
            Some(other) => texts.push(format!("[content of type {other:?}]")),
            None => texts.push("[content without a type]".to_owned()),
        }
    }
    if let Some(structured) = result.get("structuredContent").filter(|s| !s.is_null()) {
        let already_there = texts
            .iter()
            .any(|t| serde_json::from_str::<Value>(t).ok().as_ref() == Some(structured));
        if !already_there {
            texts.push(structured.to_string());
        }
    }
    let mut text = texts.join("\n");
    if let Some((cut, _)) = text.char_indices().nth(max_chars) {
        let total = text.chars().count();
        text.truncate(cut);
        text.push_str(&format!(
            "\n[… {} more characters not sent to the model]",
            total - max_chars
        ));
        pieces.dropped.push(Dropped::new(
            "/content",
            format!("the result's text after {max_chars} characters"),
            "it is sent with every later request",
        ));
    }
    pieces.text = text;
    pieces
}

fn resource_link_text(item: &Value) -> String {
    let field = |name: &str| item.get(name).and_then(Value::as_str);
    let uri = field("uri").unwrap_or("?");
    let name = field("title").or(field("name")).unwrap_or(uri);
    let mut text = format!(
        "Resource link: {name} <{uri}>{}",
        mime_suffix(field("mimeType"))
    );
    if let Some(description) = field("description") {
        text.push_str(&format!(": {description}"));
    }
    text
}

fn mime_suffix(mime: Option<&str>) -> String {
    mime.map(|m| format!(" ({m})")).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_kind_of_content_becomes_text_or_an_image() {
        let result = json!({
            "content": [
                { "type": "text", "text": "hello" },
                { "type": "image", "data": "aGk=", "mimeType": "image/png" },
                { "type": "resource_link", "uri": "file:///a.txt", "name": "a.txt", "mimeType": "text/plain" },
                { "type": "resource", "resource": { "uri": "mem://x", "mimeType": "text/markdown", "text": "# X" } },
                { "type": "resource", "resource": { "uri": "mem://pic", "mimeType": "image/jpeg", "blob": "/9j/" } },
                { "type": "resource", "resource": { "uri": "mem://bin", "mimeType": "application/zip", "blob": "UEsDBA==" } },
                { "type": "audio", "data": "UklGRg==", "mimeType": "audio/wav" }
            ],
            "isError": true
        });
        let pieces = result_pieces(&result, 10_000);
        assert!(pieces.is_error);
        assert_eq!(
            pieces.text,
            "hello\nResource link: a.txt <file:///a.txt> (text/plain)\nResource mem://x (text/markdown):\n# X\n[Resource mem://bin (application/zip), 6 bytes of binary data, not shown to the model]"
        );
        assert_eq!(
            pieces.images,
            vec![
                ("image/png".into(), "aGk=".into()),
                ("image/jpeg".into(), "/9j/".into())
            ]
        );
        assert_eq!(pieces.audio.len(), 1);
        assert_eq!(pieces.dropped.len(), 1);
    }

    #[test]
    fn structured_content_is_added_unless_a_text_item_holds_it() {
        let once = json!({ "content": [{ "type": "text", "text": "{\"n\": 3}" }], "structuredContent": { "n": 3 } });
        assert_eq!(result_pieces(&once, 100).text, "{\"n\": 3}");
        let only = json!({ "content": [], "structuredContent": { "n": 3 } });
        assert_eq!(result_pieces(&only, 100).text, "{\"n\":3}");
    }

    #[test]
    fn long_text_is_cut_and_the_cut_said() {
        let result = json!({ "content": [{ "type": "text", "text": "é".repeat(50) }] });
        let pieces = result_pieces(&result, 10);
        assert!(pieces.text.starts_with(&"é".repeat(10)));
        assert!(pieces
            .text
            .ends_with("[… 40 more characters not sent to the model]"));
        assert_eq!(pieces.dropped.len(), 1);
    }

    #[test]
    fn anything_that_is_not_a_result_gives_empty_pieces() {
        for value in [
            json!(null),
            json!(3),
            json!({ "content": "x" }),
            json!({ "content": [7] }),
        ] {
            let pieces = result_pieces(&value, 100);
            assert!(!pieces.is_error);
            assert!(pieces.images.is_empty());
        }
    }
}
