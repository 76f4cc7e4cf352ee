//! The first connect's warm-up (session chunk, `lazy::session`): the connect path run once in
//! idle time against the in-memory server, its panels drawn detached, everything dropped.

use super::browse::model::Kind;
use super::browse::Browser;
use super::config::config_of;
use super::panels::session_panels;
use super::server_info::ServerInfo;
use super::servers::Servers;
use super::store::Status;
use super::warm_up::{draw_detached, end_warm_up, warm_up_connection, warm_up_manager, WARM_UP_ID};
use leptos::prelude::*;
use leptos::task::spawn_local;

/// V8 compiles each wasm function at its first call, so the page's first connect waited for
/// the code of its whole path to compile: the click's configuration and request, the answers'
/// decoding, the session's bookkeeping and the panels of a connected server (tens of
/// milliseconds each way on a slow machine; a reconnect, with that code compiled, takes a few).
/// Once per page, when the session chunk is here, that path runs in the page's idle time,
/// through the same functions as a connect: a connection of its own (not in the sidebar, its
/// wire log and events its own) connects through a manager of its own to a server in memory
/// (`client::warm_up`: nothing is sent), then its panels are drawn into elements that are never
/// attached to the page, and everything is dropped. Each step waits for the page to be idle,
/// and the in-memory server answers each request in a task of its own, so no step is a long
/// task. It gives way to a real connect: once any of `servers` is connecting or connected, the
/// steps left are not run (that connect compiles the code itself, and must not share its time).
pub(super) fn warm_up(servers: Servers) {
    use crate::client::browser::timer::idle;
    use std::cell::Cell;
    thread_local! {
        static DONE: Cell<bool> = const { Cell::new(false) };
    }
    if DONE.with(|done| done.replace(true)) {
        return;
    }
    let quiet = move || {
        servers.list.with_untracked(|list| {
            list.iter().all(|entry| {
                entry.connection.status().with_untracked(|status| {
                    matches!(status, Status::Disconnected | Status::Failed)
                })
            })
        })
    };
    spawn_local(async move {
        idle().await;
        if !quiet() {
            return;
        }
        // The click's configuration (read, nothing changed), and the browser's own HTTP path,
        // which the in-memory server stands in for below.
        if let Some(entry) = servers.current_untracked() {
            let _ = config_of(entry.settings);
        }
        crate::client::warm_up::browser_fetch().await;
        idle().await;
        if !quiet() {
            return;
        }
        let manager = warm_up_manager();
        let (owner, connection) = warm_up_connection(&manager, WARM_UP_ID).await;
        // The panels, a part per idle time: the server's section, the tools tab, the rest.
        let parts: [fn() -> AnyView; 3] = [
            || view! { <ServerInfo/> }.into_any(),
            || view! { <Browser kind=Kind::Tools/> }.into_any(),
            session_panels,
        ];
        for part in parts {
            idle().await;
            if !quiet() {
                break;
            }
            // Each part under an owner of its own, disposed at once (the tools tab listens
            // for `/` on the window while it lives).
            owner.with(|| {
                draw_detached(|| {
                    provide_context(connection);
                    part()
                })
            });
        }
        end_warm_up(owner, &manager, WARM_UP_ID).await;
    });
}
