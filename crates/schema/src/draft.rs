//! What a person has entered in a form, kept apart from the JSON it means.
//!
//! A [`Draft`] mirrors a [`Node`] tree and holds exactly what the inputs show (text as typed,
//! which choice, which items). [`value_of`] turns it into JSON; [`draft_for`] turns JSON back
//! into a draft (raw mode -> form). Text is never rewritten: an unparsable number stays as
//! typed and is reported, and in [`Mode::Lenient`] it travels to raw JSON as a string, so
//! switching modes loses nothing.

mod build;
pub mod edit;
mod to_value;
mod tree;

pub use build::{draft_for, initial};
pub use to_value::{form_value, parse_number, value_of};
pub use tree::{new_id, Draft, Entry, Issue, Item, Mode, Step};
