//! Building a draft: from the schema's defaults (a new form), or from a value (raw mode ->
//! form), bounded so that a recursive default cannot unfold without end.

use super::tree::{new_id, Draft, Entry, Item};
use crate::model::{Kind, Node};
use crate::value::{fits, json_equal};
use serde_json::Value;

/// Drafts nest no deeper than this, and building one takes at most [`DRAFT_BUDGET`] steps (a
/// lazy part built on the way costs [`EXPANSION_COST`]): a default that contains a recursive
/// part would otherwise unfold without end, each level's default filling the next. Past the
/// budget, what is left is kept as JSON text (from a value) or left empty (from defaults).
const MAX_DRAFT_DEPTH: usize = 64;
const DRAFT_BUDGET: usize = 100_000;
const EXPANSION_COST: usize = 1_000;

/// The draft a field starts with: see [`initial_at`].
pub fn initial(node: &Node, required: bool) -> Draft {
    initial_at(node, required, 0, &mut DRAFT_BUDGET.clone())
}

/// The draft that shows `value`: see [`draft_at`].
pub fn draft_for(node: &Node, value: Option<&Value>, required: bool) -> Draft {
    draft_at(node, value, required, 0, &mut DRAFT_BUDGET.clone())
}

/// The draft a field starts with: the schema's default (unless null), else empty (a required boolean
/// starts false, a required `const` is sent, objects start with their fields' defaults, a
/// required tuple with its slots).
fn initial_at(node: &Node, required: bool, depth: usize, budget: &mut usize) -> Draft {
    if depth > MAX_DRAFT_DEPTH || *budget == 0 {
        return Draft::Empty;
    }
    *budget -= 1;
    // A `null` default (pydantic's `Optional[X] = None`) is what omitting means: the form
    // starts empty rather than sending null nobody chose.
    if let Some(default) = node.default.as_ref().filter(|d| !d.is_null()) {
        return draft_at(node, Some(default), required, depth + 1, budget);
    }
    match &node.kind {
        Kind::Boolean if required => Draft::Bool(false),
        Kind::Const(_) => Draft::Bool(required),
        Kind::Object(object) => Draft::Object {
            props: object
                .properties
                .iter()
                .map(|p| initial_at(&p.node, p.required, depth + 1, budget))
                .collect(),
            extra: Vec::new(),
            present: required,
        },
        // A required tuple starts with one item per slot (`prefixItems`): its inputs show at
        // once; other arrays start with no items.
        Kind::Array(array) if required => Draft::Array(
            array
                .prefix
                .iter()
                .map(|slot| Item {
                    id: new_id(),
                    value: initial_at(slot, true, depth + 1, budget),
                })
                .collect(),
        ),
        Kind::Nullable(inner) => Draft::Nullable {
            is_null: false,
            inner: Box::new(initial_at(inner, required, depth + 1, budget)),
        },
        // Only the chosen variant's draft is built; the others when they are chosen
        // (variants within variants would otherwise multiply).
        Kind::Variants(variants) => Draft::Variant {
            chosen: 0,
            drafts: variants
                .iter()
                .enumerate()
                .map(|(i, v)| match i {
                    0 => initial_at(&v.node, required, depth + 1, budget),
                    _ => Draft::Empty,
                })
                .collect(),
        },
        _ => Draft::Empty,
    }
}

/// The draft that shows `value` (or the initial draft when there is none). A value that does
/// not fit the node becomes [`Draft::Raw`], so it survives.
fn draft_at(
    node: &Node,
    value: Option<&Value>,
    required: bool,
    depth: usize,
    budget: &mut usize,
) -> Draft {
    let Some(value) = value else {
        return initial_at(
            &Node {
                default: None,
                ..node.clone()
            },
            required,
            depth + 1,
            budget,
        );
    };
    let raw = || Draft::Raw(serde_json::to_string_pretty(value).unwrap_or_default());
    if depth > MAX_DRAFT_DEPTH || *budget == 0 {
        return raw();
    }
    *budget -= 1;
    match (&node.kind, value) {
        (Kind::Lazy(_), _) if node.is_bottomless() => raw(),
        (Kind::Lazy(_), _) if *budget < EXPANSION_COST => raw(),
        (Kind::Lazy(_), _) => {
            *budget -= EXPANSION_COST;
            draft_at(node.expanded(), Some(value), required, depth + 1, budget)
        }
        // An empty string would read as "not entered": keep it visible as JSON.
        (Kind::String(_), Value::String(text)) if text.is_empty() => raw(),
        (Kind::String(_), Value::String(text)) => Draft::Text(text.clone()),
        (Kind::Number(_), Value::Number(number)) => Draft::Text(number.to_string()),
        // A number typed wrongly comes back from raw mode as a string: show it as typed.
        (Kind::Number(_), Value::String(text)) if !text.trim().is_empty() => {
            Draft::Text(text.clone())
        }
        (Kind::Boolean, Value::Bool(b)) => Draft::Bool(*b),
        (Kind::Null, Value::Null) => Draft::Null,
        (Kind::Const(expected), _) if json_equal(expected, value) => Draft::Bool(true),
        (Kind::Enum(choices), _) => choices
            .iter()
            .position(|c| json_equal(&c.value, value))
            .map_or_else(raw, Draft::Choice),
        (Kind::MultiEnum { choices, .. }, Value::Array(values)) => {
            let indices: Option<Vec<usize>> = values
                .iter()
                .map(|v| choices.iter().position(|c| json_equal(&c.value, v)))
                .collect();
            indices.map_or_else(raw, Draft::Multi)
        }
        (Kind::Object(object), Value::Object(map)) => Draft::Object {
            props: object
                .properties
                .iter()
                .map(|p| match map.get(&p.name) {
                    Some(v) => draft_at(&p.node, Some(v), p.required, depth + 1, budget),
                    None => initial_at(
                        &Node {
                            default: None,
                            ..p.node.clone()
                        },
                        p.required,
                        depth + 1,
                        budget,
                    ),
                })
                .collect(),
            extra: map
                .iter()
                .filter(|(key, _)| !object.properties.iter().any(|p| &p.name == *key))
                .map(|(key, v)| Entry {
                    id: new_id(),
                    key: key.clone(),
                    value: match &object.extra {
                        Some(extra) => draft_at(extra, Some(v), true, depth + 1, budget),
                        None => Draft::Raw(serde_json::to_string_pretty(v).unwrap_or_default()),
                    },
                })
                .collect(),
            present: true,
        },
        (Kind::Array(array), Value::Array(values)) => {
            let fits_length = array.items.is_some() || values.len() <= array.prefix.len();
            if !fits_length {
                return raw();
            }
            Draft::Array(
                values
                    .iter()
                    .enumerate()
                    .map(|(i, v)| Item {
                        id: new_id(),
                        value: match array.prefix.get(i).or(array.items.as_deref()) {
                            Some(item) => draft_at(item, Some(v), true, depth + 1, budget),
                            None => Draft::Raw(v.to_string()),
                        },
                    })
                    .collect(),
            )
        }
        (Kind::Nullable(inner), Value::Null) => Draft::Nullable {
            is_null: true,
            inner: Box::new(initial_at(inner, required, depth + 1, budget)),
        },
        (Kind::Nullable(inner), _) => Draft::Nullable {
            is_null: false,
            inner: Box::new(draft_at(inner, Some(value), required, depth + 1, budget)),
        },
        (Kind::Variants(variants), _) => {
            let chosen = variants
                .iter()
                .position(|v| fits(&v.node, value))
                .unwrap_or(0);
            Draft::Variant {
                chosen,
                drafts: variants
                    .iter()
                    .enumerate()
                    .map(|(i, v)| {
                        if i == chosen {
                            draft_at(&v.node, Some(value), required, depth + 1, budget)
                        } else {
                            Draft::Empty
                        }
                    })
                    .collect(),
            }
        }
        (Kind::Json { .. }, _) => {
            Draft::Text(serde_json::to_string_pretty(value).unwrap_or_default())
        }
        _ => raw(),
    }
}
