//! A list's lifetime (SEP-2549) in its tab: "fresh for 4 min" while the server's `ttlMs`
//! runs, "stale" after, and Refresh, which lists again whatever the lifetime says. Opening a
//! tab lists it again only once it is stale (the client's `refresh_list` decides). Nothing
//! is shown for a server that gave no lifetime (it says when a list changes). In the panel
//! chunk (`lazy::views::ListLifetime`), drawn with each tab's list.

use super::browse::model::Kind;
use super::store::use_connection;
use crate::client::ListKind;
use crate::protocol::caching::RelistReason;
use leptos::prelude::*;
use leptos::task::spawn_local;

/// The lists a tab shows: the resources with their templates.
fn lists_of(kind: Kind) -> &'static [ListKind] {
    match kind {
        Kind::Tools => &[ListKind::Tools],
        Kind::Prompts => &[ListKind::Prompts],
        Kind::Resources => &[ListKind::Resources, ListKind::Templates],
    }
}

/// The tab was opened: its lists are fetched again if their lifetime ran out.
fn list_if_stale(kind: Kind) {
    let connection = use_connection();
    if connection.is_warm_up() {
        return;
    }
    if let Some(client) = connection.client() {
        for &list in lists_of(kind) {
            client.refresh_list(list, RelistReason::Needed);
        }
    }
}

/// The lifetime line over a tab's list, ticking each second while shown.
#[component]
pub fn ListLifetime(kind: Kind) -> impl IntoView {
    list_if_stale(kind);
    let connection = use_connection();
    let tick = RwSignal::new(0u32);
    spawn_local(async move {
        // Ends once the line is gone (its signal with it).
        loop {
            crate::client::browser::timer::sleep(1_000).await;
            if tick.try_update(|n| *n = n.wrapping_add(1)).is_none() {
                break;
            }
        }
    });
    let primary = lists_of(kind)[0];
    let text = move || {
        tick.track();
        connection.server().track();
        let client = connection.client()?;
        let held = client.list_lifetime(primary)?;
        (held.hints.ttl_stated || held.freshness.invalidated)
            .then(|| client.describe_list_lifetime(primary))
            .flatten()
    };
    let refresh = move |_| {
        if let Some(client) = connection.client() {
            for &list in lists_of(kind) {
                client.refresh_list(list, RelistReason::PersonAsked);
            }
        }
    };
    move || {
        text().map(|text| {
            let stale = !text.starts_with("fresh");
            view! {
                <p class="list-lifetime muted" class:stale=stale>
                    <span class="lifetime-text">{text}</span>" "
                    <button class="secondary refresh-list" on:click=refresh>"Refresh"</button>
                </p>
            }
        })
    }
}
