//! What one item's panel remembers while the server stays connected (its form, the last
//! result, a call in flight, a resource's subscription), kept in the connection's
//! [`Memory`](super::model::Memory); `panel.rs` draws it and dispatches its action.

use super::outcome::Outcome;
use crate::protocol::jsonrpc::RequestId;
use crate::ui::form::FormState;
use futures::future::LocalBoxFuture;
use leptos::prelude::*;
use leptos::task::spawn_local;
use serde_json::{Map, Value};
use std::cell::Cell;
use std::future::Future;
use std::sync::Arc;

#[derive(Clone, Copy)]
pub(in crate::ui) struct PanelState {
    pub(super) schema: StoredValue<Option<Arc<Map<String, Value>>>>,
    pub(super) form: Option<FormState>,
    /// The panel's action (`run::run`: a tool called, a prompt got, a resource read). Made with
    /// the state, under the same owner, so it outlives the panel's view as the rest does.
    pub(super) action: Action<Job, Outcome>,
    /// The action's signals, each taken once (each accessor makes a new handle, `pending` a new
    /// memo). Whether it runs;
    pub(super) pending: Memo<bool>,
    /// its last outcome (also set by a resource's update or a refused subscription);
    pub(super) outcome: MappedSignal<Option<Outcome>>,
    /// how many runs finished: lets a reader tell a new result from the previous one.
    pub(super) runs: RwSignal<usize>,
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
        let action = Action::new_local(|job: &Job| started(job.0.take()));
        Self {
            form: schema
                .as_deref()
                .map(|schema| FormState::new(Value::Object(schema.clone()))),
            schema: StoredValue::new(schema),
            action,
            pending: action.pending(),
            outcome: action.value(),
            runs: action.version(),
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

/// One run of a panel's action, ready to start: `run::run`'s future, boxed (this file is below
/// the store, which keeps the panels' states, so it names no `Connection`). Taken once, when
/// the action is dispatched.
pub(super) struct Job(Cell<Option<LocalBoxFuture<'static, Outcome>>>);

impl Job {
    pub(super) fn new(run: impl Future<Output = Outcome> + 'static) -> Self {
        Self(Cell::new(Some(Box::pin(run))))
    }
}

/// The job's future spawned now, and a future of what it returns. An `Action` marks itself
/// pending (waking the effects that show "Working…") right after its function returns, and
/// spawns its own task after that; spawned here, inside that function, the request's first poll
/// (which reaches fetch when no app must close first) comes before those effects run.
fn started(job: Option<LocalBoxFuture<'static, Outcome>>) -> impl Future<Output = Outcome> {
    let (answer, answered) = futures::channel::oneshot::channel();
    if let Some(job) = job {
        spawn_local(async move {
            let _ = answer.send(job.await);
        });
    }
    async move {
        answered.await.unwrap_or_else(|_| {
            Outcome::Failed("The request's task ended without an answer.".to_owned())
        })
    }
}
