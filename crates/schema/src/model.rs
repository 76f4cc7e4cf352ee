//! JSON Schema -> a tree of form nodes: what input each part of the value gets.
//!
//! Building is total and bounded: any JSON gives a tree, `$ref` cycles and very deep or very
//! wide schemas become [`Kind::Lazy`] nodes (built when a person opens them), and whatever
//! a form cannot show becomes [`Kind::Json`] for that sub-tree only, with the reason.

mod build;
mod keywords;
mod labels;
mod node;

pub use labels::option_label;
pub use node::{
    ArrayNode, Choice, Kind, Lazy, Node, NumberRules, ObjectNode, Property, StringRules, Variant,
};
