//! A tool's MCP `inputSchema` (JSON Schema) as each dialect accepts it, losslessly where the
//! dialect allows, with every loss recorded as a [`Dropped`] note the UI can show.
//!
//! Every dialect: the top level is an object schema (`type: "object"` added where missing,
//! `properties: {}` where absent); a top-level `anyOf`/`oneOf`/`allOf` (which Anthropic refuses,
//! and which Gemini cannot take as parameters) is merged into one object.
//!
//! OpenAI-compatible and Anthropic take the rest of JSON Schema as it is.
//!
//! Gemini takes an OpenAPI 3.0 subset (its `Schema` message): local `$ref`s are inlined
//! (a recursive one is cut), `anyOf`/`oneOf` kept as `anyOf` (a `null` member becomes
//! `nullable`), `allOf` merged, type lists split, `const` becomes a one-value `enum`, string
//! formats other than `enum`/`date-time` move to the description, non-string enums move to the
//! description, a free-form object (no properties, which Gemini refuses) is asked for as JSON
//! text and decoded back before the call ([`restore_json_text`]), and keywords outside the
//! subset (`additionalProperties`, `patternProperties`, `not`, `if`, `multipleOf`, ...) are
//! dropped.
//!
//! Total on any input: a schema is converted within [`MAX_NODES`] nodes and [`MAX_DEPTH`]
//! levels; what lies beyond is replaced and said.

mod converted;
mod gemini;
mod lookup;

use crate::provider::Dialect;
pub use converted::{ConvertedSchema, Dropped, MAX_DEPTH, MAX_NODES};
use lookup::{dedup, kind_of, resolve_local_ref};
use serde_json::{json, Map, Value};

/// The tool's `inputSchema` converted for `dialect`.
pub fn convert_input_schema(schema: &Value, dialect: Dialect) -> ConvertedSchema {
    let mut dropped = Vec::new();
    let top = top_level_object(schema, &mut dropped);
    match dialect {
        Dialect::OpenAiCompatible | Dialect::Anthropic => ConvertedSchema {
            parameters: Some(Value::Object(top)),
            dropped,
            json_text_paths: Vec::new(),
        },
        Dialect::Gemini => gemini::convert(schema, &top, dropped),
    }
}

/// Decodes, in arguments the model wrote, the values asked for as JSON text (a free-form object
/// Gemini cannot declare) back into JSON, so the tool receives what its schema says.
pub fn restore_json_text(arguments: &mut Value, paths: &[Vec<String>]) {
    for path in paths {
        restore_at(arguments, path);
    }
}

fn restore_at(value: &mut Value, path: &[String]) {
    let Some((first, rest)) = path.split_first() else {
        if let Value::String(text) = value {
            if let Ok(decoded @ Value::Object(_)) = serde_json::from_str::<Value>(text) {
                *value = decoded;
            }
        }
        return;
    };
    match (first.as_str(), value) {
        ("*", Value::Array(items)) => {
            for item in items {
                restore_at(item, rest);
            }
        }
        (name, Value::Object(map)) => {
            if let Some(inner) = map.get_mut(name) {
                restore_at(inner, rest);
            }
        }
        _ => {}
    }
}

// ------------------------------------------------------------------ the top level, every dialect

/// The schema as one object schema: `type: "object"`, `properties` present, top-level
/// combinators merged.
fn top_level_object(schema: &Value, dropped: &mut Vec<Dropped>) -> Map<String, Value> {
    let Some(object) = schema.as_object() else {
        dropped.push(Dropped::new(
            "/inputSchema",
            format!("the input schema {}", kind_of(schema)),
            "a tool's input schema must be a JSON object; the tool is described as taking an \
             object with no declared properties",
        ));
        return empty_object_schema();
    };
    let mut top = object.clone();
    for combinator in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(alternatives)) = top.remove(combinator) {
            merge_top_alternatives(&mut top, combinator, &alternatives, schema, dropped);
        }
    }
    match top.get("type") {
        None => {
            top.insert("type".into(), json!("object"));
        }
        Some(Value::String(kind)) if kind == "object" => {}
        Some(Value::Array(kinds)) if kinds.iter().any(|k| k == "object") => {
            if kinds.len() > 1 {
                dropped.push(Dropped::new(
                    "/inputSchema/type",
                    format!("the other types of {}", Value::Array(kinds.clone())),
                    "tool arguments are always an object",
                ));
            }
            top.insert("type".into(), json!("object"));
        }
        Some(other) => {
            dropped.push(Dropped::new(
                "/inputSchema/type",
                format!("type {other}"),
                "tool arguments are always an object; the tool is described as taking one",
            ));
            top.insert("type".into(), json!("object"));
        }
    }
    if !matches!(top.get("properties"), Some(Value::Object(_))) {
        top.insert("properties".into(), json!({}));
    }
    top
}

fn empty_object_schema() -> Map<String, Value> {
    let mut map = Map::new();
    map.insert("type".into(), json!("object"));
    map.insert("properties".into(), json!({}));
    map
}

/// A top-level `allOf` (every part applies: properties and requirements add up) or `anyOf` /
/// `oneOf` (one alternative applies: every property is offered, only those every alternative
/// requires stay required).
fn merge_top_alternatives(
    top: &mut Map<String, Value>,
    combinator: &str,
    alternatives: &[Value],
    root: &Value,
    dropped: &mut Vec<Dropped>,
) {
    let every_part_applies = combinator == "allOf";
    let mut properties = top
        .get("properties")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let own_required: Vec<Value> = top
        .get("required")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let mut shared_required: Option<Vec<Value>> = None;
    for alternative in alternatives {
        let alternative = resolve_local_ref(alternative, root).unwrap_or(alternative);
        let Some(alternative) = alternative.as_object() else {
            continue;
        };
        if let Some(Value::Object(more)) = alternative.get("properties") {
            for (name, property) in more {
                properties
                    .entry(name.clone())
                    .or_insert_with(|| property.clone());
            }
        }
        let required: Vec<Value> = alternative
            .get("required")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        shared_required = Some(match shared_required {
            None => required,
            Some(mut so_far) if every_part_applies => {
                so_far.extend(required);
                dedup(so_far)
            }
            Some(so_far) => so_far
                .into_iter()
                .filter(|r| required.contains(r))
                .collect(),
        });
    }
    let mut required = own_required;
    required.extend(shared_required.unwrap_or_default());
    let required = dedup(required);
    top.insert("properties".into(), Value::Object(properties));
    if !required.is_empty() {
        top.insert("required".into(), Value::Array(required));
    }
    if !every_part_applies {
        dropped.push(Dropped::new(
            &format!("/inputSchema/{combinator}"),
            format!(
                "the {} alternatives of the top-level {combinator}",
                alternatives.len()
            ),
            "tool arguments must be one object schema: every alternative's properties are \
             offered, and only what all of them require stays required",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gemini(schema: Value) -> ConvertedSchema {
        convert_input_schema(&schema, Dialect::Gemini)
    }

    fn mentions(dropped: &[Dropped], what: &str) -> bool {
        dropped
            .iter()
            .any(|d| d.what.contains(what) || d.path.contains(what))
    }

    #[test]
    fn a_schema_without_a_top_level_type_is_an_object_in_every_dialect() {
        let schema = json!({ "properties": { "q": { "type": "string" } } });
        for dialect in [Dialect::OpenAiCompatible, Dialect::Anthropic] {
            let converted = convert_input_schema(&schema, dialect);
            assert_eq!(
                converted.parameters,
                Some(json!({ "properties": { "q": { "type": "string" } }, "type": "object" }))
            );
            assert!(converted.dropped.is_empty());
        }
        assert_eq!(
            gemini(schema).parameters,
            Some(json!({ "type": "OBJECT", "properties": { "q": { "type": "STRING" } } }))
        );
    }

    #[test]
    fn an_empty_schema_gets_empty_properties_and_gemini_gets_no_parameters() {
        let converted =
            convert_input_schema(&json!({ "type": "object" }), Dialect::OpenAiCompatible);
        assert_eq!(
            converted.parameters,
            Some(json!({ "type": "object", "properties": {} }))
        );
        let converted = gemini(json!({ "type": "object" }));
        assert_eq!(converted.parameters, None);
        assert!(converted.dropped.is_empty());
    }

    #[test]
    fn a_schema_that_is_not_an_object_is_replaced_and_said() {
        let converted = convert_input_schema(&json!(["not", "a", "schema"]), Dialect::Anthropic);
        assert_eq!(
            converted.parameters,
            Some(json!({ "type": "object", "properties": {} }))
        );
        assert_eq!(converted.dropped.len(), 1);
        assert_eq!(converted.dropped[0].path, "/inputSchema");
    }

    #[test]
    fn openai_and_anthropic_keep_refs_and_every_other_keyword() {
        let schema = json!({
            "type": "object",
            "$defs": { "Point": { "type": "object", "properties": { "x": { "type": "number" } } } },
            "properties": { "at": { "$ref": "#/$defs/Point" }, "n": { "type": "integer", "multipleOf": 2 } },
            "additionalProperties": false
        });
        for dialect in [Dialect::OpenAiCompatible, Dialect::Anthropic] {
            let converted = convert_input_schema(&schema, dialect);
            assert_eq!(converted.parameters, Some(schema.clone()));
            assert!(converted.dropped.is_empty());
        }
    }

    #[test]
    fn a_top_level_any_of_is_merged_into_one_object_keeping_only_shared_requirements() {
        let schema = json!({
            "anyOf": [
                { "type": "object", "properties": { "id": { "type": "string" }, "a": { "type": "string" } }, "required": ["id", "a"] },
                { "type": "object", "properties": { "id": { "type": "string" }, "b": { "type": "number" } }, "required": ["id"] }
            ]
        });
        let converted = convert_input_schema(&schema, Dialect::Anthropic);
        let parameters = converted.parameters.unwrap();
        assert_eq!(parameters["type"], "object");
        assert_eq!(parameters["required"], json!(["id"]));
        assert_eq!(parameters["properties"].as_object().unwrap().len(), 3);
        assert!(parameters.get("anyOf").is_none());
        assert!(mentions(&converted.dropped, "anyOf"));
    }

    #[test]
    fn a_top_level_all_of_adds_up_properties_and_requirements_without_a_note() {
        let schema = json!({
            "allOf": [
                { "properties": { "a": { "type": "string" } }, "required": ["a"] },
                { "properties": { "b": { "type": "string" } }, "required": ["b"] }
            ]
        });
        let converted = convert_input_schema(&schema, Dialect::OpenAiCompatible);
        let parameters = converted.parameters.unwrap();
        assert_eq!(parameters["required"], json!(["a", "b"]));
        assert!(converted.dropped.is_empty());
    }

    #[test]
    fn gemini_inlines_local_refs_and_drops_what_its_subset_lacks() {
        let schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "$defs": { "Point": { "type": "object", "properties": { "x": { "type": "number", "multipleOf": 0.5 } }, "required": ["x"], "additionalProperties": false } },
            "properties": {
                "at": { "$ref": "#/$defs/Point", "description": "Where." },
                "mode": { "const": "fast" },
                "size": { "type": "integer", "enum": [1, 2, 3] },
                "email": { "type": "string", "format": "email" },
                "when": { "type": "string", "format": "date-time" },
                "tags": { "type": "array", "items": { "type": "string" }, "uniqueItems": true }
            },
            "required": ["at", "missing"],
            "additionalProperties": false
        });
        let converted = gemini(schema);
        let parameters = converted.parameters.unwrap();
        assert_eq!(
            parameters["properties"]["at"],
            json!({
                "type": "OBJECT",
                "required": ["x"],
                "properties": { "x": { "type": "NUMBER" } },
                "description": "Where."
            })
        );
        assert_eq!(
            parameters["properties"]["mode"],
            json!({ "type": "STRING", "enum": ["fast"] })
        );
        assert_eq!(
            parameters["properties"]["size"],
            json!({ "type": "INTEGER", "description": "Allowed values: 1, 2, 3." })
        );
        assert_eq!(
            parameters["properties"]["email"],
            json!({ "type": "STRING", "description": "Format: email." })
        );
        assert_eq!(parameters["properties"]["when"]["format"], "date-time");
        assert_eq!(parameters["required"], json!(["at"]));
        assert!(parameters.get("$schema").is_none() && parameters.get("$defs").is_none());
        let text = serde_json::to_string(&parameters).unwrap();
        assert!(
            !text.contains("additionalProperties") && !text.contains("$ref"),
            "{text}"
        );
        for what in [
            "multipleOf",
            "additionalProperties",
            "uniqueItems",
            "const",
            "enum of non-string",
            "format \"email\"",
            "\"missing\"",
        ] {
            assert!(
                mentions(&converted.dropped, what),
                "no note for {what}: {:#?}",
                converted.dropped
            );
        }
        assert!(!mentions(&converted.dropped, "$schema"));
    }

    #[test]
    fn gemini_cuts_a_recursive_ref_and_says_where() {
        let schema = json!({
            "type": "object",
            "properties": { "tree": { "$ref": "#/$defs/Node" } },
            "$defs": { "Node": { "type": "object", "properties": {
                "name": { "type": "string" },
                "children": { "type": "array", "items": { "$ref": "#/$defs/Node" } }
            } } }
        });
        let converted = gemini(schema);
        let tree = &converted.parameters.unwrap()["properties"]["tree"];
        assert_eq!(tree["properties"]["name"]["type"], "STRING");
        assert_eq!(
            tree["properties"]["children"]["items"],
            json!({ "type": "STRING" })
        );
        let note = converted
            .dropped
            .iter()
            .find(|d| d.what.contains("recursive"))
            .unwrap();
        assert_eq!(
            note.path,
            "/inputSchema/properties/tree/properties/children/items"
        );
    }

    #[test]
    fn gemini_turns_null_alternatives_into_nullable_and_keeps_real_unions() {
        let schema = json!({
            "type": "object",
            "properties": {
                "maybe": { "anyOf": [{ "type": "string" }, { "type": "null" }], "description": "Optional." },
                "either": { "oneOf": [{ "type": "string" }, { "type": "integer" }] },
                "listed": { "type": ["number", "null"] },
                "two": { "type": ["string", "boolean"] }
            }
        });
        let converted = gemini(schema);
        let properties = &converted.parameters.unwrap()["properties"];
        assert_eq!(
            properties["maybe"],
            json!({ "type": "STRING", "description": "Optional.", "nullable": true })
        );
        assert_eq!(
            properties["either"],
            json!({ "anyOf": [{ "type": "STRING" }, { "type": "INTEGER" }] })
        );
        assert_eq!(
            properties["listed"],
            json!({ "type": "NUMBER", "nullable": true })
        );
        assert_eq!(
            properties["two"],
            json!({ "anyOf": [{ "type": "STRING" }, { "type": "BOOLEAN" }] })
        );
        assert!(mentions(&converted.dropped, "oneOf"));
    }

    #[test]
    fn gemini_asks_for_a_free_form_object_as_json_text_and_it_is_decoded_back() {
        let schema = json!({
            "type": "object",
            "properties": {
                "headers": { "type": "object", "additionalProperties": { "type": "string" } },
                "rows": { "type": "array", "items": { "type": "object" } }
            }
        });
        let converted = gemini(schema);
        let properties = &converted.parameters.as_ref().unwrap()["properties"];
        assert_eq!(properties["headers"]["type"], "STRING");
        assert_eq!(
            converted.json_text_paths,
            vec![
                vec!["headers".to_owned()],
                vec!["rows".to_owned(), "*".to_owned()]
            ]
        );
        let mut arguments =
            json!({ "headers": "{\"a\":\"b\"}", "rows": ["{\"x\":1}", "not json"] });
        restore_json_text(&mut arguments, &converted.json_text_paths);
        assert_eq!(
            arguments,
            json!({ "headers": { "a": "b" }, "rows": [{ "x": 1 }, "not json"] })
        );
    }

    #[test]
    fn gemini_merges_all_of_and_infers_missing_types() {
        let schema = json!({
            "type": "object",
            "properties": {
                "p": { "allOf": [
                    { "properties": { "a": { "type": "string" } }, "required": ["a"] },
                    { "properties": { "b": { "minimum": 1 } } }
                ] },
                "anything": {}
            }
        });
        let converted = gemini(schema);
        let properties = &converted.parameters.unwrap()["properties"];
        assert_eq!(properties["p"]["type"], "OBJECT");
        assert_eq!(properties["p"]["required"], json!(["a"]));
        assert_eq!(
            properties["p"]["properties"]["b"],
            json!({ "type": "NUMBER", "minimum": 1 })
        );
        assert_eq!(properties["anything"], json!({ "type": "STRING" }));
        assert!(mentions(&converted.dropped, "no type"));
    }

    #[test]
    fn a_schema_deeper_than_the_limit_is_cut_not_overflowed() {
        let mut schema = json!({ "type": "string" });
        for _ in 0..(MAX_DEPTH + 10) {
            schema = json!({ "type": "object", "properties": { "d": schema } });
        }
        let converted = gemini(schema);
        assert!(mentions(&converted.dropped, "the rest of the schema"));
    }
}
