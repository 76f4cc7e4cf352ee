//! An item's panel (the panel chunk): its form, its action and the result. Fetched while a
//! connected server's list is shown (`prefetch_panels`): the list never waits for it.

use super::load::ChunkUnavailable;
use crate::ui::browse::model::{Item, Kind};
use crate::ui::browse::panel::ToolsTab;
use leptos::prelude::*;
use send_wrapper::SendWrapper;
use wasm_split_helpers::wasm_split;

#[wasm_split(panel, fallible)]
fn panel_item(
    kind: Kind,
    item: Item,
    args: Option<serde_json::Map<String, serde_json::Value>>,
    report: bool,
) -> Result<AnyView, ChunkUnavailable> {
    Ok(crate::ui::browse::panel::item_panel(
        kind, item, args, report,
    ))
}

#[wasm_split(panel, fallible)]
fn panel_warm_up(tools_tab: ToolsTab) -> Result<(), ChunkUnavailable> {
    crate::ui::browse::panel::warm_up_call(tools_tab);
    Ok(())
}

/// Fetches the panels' chunk (once per page), and in idle time after it compiles a tool call
/// there (`browse::panel::warm_up_call`, drawing the list it is handed). Only after a frame: the list is painted before a byte
/// of the panels is asked for, so the connect path never carries them.
pub fn prefetch_panels(tools_tab: ToolsTab) {
    leptos::task::spawn_local(async move {
        crate::client::browser::timer::after_paint().await;
        let _ = panel_warm_up(tools_tab).await;
    });
}

/// An item's panel, from the panel chunk (`report`: the embed view tells its host page of
/// each result).
#[component]
pub fn ItemPanel(
    kind: Kind,
    item: Item,
    args: Option<serde_json::Map<String, serde_json::Value>>,
    embed: bool,
) -> impl IntoView {
    // `loaded` takes no arguments: they wait in a cell for the chunk.
    let given = StoredValue::new_local(Some((kind, item, args)));
    Suspend::new(SendWrapper::new(async move {
        let Some((kind, item, args)) = given.try_update_value(Option::take).flatten() else {
            return ().into_any();
        };
        panel_item(kind, item, args, embed)
            .await
            .unwrap_or_else(|error| {
                view! { <p class="error" role="alert">{error.to_string()}</p> }.into_any()
            })
    }))
}
