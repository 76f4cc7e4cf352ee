//! The tools, prompts and resources tabs. All three are one component: a filterable list and
//! the selected item's panel (form, action button, result). Sharing it keeps the three tabs
//! consistent, and keeps the wasm small: every distinct Leptos view costs code.

mod kept;
mod keys;
pub(super) mod lists;
pub(super) mod model;
pub(super) mod outcome;
pub(super) mod outcome_view;
pub(super) mod panel;
mod panel_state;
pub(super) mod result_view;
mod rows;
mod run;
mod window;

use super::address::Target;
use super::lazy::panel::{prefetch_panels, ItemPanel};
use super::lazy::views::ListLifetime;
use super::store::{use_connection, Connection};
use crate::client::ServerState;
use crate::protocol::error::reveal_controls;
use leptos::prelude::*;
use leptos::task::spawn_local;
use lists::{items, matching, next_page, SearchTexts};
use model::{Kind, Memory};
use rows::Row;
use serde_json::{Map, Value};

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
        prefetch_panels(warm_up_tools);
    }
    let memory = connection.memory();
    let filter = RwSignal::new(String::new());
    let (filter_id, ..) = kind.ids();
    keys::focus_filter_on_slash(filter_id);
    let listed = Memo::new(move |_| {
        connection
            .server()
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
        let other = memory
            .selected
            .with_untracked(|keys| keys[kind as usize].as_deref() != Some(key.as_str()));
        if kind == Kind::Tools && other && connection.has_apps(None) {
            spawn_local(async move {
                connection.close_apps(None).await;
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
            .server()
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
            if let Err(error) = connection.load_more(list, cursor, all).await {
                load_error.set(Some(error));
            }
            loading.set(false);
        });
    };
    view! {
        <section class="split">
            <div class="list-pane">
                <input id=filter_id type="search" placeholder=format!("Filter {}s", kind.noun())
                    aria-label=format!("Filter {}s", kind.noun())
                    prop:value=move || filter.get() on:input=on_filter on:keydown=on_filter_key/>
                <ListLifetime kind/>
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
                    Some(Ok(item)) => view! { <ItemPanel kind item args=None embed=false/> }.into_any(),
                    Some(Err(key)) => view! {
                        <p class="muted gone">{format!("The server no longer lists the {} {key}.", kind.noun())}</p>
                    }.into_any(),
                    None => view! { <p class="muted">{format!("Select a {}.", kind.noun())}</p> }.into_any(),
                }}
            </div>
        </section>
    }
}

/// A warm-up connection's tools tab with its echo tool opened, its form filled with `args` as a
/// link's arguments fill it; `None` if the server does not list it. Handed to the panel chunk's
/// tool-call warm-up (`panel::warm_up_call`), which does not import the list it is drawn from.
fn warm_up_tools(
    connection: Connection,
    target: Target,
    args: Map<String, Value>,
) -> Option<AnyView> {
    connection.server().with_untracked(|state| {
        open_linked(connection.memory(), state.as_ref()?, &target, Some(&args))
    })?;
    Some(view! { <Browser kind=Kind::Tools/> }.into_any())
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
            connection.server().with(|state| {
                let listed = items(kind, state.as_ref()?)?;
                Some(listed.items.into_iter().find(|item| item.key == name))
            })
        })
    };
    move || {
        match found.get() {
        Some(Some(item)) => {
            view! { <ItemPanel kind item args=args.clone() embed=true/> }.into_any()
        }
        // Resource templates are listed after connect: until they are, a template is awaited.
        _ if kind == Kind::Resources
            && connection
                .server()
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
    use super::lists::{append, prompt_form};
    use super::model::Item;
    use super::outcome::{outcome_size, outcome_to_draw, Outcome, LARGE_RESULT_BYTES};
    use super::*;
    use crate::client::{ListKind, ListUpdate};
    use crate::protocol::error::McpError;
    use crate::protocol::error::{ErrorKind, Step};
    use crate::protocol::transport_choice::TransportUsed;
    use crate::ui::address::TargetKind;
    use rmcp::model::CallToolResult;
    use rmcp::model::Prompt;
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
