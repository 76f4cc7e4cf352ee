//! An app's `ui://` resource, read through the connection's client and cached per server (in
//! its store) and URI while the server's state and its notifications say it is unchanged.

use crate::client::ClientEvent;
use crate::protocol::apps::{read_ui_resource, UiResource};
use crate::protocol::mcp::{RESOURCES_LIST_CHANGED, RESOURCES_UPDATED};
use crate::ui::store::Connection;
use serde_json::Value;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::{Arc, Weak};

/// One server's `ui://` resources read, by URI: kept in its store (`Connection::kept`).
#[derive(Default)]
struct Resources(RefCell<HashMap<String, Cached>>);

/// A resource read, valid while the server's state is the one it was read under (any
/// `list_changed` makes a new state, once the list is fetched again), and no
/// `resources/list_changed` (the list may not be fetched yet) or `resources/updated` naming it
/// arrived since.
pub(super) struct Cached {
    state: Weak<crate::client::ServerState>,
    events_seen: u64,
    resource: Rc<UiResource>,
}

/// Reads the app's resource, from the cache when it is still valid.
pub(super) async fn ui_resource(
    connection: Connection,
    uri: &str,
) -> Result<Rc<UiResource>, String> {
    let state = connection
        .server()
        .get_untracked()
        .ok_or_else(|| "Not connected.".to_owned())?;
    let cache = connection.kept::<Resources>();
    let updated_since = |seen: u64| {
        connection.events().with_untracked(|events| {
            events.iter().any(|(seq, event)| {
                *seq > seen
                    && matches!(event, ClientEvent::Notification { method, params }
                        if method == RESOURCES_LIST_CHANGED
                            || (method == RESOURCES_UPDATED
                                && params.as_ref().and_then(|p| p.get("uri")).and_then(Value::as_str)
                                    == Some(uri)))
            })
        })
    };
    let cached = cache.0.borrow().get(uri).and_then(|entry| {
        (entry.state.as_ptr() == Arc::as_ptr(&state) && !updated_since(entry.events_seen))
            .then(|| entry.resource.clone())
    });
    if let Some(resource) = cached {
        return Ok(resource);
    }
    let client = connection
        .client()
        .ok_or_else(|| "Not connected.".to_owned())?;
    let events_seen = connection.events_seen();
    let read = client
        .read_resource_json(uri)
        .await
        .map_err(|error| format!("Reading the app's resource {uri} failed: {error}"))?;
    let listing = match &state.resources {
        Some(Ok(resources)) => resources
            .iter()
            .find(|resource| resource.uri == uri)
            .and_then(|resource| serde_json::to_value(resource).ok()),
        _ => None,
    };
    let resource = read_ui_resource(&read, listing.as_ref())
        .map_err(|error| format!("The app's resource {uri} cannot be shown: {error}"))?;
    let resource = Rc::new(resource);
    cache.0.borrow_mut().insert(
        uri.to_owned(),
        Cached {
            state: Arc::downgrade(&state),
            events_seen,
            resource: resource.clone(),
        },
    );
    Ok(resource)
}
