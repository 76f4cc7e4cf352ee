//! What a connect goes out with: a server entry's settings read into a `ClientConfig` and the
//! sign-in client chosen ([`config_of`]), or a widget's address checked ([`checked_config`]);
//! or why not, as the sentence shown. In the session chunk: the URL parser and the settings'
//! checks are not part of the first paint.

use super::address::EmbedAllow;
use super::servers::Settings;
use super::store::Identity;
use crate::client::config::{
    check_server_url, parse_header_lines, parse_megabytes, parse_root_lines, parse_seconds,
};
use crate::client::ClientConfig;
use crate::protocol::transport_choice::TransportChoice;
use leptos::prelude::*;

/// The configuration a connect of these settings goes out with, and the sign-in client chosen;
/// or why the settings cannot be used (a sentence). Also what a sign-in that comes back to a
/// new page in this tab connects with (`auth::resume_in_this_tab`).
pub(super) fn config_of(settings: Settings) -> Result<(ClientConfig, Identity), String> {
    let Settings {
        name,
        url,
        token,
        headers,
        transport,
        version,
        roots,
        timeout,
        max_total,
        server_request_timeout,
        max_message_mb,
        remember_secrets,
        client_id,
        client_secret,
        client_credentials,
        private_key,
        xaa_token_endpoint,
        xaa_client_id,
        xaa_id_token,
        workload_jwt,
        ..
    } = settings;
    // What requests use is the address as the browser reads it (`check_server_url`).
    let target = check_server_url(&url.get_untracked())?.into_href();
    let custom = parse_header_lines(&headers.get_untracked())?;
    let mut config = ClientConfig::new(target);
    config.name = name.get_untracked();
    config.bearer_token = Some(token.get_untracked()).filter(|t| !t.trim().is_empty());
    config.headers = custom;
    config.transport = transport.get_untracked();
    config.version = version.get_untracked();
    config.known_handshake = settings.known_handshake.get_untracked();
    config.roots = parse_root_lines(&roots.get_untracked());
    // Tools' `ui://` apps are rendered (src/ui/apps.rs): the extension is declared.
    config.mcp_apps = true;
    // A tool call answered with a task (SEP-2663) is shown and followed in the Tasks tab.
    config.tasks_extension = true;
    let limits = [
        (timeout, "request timeout"),
        (max_total, "maximum total time"),
        (
            server_request_timeout,
            "time limit for the server's requests",
        ),
    ]
    .map(|(text, what)| {
        parse_seconds(&text.get_untracked())
            .ok_or(format!("The {what} must be a positive number of seconds."))
    });
    let [idle, total, person] = limits;
    config.request_timeout_ms = idle?;
    config.max_total_ms = total?;
    config.server_request_timeout_ms = person?;
    config.max_message_bytes =
        parse_megabytes(&max_message_mb.get_untracked()).ok_or_else(|| {
            "The largest message must be a number of megabytes from 0 to 1024.".to_owned()
        })?;
    let cross_app = [xaa_token_endpoint, xaa_client_id, xaa_id_token].map(|s| s.get_untracked());
    let identity = Identity {
        client_id: client_id.get_untracked(),
        client_issuer: settings.client_issuer.get_untracked(),
        client_secret: client_secret.get_untracked(),
        private_key: private_key.get_untracked(),
        machine: client_credentials.get_untracked(),
        cross_app,
        workload_jwt: workload_jwt.get_untracked(),
        remember: remember_secrets.get_untracked(),
    };
    Ok((config, identity))
}

/// The configuration a widget connects with, or why its address is refused (in the session
/// chunk, through `lazy::connect::embed_connect`): an address a browser reads as it is written, and
/// not on the reader's own machine or network unless the deployment allows it.
pub fn checked_config(url: &str, transport: TransportChoice) -> Result<ClientConfig, String> {
    let address = check_server_url(url)?;
    if address.is_private_network() && !EmbedAllow::of_page().private_network {
        return Err(format!(
            "This widget is set to reach {}, an address on your own machine or network. A widget \
             that any page can frame does not reach those unless the site hosting mcp-lens allows \
             it; open it in mcp-lens instead.",
            address.origin()
        ));
    }
    let mut config = ClientConfig::new(address.into_href());
    config.transport = transport;
    Ok(config)
}
