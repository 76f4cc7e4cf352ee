//! What was typed in a form, kept in the tab's sessionStorage while the server entry's
//! "Remember token and headers in this tab" is ticked, and offered back after a reload.
//! Nothing is kept when it is not ticked (a form may hold what should not be stored).

use super::super::form::FormState;
use super::super::servers::Settings;
use super::super::storage::session_storage;
use super::model::Kind;
use leptos::prelude::*;
use serde_json::Value;

/// The sessionStorage key of an item's form in a server entry.
fn storage_key(entry: &str, kind: Kind, key: &str) -> String {
    format!("mcp-lens.draft.{entry}.{}.{key}", kind as usize)
}

/// Keeps `form` in sessionStorage as the person types (a moment after typing stops), when
/// the entry remembers; returns the button that offers back what was kept before a reload
/// (shown while the form still holds what it started with).
pub(super) fn kept_draft(form: FormState, kind: Kind, key: String) -> impl IntoView {
    let settings = use_context::<Settings>();
    let storage_key = settings.map(|s| storage_key(&s.id.get_value(), kind, &key));
    let stored = storage_key
        .as_ref()
        .filter(|_| settings.is_some_and(|s| s.remember_secrets.get_untracked()))
        .and_then(|k| session_storage()?.get_item(k).ok()?)
        .and_then(|text| serde_json::from_str::<Value>(&text).ok())
        .filter(|kept| form.current_arguments().map(Value::Object).as_ref() != Some(kept));
    let offer = RwSignal::new(stored);
    let pending = StoredValue::new(None::<TimeoutHandle>);
    Effect::new(move |first: Option<()>| {
        form.track();
        if first.is_none() {
            return; // what the form started with is not the person's typing
        }
        offer.set(None);
        let (Some(settings), Some(storage_key)) = (settings, storage_key.clone()) else {
            return;
        };
        if let Some(handle) = pending.get_value() {
            handle.clear();
        }
        let handle = set_timeout_with_handle(
            move || {
                let Some(storage) = session_storage() else {
                    return;
                };
                let arguments = form.current_arguments();
                match arguments {
                    Some(arguments) if settings.remember_secrets.get_untracked() => {
                        let text = Value::Object(arguments).to_string();
                        let _ = storage.set_item(&storage_key, &text);
                    }
                    _ => {
                        let _ = storage.remove_item(&storage_key);
                    }
                }
            },
            std::time::Duration::from_millis(300),
        );
        pending.set_value(handle.ok());
    });
    move || {
        offer.get().map(|kept| {
            view! {
                <p class="kept-draft">
                    <button type="button" id="restore-draft" class="secondary"
                        on:click=move |_| {
                            form.fill(&kept);
                            offer.set(None);
                        }>"Restore what you typed before the reload"</button>
                </p>
            }
        })
    }
}
