//! A value made up to satisfy a schema: the form's "Fill with example" button, and a
//! property test's oracle (what we generate must validate).
//!
//! Defaults and `examples` are used first, then the smallest value that meets the bounds.
//! Patterns cannot be satisfied in general; a pattern without an example gets none.

use super::model::{Kind, Node, NumberRules, StringRules};
use serde_json::{Map, Number, Value};

/// How many nested levels an example fills in (recursive schemas stop here).
const MAX_DEPTH: usize = 12;
/// Nodes visited and lazy parts built per example: alternatives inside alternatives could
/// otherwise be explored without end.
const MAX_VISITS: usize = 2000;
const MAX_EXPANSIONS: usize = 4;

struct Budget {
    visits: usize,
    expansions: usize,
}

/// An example value for the node, or `None` when it cannot make one (a pattern it cannot
/// satisfy, an empty enum). Not checked: see [`valid_example`].
pub fn example(node: &Node) -> Option<Value> {
    let mut budget = Budget {
        visits: MAX_VISITS,
        expansions: MAX_EXPANSIONS,
    };
    example_at(node, 0, &mut budget)
}

/// An example that the schema accepts, or `None`: made from the form model, then checked
/// against the whole schema (keywords a form does not show, like `if`/`then` or `not`, can
/// rule out what the model suggests).
pub fn valid_example(schema: &Value, node: &Node) -> Option<Value> {
    let value = example(node)?;
    super::validate(schema, &value, &super::NoPatterns)
        .is_valid()
        .then_some(value)
}

fn example_at(node: &Node, depth: usize, budget: &mut Budget) -> Option<Value> {
    if depth > MAX_DEPTH || budget.visits == 0 {
        return None;
    }
    budget.visits -= 1;
    if let Some(default) = &node.default {
        return Some(default.clone());
    }
    if let Some(first) = node.examples.first() {
        return Some(first.clone());
    }
    match &node.kind {
        Kind::String(rules) => string_example(rules).map(Value::String),
        Kind::Number(rules) => number_example(rules),
        Kind::Boolean => Some(Value::Bool(false)),
        Kind::Null => Some(Value::Null),
        Kind::Const(value) => Some(value.clone()),
        Kind::Enum(choices) => choices.first().map(|c| c.value.clone()),
        Kind::MultiEnum {
            choices,
            min_items,
            unique,
            ..
        } => {
            // Without uniqueItems a choice may repeat to reach minItems.
            let wanted = min_items.unwrap_or(0) as usize;
            let enough = wanted <= choices.len() || (!unique && !choices.is_empty());
            enough.then(|| {
                Value::Array(
                    choices
                        .iter()
                        .cycle()
                        .take(wanted.min(4096))
                        .map(|c| c.value.clone())
                        .collect(),
                )
            })
        }
        Kind::Object(object) => {
            let mut map = Map::new();
            for property in object.properties.iter().filter(|p| p.required) {
                map.insert(
                    property.name.clone(),
                    example_at(&property.node, depth + 1, budget)?,
                );
            }
            Some(Value::Object(map))
        }
        Kind::Array(array) => {
            let wanted = array.min_items.unwrap_or(0).max(array.prefix.len() as u64) as usize;
            let mut items = Vec::new();
            for i in 0..wanted.min(64) {
                let node = array.prefix.get(i).or(array.items.as_deref())?;
                let item = example_at(node, depth + 1, budget)?;
                if array.unique && items.contains(&item) {
                    return None;
                }
                items.push(item);
            }
            Some(Value::Array(items))
        }
        Kind::Nullable(_) => Some(Value::Null),
        Kind::Variants(variants) => variants
            .iter()
            .find_map(|v| example_at(&v.node, depth + 1, budget)),
        Kind::Lazy(_) if budget.expansions == 0 => None,
        Kind::Lazy(_) => {
            budget.expansions -= 1;
            example_at(node.expanded(), depth + 1, budget)
        }
        Kind::Json { reason: None } => Some(Value::Null),
        Kind::Json { reason: Some(_) } => None,
    }
}

fn string_example(rules: &StringRules) -> Option<String> {
    if rules.pattern.is_some() {
        return None;
    }
    let min = rules.min_length.unwrap_or(0) as usize;
    let max = rules.max_length.map_or(usize::MAX, |m| m as usize);
    let formatted = match rules.format.as_deref() {
        Some("email") | Some("idn-email") => Some("user@example.com"),
        Some("uri") | Some("iri") | Some("uri-reference") | Some("iri-reference") => {
            Some("https://example.com/")
        }
        Some("date") => Some("2026-01-31"),
        Some("time") => Some("12:30:00Z"),
        Some("date-time") => Some("2026-01-31T12:30:00Z"),
        Some("uuid") => Some("123e4567-e89b-12d3-a456-426614174000"),
        Some("ipv4") => Some("192.0.2.1"),
        Some("ipv6") => Some("2001:db8::1"),
        Some("hostname") | Some("idn-hostname") => Some("example.com"),
        Some("duration") => Some("P1D"),
        Some("json-pointer") => Some("/a"),
        _ => None,
    };
    match formatted {
        Some(text) if (min..=max).contains(&text.len()) => Some(text.to_owned()),
        Some(_) => None,
        None => (min <= max).then(|| "a".repeat(min.min(4096))),
    }
}

fn number_example(rules: &NumberRules) -> Option<Value> {
    let step = rules
        .multiple_of
        .unwrap_or(if rules.integer { 1.0 } else { 0.0 });
    let lower = match (rules.minimum, rules.exclusive_minimum) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    };
    let upper = match (rules.maximum, rules.exclusive_maximum) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    let allowed = |x: f64| {
        rules.minimum.is_none_or(|m| x >= m)
            && rules.maximum.is_none_or(|m| x <= m)
            && rules.exclusive_minimum.is_none_or(|m| x > m)
            && rules.exclusive_maximum.is_none_or(|m| x < m)
    };
    let candidates: Vec<f64> = if step > 0.0 {
        let start = lower.map_or(0.0, |l| (l / step).ceil() * step);
        let mut c = vec![0.0, start, start + step];
        if let Some(u) = upper {
            c.push((u / step).floor() * step);
        }
        c
    } else {
        let mut c = vec![0.0];
        if let Some(l) = lower {
            c.extend([l, l + 1.0, l + 0.5]);
            if let Some(u) = upper {
                c.push((l + u) / 2.0);
            }
        }
        if let Some(u) = upper {
            c.extend([u, u - 1.0]);
        }
        c
    };
    let x = candidates
        .into_iter()
        .find(|x| x.is_finite() && allowed(*x))?;
    if rules.integer || (x.fract() == 0.0 && x.abs() < 9.0e15) {
        if x.fract() != 0.0 || x.abs() >= 9.0e15 {
            return None;
        }
        return Some(Value::from(x as i64));
    }
    Number::from_f64(x).map(Value::Number)
}
