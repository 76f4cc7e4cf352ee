//! The tools, prompts and resources tabs. All three are one component: a filterable list and
//! the selected item's panel (form, action button, result). Sharing it keeps the three tabs
//! consistent, and keeps the wasm small: every distinct Leptos view costs code.

mod keys;
mod rows;
mod window;

use super::address::{Target, TargetKind};
use super::content::{
    content_size, human_size, resource_size, value_size, Content, ContentList, ResourceContent,
    TextBlock,
};
use super::form::{BrowserPatterns, FormState, SchemaForm};
use super::server_requests::UrlPages;
use super::use_connection;
use crate::client::browser::timer::{after_paint, sleep};
use crate::client::{ListKind, ListUpdate, ServerState};
use crate::protocol::apps::ToolUi;
use crate::protocol::error::{reveal_controls, ErrorKind, McpError, Step};
use crate::protocol::jsonrpc::RequestId;
use crate::protocol::mcp::{decode_result, TOOLS_CALL};
use crate::protocol::server_requests::UrlElicitation;
use crate::schema::uri_template::{expand_arguments, form_schema, UriTemplate};
use crate::schema::validate;
use leptos::prelude::*;
use leptos::task::spawn_local;
use rmcp::model::{CallToolResult, GetPromptResult, Prompt, ReadResourceResult};
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
struct Item {
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
/// One per [`super::Connection`]; [`Memory::forget`] starts afresh for a new session.
#[derive(Clone, Copy)]
pub struct Memory {
    selected: RwSignal<[Option<String>; 3]>,
    panels: StoredValue<Panels, LocalStorage>,
}

struct Panels {
    /// Owns the panels' signals, apart from the views that show them (which come and go).
    owner: Owner,
    states: std::collections::HashMap<(usize, String), PanelState>,
}

impl Memory {
    pub fn new() -> Self {
        Self {
            selected: RwSignal::new(Default::default()),
            panels: StoredValue::new_local(Panels {
                owner: Owner::new(),
                states: Default::default(),
            }),
        }
    }

    /// Forgets everything (a new session). Call when no panel is shown: the old panels'
    /// signals are disposed.
    pub fn forget(&self) {
        self.selected.set(Default::default());
        let old = self.panels.try_update_value(|panels| {
            panels.states.clear();
            std::mem::replace(&mut panels.owner, Owner::new())
        });
        if let Some(old) = old {
            old.cleanup();
        }
    }

    /// The state of an item's panel, made on first use (and again when its form's schema
    /// changed on the server); a new one's form starts from `args` when given (a link's).
    fn panel(&self, kind: Kind, item: &Item, args: Option<&Map<String, Value>>) -> PanelState {
        let key = (kind as usize, item.key.clone());
        self.panels
            .try_update_value(|panels| {
                if let Some(state) = panels.states.get(&key) {
                    if state.is_for(&item.form) {
                        return *state;
                    }
                }
                let state = panels.owner.with(|| PanelState::new(item.form.clone()));
                if let (Some(form), Some(args)) = (state.form, args) {
                    form.fill(&Value::Object(args.clone()));
                }
                panels.states.insert(key, state);
                state
            })
            .unwrap_or_else(|| PanelState::new(item.form.clone()))
    }
}

impl Memory {
    /// The selected item of a tab and what its form holds now (as entered, unchecked), for
    /// the share dialog.
    pub fn current(&self, kind: Kind) -> Option<(String, Option<Map<String, Value>>)> {
        let key = self
            .selected
            .with_untracked(|keys| keys[kind as usize].clone())?;
        let state = self
            .panels
            .try_with_value(|panels| panels.states.get(&(kind as usize, key.clone())).copied())
            .flatten();
        let args = state
            .and_then(|state| state.form)
            .and_then(|form| form.current_arguments());
        Some((key, args))
    }

    /// The server says a resource changed: when subscribed to it, read it again and mark the
    /// panel ("updated at HH:MM:SS"), whether or not the panel is shown.
    pub fn resource_updated(&self, connection: super::Connection, uri: &str) {
        let key = (Kind::Resources as usize, uri.to_owned());
        let Some(Some(state)) = self
            .panels
            .try_with_value(|panels| panels.states.get(&key).copied())
        else {
            return;
        };
        if !state.subscribed.get_untracked() {
            return;
        }
        let Some(client) = connection.client() else {
            return;
        };
        let uri = uri.to_owned();
        spawn_local(async move {
            let read = client.read_resource(&uri).await;
            if !state.subscribed.try_get_untracked().unwrap_or(false) {
                return; // unsubscribed (or a new session) meanwhile
            }
            state.outcome.set(Some(match read {
                Ok(read) => Outcome::Resource(read),
                Err(error) => Outcome::Failed(error.to_string()),
            }));
            state.updated_at.set(Some(clock_time()));
            state.updates.update(|n| *n += 1);
            state.runs.update(|n| *n += 1);
        });
    }
}

/// The local time of day, HH:MM:SS.
fn clock_time() -> String {
    let now = js_sys::Date::new_0();
    format!(
        "{:02}:{:02}:{:02}",
        now.get_hours(),
        now.get_minutes(),
        now.get_seconds()
    )
}

impl Default for Memory {
    fn default() -> Self {
        Self::new()
    }
}

#[derive(Clone, Copy)]
struct PanelState {
    schema: StoredValue<Option<Arc<Map<String, Value>>>>,
    form: Option<FormState>,
    busy: RwSignal<bool>,
    outcome: RwSignal<Option<Outcome>>,
    /// How many actions have finished: lets a reader tell a new result from the previous one.
    runs: RwSignal<u32>,
    /// The tool call in flight: its id is the progress token and what Cancel takes.
    running: RwSignal<Option<RequestId>>,
    /// The URI a template's form expands to, shown above the result.
    expanded: RwSignal<Option<String>>,
    /// A resource this session is subscribed to (`resources/subscribe`).
    subscribed: RwSignal<bool>,
    /// How many `resources/updated` notifications were read again, and when the last was.
    updates: RwSignal<u32>,
    updated_at: RwSignal<Option<String>>,
}

impl PanelState {
    fn new(schema: Option<Arc<Map<String, Value>>>) -> Self {
        Self {
            form: schema
                .as_deref()
                .map(|schema| FormState::new(Value::Object(schema.clone()))),
            schema: StoredValue::new(schema),
            busy: RwSignal::new(false),
            outcome: RwSignal::new(None),
            runs: RwSignal::new(0),
            running: RwSignal::new(None),
            expanded: RwSignal::new(None),
            subscribed: RwSignal::new(false),
            updates: RwSignal::new(0),
            updated_at: RwSignal::new(None),
        }
    }
}

impl PanelState {
    /// Whether this state was made for `schema` (the same list, or an equal schema).
    fn is_for(&self, schema: &Option<Arc<Map<String, Value>>>) -> bool {
        self.schema.with_value(|mine| match (mine, schema) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b) || a == b,
            (None, None) => true,
            _ => false,
        })
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
            _ if item.title != item.key => Some(item.title.clone()),
            _ => item.description.clone(),
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
    if kind == Kind::Tools && !connection.id.with_value(|id| id.starts_with("warm-up")) {
        warm_up_call();
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
        if kind == Kind::Tools && other && super::apps::has_apps(&server, None) {
            spawn_local(async move {
                super::apps::close_apps(&server, None).await;
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
    });
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
        if let Some((_, key)) = row_event(kind, &event) {
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
                    prop:value=move || filter.get() on:input=on_filter/>
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
                    Some(Ok(item)) => {
                        let state = memory.panel(kind, &item, None);
                        view! { <Panel kind item state/> }.into_any()
                    }
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
    memory.panel(kind, &item, args);
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
            let state = connection.memory.panel(kind, &item, args.as_ref());
            // The host page hears of each result (the name and whether it failed, no content).
            let key = item.key.clone();
            Effect::new(move |seen: Option<u32>| {
                let runs = state.runs.get();
                if seen.is_some_and(|seen| seen != runs) {
                    let failed = state
                        .outcome
                        .with_untracked(|outcome| outcome.as_ref().is_some_and(Outcome::failed));
                    super::embed::post_result(kind.target(), &key, failed);
                }
                runs
            });
            view! { <Panel kind item state/> }.into_any()
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

/// How long typing must pause before completions are asked for.
const COMPLETION_PAUSE_MS: u32 = 200;

/// Asks the server for completions of each prompt argument as it is typed (when the server
/// offers completions), and shows them as the input's suggestions.
fn suggest_completions(connection: super::Connection, prompt: String, form: FormState) {
    let offered = connection.server.with_untracked(|state| {
        state
            .as_ref()
            .is_some_and(|s| s.info.capabilities.completions.is_some())
    });
    if !offered {
        return;
    }
    for (argument, value) in form.text_fields() {
        let prompt = prompt.clone();
        // Bumped on every keystroke: a request waits until typing pauses, and an answer
        // to older text than what is typed now is dropped.
        let typing = StoredValue::new(0u64);
        Effect::new(move |previous: Option<String>| {
            let typed = value.get();
            if previous.as_ref() != Some(&typed) {
                typing.update_value(|n| *n += 1);
                let this = typing.get_value();
                let current = move || typing.try_get_value() == Some(this);
                if let Some(client) = connection.client() {
                    let (prompt, argument, text) =
                        (prompt.clone(), argument.clone(), typed.clone());
                    spawn_local(async move {
                        sleep(COMPLETION_PAUSE_MS).await;
                        if !current() {
                            return;
                        }
                        if let Ok(values) = client
                            .complete_prompt_argument(&prompt, &argument, &text)
                            .await
                        {
                            if current() {
                                form.suggest(&argument, values);
                            }
                        }
                    });
                }
            }
            typed
        });
    }
}

/// What an action returned.
#[derive(Debug, Clone)]
pub(super) enum Outcome {
    Failed(String),
    /// The server needs the person to visit pages first (-32042): the error sentence and
    /// the pages; the same request can then be sent again.
    NeedsPages(String, Vec<UrlElicitation>),
    Tool(CallToolResult),
    /// The tool runs as this task (shown live, with its result once it ends).
    Task(String),
    Prompt(GetPromptResult),
    Resource(ReadResourceResult),
    /// A result of this many bytes, let go when its panel closed so that memory goes back
    /// to what it was (see [`LARGE_RESULT_BYTES`]); acting again shows a new one.
    Released(usize),
    /// A large result (this many bytes; whether it failed) handed over to the view that shows
    /// it, which holds it (for "Show more", Copy and Download) and lets it go when it closes:
    /// not copied (10 MB took 3-17 ms of the task that draws it) nor held twice.
    HandedOver {
        size: usize,
        failed: bool,
    },
}

impl Outcome {
    /// Whether the action failed (an error, or a tool that reported one).
    fn failed(&self) -> bool {
        match self {
            Outcome::Failed(_) | Outcome::NeedsPages(..) => true,
            Outcome::Tool(result) => result.is_error == Some(true),
            Outcome::HandedOver { failed, .. } => *failed,
            _ => false,
        }
    }
}

/// The outcome in `outcome`, to draw: a copy of a small one (it stays, to be shown again when
/// its panel opens again); a large one itself, [`Outcome::HandedOver`] left in its place (its
/// panel lets it go when it closes anyway). Tracks `outcome`.
fn outcome_to_draw(outcome: RwSignal<Option<Outcome>>) -> Option<Outcome> {
    let large = outcome.with(|outcome| {
        outcome
            .as_ref()
            .filter(|outcome| !matches!(outcome, Outcome::HandedOver { .. }))
            .map(|outcome| outcome_size(outcome, LARGE_RESULT_BYTES))
            .filter(|&size| size > LARGE_RESULT_BYTES)
    });
    match large {
        Some(size) => outcome
            .try_update_untracked(|outcome| {
                let failed = outcome.as_ref().is_some_and(Outcome::failed);
                outcome.replace(Outcome::HandedOver { size, failed })
            })
            .flatten(),
        None => outcome.get_untracked(),
    }
}

/// A result larger than this is not kept once its panel closes (another item, tab or
/// server, or a disconnect); smaller ones are, to be seen again.
const LARGE_RESULT_BYTES: usize = 1024 * 1024;

/// About how many bytes an outcome holds, counted until past `limit`.
fn outcome_size(outcome: &Outcome, limit: usize) -> usize {
    match outcome {
        Outcome::Failed(message) | Outcome::NeedsPages(message, _) => message.len(),
        Outcome::Task(_) | Outcome::Released(_) => 0,
        Outcome::HandedOver { size, .. } => *size,
        Outcome::Tool(result) => result
            .content
            .iter()
            .map(content_size)
            .sum::<usize>()
            .saturating_add(
                result
                    .structured_content
                    .as_ref()
                    .map_or(0, |value| value_size(value, limit)),
            ),
        Outcome::Prompt(rendered) => rendered
            .messages
            .iter()
            .map(|message| content_size(&message.content))
            .sum(),
        Outcome::Resource(read) => read.contents.iter().map(resource_size).sum(),
    }
}

/// V8 compiles each wasm function at its first call, so a page's first tool call would wait
/// for the code of checking its form and of reading its result to compile (a few ms each way
/// on a slow machine). When a tool's panel opens, that code runs once after the panel's first
/// paint, on harmless inputs, its results dropped: the form's check on what it holds, decoding a small
/// result and drawing it into elements that are never attached to the page. Nothing is sent,
/// shown or kept. Once per page for
/// each part (the form's check waits for a tool with a form).
fn warm_up(form: Option<FormState>) {
    use std::cell::Cell;
    thread_local! {
        static RESULT: Cell<bool> = const { Cell::new(false) };
        static FORM: Cell<bool> = const { Cell::new(false) };
    }
    let result = !RESULT.with(|done| done.replace(true));
    let form = form.filter(|_| !FORM.with(|done| done.replace(true)));
    if !result && form.is_none() {
        return;
    }
    spawn_local(async move {
        after_paint().await;
        if let Some(form) = form {
            form.check_unseen();
        }
        if result {
            let sample = serde_json::json!({ "content": [{ "type": "text", "text": "warm" }] });
            if let Ok(sample) = decode_result::<CallToolResult>(TOOLS_CALL, sample) {
                super::draw_detached(|| {
                    let outcome = Outcome::Tool(sample);
                    view! { <OutcomeView id=None outcome output_schema=None/> }
                });
            }
            super::content::warm_up();
        }
    });
}

/// The tool call's warm-up connection id (a server entry's id is made of a time and a number).
const WARM_UP_CALL_ID: &str = "warm-up-call";

thread_local! {
    /// The tool call warm-up's manager while it runs: [`super::Connection::client`] asks it for
    /// [`WARM_UP_CALL_ID`], so the warm-up's panel calls its in-memory server.
    pub(super) static WARM_UP_MANAGER: std::cell::RefCell<Option<crate::client::manager::Manager>> =
        const { std::cell::RefCell::new(None) };
}

/// V8 compiles each wasm function at its first call, so the page's first tool call waited for
/// the code of its own path to compile: the Run click's handler, the panel's task, the client's
/// call, reading its answer, and the effects that show "Working…", the Cancel button and the
/// result (a few milliseconds each way on a slow machine, more than the call itself; [`warm_up`]
/// covers only the form's check and drawing a result). Once per page, in idle time after a
/// server's tools are first drawn, a tool call runs through that same code: a connection of its
/// own connects to the in-memory server (`client::warm_up`: nothing is sent), its tools tab is
/// drawn with the echo tool's panel into an element never attached to the page, its form filled
/// as a link's arguments fill it and its Run button clicked; once the result is drawn,
/// everything is dropped. Nothing is sent, shown or kept (its wire log and events are its own).
fn warm_up_call() {
    use crate::client::browser::timer::idle;
    use leptos::tachys::view::{Mountable, Render};
    use std::cell::Cell;
    use wasm_bindgen::JsCast;
    thread_local! {
        static DONE: Cell<bool> = const { Cell::new(false) };
    }
    if DONE.with(|done| done.replace(true)) {
        return;
    }
    spawn_local(async move {
        idle().await;
        let manager = super::warm_up_manager();
        WARM_UP_MANAGER.with(|warm_up| *warm_up.borrow_mut() = Some(manager.clone()));
        let (owner, connection) = super::warm_up_connection(&manager, WARM_UP_CALL_ID).await;
        idle().await;
        // The echo tool's panel, its form filled as a link's arguments fill it.
        let target = Target {
            kind: TargetKind::Tool,
            name: "echo".to_owned(),
        };
        let mut args = Map::new();
        args.insert("message".to_owned(), Value::from("warm"));
        let drawn = owner.with(|| {
            provide_context(connection);
            connection.server.with_untracked(|state| {
                open_linked(connection.memory, state.as_ref()?, &target, Some(&args))
            })?;
            let container = document().create_element("div").ok()?;
            let mut view = view! { <Browser kind=Kind::Tools/> }.into_any().build();
            view.mount(&container, None);
            Some((container, view))
        });
        if let Some((container, _view)) = &drawn {
            let find = |selector: &str| container.query_selector(selector).ok().flatten();
            if let Some(run) =
                find("#run-tool").and_then(|run| run.dyn_into::<web_sys::HtmlElement>().ok())
            {
                run.click();
                // The in-memory server answers in a later task; the result is drawn soon after.
                for _ in 0..200 {
                    sleep(5).await;
                    let runs =
                        find("#tool-panel").and_then(|panel| panel.get_attribute("data-runs"));
                    if runs.as_deref().is_some_and(|runs| runs != "0") {
                        break;
                    }
                }
            }
        }
        drop(drawn);
        super::end_warm_up(owner, &manager, WARM_UP_CALL_ID).await;
        WARM_UP_MANAGER.with(|warm_up| warm_up.borrow_mut().take());
    });
}

#[component]
fn Panel(kind: Kind, item: Item, state: PanelState) -> impl IntoView {
    let connection = use_connection();
    let embed_ask = use_context::<EmbedAsk>();
    let (_, panel_id, button_id, result_id) = kind.ids();
    if kind == Kind::Tools {
        warm_up(state.form);
    }
    let PanelState {
        form,
        busy,
        outcome,
        runs,
        running,
        expanded,
        subscribed,
        updates,
        updated_at,
        ..
    } = state;
    // A concrete resource of a server that offers subscriptions gets a toggle.
    let subscribable = kind == Kind::Resources
        && item.template.is_none()
        && connection.server.with_untracked(|state| {
            state.as_ref().is_some_and(|s| {
                s.info
                    .capabilities
                    .resources
                    .as_ref()
                    .and_then(|r| r.subscribe)
                    == Some(true)
            })
        });
    let toggling = RwSignal::new(false);
    let uri = item.key.clone();
    let toggle_subscription = move |_| {
        let Some(client) = connection.client() else {
            return;
        };
        let uri = uri.clone();
        let subscribe = !subscribed.get_untracked();
        toggling.set(true);
        spawn_local(async move {
            let done = if subscribe {
                client.subscribe_resource(&uri).await
            } else {
                client.unsubscribe_resource(&uri).await
            };
            // Unsubscribed here even if the server refused: its updates are not wanted.
            subscribed.set(subscribe && done.is_ok());
            if let Err(error) = done {
                outcome.set(Some(Outcome::Failed(error.to_string())));
            }
            toggling.set(false);
        });
    };
    // A result of megabytes lives as long as this view: when it closes, it is let go.
    on_cleanup(move || {
        let large = outcome.try_with_untracked(|outcome| {
            outcome
                .as_ref()
                .map(|outcome| outcome_size(outcome, LARGE_RESULT_BYTES))
                .filter(|&size| size > LARGE_RESULT_BYTES)
        });
        if let Some(Some(size)) = large {
            outcome.try_set(Some(Outcome::Released(size)));
        }
    });
    let output_schema = item.output_schema.clone();
    // The tool's MCP App for the last result (a new run replaces it).
    let app = RwSignal::new(None::<super::apps::AppCall>);
    let ui = item.ui.clone();
    if let (Kind::Prompts, Some(form)) = (kind, form) {
        suggest_completions(connection, item.key.clone(), form);
    }
    // "View app": the tool's app on its own, without calling the tool (no input, no result).
    let view_app = {
        let (tool, uri) = (item.key.clone(), item.ui.clone());
        move |_| {
            let (tool, Some(uri)) = (tool.clone(), uri.clone()) else {
                return;
            };
            spawn_local(async move {
                super::apps::close_apps(&connection.id.get_value(), Some(&tool)).await;
                let _ = app.try_set(None);
                let _ = app.try_set(Some(super::apps::AppCall {
                    connection,
                    tool,
                    uri,
                    arguments: Map::new(),
                    result: None,
                    call_id: None,
                }));
            });
        }
    };
    let has_app = kind == Kind::Tools && item.ui.is_some();
    let key = item.key.clone();
    let template = item.template.clone();
    let act = move |_| {
        let arguments = match form {
            Some(form) => match form.arguments() {
                Some(arguments) => arguments,
                None => return,
            },
            None => Map::new(),
        };
        if let Some(ask) = embed_ask.filter(|ask| !ask.confirmed.get_untracked()) {
            ask.asking.set(Some(EmbedCall {
                what: format!("the {} {}", kind.noun(), reveal_controls(&key)),
                arguments: serde_json::to_string_pretty(&arguments).unwrap_or_default(),
                button: button_id,
            }));
            return;
        }
        let Some(client) = connection.client() else {
            outcome.set(Some(Outcome::Failed("Not connected.".to_owned())));
            return;
        };
        let key = match &template {
            Some(template) => {
                let uri = expand_arguments(&UriTemplate::parse(template), &arguments);
                expanded.set(Some(uri.clone()));
                uri
            }
            None => key.clone(),
        };
        let ui = ui.clone();
        // The request is spawned before `busy` changes, so it leaves (its first poll reaches
        // fetch when no app must close first) before the effects that show "Working…" run.
        spawn_local(async move {
            // The last run's app is torn down (its answer awaited, briefly) before its frame
            // goes and the tool runs again.
            if kind == Kind::Tools {
                super::apps::close_apps(&connection.id.get_value(), Some(&key)).await;
            }
            if app.try_with_untracked(Option::is_some) == Some(true) {
                let _ = app.try_set(None);
            }
            let result = match kind {
                Kind::Tools if client.runs_as_task(&key) => {
                    let (id, call) = client.call_tool_as_task(&key, arguments, None);
                    running.set(Some(id.clone()));
                    call.await.map(|task| {
                        let task_id = task.task_id.clone();
                        super::tasks::follow(connection, client.clone(), key.clone(), id, task);
                        Outcome::Task(task_id)
                    })
                }
                Kind::Tools if ui.is_some() => {
                    // A tool with an MCP App: its result as the server sent it goes to the app
                    // (undecoded: nothing the server added is lost, and no serializer of rmcp's
                    // types is needed), decoded for the panel.
                    let app_arguments = arguments.clone();
                    let (id, call) = client.call_tool_json(&key, arguments);
                    running.set(Some(id.clone()));
                    let raw = call.await;
                    let result = raw.clone().and_then(|value| {
                        decode_result::<CallToolResult>(TOOLS_CALL, value)
                            .map_err(|kind| McpError::new(Step::CallTool, kind))
                    });
                    if let (Ok(raw), Ok(_), Some(uri)) = (raw, &result, ui) {
                        let _ = app.try_set(Some(super::apps::AppCall {
                            connection,
                            tool: key.clone(),
                            uri,
                            arguments: app_arguments,
                            result: Some(raw),
                            call_id: Some(id),
                        }));
                    }
                    result.map(Outcome::Tool)
                }
                Kind::Tools => {
                    let (id, call) = client.call_tool(&key, arguments);
                    running.set(Some(id));
                    call.await.map(Outcome::Tool)
                }
                Kind::Prompts => client
                    .get_prompt(&key, arguments)
                    .await
                    .map(Outcome::Prompt),
                Kind::Resources => client.read_resource(&key).await.map(Outcome::Resource),
            };
            running.set(None);
            outcome.set(Some(result.unwrap_or_else(|e| match e.kind {
                ErrorKind::UrlElicitationRequired {
                    ref elicitations, ..
                } => Outcome::NeedsPages(e.to_string(), elicitations.clone()),
                _ => Outcome::Failed(e.to_string()),
            })));
            runs.update(|n| *n += 1);
            busy.set(false);
        });
        busy.set(true);
    };
    let cancel = move |_| {
        if let (Some(client), Some(id)) = (connection.client(), running.get_untracked()) {
            client.cancel(&id);
        }
    };
    // Progress reported for the call in flight.
    let progress = move || {
        let id = running.get()?;
        connection
            .progress
            .get()
            .filter(|progress| progress.request == id)
    };
    view! {
        <div id=panel_id class="panel" data-runs=move || runs.get()>
            <h2>{reveal_controls(&item.title)} {(item.title != item.key && kind != Kind::Resources).then(|| view! { <code class="muted">{reveal_controls(&item.key)}</code> })}</h2>
            {item.detail.map(|d| view! { <p><code>{d}</code></p> })}
            {item.description.map(|d| view! { <p class="description">{d}</p> })}
            {form.map(|state| view! { <SchemaForm state/> })}
            <button id=button_id on:click=act disabled=move || busy.get()>
                {move || if busy.get() { "Working…" } else { kind.button_label() }}
            </button>
            <Show when=move || running.with(Option::is_some)>
                <button id="cancel-request" class="secondary" on:click=cancel>"Cancel"</button>
            </Show>
            {has_app.then(|| view! {
                <button id="view-app" class="secondary" title="Open the tool's MCP App on its own, without calling the tool"
                    on:click=view_app disabled=move || busy.get()>"View app"</button>
            })}
            {subscribable.then(|| view! {
                <button id="subscribe-resource" class="secondary" data-subscribed=move || subscribed.get().to_string()
                    on:click=toggle_subscription disabled=move || toggling.get()>
                    {move || if subscribed.get() { "Unsubscribe" } else { "Subscribe" }}
                </button>
            })}
            {move || updated_at.get().map(|time| view! {
                <p id="resource-updated" class="updated" data-updates=move || updates.get()>
                    {format!("updated at {time}")}
                </p>
            })}
            {move || progress().map(|p| {
                let label = match (p.total, &p.message) {
                    (Some(total), Some(message)) => format!("{} / {total}: {message}", p.progress),
                    (Some(total), None) => format!("{} / {total}", p.progress),
                    (None, Some(message)) => format!("{}: {message}", p.progress),
                    (None, None) => p.progress.to_string(),
                };
                view! {
                    <div id="progress" class="progress">
                        <progress max=p.total.unwrap_or(0.0) value=p.progress></progress>
                        <span class="progress-label">{label}</span>
                    </div>
                }
            })}
            {move || expanded.get().map(|uri| view! { <p class="expanded-uri">"Reading " <code>{uri}</code></p> })}
            // While a new action runs, the last result stays visible but marked as previous.
            // The region is there before any result, so a screen reader announces each one.
            <div class="outcome-live" aria-live="polite" aria-busy=move || busy.get().to_string()>
            {move || outcome_to_draw(outcome).map(|outcome| view! {
                <div class="outcome" class:previous=move || busy.get()>
                    <Show when=move || busy.get()>
                        <p class="muted previous-note">"Previous result; the new one is on its way."</p>
                    </Show>
                    <OutcomeView id=Some(result_id) outcome output_schema=output_schema.clone()/>
                </div>
            })}
            </div>
            {move || app.get().map(super::lazy::mcp_app)}
        </div>
    }
}

#[component]
pub(super) fn OutcomeView(
    id: Option<&'static str>,
    outcome: Outcome,
    output_schema: Option<Arc<Map<String, Value>>>,
) -> impl IntoView {
    let is_error = match &outcome {
        Outcome::HandedOver { .. } => false,
        outcome => outcome.failed(),
    };
    let body = match outcome {
        Outcome::Failed(message) => view! { <p class="error">{message}</p> }.into_any(),
        Outcome::NeedsPages(message, pages) => view! {
            <p class="error">{message}</p>
            <UrlPages pages/>
        }
        .into_any(),
        Outcome::Task(id) => view! { <super::tasks::TaskCard id/> }.into_any(),
        // Drawn only if its view went without its panel's cleanup (which releases it).
        Outcome::Released(size) | Outcome::HandedOver { size, .. } => view! {
            <p class="muted released">{format!(
                "The last result ({}) was let go when its panel closed, to free memory; run again to see it.",
                human_size(size),
            )}</p>
        }
        .into_any(),
        Outcome::Tool(result) => {
            let structured = result
                .structured_content
                .as_ref()
                .map(|value| serde_json::to_string(value).unwrap_or_default());
            let conformance = output_schema
                .filter(|_| result.is_error != Some(true))
                .map(|schema| view! { <OutputCheck schema=Value::Object((*schema).clone()) structured=result.structured_content.clone()/> });
            view! {
                {(result.is_error == Some(true)).then(|| view! { <p class="error">"The tool reported an error."</p> })}
                {conformance}
                <ContentList content=result.content/>
                {structured.map(|text| view! {
                    <h3>"Structured content"</h3>
                    <div class="structured"><TextBlock text/></div>
                })}
            }
            .into_any()
        }
        Outcome::Prompt(rendered) => view! {
            {rendered.description.map(|d| view! { <p class="description">{d}</p> })}
            {rendered.messages.into_iter().map(|message| {
                let role = serde_json::to_value(&message.role).ok().and_then(|r| r.as_str().map(str::to_owned)).unwrap_or_default();
                view! {
                    <div class="prompt-message">
                        <span class="role">{role}</span>
                        <Content block=message.content/>
                    </div>
                }
            }).collect_view()}
        }
        .into_any(),
        Outcome::Resource(read) if read.contents.is_empty() => {
            view! { <p class="muted">"The resource is empty."</p> }.into_any()
        }
        Outcome::Resource(read) => read
            .contents
            .into_iter()
            .map(|contents| view! { <ResourceContent contents/> })
            .collect_view()
            .into_any(),
    };
    view! { <div id=id class="result" class:result-error=is_error>{body}</div> }
}

/// A tool's structuredContent checked against its outputSchema (skipped for errors).
#[component]
fn OutputCheck(schema: Value, structured: Option<Value>) -> impl IntoView {
    let Some(structured) = structured else {
        return view! {
            <div class="output-check output-invalid">
                <p class="error">"The tool declares an output schema but returned no structuredContent."</p>
            </div>
        }
        .into_any();
    };
    let report = validate(&schema, &structured, &BrowserPatterns);
    let incomplete = report
        .incomplete
        .map(|why| view! { <p class="muted">{why}</p> });
    if report.issues.is_empty() {
        return view! {
            <div class="output-check output-valid">
                <p class="ok">"structuredContent matches the output schema."</p>
                {incomplete}
            </div>
        }
        .into_any();
    }
    let count = report.issues.len();
    view! {
        <div class="output-check output-invalid">
            <p class="error">{format!("structuredContent does not match the output schema ({count} problem{}):", if count == 1 { "" } else { "s" })}</p>
            <ul class="field-errors">
                {report.issues.into_iter().map(|issue| {
                    let at = if issue.path.is_empty() { "(whole value)".to_owned() } else { issue.path.clone() };
                    view! { <li class="error" data-issue-path=issue.path><code>{at}</code>" "{issue.message}</li> }
                }).collect_view()}
            </ul>
            {incomplete}
        </div>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::error::{ErrorKind, Step};
    use crate::protocol::transport_choice::TransportUsed;
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
