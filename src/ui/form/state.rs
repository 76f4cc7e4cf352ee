//! What one schema form holds ([`FormState`]): the schema's form tree, the draft a person
//! typed (one signal; each field reads its part through a memo), the raw-JSON text, and the
//! checks; and turning it into arguments. `field.rs` draws the fields, `mod.rs` the form.

use super::patterns::BrowserPatterns;
use crate::schema::{
    self, check_form, draft_for, example::valid_example, form_value, initial, Draft, Issue, Mode,
    Node, Step,
};
use leptos::prelude::*;
use serde_json::{Map, Value};

#[derive(Clone, Copy)]
pub struct FormState {
    /// The schema document (validation follows its `$ref`s).
    pub(super) schema: StoredValue<Value>,
    pub(super) root: StoredValue<Node>,
    pub(super) draft: RwSignal<Draft>,
    pub(super) raw_mode: RwSignal<bool>,
    pub(super) raw_text: RwSignal<String>,
    /// Why the raw text cannot go back to the form (it stays as typed).
    pub(super) raw_error: RwSignal<Option<String>>,
    /// Set by the first submit: from then on, problems show as the person types.
    pub(super) checked: RwSignal<bool>,
    /// What is wrong now, and why the check may be incomplete.
    pub(super) check: Memo<(Vec<Issue>, Option<String>)>,
    pub(super) issues: Memo<Vec<Issue>>,
    /// Checked only while the check is shown: the next submit sends despite the problems.
    pub(super) send_anyway: RwSignal<bool>,
    /// Suggested values per top-level field (argument completion).
    pub(super) suggestions: RwSignal<Vec<(String, Vec<String>)>>,
    /// Makes element ids unique on the page.
    pub(super) form_id: usize,
}

impl FormState {
    /// The id of the input that edits `pointer` (its label's `for`): unique on the page,
    /// with no whitespace (HTML ids may hold anything else).
    pub(super) fn field_id(&self, pointer: &str) -> String {
        let mut id = format!("f{}-", self.form_id);
        for c in pointer.chars() {
            match c {
                '%' => id.push_str("%25"),
                c if c.is_whitespace() => id.push_str(&format!("%{:X}", u32::from(c))),
                c => id.push(c),
            }
        }
        id
    }
}

static NEXT_FORM_ID: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
/// Makes datalist ids unique within a form.
pub(super) static NEXT_LIST: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(0);

impl FormState {
    /// A form for a schema document; the inputs start from the schema's defaults.
    pub fn new(schema: Value) -> Self {
        let root = Node::from_schema(&schema);
        let draft = RwSignal::new(initial(&root, true));
        let schema = StoredValue::new(schema);
        let root = StoredValue::new(root);
        let checked = RwSignal::new(false);
        let raw_mode = RwSignal::new(false);
        let raw_text = RwSignal::new(String::new());
        let check = Memo::new(move |_| {
            if !checked.get() {
                return (Vec::new(), None);
            }
            if raw_mode.get() {
                return raw_text.with(|text| match schema::parse_raw(text, false) {
                    Ok(value) => {
                        let report =
                            schema.with_value(|s| schema::validate(s, &value, &BrowserPatterns));
                        (report.issues, report.incomplete)
                    }
                    Err(_) => (Vec::new(), None),
                });
            }
            draft.with(|draft| {
                let (_, issues, incomplete) = schema.with_value(|s| {
                    root.with_value(|root| check_form(s, root, draft, &BrowserPatterns))
                });
                (issues, incomplete)
            })
        });
        let issues = Memo::new(move |_| check.with(|(issues, _)| issues.clone()));
        Self {
            schema,
            root,
            draft,
            raw_mode,
            raw_text,
            raw_error: RwSignal::new(None),
            checked,
            check,
            issues,
            send_anyway: RwSignal::new(false),
            suggestions: RwSignal::new(Vec::new()),
            form_id: NEXT_FORM_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        }
    }

    /// Subscribes the running effect to every change of what the form holds.
    pub fn track(&self) {
        self.draft.track();
        self.raw_mode.track();
        self.raw_text.track();
    }

    /// Holds what `other` (a form for the same schema) holds, as it was typed.
    pub fn take_from(&self, other: &FormState) {
        if let Some(draft) = other.draft.try_get_untracked() {
            self.draft.set(draft);
        }
        if let (Some(raw), Some(text)) = (
            other.raw_mode.try_get_untracked(),
            other.raw_text.try_get_untracked(),
        ) {
            self.raw_text.set(text);
            self.raw_mode.set(raw);
        }
    }

    /// Checks what the form holds now the way a submit does, and shows nothing: the result
    /// is dropped. Run once, after the panel first paints (`browse::warm_up`), so the first
    /// submit does not wait for the browser to compile this code at its first use.
    /// Nothing happens if the form is gone.
    pub fn check_unseen(&self) {
        let _ = self.draft.try_with_untracked(|draft| {
            self.schema.try_with_value(|s| {
                self.root
                    .try_with_value(|root| check_form(s, root, draft, &BrowserPatterns))
            })
        });
    }

    /// The value to send, or `None` after showing what is wrong. "Send anyway" sends the
    /// value as entered (unparsable numbers as their text) to test the server's own checks.
    pub fn value(&self) -> Option<Value> {
        if !self.checked.get_untracked() {
            self.checked.set(true);
        }
        let anyway = self.send_anyway.get_untracked();
        if self.raw_mode.get_untracked() {
            let parsed = schema::parse_raw(&self.raw_text.get_untracked(), self.object_only());
            return match parsed {
                Err(message) => {
                    self.raw_error.set(Some(message));
                    None
                }
                Ok(value) => {
                    self.raw_error.set(None);
                    (anyway || self.issues.get_untracked().is_empty()).then_some(value)
                }
            };
        }
        if self.issues.get_untracked().is_empty() {
            let (value, _) = self.with_model(|root, draft| form_value(root, draft, Mode::Strict));
            return Some(value);
        }
        anyway.then(|| self.with_model(|root, draft| form_value(root, draft, Mode::Lenient).0))
    }

    /// The value as an arguments object (tools, prompts).
    pub fn arguments(&self) -> Option<Map<String, Value>> {
        match self.value()? {
            Value::Object(map) => Some(map),
            _ => Some(Map::new()),
        }
    }

    /// Fills the form from a value (a link's arguments); what does not fit the schema is
    /// kept as it is, to be seen and corrected (`draft_for`).
    pub fn fill(&self, value: &Value) {
        let draft = self
            .root
            .with_value(|root| draft_for(root, Some(value), true));
        self.draft.set(draft);
    }

    /// What the form holds now as arguments, unchecked (unparsable input as its text), or
    /// `None` when raw JSON is open and does not parse.
    pub fn current_arguments(&self) -> Option<Map<String, Value>> {
        let value = if self.raw_mode.get_untracked() {
            schema::parse_raw(&self.raw_text.get_untracked(), self.object_only()).ok()?
        } else {
            self.with_model(|root, draft| form_value(root, draft, Mode::Lenient).0)
        };
        match value {
            Value::Object(map) => Some(map),
            _ => None,
        }
    }

    pub(super) fn object_only(&self) -> bool {
        self.root
            .with_value(|root| matches!(root.expanded().kind, schema::Kind::Object(_)))
    }

    pub(super) fn with_model<T>(&self, f: impl FnOnce(&Node, &Draft) -> T) -> T {
        self.draft
            .with_untracked(|draft| self.root.with_value(|root| f(root, draft)))
    }

    /// The top-level text fields and their live values (for argument completion).
    pub fn text_fields(&self) -> Vec<(String, Signal<String>)> {
        let names: Vec<(usize, String)> = self.root.with_value(|root| match &root.kind {
            schema::Kind::Object(object) => object
                .properties
                .iter()
                .enumerate()
                .filter(|(_, p)| matches!(p.node.kind, schema::Kind::String(_)))
                .map(|(i, p)| (i, p.name.clone()))
                .collect(),
            _ => Vec::new(),
        });
        let draft = self.draft;
        names
            .into_iter()
            .map(|(i, name)| {
                let text = Memo::new(move |_| {
                    draft.with(|d| d.at(&[Step::Prop(i)]).map(Draft::text).unwrap_or_default())
                });
                (name, text.into())
            })
            .collect()
    }

    /// Offers `values` as suggestions for the top-level field `name`.
    pub fn suggest(&self, name: &str, values: Vec<String>) {
        self.suggestions.update(|all| {
            all.retain(|(field, _)| field != name);
            all.push((name.to_owned(), values));
        });
    }

    /// Switching to raw starts from what the form holds (unparsable input as text);
    /// switching back refuses JSON that does not parse, keeping it as typed.
    pub(super) fn toggle_raw(&self) {
        if self.raw_mode.get_untracked() {
            let parsed = schema::parse_raw(&self.raw_text.get_untracked(), self.object_only());
            match parsed {
                Ok(value) => {
                    let draft = self
                        .root
                        .with_value(|root| draft_for(root, Some(&value), true));
                    self.draft.set(draft);
                    self.raw_error.set(None);
                    self.raw_mode.set(false);
                }
                Err(message) => self.raw_error.set(Some(message)),
            }
        } else {
            let (value, _) = self.with_model(|root, draft| form_value(root, draft, Mode::Lenient));
            self.raw_text
                .set(serde_json::to_string_pretty(&value).unwrap_or_default());
            self.raw_mode.set(true);
        }
    }

    pub(super) fn fill_example(&self) {
        let filled = self.schema.with_value(|schema| {
            self.root.with_value(|root| {
                valid_example(schema, root).map(|value| draft_for(root, Some(&value), true))
            })
        });
        match filled {
            Some(draft) => {
                self.draft.set(draft);
                self.raw_error.set(None);
            }
            None => self.raw_error.set(Some(
                "No example could be made for this schema (a pattern or a rule the form cannot satisfy by itself).".into(),
            )),
        }
    }

    pub(super) fn reset(&self) {
        let fresh = self.root.with_value(|root| initial(root, true));
        self.draft.set(fresh);
        self.checked.set(false);
        self.send_anyway.set(false);
    }
}
