//! Operations on a draft that change its shape, for the form's buttons.

use super::build::{draft_for, initial};
use super::to_value::value_of;
use super::tree::{new_id, Draft, Entry, Item, Mode};
use crate::model::{Kind, Node};
use crate::value::fits;
use serde_json::{Map, Value};

/// Adds an item to the array at `path` (creating the array if it was empty). The item
/// starts ready to fill: a lazy (recursive) item is built one level, so its fields show.
pub fn add_item(draft: &mut Draft, node: &Node) -> Option<u64> {
    let Kind::Array(array) = &node.expanded().kind else {
        return None;
    };
    if matches!(draft, Draft::Empty) {
        *draft = Draft::Array(Vec::new());
    }
    let Draft::Array(items) = draft else {
        return None;
    };
    let item_node = array.prefix.get(items.len()).or(array.items.as_deref())?;
    let start = match &item_node.kind {
        Kind::Lazy(_) if item_node.default.is_none() => item_node.expanded(),
        _ => item_node,
    };
    let id = new_id();
    items.push(Item {
        id,
        value: initial(start, true),
    });
    Some(id)
}

pub fn remove_item(draft: &mut Draft, id: u64) {
    if let Draft::Array(items) = draft {
        items.retain(|i| i.id != id);
    }
}

/// Moves an item one place up (`-1`) or down (`1`).
pub fn move_item(draft: &mut Draft, id: u64, by: isize) {
    if let Draft::Array(items) = draft {
        if let Some(from) = items.iter().position(|i| i.id == id) {
            let to = from as isize + by;
            if to >= 0 && (to as usize) < items.len() {
                items.swap(from, to as usize);
            }
        }
    }
}

pub fn add_entry(draft: &mut Draft, node: &Node) -> Option<u64> {
    let Kind::Object(object) = &node.expanded().kind else {
        return None;
    };
    if matches!(draft, Draft::Empty) {
        *draft = initial(node.expanded(), true);
    }
    let Draft::Object { extra, present, .. } = draft else {
        return None;
    };
    let id = new_id();
    let value = object
        .extra
        .as_deref()
        .map_or(Draft::Empty, |n| initial(n, true));
    extra.push(Entry {
        id,
        key: String::new(),
        value,
    });
    *present = true;
    Some(id)
}

pub fn remove_entry(draft: &mut Draft, id: u64) {
    if let Draft::Object { extra, .. } = draft {
        extra.retain(|e| e.id != id);
    }
}

pub fn set_entry_key(draft: &mut Draft, id: u64, key: String) {
    if let Draft::Object { extra, .. } = draft {
        if let Some(entry) = extra.iter_mut().find(|e| e.id == id) {
            entry.key = key;
        }
    }
}

/// Chooses variant `to`. When that variant has nothing entered yet, what was entered in
/// the previous one is carried over where it fits (same-named properties, a compatible
/// scalar); the previous variant's draft stays, so switching back restores it.
pub fn choose_variant(draft: &mut Draft, node: &Node, to: usize) {
    let Kind::Variants(variants) = &node.expanded().kind else {
        return;
    };
    let Draft::Variant { chosen, drafts } = draft else {
        return;
    };
    let (Some(from_variant), Some(to_variant)) = (variants.get(*chosen), variants.get(to)) else {
        return;
    };
    let untouched = drafts.get(to).is_none_or(|d| {
        *d == Draft::Empty
            || *d == initial(&to_variant.node, true)
            || *d == initial(&to_variant.node, false)
    });
    if untouched {
        let mut ignored = Vec::new();
        let previous = drafts.get(*chosen).and_then(|d| {
            value_of(
                &from_variant.node,
                d,
                Mode::Lenient,
                &mut String::new(),
                &mut ignored,
            )
        });
        if let Some(slot) = drafts.get_mut(to) {
            *slot = match previous.and_then(|v| carry(&to_variant.node, v)) {
                Some(carried) => draft_for(&to_variant.node, Some(&carried), true),
                None => initial(&to_variant.node, true),
            };
        }
    }
    *chosen = to;
}

/// The part of `value` that fits `node`: an object keeps only the properties the node
/// declares (a discriminator `const` takes the node's own value); a scalar is kept if it
/// fits.
fn carry(node: &Node, value: Value) -> Option<Value> {
    match (&node.expanded().kind, value) {
        (Kind::Object(object), Value::Object(map)) => {
            let kept: Map<String, Value> = object
                .properties
                .iter()
                .filter_map(|p| match &p.node.kind {
                    Kind::Const(c) => Some((p.name.clone(), c.clone())),
                    _ => map
                        .get(&p.name)
                        .filter(|v| fits(&p.node, v))
                        .map(|v| (p.name.clone(), v.clone())),
                })
                .collect();
            Some(Value::Object(kept))
        }
        (_, value) => fits(node, &value).then_some(value),
    }
}

/// Sets a nullable's null choice.
pub fn set_null(draft: &mut Draft, node: &Node, null: bool) {
    match draft {
        Draft::Nullable { is_null, .. } => *is_null = null,
        _ => {
            if let Kind::Nullable(inner) = &node.expanded().kind {
                *draft = Draft::Nullable {
                    is_null: null,
                    inner: Box::new(initial(inner, true)),
                };
            }
        }
    }
}

/// Toggles one choice of a multi-select, keeping the schema's order.
pub fn toggle_choice(draft: &mut Draft, index: usize, on: bool) {
    let mut chosen = match draft {
        Draft::Multi(chosen) => std::mem::take(chosen),
        _ => Vec::new(),
    };
    chosen.retain(|i| *i != index);
    if on {
        chosen.push(index);
        chosen.sort_unstable();
    }
    *draft = Draft::Multi(chosen);
}
