//! Property tests: every reader is total on any input, and no input gets anything into a
//! policy but canonical sources under known directives.

use proptest::prelude::*;
use serde_json::{json, Value};

use super::csp::{check_source, with_csp_meta, CspDecl, CspList, DIRECTIVES, SANDBOX};
use super::link::check_link;
use super::message::{classify, classify_text, HostCapabilities, HostContext, HostInfo};
use super::methods as m;
use super::resource::{forgiving_base64, read_ui_resource};
use super::session::{AppSession, Phase, MAX_APP_REQUESTS, MAX_HELD};
use super::tool::ToolUi;
use crate::arbitrary::json as any_json;

/// Text a hostile server would try: source-ish pieces glued with policy and URL syntax.
fn hostile_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("https://".to_owned()),
        Just("http://".to_owned()),
        Just("wss://".to_owned()),
        Just("data:".to_owned()),
        Just("javascript:".to_owned()),
        Just("*.".to_owned()),
        Just("*".to_owned()),
        Just("'unsafe-inline'".to_owned()),
        Just("'self'".to_owned()),
        Just("; script-src *".to_owned()),
        Just(",".to_owned()),
        Just(" ".to_owned()),
        Just("\n".to_owned()),
        Just("\u{202E}".to_owned()),
        Just("@".to_owned()),
        Just(":8080".to_owned()),
        Just("/path".to_owned()),
        Just("?q#f".to_owned()),
        Just("%2F".to_owned()),
        Just("[::1]".to_owned()),
        Just("\\".to_owned()),
        Just("\"".to_owned()),
        "[a-zA-Z0-9.-]{1,12}",
        ".{0,6}",
    ];
    proptest::collection::vec(piece, 0..6).prop_map(|pieces| pieces.concat())
}

fn hostile_csp() -> impl Strategy<Value = Value> {
    let list = prop_oneof![
        proptest::collection::vec(hostile_text().prop_map(Value::String), 0..8)
            .prop_map(Value::Array),
        any_json(),
    ];
    (list.clone(), list.clone(), list.clone(), list).prop_map(|(c, r, f, b)| {
        json!({ "connectDomains": c, "resourceDomains": r, "frameDomains": f, "baseUriDomains": b })
    })
}

const KEYWORDS: [&str; 6] = [
    "'self'",
    "'unsafe-inline'",
    "'unsafe-eval'",
    "'none'",
    "blob:",
    "data:",
];

fn canonical_source(token: &str) -> bool {
    let Some((scheme, rest)) = token.split_once("://") else {
        return false;
    };
    matches!(scheme, "http" | "https" | "ws" | "wss")
        && !rest.is_empty()
        && rest
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~/%!$()+=:@*[]".contains(&b))
        && !rest
            .split('/')
            .next()
            .unwrap_or("")
            .bytes()
            .any(|b| b.is_ascii_uppercase())
}

/// A JSON-RPC envelope for a known method with arbitrary id and params, so every
/// per-method reader is exercised, not only the envelope check.
fn envelope() -> impl Strategy<Value = Value> {
    let method = prop_oneof![
        Just(m::INITIALIZE),
        Just(m::INITIALIZED),
        Just(m::SIZE_CHANGED),
        Just(m::OPEN_LINK),
        Just(m::DOWNLOAD_FILE),
        Just(m::MESSAGE),
        Just(m::UPDATE_MODEL_CONTEXT),
        Just(m::REQUEST_DISPLAY_MODE),
        Just(m::REQUEST_TEARDOWN),
        Just(m::TOOLS_CALL),
        Just(m::RESOURCES_READ),
        Just(m::LOG),
        Just(m::PING),
        Just(m::CANCELLED),
        Just("resources/list"),
    ];
    let id = prop_oneof![
        Just(None),
        (0i64..4).prop_map(|n| Some(json!(n))),
        any_json().prop_map(Some),
    ];
    let params = prop_oneof![
        any_json(),
        Just(json!({ "name": "app_tool", "arguments": {} })),
        Just(json!({ "name": "model_tool" })),
        Just(json!({ "url": "https://example.com" })),
        hostile_text().prop_map(|url| json!({ "url": url })),
        Just(
            json!({ "appInfo": { "name": "a", "version": "1" }, "appCapabilities": {}, "protocolVersion": "2026-01-26" })
        ),
        Just(json!({ "role": "user", "content": [{ "type": "text", "text": "x" }] })),
        Just(json!({ "mode": "fullscreen" })),
        (0i64..4).prop_map(|id| json!({ "requestId": id })),
    ];
    let response = (0i64..4, any_json())
        .prop_map(|(id, result)| json!({ "jsonrpc": "2.0", "id": id, "result": result }));
    prop_oneof![
        4 => (method, id, params).prop_map(|(method, id, params)| {
            let mut message = json!({ "jsonrpc": "2.0", "method": method, "params": params });
            if let Some(id) = id {
                message["id"] = id;
            }
            message
        }),
        1 => response,
        1 => any_json(),
    ]
}

fn is_json_rpc_to_app(value: &Value) -> bool {
    value["jsonrpc"] == "2.0"
        && (value.get("method").is_some_and(Value::is_string)
            || value.get("result").is_some()
            || value["error"]["code"].is_i64())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn readers_are_total_on_any_json(value in any_json(), listing in any_json()) {
        let _ = classify(&value);
        let _ = ToolUi::from_meta(&value);
        let _ = ToolUi::from_tool(&value);
        let _ = read_ui_resource(&value, Some(&listing));
        let _ = read_ui_resource(&json!({ "contents": [value.clone()] }), Some(&listing));
        let _ = CspDecl::from_value(Some(&value)).policy();
        let _ = super::csp::Permissions::from_value(Some(&value)).allow_attribute(super::csp::Permissions::default());
    }

    #[test]
    fn text_readers_are_total(text in ".{0,200}") {
        let _ = classify_text(&text);
        let _ = check_link(&text);
        let _ = check_source(&text, CspList::Connect);
        let _ = forgiving_base64(&text);
        let html = with_csp_meta(&text, "default-src 'none'");
        prop_assert!(html.contains("<meta http-equiv=\"Content-Security-Policy\""));
    }

    #[test]
    fn no_csp_carries_an_injected_directive(csp in hostile_csp()) {
        let decl = CspDecl::from_value(Some(&csp));
        let policy = decl.policy();
        let directives: Vec<&str> = policy.split("; ").collect();
        // Exactly the known directives, in order, once each.
        let names: Vec<&str> = directives.iter().map(|d| d.split(' ').next().unwrap_or("")).collect();
        prop_assert_eq!(names, DIRECTIVES.to_vec());
        for directive in directives {
            // No separator inside a source list, no other whitespace, nothing empty.
            prop_assert!(!directive.contains(';') && !directive.contains(','), "{}", directive);
            prop_assert!(directive.chars().all(|c| c == ' ' || c.is_ascii_graphic()), "{}", directive);
            for token in directive.split(' ').skip(1) {
                prop_assert!(!token.is_empty(), "{}", policy);
                prop_assert!(KEYWORDS.contains(&token) || canonical_source(token), "{}", token);
            }
        }
        // Accepted sources are canonical: checking them again changes nothing.
        for (list, sources) in [
            (CspList::Connect, &decl.connect),
            (CspList::Resource, &decl.resource),
            (CspList::Frame, &decl.frame),
            (CspList::BaseUri, &decl.base_uri),
        ] {
            prop_assert!(sources.len() <= super::csp::MAX_SOURCES);
            for source in sources {
                let again = check_source(source, list);
                prop_assert_eq!(again.as_deref(), Ok(source.as_str()));
            }
        }
    }

    #[test]
    fn accepted_links_read_as_they_open(text in hostile_text()) {
        if let Ok(link) = check_link(&text) {
            let lower = text.to_ascii_lowercase();
            prop_assert!(lower.starts_with("http://") || lower.starts_with("https://"));
            prop_assert!(!text.chars().any(|c| c.is_whitespace() || crate::error::is_invisible_control(c)));
            prop_assert!(!text.contains('\\'));
            prop_assert!(!link.host.is_empty() && !link.host.contains('@'));
        }
    }

    #[test]
    fn base64_round_trips(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
        let encoded = crate::auth::encode::base64(&bytes);
        prop_assert_eq!(forgiving_base64(&encoded), Some(bytes.clone()));
        prop_assert_eq!(forgiving_base64(encoded.trim_end_matches('=')), Some(bytes));
    }

    #[test]
    fn a_session_survives_any_message_sequence(
        messages in proptest::collection::vec(envelope(), 0..40),
        teardown_at in 0usize..50,
    ) {
        let mut session = AppSession::new(
            HostInfo::mcp_lens(),
            HostCapabilities::mcp_lens(true, true),
            HostContext::default(),
        );
        session.set_tools(&[
            json!({ "name": "app_tool", "_meta": { "ui": { "visibility": ["app"] } } }),
            json!({ "name": "model_tool", "_meta": { "ui": { "visibility": ["model"] } } }),
        ]);
        for (i, message) in messages.iter().enumerate() {
            session.send_tool_result(&json!({ "content": [] }));
            if i == teardown_at {
                if let Some(request) = session.teardown() {
                    prop_assert!(is_json_rpc_to_app(&request));
                }
            }
            let closed = *session.phase() == Phase::Closed;
            let out = session.receive(message);
            if closed {
                prop_assert!(out.send.is_empty());
            }
            for sent in &out.send {
                prop_assert!(is_json_rpc_to_app(sent), "{}", sent);
            }
            // The app never calls a tool that is not visible to it.
            if let super::session::AppEvent::CallTool { name, .. } = &out.event {
                prop_assert_eq!(name, "app_tool");
            }
            prop_assert!(session.waiting() <= MAX_APP_REQUESTS);
            prop_assert!(session.held() <= MAX_HELD);
        }
        prop_assert!(!SANDBOX.contains("allow-same-origin"));
    }
}
