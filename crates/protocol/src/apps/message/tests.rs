use super::*;
use crate::apps::link::LinkRefusal;
use crate::apps::spec::LATEST_PROTOCOL_VERSION;
use serde_json::{json, Value};

fn req(method: &str, params: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params })
}

fn note(method: &str, params: Value) -> Value {
    json!({ "jsonrpc": "2.0", "method": method, "params": params })
}

fn invalid_code(message: &Value) -> Option<(Option<RequestId>, i32)> {
    match classify(message) {
        AppMessage::Invalid { id, code, .. } => Some((id, code)),
        _ => None,
    }
}

#[test]
fn the_spec_examples_classify() {
    let one = RequestId::Number(1);
    // The spec's "Transport Layer" example of an SDK-less app.
    assert_eq!(
        classify(&req(
            "ui/initialize",
            json!({
                "appCapabilities": {},
                "appInfo": { "name": "My UI", "version": "1.0.0" },
                "protocolVersion": "2026-01-26"
            })
        )),
        AppMessage::Initialize {
            id: one.clone(),
            init: AppInit {
                protocol_version: "2026-01-26".into(),
                app_name: "My UI".into(),
                app_version: "1.0.0".into(),
                display_modes: None,
            },
        }
    );
    // What App.connect sends after the result (no params).
    assert_eq!(
        classify(&json!({ "jsonrpc": "2.0", "method": "ui/notifications/initialized" })),
        AppMessage::Initialized
    );
    // setupSizeChangedNotifications: { width, height } from getBoundingClientRect.
    assert_eq!(
        classify(&note(
            "ui/notifications/size-changed",
            json!({ "width": 400, "height": 300.2 })
        )),
        AppMessage::SizeChanged {
            width: Some(400),
            height: Some(301)
        }
    );
    assert_eq!(
        classify(&req(
            "ui/request-display-mode",
            json!({ "mode": "fullscreen" })
        )),
        AppMessage::RequestDisplayMode {
            id: one.clone(),
            mode: DisplayMode::Fullscreen
        }
    );
    // The spec's ui/message shows `content` as one block; spec.types has an array.
    assert_eq!(
        classify(&req(
            "ui/message",
            json!({ "role": "user", "content": [{ "type": "text", "text": "hi" }] })
        )),
        AppMessage::Message {
            id: one.clone(),
            content: vec![json!({ "type": "text", "text": "hi" })]
        }
    );
    assert!(invalid_code(&req(
        "ui/message",
        json!({ "role": "user", "content": { "type": "text", "text": "hi" } })
    ))
    .is_some());
    assert_eq!(
        classify(&req(
            "ui/update-model-context",
            json!({ "structuredContent": { "a": 1 } })
        )),
        AppMessage::UpdateModelContext {
            id: one.clone(),
            content: None,
            structured_content: Some(json!({ "a": 1 }).as_object().unwrap().clone()),
        }
    );
    assert_eq!(
        classify(&note(
            "notifications/message",
            json!({ "level": "info", "data": "x" })
        )),
        AppMessage::Log {
            level: "info".into(),
            logger: None,
            data: json!("x")
        }
    );
    assert_eq!(
        classify(&req("ping", json!({}))),
        AppMessage::Ping { id: one.clone() }
    );
    // What the SDK's Protocol sends when a request's AbortSignal fires.
    assert_eq!(
        classify(&note(
            "notifications/cancelled",
            json!({ "requestId": 4, "reason": "aborted" })
        )),
        AppMessage::Cancelled {
            request_id: RequestId::Number(4),
            reason: Some("aborted".into())
        }
    );
    assert_eq!(
        classify(&json!({ "jsonrpc": "2.0", "method": "ui/notifications/request-teardown" })),
        AppMessage::RequestTeardown
    );
    assert_eq!(
        classify(&req("resources/read", json!({ "uri": "ui://a/b" }))),
        AppMessage::ReadResource {
            id: one.clone(),
            uri: "ui://a/b".into()
        }
    );
    match classify(&req(
        "ui/open-link",
        json!({ "url": "javascript:alert(1)" }),
    )) {
        AppMessage::OpenLink {
            link: Err(LinkRefusal::Scheme(s)),
            ..
        } => assert_eq!(s, "javascript"),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        classify(&json!({ "jsonrpc": "2.0", "id": "t1", "result": {} })),
        AppMessage::Response {
            id: RequestId::String("t1".into()),
            outcome: Ok(json!({}))
        }
    );
    assert_eq!(
        classify(
            &json!({ "jsonrpc": "2.0", "id": 7, "error": { "code": -32000, "message": "Teardown error" } })
        ),
        AppMessage::Response {
            id: RequestId::Number(7),
            outcome: Err(RpcError {
                code: -32000,
                message: "Teardown error".into()
            })
        }
    );
    assert_eq!(
        classify(&req("resources/list", json!({}))),
        AppMessage::OtherRequest {
            id: one,
            method: "resources/list".into()
        }
    );
}

#[test]
fn wrong_shapes_are_invalid_with_the_sdk_codes() {
    let one = Some(RequestId::Number(1));
    for message in [
        json!(null),
        json!([{ "jsonrpc": "2.0", "method": "ping", "id": 1 }]),
        json!({ "method": "ping", "id": 1 }),
        json!({ "jsonrpc": "1.0", "method": "ping", "id": 1 }),
        json!({ "jsonrpc": "2.0", "method": "ping", "id": 1.5 }),
        json!({ "jsonrpc": "2.0", "method": "ping", "id": [1] }),
        json!({ "jsonrpc": "2.0", "id": 1 }),
        json!({ "jsonrpc": "2.0", "id": 1, "result": {}, "error": {} }),
        json!({ "jsonrpc": "2.0", "id": 1, "error": { "code": "x" } }),
        json!({ "jsonrpc": "2.0" }),
    ] {
        assert_eq!(
            invalid_code(&message),
            Some((None, codes::INVALID_REQUEST)),
            "{message}"
        );
    }
    assert_eq!(
        invalid_code(&json!({ "jsonrpc": "2.0", "id": 1, "method": 5 })),
        Some((one.clone(), codes::INVALID_REQUEST))
    );
    for message in [
        req("tools/call", json!({})),
        req("tools/call", json!({ "name": "x", "arguments": [1] })),
        req("tools/call", json!("name")),
        req("resources/read", json!({ "uri": 3 })),
        req("ui/open-link", json!({})),
        req(
            "ui/initialize",
            json!({ "appInfo": { "name": "a" }, "protocolVersion": "x", "appCapabilities": {} }),
        ),
        req(
            "ui/initialize",
            json!({ "appInfo": { "name": "a", "version": "1" }, "protocolVersion": "x" }),
        ),
        req("ui/message", json!({ "role": "assistant", "content": [] })),
        req(
            "ui/message",
            json!({ "role": "user", "content": [{ "text": "no type" }] }),
        ),
        req(
            "ui/update-model-context",
            json!({ "structuredContent": [1] }),
        ),
        req("ui/request-display-mode", json!({ "mode": "maximized" })),
        req("ui/download-file", json!({ "contents": "x" })),
    ] {
        assert_eq!(
            invalid_code(&message),
            Some((one.clone(), codes::INVALID_PARAMS)),
            "{message}"
        );
    }
    for message in [
        note("ui/notifications/size-changed", json!({ "width": "400px" })),
        note(
            "notifications/message",
            json!({ "level": "loud", "data": 1 }),
        ),
        note(
            "notifications/message",
            json!({ "level": "info", "logger": 5 }),
        ),
        note("notifications/cancelled", json!({ "requestId": 1.5 })),
        note("notifications/cancelled", json!({})),
    ] {
        assert_eq!(
            invalid_code(&message),
            Some((None, codes::INVALID_PARAMS)),
            "{message}"
        );
    }
    // Sizes are clamped, never negative or huge.
    assert_eq!(
        classify(&note(
            "ui/notifications/size-changed",
            json!({ "width": -5, "height": 1e300 })
        )),
        AppMessage::SizeChanged {
            width: Some(0),
            height: Some(MAX_FRAME_PX)
        }
    );
    assert!(matches!(
        classify_text("{"),
        AppMessage::Invalid { id: None, .. }
    ));
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    assert!(matches!(classify_text(&deep), AppMessage::Invalid { .. }));
}

#[test]
fn builders_make_the_spec_shapes() {
    let id = RequestId::Number(0);
    let args = json!({ "location": "San Francisco" })
        .as_object()
        .unwrap()
        .clone();
    // The spec's "Data Passing" examples.
    assert_eq!(
        tool_input(&args),
        json!({ "jsonrpc": "2.0", "method": "ui/notifications/tool-input",
                "params": { "arguments": { "location": "San Francisco" } } })
    );
    let result_json = json!({ "content": [{ "type": "text", "text": "Current weather: Sunny, 72°F" }],
                              "structuredContent": { "temperature": 72 } });
    assert_eq!(tool_result(&result_json)["params"], result_json);
    assert_eq!(
        tool_cancelled(Some("user action"))["params"],
        json!({ "reason": "user action" })
    );
    assert_eq!(tool_cancelled(None)["params"], json!({}));
    assert_eq!(
        resource_teardown(&id),
        json!({ "jsonrpc": "2.0", "id": 0, "method": "ui/resource-teardown", "params": {} })
    );
    let long = "x".repeat(5000);
    let answer = error(&id, codes::DENIED, &long);
    assert!(answer["error"]["message"].as_str().unwrap().chars().count() <= MAX_ERROR_CHARS + 1);
    // Version negotiation as AppBridge._oninitialize.
    let caps = HostCapabilities::mcp_lens(true, true);
    let old = initialize_result(
        "2025-11-21",
        &HostInfo::mcp_lens(),
        &caps,
        &HostContext::default(),
    );
    assert_eq!(old["protocolVersion"], LATEST_PROTOCOL_VERSION);
    let caps_json = caps.to_json();
    assert!(caps_json.get("downloadFile").is_none());
    assert!(caps_json.get("sampling").is_none());
    assert_eq!(caps_json["openLinks"], json!({}));
    assert_eq!(
        caps_json["updateModelContext"]["structuredContent"],
        json!({})
    );
    assert_eq!(
        HostCapabilities::mcp_lens(false, false)
            .to_json()
            .get("serverTools"),
        None
    );
}
