//! The conversation loop over a scripted fake model: multi-step runs, approval (ask, allow,
//! never, declined), stop at every point, limits, errors, retry, edit-and-resend, and what a
//! run leaves in the conversation (always valid to send again).

mod support;

use mcp_lens_chat::chat_loop::{Approval, ApprovalPolicy, ChatEvent, LimitReached, Limits, RunEnd};
use mcp_lens_chat::conversation::{Conversation, Part, Role, StopReason, ToolResult, ToolStatus};
use mcp_lens_chat::export::{export_json, export_markdown, import_json};
use mcp_lens_chat::{ChatErrorKind, Dialect, ServerTools, ToolSet};
use serde_json::{json, Value};
use support::{provider, Answer, FakeRunner, Harness, LiveStream, ToolOutcome, KEY};

/// An OpenAI-compatible streamed answer saying `text`.
fn says(text: &str) -> Answer {
    let chunk = json!({ "model": "fake-model", "choices": [{ "index": 0, "delta": { "content": text }, "finish_reason": null }] });
    let stop = json!({ "choices": [{ "index": 0, "delta": {}, "finish_reason": "stop" }], "usage": { "prompt_tokens": 10, "completion_tokens": 3 } });
    Answer::sse(&format!(
        "data: {chunk}\n\ndata: {stop}\n\ndata: [DONE]\n\n"
    ))
}

/// An OpenAI-compatible streamed answer calling these tools (id, name, arguments as text).
fn calls(calls: &[(&str, &str, &str)]) -> Answer {
    let mut text = String::new();
    for (index, (id, name, arguments)) in calls.iter().enumerate() {
        let start = json!({ "choices": [{ "index": 0, "delta": { "tool_calls": [{ "index": index, "id": id, "type": "function", "function": { "name": name, "arguments": "" } }] } }] });
        let piece = json!({ "choices": [{ "index": 0, "delta": { "tool_calls": [{ "index": index, "function": { "arguments": arguments } }] } }] });
        text.push_str(&format!("data: {start}\n\ndata: {piece}\n\n"));
    }
    let stop = json!({ "choices": [{ "index": 0, "delta": {}, "finish_reason": "tool_calls" }] });
    text.push_str(&format!("data: {stop}\n\ndata: [DONE]\n\n"));
    Answer::sse(&text)
}

fn harness() -> Harness {
    Harness::new(
        Dialect::OpenAiCompatible,
        FakeRunner::echoing(),
        Limits::default(),
    )
}

/// Runs `send(text)` on a new conversation to its end.
fn send(h: &mut Harness, text: &str) -> (RunEnd, Conversation) {
    let chat = h.chat.clone();
    let text = text.to_owned();
    h.run(async move {
        let mut conversation = Conversation::new();
        let end = chat.send(&mut conversation, &text).await;
        (end, conversation)
    })
}

fn results(conversation: &Conversation) -> Vec<ToolResult> {
    conversation
        .messages
        .iter()
        .flat_map(|m| m.tool_results().cloned())
        .collect()
}

fn result_text(result: &ToolResult) -> String {
    result.result["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// The messages of the `n`th model request.
fn request_messages(h: &Harness, n: usize) -> Vec<Value> {
    h.http.seen()[n].body["messages"]
        .as_array()
        .unwrap()
        .clone()
}

fn event_names(h: &Harness) -> Vec<&'static str> {
    h.events()
        .iter()
        .filter_map(|event| match event {
            ChatEvent::TurnStarted { .. } => Some("turn started"),
            ChatEvent::TurnFinished { .. } => Some("turn finished"),
            ChatEvent::ApprovalNeeded { .. } => Some("approval needed"),
            ChatEvent::ToolCallStarted { .. } => Some("call started"),
            ChatEvent::ToolCallFinished { .. } => Some("call finished"),
            ChatEvent::ResultsAdded { .. } => Some("results added"),
            ChatEvent::Error { .. } => Some("error"),
            ChatEvent::Ended { .. } => Some("ended"),
            ChatEvent::Delta { .. } | ChatEvent::RequestDropped { .. } => None,
        })
        .collect()
}

#[test]
fn a_run_calls_a_tool_after_approval_and_answers_from_its_result() {
    let mut h = harness();
    h.http.script([
        calls(&[("call_1", "echo", r#"{"message":"hi"}"#)]),
        says("It said hi."),
    ]);
    let (end, conversation) = send(&mut h, "Echo hi.");
    assert_eq!(
        end,
        RunEnd::Finished {
            stop: StopReason::EndTurn
        }
    );
    assert_eq!(
        h.runner.calls.borrow().clone(),
        [(
            "everything".to_owned(),
            "echo".to_owned(),
            json!({ "message": "hi" })
        )]
    );
    assert_eq!(
        h.approver.asked.borrow().len(),
        1,
        "echo has no readOnlyHint: the person is asked"
    );
    let roles: Vec<Role> = conversation.messages.iter().map(|m| m.role).collect();
    assert_eq!(
        roles,
        [Role::User, Role::Assistant, Role::User, Role::Assistant]
    );
    assert_eq!(conversation.messages[3].text(), "It said hi.");
    let call = conversation.messages[1].tool_calls().next().unwrap();
    assert_eq!(
        (call.server_id.as_deref(), call.tool_name.as_deref()),
        (Some("everything"), Some("echo"))
    );
    let second = request_messages(&h, 1);
    assert_eq!(
        second[2],
        json!({ "role": "tool", "tool_call_id": "call_1", "content": "echo: {\"message\":\"hi\"}" })
    );
    assert_eq!(
        event_names(&h),
        [
            "turn started",
            "turn finished",
            "approval needed",
            "call started",
            "call finished",
            "results added",
            "turn started",
            "turn finished",
            "ended"
        ]
    );
    let turn = conversation.messages[3].turn.as_ref().unwrap();
    assert_eq!(turn.model, "fake-model");
    assert_eq!(turn.usage.unwrap().output_tokens, Some(3));
    assert!(h.events().iter().any(|e| matches!(e, ChatEvent::Delta { delta: mcp_lens_chat::stream::Delta::Text(t), .. } if t == "It said hi.")));
}

#[test]
fn read_only_tools_run_without_asking_and_parallel_calls_run_in_order() {
    let mut h = harness();
    h.http.script([
        calls(&[
            ("c1", "add", r#"{"a":2,"b":3}"#),
            ("c2", "echo", r#"{"message":"x"}"#),
        ]),
        says("5 and x."),
    ]);
    let (end, conversation) = send(&mut h, "Both.");
    assert!(matches!(end, RunEnd::Finished { .. }));
    let asked: Vec<String> = h
        .approver
        .asked
        .borrow()
        .iter()
        .map(|r| r.tool_name.clone())
        .collect();
    assert_eq!(asked, ["echo"]);
    let ran: Vec<String> = h
        .runner
        .calls
        .borrow()
        .iter()
        .map(|c| c.1.clone())
        .collect();
    assert_eq!(ran, ["add", "echo"]);
    let ids: Vec<String> = results(&conversation)
        .iter()
        .map(|r| r.call_id.clone())
        .collect();
    assert_eq!(ids, ["c1", "c2"]);
}

#[test]
fn a_declined_call_is_told_to_the_model_and_the_run_goes_on() {
    let mut h = harness();
    h.approver.answers.borrow_mut().push_back(Approval::Deny {
        reason: Some("not now".into()),
    });
    h.http.script([
        calls(&[("c1", "echo", r#"{"message":"hi"}"#)]),
        says("Understood."),
    ]);
    let (end, conversation) = send(&mut h, "Echo.");
    assert!(matches!(end, RunEnd::Finished { .. }));
    assert!(h.runner.calls.borrow().is_empty());
    let result = &results(&conversation)[0];
    assert_eq!(result.status, ToolStatus::Declined);
    assert_eq!(
        result_text(result),
        "The person declined this call: not now"
    );
    assert!(request_messages(&h, 1)[2]["content"]
        .as_str()
        .unwrap()
        .contains("declined"));
}

#[test]
fn policies_never_and_always_allow_decide_without_asking() {
    let mut h = harness();
    h.chat
        .set_policy("everything", "echo", ApprovalPolicy::Never);
    assert_eq!(
        h.chat.policy("everything", "add"),
        ApprovalPolicy::AlwaysAllow
    );
    h.http
        .script([calls(&[("c1", "echo", r#"{"message":"hi"}"#)]), says("OK.")]);
    let (_, conversation) = send(&mut h, "Echo.");
    assert_eq!(results(&conversation)[0].status, ToolStatus::NotAllowed);
    assert!(h.approver.asked.borrow().is_empty() && h.runner.calls.borrow().is_empty());

    h.chat
        .set_policy("everything", "echo", ApprovalPolicy::AlwaysAllow);
    h.http
        .script([calls(&[("c1", "echo", r#"{"message":"hi"}"#)]), says("OK.")]);
    let (_, conversation) = send(&mut h, "Echo.");
    assert_eq!(results(&conversation)[0].status, ToolStatus::Done);
    assert!(h.approver.asked.borrow().is_empty());
}

#[test]
fn stop_mid_stream_keeps_the_text_so_far_and_retry_answers_again() {
    let mut h = harness();
    let live = LiveStream::default();
    h.http.script([Answer::sse("").live(&live)]);
    let chat = h.chat.clone();
    let done = h.spawn(async move {
        let mut conversation = Conversation::new();
        let end = chat.send(&mut conversation, "Tell a story.").await;
        (end, conversation)
    });
    live.push("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Once upon\"}}]}\n\n");
    h.settle();
    assert!(done.borrow().is_none(), "still streaming");
    h.chat.stop();
    h.settle();
    let (end, mut conversation) = done.borrow_mut().take().expect("the run ended");
    assert_eq!(end, RunEnd::Stopped);
    let partial = &conversation.messages[1];
    assert_eq!(partial.text(), "Once upon");
    assert!(partial.turn.as_ref().unwrap().interrupted);

    h.http.script([says("Once upon a time.")]);
    let chat = h.chat.clone();
    let (end, conversation) = h.run(async move {
        let end = chat.retry(&mut conversation).await;
        (end, conversation)
    });
    assert!(matches!(end, RunEnd::Finished { .. }));
    assert_eq!(conversation.messages.len(), 2);
    assert_eq!(conversation.messages[1].text(), "Once upon a time.");
}

#[test]
fn stop_while_waiting_for_approval_or_while_a_tool_runs_leaves_every_call_with_a_result() {
    for hang_in_tool in [false, true] {
        let runner = if hang_in_tool {
            FakeRunner::new(|_, _, _| ToolOutcome::Hang)
        } else {
            FakeRunner::echoing()
        };
        let mut h = Harness::new(Dialect::OpenAiCompatible, runner, Limits::default());
        h.approver.wait.set(!hang_in_tool);
        if hang_in_tool {
            h.chat
                .set_policy("everything", "echo", ApprovalPolicy::AlwaysAllow);
        }
        h.http.script([calls(&[
            ("c1", "echo", r#"{"message":"a"}"#),
            ("c2", "add", r#"{"a":1,"b":1}"#),
        ])]);
        let chat = h.chat.clone();
        let done = h.spawn(async move {
            let mut conversation = Conversation::new();
            let end = chat.send(&mut conversation, "Go.").await;
            (end, conversation)
        });
        h.settle();
        assert!(done.borrow().is_none());
        h.chat.stop();
        h.settle();
        let (end, conversation) = done.borrow_mut().take().expect("the run ended");
        assert_eq!(end, RunEnd::Stopped);
        let statuses: Vec<ToolStatus> = results(&conversation).iter().map(|r| r.status).collect();
        assert_eq!(
            statuses,
            [ToolStatus::Skipped, ToolStatus::Skipped],
            "hang in tool: {hang_in_tool}"
        );
        assert!(conversation.pending_tool_calls().is_empty());
        assert_eq!(h.http.seen().len(), 1, "no model request after a stop");
    }
}

#[test]
fn the_limit_of_tool_calls_runs_the_first_and_says_why_the_others_did_not() {
    let limits = Limits {
        max_tool_calls: 1,
        ..Limits::default()
    };
    let mut h = Harness::new(Dialect::OpenAiCompatible, FakeRunner::echoing(), limits);
    h.http.script([calls(&[
        ("c1", "add", r#"{"a":1,"b":2}"#),
        ("c2", "add", r#"{"a":3,"b":4}"#),
    ])]);
    let (end, conversation) = send(&mut h, "Add twice.");
    assert_eq!(end, RunEnd::Limit(LimitReached::ToolCalls(1)));
    let found = results(&conversation);
    assert_eq!(
        (found[0].status, found[1].status),
        (ToolStatus::Done, ToolStatus::Skipped)
    );
    assert!(result_text(&found[1]).contains("limit of 1 tool calls"));
}

#[test]
fn the_limit_of_turns_stops_a_model_that_keeps_calling_tools() {
    let limits = Limits {
        max_turns: 2,
        ..Limits::default()
    };
    let mut h = Harness::new(Dialect::OpenAiCompatible, FakeRunner::echoing(), limits);
    h.http
        .script([calls(&[("c1", "add", "{}")]), calls(&[("c2", "add", "{}")])]);
    let (end, conversation) = send(&mut h, "Loop.");
    assert_eq!(end, RunEnd::Limit(LimitReached::Turns(2)));
    assert_eq!(h.http.seen().len(), 2);
    assert!(
        conversation.pending_tool_calls().is_empty(),
        "the last calls ran before the limit was checked"
    );
}

#[test]
fn a_conversation_over_its_byte_limit_is_not_sent() {
    let limits = Limits {
        max_conversation_bytes: 50,
        ..Limits::default()
    };
    let mut h = Harness::new(Dialect::OpenAiCompatible, FakeRunner::echoing(), limits);
    let (end, _) = send(&mut h, &"long ".repeat(20));
    assert_eq!(end, RunEnd::Limit(LimitReached::ConversationBytes(50)));
    assert!(h.http.seen().is_empty());
}

#[test]
fn a_rate_limit_fails_the_run_leaves_the_conversation_as_it_was_and_retry_works() {
    let mut h = harness();
    h.http.script([Answer::json(
        429,
        r#"{"error":{"message":"Slow down","type":"requests","code":"rate_limit_exceeded"}}"#,
    )
    .header("retry-after", "2")]);
    let (end, mut conversation) = send(&mut h, "Hi.");
    let RunEnd::Failed(error) = end else {
        panic!("{end:?}")
    };
    assert_eq!(error.retry_after_ms(), Some(2_000));
    assert_eq!(conversation.messages.len(), 1);
    assert!(event_names(&h).ends_with(&["error", "ended"]));

    h.http.script([says("Hello.")]);
    let chat = h.chat.clone();
    let (end, conversation) = h.run(async move {
        let end = chat.retry(&mut conversation).await;
        (end, conversation)
    });
    assert!(matches!(end, RunEnd::Finished { .. }));
    assert_eq!(conversation.messages[1].text(), "Hello.");
}

#[test]
fn unknown_tools_bad_arguments_and_failed_calls_become_error_results_for_the_model() {
    let runner = FakeRunner::new(|_, _, _| ToolOutcome::Failure("the server timed out".into()));
    let mut h = Harness::new(Dialect::OpenAiCompatible, runner, Limits::default());
    h.chat
        .set_policy("everything", "echo", ApprovalPolicy::AlwaysAllow);
    h.http.script([
        calls(&[
            ("c1", "nope", "{}"),
            ("c2", "echo", r#"{"message": "#),
            ("c3", "echo", r#"{"message":"x"}"#),
        ]),
        says("Sorry."),
    ]);
    let (end, conversation) = send(&mut h, "Try.");
    assert!(matches!(end, RunEnd::Finished { .. }));
    let found = results(&conversation);
    let statuses: Vec<ToolStatus> = found.iter().map(|r| r.status).collect();
    assert_eq!(
        statuses,
        [
            ToolStatus::UnknownTool,
            ToolStatus::InvalidArguments,
            ToolStatus::Failed
        ]
    );
    assert!(result_text(&found[0]).contains("The tools are: echo, add"));
    assert!(result_text(&found[1]).contains("not valid JSON"));
    assert_eq!(
        result_text(&found[2]),
        "The call failed: the server timed out"
    );
    assert!(found.iter().all(ToolResult::is_error));
    assert_eq!(h.runner.calls.borrow().len(), 1);
}

#[test]
fn edit_and_resend_truncates_and_sends_the_new_text() {
    let mut h = harness();
    h.http
        .script([says("First answer."), says("Second answer.")]);
    let (_, mut conversation) = send(&mut h, "First question.");
    let first = conversation.messages[0].id;
    let chat = h.chat.clone();
    let (end, conversation) = h.run(async move {
        let end = chat
            .edit_and_resend(&mut conversation, first, "Better question.")
            .await;
        (end, conversation)
    });
    assert!(matches!(end, RunEnd::Finished { .. }));
    assert_eq!(conversation.messages.len(), 2);
    assert_eq!(
        request_messages(&h, 1),
        [json!({ "role": "user", "content": "Better question." })]
    );
    assert_eq!(conversation.messages[1].text(), "Second answer.");
}

#[test]
fn gemini_free_form_arguments_reach_the_tool_as_json_and_call_ids_are_unique() {
    let tools = [
        json!({ "name": "set_headers", "inputSchema": { "type": "object", "properties": { "headers": { "type": "object" } } }, "annotations": { "readOnlyHint": true } }),
    ];
    let set = ToolSet::build(
        Dialect::Gemini,
        &[ServerTools {
            server_id: "http",
            tools: &tools,
        }],
    );
    let mut h = Harness::with_tools(
        provider(Dialect::Gemini),
        set,
        FakeRunner::echoing(),
        Limits::default(),
    );
    let call = |text: &str| {
        let chunk = json!({ "candidates": [{ "content": { "role": "model", "parts": [{ "functionCall": { "name": "set_headers", "args": { "headers": text } } }] }, "finishReason": "STOP" }] });
        Answer::sse(&format!("data: {chunk}\n\n"))
    };
    let done = json!({ "candidates": [{ "content": { "role": "model", "parts": [{ "text": "Done." }] }, "finishReason": "STOP" }] });
    h.http.script([
        call(r#"{"a":"1"}"#),
        call(r#"{"b":"2"}"#),
        Answer::sse(&format!("data: {done}\n\n")),
    ]);
    let (end, conversation) = send(&mut h, "Set headers twice.");
    assert!(matches!(end, RunEnd::Finished { .. }), "{end:?}");
    let received: Vec<Value> = h
        .runner
        .calls
        .borrow()
        .iter()
        .map(|c| c.2.clone())
        .collect();
    assert_eq!(
        received,
        [
            json!({ "headers": { "a": "1" } }),
            json!({ "headers": { "b": "2" } })
        ]
    );
    let ids: Vec<String> = results(&conversation)
        .iter()
        .map(|r| r.call_id.clone())
        .collect();
    assert_ne!(ids[0], ids[1]);
    let third = &h.http.seen()[2].body;
    assert_eq!(
        third["contents"][2]["parts"][0]["functionResponse"]["name"],
        "set_headers"
    );
    assert!(
        third["contents"][2]["parts"][0]["functionResponse"]
            .get("id")
            .is_none(),
        "made-up ids are not sent as Gemini's"
    );
}

#[test]
fn an_exported_conversation_has_no_key_and_reads_back_the_same() {
    let mut h = harness();
    h.http
        .script([calls(&[("c1", "add", r#"{"a":2,"b":3}"#)]), says("5.")]);
    let (_, mut conversation) = send(&mut h, "Add.");
    conversation.system_prompt = Some("Be exact.".into());
    let exported = export_json(&conversation);
    assert!(!exported.contains(KEY), "the key never reaches an export");
    assert!(exported.contains("\"format\": \"mcp-lens-chat\""));
    assert_eq!(import_json(&exported).unwrap(), conversation);
    let markdown = export_markdown(&conversation);
    assert!(!markdown.contains(KEY));
    for expected in [
        "## System prompt",
        "> Be exact.",
        "## You",
        "**Tool call** `c1`: add on everything",
        "**Result** of `c1` (done)",
        "## Model: fake-model",
    ] {
        assert!(
            markdown.contains(expected),
            "{expected} not in:\n{markdown}"
        );
    }
    let provider_label = &conversation.messages[1].turn.as_ref().unwrap().provider;
    assert_eq!(
        provider_label,
        "gpt-4o (OpenAI-compatible, https://api.openai.com/v1)"
    );
    assert!(matches!(
        conversation.messages[2].parts[0],
        Part::ToolResult(_)
    ));
}

#[test]
fn running_an_empty_conversation_is_an_error_not_a_request() {
    let mut h = harness();
    let chat = h.chat.clone();
    let end = h.run(async move { chat.run(&mut Conversation::new()).await });
    let RunEnd::Failed(error) = end else {
        panic!("{end:?}")
    };
    assert!(matches!(error.kind, ChatErrorKind::InvalidSettings { .. }));
    assert!(h.http.seen().is_empty());
}

#[test]
fn a_required_first_tool_call_applies_to_the_answer_to_the_person_only() {
    use mcp_lens_chat::conversation::ToolUse;
    let mut h = harness();
    h.approver.answers.borrow_mut().push_back(Approval::Allow);
    h.http.script([
        calls(&[("call_1", "echo", r#"{"message":"hi"}"#)]),
        says("It said hi."),
    ]);
    let chat = h.chat.clone();
    let (end, _) = h.run(async move {
        let mut conversation = Conversation::new();
        conversation.tool_use = ToolUse::RequiredFirst;
        let end = chat.send(&mut conversation, "Echo hi.").await;
        (end, conversation)
    });
    assert!(matches!(end, RunEnd::Finished { .. }), "{end:?}");
    let seen = h.http.seen();
    assert_eq!(seen[0].body["tool_choice"], "required");
    assert_eq!(
        seen[1].body["tool_choice"], "auto",
        "after the tool's result the model may answer"
    );
}
