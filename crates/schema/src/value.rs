//! Comparing JSON values the way JSON Schema does, and asking whether a value fits a node.

use super::model::{Kind, Node};
use serde_json::Value;

/// Equality as JSON Schema defines it: numbers by value (`1` equals `1.0`), objects by
/// their members regardless of order.
pub fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(i), Some(j)) => i == j,
            _ => match (x.as_u64(), y.as_u64()) {
                (Some(i), Some(j)) => i == j,
                _ => x.as_f64() == y.as_f64(),
            },
        },
        (Value::Array(xs), Value::Array(ys)) => {
            xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| json_equal(x, y))
        }
        (Value::Object(xs), Value::Object(ys)) => {
            xs.len() == ys.len()
                && xs
                    .iter()
                    .all(|(k, x)| ys.get(k).is_some_and(|y| json_equal(x, y)))
        }
        _ => a == b,
    }
}

/// Whether a number has no fractional part (JSON Schema's `integer`, which includes `5.0`).
pub fn is_whole(number: &serde_json::Number) -> bool {
    number.is_i64() || number.is_u64() || number.as_f64().is_some_and(|f| f.fract() == 0.0)
}

/// A quick structural check: could `value` be shown by `node`'s input? Used to pick the
/// variant a value belongs to. Objects must carry their required properties and match any
/// `const` property (a discriminator).
pub fn fits(node: &Node, value: &Value) -> bool {
    match (&node.kind, value) {
        (Kind::Lazy(_), _) => fits_shallow(node.expanded(), value),
        _ => fits_shallow(node, value),
    }
}

fn fits_shallow(node: &Node, value: &Value) -> bool {
    match (&node.kind, value) {
        (Kind::String(_), Value::String(_)) => true,
        (Kind::Number(rules), Value::Number(n)) => !rules.integer || is_whole(n),
        (Kind::Boolean, Value::Bool(_)) => true,
        (Kind::Null, Value::Null) => true,
        (Kind::Const(c), v) => json_equal(c, v),
        (Kind::Enum(choices), v) => choices.iter().any(|c| json_equal(&c.value, v)),
        (Kind::MultiEnum { choices, .. }, Value::Array(values)) => values
            .iter()
            .all(|v| choices.iter().any(|c| json_equal(&c.value, v))),
        (Kind::Object(object), Value::Object(map)) => {
            object
                .properties
                .iter()
                .all(|p| match (map.get(&p.name), &p.node.kind) {
                    (Some(v), Kind::Const(c)) => json_equal(c, v),
                    (Some(_), _) => true,
                    (None, _) => !p.required,
                })
        }
        (Kind::Array(_), Value::Array(_)) => true,
        (Kind::Nullable(_), Value::Null) => true,
        (Kind::Nullable(inner), v) => fits_shallow(inner, v),
        (Kind::Variants(variants), v) => variants
            .iter()
            .any(|variant| fits_shallow(&variant.node, v)),
        (Kind::Lazy(_), _) => true,
        (Kind::Json { .. }, _) => true,
        _ => false,
    }
}
