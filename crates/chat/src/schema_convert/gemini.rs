//! Gemini's schema subset (its OpenAPI 3.0 `Schema` message): the converter the module's
//! description in `schema_convert.rs` lays out, node by node within the node and depth limits.

use super::converted::{ConvertedSchema, Dropped, MAX_DEPTH, MAX_NODES};
use super::lookup::{dedup, kind_of, resolve_local_ref};
use serde_json::{json, Map, Value};

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

/// `schema` (its top level already made one object, `top`) converted, with the notes of what
/// the top level's conversion `dropped` already.
pub(super) fn convert(
    schema: &Value,
    top: &Map<String, Value>,
    dropped: Vec<Dropped>,
) -> ConvertedSchema {
    let mut converter = GeminiConverter {
        root: schema,
        dropped,
        json_text_paths: Vec::new(),
        nodes: 0,
        refs: Vec::new(),
    };
    let parameters = converter.object_top(top);
    ConvertedSchema {
        parameters,
        dropped: converter.dropped,
        json_text_paths: converter.json_text_paths,
    }
}

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
