//! Each dialect's answers, streamed and whole, read through the same path the chat uses
//! (`call_model` over a scripted HTTP fake), from answers written from the providers' published
//! wire formats (`tests/fixtures`); and each dialect's requests.

mod support;

use mcp_lens_chat::conversation::{
    Conversation, Part, Role, StopReason, ToolCall, ToolResult, ToolStatus, Usage,
};
use mcp_lens_chat::dialect::{build_request, ModelRequest, ToolChoice};
use mcp_lens_chat::model_call::{call_model, AnswerLimits, ModelAnswer, ModelCall};
use mcp_lens_chat::stream::Delta;
use mcp_lens_chat::{
    ApiKey, ChatErrorKind, ChatStep, Dialect, ProviderConfig, ServerTools, ToolSet,
};
use mcp_lens_client::runtime::Abort;
use serde_json::{json, Value};
use support::{
    everything_tools, fixture, provider, Answer, FakeHttp, Seen, TickingClock, KEY, PAGE_ORIGIN,
};

fn tools(dialect: Dialect) -> ToolSet {
    let tools = everything_tools();
    ToolSet::build(
        dialect,
        &[ServerTools {
            server_id: "everything",
            tools: &tools,
        }],
    )
}

fn hello() -> Conversation {
    let mut conversation = Conversation::new();
    conversation.push_user_text("Say hello.");
    conversation
}

/// One model turn for `config` answered by `answer`: the outcome, the deltas seen, the request.
fn turn_with(
    config: &ProviderConfig,
    conversation: &Conversation,
    answer: Answer,
    limits: AnswerLimits,
) -> (ModelAnswer, Vec<Delta>, Seen) {
    let http = FakeHttp::default();
    http.script([answer]);
    let clock = TickingClock::default();
    let abort = Abort::new();
    let set = tools(config.dialect);
    let call = ModelCall {
        http: &http,
        clock: &clock,
        config,
        limits,
        abort: &abort,
        page_origin: PAGE_ORIGIN,
    };
    let request = ModelRequest {
        system: Some("Be brief."),
        messages: &conversation.messages,
        temperature: Some(0.5),
        max_tokens: Some(300),
        stop_sequences: &[],
        tools: &set,
        tool_choice: ToolChoice::Auto,
        stream: true,
        max_tool_result_chars: 10_000,
    };
    let mut deltas = Vec::new();
    let answer = futures::executor::block_on(call_model(&call, &request, &mut |d: &Delta| {
        deltas.push(d.clone())
    }));
    let seen = http.seen().pop().expect("a request was sent");
    (answer, deltas, seen)
}

fn turn(dialect: Dialect, answer: Answer) -> (ModelAnswer, Vec<Delta>) {
    let (answer, deltas, _) = turn_with(
        &provider(dialect),
        &hello(),
        answer,
        AnswerLimits::default(),
    );
    (answer, deltas)
}

fn text_of(answer: &ModelAnswer) -> String {
    answer
        .turn
        .parts
        .iter()
        .filter_map(|p| match p {
            Part::Text { text } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

fn calls_of(answer: &ModelAnswer) -> Vec<(String, String, Value)> {
    answer
        .turn
        .tool_calls()
        .map(|c| (c.id.clone(), c.name.clone(), c.arguments.clone()))
        .collect()
}

fn error_kind(answer: &ModelAnswer) -> &ChatErrorKind {
    &answer.error.as_ref().expect("an error").kind
}

// ---------------------------------------------------------------- streamed and whole answers

#[test]
fn a_streamed_answer_reads_the_same_whatever_its_chunks_in_every_dialect() {
    for (dialect, path) in [
        (Dialect::OpenAiCompatible, "openai/text.sse"),
        (Dialect::OpenAiCompatible, "openai/parallel_tool_calls.sse"),
        (Dialect::Anthropic, "anthropic/text.sse"),
        (Dialect::Anthropic, "anthropic/tool_use.sse"),
        (Dialect::Anthropic, "anthropic/parallel_tool_use.sse"),
        (Dialect::Gemini, "gemini/text.sse"),
        (Dialect::Gemini, "gemini/function_calls.sse"),
    ] {
        let text = fixture(path);
        let (whole, _) = turn(dialect, Answer::sse(&text));
        assert!(whole.error.is_none(), "{path}: {:?}", whole.error);
        for size in [1, 2, 3, 5, 7, 13, 64, 200] {
            let (split, _) = turn(dialect, Answer::sse_in_chunks(&text, size));
            assert_eq!(split.turn, whole.turn, "{path} in chunks of {size}");
        }
    }
}

#[test]
fn openai_streamed_text_arrives_in_pieces_with_the_model_usage_and_stop() {
    let (answer, deltas) = turn(
        Dialect::OpenAiCompatible,
        Answer::sse_in_chunks(&fixture("openai/text.sse"), 7),
    );
    assert_eq!(text_of(&answer), "Hello, wörld!");
    assert_eq!(
        deltas
            .iter()
            .filter(|d| matches!(d, Delta::Text(_)))
            .count(),
        2
    );
    assert_eq!(answer.info.model, "gpt-4o-2024-08-06");
    assert_eq!(
        answer.info.usage,
        Some(Usage {
            input_tokens: Some(19),
            output_tokens: Some(4)
        })
    );
    assert_eq!(answer.info.stop, Some(StopReason::EndTurn));
    assert!(answer.info.time_to_first_token_ms.unwrap() > 0.0);
    assert!(answer.info.duration_ms >= answer.info.time_to_first_token_ms.unwrap());
    assert!(!answer.info.interrupted);
}

#[test]
fn openai_parallel_tool_calls_split_across_chunks_come_out_whole() {
    let (answer, deltas) = turn(
        Dialect::OpenAiCompatible,
        Answer::sse_in_chunks(&fixture("openai/parallel_tool_calls.sse"), 5),
    );
    assert_eq!(
        calls_of(&answer),
        [
            (
                "call_echo".to_owned(),
                "echo".to_owned(),
                json!({ "message": "hi" })
            ),
            (
                "call_add".to_owned(),
                "add".to_owned(),
                json!({ "a": 2, "b": 3 })
            ),
        ]
    );
    assert_eq!(answer.info.stop, Some(StopReason::ToolUse));
    let pieces = deltas
        .iter()
        .filter(|d| matches!(d, Delta::ToolCallArguments { .. }))
        .count();
    assert_eq!(pieces, 4, "argument pieces are handed on as they arrive");
}

#[test]
fn openai_whole_answers_give_calls_and_refusals() {
    let (answer, _) = turn(
        Dialect::OpenAiCompatible,
        Answer::json(200, &fixture("openai/tool_calls.json")),
    );
    assert_eq!(calls_of(&answer).len(), 2);
    assert_eq!(calls_of(&answer)[1].2, json!({ "a": 2, "b": 3 }));
    assert_eq!(
        answer.info.usage,
        Some(Usage {
            input_tokens: Some(82),
            output_tokens: Some(17)
        })
    );

    let (answer, _) = turn(
        Dialect::OpenAiCompatible,
        Answer::json(200, &fixture("openai/refusal.json")),
    );
    assert_eq!(text_of(&answer), "I'm sorry, I can't help with that.");
    assert!(matches!(answer.info.stop, Some(StopReason::Refusal { .. })));
    assert!(answer.error.is_none());
}

#[test]
fn openai_refusal_streamed_is_the_text_and_the_stop_reason() {
    let (answer, _) = turn(
        Dialect::OpenAiCompatible,
        Answer::sse_in_chunks(&fixture("openai/refusal.sse"), 11),
    );
    assert_eq!(text_of(&answer), "I'm sorry, I can't help with that.");
    assert_eq!(
        answer.info.stop,
        Some(StopReason::Refusal {
            detail: "I'm sorry, I can't help with that.".into()
        })
    );
}

#[test]
fn an_error_inside_an_openai_stream_stops_it_and_keeps_what_came_before() {
    let (answer, _) = turn(
        Dialect::OpenAiCompatible,
        Answer::sse(&fixture("openai/error_in_stream.sse")),
    );
    assert_eq!(text_of(&answer), "Let me");
    assert!(answer.info.interrupted);
    match error_kind(&answer) {
        ChatErrorKind::ProviderFailed { message, .. } => {
            assert_eq!(message, "Provider returned error")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn anthropic_streamed_text_and_tool_use_with_pings_between() {
    let (answer, _) = turn(
        Dialect::Anthropic,
        Answer::sse_in_chunks(&fixture("anthropic/text.sse"), 9),
    );
    assert_eq!(text_of(&answer), "Hello, wörld!");
    assert_eq!(
        answer.info.usage,
        Some(Usage {
            input_tokens: Some(25),
            output_tokens: Some(15)
        })
    );
    assert_eq!(answer.info.model, "claude-sonnet-4-5-20250929");

    let (answer, _) = turn(
        Dialect::Anthropic,
        Answer::sse_in_chunks(&fixture("anthropic/tool_use.sse"), 4),
    );
    assert_eq!(text_of(&answer), "Okay, let me echo that for you.");
    assert_eq!(
        calls_of(&answer),
        [(
            "toolu_01".to_owned(),
            "echo".to_owned(),
            json!({ "message": "hi" })
        )]
    );
    assert_eq!(answer.info.stop, Some(StopReason::ToolUse));
}

#[test]
fn anthropic_parallel_tool_use_blocks_are_two_calls() {
    let (answer, _) = turn(
        Dialect::Anthropic,
        Answer::sse(&fixture("anthropic/parallel_tool_use.sse")),
    );
    let calls = calls_of(&answer);
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0].2, json!({ "message": "hi" }));
    assert_eq!(
        calls[1],
        (
            "toolu_b".to_owned(),
            "add".to_owned(),
            json!({ "a": 2, "b": 3 })
        )
    );
}

#[test]
fn anthropic_refusal_and_stream_errors() {
    let (answer, _) = turn(
        Dialect::Anthropic,
        Answer::sse(&fixture("anthropic/refusal.sse")),
    );
    assert!(matches!(answer.info.stop, Some(StopReason::Refusal { .. })));
    assert_eq!(text_of(&answer), "I can't");

    let (answer, _) = turn(
        Dialect::Anthropic,
        Answer::sse(&fixture("anthropic/error_in_stream.sse")),
    );
    assert_eq!(text_of(&answer), "Let me");
    assert!(matches!(
        error_kind(&answer),
        ChatErrorKind::Overloaded { .. }
    ));
    assert!(answer.error.as_ref().unwrap().is_transient());

    let (answer, _) = turn(
        Dialect::Anthropic,
        Answer::json(200, &fixture("anthropic/tool_use.json")),
    );
    assert_eq!(text_of(&answer), "I'll add those.");
    assert_eq!(calls_of(&answer)[0].2, json!({ "a": 2, "b": 3 }));
}

#[test]
fn gemini_streamed_text_parallel_calls_and_safety_stops() {
    let (answer, _) = turn(
        Dialect::Gemini,
        Answer::sse_in_chunks(&fixture("gemini/text.sse"), 6),
    );
    assert_eq!(text_of(&answer), "Hello, wörld!");
    assert_eq!(
        answer.info.usage,
        Some(Usage {
            input_tokens: Some(9),
            output_tokens: Some(5)
        })
    );
    assert_eq!(answer.info.stop, Some(StopReason::EndTurn));

    let (answer, _) = turn(
        Dialect::Gemini,
        Answer::sse(&fixture("gemini/function_calls.sse")),
    );
    let calls: Vec<&ToolCall> = answer.turn.tool_calls().collect();
    assert_eq!(calls.len(), 2);
    assert_eq!(
        (calls[0].name.as_str(), &calls[0].arguments),
        ("echo", &json!({ "message": "hi" }))
    );
    assert_eq!(
        calls[0].provider_data,
        Some(json!({ "thoughtSignature": "CiQBVKhc7vI=" }))
    );
    assert_ne!(
        calls[0].id, calls[1].id,
        "calls without ids get distinct ones"
    );
    assert_eq!(
        answer.info.stop,
        Some(StopReason::ToolUse),
        "Gemini's STOP with calls is a tool turn"
    );

    let (answer, _) = turn(Dialect::Gemini, Answer::sse(&fixture("gemini/safety.sse")));
    assert!(
        matches!(&answer.info.stop, Some(StopReason::Refusal { detail }) if detail.contains("SAFETY"))
    );
    assert!(answer.error.is_none());
}

#[test]
fn gemini_whole_answers_and_a_blocked_prompt() {
    let (answer, _) = turn(
        Dialect::Gemini,
        Answer::json(200, &fixture("gemini/function_call.json")),
    );
    assert_eq!(calls_of(&answer)[0].1, "add");
    let (answer, _) = turn(
        Dialect::Gemini,
        Answer::json(200, &fixture("gemini/blocked_prompt.json")),
    );
    match error_kind(&answer) {
        ChatErrorKind::Refused { detail } => assert!(detail.contains("SAFETY")),
        other => panic!("{other:?}"),
    }
}

// ---------------------------------------------------------------- error answers

/// Whether an error is the one expected.
type ErrorCheck = fn(&ChatErrorKind) -> bool;

#[test]
fn error_answers_become_typed_errors_with_sentences() {
    let cases: Vec<(Dialect, Answer, ErrorCheck)> = vec![
        (
            Dialect::OpenAiCompatible,
            Answer::json(429, &fixture("openai/error_rate_limit.json")),
            |k| {
                matches!(
                    k,
                    ChatErrorKind::RateLimited {
                        retry_after_ms: Some(800),
                        ..
                    }
                )
            },
        ),
        (
            Dialect::OpenAiCompatible,
            Answer::json(429, &fixture("openai/error_rate_limit.json")).header("retry-after", "3"),
            |k| {
                matches!(
                    k,
                    ChatErrorKind::RateLimited {
                        retry_after_ms: Some(3_000),
                        ..
                    }
                )
            },
        ),
        (
            Dialect::OpenAiCompatible,
            Answer::json(429, &fixture("openai/error_quota.json")),
            |k| matches!(k, ChatErrorKind::QuotaExhausted { .. }),
        ),
        (
            Dialect::OpenAiCompatible,
            Answer::json(400, &fixture("openai/error_context_length.json")),
            |k| matches!(k, ChatErrorKind::ContextTooLong { .. }),
        ),
        (
            Dialect::OpenAiCompatible,
            Answer::json(401, &fixture("openai/error_invalid_key.json")),
            |k| {
                matches!(
                    k,
                    ChatErrorKind::Unauthorized {
                        status: Some(401),
                        ..
                    }
                )
            },
        ),
        (
            Dialect::Anthropic,
            Answer::json(529, &fixture("anthropic/error_overloaded.json")),
            |k| matches!(k, ChatErrorKind::Overloaded { .. }),
        ),
        (
            Dialect::Anthropic,
            Answer::json(429, &fixture("anthropic/error_rate_limit.json"))
                .header("retry-after", "17"),
            |k| {
                matches!(
                    k,
                    ChatErrorKind::RateLimited {
                        retry_after_ms: Some(17_000),
                        ..
                    }
                )
            },
        ),
        (
            Dialect::Anthropic,
            Answer::json(400, &fixture("anthropic/error_prompt_too_long.json")),
            |k| matches!(k, ChatErrorKind::ContextTooLong { .. }),
        ),
        (
            Dialect::Gemini,
            Answer::json(429, &fixture("gemini/error_rate_limit.json")),
            |k| {
                matches!(
                    k,
                    ChatErrorKind::RateLimited {
                        retry_after_ms: Some(37_000),
                        ..
                    }
                )
            },
        ),
        (
            Dialect::Gemini,
            Answer::json(400, &fixture("gemini/error_invalid_key.json")),
            |k| matches!(k, ChatErrorKind::Unauthorized { .. }),
        ),
        (
            Dialect::OpenAiCompatible,
            Answer::json(
                404,
                r#"{"error":"model \"llama9\" not found, try pulling it first"}"#,
            ),
            |k| matches!(k, ChatErrorKind::NotFound { .. }),
        ),
    ];
    for (index, (dialect, answer, expected)) in cases.into_iter().enumerate() {
        let (answer, _) = turn(dialect, answer);
        let error = answer.error.as_ref().expect("an error");
        assert!(expected(&error.kind), "case {index}: {:?}", error.kind);
        assert_eq!(error.step, ChatStep::ReadAnswer);
        let sentence = error.to_string();
        assert!(
            sentence.starts_with("Reading the model's answer failed: "),
            "{sentence}"
        );
        assert!(!sentence.contains(KEY));
        assert!(!answer.turn.has_content());
    }
}

#[test]
fn a_refused_origin_says_what_to_do_for_the_provider() {
    let config = ProviderConfig::new(
        Dialect::OpenAiCompatible,
        "http://localhost:11434/v1",
        "llama3.2",
        None,
    );
    let (answer, _, _) = turn_with(
        &config,
        &hello(),
        Answer::unreachable(),
        AnswerLimits::default(),
    );
    let error = answer.error.unwrap();
    assert_eq!(error.step, ChatStep::SendRequest);
    assert!(
        error
            .to_string()
            .contains("OLLAMA_ORIGINS=https://lens.example"),
        "{error}"
    );
}

#[test]
fn a_redirect_is_never_followed_and_every_model_request_asks_for_that() {
    let (answer, _, seen) = turn_with(
        &provider(Dialect::Anthropic),
        &hello(),
        Answer::json(307, "").header("location", "https://evil.example/"),
        AnswerLimits::default(),
    );
    assert_eq!(error_kind(&answer), &ChatErrorKind::Redirected);
    assert!(seen.refuse_redirects);
}

#[test]
fn an_answer_cut_before_its_end_is_incomplete_and_its_half_call_dropped() {
    let text = fixture("openai/parallel_tool_calls.sse");
    let cut = &text[..text.find("\\\"b\\\": 3").unwrap()];
    let (answer, _) = turn(Dialect::OpenAiCompatible, Answer::sse(cut));
    assert_eq!(error_kind(&answer), &ChatErrorKind::Incomplete);
    assert!(answer.info.interrupted);
    assert!(
        calls_of(&answer).is_empty(),
        "a cut answer's calls are not run"
    );
}

#[test]
fn a_stream_over_the_byte_limit_is_stopped_with_a_clear_error() {
    let limits = AnswerLimits {
        max_answer_bytes: 500,
        ..AnswerLimits::default()
    };
    let (answer, _, _) = turn_with(
        &provider(Dialect::OpenAiCompatible),
        &hello(),
        Answer::sse(&fixture("openai/parallel_tool_calls.sse")),
        limits,
    );
    assert_eq!(
        error_kind(&answer),
        &ChatErrorKind::TooLarge {
            what: "the model's answer",
            limit: 500
        }
    );
    let limits = AnswerLimits {
        max_event_bytes: 100,
        ..AnswerLimits::default()
    };
    let (answer, _, _) = turn_with(
        &provider(Dialect::OpenAiCompatible),
        &hello(),
        Answer::sse(&fixture("openai/text.sse")),
        limits,
    );
    assert!(matches!(
        error_kind(&answer),
        ChatErrorKind::TooLarge { .. }
    ));
}

#[test]
fn json_answering_a_stream_request_is_read_whole() {
    let (answer, _) = turn(
        Dialect::Anthropic,
        Answer::json(200, &fixture("anthropic/tool_use.json")),
    );
    assert!(answer.error.is_none());
    let (answer, _) = turn(
        Dialect::OpenAiCompatible,
        Answer::json(200, "<html>not json</html>"),
    );
    assert!(matches!(
        error_kind(&answer),
        ChatErrorKind::Malformed { .. }
    ));
}

// ---------------------------------------------------------------- requests

/// A conversation with a call, its result (text, image, error) and a follow-up.
fn with_history(dialect: Dialect) -> Conversation {
    let set = tools(dialect);
    let echo = set.find("everything", "echo").unwrap();
    let mut conversation = hello();
    let call = ToolCall {
        id: "call_1".into(),
        name: echo.provider_name.clone(),
        server_id: Some("everything".into()),
        tool_name: Some("echo".into()),
        arguments: json!({ "message": "hi" }),
        invalid_arguments: None,
        provider_data: Some(json!({ "thoughtSignature": "c2ln" })),
    };
    conversation.push(
        Role::Assistant,
        vec![
            Part::Text {
                text: "Calling.".into(),
            },
            Part::ToolCall(call),
        ],
        None,
    );
    let result = ToolResult {
        call_id: "call_1".into(),
        name: echo.provider_name.clone(),
        status: ToolStatus::Done,
        result: json!({ "content": [{ "type": "text", "text": "Echo: hi" }, { "type": "image", "data": "iVBORw0K", "mimeType": "image/png" }], "isError": true }),
        duration_ms: Some(5.0),
    };
    conversation.push(Role::User, vec![Part::ToolResult(result)], None);
    conversation
}

fn request_for(config: &ProviderConfig, conversation: &Conversation) -> Seen {
    turn_with(
        config,
        conversation,
        Answer::json(500, "{}"),
        AnswerLimits::default(),
    )
    .2
}

#[test]
fn openai_requests_carry_the_key_in_a_bearer_header_and_results_as_tool_messages() {
    let seen = request_for(
        &provider(Dialect::OpenAiCompatible),
        &with_history(Dialect::OpenAiCompatible),
    );
    assert_eq!(seen.url, "https://api.openai.com/v1/chat/completions");
    assert_eq!(
        seen.header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
    let body = &seen.body;
    assert_eq!(body["model"], "gpt-4o");
    assert_eq!(body["stream"], true);
    assert_eq!(body["stream_options"], json!({ "include_usage": true }));
    assert_eq!(
        body["max_completion_tokens"], 300,
        "OpenAI itself wants max_completion_tokens"
    );
    assert_eq!(
        body["messages"][0],
        json!({ "role": "system", "content": "Be brief." })
    );
    assert_eq!(
        body["messages"][1],
        json!({ "role": "user", "content": "Say hello." })
    );
    assert_eq!(
        body["messages"][2]["tool_calls"][0]["function"],
        json!({ "name": "echo", "arguments": "{\"message\":\"hi\"}" })
    );
    assert_eq!(body["messages"][3]["role"], "tool");
    assert_eq!(body["messages"][3]["tool_call_id"], "call_1");
    assert_eq!(
        body["messages"][3]["content"],
        "The tool reported an error:\nEcho: hi"
    );
    assert_eq!(
        body["messages"][4]["content"][1]["image_url"]["url"],
        "data:image/png;base64,iVBORw0K"
    );
    let names: Vec<&str> = body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["echo", "add"], "the app-only tool is not offered");
    assert_eq!(body["tool_choice"], "auto");
    assert!(!seen.url.contains(KEY) && !body.to_string().contains(KEY));

    let local = ProviderConfig::new(
        Dialect::OpenAiCompatible,
        "http://127.0.0.1:8080/v1",
        "smollm2",
        None,
    );
    let seen = request_for(&local, &hello());
    assert_eq!(seen.body["max_tokens"], 300);
    assert_eq!(seen.header("authorization"), None, "no key, no header");
}

#[test]
fn anthropic_requests_carry_the_browser_header_and_results_first_with_is_error() {
    let seen = request_for(
        &provider(Dialect::Anthropic),
        &with_history(Dialect::Anthropic),
    );
    assert_eq!(seen.url, "https://api.anthropic.com/v1/messages");
    assert_eq!(seen.header("x-api-key"), Some(KEY));
    assert_eq!(seen.header("anthropic-version"), Some("2023-06-01"));
    assert_eq!(
        seen.header("anthropic-dangerous-direct-browser-access"),
        Some("true")
    );
    let body = &seen.body;
    assert_eq!(body["system"], "Be brief.");
    assert_eq!(body["max_tokens"], 300);
    assert_eq!(
        body["messages"][1]["content"][1],
        json!({ "type": "tool_use", "id": "call_1", "name": "echo", "input": { "message": "hi" } })
    );
    let result = &body["messages"][2]["content"][0];
    assert_eq!(result["type"], "tool_result");
    assert_eq!(result["is_error"], true);
    assert_eq!(
        result["content"][1]["source"],
        json!({ "type": "base64", "media_type": "image/png", "data": "iVBORw0K" })
    );
    assert_eq!(body["tools"][0]["input_schema"]["type"], "object");
    assert_eq!(body["tool_choice"], json!({ "type": "auto" }));
}

#[test]
fn gemini_requests_keep_the_key_out_of_the_url_and_send_signatures_back() {
    let seen = request_for(&provider(Dialect::Gemini), &with_history(Dialect::Gemini));
    assert_eq!(seen.url, "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
    assert_eq!(seen.header("x-goog-api-key"), Some(KEY));
    assert!(!seen.url.contains(KEY));
    let body = &seen.body;
    assert_eq!(
        body["systemInstruction"],
        json!({ "parts": [{ "text": "Be brief." }] })
    );
    let call = &body["contents"][1]["parts"][1];
    assert_eq!(call["functionCall"]["name"], "echo");
    assert_eq!(call["thoughtSignature"], "c2ln");
    let response = &body["contents"][2]["parts"][0]["functionResponse"];
    assert_eq!(response["name"], "echo");
    assert_eq!(response["response"], json!({ "error": "Echo: hi" }));
    assert_eq!(
        body["contents"][2]["parts"][1]["inlineData"]["mimeType"],
        "image/png"
    );
    assert_eq!(
        body["generationConfig"],
        json!({ "temperature": 0.5, "maxOutputTokens": 300 })
    );
    assert_eq!(
        body["toolConfig"],
        json!({ "functionCallingConfig": { "mode": "AUTO" } })
    );
    assert_eq!(
        body["tools"][0]["functionDeclarations"][0]["parameters"]["type"],
        "OBJECT"
    );
}

#[test]
fn settings_that_cannot_make_a_request_are_refused_before_sending() {
    let set = tools(Dialect::Anthropic);
    let conversation = hello();
    let request = ModelRequest {
        system: None,
        messages: &conversation.messages,
        temperature: None,
        max_tokens: None,
        stop_sequences: &[],
        tools: &set,
        tool_choice: ToolChoice::Auto,
        stream: false,
        max_tool_result_chars: 100,
    };
    let refused = |config: ProviderConfig| {
        let error = build_request(&config, &request).unwrap_err();
        assert_eq!(error.step, ChatStep::BuildRequest);
        assert!(!error.to_string().contains(KEY));
        error.to_string()
    };
    assert!(
        refused(ProviderConfig::new(Dialect::Anthropic, "", "claude", None))
            .contains("needs a key")
    );
    assert!(refused(ProviderConfig::new(
        Dialect::Anthropic,
        "https://api.anthropic.com@evil.example",
        "claude",
        Some(ApiKey::new(KEY))
    ))
    .contains("user name"));
    assert!(refused(ProviderConfig::new(
        Dialect::Gemini,
        "",
        "../../evil",
        Some(ApiKey::new(KEY))
    ))
    .contains("Gemini model name"));
    assert!(
        refused(ProviderConfig::new(Dialect::OpenAiCompatible, "", "", None))
            .contains("Choose a model")
    );
    let built = build_request(&provider(Dialect::Anthropic), &request).unwrap();
    assert!(
        !format!("{built:?}").contains(KEY),
        "a request's Debug redacts its headers"
    );
}
