//! How a control is bound to the form's draft: what it reads (a memo per control, so typing in
//! one field re-renders only that one), how it writes, and the ids of what describes it.

use super::state::FormState;
use crate::schema::{Draft, Step};
use leptos::prelude::*;

/// A memo of what `f` reads from the draft at `path`: the input re-renders only when that
/// changes, not on every keystroke elsewhere in the form.
pub(super) fn watch<T: PartialEq + Send + Sync + 'static>(
    state: FormState,
    path: &[Step],
    f: impl Fn(Option<&Draft>) -> T + Send + Sync + 'static,
) -> Memo<T> {
    let path = path.to_vec();
    Memo::new(move |_| read(state, &path, &f))
}

/// The draft at `path`, tracked.
pub(super) fn read<T: 'static>(
    state: FormState,
    path: &[Step],
    f: impl FnOnce(Option<&Draft>) -> T,
) -> T {
    state.draft.with(|draft| f(draft.at(path)))
}

pub(super) fn write(state: FormState, path: &[Step], f: impl FnOnce(&mut Draft)) {
    state.draft.update(|draft| {
        if let Some(target) = draft.at_mut(path) {
            f(target);
        }
    });
}

/// The ids of what describes the field at `pointer`: its type and flags, its description.
pub(super) fn about_ids(state: FormState, pointer: &str) -> String {
    let id = state.field_id(pointer);
    format!("{id}~about {id}~description")
}
