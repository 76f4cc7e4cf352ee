//! What a schema object's keywords say, read one at a time: annotations, types, number
//! bounds, enums and `const` alternatives, and which keywords lead to further schemas.

use super::labels::option_label;
use super::node::{Choice, Kind, Node, NumberRules};
use serde_json::{Map, Value};

pub(super) fn leads_further(map: &Map<String, Value>) -> bool {
    const KEYWORDS: [&str; 10] = [
        "$ref",
        "allOf",
        "anyOf",
        "oneOf",
        "properties",
        "items",
        "prefixItems",
        "additionalProperties",
        "patternProperties",
        "additionalItems",
    ];
    KEYWORDS.iter().any(|k| map.contains_key(*k))
}

/// Options of a `oneOf`/`anyOf` that sits beside structural keywords (shared `properties`,
/// `required`, `items`: "an object with these fields, and one of these extra rules") each get
/// those keywords merged in, so no variant loses the shared fields.
pub(super) fn with_base(map: &Map<String, Value>, keyword: &str, options: &[Value]) -> Vec<Value> {
    let structural = [
        "properties",
        "required",
        "items",
        "prefixItems",
        "additionalProperties",
    ];
    if !structural.iter().any(|k| map.contains_key(*k)) {
        return options.to_vec();
    }
    let base: Map<String, Value> = map
        .iter()
        .filter(|(k, _)| {
            !matches!(
                k.as_str(),
                "oneOf"
                    | "anyOf"
                    | "title"
                    | "description"
                    | "default"
                    | "examples"
                    | "$defs"
                    | "definitions"
            ) && k.as_str() != keyword
        })
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    options
        .iter()
        .map(|option| {
            Value::Object(Map::from_iter([(
                "allOf".to_owned(),
                Value::Array(vec![Value::Object(base.clone()), option.clone()]),
            )]))
        })
        .collect()
}

pub(super) fn json_node(reason: Option<&str>) -> Node {
    Node {
        kind: Kind::Json {
            reason: reason.map(str::to_owned),
        },
        ..Node::default()
    }
}

pub(super) fn annotations(map: Option<&Map<String, Value>>) -> Node {
    let Some(map) = map else {
        return Node::default();
    };
    let text = |key: &str| map.get(key).and_then(Value::as_str).map(str::to_owned);
    Node {
        title: text("title"),
        description: text("description"),
        default: map.get("default").cloned(),
        examples: match map.get("examples") {
            Some(Value::Array(items)) => items.iter().take(16).cloned().collect(),
            _ => Vec::new(),
        },
        deprecated: map.get("deprecated").and_then(Value::as_bool) == Some(true),
        read_only: map.get("readOnly").and_then(Value::as_bool) == Some(true),
        kind: Kind::default(),
    }
}

/// Annotations written next to a `$ref` win over the target's.
pub(super) fn apply_sibling_annotations(node: &mut Node, siblings: &Map<String, Value>) {
    let own = annotations(Some(siblings));
    if own.title.is_some() {
        node.title = own.title;
    }
    if own.description.is_some() {
        node.description = own.description;
    }
    if own.default.is_some() {
        node.default = own.default;
    }
    if !own.examples.is_empty() {
        node.examples = own.examples;
    }
    node.deprecated |= own.deprecated;
    node.read_only |= own.read_only;
}

pub(super) fn strip_annotations(map: &mut Map<String, Value>) {
    for key in [
        "title",
        "description",
        "default",
        "examples",
        "deprecated",
        "readOnly",
    ] {
        map.remove(key);
    }
}

/// Whether keywords beside a `$ref` constrain the value (rather than only annotate it).
pub(super) fn has_constraints(siblings: &Map<String, Value>) -> bool {
    const ANNOTATIONS: [&str; 9] = [
        "title",
        "description",
        "default",
        "examples",
        "deprecated",
        "readOnly",
        "writeOnly",
        "$comment",
        "$schema",
    ];
    siblings.keys().any(|k| {
        !ANNOTATIONS.contains(&k.as_str()) && k != "$defs" && k != "definitions" && k != "$id"
    })
}

pub(super) fn type_names(map: &Map<String, Value>) -> Vec<&str> {
    match map.get("type") {
        Some(Value::String(name)) => vec![name.as_str()],
        Some(Value::Array(names)) => {
            let mut seen: Vec<&str> = Vec::new();
            for name in names.iter().filter_map(Value::as_str) {
                if !seen.contains(&name) {
                    seen.push(name);
                }
            }
            seen
        }
        _ => Vec::new(),
    }
}

pub(super) fn number_rules(map: &Map<String, Value>, integer: bool) -> NumberRules {
    let number = |key: &str| map.get(key).and_then(Value::as_f64);
    // draft-04 wrote exclusive bounds as booleans beside minimum/maximum.
    let exclusive = |key: &str, bound: &str| match map.get(key) {
        Some(Value::Bool(true)) => number(bound),
        other => other.and_then(Value::as_f64),
    };
    let old_style = |key: &str| map.get(key).and_then(Value::as_bool) == Some(true);
    NumberRules {
        integer,
        minimum: number("minimum").filter(|_| !old_style("exclusiveMinimum")),
        maximum: number("maximum").filter(|_| !old_style("exclusiveMaximum")),
        exclusive_minimum: exclusive("exclusiveMinimum", "minimum"),
        exclusive_maximum: exclusive("exclusiveMaximum", "maximum"),
        multiple_of: number("multipleOf").filter(|m| *m > 0.0),
    }
}

pub(super) fn enum_kind(map: &Map<String, Value>, values: &[Value]) -> Kind {
    let names: Vec<Option<&str>> = match map.get("enumNames").and_then(Value::as_array) {
        Some(names) => names.iter().map(Value::as_str).collect(),
        None => Vec::new(),
    };
    let choices: Vec<Choice> = values
        .iter()
        .enumerate()
        .filter(|(_, v)| !v.is_null())
        .map(|(i, value)| Choice {
            value: value.clone(),
            label: names
                .get(i)
                .copied()
                .flatten()
                .map(str::to_owned)
                .unwrap_or_else(|| option_label(value)),
        })
        .collect();
    let has_null = values.iter().any(Value::is_null);
    match (choices.is_empty(), has_null) {
        (true, true) => Kind::Null,
        (true, false) => Kind::Json {
            reason: Some("The schema's enum lists no values, so nothing is valid.".into()),
        },
        (false, true) => Kind::Nullable(Box::new(Node {
            kind: Kind::Enum(choices),
            ..Node::default()
        })),
        (false, false) => Kind::Enum(choices),
    }
}

/// `oneOf`/`anyOf` whose every option is `{const, title?}`: an enum with labels (SEP-1330).
pub(super) fn titled_consts(options: &[Value]) -> Option<Vec<Choice>> {
    if options.is_empty() {
        return None;
    }
    options
        .iter()
        .map(|option| {
            let option = option.as_object()?;
            let value = option.get("const")?;
            let only_annotations = option.keys().all(|k| {
                matches!(
                    k.as_str(),
                    "const" | "title" | "description" | "type" | "$comment" | "deprecated"
                )
            });
            only_annotations.then(|| Choice {
                value: value.clone(),
                label: option
                    .get("title")
                    .and_then(Value::as_str)
                    .map(str::to_owned)
                    .unwrap_or_else(|| option_label(value)),
            })
        })
        .collect()
}

pub(super) fn is_null_schema(schema: &Value) -> bool {
    let Some(map) = schema.as_object() else {
        return false;
    };
    map.get("type").and_then(Value::as_str) == Some("null")
        || map.get("const").is_some_and(Value::is_null)
        || map
            .get("enum")
            .and_then(Value::as_array)
            .is_some_and(|values| !values.is_empty() && values.iter().all(Value::is_null))
}
