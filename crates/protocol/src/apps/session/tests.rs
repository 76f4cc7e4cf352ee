use super::super::message::{Dimension, Theme};
use super::*;

fn session() -> AppSession {
    let context = HostContext {
        theme: Some(Theme::Light),
        display_mode: Some(DisplayMode::Inline),
        available_display_modes: vec![DisplayMode::Inline, DisplayMode::Fullscreen],
        container: Some((Dimension::Max(6000), Dimension::Unbounded)),
        ..HostContext::default()
    };
    let mut session = AppSession::new(
        HostInfo::mcp_lens(),
        HostCapabilities::mcp_lens(true, true),
        context,
    );
    session.set_tools(&[
        json!({ "name": "both" }),
        json!({ "name": "app_only", "_meta": { "ui": { "visibility": ["app"] } } }),
        json!({ "name": "model_only", "_meta": { "ui": { "visibility": ["model"] } } }),
        json!({ "name": "garbled", "_meta": { "ui": { "visibility": "app" } } }),
    ]);
    session
}

/// A measured page: a 1000 x 700 viewport, a 600 px wide panel.
const LAYOUT: Layout = Layout {
    viewport_width: 1000,
    viewport_height: 700,
    inline_width: 600,
};

fn initialize(session: &mut AppSession) -> Received {
    session.receive(
        &json!({ "jsonrpc": "2.0", "id": 0, "method": "ui/initialize", "params": {
        "appInfo": { "name": "app", "version": "1" },
        "appCapabilities": { "availableDisplayModes": ["inline", "fullscreen"] },
        "protocolVersion": "2026-01-26" } }),
    )
}

fn initialized(session: &mut AppSession) -> Received {
    session.receive(&json!({ "jsonrpc": "2.0", "method": "ui/notifications/initialized" }))
}

fn ready() -> AppSession {
    let mut s = session();
    initialize(&mut s);
    initialized(&mut s);
    s
}

fn call(session: &mut AppSession, id: i64, name: &str) -> Received {
    session.receive(&json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call",
                             "params": { "name": name, "arguments": {} } }))
}

fn args() -> Map<String, Value> {
    json!({ "location": "San Francisco" })
        .as_object()
        .unwrap()
        .clone()
}

#[test]
fn notifications_wait_for_initialized_then_go_in_order() {
    let mut s = session();
    assert!(s.send_tool_input_partial(&args()).is_empty());
    assert!(s.send_tool_input_partial(&args()).is_empty());
    assert!(s.send_tool_input(&args()).is_empty());
    assert!(s.send_tool_result(&json!({ "content": [] })).is_empty());
    // Partials after the complete input are never sent.
    assert!(s.send_tool_input_partial(&args()).is_empty());
    assert_eq!(s.held(), 3);
    let init = initialize(&mut s);
    assert_eq!(
        init.send.len(),
        1,
        "only the initialize result before initialized"
    );
    let result = &init.send[0]["result"];
    assert_eq!(result["hostContext"]["theme"], "light");
    assert_eq!(
        result["hostContext"]["containerDimensions"],
        json!({ "maxHeight": 6000 })
    );
    assert_eq!(*s.phase(), Phase::Initializing);
    // Still held after initialize: only initialized releases them.
    assert!(s.send_tool_cancelled(None).is_empty());
    let released = initialized(&mut s);
    assert_eq!(released.event, AppEvent::Initialized);
    let methods: Vec<&str> = released
        .send
        .iter()
        .map(|n| n["method"].as_str().unwrap())
        .collect();
    assert_eq!(
        methods,
        [
            m::TOOL_INPUT_PARTIAL,
            m::TOOL_INPUT,
            m::TOOL_RESULT,
            m::TOOL_CANCELLED
        ]
    );
    assert_eq!(s.held(), 0);
    // Now sent at once; a second complete input is not.
    assert_eq!(s.send_tool_result(&json!({ "content": [] })).len(), 1);
    assert!(s.send_tool_input(&args()).is_empty());
    assert!(matches!(
        initialized(&mut s).event,
        AppEvent::Ignored { .. }
    ));
}

#[test]
fn context_changes_are_diffed_merged_while_held_and_carried_by_initialize() {
    let mut s = session();
    // Before ui/initialize: nothing to send, the result carries it.
    let mut dark = s.context().clone();
    dark.theme = Some(Theme::Dark);
    assert!(s.set_host_context(dark.clone()).is_empty());
    let init = initialize(&mut s);
    assert_eq!(init.send[0]["result"]["hostContext"]["theme"], "dark");
    // Between initialize and initialized: held, merged into one.
    let mut next = dark.clone();
    next.locale = Some("fr-FR".into());
    assert!(s.set_host_context(next.clone()).is_empty());
    next.time_zone = Some("Europe/Paris".into());
    assert!(s.set_host_context(next.clone()).is_empty());
    assert!(
        s.set_host_context(next.clone()).is_empty(),
        "no change, nothing held"
    );
    assert_eq!(s.held(), 1);
    let released = initialized(&mut s);
    assert_eq!(
        released.send,
        [json!({ "jsonrpc": "2.0", "method": m::HOST_CONTEXT_CHANGED,
                 "params": { "locale": "fr-FR", "timeZone": "Europe/Paris" } })]
    );
    let mut light = next;
    light.theme = Some(Theme::Light);
    assert_eq!(
        s.set_host_context(light)[0]["params"],
        json!({ "theme": "light" })
    );
}

#[test]
fn the_app_calls_only_tools_visible_to_it() {
    let mut s = ready();
    for (id, name) in [(1, "both"), (2, "app_only")] {
        match call(&mut s, id, name).event {
            AppEvent::CallTool { name: called, .. } => assert_eq!(called, name),
            other => panic!("{name}: {other:?}"),
        }
    }
    for (id, name, text) in [
        (3, "model_only", "not callable by the app"),
        (4, "garbled", "not callable by the app"),
        (5, "nope", "Unknown tool: nope"),
    ] {
        let out = call(&mut s, id, name);
        assert!(matches!(out.event, AppEvent::Refused { .. }), "{name}");
        assert_eq!(out.send[0]["id"], id);
        assert_eq!(out.send[0]["error"]["code"], codes::INVALID_PARAMS);
        assert!(
            out.send[0]["error"]["message"]
                .as_str()
                .unwrap()
                .contains(text),
            "{name}"
        );
    }
    // A cancelled request is no longer waiting, and is not answered.
    let out = call(&mut s, 6, "both");
    assert!(matches!(out.event, AppEvent::CallTool { .. }));
    let cancel = json!({ "jsonrpc": "2.0", "method": "notifications/cancelled", "params": { "requestId": 6 } });
    assert_eq!(
        s.receive(&cancel).event,
        AppEvent::Cancelled {
            id: RequestId::Number(6),
            reason: None
        }
    );
    assert!(matches!(s.receive(&cancel).event, AppEvent::Ignored { .. }));
    assert_eq!(s.answer(&RequestId::Number(6), json!({})), None);
    // Answers: once each, to waiting ids only.
    assert_eq!(s.waiting(), 2);
    assert_eq!(
        s.answer(&RequestId::Number(1), json!({ "content": [] }))
            .unwrap()["result"],
        json!({ "content": [] })
    );
    assert_eq!(s.answer(&RequestId::Number(1), json!({})), None);
    assert_eq!(s.answer(&RequestId::Number(3), json!({})), None);
    let failed = s
        .answer_error(&RequestId::Number(2), -32603, "server unreachable")
        .unwrap();
    assert_eq!(
        failed["error"],
        json!({ "code": -32603, "message": "server unreachable" })
    );
    // A server without tools: not proxied at all.
    let mut bare = AppSession::new(
        HostInfo::mcp_lens(),
        HostCapabilities::mcp_lens(false, false),
        HostContext::default(),
    );
    let out = call(&mut bare, 1, "both");
    assert_eq!(out.send[0]["error"]["code"], codes::METHOD_NOT_FOUND);
    let out = bare.receive(&json!({ "jsonrpc": "2.0", "id": 2, "method": "resources/read", "params": { "uri": "ui://x" } }));
    assert_eq!(out.send[0]["error"]["code"], codes::METHOD_NOT_FOUND);
}

#[test]
fn a_flooding_app_is_capped() {
    let mut s = ready();
    for id in 0..MAX_APP_REQUESTS as i64 {
        assert!(matches!(
            call(&mut s, id, "both").event,
            AppEvent::CallTool { .. }
        ));
    }
    // A reused id while waiting, and one too many.
    let out = call(&mut s, 0, "both");
    assert_eq!(out.send[0]["error"]["code"], codes::INVALID_REQUEST);
    let out = call(&mut s, 1000, "both");
    assert_eq!(out.send[0]["error"]["code"], codes::DENIED);
    assert_eq!(s.waiting(), MAX_APP_REQUESTS);
    // Notifications held before initialization are bounded too.
    let mut s = session();
    for _ in 0..(MAX_HELD * 3) {
        s.send_tool_result(&json!({}));
    }
    assert_eq!(s.held(), MAX_HELD);
    assert_eq!(s.dropped(), MAX_HELD * 2);
    // Partial input never piles up.
    let mut s = session();
    for _ in 0..1000 {
        s.send_tool_input_partial(&args());
    }
    assert_eq!(s.held(), 1);
    // Garbage costs nothing and is answered when it can be.
    let mut s = ready();
    for junk in [
        json!(1),
        json!("x"),
        json!({ "jsonrpc": "2.0", "id": 5, "method": "tools/call" }),
    ] {
        let out = s.receive(&junk);
        assert!(matches!(
            out.event,
            AppEvent::Ignored { .. } | AppEvent::Refused { .. }
        ));
    }
    assert_eq!(s.waiting(), 0);
}

#[test]
fn links_are_checked_and_asked_one_at_a_time() {
    let mut s = ready();
    let link = |s: &mut AppSession, id: i64, url: &str| {
        s.receive(&json!({ "jsonrpc": "2.0", "id": id, "method": "ui/open-link", "params": { "url": url } }))
    };
    let out = link(&mut s, 1, "javascript:alert(document.cookie)");
    assert_eq!(out.send[0]["error"]["code"], codes::DENIED);
    assert!(out.send[0]["error"]["message"]
        .as_str()
        .unwrap()
        .starts_with("Invalid URL"));
    assert!(matches!(
        link(&mut s, 2, "https://example.com").event,
        AppEvent::OpenLink { .. }
    ));
    let out = link(&mut s, 3, "https://example.org");
    assert_eq!(out.send[0]["error"]["code"], codes::DENIED);
    let denied = s
        .deny(&RequestId::Number(2), "Link opening denied by user")
        .unwrap();
    assert_eq!(denied["error"]["message"], "Link opening denied by user");
    assert!(matches!(
        link(&mut s, 4, "https://example.org").event,
        AppEvent::OpenLink { .. }
    ));
}

#[test]
fn display_modes_follow_host_and_app_declarations() {
    let mut s = ready();
    s.set_layout(LAYOUT);
    // Asked from a click in the app (its proxy says so).
    let ask = |s: &mut AppSession, mode: &str| {
        s.handle_with_gesture(classify(&json!({ "jsonrpc": "2.0", "id": 9, "method": "ui/request-display-mode", "params": { "mode": mode } })), true)
    };
    let out = ask(&mut s, "fullscreen");
    assert_eq!(
        out.event,
        AppEvent::DisplayMode {
            mode: DisplayMode::Fullscreen
        }
    );
    assert_eq!(
        out.send[0]["params"],
        json!({ "displayMode": "fullscreen",
                "containerDimensions": { "height": 660, "width": 1000 } })
    );
    assert_eq!(out.send[1]["result"], json!({ "mode": "fullscreen" }));
    // pip is not offered by the host: the current mode is returned, nothing changes.
    let out = ask(&mut s, "pip");
    assert_eq!(out.event, AppEvent::Handled);
    assert_eq!(
        out.send,
        [json!({ "jsonrpc": "2.0", "id": 9, "result": { "mode": "fullscreen" } })]
    );
}

#[test]
fn full_screen_asked_with_no_action_of_the_person_waits_for_their_decision() {
    let mut s = ready();
    s.set_layout(LAYOUT);
    let ask = |s: &mut AppSession, id: i64, gesture: bool| {
        s.handle_with_gesture(
            classify(
                &json!({ "jsonrpc": "2.0", "id": id, "method": "ui/request-display-mode",
                              "params": { "mode": "fullscreen" } }),
            ),
            gesture,
        )
    };
    // On its own (at load, on a timer): nothing is sent, the person is asked.
    let out = ask(&mut s, 1, false);
    assert_eq!(
        out.event,
        AppEvent::ConfirmDisplayMode {
            id: RequestId::Number(1),
            mode: DisplayMode::Fullscreen
        }
    );
    assert!(out.send.is_empty());
    assert_eq!(s.context().display_mode, Some(DisplayMode::Inline));
    // Asked again meanwhile: answered with the mode it is in, no second question.
    let again = ask(&mut s, 2, false);
    assert_eq!(again.event, AppEvent::Handled);
    assert_eq!(again.send[0]["result"], json!({ "mode": "inline" }));
    // Declined: answered with the mode it is in; nothing changes.
    let (send, mode) = s
        .confirm_display_mode(&RequestId::Number(1), false)
        .expect("waiting");
    assert_eq!(mode, DisplayMode::Inline);
    assert_eq!(
        send,
        [json!({ "jsonrpc": "2.0", "id": 1, "result": { "mode": "inline" } })]
    );
    assert_eq!(s.confirm_display_mode(&RequestId::Number(1), true), None);
    // Asked again and allowed: the context change, then the answer.
    assert!(matches!(
        ask(&mut s, 3, false).event,
        AppEvent::ConfirmDisplayMode { .. }
    ));
    let (send, mode) = s
        .confirm_display_mode(&RequestId::Number(3), true)
        .expect("waiting");
    assert_eq!(mode, DisplayMode::Fullscreen);
    assert_eq!(send[0]["params"]["displayMode"], "fullscreen");
    assert_eq!(send[1]["result"], json!({ "mode": "fullscreen" }));
    // Back inline, then asked from a click in the app: granted at once.
    s.set_display_mode(DisplayMode::Inline);
    assert_eq!(
        ask(&mut s, 4, true).event,
        AppEvent::DisplayMode {
            mode: DisplayMode::Fullscreen
        }
    );
    // A question left open at teardown is never answered.
    let mut s = ready();
    assert!(matches!(
        ask(&mut s, 5, false).event,
        AppEvent::ConfirmDisplayMode { .. }
    ));
    s.close();
    assert_eq!(s.confirm_display_mode(&RequestId::Number(5), true), None);
    // Picture-in-picture covers no page: it needs no question.
    let mut s = session();
    let mut context = s.context().clone();
    context.available_display_modes = vec![DisplayMode::Inline, DisplayMode::Pip];
    s.set_host_context(context);
    initialized(&mut s);
    let pip = s.receive(
        &json!({ "jsonrpc": "2.0", "id": 6, "method": "ui/request-display-mode",
                                 "params": { "mode": "pip" } }),
    );
    assert_eq!(
        pip.event,
        AppEvent::DisplayMode {
            mode: DisplayMode::Pip
        }
    );
}

#[test]
fn display_modes_carry_their_container_and_pip_is_granted_only_when_declared() {
    let layout = LAYOUT;
    let ask = |s: &mut AppSession, id: i64, mode: &str| {
        s.handle_with_gesture(
            classify(
                &json!({ "jsonrpc": "2.0", "id": id, "method": "ui/request-display-mode",
                           "params": { "mode": mode } }),
            ),
            true,
        )
    };
    let mut s = session();
    let mut context = s.context().clone();
    context.available_display_modes = vec![
        DisplayMode::Inline,
        DisplayMode::Fullscreen,
        DisplayMode::Pip,
    ];
    s.set_host_context(context);
    // Measured before initialize: nothing sent, the result carries it.
    assert!(s.set_layout(layout).is_empty());
    let init = s.receive(
        &json!({ "jsonrpc": "2.0", "id": 0, "method": "ui/initialize",
        "params": { "appInfo": { "name": "app", "version": "1" }, "appCapabilities": {},
                    "protocolVersion": "2026-01-26" } }),
    );
    let context = &init.send[0]["result"]["hostContext"];
    assert_eq!(
        context["containerDimensions"],
        json!({ "maxHeight": 6000, "maxWidth": 600 })
    );
    assert_eq!(
        context["availableDisplayModes"],
        json!(["inline", "fullscreen", "pip"])
    );
    initialized(&mut s);
    // The app declared no modes: pip is granted, with a fixed width and a capped height.
    let out = ask(&mut s, 1, "pip");
    assert_eq!(
        out.event,
        AppEvent::DisplayMode {
            mode: DisplayMode::Pip
        }
    );
    assert_eq!(
        out.send,
        [
            json!({ "jsonrpc": "2.0", "method": m::HOST_CONTEXT_CHANGED, "params": {
                "displayMode": "pip",
                "containerDimensions": { "maxHeight": 350, "width": 400 } } }),
            json!({ "jsonrpc": "2.0", "id": 1, "result": { "mode": "pip" } }),
        ]
    );
    let out = ask(&mut s, 2, "fullscreen");
    assert_eq!(
        out.send[0]["params"],
        json!({ "displayMode": "fullscreen",
                "containerDimensions": { "height": 660, "width": 1000 } })
    );
    // The viewport grows while full screen: the container follows; a second identical
    // measure sends nothing.
    let bigger = Layout {
        viewport_width: 1200,
        ..layout
    };
    assert_eq!(
        s.set_layout(bigger),
        [
            json!({ "jsonrpc": "2.0", "method": m::HOST_CONTEXT_CHANGED, "params": {
            "containerDimensions": { "height": 660, "width": 1200 } } })
        ]
    );
    assert!(s.set_layout(bigger).is_empty());
    // The person leaves full screen: inline again, with the panel's width.
    assert_eq!(
        s.set_display_mode(DisplayMode::Inline),
        [
            json!({ "jsonrpc": "2.0", "method": m::HOST_CONTEXT_CHANGED, "params": {
            "displayMode": "inline",
            "containerDimensions": { "maxHeight": 6000, "maxWidth": 600 } } })
        ]
    );
    // Asking for the mode it is in: answered, nothing announced.
    let out = ask(&mut s, 3, "inline");
    assert_eq!(out.event, AppEvent::Handled);
    assert_eq!(out.send.len(), 1);

    assert!(s.offers(DisplayMode::Pip) && s.offers(DisplayMode::Fullscreen));
    assert!(!s.offers(DisplayMode::Inline), "the mode it is in");

    // An app that declared only inline and fullscreen is answered with the mode it is in,
    // and the person is not offered pip either.
    let mut s = ready();
    let mut context = s.context().clone();
    context.available_display_modes = vec![
        DisplayMode::Inline,
        DisplayMode::Fullscreen,
        DisplayMode::Pip,
    ];
    s.set_host_context(context);
    assert!(!s.offers(DisplayMode::Pip) && s.offers(DisplayMode::Fullscreen));
    let out = ask(&mut s, 4, "pip");
    assert_eq!(out.event, AppEvent::Handled);
    assert_eq!(
        out.send,
        [json!({ "jsonrpc": "2.0", "id": 4, "result": { "mode": "inline" } })]
    );
}

#[test]
fn theme_changes_reach_a_running_app_once_and_none_after_teardown() {
    let mut s = ready();
    assert!(s.set_theme(Theme::Light).is_empty(), "unchanged");
    assert_eq!(
        s.set_theme(Theme::Dark),
        [json!({ "jsonrpc": "2.0", "method": m::HOST_CONTEXT_CHANGED,
                 "params": { "theme": "dark" } })]
    );
    assert!(s.teardown().is_some());
    assert!(s.set_theme(Theme::Light).is_empty());
    assert!(s
        .set_layout(Layout {
            viewport_width: 10,
            viewport_height: 10,
            inline_width: 10
        })
        .is_empty());
}

#[test]
fn teardown_waits_for_the_answer_then_accepts_nothing() {
    let mut s = ready();
    let out = call(&mut s, 1, "both");
    assert!(matches!(out.event, AppEvent::CallTool { .. }));
    let request = s.teardown().unwrap();
    assert_eq!(request["method"], m::RESOURCE_TEARDOWN);
    assert!(s.teardown().is_none());
    assert!(s.send_tool_result(&json!({})).is_empty());
    // A stray answer does not end it.
    let stray = s.receive(&json!({ "jsonrpc": "2.0", "id": 77, "result": {} }));
    assert!(matches!(stray.event, AppEvent::Ignored { .. }));
    let done = s.receive(&json!({ "jsonrpc": "2.0", "id": request["id"].clone(), "result": {} }));
    assert_eq!(done.event, AppEvent::TeardownDone { error: None });
    assert_eq!(*s.phase(), Phase::Closed);
    for message in [
        json!({ "jsonrpc": "2.0", "id": 2, "method": "ping" }),
        json!({ "jsonrpc": "2.0", "method": "ui/notifications/initialized" }),
    ] {
        let out = s.receive(&message);
        assert!(out.send.is_empty());
        assert!(matches!(out.event, AppEvent::Ignored { .. }));
    }
    assert_eq!(s.answer(&RequestId::Number(1), json!({})), None);
    assert!(s.send_tool_input(&args()).is_empty());
    // Never initialized: nothing may be sent, so teardown is immediate.
    let mut early = session();
    assert!(early.teardown().is_none());
    assert_eq!(*early.phase(), Phase::Closed);
}

#[test]
fn other_requests_and_undeclared_capabilities_are_method_not_found() {
    let mut s = ready();
    for method in [
        "resources/list",
        "sampling/createMessage",
        "ui/download-file",
    ] {
        let out = s.receive(
            &json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": { "contents": [] } }),
        );
        assert_eq!(
            out.send[0]["error"]["code"],
            codes::METHOD_NOT_FOUND,
            "{method}"
        );
    }
    let out = s.receive(&json!({ "jsonrpc": "2.0", "id": 1, "method": "ping" }));
    assert_eq!(
        out.send,
        [json!({ "jsonrpc": "2.0", "id": 1, "result": {} })]
    );
    let out = s.receive(&json!({ "jsonrpc": "2.0", "method": "ui/notifications/sandbox-proxy-ready", "params": {} }));
    assert!(matches!(out.event, AppEvent::Ignored { .. }));
    let out = s.receive(&json!({ "jsonrpc": "2.0", "method": "ui/notifications/size-changed", "params": { "height": 120 } }));
    assert_eq!(
        out.event,
        AppEvent::Resize {
            width: None,
            height: Some(120)
        }
    );
}
