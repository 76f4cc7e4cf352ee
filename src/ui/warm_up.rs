//! What the page's warm-ups share: a manager of the in-memory warm-up server's own, a throwaway
//! connection on it, and drawing a view into elements never attached to the page. V8 compiles
//! each wasm function at its first call; the warm-ups run a path's code in idle time so that a
//! person's first connect and first tool call do not wait for it (`warm_up_page.rs`,
//! `browse::panel::warm_up_call`). Nothing goes on the network.

use super::store::Connection;
use crate::client::manager::Manager;
use crate::client::ClientConfig;
use crate::protocol::wire_log::WireLog;
use leptos::prelude::*;

/// The warm-up's connection id (a server entry's id is made of a time and a number).
pub(super) const WARM_UP_ID: &str = "warm-up";

/// A manager of the in-memory warm-up server's own (`client::warm_up`): nothing goes on the network.
pub(super) fn warm_up_manager() -> Manager {
    Manager::with_runtime(crate::client::warm_up::runtime()).with_tool_pages()
}

/// A throwaway connection `id` on `manager` (see [`warm_up_manager`]), under an owner of its own
/// and with a wire log of its own, connected through the same `connect_on` a click uses. Shared
/// by the first connect's warm-up (`warm_up_page.rs`) and the tool call's
/// (`browse::panel::warm_up_call`).
pub(super) async fn warm_up_connection(manager: &Manager, id: &str) -> (Owner, Connection) {
    let owner = Owner::new();
    let (connection, known_handshake) = owner.with(|| {
        (
            Connection::new_warm_up(RwSignal::new(WireLog::default()), id.to_owned()),
            RwSignal::new(false),
        )
    });
    let mut config = ClientConfig::new(crate::client::warm_up::URL);
    config.mcp_apps = true;
    config.tasks_extension = true;
    connection
        .connect_on(manager.clone(), config, known_handshake)
        .await;
    (owner, connection)
}

/// Ends a warm-up connection: its session, its sign-in state and everything drawn for it.
pub(super) async fn end_warm_up(owner: Owner, manager: &Manager, id: &str) {
    let _ = manager.remove(id).await;
    owner.cleanup();
}

/// Draws `make`'s view into elements never attached to the page and drops it at once, with an
/// owner of its own for its reactive parts: the warm-ups run a view's code so that V8 compiles
/// it before a person needs it, and keep nothing.
pub(super) fn draw_detached<V: leptos::tachys::view::Render>(make: impl FnOnce() -> V) {
    let owner = Owner::new();
    owner.with(|| drop(make().build()));
    owner.cleanup();
}
