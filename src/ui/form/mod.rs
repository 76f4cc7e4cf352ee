//! A form generated from a JSON Schema, with a raw-JSON mode synced both ways.
//!
//! All the form's input lives in one `Draft` signal (see `schema::draft`); each input reads
//! its own part through a memo, so typing in one field re-renders only that field. Checking
//! happens on submit and, after the first submit, live as the person types.

mod field;
mod patterns;

use crate::schema::{
    self, check_form, draft_for, example::valid_example, form_value, initial, Draft, Issue, Mode,
    Node, Step,
};
use field::FieldView;
use leptos::prelude::*;
pub use patterns::BrowserPatterns;
use serde_json::{Map, Value};

#[derive(Clone, Copy)]
pub struct FormState {
    /// The schema document (validation follows its `$ref`s).
    schema: StoredValue<Value>,
    root: StoredValue<Node>,
    draft: RwSignal<Draft>,
    raw_mode: RwSignal<bool>,
    raw_text: RwSignal<String>,
    /// Why the raw text cannot go back to the form (it stays as typed).
    raw_error: RwSignal<Option<String>>,
    /// Set by the first submit: from then on, problems show as the person types.
    checked: RwSignal<bool>,
    /// What is wrong now, and why the check may be incomplete.
    check: Memo<(Vec<Issue>, Option<String>)>,
    issues: Memo<Vec<Issue>>,
    /// Checked only while the check is shown: the next submit sends despite the problems.
    send_anyway: RwSignal<bool>,
    /// Suggested values per top-level field (argument completion).
    suggestions: RwSignal<Vec<(String, Vec<String>)>>,
    /// Makes element ids unique on the page.
    form_id: usize,
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
static NEXT_LIST: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

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

    fn object_only(&self) -> bool {
        self.root
            .with_value(|root| matches!(root.expanded().kind, schema::Kind::Object(_)))
    }

    fn with_model<T>(&self, f: impl FnOnce(&Node, &Draft) -> T) -> T {
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
    fn toggle_raw(&self) {
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

    fn fill_example(&self) {
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

    fn reset(&self) {
        let fresh = self.root.with_value(|root| initial(root, true));
        self.draft.set(fresh);
        self.checked.set(false);
        self.send_anyway.set(false);
    }
}

#[component]
pub fn SchemaForm(state: FormState) -> impl IntoView {
    let root = state.root.get_value();
    let body = move || {
        if state.raw_mode.get() {
            view! {
                <textarea class="raw-json" rows="10" spellcheck="false" aria-label="Value as JSON"
                    prop:value=move || state.raw_text.get()
                    on:input=move |ev| state.raw_text.set(event_target_value(&ev))></textarea>
                {move || state.raw_error.get().map(|e| view! { <p class="error raw-error">{e}</p> })}
            }
            .into_any()
        } else {
            // A tool without parameters (`{"type": "object"}`, `properties: {}`) has no form;
            // a key-value editor appears only when the schema asks for extra keys.
            let asks_for_keys = state.schema.with_value(|s| {
                s.get("additionalProperties")
                    .is_some_and(|a| a != &Value::Bool(false))
                    || s.get("patternProperties").is_some()
            });
            let empty = matches!(&root.kind, schema::Kind::Object(o) if o.properties.is_empty() && !asks_for_keys);
            if empty {
                view! { <p class="muted">"No arguments."</p> }.into_any()
            } else {
                view! {
                    <FieldView state node=root.clone() path=Vec::new() name=String::new()
                        required=true depth=0 pointer=Signal::stored(String::new())/>
                }
                .into_any()
            }
        }
    };
    let issues = state.issues;
    view! {
        <div class="form">
            <div class="form-tools">
                <label class="raw-toggle">
                    <input type="checkbox" class="raw-mode" prop:checked=move || state.raw_mode.get()
                        on:change=move |ev| {
                        state.toggle_raw();
                        // Refused (the JSON does not parse): the box stays as the mode is.
                        event_target::<web_sys::HtmlInputElement>(&ev).set_checked(state.raw_mode.get_untracked());
                    }/>
                    " Raw JSON"
                </label>
                <button type="button" class="link fill-example" on:click=move |_| state.fill_example()
                    disabled=move || state.raw_mode.get()>"Fill with example"</button>
                <button type="button" class="link reset-form" on:click=move |_| state.reset()
                    disabled=move || state.raw_mode.get()>"Reset"</button>
            </div>
            {body}
            {move || (!state.raw_mode.get()).then(|| state.raw_error.get().map(|e| view! { <p class="muted form-note">{e}</p> })).flatten()}
            <Show when=move || issues.with(|i| !i.is_empty())>
                <div class="form-issues" role="alert">
                    <ul class="field-errors">
                        {move || issues.get().into_iter().map(|issue| {
                            let at = if issue.path.is_empty() { "(whole value)".to_owned() } else { issue.path.clone() };
                            view! { <li class="error" data-issue-path=issue.path><code>{at}</code>" "{issue.message}</li> }
                        }).collect_view()}
                    </ul>
                    <label class="send-anyway">
                        <input type="checkbox" prop:checked=move || state.send_anyway.get()
                            on:change=move |ev| state.send_anyway.set(event_target_checked(&ev))/>
                        " Send anyway (to test the server's own validation)"
                    </label>
                </div>
            </Show>
            {move || state.check.with(|(_, why)| why.clone()).map(|why| view! { <p class="muted check-incomplete">{why}</p> })}
        </div>
    }
}
