//! How a choice or a variant is named for a person.

use super::node::{Kind, Node};
use serde_json::Value;

/// A variant's name: its title, the value of a `const` property (a discriminator, like
/// `kind: "circle"`), or its type.
pub(super) fn variant_label(node: &Node, schema: &Value, index: usize) -> String {
    if let Some(title) = &node.title {
        return title.clone();
    }
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        let discriminator = properties.iter().find_map(|(name, property)| {
            property
                .get("const")
                .or_else(|| {
                    property
                        .get("enum")
                        .and_then(Value::as_array)
                        .filter(|v| v.len() == 1)
                        .and_then(|v| v.first())
                })
                .map(|value| format!("{name}: {}", option_label(value)))
        });
        if let Some(label) = discriminator {
            return label;
        }
    }
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        return reference.rsplit('/').next().unwrap_or(reference).to_owned();
    }
    match &node.kind {
        Kind::Json { .. } => format!("option {}", index + 1),
        Kind::Object(object) if !object.properties.is_empty() => {
            let names: Vec<&str> = object
                .properties
                .iter()
                .take(4)
                .map(|p| p.name.as_str())
                .collect();
            let more = if object.properties.len() > 4 {
                ", …"
            } else {
                ""
            };
            format!("object: {}{more}", names.join(", "))
        }
        Kind::Const(value) => option_label(value),
        _ => node.type_hint(),
    }
}

/// How a JSON value is shown as a choice.
pub fn option_label(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}
