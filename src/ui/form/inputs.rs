//! The leaf controls of a schema form: text inputs and areas, JSON text, enum choices (a
//! select, a search for long lists, checkboxes for several). None of them holds another field.

use super::binding::{about_ids, read, watch, write};
use super::state::{FormState, NEXT_LIST};
use crate::protocol::error::reveal_in_prose;
use crate::schema::draft::edit;
use crate::schema::model::Choice;
use crate::schema::{initial, Draft, Node, Step};
use leptos::prelude::*;

pub(super) fn placeholder(node: &Node) -> Option<String> {
    node.examples.first().map(|e| match e {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    })
}

pub(super) fn text_input(
    state: FormState,
    path: Vec<Step>,
    input_type: &'static str,
    mode: &'static str,
    placeholder: Option<String>,
    list: Signal<Option<String>>,
    pointer: Signal<String>,
) -> AnyView {
    let text = watch(state, &path, |d| d.map(Draft::text).unwrap_or_default());
    view! {
        <input type=input_type inputmode=mode data-path=move || pointer.get() id=move || state.field_id(&pointer.get()) aria-describedby=move || about_ids(state, &pointer.get()) placeholder=placeholder list=move || list.get()
            prop:value=move || text.get()
            on:input=move |ev| {
                let typed = event_target_value(&ev);
                write(state, &path, |d| *d = Draft::Text(typed));
            }/>
    }
    .into_any()
}

/// A string edited over several lines (`text-field`), or JSON text (`json-field`); what is
/// typed is kept exactly, line breaks and all.
pub(super) fn text_area(
    state: FormState,
    path: Vec<Step>,
    class: &'static str,
    placeholder: Option<String>,
    pointer: Signal<String>,
) -> AnyView {
    let text = watch(state, &path, |d| d.map(Draft::text).unwrap_or_default());
    let rows = if class == "text-field" { "8" } else { "3" };
    view! {
        <textarea class=class rows=rows spellcheck="false" data-path=move || pointer.get() id=move || state.field_id(&pointer.get()) aria-describedby=move || about_ids(state, &pointer.get()) placeholder=placeholder
            prop:value=move || text.get()
            on:input=move |ev| {
                let typed = event_target_value(&ev);
                write(state, &path, |d| *d = Draft::Text(typed));
            }></textarea>
    }
    .into_any()
}

pub(super) fn json_text(state: FormState, path: Vec<Step>, pointer: Signal<String>) -> AnyView {
    text_area(state, path, "json-field", Some("JSON".to_owned()), pointer)
}

/// A value that did not fit the form (it came from raw JSON), edited as JSON until reset.
pub(super) fn raw_control(
    state: FormState,
    path: Vec<Step>,
    node: Node,
    required: bool,
    pointer: Signal<String>,
) -> AnyView {
    let text = watch(state, &path, |d| d.map(Draft::text).unwrap_or_default());
    let reset_path = path.clone();
    view! {
        <div class="raw-value">
            <textarea class="json-field" rows="3" spellcheck="false" data-path=move || pointer.get() id=move || state.field_id(&pointer.get()) aria-describedby=move || about_ids(state, &pointer.get())
                prop:value=move || text.get()
                on:input=move |ev| {
                    let typed = event_target_value(&ev);
                    write(state, &path, |d| *d = Draft::Raw(typed));
                }></textarea>
            <span class="muted fallback-note">"This value does not fit the form's fields, so it is edited as JSON. "
                <button type="button" class="link" on:click=move |_| {
                    let fresh = initial(&Node { default: None, ..node.clone() }, required);
                    write(state, &reset_path, |d| *d = fresh);
                }>"Use the form instead"</button>
            </span>
        </div>
    }
    .into_any()
}

/// Enums longer than this get a text input that suggests the values as you type: a `<select>`
/// of tens of thousands of options is slow to build and useless to scroll.
pub(super) const SELECT_LIMIT: usize = 500;

pub(super) fn enum_select(
    state: FormState,
    path: Vec<Step>,
    choices: Vec<Choice>,
    pointer: Signal<String>,
) -> AnyView {
    if choices.len() > SELECT_LIMIT {
        return enum_search(state, path, choices, pointer);
    }
    let current = {
        let path = path.clone();
        move || {
            read(state, &path, |d| match d {
                Some(Draft::Choice(i)) => i.to_string(),
                _ => String::new(),
            })
        }
    };
    let options = choices
        .into_iter()
        .enumerate()
        .map(|(i, choice)| view! { <option value=i.to_string()>{reveal_in_prose(&choice.label)}</option> })
        .collect_view();
    view! {
        <select class="enum" data-path=move || pointer.get() id=move || state.field_id(&pointer.get()) aria-describedby=move || about_ids(state, &pointer.get()) prop:value=current
            on:change=move |ev| {
                let chosen = event_target_value(&ev).parse::<usize>().map_or(Draft::Empty, Draft::Choice);
                write(state, &path, |d| *d = chosen);
            }>
            <option value="">"(choose)"</option>
            {options}
        </select>
    }
    .into_any()
}

/// A large enum: the input holds the label as typed (`Draft::Text`), which `value_of` maps to
/// its value, or reports when no value has that label.
pub(super) fn enum_search(
    state: FormState,
    path: Vec<Step>,
    choices: Vec<Choice>,
    pointer: Signal<String>,
) -> AnyView {
    let list_id = format!(
        "choices-{}-{}",
        state.form_id,
        NEXT_LIST.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    );
    let text = {
        let labels: Vec<String> = choices.iter().map(|c| c.label.clone()).collect();
        watch(state, &path, move |d| match d {
            Some(Draft::Choice(i)) => labels.get(*i).cloned().unwrap_or_default(),
            Some(other) => other.text(),
            None => String::new(),
        })
    };
    let count = choices.len();
    let options = choices
        .into_iter()
        .map(|choice| view! { <option value=choice.label></option> })
        .collect_view();
    view! {
        <input type="text" class="enum-search" list=list_id.clone() data-path=move || pointer.get() id=move || state.field_id(&pointer.get()) aria-describedby=move || about_ids(state, &pointer.get())
            placeholder=format!("type to search {count} values")
            prop:value=move || text.get()
            on:input=move |ev| {
                let typed = event_target_value(&ev);
                write(state, &path, |d| *d = if typed.is_empty() { Draft::Empty } else { Draft::Text(typed) });
            }/>
        <datalist id=list_id>{options}</datalist>
    }
    .into_any()
}

pub(super) fn multi_select(
    state: FormState,
    path: Vec<Step>,
    choices: Vec<Choice>,
    pointer: Signal<String>,
) -> AnyView {
    let boxes = choices
        .into_iter()
        .enumerate()
        .map(|(i, choice)| {
            let path = path.clone();
            let checked = {
                let path = path.clone();
                move || {
                    read(
                        state,
                        &path,
                        |d| matches!(d, Some(Draft::Multi(chosen)) if chosen.contains(&i)),
                    )
                }
            };
            view! {
                <label class="inline choice">
                    <input type="checkbox" value=choice.label.clone() prop:checked=checked
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            write(state, &path, |d| edit::toggle_choice(d, i, on));
                        }/>
                    " " {reveal_in_prose(&choice.label)}
                </label>
            }
        })
        .collect_view();
    view! { <div class="multi-select" data-path=move || pointer.get()>{boxes}</div> }.into_any()
}
