//! Totality on anything a provider or a server sends: the stream decoders over any bytes in any
//! chunks (and over the fixtures damaged anywhere), whole-answer decoding, error
//! classification, schema conversion, tool-result conversion, request addresses. None may panic; the
//! fixtures read the same whatever their chunks; Gemini's schemas hold only its keywords.

#![cfg(not(target_arch = "wasm32"))]

mod support;

use mcp_lens_chat::dialect::{
    build_request, classify_error, decode_answer, stream_decoder, ModelRequest, ToolChoice,
};
use mcp_lens_chat::schema_convert::convert_input_schema;
use mcp_lens_chat::stream::{read_arguments, AssistantTurn, Delta, TurnBuilder};
use mcp_lens_chat::tool_result::result_pieces;
use mcp_lens_chat::Dialect;
use mcp_lens_chat::{ApiKey, ProviderConfig, ToolSet};
use mcp_lens_client::protocol::sse::SseParser;
use proptest::prelude::*;
use serde_json::{json, Map, Value};
use support::fixture;

const DIALECTS: [Dialect; 3] = [
    Dialect::OpenAiCompatible,
    Dialect::Anthropic,
    Dialect::Gemini,
];

const FIXTURES: [(Dialect, &str); 12] = [
    (Dialect::OpenAiCompatible, "openai/text.sse"),
    (Dialect::OpenAiCompatible, "openai/parallel_tool_calls.sse"),
    (Dialect::OpenAiCompatible, "openai/refusal.sse"),
    (Dialect::OpenAiCompatible, "openai/error_in_stream.sse"),
    (Dialect::Anthropic, "anthropic/text.sse"),
    (Dialect::Anthropic, "anthropic/tool_use.sse"),
    (Dialect::Anthropic, "anthropic/parallel_tool_use.sse"),
    (Dialect::Anthropic, "anthropic/refusal.sse"),
    (Dialect::Anthropic, "anthropic/error_in_stream.sse"),
    (Dialect::Gemini, "gemini/text.sse"),
    (Dialect::Gemini, "gemini/function_calls.sse"),
    (Dialect::Gemini, "gemini/safety.sse"),
];

/// The answer `bytes` make for `dialect` when they arrive in these chunks.
fn decode(dialect: Dialect, bytes: &[u8], cuts: &[usize]) -> AssistantTurn {
    let mut parser = SseParser::with_limit(1 << 20);
    let mut decoder = stream_decoder(dialect);
    let mut builder = TurnBuilder::new();
    let mut deltas: Vec<Delta> = Vec::new();
    let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (bytes.len() + 1)).collect();
    cuts.sort_unstable();
    let mut from = 0;
    for cut in cuts.into_iter().chain([bytes.len()]) {
        for event in parser.push(&bytes[from..cut]) {
            decoder.event(&event, &mut deltas);
        }
        from = cut;
    }
    parser.finish();
    decoder.end(&mut deltas);
    for delta in &deltas {
        builder.apply(delta);
    }
    builder.finish(true)
}

/// JSON shaped like schemas, answers and results: their keywords and values, nested.
fn json_like() -> impl Strategy<Value = Value> {
    let words = prop::sample::select(vec![
        "type",
        "object",
        "string",
        "array",
        "integer",
        "number",
        "boolean",
        "null",
        "properties",
        "items",
        "required",
        "anyOf",
        "oneOf",
        "allOf",
        "$ref",
        "#/$defs/a",
        "#",
        "#/properties",
        "$defs",
        "a",
        "enum",
        "const",
        "format",
        "email",
        "date-time",
        "additionalProperties",
        "description",
        "nullable",
        "minimum",
        "exclusiveMinimum",
        "prefixItems",
        "content",
        "text",
        "image",
        "data",
        "mimeType",
        "resource",
        "uri",
        "blob",
        "isError",
        "structuredContent",
        "choices",
        "delta",
        "tool_calls",
        "index",
        "id",
        "function",
        "arguments",
        "error",
        "message",
        "candidates",
        "parts",
        "functionCall",
        "args",
    ]);
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i32>().prop_map(|n| json!(n)),
        words.clone().prop_map(|w| Value::String(w.to_owned())),
        ".{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(5, 80, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((words.clone(), inner), 0..6).prop_map(|pairs| Value::Object(
                pairs
                    .into_iter()
                    .map(|(k, v)| (k.to_owned(), v))
                    .collect::<Map<_, _>>()
            )),
        ]
    })
}

/// JSON Schemas: nested objects, arrays, unions, local (and recursive) `$ref`s, type lists,
/// enums and consts, formats, under a root that defines `#/$defs/a`.
fn schema_like() -> impl Strategy<Value = Value> {
    let kinds = prop::sample::select(vec![
        "object", "string", "array", "integer", "number", "boolean", "null",
    ]);
    let names = prop::sample::select(vec!["p", "q", "r"]);
    let leaf = prop_oneof![
        kinds.prop_map(|kind| json!({ "type": kind })),
        Just(json!({ "$ref": "#/$defs/a" })),
        Just(json!({ "$ref": "#/properties/p" })),
        Just(json!({ "$ref": "https://example.com/remote" })),
        Just(json!({})),
        Just(json!(true)),
        Just(json!({ "const": 3 })),
        Just(json!({ "enum": ["x", null, 2] })),
        Just(json!({ "type": "string", "format": "email", "pattern": "^a" })),
        Just(json!({ "type": "number", "exclusiveMinimum": 0, "multipleOf": 2 })),
    ];
    let schema = leaf.prop_recursive(5, 80, 5, move |inner| {
        prop_oneof![
            prop::collection::vec((names.clone(), inner.clone()), 0..4).prop_map(|properties| {
                let properties: Map<String, Value> = properties.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
                json!({ "type": "object", "properties": properties, "required": ["p", "z"], "additionalProperties": false })
            }),
            inner.clone().prop_map(|items| json!({ "type": "array", "items": items, "uniqueItems": true })),
            prop::collection::vec(inner.clone(), 1..4).prop_map(|members| json!({ "anyOf": members })),
            prop::collection::vec(inner.clone(), 1..4).prop_map(|members| json!({ "oneOf": members, "description": "one" })),
            prop::collection::vec(inner.clone(), 1..3).prop_map(|members| json!({ "allOf": members })),
            inner.clone().prop_map(|items| json!({ "type": ["string", "null", "integer"], "items": items })),
            inner.clone().prop_map(|target| json!({ "$ref": "#/$defs/a", "description": "see a", "x-extra": target })),
        ]
    });
    (schema.clone(), schema.clone(), schema).prop_map(|(p, q, definition)| {
        json!({ "type": "object", "properties": { "p": p, "q": q }, "$defs": { "a": definition } })
    })
}

/// Every key of a Gemini parameters schema is one its `Schema` message has.
fn only_gemini_keys(schema: &Value) -> Result<(), String> {
    const ALLOWED: [&str; 20] = [
        "type",
        "format",
        "title",
        "description",
        "nullable",
        "enum",
        "maxItems",
        "minItems",
        "properties",
        "required",
        "minProperties",
        "maxProperties",
        "minLength",
        "maxLength",
        "pattern",
        "example",
        "anyOf",
        "default",
        "items",
        "minimum",
    ];
    const MORE: [&str; 1] = ["maximum"];
    let Value::Object(map) = schema else {
        return Err(format!("not an object: {schema}"));
    };
    for (key, value) in map {
        if !ALLOWED.contains(&key.as_str()) && !MORE.contains(&key.as_str()) {
            return Err(format!("keyword {key:?} in {schema}"));
        }
        match key.as_str() {
            "properties" => {
                for property in value.as_object().into_iter().flat_map(|p| p.values()) {
                    only_gemini_keys(property)?;
                }
            }
            "items" => only_gemini_keys(value)?,
            "anyOf" => {
                for member in value.as_array().into_iter().flatten() {
                    only_gemini_keys(member)?;
                }
            }
            _ => {}
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn any_bytes_in_any_chunks_never_panic_a_stream_decoder(
        bytes in prop::collection::vec(any::<u8>(), 0..600),
        cuts in prop::collection::vec(any::<usize>(), 0..8),
    ) {
        for dialect in DIALECTS {
            decode(dialect, &bytes, &cuts);
        }
    }

    #[test]
    fn a_fixture_damaged_anywhere_never_panics_a_decoder(
        which in 0..FIXTURES.len(),
        edits in prop::collection::vec((any::<usize>(), any::<u8>(), any::<bool>()), 1..12),
        cuts in prop::collection::vec(any::<usize>(), 0..8),
    ) {
        let (dialect, path) = FIXTURES[which];
        let mut bytes = fixture(path).into_bytes();
        for (at, byte, insert) in edits {
            let at = at % (bytes.len() + 1);
            if insert || at == bytes.len() {
                bytes.insert(at, byte);
            } else {
                bytes[at] = byte;
            }
        }
        decode(dialect, &bytes, &cuts);
    }

    #[test]
    fn a_fixture_reads_the_same_whatever_its_chunks(
        which in 0..FIXTURES.len(),
        cuts in prop::collection::vec(any::<usize>(), 0..16),
    ) {
        let (dialect, path) = FIXTURES[which];
        let bytes = fixture(path).into_bytes();
        prop_assert_eq!(decode(dialect, &bytes, &cuts), decode(dialect, &bytes, &[]));
    }

    #[test]
    fn any_json_as_an_answer_event_or_result_never_panics(value in json_like()) {
        let text = value.to_string();
        for dialect in DIALECTS {
            let _ = decode_answer(dialect, &text);
            let event = format!("event: message\ndata: {text}\n\n");
            decode(dialect, event.as_bytes(), &[]);
        }
        let pieces = result_pieces(&value, 50);
        prop_assert!(pieces.text.chars().count() <= 50 + 60);
        let _ = read_arguments(&text);
    }

    #[test]
    fn any_error_body_gives_an_error_with_a_bounded_message(status in any::<Option<u16>>(), body in ".{0,300}", value in json_like()) {
        let kind = classify_error(status, Some(&body), &body);
        prop_assert!(kind.to_string().chars().count() < 3_000);
        let _ = classify_error(status, None, &value.to_string());
    }

    #[test]
    fn any_schema_converts_and_gemini_gets_only_its_keywords(schema in prop_oneof![json_like(), schema_like()]) {
        for dialect in [Dialect::OpenAiCompatible, Dialect::Anthropic] {
            let converted = convert_input_schema(&schema, dialect);
            let parameters = converted.parameters.expect("always parameters");
            prop_assert_eq!(&parameters["type"], "object");
        }
        let converted = convert_input_schema(&schema, Dialect::Gemini);
        if let Some(parameters) = &converted.parameters {
            prop_assert_eq!(&parameters["type"], "OBJECT");
            if let Err(why) = only_gemini_keys(parameters) {
                return Err(TestCaseError::fail(why));
            }
        }
    }

    #[test]
    fn a_request_goes_to_the_base_urls_origin_or_nowhere(
        url in "(https?://)?[a-zA-Z0-9.:@\\[\\]/\\\\ é?#-]{0,30}",
        model in "[a-zA-Z0-9./:@?#%-]{0,12}",
    ) {
        let tools = ToolSet::empty(Dialect::OpenAiCompatible);
        for dialect in DIALECTS {
            let config = ProviderConfig::new(dialect, &url, &model, Some(ApiKey::new("k")));
            let request = ModelRequest {
                system: None,
                messages: &[],
                temperature: None,
                max_tokens: None,
                stop_sequences: &[],
                tools: &tools,
                tool_choice: ToolChoice::Auto,
                stream: true,
                max_tool_result_chars: 100,
            };
            if let Ok(call) = build_request(&config, &request) {
                let origin = config.origin().expect("a request was built, so the base URL has an origin");
                let sent = mcp_lens_client::protocol::url::WebUrl::parse(&call.url).expect("what is sent reads back");
                prop_assert_eq!(sent.origin(), origin.origin());
                prop_assert_eq!(sent.href(), call.url.as_str());
            }
        }
    }
}
