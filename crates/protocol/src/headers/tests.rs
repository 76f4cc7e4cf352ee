use super::*;
use serde_json::json;

/// The annotated tool of the conformance suite's `http-custom-headers` (0.2.0-alpha.12),
/// descriptions dropped.
fn conformance_tool() -> Value {
    json!({"type": "object", "required": ["region", "priority", "query"], "properties": {
        "region": {"type": "string", "x-mcp-header": "Region"},
        "priority": {"type": "integer", "x-mcp-header": "Priority"},
        "verbose": {"type": "boolean", "x-mcp-header": "Verbose"},
        "debug": {"type": "boolean", "x-mcp-header": "Debug"},
        "empty_val": {"type": "string", "x-mcp-header": "EmptyVal"},
        "method_val": {"type": "string", "x-mcp-header": "Method"},
        "float_val": {"type": "number"},
        "non_ascii_val": {"type": "string", "x-mcp-header": "NonAscii"},
        "whitespace_val": {"type": "string", "x-mcp-header": "Whitespace"},
        "leading_space_val": {"type": "string", "x-mcp-header": "LeadingSpace"},
        "trailing_space_val": {"type": "string", "x-mcp-header": "TrailingSpace"},
        "internal_space_val": {"type": "string", "x-mcp-header": "InternalSpace"},
        "control_char_val": {"type": "string", "x-mcp-header": "ControlChar"},
        "crlf_val": {"type": "string", "x-mcp-header": "CrLf"},
        "tab_val": {"type": "string", "x-mcp-header": "Tab"},
        "query": {"type": "string"}
    }})
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

#[test]
fn the_conformance_call_mirrors_every_annotated_argument_encoded() {
    let tool = tool_headers(&conformance_tool()).unwrap();
    assert_eq!(tool.params.len(), 14);
    let arguments = json!({"region": "us-west1", "priority": 42, "verbose": false, "debug": true,
        "empty_val": "", "method_val": "test-method", "float_val": 2.5,
        "non_ascii_val": "Hello, 世界", "whitespace_val": " padded ", "leading_space_val": " us-west1",
        "trailing_space_val": "us-west1 ", "internal_space_val": "us west 1",
        "control_char_val": "line1\nline2", "crlf_val": "line1\r\nline2", "tab_val": "\tindented",
        "query": "SELECT * FROM users"});
    let headers = param_headers(&tool, &arguments).unwrap();
    let expected = [
        ("Mcp-Param-Region", "us-west1"),
        ("Mcp-Param-Priority", "42"),
        ("Mcp-Param-Verbose", "false"),
        ("Mcp-Param-Debug", "true"),
        ("Mcp-Param-EmptyVal", ""),
        ("Mcp-Param-Method", "test-method"),
        ("Mcp-Param-NonAscii", "=?base64?SGVsbG8sIOS4lueVjA==?="),
        ("Mcp-Param-Whitespace", "=?base64?IHBhZGRlZCA=?="),
        ("Mcp-Param-LeadingSpace", "=?base64?IHVzLXdlc3Qx?="),
        ("Mcp-Param-TrailingSpace", "=?base64?dXMtd2VzdDEg?="),
        ("Mcp-Param-InternalSpace", "us west 1"),
        ("Mcp-Param-ControlChar", "=?base64?bGluZTEKbGluZTI=?="),
        ("Mcp-Param-CrLf", "=?base64?bGluZTENCmxpbmUy?="),
        ("Mcp-Param-Tab", "=?base64?CWluZGVudGVk?="),
    ];
    for (name, value) in expected {
        assert_eq!(header(&headers, name), Some(value), "{name}");
    }
    assert_eq!(headers.len(), expected.len());
    assert!(header(&headers, "Mcp-Param-FloatVal").is_none());
    assert!(header(&headers, "Mcp-Param-Query").is_none());
    // The null tool: a null or absent argument gets no header.
    let headers = param_headers(
        &tool,
        &json!({"region": "us-east1", "priority": 1, "verbose": null, "query": "SELECT 1"}),
    )
    .unwrap();
    assert_eq!(header(&headers, "Mcp-Param-Verbose"), None);
    assert_eq!(headers.len(), 2);
}

#[test]
fn the_specification_examples_encode_as_written() {
    let tool =
        tool_headers(&json!({"properties": {"v": {"type": "string", "x-mcp-header": "Val"}}}))
            .unwrap();
    let encoded = |text: &str| {
        param_headers(&tool, &json!({"v": text})).unwrap()[0]
            .1
            .clone()
    };
    assert_eq!(
        encoded("=?base64?literal?="),
        "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="
    );
    assert_eq!(encoded("line1\nline2"), "=?base64?bGluZTEKbGluZTI=?=");
    assert_eq!(tool.cors_header_names(), ["mcp-param-val"]);
    assert_eq!(
        cors_refusal("echo", &tool).unwrap(),
        "the browser blocked the call of echo: its parameters are mirrored into a header (SEP-2243), so the \
         server's Access-Control-Allow-Headers must allow mcp-param-val (or *) besides the usual MCP headers"
    );
    assert_eq!(cors_refusal("plain", &ToolHeaders::default()), None);
}

#[test]
fn every_invalid_tool_of_the_conformance_suite_is_refused_with_its_reason() {
    let one = |property: Value| json!({"type": "object", "properties": {"value": property}});
    let not_token = |name: &str| {
        matches!(
            tool_headers(&one(json!({"type": "string", "x-mcp-header": name}))).unwrap_err()[..],
            [InvalidAnnotation::NotAToken { .. }]
        )
    };
    assert!(
        not_token("My Region")
            && not_token("Region:Primary")
            && not_token("Région")
            && not_token("Region\t1")
    );
    assert_eq!(
        tool_headers(&one(json!({"type": "string", "x-mcp-header": ""}))).unwrap_err(),
        [InvalidAnnotation::Empty {
            at: "the parameter \"value\"".into()
        }]
    );
    for kind in ["object", "array", "null", "number"] {
        let problems =
            tool_headers(&one(json!({"type": kind, "x-mcp-header": "Data"}))).unwrap_err();
        assert!(
            matches!(problems[..], [InvalidAnnotation::NotPrimitive { .. }]),
            "{kind}"
        );
    }
    for (first, second) in [("Region", "Region"), ("MyField", "myfield")] {
        let schema = json!({"properties": {"field1": {"type": "string", "x-mcp-header": first},
            "field2": {"type": "string", "x-mcp-header": second}}});
        let problems = tool_headers(&schema).unwrap_err();
        assert_eq!(problems.len(), 1);
        assert_eq!(
            problems[0].to_string(),
            format!("the x-mcp-header \"{second}\" of the parameter \"field2\" names the same header as the one of the parameter \"field1\" (header names ignore case)")
        );
    }
    let valid = json!({"type": "object", "properties": {"region": {"type": "string", "x-mcp-header": "Region"}}, "required": ["region"]});
    assert_eq!(
        tool_headers(&valid).unwrap().params[0].header_name(),
        "Mcp-Param-Region"
    );
}

#[test]
fn the_reasons_read_as_sentences() {
    let problems = tool_headers(
        &json!({"properties": {"value": {"type": "string", "x-mcp-header": "My Region"}}}),
    )
    .unwrap_err();
    assert_eq!(
        problems[0].to_string(),
        "the x-mcp-header \"My Region\" of the parameter \"value\" is not a valid header name: it contains a space"
    );
    let problems = tool_headers(
        &json!({"properties": {"score": {"type": "number", "x-mcp-header": "Score"}}}),
    )
    .unwrap_err();
    assert_eq!(
        problems[0].to_string(),
        "the x-mcp-header \"Score\" is on the parameter \"score\", which is a number (only integers may be mirrored); \
         only string, integer and boolean parameters can be sent as headers"
    );
    let problems = tool_headers(&json!({"properties": {"tags": {"type": "array", "items": {"type": "string", "x-mcp-header": "Tag"}}}})).unwrap_err();
    assert_eq!(
        problems[0].to_string(),
        "an x-mcp-header sits at \"/properties/tags/items\", inside \"items\", where no chain of properties from the top reaches it"
    );
}

#[test]
fn only_chains_of_properties_reach_a_parameter() {
    let nested = json!({"properties": {"options": {"type": "object", "properties": {
        "limit": {"type": "integer", "x-mcp-header": "Limit"}}}}});
    let tool = tool_headers(&nested).unwrap();
    assert_eq!(tool.params[0].path, ["options", "limit"]);
    assert_eq!(
        param_headers(&tool, &json!({"options": {"limit": 5}})).unwrap(),
        [("Mcp-Param-Limit".to_owned(), "5".to_owned())]
    );
    assert!(param_headers(&tool, &json!({"options": 5}))
        .unwrap()
        .is_empty());
    for hidden in [
        json!({"anyOf": [{"properties": {"a": {"type": "string", "x-mcp-header": "A"}}}]}),
        json!({"$defs": {"a": {"type": "string", "x-mcp-header": "A"}}}),
        json!({"properties": {"a": {"if": {"properties": {"b": {"type": "string", "x-mcp-header": "B"}}}}}}),
        json!({"properties": {"a": {"allOf": [{"type": "string", "x-mcp-header": "A"}]}}}),
        json!({"additionalProperties": {"type": "string", "x-mcp-header": "A"}}),
    ] {
        let problems = tool_headers(&hidden).unwrap_err();
        assert!(
            matches!(problems[..], [InvalidAnnotation::NotReachable { .. }]),
            "{hidden}"
        );
    }
    assert_eq!(
        tool_headers(&json!({"type": "object", "x-mcp-header": "All"})).unwrap_err(),
        [InvalidAnnotation::OnTheWholeSchema]
    );
    // Data is not schema: a default or an example may hold the annotation's spelling.
    let data = json!({"properties": {"a": {"type": "object", "default": {"x-mcp-header": "X"},
        "examples": [{"x-mcp-header": "Y"}], "properties": {"x-mcp-header": {"type": "string"}}}}});
    assert_eq!(tool_headers(&data).unwrap(), ToolHeaders::default());
}

#[test]
fn primitive_types_are_read_from_type_lists_and_enumerations() {
    let types = |property: Value| {
        tool_headers(&json!({"properties": {"p": property}})).map(|t| t.params[0].types.clone())
    };
    use MirroredType::*;
    assert_eq!(
        types(json!({"type": ["string", "null"], "x-mcp-header": "P"})),
        Ok(vec![String])
    );
    assert_eq!(
        types(json!({"enum": ["a", 1, true, null], "x-mcp-header": "P"})),
        Ok(vec![String, Integer, Boolean])
    );
    assert_eq!(
        types(json!({"const": 3, "x-mcp-header": "P"})),
        Ok(vec![Integer])
    );
    assert!(types(json!({"x-mcp-header": "P"})).is_err());
    assert!(types(json!({"enum": [1.5], "x-mcp-header": "P"})).is_err());
    assert!(types(json!({"type": ["string", "number"], "x-mcp-header": "P"})).is_err());
    assert!(types(json!({"type": 5, "x-mcp-header": "P"})).is_err());
    assert!(types(json!({"type": "string", "x-mcp-header": 7})).is_err());
}

#[test]
fn numbers_go_in_decimal_within_the_safe_range() {
    let tool =
        tool_headers(&json!({"properties": {"n": {"type": "integer", "x-mcp-header": "N"}}}))
            .unwrap();
    let sent = |value: Value| param_headers(&tool, &json!({"n": value}));
    assert_eq!(sent(json!(-7)).unwrap()[0].1, "-7");
    assert_eq!(sent(json!(42.0)).unwrap()[0].1, "42");
    assert_eq!(
        sent(json!(9007199254740991_i64)).unwrap()[0].1,
        "9007199254740991"
    );
    assert_eq!(sent(json!(3.5)).unwrap()[0].1, "3.5");
    for unsafe_value in [
        json!(9007199254740992_i64),
        json!(-9007199254740992_i64),
        json!(u64::MAX),
        json!(1e300),
    ] {
        assert!(matches!(
            sent(unsafe_value),
            Err(UnmirrorableValue::UnsafeInteger { .. })
        ));
    }
    let error = sent(json!({"a": 1})).unwrap_err();
    assert_eq!(
        error.to_string(),
        "the argument mirrored in Mcp-Param-N is an object; only a string, integer or boolean can be sent as a header"
    );
}

#[test]
fn a_header_mismatch_is_retried_once_after_listing_again() {
    assert_eq!(
        after_header_mismatch(-32020, false),
        Some(AfterHeaderMismatch::RelistThenRetry)
    );
    assert_eq!(
        after_header_mismatch(-32020, true),
        Some(AfterHeaderMismatch::Report)
    );
    assert_eq!(after_header_mismatch(-32602, false), None);
}

#[cfg(not(target_arch = "wasm32"))]
mod properties {
    use super::*;
    use crate::arbitrary;
    use crate::auth::encode::base64_decode;
    use proptest::prelude::*;

    /// Schemas built from the keywords the walk looks at, the annotation among them.
    fn schema_shaped() -> impl Strategy<Value = Value> {
        let key = prop_oneof![
            Just("x-mcp-header"),
            Just("properties"),
            Just("items"),
            Just("anyOf"),
            Just("$defs"),
            Just("type"),
            Just("enum"),
            Just("default"),
            Just("a"),
            Just("b"),
        ]
        .prop_map(str::to_owned);
        let leaf = prop_oneof![
            Just(json!("string")),
            Just(json!("integer")),
            Just(json!("number")),
            Just(json!("A")),
            Just(json!("a")),
            Just(json!(["string", "null"])),
            Just(json!(1)),
            Just(Value::Null),
        ];
        leaf.prop_recursive(5, 64, 6, move |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                proptest::collection::vec((key.clone(), inner), 0..6)
                    .prop_map(|entries| Value::Object(entries.into_iter().collect())),
            ]
        })
    }

    fn sendable(value: &str) -> bool {
        value.bytes().all(|b| (0x20..=0x7e).contains(&b)) && value.trim() == value
    }

    proptest! {
        #[test]
        fn any_schema_and_arguments_are_read_without_panicking(
            schema in prop_oneof![arbitrary::json(), schema_shaped()],
            arguments in prop_oneof![arbitrary::json(), schema_shaped()],
        ) {
            let annotated = json!({"properties": {"p": schema.clone()}, "anyOf": [schema.clone()]});
            for schema in [&schema, &annotated] {
                match tool_headers(schema) {
                    Ok(tool) => {
                        if let Ok(headers) = param_headers(&tool, &arguments) {
                            for (name, value) in headers {
                                prop_assert!(name.starts_with(PARAM_HEADER_PREFIX) && name.chars().all(is_tchar));
                                prop_assert!(sendable(&value), "{}", value);
                            }
                        }
                    }
                    Err(problems) => prop_assert!(problems.iter().all(|p| !p.to_string().is_empty())),
                }
            }
        }

        #[test]
        fn every_string_is_sent_safely_and_decodes_back(text in any::<String>()) {
            let tool = tool_headers(&json!({"properties": {"s": {"type": "string", "x-mcp-header": "S"}}})).unwrap();
            let headers = param_headers(&tool, &json!({"s": text})).unwrap();
            let value = &headers[0].1;
            prop_assert!(sendable(value));
            let decoded = match value.strip_prefix("=?base64?").and_then(|v| v.strip_suffix("?=")) {
                Some(inner) => String::from_utf8(base64_decode(inner).unwrap()).unwrap(),
                None => value.clone(),
            };
            prop_assert_eq!(decoded, text);
        }

        #[test]
        fn header_names_are_tokens(name in "[ -~]{1,12}") {
            let result = tool_headers(&json!({"properties": {"p": {"type": "string", "x-mcp-header": name.clone()}}}));
            prop_assert_eq!(result.is_ok(), name.chars().all(is_tchar));
        }
    }
}
