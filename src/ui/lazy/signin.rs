//! Signing in (the sign-in chunk): fetched when a server refuses for want of it, or when a
//! connect asks for an authorization from the start (a sign-in client set up, tokens
//! remembered, a sign-in kept from before); a server that never refuses never costs it. The
//! store reaches these through [`SIGN_IN`], handed to it with each connect.

use super::load::{loaded, ChunkUnavailable};
use crate::ui::servers::Servers;
use crate::ui::store::{Connection, Identity, SignInCalls};
use futures::future::LocalBoxFuture;
use leptos::prelude::*;
use wasm_split_helpers::wasm_split;

/// What a connection asks of this chunk (see `SignInCalls`): each a task that fetches the
/// chunk if it is not here yet.
pub const SIGN_IN: SignInCalls = SignInCalls {
    prepare: signin_prepare,
    forget: signin_forget,
    refused: signin_refused,
    settled: signin_after_connect,
};

#[wasm_split(signin, fallible)]
fn signin_connect(
    connection: Connection,
    config: crate::client::ClientConfig,
    identity: Identity,
    known_handshake: RwSignal<bool>,
) -> Result<crate::client::ClientConfig, ChunkUnavailable> {
    Ok(crate::ui::auth::prepare(
        connection,
        config,
        identity,
        known_handshake,
    ))
}

#[wasm_split(signin, fallible)]
fn signin_on_refusal(connection: Connection) -> Result<(), ChunkUnavailable> {
    crate::ui::auth::refused(connection);
    Ok(())
}

#[wasm_split(signin, fallible)]
fn signin_settled(connection: Connection) -> Result<(), ChunkUnavailable> {
    crate::ui::auth::after_connect(connection);
    Ok(())
}

#[wasm_split(signin, fallible)]
fn signin_drop(connection: Connection) -> Result<(), ChunkUnavailable> {
    crate::ui::auth::forget_connection(connection);
    Ok(())
}

#[wasm_split(signin, fallible)]
fn signin_come_back(servers: Servers) -> Result<(), ChunkUnavailable> {
    // The servers it may come back to connect through this chunk from here on.
    servers.list.with_untracked(|list| {
        for entry in list {
            entry.connection.hand_sign_in(SIGN_IN);
        }
    });
    crate::ui::auth::resume_in_this_tab(servers);
    Ok(())
}

#[wasm_split(signin, fallible)]
fn signin_views() -> Result<AnyView, ChunkUnavailable> {
    Ok(view! { {crate::ui::auth::sign_in_bar()} <crate::ui::auth::AuthView/> }.into_any())
}

#[wasm_split(signin, fallible)]
fn signin_client_fields() -> Result<AnyView, ChunkUnavailable> {
    Ok(view! { <crate::ui::auth::SignInClient/> }.into_any())
}

/// The connect's configuration with a sign-in made (or kept) for this server, handed back
/// to `Connection::connect_as`, which connects; None (and said) when the chunk is unavailable.
pub fn signin_prepare(
    connection: Connection,
    config: crate::client::ClientConfig,
    identity: Identity,
    known_handshake: RwSignal<bool>,
) -> LocalBoxFuture<'static, Option<crate::client::ClientConfig>> {
    Box::pin(async move {
        match signin_connect(connection, config, identity, known_handshake).await {
            Ok(config) => Some(config),
            Err(error) => {
                connection.fail(error.to_string());
                None
            }
        }
    })
}

/// The server refused a session that has no authorization: one is made, and Sign in offered.
pub fn signin_refused(connection: Connection) {
    leptos::task::spawn_local(async move {
        if let Err(error) = signin_on_refusal(connection).await {
            connection.report(error.to_string());
        }
    });
}

/// A connect with an authorization settled: the sign-in state follows it.
pub fn signin_after_connect(connection: Connection) {
    leptos::task::spawn_local(async move {
        let _ = signin_settled(connection).await;
    });
}

/// The person gave a token of their own: the server's sign-in goes.
pub fn signin_forget(connection: Connection) {
    connection.set_has_authorization(false);
    leptos::task::spawn_local(async move {
        let _ = signin_drop(connection).await;
    });
}

/// Finishes a sign-in this tab left for, in the sign-in chunk.
pub fn signin_resume(servers: Servers) {
    leptos::task::spawn_local(async move {
        let _ = signin_come_back(servers).await;
    });
}

/// The sign-in bar and the sign-in steps of the server in view: drawn (and their chunk fetched)
/// once the server has an authorization or a sign-in is offered.
#[component]
pub fn SignIn() -> impl IntoView {
    let connection = expect_context::<Connection>();
    // Drawn once it is needed, not anew at each change of the sign-in (a button under the
    // person's pointer must stay the same element).
    // (Reference-counted, not owned: this view may be drawn again after its owner went, when a
    // session chunk that could not be fetched comes on a later try.)
    let shown = ArcMemo::new(move |_| {
        connection
            .sign_in()
            .with(|s| *s != crate::ui::store::SignIn::Idle)
            || connection.auth_log().get() > 0
    });
    move || shown.get().then(|| loaded(|| Box::pin(signin_views())))
}

/// The sign-in client fields of the settings (in the sign-in chunk, fetched with the settings).
#[component]
pub fn SignInClient() -> impl IntoView {
    loaded(|| Box::pin(signin_client_fields()))
}
