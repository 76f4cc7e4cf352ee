//! One field of a schema form and, recursively, the fields inside it.
//!
//! Every input carries `data-path`: the JSON pointer of the value it edits (what the problem
//! list and the end-to-end tests refer to). Server-supplied text (titles, descriptions,
//! enum labels) is only ever inserted as text.

use super::binding::{about_ids, read, watch, write};
use super::focus::{item_list, refocus_moved, refocus_removed};
use super::inputs::{
    enum_select, json_text, multi_select, placeholder, raw_control, text_area, text_input,
};
use super::state::FormState;
use crate::protocol::error::reveal_in_prose;
use crate::schema::draft::edit;
use crate::schema::model::{ArrayNode, Kind, ObjectNode, Variant};
use crate::schema::{initial, Draft, Node, Step};
use leptos::prelude::*;

/// Nested objects deeper than this start closed (and are built when opened), except in an item
/// the person has just added (see `FieldView`'s `fresh`).
const OPEN_DEPTH: usize = 3;

fn join(path: &[Step], step: Step) -> Vec<Step> {
    let mut next = path.to_vec();
    next.push(step);
    next
}

fn pointer_token(name: &str) -> String {
    format!("/{}", name.replace('~', "~0").replace('/', "~1"))
}

#[component]
pub fn FieldView(
    state: FormState,
    node: Node,
    path: Vec<Step>,
    /// The property name (empty for the whole value, `#n` for an array item).
    name: String,
    required: bool,
    depth: usize,
    pointer: Signal<String>,
    /// Just added by the person (a new array item, or a required part of one): it starts open
    /// at any depth, ready to fill, and so do its required parts.
    #[prop(optional)]
    fresh: bool,
    /// An array item's place (from 0): its label `#n` follows it when items move, so the item
    /// itself is kept (keyed by its id) rather than rebuilt.
    #[prop(optional)]
    position: Option<Signal<usize>>,
) -> impl IntoView {
    let label = {
        let fixed = reveal_in_prose(&node.label_or(&name));
        let titled = node.title.is_some();
        move || match position {
            Some(position) if !titled => format!("#{}", position.get() + 1),
            _ => fixed.clone(),
        }
    };
    let hint = node.type_hint();
    let description = node.description.as_deref().map(reveal_in_prose);
    let rules = Some(node.rules_hint()).filter(|r| !r.is_empty());
    let deprecated = node.deprecated;
    let read_only = node.read_only;
    let own_issues = Memo::new(move |_| {
        let here = pointer.get();
        state.issues.with(|all| {
            all.iter()
                .filter(|i| i.path == here)
                .map(|i| i.message.clone())
                .collect::<Vec<_>>()
        })
    });
    let is_json = matches!(node.kind, Kind::Json { .. });
    let is_raw = watch(state, &path, move |d| {
        !is_json && matches!(d, Some(Draft::Raw(_)))
    });
    let control = {
        let (node, path) = (node.clone(), path.clone());
        let name = name.clone();
        move || {
            if is_raw.get() {
                raw_control(state, path.clone(), node.clone(), required, pointer)
            } else {
                let place = Place {
                    state,
                    name: name.clone(),
                    required,
                    depth,
                    pointer,
                    fresh,
                };
                control(node.clone(), path.clone(), &place)
            }
        }
    };
    let errors = move || {
        own_issues
            .get()
            .into_iter()
            .map(|message| view! { <span class="field-error error">{message}</span> })
            .collect_view()
    };
    // A lazy node shows its "Open" button inline; opened, its fields follow it directly.
    let is_container = matches!(
        node.kind,
        Kind::Object(_) | Kind::Array(_) | Kind::Variants(_)
    );
    // The control's accessible name is the field's title alone; its type, "required" and the
    // badges are read as its description (`about_ids`), with the schema's description.
    let about = [
        Some(hint.clone()),
        required.then(|| "required".to_owned()),
        deprecated.then(|| "deprecated".to_owned()),
        read_only.then(|| "read-only".to_owned()),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(", ");
    let about = view! {
        <span hidden id=move || format!("{}~about", state.field_id(&pointer.get()))>{about}</span>
    };
    if depth == 0 {
        return view! { <div class="schema-root" data-path="">{about}{control}{errors}</div> }
            .into_any();
    }
    let header = view! {
        <span class="field-label">
            <span class="field-name">{label}</span>
            {required.then(|| view! { <span class="required" title="required" aria-hidden="true">"*"</span> })}
            <span class="type-hint" aria-hidden="true">{hint}</span>
            {deprecated.then(|| view! { <span class="badge deprecated" aria-hidden="true">"deprecated"</span> })}
            {read_only.then(|| view! { <span class="badge" aria-hidden="true">"read-only"</span> })}
        </span>
    };
    let description = view! {
        {description.map(|d| view! { <span class="description" id=move || format!("{}~description", state.field_id(&pointer.get()))>{d}</span> })}
        {rules.map(|r| view! { <span class="rules muted">{r}</span> })}
    };
    if is_container {
        let open = RwSignal::new(depth < OPEN_DEPTH || fresh);
        view! {
            <details class="field group" prop:open=move || open.get()
                on:toggle=move |ev| open.set(event_target::<web_sys::HtmlDetailsElement>(&ev).open())>
                <summary aria-describedby=move || about_ids(state, &pointer.get())>{header}</summary>
                {about}
                {description}
                {move || open.get().then(control.clone())}
                {errors}
            </details>
        }
        .into_any()
    } else {
        view! {
            <div class="field">
                <label class="field-head" for=move || state.field_id(&pointer.get())>{header}</label>
                {about}
                {control}
                {description}
                {errors}
            </div>
        }
        .into_any()
    }
}

/// Where a control sits: what stays the same when a nullable or a variant hands its place
/// to the inner node (only the draft path goes one step further).
#[derive(Clone)]
struct Place {
    state: FormState,
    /// The property name (for suggestions).
    name: String,
    required: bool,
    depth: usize,
    pointer: Signal<String>,
    /// See `FieldView`.
    fresh: bool,
}

/// The input(s) for one node.
fn control(node: Node, path: Vec<Step>, place: &Place) -> AnyView {
    let Place {
        state,
        ref name,
        required,
        depth,
        pointer,
        fresh,
    } = *place;
    let data_path = move || pointer.get();
    match &node.kind {
        Kind::String(rules) => {
            let input_type = match rules.format.as_deref() {
                Some("email") => "email",
                Some("uri") | Some("iri") => "url",
                Some("date") => "date",
                _ => "text",
            };
            let placeholder = placeholder(&node).or_else(|| match rules.format.as_deref() {
                Some("date-time") => Some("2026-01-31T12:30:00Z".into()),
                Some("time") => Some("12:30:00Z".into()),
                Some("uuid") => Some("123e4567-e89b-12d3-a456-426614174000".into()),
                _ => None,
            });
            let list_id = (depth == 1).then(|| format!("suggest-{}-{name}", state.form_id));
            let suggestions = {
                let name = name.to_owned();
                move || {
                    state.suggestions.with(|all| {
                        all.iter()
                            .find(|(field, _)| *field == name)
                            .map(|(_, values)| values.clone())
                            .unwrap_or_default()
                    })
                }
            };
            // date-time and time: a button fills in the current moment (UTC, RFC 3339).
            let now = match rules.format.as_deref() {
                Some("date-time") => Some(false),
                Some("time") => Some(true),
                _ => None,
            }
            .map(|time_only| {
                let path = path.clone();
                view! {
                    <button type="button" class="link fill-now" title="The current time, in UTC"
                        on:click=move |_| {
                            let stamp: String = js_sys::Date::new_0().to_iso_string().into();
                            let stamp = if time_only {
                                stamp.split_once('T').map(|(_, t)| t.to_owned()).unwrap_or(stamp)
                            } else {
                                stamp
                            };
                            write(state, &path, |d| *d = Draft::Text(stamp));
                        }>"now"</button>
                }
            });
            // A value, default or example with a line break gets a multi-line editor: a
            // single-line input would drop its line breaks at the first keystroke.
            let has_break = |v: &serde_json::Value| v.as_str().is_some_and(|s| s.contains('\n'));
            let multi_line = node.default.as_ref().is_some_and(has_break)
                || node.examples.iter().any(has_break)
                || state.draft.with_untracked(|d| {
                    d.at(&path)
                        .is_some_and(|d| matches!(d, Draft::Text(t) if t.contains('\n')))
                });
            // The input names its suggestions only when there are some: until then it is a
            // plain text box (with a list, it is a combobox to assistive technology).
            let list = {
                let (id, suggestions) = (list_id.clone(), suggestions.clone());
                Signal::derive(move || id.clone().filter(|_| !suggestions().is_empty()))
            };
            let input = if multi_line {
                text_area(state, path, "text-field", placeholder, pointer)
            } else {
                text_input(state, path, input_type, "text", placeholder, list, pointer)
            };
            view! {
                {input}
                {now}
                {list_id.map(|id| view! {
                    <datalist id=id class="suggestions">
                        {move || suggestions().into_iter().map(|s| view! { <option value=s></option> }).collect_view()}
                    </datalist>
                })}
            }
            .into_any()
        }
        Kind::Number(rules) => {
            // A text input with a numeric keyboard: `type=number` would hide what was typed
            // when it is not a number, instead of letting us say why.
            let mode = if rules.integer { "numeric" } else { "decimal" };
            // The bounds are said under the input (`rules_hint`); the placeholder shows an example.
            let placeholder = placeholder(&node);
            text_input(
                state,
                path,
                "text",
                mode,
                placeholder,
                Signal::stored(None),
                pointer,
            )
        }
        Kind::Boolean if required => {
            let checked = {
                let path = path.clone();
                move || read(state, &path, |d| matches!(d, Some(Draft::Bool(true))))
            };
            view! {
                <input type="checkbox" class="bool" data-path=data_path id=move || state.field_id(&pointer.get()) aria-describedby=move || about_ids(state, &pointer.get()) prop:checked=checked
                    on:change=move |ev| { let on = event_target_checked(&ev); write(state, &path, |d| *d = Draft::Bool(on)) }/>
            }
            .into_any()
        }
        Kind::Boolean => {
            let current = {
                let path = path.clone();
                move || {
                    read(state, &path, |d| match d {
                        Some(Draft::Bool(true)) => "true",
                        Some(Draft::Bool(false)) => "false",
                        _ => "",
                    })
                }
            };
            view! {
                <select class="bool" data-path=data_path id=move || state.field_id(&pointer.get()) aria-describedby=move || about_ids(state, &pointer.get()) prop:value=current
                    on:change=move |ev| {
                        let choice = match event_target_value(&ev).as_str() {
                            "true" => Draft::Bool(true),
                            "false" => Draft::Bool(false),
                            _ => Draft::Empty,
                        };
                        write(state, &path, |d| *d = choice);
                    }>
                    <option value="">"(not set)"</option>
                    <option value="true">"true"</option>
                    <option value="false">"false"</option>
                </select>
            }
            .into_any()
        }
        Kind::Null | Kind::Const(_) => {
            let (label, on_value) = match &node.kind {
                Kind::Const(value) => (format!("send {value}"), Draft::Bool(true)),
                _ => ("send null".to_owned(), Draft::Null),
            };
            let checked = {
                let path = path.clone();
                move || {
                    read(state, &path, |d| {
                        matches!(d, Some(Draft::Bool(true)) | Some(Draft::Null))
                    })
                }
            };
            view! {
                <label class="inline">
                    <input type="checkbox" class="const" data-path=data_path id=move || state.field_id(&pointer.get()) aria-describedby=move || about_ids(state, &pointer.get()) prop:checked=checked
                        disabled=required && matches!(node.kind, Kind::Const(_))
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            let chosen = if on { on_value.clone() } else if matches!(on_value, Draft::Null) { Draft::Empty } else { Draft::Bool(false) };
                            write(state, &path, |d| *d = chosen);
                        }/>
                    " " <code>{label}</code>
                </label>
            }
            .into_any()
        }
        Kind::Enum(choices) => enum_select(state, path, choices.clone(), pointer),
        Kind::MultiEnum { choices, .. } => multi_select(state, path, choices.clone(), pointer),
        Kind::Object(object) => object_fields(state, object.clone(), path, depth, pointer, fresh),
        Kind::Array(array) => array_items(
            state,
            node.clone(),
            array.clone(),
            path,
            depth,
            pointer,
            fresh,
        ),
        Kind::Nullable(inner) => nullable(node.clone(), (**inner).clone(), path, place.clone()),
        Kind::Variants(variants) => {
            variant_picker(node.clone(), variants.clone(), path, place.clone())
        }
        Kind::Lazy(lazy) => {
            // A just-added item arrives built one level (`edit::add_item`): shown open. Only
            // then, never by itself, so a part that requires itself cannot open without end.
            let built = fresh
                && state
                    .draft
                    .with_untracked(|d| d.at(&path).is_some_and(|d| *d != Draft::Empty));
            let opened = RwSignal::new(built);
            let reason = lazy.reason.clone();
            let place = place.clone();
            let open = {
                let (node, path) = (node.clone(), path.clone());
                move |_| {
                    let expanded = node.expanded().clone();
                    write(state, &path, |d| {
                        if matches!(d, Draft::Empty) {
                            *d = initial(&expanded, true);
                        }
                    });
                    opened.set(true);
                }
            };
            view! {
                {move || if opened.get() {
                    control(node.expanded().clone(), path.clone(), &place)
                } else {
                    view! {
                        <button type="button" class="link open-lazy" data-path=data_path on:click=open.clone()>
                            {format!("Open ({reason})")}
                        </button>
                    }
                    .into_any()
                }}
            }
            .into_any()
        }
        Kind::Json { reason } => {
            let note = reason.clone();
            view! {
                {json_text(state, path, pointer)}
                {note.map(|n| view! { <span class="muted fallback-note">{n}</span> })}
            }
            .into_any()
        }
    }
}

/// Fields and items rendered before a "show more" button: a schema with thousands of
/// properties (or a value with thousands of items) would otherwise build every input at once
/// and hold the page for seconds. Hidden fields keep their values and are checked and sent.
const FIELDS_AT_ONCE: usize = 250;

fn object_fields(
    state: FormState,
    object: ObjectNode,
    path: Vec<Step>,
    depth: usize,
    pointer: Signal<String>,
    fresh: bool,
) -> AnyView {
    let field = {
        let path = path.clone();
        move |(i, property): (usize, &crate::schema::model::Property)| {
            let token = pointer_token(&property.name);
            let child_pointer = Signal::derive(move || format!("{}{token}", pointer.get()));
            view! {
                <FieldView state node=property.node.clone() path=join(&path, Step::Prop(i))
                    name=property.name.clone() required=property.required depth=depth + 1 pointer=child_pointer
                    fresh=fresh && property.required/>
            }
        }
    };
    let first = object
        .properties
        .iter()
        .enumerate()
        .take(FIELDS_AT_ONCE)
        .map(field.clone())
        .collect_view();
    let hidden = object.properties.len().saturating_sub(FIELDS_AT_ONCE);
    let all_shown = RwSignal::new(hidden == 0);
    let rest = {
        let object = object.clone();
        move || {
            all_shown.get().then(|| {
                object
                    .properties
                    .iter()
                    .enumerate()
                    .skip(FIELDS_AT_ONCE)
                    .map(field.clone())
                    .collect_view()
            })
        }
    };
    let extra = object
        .extra
        .clone()
        .map(|extra| key_values(state, object.clone(), *extra, path.clone(), depth, pointer));
    view! {
        <div class="object-fields" data-path=move || pointer.get()>
            {first}
            {rest}
            <Show when=move || !all_shown.get()>
                <button type="button" class="link show-more" on:click=move |_| all_shown.set(true)>
                    {format!("Show {hidden} more fields")}
                </button>
            </Show>
            {extra}
        </div>
    }
    .into_any()
}

/// Keys beyond the declared properties: `additionalProperties` / `patternProperties`, and
/// any extra keys that came from raw JSON.
fn key_values(
    state: FormState,
    object: ObjectNode,
    value_node: Node,
    path: Vec<Step>,
    depth: usize,
    pointer: Signal<String>,
) -> AnyView {
    let ids = watch(state, &path, |d| {
        d.map(Draft::entry_ids).unwrap_or_default()
    });
    let offer = object.offer_extra;
    let object_node = Node {
        kind: Kind::Object(object),
        ..Node::default()
    };
    let add = {
        let path = path.clone();
        move |_| {
            let node = object_node.clone();
            write(state, &path, |d| {
                edit::add_entry(d, &node);
            });
        }
    };
    let entry = move |id: u64| {
        let path = path.clone();
        let key = watch(state, &path, move |d| match d {
            Some(Draft::Object { extra, .. }) => extra
                .iter()
                .find(|e| e.id == id)
                .map(|e| e.key.clone())
                .unwrap_or_default(),
            _ => String::new(),
        });
        let entry_pointer =
            Signal::derive(move || format!("{}{}", pointer.get(), pointer_token(&key.get())));
        let (key_path, remove_path) = (path.clone(), path.clone());
        view! {
            <div class="entry">
                <input type="text" class="entry-key" placeholder="key" aria-label="key"
                    prop:value=move || key.get()
                    on:input=move |ev| {
                        let typed = event_target_value(&ev);
                        write(state, &key_path, |d| edit::set_entry_key(d, id, typed));
                    }/>
                <FieldView state node=value_node.clone() path=join(&path, Step::Entry(id)) name="value".to_owned()
                    required=true depth=depth + 1 pointer=entry_pointer/>
                <button type="button" class="link remove-entry" title="Remove this key"
                    on:click=move |_| write(state, &remove_path, |d| edit::remove_entry(d, id))>"✕"</button>
            </div>
        }
    };
    view! {
        <Show when=move || offer || ids.with(|ids| !ids.is_empty())>
            <div class="key-values">
                <For each=move || ids.get() key=|id| *id children=entry.clone()/>
                <button type="button" class="link add-entry" on:click=add.clone()>"+ Add key"</button>
            </div>
        </Show>
    }
    .into_any()
}

fn array_items(
    state: FormState,
    node: Node,
    array: ArrayNode,
    path: Vec<Step>,
    depth: usize,
    pointer: Signal<String>,
    fresh: bool,
) -> AnyView {
    let ids = watch(state, &path, |d| d.map(Draft::item_ids).unwrap_or_default());
    let count = move || ids.with(Vec::len);
    let max = array.max_items.map(|m| m as usize);
    let room = {
        let array = array.clone();
        move || {
            let n = count();
            max.is_none_or(|m| n < m) && (array.items.is_some() || n < array.prefix.len())
        }
    };
    let tuple = !array.prefix.is_empty();
    let prefix_len = array.prefix.len();
    // The items the person added here: they start open, ready to fill.
    let added = StoredValue::new(Vec::<u64>::new());
    let add = {
        let path = path.clone();
        move |_| {
            let node = node.clone();
            write(state, &path, |d| {
                if let Some(id) = edit::add_item(d, &node) {
                    added.update_value(|ids| ids.push(id));
                }
            });
        }
    };
    let add_path = path.clone();
    // Keyed by the item's id alone: moving or removing one item keeps the others (and what
    // is typed or open in them); only their positions change.
    let item = move |id: u64| {
        let position = Memo::new(move |_| {
            ids.with(|ids| ids.iter().position(|known| *known == id).unwrap_or(0))
        });
        // A tuple's slots never move: each keeps the schema of its place.
        let item_node = array
            .prefix
            .get(position.get_untracked())
            .or(array.items.as_deref())
            .cloned()
            .unwrap_or_default();
        let item_pointer = Signal::derive(move || format!("{}/{}", pointer.get(), position.get()));
        let (up, down, remove) = (path.clone(), path.clone(), path.clone());
        let fresh = fresh || added.with_value(|ids| ids.contains(&id));
        let removable = move || {
            let at = position.get();
            !tuple || at >= prefix_len || at + 1 == count()
        };
        view! {
            <div class="array-item" data-item=move || position.get()>
                <FieldView state node=item_node path=join(&path, Step::Item(id)) name=String::new()
                    required=true depth=depth + 1 pointer=item_pointer fresh position=position.into()/>
                <span class="item-actions">
                    {(!tuple).then(|| view! {
                        <button type="button" class="link move-up" title="Move up"
                            on:click=move |ev| {
                                write(state, &up, |d| edit::move_item(d, id, -1));
                                refocus_moved(&ev, "move-up", "move-down", position.get_untracked() == 0);
                            }>"↑"</button>
                        <button type="button" class="link move-down" title="Move down"
                            on:click=move |ev| {
                                write(state, &down, |d| edit::move_item(d, id, 1));
                                let last = position.get_untracked() + 1 >= count();
                                refocus_moved(&ev, "move-down", "move-up", last);
                            }>"↓"</button>
                    })}
                    // A tuple's slots have fixed places: only its last slot (or an item past
                    // them, all of one schema) can go, so no value moves into another slot.
                    <Show when=removable>
                        <button type="button" class="link remove-item" title="Remove"
                            on:click={
                                let remove = remove.clone();
                                move |ev| {
                                    let at = position.get_untracked();
                                    let list = item_list(&ev);
                                    write(state, &remove, |d| edit::remove_item(d, id));
                                    refocus_removed(list, at);
                                }
                            }>"✕"</button>
                    </Show>
                </span>
            </div>
        }
    };
    let bounds = match (array.min_items, array.max_items) {
        (Some(min), Some(max)) => format!("{min} to {max} items"),
        (Some(min), None) => format!("at least {min}"),
        (None, Some(max)) => format!("at most {max}"),
        (None, None) => String::new(),
    };
    let all_items = RwSignal::new(false);
    let limit = move || {
        if all_items.get() {
            usize::MAX
        } else {
            FIELDS_AT_ONCE
        }
    };
    let shown = move || ids.get().into_iter().take(limit()).collect::<Vec<_>>();
    let hidden_items = move || count().saturating_sub(limit());
    view! {
        <div class="array" data-path=move || pointer.get()>
            <For each=shown key=|id| *id children=item/>
            <Show when=move || { hidden_items() != 0 }>
                <button type="button" class="link show-more" on:click=move |_| all_items.set(true)>
                    {move || format!("Show {} more items", hidden_items())}
                </button>
            </Show>
            <button type="button" class="link add-item" disabled=move || !room()
                on:click=move |ev| { let _ = &add_path; add(ev) }>
                {move || format!("+ Add item ({}{}{})", count(), if bounds.is_empty() { "" } else { "; " }, bounds)}
            </button>
        </div>
    }
    .into_any()
}

fn nullable(node: Node, inner: Node, path: Vec<Step>, place: Place) -> AnyView {
    let state = place.state;
    let is_null = watch(state, &path, |d| {
        matches!(d, Some(Draft::Nullable { is_null: true, .. }))
    });
    let toggle_path = path.clone();
    let inner_path = join(&path, Step::Inner);
    view! {
        <label class="inline null-choice">
            <input type="checkbox" class="null-toggle" prop:checked=move || is_null.get()
                on:change=move |ev| {
                    let on = event_target_checked(&ev);
                    write(state, &toggle_path, |d| edit::set_null(d, &node, on));
                }/>
            " null"
        </label>
        {move || (!is_null.get()).then(|| control(inner.clone(), inner_path.clone(), &place))}
    }
    .into_any()
}

fn variant_picker(node: Node, variants: Vec<Variant>, path: Vec<Step>, place: Place) -> AnyView {
    let (state, pointer) = (place.state, place.pointer);
    let chosen = watch(state, &path, |d| match d {
        Some(Draft::Variant { chosen, .. }) => *chosen,
        _ => 0,
    });
    let options = variants
        .iter()
        .enumerate()
        .map(|(i, v)| view! { <option value=i.to_string()>{reveal_in_prose(&v.label)}</option> })
        .collect_view();
    let pick_path = path.clone();
    view! {
        <select class="variant-picker" aria-label="Variant" data-path=move || pointer.get()
            prop:value=move || chosen.get().to_string()
            on:change=move |ev| {
                if let Ok(to) = event_target_value(&ev).parse::<usize>() {
                    write(state, &pick_path, |d| edit::choose_variant(d, &node, to));
                }
            }>
            {options}
        </select>
        {move || {
            let i = chosen.get();
            variants.get(i).map(|variant| {
                let description = variant.node.description.clone();
                view! {
                    {description.map(|d| view! { <span class="description">{d}</span> })}
                    {control(variant.node.clone(), join(&path, Step::Variant(i)), &place)}
                }
            })
        }}
    }
    .into_any()
}
