//! What the tabs are made of, as data: the three kinds of list ([`Kind`]), one listed item
//! ([`Item`]), what the tabs remember per connection ([`Memory`]: the selection and each item's
//! panel state), and the embed view's question before a call ([`EmbedAsk`]). No view here:
//! `browse.rs` draws the lists, `panel.rs` an item's panel.

use super::panel_state::PanelState;
use crate::ui::address::TargetKind;
use leptos::prelude::*;
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

    pub(in crate::ui) fn noun(self) -> &'static str {
        match self {
            Kind::Tools => "tool",
            Kind::Prompts => "prompt",
            Kind::Resources => "resource",
        }
    }

    /// The attribute naming each list row (what the end-to-end tests select by).
    pub(in crate::ui) fn key_attribute(self) -> &'static str {
        match self {
            Kind::Tools => "data-tool",
            Kind::Prompts => "data-prompt",
            Kind::Resources => "data-uri",
        }
    }

    pub(in crate::ui) fn ids(self) -> (&'static str, &'static str, &'static str, &'static str) {
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

    pub(in crate::ui) fn button_label(self) -> &'static str {
        match self {
            Kind::Tools => "Run",
            Kind::Prompts => "Get prompt",
            Kind::Resources => "Read",
        }
    }
}

/// What the list and the panel need to know of one tool, prompt or resource.
#[derive(Debug, Clone, PartialEq)]
pub(in crate::ui) struct Item {
    /// The tool or prompt name, or the resource URI.
    pub(in crate::ui) key: String,
    pub(in crate::ui) title: String,
    pub(in crate::ui) description: Option<String>,
    /// A second line in the list (a resource's URI and type).
    pub(in crate::ui) detail: Option<String>,
    /// The argument form's JSON Schema; plain resources have none.
    /// Shared with the server state (a schema can be a megabyte): cloned only when its panel
    /// opens, never on each render of the list.
    pub(in crate::ui) form: Option<Arc<Map<String, Value>>>,
    /// A resource template's URI template (the key is the template too).
    pub(in crate::ui) template: Option<String>,
    /// A tool's outputSchema: its structuredContent is checked against it.
    pub(in crate::ui) output_schema: Option<Arc<Map<String, Value>>>,
    /// A tool's MCP App: its `ui://` resource (`_meta.ui.resourceUri`), rendered beside
    /// each result.
    pub(in crate::ui) ui: Option<String>,
    /// A tool only its app may call (`_meta.ui.visibility` is `["app"]`): listed apart, at
    /// the end, and marked; still callable here, for testing.
    pub(in crate::ui) app_only: bool,
}

/// What the tabs remember while a server stays connected: the selected item per tab (by
/// key, so the panel follows list changes) and each item's panel state (form values, the
/// last result, a call in flight), so switching items or tabs and coming back loses nothing.
/// One per [`crate::ui::store::Connection`] (a server entry); [`Memory::forget`] starts a new session's
/// panels, which take back what was typed in the last session's forms (and the selection).
#[derive(Clone, Copy)]
pub struct Memory {
    pub(super) selected: RwSignal<[Option<String>; 3]>,
    pub(super) panels: StoredValue<Panels, LocalStorage>,
}

pub(super) struct Panels {
    /// Owns the panels' signals, apart from the views that show them (which come and go).
    pub(super) owner: Owner,
    pub(super) states: std::collections::HashMap<(usize, String), PanelState>,
    /// The last session's panels (their signals owned by `previous_owner`): a new panel for
    /// the same item and schema starts from what its form held.
    pub(super) previous: std::collections::HashMap<(usize, String), PanelState>,
    pub(super) previous_owner: Option<Owner>,
    /// A link's arguments for an item whose panel is not made yet: its form starts from them.
    pub(super) linked: std::collections::HashMap<(usize, String), Map<String, Value>>,
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
    pub(super) fn link_args(&self, kind: Kind, key: &str, args: Option<&Map<String, Value>>) {
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
