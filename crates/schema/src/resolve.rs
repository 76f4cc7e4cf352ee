//! Local `$ref` resolution and `allOf` merging: the two ways a schema points at or combines
//! other schemas. Only references inside the same document are followed; a form inspector
//! never fetches a schema from the network on a server's say-so.

use serde_json::{Map, Value};

/// Where a `$ref` leads.
#[derive(Debug, Clone, PartialEq)]
pub enum Target<'a> {
    Found(&'a Value),
    /// `https://...`, `other.json#...`: another document, which we never fetch.
    Remote,
    /// A local reference that names nothing in the document.
    Missing,
}

/// Resolves `reference` (`#`, `#/$defs/Name`, `#/definitions/Name`, any JSON pointer, or a
/// plain-name `#anchor`) against the document `root`.
pub fn resolve<'a>(root: &'a Value, reference: &str) -> Target<'a> {
    let Some(fragment) = reference.strip_prefix('#') else {
        return Target::Remote;
    };
    let fragment = percent_decode(fragment);
    if fragment.is_empty() {
        return Target::Found(root);
    }
    if !fragment.starts_with('/') {
        return find_anchor(root, &fragment, 0).map_or(Target::Missing, Target::Found);
    }
    let mut current = root;
    for token in fragment[1..].split('/') {
        let token = token.replace("~1", "/").replace("~0", "~");
        let next = match current {
            Value::Object(map) => map.get(&token),
            Value::Array(items) => token.parse::<usize>().ok().and_then(|i| items.get(i)),
            _ => None,
        };
        match next {
            Some(value) => current = value,
            None => return Target::Missing,
        }
    }
    Target::Found(current)
}

/// A `$anchor` (2020-12) or `$id: "#name"` (draft-07) anywhere in the document.
fn find_anchor<'a>(value: &'a Value, name: &str, depth: usize) -> Option<&'a Value> {
    if depth > 64 {
        return None;
    }
    match value {
        Value::Object(map) => {
            let anchored = map.get("$anchor").and_then(Value::as_str) == Some(name)
                || map
                    .get("$id")
                    .and_then(Value::as_str)
                    .and_then(|id| id.strip_prefix('#'))
                    == Some(name);
            if anchored {
                return Some(value);
            }
            map.values()
                .find_map(|child| find_anchor(child, name, depth + 1))
        }
        Value::Array(items) => items
            .iter()
            .find_map(|child| find_anchor(child, name, depth + 1)),
        _ => None,
    }
}

/// `%25` -> `%`, leaving anything that is not a valid escape as it is.
fn percent_decode(text: &str) -> String {
    if !text.contains('%') {
        return text.to_owned();
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(high), Some(low)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((high * 16 + low) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Merges `allOf` parts into one schema: properties are united (a property named in several
/// parts gets an `allOf` of its schemas), `required` lists joined, `type` lists intersected,
/// bounds take the stricter value; any other keyword keeps its first appearance. The result is
/// what a form can show; validation still checks every part separately.
pub fn merge_all_of(
    base: &Map<String, Value>,
    parts: &[&Map<String, Value>],
) -> Map<String, Value> {
    let mut merged = base.clone();
    merged.remove("allOf");
    for part in parts {
        for (key, value) in part.iter() {
            merge_keyword(&mut merged, key, value);
        }
    }
    merged
}

fn merge_keyword(merged: &mut Map<String, Value>, key: &str, value: &Value) {
    let Some(existing) = merged.get_mut(key) else {
        merged.insert(key.to_owned(), value.clone());
        return;
    };
    match key {
        "properties" => {
            if let (Value::Object(mine), Value::Object(theirs)) = (existing, value) {
                for (name, schema) in theirs {
                    match mine.get_mut(name) {
                        Some(current) if current != schema => {
                            let both = Value::Array(vec![current.take(), schema.clone()]);
                            *current = Value::Object(Map::from_iter([("allOf".to_owned(), both)]));
                        }
                        Some(_) => {}
                        None => {
                            mine.insert(name.clone(), schema.clone());
                        }
                    }
                }
            }
        }
        "required" => {
            if let (Value::Array(mine), Value::Array(theirs)) = (existing, value) {
                for name in theirs {
                    if !mine.contains(name) {
                        mine.push(name.clone());
                    }
                }
            }
        }
        "type" => {
            let names = |v: &Value| -> Vec<Value> {
                match v {
                    Value::Array(items) => items.clone(),
                    other => vec![other.clone()],
                }
            };
            let theirs = names(value);
            let common: Vec<Value> = names(existing)
                .into_iter()
                .filter(|t| {
                    theirs.contains(t)
                        || (t == "integer" && theirs.contains(&Value::from("number")))
                })
                .collect();
            *existing = match common.len() {
                1 => common.into_iter().next().unwrap_or(Value::Null),
                _ => Value::Array(common),
            };
        }
        "minimum" | "exclusiveMinimum" | "minLength" | "minItems" | "minProperties" => {
            if let (Some(a), Some(b)) = (existing.as_f64(), value.as_f64()) {
                if b > a {
                    *existing = value.clone();
                }
            }
        }
        "maximum" | "exclusiveMaximum" | "maxLength" | "maxItems" | "maxProperties" => {
            if let (Some(a), Some(b)) = (existing.as_f64(), value.as_f64()) {
                if b < a {
                    *existing = value.clone();
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pointers_anchors_and_escapes_resolve_inside_the_document() {
        let doc = json!({
            "$defs": {"A": {"type": "string"}, "a/b": {"type": "integer"}, "c%d": {"const": 1}},
            "definitions": {"Old": {"$id": "#old", "type": "boolean"}},
            "items": [{"type": "null"}],
            "x": {"$anchor": "here", "type": "number"}
        });
        assert_eq!(resolve(&doc, "#"), Target::Found(&doc));
        assert_eq!(
            resolve(&doc, "#/$defs/A"),
            Target::Found(&doc["$defs"]["A"])
        );
        assert_eq!(
            resolve(&doc, "#/$defs/a~1b"),
            Target::Found(&doc["$defs"]["a/b"])
        );
        assert_eq!(
            resolve(&doc, "#/$defs/c%25d"),
            Target::Found(&doc["$defs"]["c%d"])
        );
        assert_eq!(resolve(&doc, "#/items/0"), Target::Found(&doc["items"][0]));
        assert_eq!(resolve(&doc, "#here"), Target::Found(&doc["x"]));
        assert_eq!(
            resolve(&doc, "#old"),
            Target::Found(&doc["definitions"]["Old"])
        );
        assert_eq!(resolve(&doc, "#/$defs/Nope"), Target::Missing);
        assert_eq!(resolve(&doc, "#/items/9"), Target::Missing);
        assert_eq!(resolve(&doc, "https://example.com/s.json"), Target::Remote);
        assert_eq!(resolve(&doc, "other.json#/a"), Target::Remote);
        assert_eq!(percent_decode("%"), "%");
        assert_eq!(percent_decode("%4"), "%4");
        assert_eq!(percent_decode("a%zz"), "a%zz");
    }

    #[test]
    fn all_of_unites_properties_and_required_and_takes_stricter_bounds() {
        let base = json!({"allOf": [], "description": "d"});
        let a = json!({"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"], "minProperties": 1});
        let b = json!({"type": ["object", "null"], "properties": {"x": {"maxLength": 3}, "y": {"type": "integer"}}, "required": ["y", "x"], "minProperties": 2});
        let merged = merge_all_of(
            base.as_object().unwrap(),
            &[a.as_object().unwrap(), b.as_object().unwrap()],
        );
        assert_eq!(
            Value::Object(merged),
            json!({
                "description": "d",
                "type": "object",
                "properties": {"x": {"allOf": [{"type": "string"}, {"maxLength": 3}]}, "y": {"type": "integer"}},
                "required": ["x", "y"],
                "minProperties": 2
            })
        );
    }
}
