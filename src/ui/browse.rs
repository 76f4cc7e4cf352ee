//! The tools, prompts and resources tabs. All three are one component: a filterable list and
//! the selected item's panel (form, action button, result). Sharing it keeps the three tabs
//! consistent, and keeps the wasm small: every distinct Leptos view costs code.

mod kept;
mod keys;
mod outcome;
pub(super) mod panel;
mod rows;
mod window;

pub(super) use outcome::{Outcome, OutcomeView};
use panel::PanelState;

use super::address::{Target, TargetKind};
use super::use_connection;
use crate::client::{ListKind, ListUpdate, ServerState};
use crate::protocol::apps::ToolUi;
use crate::protocol::error::{reveal_controls, reveal_in_prose, McpError};
use crate::schema::uri_template::{form_schema, UriTemplate};
use leptos::prelude::*;
use leptos::task::spawn_local;
use rmcp::model::Prompt;
use serde_json::{Map, Value};
use std::sync::Arc;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Tools,
    Prompts,
    Resources,
}

impl Kind {
    pub fn of(target: TargetKind) -> Self {
        match target {
            TargetKind::Tool => Kind::Tools,
            TargetKind::Prompt => Kind::Prompts,
            TargetKind::Resource => Kind::Resources,
        }
    }

    pub fn target(self) -> TargetKind {
        match self {
            Kind::Tools => TargetKind::Tool,
            Kind::Prompts => TargetKind::Prompt,
            Kind::Resources => TargetKind::Resource,
        }
    }

    fn noun(self) -> &'static str {
        match self {
            Kind::Tools => "tool",
            Kind::Prompts => "prompt",
            Kind::Resources => "resource",
        }
    }

    /// The attribute naming each list row (what the end-to-end tests select by).
    fn key_attribute(self) -> &'static str {
        match self {
            Kind::Tools => "data-tool",
            Kind::Prompts => "data-prompt",
            Kind::Resources => "data-uri",
        }
    }

    fn ids(self) -> (&'static str, &'static str, &'static str, &'static str) {
        // (filter, panel, button, result)
        match self {
            Kind::Tools => ("tool-filter", "tool-panel", "run-tool", "tool-result"),
            Kind::Prompts => (
                "prompt-filter",
                "prompt-panel",
                "get-prompt",
                "prompt-result",
            ),
            Kind::Resources => (
                "resource-filter",
                "resource-panel",
                "read-resource",
                "resource-result",
            ),
        }
    }

    fn button_label(self) -> &'static str {
        match self {
            Kind::Tools => "Run",
            Kind::Prompts => "Get prompt",
            Kind::Resources => "Read",
        }
    }
}

/// What the list and the panel need to know of one tool, prompt or resource.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Item {
    /// The tool or prompt name, or the resource URI.
    key: String,
    title: String,
    description: Option<String>,
    /// A second line in the list (a resource's URI and type).
    detail: Option<String>,
    /// The argument form's JSON Schema; plain resources have none.
    /// Shared with the server state (a schema can be a megabyte): cloned only when its panel
    /// opens, never on each render of the list.
    form: Option<Arc<Map<String, Value>>>,
    /// A resource template's URI template (the key is the template too).
    template: Option<String>,
    /// A tool's outputSchema: its structuredContent is checked against it.
    output_schema: Option<Arc<Map<String, Value>>>,
    /// A tool's MCP App: its `ui://` resource (`_meta.ui.resourceUri`), rendered beside
    /// each result.
    ui: Option<String>,
    /// A tool only its app may call (`_meta.ui.visibility` is `["app"]`): listed apart, at
    /// the end, and marked; still callable here, for testing.
    app_only: bool,
}

/// What the filter searches in a list: each item's key, title and description, lowercased
/// (once per list, not per keystroke), one per line so that a filter never matches across
/// two of them, all items in one text (one search per keystroke, not one per item, and one
/// allocation per list, not one per item).
#[derive(Debug, Default, PartialEq)]
struct SearchTexts {
    text: String,
    /// Where each item's part of `text` ends.
    ends: Vec<usize>,
}

impl SearchTexts {
    fn of(items: &[Item]) -> Self {
        let mut text = String::new();
        let mut ends = Vec::with_capacity(items.len());
        for item in items {
            for part in [
                Some(&item.key),
                Some(&item.title),
                item.description.as_ref(),
            ]
            .into_iter()
            .flatten()
            {
                let from = text.len();
                text.push_str(part);
                text[from..].make_ascii_lowercase();
                text.push('\n');
            }
            ends.push(text.len());
        }
        SearchTexts { text, ends }
    }
}

/// The positions of the items whose search texts hold `filter` (case-insensitive).
fn matching(texts: &SearchTexts, filter: &str) -> Vec<usize> {
    let needle = filter.trim().to_ascii_lowercase();
    if needle.is_empty() {
        return (0..texts.ends.len()).collect();
    }
    let mut found = Vec::new();
    if needle.contains('\n') {
        // Could span two items in the one text (never typed: a search field has no line
        // breaks): each item on its own.
        let mut from = 0;
        for (n, &end) in texts.ends.iter().enumerate() {
            if texts.text[from..end].contains(&needle) {
                found.push(n);
            }
            from = end;
        }
        return found;
    }
    // Every part ends with a line break, which the needle lacks: a match lies within one item.
    let mut item = 0;
    for (at, _) in texts.text.match_indices(needle.as_str()) {
        while texts.ends.get(item).is_some_and(|&end| end <= at) {
            item += 1;
        }
        if found.last() != Some(&item) && item < texts.ends.len() {
            found.push(item);
        }
    }
    found
}

/// The items of one kind, and what could not be listed. A failed list never hides another
/// that worked (resource templates failing leaves the resources shown).
#[derive(Debug, Clone, PartialEq, Default)]
struct Listed {
    items: Vec<Item>,
    problems: Vec<String>,
}

impl From<Result<Vec<Item>, String>> for Listed {
    fn from(result: Result<Vec<Item>, String>) -> Self {
        match result {
            Ok(items) => Listed {
                items,
                problems: Vec::new(),
            },
            Err(problem) => Listed {
                items: Vec::new(),
                problems: vec![problem],
            },
        }
    }
}

/// The items of one kind, `None` when the server does not offer that kind.
fn items(kind: Kind, state: &ServerState) -> Option<Listed> {
    let failed = |error: &McpError| error.to_string();
    match kind {
        Kind::Tools => state.tools.as_ref().map(|tools| {
            Listed::from(tools.as_ref().map_err(failed).map(|tools| {
                let mut items: Vec<Item> = tools
                    .iter()
                    .map(|tool| {
                        let ui = tool
                            .meta
                            .as_ref()
                            .map(|meta| ToolUi::from_meta(&Value::Object(meta.0.clone())));
                        Item {
                            key: tool.name.to_string(),
                            title: tool.title.clone().unwrap_or_else(|| tool.name.to_string()),
                            description: tool.description.as_ref().map(|d| d.to_string()),
                            detail: None,
                            form: Some(tool.input_schema.clone()),
                            template: None,
                            output_schema: tool.output_schema.clone(),
                            ui: ui
                                .as_ref()
                                .and_then(|ui| ui.resource_uri().map(str::to_owned)),
                            app_only: ui.is_some_and(|ui| ui.visibility.app_only()),
                        }
                    })
                    .collect();
                // App-only tools apart, after the others (a stable sort keeps each group's order).
                items.sort_by_key(|item| item.app_only);
                items
            }))
        }),
        Kind::Prompts => state.prompts.as_ref().map(|prompts| {
            Listed::from(prompts.as_ref().map_err(failed).map(|prompts| {
                prompts
                    .iter()
                    .map(|prompt| Item {
                        key: prompt.name.clone(),
                        title: prompt.title.clone().unwrap_or_else(|| prompt.name.clone()),
                        description: prompt.description.clone(),
                        detail: None,
                        form: Some(Arc::new(prompt_form(prompt))),
                        template: None,
                        output_schema: None,
                        ui: None,
                        app_only: false,
                    })
                    .collect()
            }))
        }),
        Kind::Resources => state.resources.as_ref().map(|resources| {
            let mut listed = Listed::from(resources.as_ref().map_err(failed).map(|resources| {
                resources
                    .iter()
                    .map(|resource| Item {
                        key: resource.uri.clone(),
                        title: resource
                            .title
                            .clone()
                            .unwrap_or_else(|| resource.name.clone()),
                        description: resource.description.clone(),
                        detail: Some(match &resource.mime_type {
                            Some(mime) => format!("{} ({mime})", resource.uri),
                            None => resource.uri.clone(),
                        }),
                        form: None,
                        template: None,
                        output_schema: None,
                        ui: None,
                        app_only: false,
                    })
                    .collect()
            }));
            match &state.templates {
                Some(Ok(templates)) => listed.items.extend(templates.iter().map(|template| {
                    let parsed = UriTemplate::parse(&template.uri_template);
                    Item {
                        key: template.uri_template.clone(),
                        title: template
                            .title
                            .clone()
                            .unwrap_or_else(|| template.name.clone()),
                        description: template.description.clone(),
                        detail: Some(format!("template {}", template.uri_template)),
                        form: Some(Arc::new(match form_schema(&parsed) {
                            Value::Object(map) => map,
                            _ => Map::new(),
                        })),
                        template: Some(template.uri_template.clone()),
                        output_schema: None,
                        ui: None,
                        app_only: false,
                    }
                })),
                Some(Err(error)) => listed.problems.push(failed(error)),
                None => {}
            }
            listed
        }),
    }
}

/// The list a tab continues with "Load more", and its cursor: the resources before their
/// templates.
fn next_page(kind: Kind, state: &ServerState) -> Option<(ListKind, String)> {
    let lists: &[ListKind] = match kind {
        Kind::Tools => &[ListKind::Tools],
        Kind::Prompts => &[ListKind::Prompts],
        Kind::Resources => &[ListKind::Resources, ListKind::Templates],
    };
    lists
        .iter()
        .find_map(|&list| Some((list, state.more.get(list)?.to_owned())))
}

/// Appends a continued list's items to what was listed; its failure as the sentence to show.
fn append(state: &mut ServerState, update: ListUpdate) -> Result<(), String> {
    fn extend<T>(
        listed: &mut Option<Result<Vec<T>, McpError>>,
        more: Result<Vec<T>, McpError>,
    ) -> Result<(), String> {
        let more = more.map_err(|error| error.to_string())?;
        match listed {
            Some(Ok(items)) => items.extend(more),
            other => *other = Some(Ok(more)),
        }
        Ok(())
    }
    match update {
        ListUpdate::Tools(more) => extend(&mut state.tools, more),
        ListUpdate::Prompts(more) => extend(&mut state.prompts, more),
        ListUpdate::Resources(more) => extend(&mut state.resources, more),
        ListUpdate::Templates(more) => extend(&mut state.templates, more),
    }
}

/// Prompt arguments are all strings: describe them as a JSON Schema and reuse the form.
fn prompt_form(prompt: &Prompt) -> Map<String, Value> {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for argument in prompt.arguments.iter().flatten() {
        let mut property = Map::new();
        property.insert("type".into(), "string".into());
        if let Some(title) = &argument.title {
            property.insert("title".into(), title.clone().into());
        }
        if let Some(description) = &argument.description {
            property.insert("description".into(), description.clone().into());
        }
        properties.insert(argument.name.clone(), Value::Object(property));
        if argument.required == Some(true) {
            required.push(Value::from(argument.name.clone()));
        }
    }
    Map::from_iter([
        ("type".to_owned(), Value::from("object")),
        ("properties".to_owned(), Value::Object(properties)),
        ("required".to_owned(), Value::Array(required)),
    ])
}

/// What the tabs remember while a server stays connected: the selected item per tab (by
/// key, so the panel follows list changes) and each item's panel state (form values, the
/// last result, a call in flight), so switching items or tabs and coming back loses nothing.
/// One per [`super::Connection`] (a server entry); [`Memory::forget`] starts a new session's
/// panels, which take back what was typed in the last session's forms (and the selection).
#[derive(Clone, Copy)]
pub struct Memory {
    selected: RwSignal<[Option<String>; 3]>,
    panels: StoredValue<Panels, LocalStorage>,
}

struct Panels {
    /// Owns the panels' signals, apart from the views that show them (which come and go).
    owner: Owner,
    states: std::collections::HashMap<(usize, String), PanelState>,
    /// The last session's panels (their signals owned by `previous_owner`): a new panel for
    /// the same item and schema starts from what its form held.
    previous: std::collections::HashMap<(usize, String), PanelState>,
    previous_owner: Option<Owner>,
    /// A link's arguments for an item whose panel is not made yet: its form starts from them.
    linked: std::collections::HashMap<(usize, String), Map<String, Value>>,
}

impl Memory {
    pub fn new() -> Self {
        Self {
            selected: RwSignal::new(Default::default()),
            panels: StoredValue::new_local(Panels {
                owner: Owner::new(),
                states: Default::default(),
                previous: Default::default(),
                previous_owner: None,
                linked: Default::default(),
            }),
        }
    }

    /// A new session: its panels start afresh, except that what was typed in the last
    /// session's forms is kept for them (until the session after). Call when no panel is
    /// shown: the panels before the last session's are disposed.
    pub fn forget(&self) {
        let old = self.panels.try_update_value(|panels| {
            panels.linked.clear();
            panels.previous = std::mem::take(&mut panels.states);
            let last = std::mem::replace(&mut panels.owner, Owner::new());
            panels.previous_owner.replace(last)
        });
        if let Some(Some(old)) = old {
            old.cleanup();
        }
    }
}

impl Memory {
    /// A link's arguments for this item: its panel's form starts from them when it is made
    /// (at once if it is already, by the panel chunk).
    fn link_args(&self, kind: Kind, key: &str, args: Option<&Map<String, Value>>) {
        let Some(args) = args else {
            return;
        };
        self.panels.update_value(|panels| {
            let key = (kind as usize, key.to_owned());
            panels.states.remove(&key);
            panels.previous.remove(&key);
            panels.linked.insert(key, args.clone());
        });
    }

    /// Whether an item's panel was made (what a server's `resources/updated` may concern).
    pub fn has_panel(&self, kind: Kind, key: &str) -> bool {
        self.panels
            .try_with_value(|panels| panels.states.contains_key(&(kind as usize, key.to_owned())))
            .unwrap_or(false)
    }
}

impl Default for Memory {
    fn default() -> Self {
        Self::new()
    }
}

/// One drawn row of a list: what it shows, nothing reactive (`browse/rows.rs` draws it).
#[derive(Debug, Clone, PartialEq)]
struct Row {
    /// Its place in the list: part of the row's key, since a server may list a name twice.
    index: usize,
    key: String,
    name: String,
    description: Option<String>,
    /// `app` (the tool has an MCP App) or `app only` (only its app may call it).
    badge: Option<&'static str>,
    selected: bool,
}

impl Row {
    fn of(kind: Kind, index: usize, item: &Item, selected: Option<&str>) -> Self {
        // The name is what the protocol uses; the title (when it says more) and the
        // description help find it.
        let name = reveal_controls(match kind {
            Kind::Resources => &item.title,
            _ => &item.key,
        });
        let description = match kind {
            Kind::Resources => item.detail.clone(),
            _ if item.title != item.key => Some(reveal_in_prose(&item.title)),
            _ => item.description.as_deref().map(reveal_in_prose),
        };
        Row {
            index,
            key: item.key.clone(),
            name,
            description,
            badge: if item.app_only {
                Some("app only")
            } else {
                item.ui.as_ref().map(|_| "app")
            },
            selected: selected == Some(item.key.as_str()),
        }
    }
}

/// The row an event on the list happened in, and the key it names (its key attribute holds
/// the tool or prompt name, or the resource URI, as listed). `None` outside a row (a spacer).
fn row_event(kind: Kind, event: &web_sys::Event) -> Option<(web_sys::Element, String)> {
    use wasm_bindgen::JsCast;
    let target = event.target()?.dyn_into::<web_sys::Element>().ok()?;
    let row = target.closest("li.item").ok()??;
    let key = row.get_attribute(kind.key_attribute())?;
    Some((row, key))
}

#[component]
pub fn Browser(kind: Kind) -> impl IntoView {
    let connection = use_connection();
    if kind == Kind::Tools && !connection.is_warm_up() {
        // The panels' code (forms, results) is fetched while the list is shown: a tool's form
        // is the next click; a tool call is then compiled once in idle time there.
        super::lazy::prefetch_panels();
    }
    let memory = connection.memory;
    let filter = RwSignal::new(String::new());
    let (filter_id, ..) = kind.ids();
    keys::focus_filter_on_slash(filter_id);
    let listed = Memo::new(move |_| {
        connection
            .server
            .with(|state| state.as_ref().and_then(|state| items(kind, state)))
    });
    let selected_key = move || memory.selected.with(|keys| keys[kind as usize].clone());
    let select = move |key: String| {
        let set = move |key| {
            memory
                .selected
                .update(|keys| keys[kind as usize] = Some(key))
        };
        // Another tool takes the shown one's MCP App away: it is torn down first (its answer
        // awaited, briefly), so it can save what it must.
        let server = connection.id.get_value();
        let other = memory
            .selected
            .with_untracked(|keys| keys[kind as usize].as_deref() != Some(key.as_str()));
        if kind == Kind::Tools && other && super::live_apps::has_apps(&server, None) {
            spawn_local(async move {
                super::live_apps::close_apps(&server, None).await;
                set(key);
            });
        } else {
            set(key);
        }
    };
    // The selected item as the server lists it now: the panel follows list changes.
    let selected = Memo::new(move |_| {
        let key = selected_key()?;
        let item = listed.with(|listed| {
            listed
                .as_ref()
                .and_then(|listed| listed.items.iter().find(|item| item.key == key).cloned())
        });
        Some(item.ok_or(key))
    });
    // The list is derived, never copied: the positions the filter lets through, then the
    // window of them that is drawn (all of a short list; of a long one, the rows in view and
    // a margin). The drawn rows are kept by hand (`browse/rows.rs`): an edit gives the
    // elements in place the new rows' text, a row that stays keeps its element, and a click
    // changes two rows' class.
    let search_texts = Memo::new(move |_| {
        listed.with(|listed| {
            listed.as_ref().map_or_else(SearchTexts::default, |listed| {
                SearchTexts::of(&listed.items)
            })
        })
    });
    let shown = Memo::new(move |_| {
        filter.with(|filter| search_texts.with(|texts| matching(texts, filter)))
    });
    let scroll_top = RwSignal::new(0.0);
    // The list is at most 70vh high; the whole window is a safe first guess.
    let viewport = RwSignal::new(
        web_sys::window()
            .and_then(|w| w.inner_height().ok())
            .and_then(|h| h.as_f64())
            .unwrap_or(1000.0),
    );
    // A filter edit draws the rows in view first, and the rest of a short list (drawn whole,
    // so the page's find sees every row) after that frame is painted: a keystroke that lets
    // 300 rows through does not make 300 rows before its frame.
    let whole = RwSignal::new(true);
    let edits = StoredValue::new(0u32);
    let range = Memo::new(move |_| {
        let rows = if whole.get() {
            window::visible
        } else {
            window::in_view
        };
        rows(
            shown.with(Vec::len),
            window::ROW_HEIGHT,
            scroll_top.get(),
            viewport.get(),
        )
    });
    let rows = move || {
        let (start, end) = range.get();
        let selected = selected_key();
        shown.with(|shown| {
            listed.with(|listed| {
                let Some(listed) = listed else {
                    return Vec::new();
                };
                shown
                    .get(start..end)
                    .unwrap_or_default()
                    .iter()
                    .filter_map(|&n| {
                        Some(Row::of(kind, n, listed.items.get(n)?, selected.as_deref()))
                    })
                    .collect::<Vec<_>>()
            })
        })
    };
    // The height of the rows not drawn, above or below the drawn ones.
    let padding = move |above: bool| {
        let (start, end) = range.get();
        let rows = if above {
            start
        } else {
            shown.with(Vec::len).saturating_sub(end)
        };
        format!("{}px", rows as f64 * window::ROW_HEIGHT)
    };
    let list_ref = NodeRef::<leptos::html::Ul>::new();
    let end_ref = NodeRef::<leptos::html::Li>::new();
    let drawn = StoredValue::new_local(rows::DrawnRows::default());
    Effect::new(move |_| {
        let rows = rows();
        let (Some(list), Some(end)) = (list_ref.get(), end_ref.get()) else {
            return;
        };
        drawn.update_value(|drawn| drawn.update(kind, &list, &end, rows));
        keys::set_tab_stop(&list, None);
    });
    let on_filter_key = move |event: leptos::ev::KeyboardEvent| {
        keys::on_filter_key(&event, list_ref.get_untracked().map(Into::into));
    };
    let on_scroll = move |_| {
        if let Some(list) = list_ref.get_untracked() {
            scroll_top.set(f64::from(list.scroll_top()));
            if list.client_height() > 0 {
                viewport.set(f64::from(list.client_height()));
            }
        }
    };
    // One listener for all rows (rows have none of their own).
    let on_row_click = move |event: leptos::ev::MouseEvent| {
        if let Some((row, key)) = row_event(kind, &event) {
            if let Some(list) = row.parent_element() {
                keys::set_tab_stop(&list, Some(&row));
            }
            select(key);
        }
    };
    let on_row_key = move |event: leptos::ev::KeyboardEvent| {
        if let Some((row, key)) = row_event(kind, &event) {
            keys::on_row_key(&event, row, || select(key));
        }
    };
    let on_filter = move |ev| {
        let edit = edits.get_value().wrapping_add(1);
        edits.set_value(edit);
        whole.set(false);
        spawn_local(async move {
            crate::client::browser::timer::after_paint().await;
            if edits.try_get_value() == Some(edit) {
                whole.try_set(true);
            }
        });
        filter.set(event_target_value(&ev));
        // A new filter shows its first matches.
        if let Some(list) = list_ref.get_untracked() {
            list.set_scroll_top(0);
        }
        scroll_top.set(0.0);
    };
    let problems = move || {
        listed.with(|listed| {
            listed.as_ref().map(|listed| {
                listed
                    .problems
                    .iter()
                    .map(|message| view! { <p class="error">{message.clone()}</p> })
                    .collect_view()
            })
        })
    };
    let empty = move || match listed.with(|listed| listed.as_ref().map(|l| l.items.is_empty())) {
        None => Some(format!("This server does not offer {}s.", kind.noun())),
        Some(_) if shown.with(Vec::is_empty) => Some(format!("No {}s.", kind.noun())),
        Some(_) => None,
    };
    // A server that paginates: connect listed the first page; the rest on request.
    let more = Memo::new(move |_| {
        connection
            .server
            .with(|state| state.as_ref().and_then(|state| next_page(kind, state)))
    });
    let loading = RwSignal::new(false);
    let load_error = RwSignal::new(None::<String>);
    let load = move |all: bool| {
        let Some((list, cursor)) = more.get_untracked() else {
            return;
        };
        loading.set(true);
        load_error.set(None);
        spawn_local(async move {
            let (update, next) = match connection.list_more(list, &cursor, all).await {
                Ok(page) => page,
                Err(error) => {
                    load_error.set(Some(error));
                    loading.set(false);
                    return;
                }
            };
            connection.server.update(|state| {
                // Appended only where it continues: a list fetched again meanwhile (its
                // first page, with a new cursor) is left as it is.
                let Some(state) = state else { return };
                if state.more.get(list) != Some(cursor.as_str()) {
                    return;
                }
                // In place when nothing else holds this state: the lists listed so far are
                // not copied for each page.
                let next_state = Arc::make_mut(state);
                match append(next_state, update) {
                    Ok(()) => next_state.more.set(list, next),
                    Err(error) => load_error.set(Some(error)),
                }
            });
            loading.set(false);
        });
    };
    view! {
        <section class="split">
            <div class="list-pane">
                <input id=filter_id type="search" placeholder=format!("Filter {}s", kind.noun())
                    aria-label=format!("Filter {}s", kind.noun())
                    prop:value=move || filter.get() on:input=on_filter on:keydown=on_filter_key/>
                <super::lazy::ListLifetime kind/>
                {problems}
                {move || empty().map(|message| view! { <p class="muted">{message}</p> })}
                // The rows not drawn are stood for by a spacer above and one below.
                <ul class="items" role="listbox" aria-label=format!("{}s", kind.noun()) node_ref=list_ref on:scroll=on_scroll
                    on:click=on_row_click on:keydown=on_row_key>
                    <li class="spacer" aria-hidden="true" style:height=move || padding(true)></li>
                    // The drawn rows go here (the effect above).
                    <li class="spacer" aria-hidden="true" node_ref=end_ref style:height=move || padding(false)></li>
                </ul>
                <Show when=move || more.with(Option::is_some)>
                    <div class="load-more">
                        <span class="muted">{move || format!("{} listed; the server has more.", listed.with(|l| l.as_ref().map_or(0, |l| l.items.len())))}</span>
                        <button id="load-more" class="secondary" on:click=move |_| load(false) disabled=move || loading.get()>"Load more"</button>
                        <button id="load-all" class="secondary" on:click=move |_| load(true) disabled=move || loading.get()>"Load all"</button>
                    </div>
                </Show>
                {move || load_error.get().map(|error| view! { <p class="error load-error">{error}</p> })}
            </div>
            <div class="detail-pane">
                {move || match selected.get() {
                    Some(Ok(item)) => view! { <super::lazy::ItemPanel kind item args=None embed=false/> }.into_any(),
                    Some(Err(key)) => view! {
                        <p class="muted gone">{format!("The server no longer lists the {} {key}.", kind.noun())}</p>
                    }.into_any(),
                    None => view! { <p class="muted">{format!("Select a {}.", kind.noun())}</p> }.into_any(),
                }}
            </div>
        </section>
    }
}

/// Selects a linked tool, prompt or resource (a resource template by its URI template) and
/// fills its form with the link's arguments. Returns its tab, or `None` while the server
/// does not list it (templates are listed after connect).
pub fn open_linked(
    memory: Memory,
    state: &ServerState,
    target: &Target,
    args: Option<&Map<String, Value>>,
) -> Option<Kind> {
    let kind = Kind::of(target.kind);
    let item = items(kind, state)?
        .items
        .into_iter()
        .find(|item| item.key == target.name)?;
    memory.link_args(kind, &item.key, args);
    memory
        .selected
        .update(|keys| keys[kind as usize] = Some(item.key));
    Some(kind)
}

/// Why a linked tool, prompt or resource cannot be opened, once that is certain: the server
/// does not offer its kind, or lists it in full (templates too, for a resource; every page)
/// without it. `None` while it may still come (a list not in yet, or with pages to come).
pub fn link_missing(state: &ServerState, target: &Target) -> Option<String> {
    let kind = Kind::of(target.kind);
    let name = reveal_controls(&target.name);
    let Some(listed) = items(kind, state) else {
        return Some(format!(
            "The link names the {} {name}, but this server offers no {}s.",
            kind.noun(),
            kind.noun()
        ));
    };
    let waiting = kind == Kind::Resources && state.resources.is_some() && state.templates.is_none();
    let found = listed.items.iter().any(|item| item.key == target.name);
    (!found && !waiting && next_page(kind, state).is_none()).then(|| {
        format!(
            "This server does not list the {} {name} that the link names.",
            kind.noun()
        )
    })
}

/// The embed view's question before its first call: any page may frame the widget (invisibly,
/// even) and catch a click on Run, so the first call shows what would run and waits for a
/// second click on another button. Provided by the embed view; the full app has none.
#[derive(Clone, Copy)]
pub struct EmbedAsk {
    /// The person said yes once: later calls go at once.
    pub confirmed: RwSignal<bool>,
    /// The call waiting for that yes.
    pub asking: RwSignal<Option<EmbedCall>>,
    /// The widget's server address (its origin is named in the question).
    pub url: StoredValue<String>,
}

/// A call the embed view asks about.
#[derive(Clone, PartialEq)]
pub struct EmbedCall {
    /// `the tool write_file`.
    pub what: String,
    /// Its arguments as pretty JSON.
    pub arguments: String,
    /// The id of the button that makes it (clicked again once the person says yes).
    pub button: &'static str,
}

/// One item's panel without its list (the embed view narrowed by its address). The link's
/// arguments fill its form when its panel is first made (again after a reconnect).
#[component]
pub fn Focused(target: Target, args: Option<Map<String, Value>>) -> impl IntoView {
    let connection = use_connection();
    let kind = Kind::of(target.kind);
    let name = target.name;
    let found = {
        let name = name.clone();
        Memo::new(move |_| {
            connection.server.with(|state| {
                let listed = items(kind, state.as_ref()?)?;
                Some(listed.items.into_iter().find(|item| item.key == name))
            })
        })
    };
    move || {
        match found.get() {
        Some(Some(item)) => {
            view! { <super::lazy::ItemPanel kind item args=args.clone() embed=true/> }.into_any()
        }
        // Resource templates are listed after connect: until they are, a template is awaited.
        _ if kind == Kind::Resources
            && connection
                .server
                .with(|s| s.as_ref().is_some_and(|s| s.resources.is_some() && s.templates.is_none())) =>
        {
            view! { <p class="muted">"Waiting for the server's resource templates…"</p> }.into_any()
        }
        _ => view! {
            <p id="embed-missing" class="warning" role="alert">
                {format!("This server does not list the {} {}.", kind.noun(), reveal_controls(&name))}
            </p>
        }
        .into_any(),
    }
    }
}

#[cfg(test)]
mod tests {
    use super::outcome::{outcome_size, outcome_to_draw, LARGE_RESULT_BYTES};
    use super::*;
    use crate::protocol::error::{ErrorKind, Step};
    use crate::protocol::transport_choice::TransportUsed;
    use rmcp::model::CallToolResult;
    use serde_json::json;

    #[test]
    fn a_failed_template_list_leaves_the_resources_listed() {
        let info = serde_json::from_value(json!({
            "protocolVersion": "2025-11-25", "capabilities": {"resources": {}},
            "serverInfo": {"name": "s", "version": "1"}
        }))
        .unwrap();
        let resource =
            serde_json::from_value(json!({"uri": "test://info", "name": "info"})).unwrap();
        let state = ServerState {
            info,
            transport: TransportUsed {
                legacy: false,
                reason: String::new(),
            },
            era_reason: String::new(),
            era_warning: false,
            tools: None,
            prompts: None,
            resources: Some(Ok(vec![resource])),
            templates: Some(Err(McpError::new(
                Step::ListResourceTemplates,
                ErrorKind::HttpStatus {
                    status: 500,
                    body_start: "boom".into(),
                },
            ))),
            more: Default::default(),
        };
        let listed = items(Kind::Resources, &state).unwrap();
        assert_eq!(listed.items.len(), 1);
        assert_eq!(listed.items[0].key, "test://info");
        assert_eq!(listed.problems.len(), 1);
        assert!(listed.problems[0].starts_with("Listing resource templates failed"));
        assert!(items(Kind::Tools, &state).is_none());

        // A link to what is not there says so once it is certain.
        let target = |kind, name: &str| Target {
            kind,
            name: name.into(),
        };
        assert_eq!(
            link_missing(&state, &target(TargetKind::Resource, "test://info")),
            None
        );
        let missing = link_missing(&state, &target(TargetKind::Resource, "test://gone")).unwrap();
        assert!(
            missing.contains("does not list the resource test://gone"),
            "{missing}"
        );
        let none = link_missing(&state, &target(TargetKind::Tool, "echo")).unwrap();
        assert!(none.contains("offers no tools"), "{none}");
        // Templates not listed yet, or a page to come: not certain.
        let mut waiting = state.clone();
        waiting.templates = None;
        assert_eq!(
            link_missing(&waiting, &target(TargetKind::Resource, "test://gone")),
            None
        );
        let mut paged = state.clone();
        paged.more.set(ListKind::Resources, Some("next".into()));
        assert_eq!(
            link_missing(&paged, &target(TargetKind::Resource, "test://gone")),
            None
        );
    }

    #[test]
    fn load_more_continues_the_resources_before_their_templates_and_appends() {
        let info = serde_json::from_value(json!({
            "protocolVersion": "2025-11-25", "capabilities": {"resources": {}, "tools": {}},
            "serverInfo": {"name": "s", "version": "1"}
        }))
        .unwrap();
        let resource = |uri: &str| -> rmcp::model::Resource {
            serde_json::from_value(json!({"uri": uri, "name": uri})).unwrap()
        };
        let mut state = ServerState {
            info,
            transport: TransportUsed {
                legacy: false,
                reason: String::new(),
            },
            era_reason: String::new(),
            era_warning: false,
            tools: Some(Ok(Vec::new())),
            prompts: None,
            resources: Some(Ok(vec![resource("r0")])),
            templates: Some(Ok(Vec::new())),
            more: Default::default(),
        };
        assert_eq!(next_page(Kind::Resources, &state), None);
        state.more.set(ListKind::Templates, Some("t".into()));
        state.more.set(ListKind::Resources, Some("r".into()));
        assert_eq!(
            next_page(Kind::Resources, &state),
            Some((ListKind::Resources, "r".to_owned()))
        );
        assert_eq!(next_page(Kind::Tools, &state), None);
        append(&mut state, ListUpdate::Resources(Ok(vec![resource("r1")]))).unwrap();
        let listed = items(Kind::Resources, &state).unwrap();
        let keys: Vec<&str> = listed.items.iter().map(|i| i.key.as_str()).collect();
        assert_eq!(keys, ["r0", "r1"]);
        let failed = append(
            &mut state,
            ListUpdate::Resources(Err(McpError::new(
                Step::ListResources,
                ErrorKind::NotConnected,
            ))),
        );
        assert!(failed.unwrap_err().starts_with("Listing resources failed"));
        assert_eq!(items(Kind::Resources, &state).unwrap().items.len(), 2);
    }

    #[test]
    fn prompt_arguments_become_string_fields_with_required_markers() {
        let prompt: Prompt = serde_json::from_value(json!({
            "name": "args-prompt",
            "arguments": [
                {"name": "city", "description": "City name", "required": true},
                {"name": "state"}
            ]
        }))
        .unwrap();
        let node = crate::schema::Node::from_schema(&Value::Object(prompt_form(&prompt)));
        let crate::schema::Kind::Object(object) = &node.kind else {
            panic!("prompt arguments are an object form");
        };
        let names: Vec<_> = object
            .properties
            .iter()
            .map(|p| (p.name.as_str(), p.required))
            .collect();
        assert_eq!(names, vec![("city", true), ("state", false)]);
        let mut draft = crate::schema::initial(&node, true);
        *draft.at_mut(&[crate::schema::Step::Prop(0)]).unwrap() =
            crate::schema::Draft::Text("Paris".into());
        let (arguments, issues) =
            crate::schema::form_value(&node, &draft, crate::schema::Mode::Strict);
        assert!(issues.is_empty());
        assert_eq!(arguments, json!({"city": "Paris"}));
    }

    /// A list item with only the text the filter searches.
    fn plain_item(key: String, title: String, description: Option<String>) -> Item {
        Item {
            key,
            title,
            description,
            detail: None,
            form: None,
            template: None,
            output_schema: None,
            ui: None,
            app_only: false,
        }
    }

    #[test]
    fn filter_matches_key_title_and_description_case_insensitively() {
        let item = |key: &str, title: &str, description: Option<&str>| {
            plain_item(key.into(), title.into(), description.map(Into::into))
        };
        let texts = SearchTexts::of(&[
            item("get-sum", "Get Sum", Some("Returns the sum of two numbers")),
            item("echo", "echo", None),
            item("scale_4999", "scale_4999", Some("Scale tool number 4999")),
        ]);
        assert_eq!(matching(&texts, "SUM"), [0]);
        assert_eq!(matching(&texts, "  two num "), [0]);
        assert_eq!(matching(&texts, ""), [0, 1, 2]);
        assert_eq!(matching(&texts, "ECHO"), [1]);
        assert_eq!(matching(&texts, "scale_4999"), [2]);
        assert!(matching(&texts, "nothing").is_empty());
        // Never across two fields: the key's end and the title's start.
        assert!(matching(&texts, "sumget").is_empty());
        assert!(matching(&texts, "echoecho").is_empty());
        // Nor across two items: the end of one and the start of the next.
        assert!(matching(&texts, "echoscale").is_empty());
        assert!(matching(&texts, "numbers\necho").is_empty());
        assert_eq!(matching(&texts, "sum\nget"), [0]);
        // An item matched twice is listed once.
        assert_eq!(matching(&texts, "e"), [0, 1, 2]);
        assert!(matching(&SearchTexts::of(&[]), "x").is_empty());
        assert!(matching(&SearchTexts::of(&[]), "").is_empty());
    }

    // Native only: proptest does not build for wasm32.
    #[cfg(not(target_arch = "wasm32"))]
    mod filter_property {
        use super::*;

        proptest::proptest! {
            /// One search over all items finds what a search of each item's own text finds.
            #[test]
            fn one_search_finds_what_each_item_holds(
                parts in proptest::collection::vec(("[a-cA-C_ \n]{0,6}", "[a-cA-C_ ]{0,6}", proptest::option::of("[a-cA-C_ ]{0,6}")), 0..12),
                filter in "[a-cA-C_ \n]{0,4}",
            ) {
                let items: Vec<Item> = parts
                    .into_iter()
                    .map(|(key, title, description)| plain_item(key, title, description))
                    .collect();
                let needle = filter.trim().to_ascii_lowercase();
                let expected: Vec<usize> = items
                    .iter()
                    .enumerate()
                    .filter(|(_, item)| {
                        let mut text = String::new();
                        for part in [Some(&item.key), Some(&item.title), item.description.as_ref()]
                            .into_iter()
                            .flatten()
                        {
                            text.push_str(&part.to_ascii_lowercase());
                            text.push('\n');
                        }
                        needle.is_empty() || text.contains(&needle)
                    })
                    .map(|(n, _)| n)
                    .collect();
                proptest::prop_assert_eq!(matching(&SearchTexts::of(&items), &filter), expected);
            }
        }
    }

    #[test]
    fn a_large_result_is_sized_without_reading_it_all() {
        let result: CallToolResult = serde_json::from_value(json!({
            "content": [{"type": "text", "text": "x".repeat(2_000_000)}],
        }))
        .unwrap();
        let size = outcome_size(&Outcome::Tool(result), LARGE_RESULT_BYTES);
        assert!(size > LARGE_RESULT_BYTES);
        let small = Outcome::Failed("boom".into());
        assert_eq!(outcome_size(&small, LARGE_RESULT_BYTES), 4);
    }

    #[test]
    fn a_large_result_is_handed_to_its_view_and_a_small_one_copied() {
        let owner = Owner::new();
        owner.set();
        let text = "x".repeat(2_000_000);
        let result: CallToolResult = serde_json::from_value(json!({
            "content": [{"type": "text", "text": text}], "isError": true,
        }))
        .unwrap();
        let outcome = RwSignal::new(Some(Outcome::Tool(result)));
        let drawn = outcome_to_draw(outcome);
        assert!(matches!(&drawn, Some(Outcome::Tool(result)) if result.content.len() == 1));
        // What stays says how large it was and that it failed, and is released as such.
        let kept = outcome.get_untracked().unwrap();
        assert!(matches!(kept, Outcome::HandedOver { failed: true, .. }));
        assert!(kept.failed());
        assert_eq!(
            outcome_size(&kept, LARGE_RESULT_BYTES),
            outcome_size(&drawn.unwrap(), LARGE_RESULT_BYTES)
        );
        // A small outcome stays where it is, to be drawn again.
        outcome.set(Some(Outcome::Failed("boom".into())));
        assert!(matches!(outcome_to_draw(outcome), Some(Outcome::Failed(m)) if m == "boom"));
        assert!(matches!(outcome_to_draw(outcome), Some(Outcome::Failed(m)) if m == "boom"));
    }
}
