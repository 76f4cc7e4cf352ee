//! The draft's tree: what each input holds, the steps to a part of it, and the issues and
//! modes of reading it.

use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Debug, Clone, PartialEq)]
pub enum Draft {
    /// Nothing entered: an optional field is omitted.
    Empty,
    /// A string, a number as typed, or JSON text.
    Text(String),
    /// A boolean, or whether a `const` is sent.
    Bool(bool),
    /// The index of the chosen enum value.
    Choice(usize),
    /// The chosen values of a multi-select, as indices.
    Multi(Vec<usize>),
    /// `props` is parallel to the node's properties; `present` sends an empty object.
    Object {
        props: Vec<Draft>,
        extra: Vec<Entry>,
        present: bool,
    },
    Array(Vec<Item>),
    /// Null chosen (for a `null` type).
    Null,
    /// A nullable value: `is_null`, or the inner draft (kept while null is chosen).
    Nullable {
        is_null: bool,
        inner: Box<Draft>,
    },
    /// The chosen variant and one draft per variant (switching back restores it).
    Variant {
        chosen: usize,
        drafts: Vec<Draft>,
    },
    /// A value that does not fit the form here, edited as JSON text.
    Raw(String),
}

/// One key of an object beyond its declared properties.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub id: u64,
    pub key: String,
    pub value: Draft,
}

/// One array item; the id keeps its inputs attached to it when items move.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub id: u64,
    pub value: Draft,
}

/// A step from a draft to one of its parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Step {
    Prop(usize),
    Entry(u64),
    Item(u64),
    Variant(usize),
    /// The value inside a nullable.
    Inner,
}

/// Something wrong with a value, at a JSON pointer into it (`""` is the whole value).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    pub path: String,
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Unparsable input is an issue and gives no value.
    Strict,
    /// Unparsable input is kept as a JSON string (for raw mode; nothing is lost).
    Lenient,
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// A fresh id for an item or entry.
pub fn new_id() -> u64 {
    NEXT_ID.fetch_add(1, Ordering::Relaxed)
}

impl Draft {
    pub fn at(&self, path: &[Step]) -> Option<&Draft> {
        let Some((step, rest)) = path.split_first() else {
            return Some(self);
        };
        let next = match (self, step) {
            (Draft::Object { props, .. }, Step::Prop(i)) => props.get(*i),
            (Draft::Object { extra, .. }, Step::Entry(id)) => {
                extra.iter().find(|e| e.id == *id).map(|e| &e.value)
            }
            (Draft::Array(items), Step::Item(id)) => {
                items.iter().find(|i| i.id == *id).map(|i| &i.value)
            }
            (Draft::Variant { drafts, .. }, Step::Variant(i)) => drafts.get(*i),
            (Draft::Nullable { inner, .. }, Step::Inner) => Some(inner.as_ref()),
            _ => None,
        };
        next?.at(rest)
    }

    pub fn at_mut(&mut self, path: &[Step]) -> Option<&mut Draft> {
        let Some((step, rest)) = path.split_first() else {
            return Some(self);
        };
        let next = match (self, step) {
            (Draft::Object { props, present, .. }, Step::Prop(i)) => {
                *present = true;
                props.get_mut(*i)
            }
            (Draft::Object { extra, present, .. }, Step::Entry(id)) => {
                *present = true;
                extra.iter_mut().find(|e| e.id == *id).map(|e| &mut e.value)
            }
            (Draft::Array(items), Step::Item(id)) => {
                items.iter_mut().find(|i| i.id == *id).map(|i| &mut i.value)
            }
            (Draft::Variant { drafts, .. }, Step::Variant(i)) => drafts.get_mut(*i),
            (Draft::Nullable { inner, .. }, Step::Inner) => Some(inner.as_mut()),
            _ => None,
        };
        next?.at_mut(rest)
    }

    /// The text an input shows.
    pub fn text(&self) -> String {
        match self {
            Draft::Text(text) | Draft::Raw(text) => text.clone(),
            _ => String::new(),
        }
    }

    /// The ids of an array's items, in order.
    pub fn item_ids(&self) -> Vec<u64> {
        match self {
            Draft::Array(items) => items.iter().map(|i| i.id).collect(),
            _ => Vec::new(),
        }
    }

    /// The ids of an object's extra entries, in order.
    pub fn entry_ids(&self) -> Vec<u64> {
        match self {
            Draft::Object { extra, .. } => extra.iter().map(|e| e.id).collect(),
            _ => Vec::new(),
        }
    }
}
