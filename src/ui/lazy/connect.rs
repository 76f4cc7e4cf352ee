//! Connect and disconnect, through the session chunk (where the client and the URL parser
//! are): the settings or a widget's address read into a configuration there, then the
//! connection's connect, with the sign-in chunk's calls handed to it ([`SIGN_IN`]).

use super::load::ChunkUnavailable;
use super::signin::SIGN_IN;
use crate::protocol::transport_choice::TransportChoice;
use crate::ui::config::{checked_config, config_of};
use crate::ui::servers::{Servers, Settings};
use crate::ui::store::{Connection, Identity};
use leptos::prelude::*;
use wasm_split_helpers::wasm_split;

thread_local! {
    /// The full app's servers, for whichever of the session chunk's entry points runs first.
    static PAGE_SERVERS: std::cell::Cell<Option<Servers>> = const { std::cell::Cell::new(None) };
}

/// The full app's settings are stored from the session chunk's first use on, whichever use
/// that is (the preload after the first paint, or a Connect when the preload failed), so
/// their serialization is not part of the first paint and no setting goes unsaved once a
/// chunk is here. Under the app's owner: this runs in a task. Once per page (`persist`).
pub(super) fn start_persisting() {
    if let Some(servers) = PAGE_SERVERS.with(std::cell::Cell::get) {
        servers.owner.get_value().with(|| servers.persist());
    }
}

/// The full app's servers, kept for whichever of the session chunk's entry points runs first
/// ([`start_persisting`]).
pub(super) fn keep_page_servers(servers: Servers) {
    PAGE_SERVERS.with(|page| page.set(Some(servers)));
}

/// Reads the settings into a configuration here, in the session chunk (their checks, the URL
/// parser among them, are not part of the first paint), then connects; or says why not.
#[wasm_split(session, fallible)]
fn session_connect_settings(
    connection: Connection,
    settings: Settings,
    input_error: RwSignal<Option<String>>,
) -> Result<(), ChunkUnavailable> {
    start_persisting();
    match config_of(settings) {
        Ok((config, identity)) => {
            input_error.try_set(None);
            connection.connect_as(config, identity, settings.known_handshake, SIGN_IN);
        }
        Err(message) => {
            input_error.try_set(Some(message));
            connection.connect_refused_input();
        }
    }
    Ok(())
}

/// The embed view's connect: its address checked here, in the session chunk (the URL parser,
/// and whether the deployment lets widgets reach the reader's network), then the connect.
#[wasm_split(session, fallible)]
fn session_embed_connect(
    connection: Connection,
    url: String,
    transport: TransportChoice,
    input_error: RwSignal<Option<String>>,
    known_handshake: RwSignal<bool>,
) -> Result<(), ChunkUnavailable> {
    match checked_config(&url, transport) {
        Ok(config) => {
            input_error.try_set(None);
            // No sign-in client settings in a widget: automatic (registration or CIMD).
            connection.connect_as(config, Identity::default(), known_handshake, SIGN_IN);
        }
        Err(message) => {
            input_error.try_set(Some(message));
            connection.connect_refused_input();
        }
    }
    Ok(())
}

#[wasm_split(session, fallible)]
fn session_disconnect(connection: Connection) -> Result<(), ChunkUnavailable> {
    connection.disconnect_now();
    Ok(())
}

/// Connects with a server entry's settings through the session chunk, which reads them.
pub fn connect_settings(
    connection: Connection,
    settings: Settings,
    input_error: RwSignal<Option<String>>,
) {
    connection.begin_connect();
    leptos::task::spawn_local(async move {
        if let Err(error) = session_connect_settings(connection, settings, input_error).await {
            connection.fail(error.to_string());
        }
    });
}

/// The embed view's connect to `url`, checked and made in the session chunk.
pub fn embed_connect(
    connection: Connection,
    url: String,
    transport: TransportChoice,
    input_error: RwSignal<Option<String>>,
    known_handshake: RwSignal<bool>,
) {
    connection.begin_connect();
    leptos::task::spawn_local(async move {
        let connect =
            session_embed_connect(connection, url, transport, input_error, known_handshake);
        if let Err(error) = connect.await {
            connection.fail(error.to_string());
        }
    });
}

/// Disconnects through the session chunk (there is a session only if it is here).
pub fn disconnect(connection: Connection) {
    leptos::task::spawn_local(async move {
        if let Err(error) = session_disconnect(connection).await {
            connection.report(error.to_string());
        }
    });
}
