//! Session and era negotiation: which transport (Auto's fallback to legacy SSE), which
//! protocol era (`server/discover` for the stateless 2026-07-28 era, else the `initialize`
//! handshake), renewing a session the server lost, and ending it.

use crate::runtime::HttpRequest;
use crate::{decode, ClientEvent, McpClient};
use futures::FutureExt;
use mcp_lens_protocol::era::{self, DiscoverFailed, VersionChoice};
use mcp_lens_protocol::error::{ErrorKind, McpError, Step};
use mcp_lens_protocol::mcp;
use mcp_lens_protocol::streamable::{session_gone, AnswerError};
use mcp_lens_protocol::transport_choice::{
    auto_prefers_legacy, falls_back_to_legacy, origin_of, TransportChoice, TransportUsed,
};
use rmcp::model::InitializeResult;
use serde_json::Value;

impl McpClient {
    /// Sends `initialize` over the chosen transport. Auto tries Streamable HTTP first and
    /// falls back to legacy SSE when the server refuses the POST with 400, 404 or 405.
    pub(crate) async fn initialize(
        &self,
        choice: TransportChoice,
    ) -> Result<(Value, TransportUsed), McpError> {
        let used = |legacy, reason: String| TransportUsed { legacy, reason };
        let legacy_reason = match choice {
            TransportChoice::LegacySse => Some("chosen in the connection settings"),
            TransportChoice::Auto if auto_prefers_legacy(&self.0.config.url) => {
                Some("the URL ends in /sse, where servers offer the legacy HTTP+SSE transport")
            }
            _ => None,
        };
        if let Some(reason) = legacy_reason {
            self.open_legacy_stream().await?;
            let info = self.open_session().await?;
            return Ok((info, used(true, self.with_post_origin(reason))));
        }
        match self.open_session().await {
            Ok(info) => {
                let reason = match choice {
                    TransportChoice::Auto => "the server accepted the Streamable HTTP POST",
                    _ => "chosen in the connection settings",
                };
                Ok((info, used(false, reason.to_owned())))
            }
            Err(McpError {
                step,
                kind: kind @ ErrorKind::HttpStatus { status, .. },
            }) if choice == TransportChoice::Auto && falls_back_to_legacy(status) => {
                // Should the fallback fail too, both failures are named, the Streamable HTTP
                // one first: it is what the person's URL answered.
                let fallback = async {
                    self.open_legacy_stream().await?;
                    self.open_session().await
                };
                let info = fallback.await.map_err(|legacy| {
                    McpError::new(
                        step,
                        ErrorKind::FallbackFailed {
                            streamable: Box::new(kind),
                            legacy: Box::new(legacy),
                        },
                    )
                })?;
                let reason = format!(
                    "the Streamable HTTP POST was answered {status}, so Auto fell back to the legacy HTTP+SSE transport"
                );
                Ok((info, used(true, self.with_post_origin(&reason))))
            }
            Err(error) => Err(error),
        }
    }

    /// A legacy transport's reason, with where its messages go (the endpoint's origin, which
    /// is always the SSE URL's: see `resolve_endpoint`).
    fn with_post_origin(&self, reason: &str) -> String {
        let (post_url, _) = self.transport().post_target(self);
        match origin_of(&post_url) {
            Some(origin) => format!("{reason}; messages are POSTed to {origin}"),
            None => reason.to_owned(),
        }
    }

    /// Starts talking in the era the configuration allows: `server/discover` first (the
    /// stateless 2026-07-28 era) unless a handshake version is pinned or the transport is
    /// legacy SSE; `initialize` when the server is not provably modern. Returns an
    /// `initialize`-shaped result either way.
    async fn open_session(&self) -> Result<Value, McpError> {
        let choice = self.0.config.version;
        let why_handshake = if self.is_legacy() {
            "the legacy SSE transport has only the handshake era".to_owned()
        } else if !choice.tries_modern() {
            "pinned in the settings".to_owned()
        } else if self.0.config.known_handshake {
            "this server refused server/discover before, so initialize was used at once".to_owned()
        } else {
            self.0.modern.set(true);
            self.0.session.borrow_mut().protocol_version = Some(era::MODERN.to_owned());
            let refused = match self.request(Step::Discover, era::DISCOVER, None).await {
                Ok(result) => match era::discover_as_initialize(&result) {
                    Some(info) => {
                        self.set_era_reason("the server answered server/discover");
                        return Ok(info);
                    }
                    None => "server/discover listed no 2026-07-28".to_owned(),
                },
                Err(error) if choice == VersionChoice::Pinned(era::MODERN) => return Err(error),
                Err(error) => {
                    if era::after_failed_discover(&error.kind) == DiscoverFailed::Incompatible {
                        return Err(error);
                    }
                    // A blocked probe is the browser's CORS check: worth the person's eye.
                    self.0
                        .era_warning
                        .set(matches!(error.kind, ErrorKind::Network { .. }));
                    era::discover_refusal(&error.kind)
                }
            };
            self.0.modern.set(false);
            self.0.session.borrow_mut().protocol_version = None;
            format!("{refused}, so initialize was used")
        };
        self.set_era_reason(&why_handshake);
        self.request(
            Step::Initialize,
            mcp::INITIALIZE,
            Some(mcp::initialize_params(
                choice.handshake_version(),
                self.0.config.mcp_apps,
            )),
        )
        .await
    }

    fn set_era_reason(&self, reason: &str) {
        *self.0.era_reason.borrow_mut() = reason.to_owned();
    }

    /// Whether the session speaks the stateless 2026-07-28 era.
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// if client.is_stateless() {
    ///     println!("no session: every request carries its own _meta");
    /// }
    /// # Ok(()) }
    /// ```
    pub fn is_stateless(&self) -> bool {
        self.0.modern.get()
    }

    /// Initializes a new session after the server lost ours. Requests that fail together
    /// share one renewal; a request that failed on an already-replaced session just retries.
    pub(crate) async fn renew_session(
        &self,
        lost: Option<String>,
        why: &ErrorKind,
    ) -> Result<(), McpError> {
        let running = self.0.renewal.borrow().clone();
        if let Some(running) = running {
            return running.await;
        }
        if self.0.session.borrow().session_id != lost {
            return Ok(()); // already renewed
        }
        let client = self.background();
        let reason = why.to_string();
        let renewal = async move {
            client.0.session.borrow_mut().session_id = None;
            let info = client
                .request(
                    Step::Initialize,
                    mcp::INITIALIZE,
                    Some(mcp::initialize_params(
                        client.0.config.version.handshake_version(),
                        client.0.config.mcp_apps,
                    )),
                )
                .await?;
            let info: InitializeResult = decode(Step::Initialize, mcp::INITIALIZE, info)?;
            client.0.session.borrow_mut().protocol_version =
                Some(info.protocol_version.to_string());
            client
                .notify(Step::Initialized, mcp::INITIALIZED, None)
                .await?;
            client.emit(ClientEvent::SessionRenewed { reason });
            // The server forgot the lost session's subscriptions with it.
            client.resubscribe();
            Ok(())
        }
        .boxed_local()
        .shared();
        *self.0.renewal.borrow_mut() = Some(renewal.clone());
        let outcome = renewal.await;
        *self.0.renewal.borrow_mut() = None;
        outcome
    }

    /// Ends the session: fails every request in flight, then sends DELETE (when the server
    /// gave a session id). The client is unusable afterwards, even if the DELETE fails.
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// client.disconnect().await?;
    /// assert!(client.ping().await.is_err()); // not connected
    /// # Ok(()) }
    /// ```
    pub async fn disconnect(&self) -> Result<(), McpError> {
        if self.0.closed.replace(true) {
            return Ok(());
        }
        self.fail_pending(ErrorKind::Cancelled);
        self.0.awaiting_person.borrow_mut().clear();
        self.0.input_waiters.borrow_mut().clear(); // their rounds fail as declined
        self.transport().close();
        if let Some(stream) = self.0.get_stream.borrow_mut().take() {
            stream.abort();
        }
        let session = self.0.session.borrow().clone();
        if session.session_id.is_none() {
            return Ok(());
        }
        let headers = self.headers(session.session_headers());
        let response = self
            .send_http(HttpRequest {
                method: "DELETE",
                url: &self.0.config.url,
                headers,
                body: None,
                abort: None,
                refuse_redirects: false,
            })
            .await
            .map_err(|kind| {
                let kind = match kind {
                    // The session worked, so the server was reachable a moment ago.
                    ErrorKind::Network { detail } => ErrorKind::DeleteBlocked { detail },
                    other => other,
                };
                McpError::new(Step::Disconnect, kind)
            })?;
        // 405: the server does not let clients end sessions; that is allowed. A session the
        // server already forgot (404, or 400 naming the session: it may end a session when its
        // GET stream closes, just before the DELETE arrives) is ended too.
        match response.status() {
            200..=299 | 405 => Ok(()),
            status => {
                let body = self.error_body(&response).await;
                let kind = AnswerError::HttpStatus(status).with_body(&body);
                if session_gone(&kind, true) {
                    return Ok(());
                }
                Err(McpError::new(Step::Disconnect, kind))
            }
        }
    }
}
