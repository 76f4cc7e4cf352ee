//! A session's life: connect (the server address checked, the session opened, the first page
//! of each list), the transport choice (Auto's fallback to legacy SSE), the protocol era
//! (`server/discover` for the stateless 2026-07-28 era, else the `initialize` handshake),
//! the requests of a session (renewing it once when the server lost it, then sending the request
//! again), and ending it.

use crate::client::{endpoint, McpClient};
use crate::config::{check_server_url, ClientConfig};
use crate::engine::{decode, Tries};
use crate::events::{ClientEvent, Cursors, ListKind, ListPage, ServerState};
use crate::runtime::Runtime;
use crate::transport::legacy::Legacy;
use crate::transport::Inbox;
use futures::future::LocalBoxFuture;
use futures::FutureExt;
use mcp_lens_protocol::capabilities;
use mcp_lens_protocol::era::{self, DiscoverFailed, VersionChoice};
use mcp_lens_protocol::error::{ErrorKind, McpError, Step};
use mcp_lens_protocol::jsonrpc::RequestId;
use mcp_lens_protocol::mcp;
use mcp_lens_protocol::streamable::session_gone;
use mcp_lens_protocol::tasks::ServerTasks;
use mcp_lens_protocol::transport_choice::{
    auto_prefers_legacy, falls_back_to_legacy, TransportChoice, TransportUsed,
};
use mcp_lens_protocol::version_retry::no_fallback_because;
use rmcp::model::InitializeResult;
use serde_json::Value;
use std::rc::Rc;

/// The address every request of a session goes to: the server URL as a browser reads it
/// ([`check_server_url`]), written the way the standard writes it, so that what is checked
/// (its origin, where the token goes) and what `fetch` reads are one reading. In the page the
/// browser's own parser must find the same origin, or nothing is sent.
fn server_address(url: &str) -> Result<String, McpError> {
    let invalid =
        |detail: String| McpError::new(Step::CheckAddress, ErrorKind::InvalidAddress { detail });
    let url = check_server_url(url).map_err(invalid)?;
    #[cfg(target_arch = "wasm32")]
    if crate::browser::url::origin(url.href()).as_deref() != Some(url.origin().as_str()) {
        return Err(invalid(format!(
            "the browser reads this address differently than mcp-lens does (mcp-lens: {}; the browser: {}), so nothing was sent.",
            url.origin(),
            crate::browser::url::origin(url.href()).unwrap_or_else(|| "not a URL".to_owned())
        )));
    }
    Ok(url.into_href())
}

/// A listed page as items, its cursor handed to `cursor`.
fn split_page<T>(
    page: Option<Result<ListPage<T>, McpError>>,
    cursor: impl FnOnce(Option<String>),
) -> Option<Result<Vec<T>, McpError>> {
    page.map(|page| {
        page.map(|page| {
            cursor(page.next_cursor);
            page.items
        })
    })
}

impl McpClient {
    /// Initializes a session, sends `notifications/initialized`, then fetches the tools,
    /// prompts and resources in parallel, each only if the server offers it.
    ///
    /// In the page, over `fetch` ([`Runtime::browser`]); see [`McpClient::connect_with`]
    /// for another runtime.
    pub async fn connect(
        config: ClientConfig,
        on_event: impl Fn(ClientEvent) + 'static,
    ) -> Result<(McpClient, ServerState), McpError> {
        Self::connect_with(Runtime::browser(), config, on_event).await
    }

    /// [`McpClient::connect`] over the given runtime (a scripted HTTP fake and a manual
    /// clock in tests).
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// use mcp_lens_client::{runtime::Runtime, ClientConfig, McpClient};
    /// let config = ClientConfig::new("http://127.0.0.1:3001/mcp");
    /// let (client, _state) = McpClient::connect_with(Runtime::browser(), config, |_| {}).await?;
    /// client.ping().await?;
    /// # Ok(()) }
    /// ```
    pub async fn connect_with(
        runtime: Runtime,
        config: ClientConfig,
        on_event: impl Fn(ClientEvent) + 'static,
    ) -> Result<(McpClient, ServerState), McpError> {
        let mut config = config;
        config.url = server_address(&config.url)?;
        let choice = config.transport;
        let client = McpClient::new(runtime, config, Rc::new(on_event));
        let (info, transport) = client.initialize(choice).await?;
        // rmcp's capabilities have no `tasks` (2025-11-25): read it from the raw result.
        client
            .session()
            .set_server_tasks(ServerTasks::from_capabilities(info.get("capabilities")));
        let info: InitializeResult = decode(Step::Initialize, mcp::INITIALIZE, info)?;
        client.set_protocol_version(Some(info.protocol_version.to_string()));
        let modern = client.session().is_modern();
        if !modern {
            if let Err(error) = client
                .notify(Step::Initialized, mcp::INITIALIZED, None)
                .await
            {
                let _ = client.disconnect().await;
                return Err(error);
            }
        }
        let capabilities = &info.capabilities;
        let offers_resources = capabilities.resources.is_some();
        // The stream for the server's own messages opens a task after the list requests below
        // have left (`keep_stream_open`), so nothing but them stands between Connect and the
        // tools. (In the stateless era, subscriptions/listen replaces the GET stream.)
        if modern {
            client.start_listening();
        } else if !client.is_legacy() {
            client.start_get_stream();
        }
        // The first page of each list: a server that paginates shows something at once,
        // and the person loads more (or all) of it (`ServerState::more`).
        let (tools, prompts, resources) = futures::join!(
            client.connect_list(
                ListKind::Tools,
                client.list_if(capabilities.tools.is_some(), |c| async move {
                    c.tools_from(None, 1).await
                })
            ),
            client.connect_list(
                ListKind::Prompts,
                client.list_if(capabilities.prompts.is_some(), |c| async move {
                    c.prompts_from(None, 1).await
                })
            ),
            client.connect_list(
                ListKind::Resources,
                client.list_if(offers_resources, |c| async move {
                    c.resources_from(None, 1).await
                })
            ),
        );
        let mut more = Cursors::default();
        let tools = split_page(tools, |cursor| more.set(ListKind::Tools, cursor));
        let prompts = split_page(prompts, |cursor| more.set(ListKind::Prompts, cursor));
        let resources = split_page(resources, |cursor| more.set(ListKind::Resources, cursor));
        // Resource templates arrive after the connect result is painted (as a list update):
        // they are not needed to show the tools, so they do not delay them.
        if offers_resources {
            client.relist_after_paint(ListKind::Templates);
        }
        let (era_reason, era_warning) = client.session().era();
        let state = ServerState {
            info,
            transport,
            era_reason,
            era_warning,
            tools,
            prompts,
            resources,
            templates: None,
            more,
        };
        Ok((client.owned(), state))
    }

    /// Sends `initialize` over the chosen transport. Auto tries Streamable HTTP first and
    /// falls back to legacy SSE when the server refuses the POST with 400, 404 or 405.
    async fn initialize(
        &self,
        choice: TransportChoice,
    ) -> Result<(Value, TransportUsed), McpError> {
        let used = |legacy, reason: String| TransportUsed { legacy, reason };
        let legacy_reason = match choice {
            TransportChoice::LegacySse => Some("chosen in the connection settings"),
            TransportChoice::Auto if auto_prefers_legacy(&self.config().url) => {
                Some("the URL ends in /sse, where servers offer the legacy HTTP+SSE transport")
            }
            _ => None,
        };
        if let Some(reason) = legacy_reason {
            let posts_to = self.open_legacy().await?;
            let info = self.open_session().await?;
            return Ok((info, used(true, with_post_origin(reason, posts_to))));
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
            }) if choice == TransportChoice::Auto
                && falls_back_to_legacy(status)
                && no_fallback_because(&kind).is_none() =>
            {
                // Should the fallback fail too, both failures are named, the Streamable HTTP
                // one first: it is what the person's URL answered.
                let fallback = async {
                    let posts_to = self.open_legacy().await?;
                    Ok((self.open_session().await?, posts_to))
                };
                let (info, posts_to) = fallback.await.map_err(|legacy| {
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
                Ok((info, used(true, with_post_origin(&reason, posts_to))))
            }
            Err(error) => Err(error),
        }
    }

    /// Replaces the transport with the legacy one, once its stream named where to POST:
    /// the origin messages go to.
    async fn open_legacy(&self) -> Result<Option<String>, McpError> {
        let inbox: Rc<dyn Inbox> = Rc::new(self.background());
        let legacy = Legacy::open(
            endpoint(self.config()),
            self.runtime().clone(),
            self.config().request_timeout_ms,
            inbox,
        )
        .await?;
        let posts_to = legacy.post_origin();
        self.set_transport(Rc::new(legacy));
        Ok(posts_to)
    }

    /// Starts talking in the era the configuration allows: `server/discover` first (the
    /// stateless 2026-07-28 era) unless a handshake version is pinned or the transport is
    /// legacy SSE; `initialize` when the server is not provably modern. Returns an
    /// `initialize`-shaped result either way.
    async fn open_session(&self) -> Result<Value, McpError> {
        let choice = self.config().version;
        let session = self.session();
        let why_handshake = if self.is_legacy() {
            "the legacy SSE transport has only the handshake era".to_owned()
        } else if !choice.tries_modern() {
            "pinned in the settings".to_owned()
        } else if self.config().known_handshake {
            "this server refused server/discover before, so initialize was used at once".to_owned()
        } else {
            session.set_modern(true);
            self.set_protocol_version(Some(era::MODERN.to_owned()));
            let refused = match self.request(Step::Discover, era::DISCOVER, None).await {
                Ok(result) => match era::discover_as_initialize(&result) {
                    Some(info) => {
                        session.set_era_reason("the server answered server/discover");
                        return Ok(info);
                    }
                    None => "server/discover listed no 2026-07-28".to_owned(),
                },
                Err(error) if choice == VersionChoice::Pinned(era::MODERN) => return Err(error),
                // A refusal to authorize says nothing about the era: the answer to it is
                // signing in, then server/discover again, not `initialize`.
                // So is a version refused even after the one retry (never another era).
                Err(
                    error @ McpError {
                        kind:
                            ErrorKind::HttpStatus {
                                status: 401 | 403, ..
                            }
                            | ErrorKind::VersionRefused { .. },
                        ..
                    },
                ) => return Err(error),
                Err(error) => {
                    if era::after_failed_discover(&error.kind) == DiscoverFailed::Incompatible {
                        return Err(error);
                    }
                    // A blocked probe is the browser's CORS check: worth the person's eye.
                    session.set_era_warning(matches!(error.kind, ErrorKind::Network { .. }));
                    era::discover_refusal(&error.kind)
                }
            };
            session.set_modern(false);
            self.set_protocol_version(None);
            format!("{refused}, so initialize was used")
        };
        session.set_era_reason(&why_handshake);
        self.request(
            Step::Initialize,
            mcp::INITIALIZE,
            Some(capabilities::initialize_params(
                choice.handshake_version(),
                self.config().mcp_apps,
            )),
        )
        .await
    }

    /// The protocol version in use, and on the transport's requests.
    fn set_protocol_version(&self, version: Option<String>) {
        self.transport().set_protocol_version(version.clone());
        self.session().set_protocol_version(version);
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
        self.session().is_modern()
    }

    /// Sends a request and waits for its raw `result`.
    ///
    /// Deliberately not generic over the result type, and boxed: async state machines are
    /// inlined into every caller otherwise, and this one is large. One copy in the wasm;
    /// decoding into the expected type happens after.
    pub(crate) fn request(
        &self,
        step: Step,
        method: &'static str,
        params: Option<Value>,
    ) -> LocalBoxFuture<'_, Result<Value, McpError>> {
        let id = self.engine().next_id();
        self.request_as(id, step, method, params)
    }

    /// [`Self::request`] with an id allocated by the caller (who may need it first, to
    /// cancel the request or match its progress).
    pub(crate) fn request_as(
        &self,
        id: RequestId,
        step: Step,
        method: &'static str,
        params: Option<Value>,
    ) -> LocalBoxFuture<'_, Result<Value, McpError>> {
        self.request_mirrored(id, step, method, params, Vec::new())
    }

    /// [`Self::request_as`] with a tool call's `Mcp-Param-*` headers (SEP-2243), sent on
    /// every try of the request (input rounds, the version retry, a renewal's replay).
    pub(crate) fn request_mirrored(
        &self,
        id: RequestId,
        step: Step,
        method: &'static str,
        params: Option<Value>,
        mirrored: Vec<(String, String)>,
    ) -> LocalBoxFuture<'_, Result<Value, McpError>> {
        Box::pin(async move {
            let sent_session = self.transport().session_id();
            let once = self
                .request_inner(
                    id.clone(),
                    step,
                    method,
                    params.clone(),
                    mirrored.clone(),
                    Tries::default(),
                )
                .await;
            match once {
                Err(error)
                    if method != mcp::INITIALIZE
                        && session_gone(&error.kind, sent_session.is_some()) =>
                {
                    // The server forgot the session (restarted, or expired it): start a new
                    // one once, then send this request again.
                    self.renew_session(sent_session, &error.kind).await?;
                    self.request_inner(id, step, method, params, mirrored, Tries::default())
                        .await
                }
                other => other,
            }
        })
    }

    /// Initializes a new session after the server lost ours. Requests that fail together
    /// share one renewal; a request that failed on an already-replaced session just retries.
    pub(crate) async fn renew_session(
        &self,
        lost: Option<String>,
        why: &ErrorKind,
    ) -> Result<(), McpError> {
        if let Some(running) = self.session().renewal() {
            return running.await;
        }
        if self.transport().session_id() != lost {
            return Ok(()); // already renewed
        }
        let client = self.background();
        let reason = why.to_string();
        let renewal = async move {
            client.transport().forget_session();
            let info = client
                .request(
                    Step::Initialize,
                    mcp::INITIALIZE,
                    Some(capabilities::initialize_params(
                        client.config().version.handshake_version(),
                        client.config().mcp_apps,
                    )),
                )
                .await?;
            let info: InitializeResult = decode(Step::Initialize, mcp::INITIALIZE, info)?;
            client.set_protocol_version(Some(info.protocol_version.to_string()));
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
        self.session().set_renewal(Some(renewal.clone()));
        let outcome = renewal.await;
        self.session().set_renewal(None);
        outcome
    }

    /// Ends the session: fails every request in flight, stops the streams, then sends DELETE
    /// (when the server gave a session id). The client is unusable afterwards, even if the
    /// DELETE fails.
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// client.disconnect().await?;
    /// assert!(client.ping().await.is_err()); // not connected
    /// # Ok(()) }
    /// ```
    pub async fn disconnect(&self) -> Result<(), McpError> {
        if !self.session().end() {
            return Ok(());
        }
        self.fail_pending(ErrorKind::Cancelled);
        self.server_requests().forget_all(); // input rounds fail as declined
        self.transport()
            .close()
            .await
            .map_err(|kind| McpError::new(Step::Disconnect, kind))
    }
}

/// A legacy transport's reason, with where its messages go (the endpoint's origin, which is
/// always the SSE URL's: see `resolve_endpoint`).
fn with_post_origin(reason: &str, posts_to: Option<String>) -> String {
    match posts_to {
        Some(origin) => format!("{reason}; messages are POSTed to {origin}"),
        None => reason.to_owned(),
    }
}
