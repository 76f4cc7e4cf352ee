//! A form generated from a JSON Schema (`schema::FormModel`), plus its raw-JSON mode.

use crate::schema::{option_label, raw_arguments, Field, FieldError, FieldKind, FormModel};
use leptos::prelude::*;
use serde_json::{Map, Value};

/// The form's live state: one text value per field, and the raw-JSON alternative.
#[derive(Clone, Copy)]
pub struct FormState {
    model: StoredValue<FormModel>,
    values: StoredValue<Vec<RwSignal<String>>>,
    raw_mode: RwSignal<bool>,
    raw_text: RwSignal<String>,
    errors: RwSignal<Vec<FieldError>>,
    /// Suggested values per field (argument completion), shown as the input's datalist.
    suggestions: RwSignal<Vec<(String, Vec<String>)>>,
    /// Makes datalist ids unique on the page.
    form_id: usize,
}

static NEXT_FORM_ID: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

impl FormState {
    pub fn new(model: FormModel) -> Self {
        let values = model
            .initial_values()
            .into_iter()
            .map(RwSignal::new)
            .collect();
        Self {
            model: StoredValue::new(model),
            values: StoredValue::new(values),
            raw_mode: RwSignal::new(false),
            raw_text: RwSignal::new(String::new()),
            errors: RwSignal::new(Vec::new()),
            suggestions: RwSignal::new(Vec::new()),
            form_id: NEXT_FORM_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        }
    }

    /// The text fields and their live values (for argument completion).
    pub fn text_fields(&self) -> Vec<(String, RwSignal<String>)> {
        let names: Vec<(String, bool)> = self.model.with_value(|model| {
            model
                .fields
                .iter()
                .map(|f| (f.name.clone(), f.kind == FieldKind::Text))
                .collect()
        });
        let values = self.values.get_value();
        names
            .into_iter()
            .zip(values)
            .filter(|((_, text), _)| *text)
            .map(|((name, _), value)| (name, value))
            .collect()
    }

    /// Offers `values` as suggestions for the field `name`.
    pub fn suggest(&self, name: &str, values: Vec<String>) {
        self.suggestions.update(|all| {
            all.retain(|(field, _)| field != name);
            all.push((name.to_owned(), values));
        });
    }

    fn texts(&self) -> Vec<String> {
        self.values
            .with_value(|values| values.iter().map(|v| v.get_untracked()).collect())
    }

    /// The arguments to send, or `None` after showing what is wrong.
    pub fn arguments(&self) -> Option<Map<String, Value>> {
        let outcome = if self.raw_mode.get_untracked() {
            raw_arguments(&self.raw_text.get_untracked()).map_err(|message| {
                vec![FieldError {
                    field: String::new(),
                    message,
                }]
            })
        } else {
            self.model
                .with_value(|model| model.arguments(&self.texts()))
        };
        match outcome {
            Ok(arguments) => {
                self.errors.set(Vec::new());
                Some(arguments)
            }
            Err(errors) => {
                self.errors.set(errors);
                None
            }
        }
    }

    /// Switching to raw mode starts from what the form holds now.
    fn toggle_raw(&self) {
        if !self.raw_mode.get_untracked() {
            let current = self
                .model
                .with_value(|model| model.arguments(&self.texts()))
                .unwrap_or_default();
            let text = serde_json::to_string_pretty(&Value::Object(current)).unwrap_or_default();
            self.raw_text.set(text);
        }
        self.errors.set(Vec::new());
        self.raw_mode.update(|raw| *raw = !*raw);
    }
}

#[component]
pub fn SchemaForm(state: FormState) -> impl IntoView {
    let fields = state.model.with_value(|model| model.fields.clone());
    let values = state.values.get_value();
    let inputs = move || {
        if state.raw_mode.get() {
            return view! {
                <textarea class="raw-json" rows="8" spellcheck="false" aria-label="Arguments as JSON"
                    prop:value=move || state.raw_text.get()
                    on:input=move |ev| state.raw_text.set(event_target_value(&ev))></textarea>
            }
            .into_any();
        }
        if fields.is_empty() {
            return view! { <p class="muted">"No arguments."</p> }.into_any();
        }
        fields
            .iter()
            .cloned()
            .zip(values.iter().copied())
            .map(|(field, value)| {
                let name = field.name.clone();
                let suggestions = state.suggestions;
                let suggested = Signal::derive(move || {
                    suggestions.with(|all| {
                        all.iter()
                            .find(|(field, _)| field == &name)
                            .map(|(_, values)| values.clone())
                            .unwrap_or_default()
                    })
                });
                view! { <FieldInput field value suggested form_id=state.form_id/> }
            })
            .collect_view()
            .into_any()
    };
    view! {
        <div class="form">
            <label class="raw-toggle">
                <input type="checkbox" class="raw-mode" prop:checked=move || state.raw_mode.get()
                    on:change=move |_| state.toggle_raw()/>
                " Raw JSON"
            </label>
            {inputs}
            <ul class="field-errors">
                {move || state.errors.get().into_iter().map(|e| view! { <li class="error">{e.message}</li> }).collect_view()}
            </ul>
        </div>
    }
}

#[component]
fn FieldInput(
    field: Field,
    value: RwSignal<String>,
    suggested: Signal<Vec<String>>,
    form_id: usize,
) -> impl IntoView {
    let name = field.name.clone();
    let input = match &field.kind {
        FieldKind::Boolean if field.required => view! {
            <input type="checkbox" data-field=name prop:checked=move || value.get() == "true"
                on:change=move |ev| value.set(event_target_checked(&ev).to_string())/>
        }
        .into_any(),
        FieldKind::Boolean => view! {
            <select data-field=name prop:value=move || value.get() on:change=move |ev| value.set(event_target_value(&ev))>
                <option value="">"(not set)"</option>
                <option value="true">"true"</option>
                <option value="false">"false"</option>
            </select>
        }
        .into_any(),
        FieldKind::Enum(options) => {
            let options = options
                .iter()
                .enumerate()
                .map(|(index, option)| view! { <option value=index.to_string()>{option_label(option)}</option> })
                .collect_view();
            view! {
                <select data-field=name prop:value=move || value.get() on:change=move |ev| value.set(event_target_value(&ev))>
                    <option value="">"(choose)"</option>
                    {options}
                </select>
            }
            .into_any()
        }
        FieldKind::Json => view! {
            <textarea data-field=name rows="3" spellcheck="false" placeholder="JSON"
                prop:value=move || value.get() on:input=move |ev| value.set(event_target_value(&ev))></textarea>
        }
        .into_any(),
        kind => {
            // Numbers use a text input with a numeric keyboard: `type=number` would hide
            // what was typed when it is not a number, instead of letting us say why.
            let mode = match kind {
                FieldKind::Integer => "numeric",
                FieldKind::Number => "decimal",
                _ => "text",
            };
            let list_id = format!("suggest-{form_id}-{name}");
            view! {
                <input type="text" inputmode=mode data-field=name list=list_id.clone()
                    prop:value=move || value.get() on:input=move |ev| value.set(event_target_value(&ev))/>
                <datalist id=list_id class="suggestions">
                    {move || suggested.get().into_iter().map(|s| view! { <option value=s></option> }).collect_view()}
                </datalist>
            }
            .into_any()
        }
    };
    let type_hint = match &field.kind {
        FieldKind::Text => "string",
        FieldKind::Number => "number",
        FieldKind::Integer => "integer",
        FieldKind::Boolean => "boolean",
        FieldKind::Enum(_) => "enum",
        FieldKind::Json => "JSON",
    };
    view! {
        <label class="field">
            <span class="field-label">
                {field.label.clone()}
                {field.required.then(|| view! { <span class="required" title="required">"*"</span> })}
                <span class="type-hint">{type_hint}</span>
            </span>
            {input}
            {field.description.map(|d| view! { <span class="description">{d}</span> })}
        </label>
    }
}
