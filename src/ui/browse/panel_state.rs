//! What one item's panel remembers while the server stays connected (its form, the last
//! result, a call in flight, a resource's subscription), kept in the connection's
//! [`Memory`](super::model::Memory); `panel.rs` draws and drives it.

use super::outcome::Outcome;
use crate::protocol::jsonrpc::RequestId;
use crate::ui::form::FormState;
use leptos::prelude::*;
use serde_json::{Map, Value};
use std::sync::Arc;

#[derive(Clone, Copy)]
pub(in crate::ui) struct PanelState {
    pub(super) schema: StoredValue<Option<Arc<Map<String, Value>>>>,
    pub(super) form: Option<FormState>,
    pub(super) busy: RwSignal<bool>,
    pub(super) outcome: RwSignal<Option<Outcome>>,
    /// How many actions have finished: lets a reader tell a new result from the previous one.
    pub(super) runs: RwSignal<u32>,
    /// The tool call in flight: its id is the progress token and what Cancel takes.
    pub(super) running: RwSignal<Option<RequestId>>,
    /// The URI a template's form expands to, shown above the result.
    pub(super) expanded: RwSignal<Option<String>>,
    /// A resource this session is subscribed to (`resources/subscribe`).
    pub(super) subscribed: RwSignal<bool>,
    /// How many `resources/updated` notifications were read again, and when the last was.
    pub(super) updates: RwSignal<u32>,
    pub(super) updated_at: RwSignal<Option<String>>,
}

impl PanelState {
    pub(super) fn new(schema: Option<Arc<Map<String, Value>>>) -> Self {
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
    pub(super) fn is_for(&self, schema: &Option<Arc<Map<String, Value>>>) -> bool {
        self.schema.with_value(|mine| match (mine, schema) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b) || a == b,
            (None, None) => true,
            _ => false,
        })
    }
}
