//! A server's `sampling/createMessage` answered by a model, end to end over the scripted HTTP
//! fake: the request the provider receives and the `CreateMessageResult` the server gets.

mod support;

use mcp_lens_chat::model_call::{AnswerLimits, ModelCall};
use mcp_lens_chat::sampling::answer_sampling;
use mcp_lens_chat::stream::Delta;
use mcp_lens_chat::{ChatStep, Dialect};
use mcp_lens_client::runtime::Abort;
use serde_json::{json, Value};
use support::{fixture, provider, Answer, FakeHttp, Seen, TickingClock, PAGE_ORIGIN};

fn answer(
    dialect: Dialect,
    params: &Value,
    reply: Answer,
) -> (Result<Value, mcp_lens_chat::ChatError>, Option<Seen>) {
    let http = FakeHttp::default();
    http.script([reply]);
    let clock = TickingClock::default();
    let abort = Abort::new();
    let config = provider(dialect);
    let call = ModelCall {
        http: &http,
        clock: &clock,
        config: &config,
        limits: AnswerLimits::default(),
        abort: &abort,
        page_origin: PAGE_ORIGIN,
    };
    let outcome = futures::executor::block_on(answer_sampling(&call, params, &mut |_: &Delta| {}));
    (outcome, http.seen().pop())
}

fn with_tools() -> Value {
    json!({
        "messages": [{ "role": "user", "content": { "type": "text", "text": "Echo hi with your tool." } }],
        "systemPrompt": "You are a test.",
        "maxTokens": 120,
        "tools": [{ "name": "echo", "description": "Echoes", "inputSchema": { "type": "object", "properties": { "message": { "type": "string" } } } }],
        "toolChoice": { "mode": "required" }
    })
}

#[test]
fn sampling_with_tools_answered_by_anthropic_gives_tool_use_content() {
    let (result, seen) = answer(
        Dialect::Anthropic,
        &with_tools(),
        Answer::sse(&fixture("anthropic/tool_use.sse")),
    );
    let seen = seen.unwrap();
    assert_eq!(seen.body["system"], "You are a test.");
    assert_eq!(seen.body["max_tokens"], 120);
    assert_eq!(seen.body["tool_choice"], json!({ "type": "any" }));
    assert_eq!(seen.body["tools"][0]["name"], "echo");
    assert_eq!(
        result.unwrap(),
        json!({
            "role": "assistant",
            "content": [
                { "type": "text", "text": "Okay, let me echo that for you." },
                { "type": "tool_use", "id": "toolu_01", "name": "echo", "input": { "message": "hi" } }
            ],
            "model": "claude-sonnet-4-5-20250929",
            "stopReason": "toolUse"
        })
    );
}

#[test]
fn plain_sampling_answered_by_gemini_gives_one_text_block() {
    let params = json!({ "messages": [{ "role": "user", "content": { "type": "text", "text": "Hi" } }], "maxTokens": 50, "temperature": 0.1 });
    let (result, seen) = answer(
        Dialect::Gemini,
        &params,
        Answer::sse(&fixture("gemini/text.sse")),
    );
    assert_eq!(
        seen.unwrap().body["generationConfig"],
        json!({ "temperature": 0.1, "maxOutputTokens": 50 })
    );
    assert_eq!(
        result.unwrap(),
        json!({ "role": "assistant", "content": { "type": "text", "text": "Hello, wörld!" }, "model": "gemini-2.5-flash", "stopReason": "endTurn" })
    );
}

#[test]
fn sampling_tool_calls_from_an_openai_model_go_back_under_the_servers_names() {
    let mut params = with_tools();
    params["tools"][0]["name"] = json!("echo.v2");
    let chunk = json!({ "choices": [{ "index": 0, "delta": { "tool_calls": [{ "index": 0, "id": "call_9", "type": "function", "function": { "name": "echo_v2", "arguments": "{\"message\":\"hi\"}" } }] }, "finish_reason": "tool_calls" }] });
    let (result, seen) = answer(
        Dialect::OpenAiCompatible,
        &params,
        Answer::sse(&format!("data: {chunk}\n\ndata: [DONE]\n\n")),
    );
    assert_eq!(
        seen.unwrap().body["tools"][0]["function"]["name"],
        "echo_v2"
    );
    let result = result.unwrap();
    assert_eq!(
        result["content"],
        json!([{ "type": "tool_use", "id": "call_9", "name": "echo.v2", "input": { "message": "hi" } }])
    );
    assert_eq!(result["stopReason"], "toolUse");
}

#[test]
fn a_sampling_request_the_model_cannot_take_is_refused_before_any_request() {
    let (result, seen) = answer(
        Dialect::OpenAiCompatible,
        &json!({ "maxTokens": 5 }),
        Answer::json(200, "{}"),
    );
    assert_eq!(result.unwrap_err().step, ChatStep::ReadSamplingRequest);
    assert!(seen.is_none());
    let (result, _) = answer(
        Dialect::Anthropic,
        &with_tools(),
        Answer::json(529, &fixture("anthropic/error_overloaded.json")),
    );
    assert!(result.unwrap_err().is_transient());
}
