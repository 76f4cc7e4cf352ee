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

use crate::provider::Dialect;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

/// Schema nodes converted per tool before the rest is cut (a hostile server's schema must
/// not exhaust the page; inlined `$ref`s count each time they are inlined).
pub const MAX_NODES: usize = 4_000;
/// Nesting depth converted before the rest is cut.
pub const MAX_DEPTH: usize = 32;

/// Something a dialect could not take as it was: where (a JSON pointer into the tool's
/// definition), what, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dropped {
    pub path: String,
    pub what: String,
    pub why: String,
}

impl Dropped {
    pub fn new(path: &str, what: impl Into<String>, why: impl Into<String>) -> Self {
        Self {
            path: path.to_owned(),
            what: what.into(),
            why: why.into(),
        }
    }
}

/// A tool's parameters in a dialect.
#[derive(Debug, Clone, PartialEq)]
pub struct ConvertedSchema {
    /// None: the tool takes no arguments and the dialect is told none (Gemini refuses an
    /// object without properties).
    pub parameters: Option<Value>,
    pub dropped: Vec<Dropped>,
    /// Where in the arguments a value was asked for as JSON text (see [`restore_json_text`]):
    /// property names, `*` for every item of an array.
    pub json_text_paths: Vec<Vec<String>>,
}

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
        Dialect::Gemini => {
            let mut converter = GeminiConverter {
                root: schema,
                dropped,
                json_text_paths: Vec::new(),
                nodes: 0,
                refs: Vec::new(),
            };
            let converted = converter.object_top(&top);
            ConvertedSchema {
                parameters: converted,
                dropped: converter.dropped,
                json_text_paths: converter.json_text_paths,
            }
        }
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

fn dedup(values: Vec<Value>) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::with_capacity(values.len());
    for value in values {
        if !out.contains(&value) {
            out.push(value);
        }
    }
    out
}

/// The schema a local `$ref` (`#`, `#/$defs/X`, any JSON pointer in the document) points to.
fn resolve_local_ref<'a>(node: &'a Value, root: &'a Value) -> Option<&'a Value> {
    let reference = node.get("$ref")?.as_str()?;
    let pointer = reference.strip_prefix('#')?;
    if pointer.is_empty() {
        return Some(root);
    }
    let decoded: String = percent_decode(pointer);
    root.pointer(&decoded)
}

/// `%XX` escapes in a `$ref` fragment decoded (JSON pointers in URIs are percent-encoded).
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
            if let Some(byte) = hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(byte);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "is null",
        Value::Bool(_) => "is a boolean",
        Value::Number(_) => "is a number",
        Value::String(_) => "is a string",
        Value::Array(_) => "is an array",
        Value::Object(_) => "is an object",
    }
}

// ------------------------------------------------------------------ Gemini's subset

/// Keywords Gemini's `Schema` has that are copied as they are (after their type checks).
const GEMINI_NUMBER_KEYWORDS: [&str; 8] = [
    "minimum",
    "maximum",
    "minItems",
    "maxItems",
    "minLength",
    "maxLength",
    "minProperties",
    "maxProperties",
];

/// Keywords that say nothing to a model and go without a note.
const SILENT_KEYWORDS: [&str; 6] = [
    "$schema",
    "$id",
    "$comment",
    "$defs",
    "definitions",
    "$anchor",
];

/// Keywords handled by the converter itself.
const HANDLED_KEYWORDS: [&str; 20] = [
    "type",
    "description",
    "title",
    "default",
    "example",
    "examples",
    "nullable",
    "enum",
    "const",
    "format",
    "pattern",
    "properties",
    "required",
    "items",
    "anyOf",
    "oneOf",
    "allOf",
    "$ref",
    "exclusiveMinimum",
    "exclusiveMaximum",
];

struct GeminiConverter<'a> {
    root: &'a Value,
    dropped: Vec<Dropped>,
    json_text_paths: Vec<Vec<String>>,
    nodes: usize,
    /// The `$ref`s being inlined, outermost first (a ref inside itself is recursion).
    refs: Vec<String>,
}

impl GeminiConverter<'_> {
    /// The top level: an OBJECT with properties, or no parameters at all when there are none.
    fn object_top(&mut self, top: &Map<String, Value>) -> Option<Value> {
        let has_properties = top
            .get("properties")
            .and_then(Value::as_object)
            .is_some_and(|p| !p.is_empty());
        if !has_properties {
            if let Some(extra) = top.get("additionalProperties") {
                if extra != &Value::Bool(false) {
                    self.drop_note(
                        "/inputSchema/additionalProperties",
                        "free-form arguments (additionalProperties)",
                        "Gemini declares a function's arguments by name only; the model is told \
                         the tool takes none",
                    );
                }
            }
            return None;
        }
        Some(self.node(
            &Value::Object(top.clone()),
            "/inputSchema",
            0,
            Some(Vec::new()),
        ))
    }

    fn drop_note(&mut self, path: &str, what: impl Into<String>, why: impl Into<String>) {
        self.dropped.push(Dropped::new(path, what, why));
    }

    /// A placeholder for a schema that cannot be converted: any value, asked for as text.
    fn text_instead(&mut self, path: &str, what: &str, why: &str) -> Value {
        self.drop_note(path, what, why);
        json!({ "type": "STRING" })
    }

    /// One schema node. `args` is where its value sits in the arguments (None inside a
    /// construct that has no single place, such as an `anyOf` member).
    fn node(&mut self, node: &Value, path: &str, depth: usize, args: Option<Vec<String>>) -> Value {
        self.nodes += 1;
        if self.nodes > MAX_NODES || depth > MAX_DEPTH {
            return self.text_instead(
                path,
                "the rest of the schema",
                "it is larger or deeper than the page converts; any value is accepted as text",
            );
        }
        let object = match node {
            Value::Object(object) => object,
            Value::Bool(true) => {
                return self.text_instead(
                    path,
                    "a schema that accepts any value (true)",
                    "Gemini needs a type; it is asked for as text",
                )
            }
            other => {
                let what = format!("a schema that {}", kind_of(other));
                return self.text_instead(
                    path,
                    &what,
                    "it is not a schema Gemini can take; any value is asked for as text",
                );
            }
        };
        if let Some(reference) = object.get("$ref").and_then(Value::as_str) {
            return self.inline_ref(reference, object, path, depth, args);
        }
        if let Some(Value::Array(parts)) = object.get("allOf") {
            let merged = self.merge_all_of(object, parts, path);
            return self.node(&Value::Object(merged), path, depth + 1, args);
        }
        self.typed_node(object, path, depth, args)
    }

    fn inline_ref(
        &mut self,
        reference: &str,
        object: &Map<String, Value>,
        path: &str,
        depth: usize,
        args: Option<Vec<String>>,
    ) -> Value {
        let target = resolve_local_ref(&Value::Object(object.clone()), self.root).cloned();
        let Some(target) = target else {
            let what = format!("$ref {reference}");
            return self.text_instead(path, &what, "only references inside the schema itself can be inlined; any value is asked for as text");
        };
        if self.refs.iter().any(|r| r == reference) {
            let what = format!("the recursive $ref {reference}");
            return self.text_instead(path, &what, "Gemini has no references and a recursive schema cannot be inlined whole; at this depth any value is asked for as text");
        }
        // The referring node's own words (a description beside the $ref) win over the target's.
        let mut merged = target.as_object().cloned().unwrap_or_default();
        for (key, value) in object {
            if key != "$ref" {
                merged.insert(key.clone(), value.clone());
            }
        }
        let merged = if target.is_object() {
            Value::Object(merged)
        } else {
            target
        };
        self.refs.push(reference.to_owned());
        let converted = self.node(&merged, path, depth + 1, args);
        self.refs.pop();
        converted
    }

    /// `allOf` as one schema: properties and requirements add up; the first part's other
    /// keywords stand.
    fn merge_all_of(
        &mut self,
        object: &Map<String, Value>,
        parts: &[Value],
        path: &str,
    ) -> Map<String, Value> {
        let mut merged = object.clone();
        merged.remove("allOf");
        let mut properties = merged
            .get("properties")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        let mut required: Vec<Value> = merged
            .get("required")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        for part in parts {
            let resolved = resolve_local_ref(part, self.root).unwrap_or(part);
            let Some(part) = resolved.as_object() else {
                continue;
            };
            for (key, value) in part {
                match key.as_str() {
                    "properties" => {
                        if let Value::Object(more) = value {
                            for (name, schema) in more {
                                properties
                                    .entry(name.clone())
                                    .or_insert_with(|| schema.clone());
                            }
                        }
                    }
                    "required" => {
                        if let Value::Array(more) = value {
                            required.extend(more.iter().cloned());
                        }
                    }
                    "$ref" => {}
                    _ => {
                        merged.entry(key.clone()).or_insert_with(|| value.clone());
                    }
                }
            }
        }
        if !properties.is_empty() {
            merged.insert("properties".into(), Value::Object(properties));
        }
        let required = dedup(required);
        if !required.is_empty() {
            merged.insert("required".into(), Value::Array(required));
        }
        if parts.len() > 1 {
            self.drop_note(
                &format!("{path}/allOf"),
                "allOf",
                "Gemini has no allOf; its parts were merged into one schema (the first part's \
                 keywords win where they disagree)",
            );
        }
        merged
    }

    fn typed_node(
        &mut self,
        object: &Map<String, Value>,
        path: &str,
        depth: usize,
        args: Option<Vec<String>>,
    ) -> Value {
        let mut out = Map::new();
        let mut nullable = object.get("nullable") == Some(&Value::Bool(true));
        let mut description: Option<String> = object
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_owned);

        // anyOf / oneOf: alternatives, `null` as nullable.
        let union = object
            .get("anyOf")
            .map(|u| ("anyOf", u))
            .or_else(|| object.get("oneOf").map(|u| ("oneOf", u)));
        if let Some((keyword, Value::Array(members))) = union {
            if keyword == "oneOf" {
                self.drop_note(
                    &format!("{path}/oneOf"),
                    "oneOf (exactly one alternative)",
                    "Gemini has only anyOf (at least one); sent as anyOf",
                );
            }
            if object.contains_key("anyOf") && object.contains_key("oneOf") {
                self.drop_note(
                    &format!("{path}/oneOf"),
                    "oneOf beside anyOf",
                    "Gemini takes one list of alternatives; the anyOf was kept",
                );
            }
            let mut kept = Vec::new();
            for (index, member) in members.iter().enumerate() {
                let resolved = resolve_local_ref(member, self.root).unwrap_or(member);
                if is_null_schema(resolved) {
                    nullable = true;
                    continue;
                }
                kept.push((index, member));
            }
            let others: Map<String, Value> = object
                .iter()
                .filter(|(k, _)| {
                    !matches!(
                        k.as_str(),
                        "anyOf" | "oneOf" | "description" | "title" | "default" | "nullable"
                    )
                })
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            let converted = match kept.as_slice() {
                [] => self.text_instead(
                    path,
                    "an anyOf of only null",
                    "Gemini needs a type; asked for as text, or null",
                ),
                [(index, only)] => {
                    // One alternative besides null: the schema itself, made nullable.
                    let member_path = format!("{path}/{keyword}/{index}");
                    let mut single = (*only).clone();
                    if let Value::Object(single_map) = &mut single {
                        for (k, v) in &others {
                            single_map.entry(k.clone()).or_insert_with(|| v.clone());
                        }
                    }
                    self.node(&single, &member_path, depth + 1, args.clone())
                }
                several => {
                    if !others.is_empty() {
                        let names: Vec<&str> = others.keys().map(String::as_str).collect();
                        self.drop_note(path, format!("keywords beside {keyword}: {}", names.join(", ")), "Gemini takes either alternatives or one schema at a node; the alternatives were kept");
                    }
                    let alternatives: Vec<Value> = several
                        .iter()
                        .map(|(index, member)| {
                            self.node(
                                member,
                                &format!("{path}/{keyword}/{index}"),
                                depth + 1,
                                None,
                            )
                        })
                        .collect();
                    json!({ "anyOf": alternatives })
                }
            };
            let Value::Object(converted) = converted else {
                return converted;
            };
            return with_own_words(converted, object, description, nullable);
        }

        // The type: one, a list (null as nullable, several as anyOf), or inferred.
        let declared: Vec<String> = match object.get("type") {
            Some(Value::String(kind)) => vec![kind.clone()],
            Some(Value::Array(kinds)) => kinds
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
            _ => Vec::new(),
        };
        if declared.iter().any(|k| k == "null") {
            nullable = true;
        }
        let mut kinds: Vec<String> = declared.into_iter().filter(|k| k != "null").collect();
        if kinds.len() > 1 {
            let alternatives: Vec<Value> = kinds
                .iter()
                .map(|kind| {
                    let mut single = object.clone();
                    single.insert("type".into(), Value::String(kind.clone()));
                    single.remove("description");
                    single.remove("title");
                    self.node(
                        &Value::Object(single),
                        &format!("{path}/type/{kind}"),
                        depth + 1,
                        None,
                    )
                })
                .collect();
            let mut union = Map::new();
            union.insert("anyOf".into(), Value::Array(alternatives));
            return with_own_words(union, object, description, nullable);
        }
        let kind = match kinds.pop() {
            Some(kind) => kind,
            None => match infer_type(object) {
                Some(kind) => kind.to_owned(),
                None if nullable => {
                    self.drop_note(
                        path,
                        "a null-only schema",
                        "Gemini needs a type; asked for as text, or null",
                    );
                    "string".to_owned()
                }
                None => {
                    self.drop_note(
                        path,
                        "a schema with no type",
                        "Gemini needs a type; any value is asked for as text",
                    );
                    "string".to_owned()
                }
            },
        };

        let gemini_type = match kind.as_str() {
            "string" => "STRING",
            "number" => "NUMBER",
            "integer" => "INTEGER",
            "boolean" => "BOOLEAN",
            "array" => "ARRAY",
            "object" => "OBJECT",
            other => {
                self.drop_note(
                    &format!("{path}/type"),
                    format!("type {other:?}"),
                    "not a JSON Schema type; any value is asked for as text",
                );
                "STRING"
            }
        };

        // A free-form object (no properties): Gemini refuses an OBJECT without them, so the
        // value is asked for as JSON text and decoded before the call.
        if gemini_type == "OBJECT"
            && object
                .get("properties")
                .and_then(Value::as_object)
                .is_none_or(|p| p.is_empty())
        {
            let note = "Write it as JSON text (an object).";
            description = Some(match description {
                Some(d) if !d.is_empty() => format!("{d} {note}"),
                _ => note.to_owned(),
            });
            match &args {
                Some(args) => {
                    self.json_text_paths.push(args.clone());
                    self.drop_note(path, "a free-form object (no declared properties)", "Gemini refuses an object without properties; the model is asked for JSON text, decoded back into an object before the call");
                }
                None => self.drop_note(path, "a free-form object (no declared properties) inside alternatives or a list of types", "Gemini refuses an object without properties; the model is asked for JSON text, which the tool receives as text"),
            }
            out.insert("type".into(), json!("STRING"));
            if let Some(description) = description {
                out.insert("description".into(), Value::String(description));
            }
            copy_plain(object, &mut out, &["title"]);
            if nullable {
                out.insert("nullable".into(), Value::Bool(true));
            }
            self.note_unsupported(
                object,
                path,
                &[
                    "properties",
                    "additionalProperties",
                    "patternProperties",
                    "propertyNames",
                    "minProperties",
                    "maxProperties",
                ],
            );
            return Value::Object(out);
        }

        out.insert("type".into(), json!(gemini_type));

        // format: Gemini keeps only a few; the others go to the description.
        if let Some(format) = object.get("format").and_then(Value::as_str) {
            let allowed = match gemini_type {
                "STRING" => ["enum", "date-time"].contains(&format),
                "NUMBER" => ["float", "double"].contains(&format),
                "INTEGER" => ["int32", "int64"].contains(&format),
                _ => false,
            };
            if allowed {
                out.insert("format".into(), json!(format));
            } else {
                description = Some(append_sentence(description, &format!("Format: {format}.")));
                self.drop_note(&format!("{path}/format"), format!("format {format:?}"), "Gemini accepts only enum and date-time for strings, float and double for numbers, int32 and int64 for integers; the format was added to the description");
            }
        }

        // enum and const: Gemini's enum holds strings.
        let mut allowed_values: Vec<Value> = object
            .get("enum")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        if let Some(constant) = object.get("const") {
            allowed_values = vec![constant.clone()];
        }
        if !allowed_values.is_empty() {
            let nulls = allowed_values.iter().filter(|v| v.is_null()).count();
            if nulls > 0 {
                nullable = true;
                allowed_values.retain(|v| !v.is_null());
            }
            if gemini_type == "STRING" && allowed_values.iter().all(Value::is_string) {
                out.insert("enum".into(), Value::Array(allowed_values));
                if object.contains_key("const") {
                    self.drop_note(
                        &format!("{path}/const"),
                        "const",
                        "Gemini has no const; sent as an enum of one value",
                    );
                }
            } else if !allowed_values.is_empty() {
                let listed: Vec<String> = allowed_values.iter().map(Value::to_string).collect();
                description = Some(append_sentence(
                    description,
                    &format!("Allowed values: {}.", listed.join(", ")),
                ));
                let keyword = if object.contains_key("const") {
                    "const"
                } else {
                    "enum"
                };
                self.drop_note(
                    &format!("{path}/{keyword}"),
                    format!("{keyword} of non-string values"),
                    "Gemini's enum holds only strings; the values were added to the description",
                );
            }
        }

        // Exclusive bounds become inclusive ones (draft 2020 numbers; draft 4 booleans).
        for (exclusive, inclusive) in [
            ("exclusiveMinimum", "minimum"),
            ("exclusiveMaximum", "maximum"),
        ] {
            match object.get(exclusive) {
                Some(Value::Number(bound)) => {
                    if !object.contains_key(inclusive) {
                        out.insert(inclusive.into(), Value::Number(bound.clone()));
                    }
                    self.drop_note(
                        &format!("{path}/{exclusive}"),
                        format!("{exclusive} {bound}"),
                        format!("Gemini has only inclusive bounds; sent as {inclusive}"),
                    );
                }
                Some(Value::Bool(true)) => self.drop_note(
                    &format!("{path}/{exclusive}"),
                    exclusive,
                    format!("Gemini has only inclusive bounds; {inclusive} is sent as inclusive"),
                ),
                _ => {}
            }
        }

        for keyword in GEMINI_NUMBER_KEYWORDS {
            if let Some(value @ Value::Number(_)) = object.get(keyword) {
                out.insert(keyword.into(), value.clone());
            }
        }
        if gemini_type == "STRING" {
            if let Some(pattern @ Value::String(_)) = object.get("pattern") {
                out.insert("pattern".into(), pattern.clone());
            }
        }

        match gemini_type {
            "OBJECT" => self.object_members(object, &mut out, path, depth, &args),
            "ARRAY" => self.array_items(object, &mut out, path, depth, &args),
            _ => {}
        }

        if let Some(description) = description {
            out.insert("description".into(), Value::String(description));
        }
        copy_plain(object, &mut out, &["title", "default"]);
        match (object.get("example"), object.get("examples")) {
            (Some(example), _) => {
                out.insert("example".into(), example.clone());
            }
            (None, Some(Value::Array(examples))) if !examples.is_empty() => {
                out.insert("example".into(), examples[0].clone());
            }
            _ => {}
        }
        if nullable {
            out.insert("nullable".into(), Value::Bool(true));
        }
        let used: &[&str] = match gemini_type {
            "OBJECT" => &["properties", "required", "minProperties", "maxProperties"],
            "ARRAY" => &["items", "minItems", "maxItems"],
            "STRING" => &["minLength", "maxLength", "pattern"],
            _ => &["minimum", "maximum"],
        };
        self.note_unsupported(object, path, used);
        Value::Object(out)
    }

    fn object_members(
        &mut self,
        object: &Map<String, Value>,
        out: &mut Map<String, Value>,
        path: &str,
        depth: usize,
        args: &Option<Vec<String>>,
    ) {
        let mut properties = Map::new();
        if let Some(Value::Object(declared)) = object.get("properties") {
            for (name, schema) in declared {
                let property_args = deeper(args, name);
                let property_path = format!("{path}/properties/{}", escape_pointer(name));
                properties.insert(
                    name.clone(),
                    self.node(schema, &property_path, depth + 1, property_args),
                );
            }
        }
        if let Some(Value::Array(required)) = object.get("required") {
            let (known, unknown): (Vec<&Value>, Vec<&Value>) = required
                .iter()
                .partition(|name| name.as_str().is_some_and(|n| properties.contains_key(n)));
            if !unknown.is_empty() {
                let names: Vec<String> = unknown.iter().map(|v| v.to_string()).collect();
                self.drop_note(
                    &format!("{path}/required"),
                    format!("required {}", names.join(", ")),
                    "Gemini refuses a required property that is not declared",
                );
            }
            let known: Vec<Value> = dedup(known.into_iter().cloned().collect());
            if !known.is_empty() {
                out.insert("required".into(), Value::Array(known));
            }
        }
        out.insert("properties".into(), Value::Object(properties));
    }

    fn array_items(
        &mut self,
        object: &Map<String, Value>,
        out: &mut Map<String, Value>,
        path: &str,
        depth: usize,
        args: &Option<Vec<String>>,
    ) {
        let item_args = deeper(args, "*");
        let items = match object.get("items").or_else(|| object.get("prefixItems")) {
            Some(Value::Array(tuple)) if !tuple.is_empty() => {
                self.drop_note(
                    &format!("{path}/items"),
                    "a tuple of item schemas",
                    "Gemini has one schema for every item; the first was kept",
                );
                self.node(&tuple[0], &format!("{path}/items/0"), depth + 1, item_args)
            }
            Some(schema @ Value::Object(_)) | Some(schema @ Value::Bool(true)) => {
                self.node(schema, &format!("{path}/items"), depth + 1, item_args)
            }
            _ => self.text_instead(
                &format!("{path}/items"),
                "an array without an item schema",
                "Gemini needs the items' type; any item is asked for as text",
            ),
        };
        if object.contains_key("prefixItems") && !object.contains_key("items") {
            self.drop_note(
                &format!("{path}/prefixItems"),
                "prefixItems",
                "Gemini has one schema for every item; the first was kept",
            );
        }
        out.insert("items".into(), items);
    }

    /// One note for the keywords at this node Gemini has no room for.
    fn note_unsupported(&mut self, object: &Map<String, Value>, path: &str, used: &[&str]) {
        let mut unsupported: Vec<&str> = object
            .keys()
            .map(String::as_str)
            .filter(|key| {
                !HANDLED_KEYWORDS.contains(key)
                    && !SILENT_KEYWORDS.contains(key)
                    && !used.contains(key)
            })
            .collect();
        unsupported.sort_unstable();
        if !unsupported.is_empty() {
            self.drop_note(
                path,
                format!("keywords: {}", unsupported.join(", ")),
                "outside the schema subset Gemini accepts",
            );
        }
    }
}

fn is_null_schema(schema: &Value) -> bool {
    match schema.get("type") {
        Some(Value::String(kind)) => kind == "null",
        Some(Value::Array(kinds)) => !kinds.is_empty() && kinds.iter().all(|k| k == "null"),
        _ => schema.get("const") == Some(&Value::Null),
    }
}

fn infer_type(object: &Map<String, Value>) -> Option<&'static str> {
    let has = |key: &str| object.contains_key(key);
    if has("properties")
        || has("additionalProperties")
        || has("required")
        || has("patternProperties")
    {
        Some("object")
    } else if has("items") || has("prefixItems") || has("minItems") || has("maxItems") {
        Some("array")
    } else if has("minLength") || has("maxLength") || has("pattern") {
        Some("string")
    } else if has("minimum")
        || has("maximum")
        || has("exclusiveMinimum")
        || has("exclusiveMaximum")
        || has("multipleOf")
    {
        Some("number")
    } else {
        let values: Vec<&Value> = match (object.get("enum"), object.get("const")) {
            (_, Some(constant)) => vec![constant],
            (Some(Value::Array(values)), None) => values.iter().collect(),
            _ => return None,
        };
        let non_null: Vec<&&Value> = values.iter().filter(|v| !v.is_null()).collect();
        if non_null.is_empty() {
            None
        } else if non_null.iter().all(|v| v.is_string()) {
            Some("string")
        } else if non_null.iter().all(|v| v.is_i64() || v.is_u64()) {
            Some("integer")
        } else if non_null.iter().all(|v| v.is_number()) {
            Some("number")
        } else if non_null.iter().all(|v| v.is_boolean()) {
            Some("boolean")
        } else {
            None
        }
    }
}

/// The place one step further into the arguments (a property name, or `*` for every item).
fn deeper(args: &Option<Vec<String>>, step: &str) -> Option<Vec<String>> {
    args.as_ref().map(|args| {
        let mut args = args.clone();
        args.push(step.to_owned());
        args
    })
}

/// A converted node with the original node's description, title, default and nullability.
fn with_own_words(
    mut converted: Map<String, Value>,
    object: &Map<String, Value>,
    description: Option<String>,
    nullable: bool,
) -> Value {
    if let Some(description) = description {
        converted.insert("description".into(), Value::String(description));
    }
    copy_plain(object, &mut converted, &["title", "default"]);
    if nullable {
        converted.insert("nullable".into(), Value::Bool(true));
    }
    Value::Object(converted)
}

fn copy_plain(from: &Map<String, Value>, to: &mut Map<String, Value>, keys: &[&str]) {
    for key in keys {
        if let Some(value) = from.get(*key) {
            if *key != "title" || value.is_string() {
                to.insert((*key).to_owned(), value.clone());
            }
        }
    }
}

fn append_sentence(description: Option<String>, sentence: &str) -> String {
    match description {
        Some(d) if !d.trim().is_empty() => format!("{} {sentence}", d.trim_end()),
        _ => sentence.to_owned(),
    }
}

/// A property name as a JSON pointer segment.
fn escape_pointer(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
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
