//! The server's requests that a person answers: what to show of them and how the answer is
//! shaped. Read leniently from raw params (a malformed request still shows what it has).

use serde_json::{json, Map, Value};

/// One message of a `sampling/createMessage` request, as text to show.
#[derive(Debug, Clone, PartialEq)]
pub struct SamplingMessage {
    pub role: String,
    pub text: String,
}

/// What a sampling request asks for.
#[derive(Debug, Clone, PartialEq)]
pub struct SamplingRequest {
    pub system_prompt: Option<String>,
    pub messages: Vec<SamplingMessage>,
    pub max_tokens: Option<u64>,
}

pub fn sampling_request(params: Option<&Value>) -> SamplingRequest {
    let params = params.and_then(Value::as_object);
    let field = |name: &str| params.and_then(|p| p.get(name));
    let messages = field("messages")
        .and_then(Value::as_array)
        .map(|messages| messages.iter().map(sampling_message).collect())
        .unwrap_or_default();
    SamplingRequest {
        system_prompt: field("systemPrompt")
            .and_then(Value::as_str)
            .map(str::to_owned),
        messages,
        max_tokens: field("maxTokens").and_then(Value::as_u64),
    }
}

fn sampling_message(message: &Value) -> SamplingMessage {
    let role = message
        .get("role")
        .and_then(Value::as_str)
        .unwrap_or("?")
        .to_owned();
    // Content is one block or (2025-11-25) a list of blocks.
    let blocks: Vec<&Value> = match message.get("content") {
        Some(Value::Array(blocks)) => blocks.iter().collect(),
        Some(block) => vec![block],
        None => Vec::new(),
    };
    let text = blocks
        .into_iter()
        .map(|block| match block.get("type").and_then(Value::as_str) {
            Some("text") => block
                .get("text")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
            Some(other) => format!("[{other} content]"),
            None => block.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n");
    SamplingMessage { role, text }
}

/// The answer to a sampling request, written by a person.
pub fn sampling_result(text: &str, model: &str) -> Value {
    json!({
        "role": "assistant",
        "content": { "type": "text", "text": text },
        "model": model,
        "stopReason": "endTurn"
    })
}

/// What an elicitation request asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Elicitation {
    /// Fill in a form generated from `requestedSchema`.
    Form {
        message: String,
        schema: Map<String, Value>,
    },
    /// Visit a URL (outside this page) and say whether you did.
    Url {
        message: String,
        url: String,
        elicitation_id: Option<String>,
    },
}

pub fn elicitation_request(params: Option<&Value>) -> Elicitation {
    let params = params.and_then(Value::as_object);
    let text = |name: &str| {
        params
            .and_then(|p| p.get(name))
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    let message = text("message").unwrap_or_default();
    if text("mode").as_deref() == Some("url") {
        return Elicitation::Url {
            message,
            url: text("url").unwrap_or_default(),
            elicitation_id: text("elicitationId"),
        };
    }
    let schema = params
        .and_then(|p| p.get("requestedSchema"))
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    Elicitation::Form { message, schema }
}

/// The person's choice on an elicitation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    Accept,
    Decline,
    Cancel,
}

pub fn elicitation_result(choice: Choice, content: Option<Map<String, Value>>) -> Value {
    match (choice, content) {
        (Choice::Accept, Some(content)) => json!({ "action": "accept", "content": content }),
        (Choice::Accept, None) => json!({ "action": "accept" }),
        (Choice::Decline, _) => json!({ "action": "decline" }),
        (Choice::Cancel, _) => json!({ "action": "cancel" }),
    }
}

/// A page a -32042 error asks the person to visit (see [`crate::error`]).
pub use crate::error::UrlElicitation;

/// Whether a server-supplied URL may become a link: it must start with `http://` or
/// `https://` exactly (no leading space, no-break space or control character that would make
/// the browser read it as a path on the app's own origin) and contain no invisible control
/// (which could reverse how it is displayed). The page then parses it with the browser's URL
/// parser too, and shows the host it really goes to.
pub fn is_web_url(url: &str) -> bool {
    let lower = url.to_ascii_lowercase();
    (lower.starts_with("https://") || lower.starts_with("http://"))
        && !url
            .chars()
            .any(|c| crate::error::is_invisible_control(c) || c.is_whitespace())
}

/// Whether a host name (as the browser's URL parser gives it, IDN labels in punycode) has
/// internationalised labels, which can imitate other names.
pub fn is_idn_host(host: &str) -> bool {
    host.split('.')
        .any(|label| label.to_ascii_lowercase().starts_with("xn--"))
        || !host.is_ascii()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_http_urls_become_links() {
        assert!(is_web_url("https://example.com/authorize?step=1"));
        assert!(is_web_url("HTTP://example.com"));
        for spoof in [
            "\u{a0}https://example.com",
            " https://example.com",
            "https://example.com/\u{202E}moc.live",
            "https://exa mple.com",
            "javascript:alert(1)",
            "//example.com",
            "/relative",
        ] {
            assert!(!is_web_url(spoof), "{spoof:?}");
        }
        assert!(is_idn_host("xn--pple-43d.com"));
        assert!(is_idn_host("login.XN--80ak6aa92e.com"));
        assert!(!is_idn_host("example.com"));
    }

    #[test]
    fn sampling_requests_show_their_messages() {
        // Recorded from server-everything's trigger-sampling-request (trimmed).
        let params = json!({
            "messages": [{"role": "user", "content": {"type": "text", "text": "Resource sampleLLM context: hi"}}],
            "systemPrompt": "You are a helpful test server.",
            "maxTokens": 100,
            "temperature": 0.7
        });
        let request = sampling_request(Some(&params));
        assert_eq!(
            request.system_prompt.as_deref(),
            Some("You are a helpful test server.")
        );
        assert_eq!(request.max_tokens, Some(100));
        assert_eq!(
            request.messages,
            vec![SamplingMessage {
                role: "user".into(),
                text: "Resource sampleLLM context: hi".into()
            }]
        );
        let listed = sampling_request(Some(&json!({"messages": [{"role": "user", "content": [
            {"type": "text", "text": "a"}, {"type": "image", "data": "..", "mimeType": "image/png"}]}]})));
        assert_eq!(listed.messages[0].text, "a\n[image content]");
    }

    #[test]
    fn malformed_sampling_requests_still_show_something() {
        assert_eq!(sampling_request(None).messages, vec![]);
        let odd = sampling_request(Some(&json!({"messages": [5, {"content": "x"}]})));
        assert_eq!(odd.messages.len(), 2);
        assert_eq!(odd.messages[0].role, "?");
    }

    #[test]
    #[allow(deprecated)] // rmcp marks sampling deprecated (SEP-2577); 2025 servers still use it.
    fn sampling_result_parses_as_rmcp_create_message_result() {
        let result = sampling_result("Hello", "human");
        let parsed: rmcp::model::CreateMessageResult = serde_json::from_value(result).unwrap();
        assert_eq!(parsed.model, "human");
    }

    #[test]
    fn elicitation_form_and_url_modes() {
        let form = elicitation_request(Some(&json!({
            "message": "Please provide inputs",
            "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}
        })));
        let Elicitation::Form { message, schema } = form else {
            panic!("expected form mode")
        };
        assert_eq!(message, "Please provide inputs");
        assert!(schema.contains_key("properties"));

        let url = elicitation_request(Some(&json!({
            "mode": "url", "message": "Log in", "url": "https://example.com/auth", "elicitationId": "e1"
        })));
        assert_eq!(
            url,
            Elicitation::Url {
                message: "Log in".into(),
                url: "https://example.com/auth".into(),
                elicitation_id: Some("e1".into())
            }
        );
    }

    #[test]
    fn elicitation_results_in_the_protocol_shape() {
        let mut content = Map::new();
        content.insert("name".into(), json!("Ada"));
        assert_eq!(
            elicitation_result(Choice::Accept, Some(content)),
            json!({"action": "accept", "content": {"name": "Ada"}})
        );
        assert_eq!(
            elicitation_result(Choice::Decline, None),
            json!({"action": "decline"})
        );
        assert_eq!(
            elicitation_result(Choice::Cancel, None),
            json!({"action": "cancel"})
        );
        let parsed: rmcp::model::ElicitResult =
            serde_json::from_value(elicitation_result(Choice::Decline, None)).unwrap();
        let _ = parsed;
    }

    #[test]
    fn only_web_urls_become_links() {
        assert!(is_web_url("https://example.com"));
        assert!(!is_web_url("javascript:alert(1)"));
        assert!(!is_web_url("data:text/html,x"));
    }

    #[cfg(not(target_arch = "wasm32"))]
    mod properties {
        use super::*;
        use crate::arbitrary;
        use proptest::prelude::*;

        proptest! {
            #[test]
            fn any_server_request_is_shown_without_panicking(params in arbitrary::json()) {
                let _ = sampling_request(Some(&params));
                let _ = elicitation_request(Some(&params));
            }
        }
    }
}
