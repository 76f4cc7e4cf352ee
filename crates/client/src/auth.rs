//! MCP authorization (OAuth 2.1) over the client's [`Http`]: discovery, the client's
//! identity, the authorization URL, the code exchange, refresh, client credentials, and the
//! token the request engine adds to requests. The rules are data in
//! [`mcp_lens_protocol::auth`]; this module only sends and records.
//!
//! The page drives it: a server answers 401 (the engine records its challenge here and the
//! connect or call fails), the page calls [`OAuth::start`] and opens the URL it returns (a
//! popup), hands the redirect to [`OAuth::finish`], then connects again. Meanwhile the
//! engine sends `Authorization: Bearer` on every request to the server's own origin, refreshes
//! on 401 and retries that request once.
//!
//! Step by step ([`OAuth::set_stepper`], [`StepGate`]): the flow waits before each request it
//! sends, telling the page what it will send and why, until the person lets it go or stops it.
//!
//! Invariants: tokens, refresh tokens, client secrets, codes and verifiers never enter the
//! step log, `Debug` output or errors; the access token is sent only to the origin of the
//! server URL given in [`OAuthSettings`], never to another; credentials go to a token
//! endpoint only over HTTPS or to this machine. At most [`MAX_AUTHORIZATIONS`] authorizations
//! follow each other without a request the server accepted in between.
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! use mcp_lens_client::auth::{ClientChoice, OAuth, OAuthSettings};
//! use mcp_lens_client::{ClientConfig, McpClient};
//! let auth = OAuth::browser(OAuthSettings::new(
//!     "https://mcp.example.com/mcp",
//!     "https://app.example/callback.html",
//!     ClientChoice::automatic(None),
//! ));
//! let mut config = ClientConfig::new("https://mcp.example.com/mcp");
//! config.auth = Some(auth.clone());
//! if let Err(error) = McpClient::connect(config.clone(), |_| {}).await {
//!     if auth.needs_authorization() {
//!         let authorize = auth.start().await?;
//!         // Open authorize.url in a popup; its redirect comes back to the page:
//!         let redirect = "https://app.example/callback.html?code=...&state=...";
//!         auth.finish(redirect).await?;
//!         McpClient::connect(config, |_| {}).await?;
//!     } else {
//!         return Err(error.into());
//!     }
//! }
//! # Ok(()) }
//! ```

use crate::runtime::{Clock, Http, HttpRequest, HttpResponse, Runtime};
pub use crate::runtime::{Random, Signer};
use futures::future::{LocalBoxFuture, Shared};
use futures::FutureExt;
use mcp_lens_protocol::auth::challenge::{bearer_challenge, BearerChallenge};
use mcp_lens_protocol::auth::discovery::{
    auth_server_metadata_urls, check_resource, is_secure_endpoint, prm_urls, try_next_after,
    AuthServerMetadata, HttpUrl, ProtectedResourceMetadata,
};
use mcp_lens_protocol::auth::encode::base64url;
use mcp_lens_protocol::auth::jwt::{
    assertion_signing_input, compact, unverified_claims, PrivateKey,
};
use mcp_lens_protocol::auth::messages::{
    check_metadata_document_url, client_metadata, parse_id_jag_answer, parse_token_answer,
    token_request, AuthorizationRequest, Callback, ClientAuthMethod, ClientId, Grant,
    RegisteredClient, Tokens,
};
use mcp_lens_protocol::auth::pkce::{state_from_random, Pkce};
use mcp_lens_protocol::auth::scope::{choose_scope, step_up_scope};
use mcp_lens_protocol::auth::{AuthError, AuthErrorKind, AuthStep};
use mcp_lens_protocol::error::{excerpt, ErrorKind};
use mcp_lens_protocol::transport_choice::origin_of;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{json, Value};
use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

pub use mcp_lens_protocol::auth as rules;

mod stepper;
pub use stepper::{NextStep, Release, StepGate, Stepper};

/// Authorizations in a row (with no request accepted in between) before [`OAuth::start`]
/// refuses: a server that always answers 403 never loops the person through sign-ins
/// (conformance auth/scope-retry-limit allows three).
pub const MAX_AUTHORIZATIONS: u32 = 3;

/// Entries the step log keeps (the oldest go first).
pub const LOG_ENTRIES: usize = 200;

/// A token is refreshed this long before it expires (at most: see [`refresh_at`]).
const EXPIRY_MARGIN_MS: f64 = 30_000.0;

/// When a token obtained at `obtained_ms` that lives `expires_in` seconds is refreshed before
/// a request: [`EXPIRY_MARGIN_MS`] before it expires, or a quarter of its lifetime before when
/// that is shorter (a token living 10 s would otherwise be refreshed before every request).
fn refresh_at(obtained_ms: f64, expires_in: u64) -> f64 {
    let lifetime = expires_in as f64 * 1000.0;
    obtained_ms + lifetime - EXPIRY_MARGIN_MS.min(lifetime / 4.0)
}

/// The most an authorization answer (metadata, registration, token) may be.
const ANSWER_BYTES: usize = 1024 * 1024;

/// For a flow made without a signer: `private_key_jwt` fails with this sentence.
struct NoSigner;

impl Signer for NoSigner {
    fn unix_seconds(&self) -> u64 {
        0
    }

    fn sign(&self, _: &PrivateKey, _: &[u8]) -> LocalBoxFuture<'static, Result<Vec<u8>, String>> {
        Box::pin(async { Err("this client was made without a signer".to_owned()) })
    }
}

/// How the client identifies itself to the authorization server (the spec's order of
/// preference: pre-registered, then a Client ID Metadata Document, then registration).
///
/// ```
/// use mcp_lens_client::auth::ClientChoice;
/// let typed = ClientChoice::Preregistered { client_id: "my-app".into(), client_secret: None, private_key: None, for_issuer: None };
/// assert!(!format!("{typed:?}").is_empty());
/// let automatic = ClientChoice::automatic(Some("https://app.example/client.json".into()));
/// # let _ = automatic;
/// ```
#[derive(Clone)]
pub enum ClientChoice {
    /// An id the person registered with the authorization server, and its secret or the
    /// private key (PKCS #8 PEM) it signs `private_key_jwt` assertions with.
    Preregistered {
        client_id: String,
        client_secret: Option<String>,
        private_key: Option<String>,
        /// The authorization server (its issuer) the secret or key was entered for: they go
        /// to that issuer's token endpoint only, since it is the MCP server's metadata that
        /// names the authorization server. `None`: the first flow stops before sending either,
        /// with [`AuthErrorKind::ConfirmIssuer`] naming the issuer found, for the page to ask.
        for_issuer: Option<String>,
    },
    /// A Client ID Metadata Document URL when the server supports them and one is given;
    /// else a registration remembered for this server (`known`, by issuer); else Dynamic
    /// Client Registration (its result: [`OAuth::registered_client`]).
    Automatic {
        metadata_document_url: Option<String>,
        known: Vec<RegisteredClient>,
    },
}

impl ClientChoice {
    pub fn automatic(metadata_document_url: Option<String>) -> Self {
        ClientChoice::Automatic {
            metadata_document_url,
            known: Vec::new(),
        }
    }
}

impl fmt::Debug for ClientChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientChoice::Preregistered {
                client_id,
                client_secret,
                private_key,
                for_issuer,
            } => f
                .debug_struct("Preregistered")
                .field("client_id", client_id)
                .field("for_issuer", for_issuer)
                .field(
                    "client_secret",
                    &client_secret.as_ref().map(|_| "[redacted]"),
                )
                .field("private_key", &private_key.as_ref().map(|_| "[redacted]"))
                .finish(),
            ClientChoice::Automatic {
                metadata_document_url,
                known,
            } => f
                .debug_struct("Automatic")
                .field("metadata_document_url", metadata_document_url)
                .field("known", known)
                .finish(),
        }
    }
}

/// What the flow needs from the page.
///
/// ```
/// use mcp_lens_client::auth::{ClientChoice, OAuthSettings};
/// let settings = OAuthSettings::new("https://mcp.example.com/mcp", "https://app.example/cb", ClientChoice::automatic(None));
/// assert_eq!(settings.client_name, "mcp-lens");
/// ```
#[derive(Debug, Clone)]
pub struct OAuthSettings {
    /// The MCP server (the protected resource); the token goes to its origin only.
    pub server_url: String,
    /// Where the authorization server sends the person back (the app's callback page).
    pub redirect_uri: String,
    /// Shown by the authorization server on its consent page (registration).
    pub client_name: String,
    pub client: ClientChoice,
    /// Cross-app access (SEP-990): sign in with an ID token from the person's identity
    /// provider instead of a sign-in window ([`OAuth::cross_app_access`]).
    pub cross_app: Option<CrossApp>,
}

impl OAuthSettings {
    pub fn new(server_url: &str, redirect_uri: &str, client: ClientChoice) -> Self {
        Self {
            server_url: server_url.to_owned(),
            redirect_uri: redirect_uri.to_owned(),
            client_name: "mcp-lens".to_owned(),
            client,
            cross_app: None,
        }
    }
}

/// What cross-app access needs from the person: their identity provider's token endpoint,
/// the client id (and optional secret) this app has there, and an ID token it issued them.
/// `Debug` hides the token and the secret.
#[derive(Clone, PartialEq, Eq)]
pub struct CrossApp {
    pub idp_token_endpoint: String,
    pub idp_client_id: String,
    pub idp_client_secret: Option<String>,
    pub id_token: String,
}

impl fmt::Debug for CrossApp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CrossApp")
            .field("idp_token_endpoint", &self.idp_token_endpoint)
            .field("idp_client_id", &self.idp_client_id)
            .field(
                "idp_client_secret",
                &self.idp_client_secret.as_ref().map(|_| "[redacted]"),
            )
            .field("id_token", &"[redacted]")
            .finish()
    }
}

/// One step of the flow as the auth view shows it: the request (secrets redacted), the
/// answer (secrets redacted), and what was decided.
///
/// ```
/// use mcp_lens_client::auth::AuthLogEntry;
/// use mcp_lens_client::protocol::auth::AuthStep;
/// let entry = AuthLogEntry { at_ms: 0.0, step: AuthStep::ResourceMetadata, method: Some("GET"),
///     url: Some("https://mcp.example.com/.well-known/oauth-protected-resource".into()),
///     sent: None, status: Some(404), received: None, note: "not here; trying the next URL".into(), failed: false };
/// assert_eq!(entry.status, Some(404));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct AuthLogEntry {
    pub at_ms: f64,
    pub step: AuthStep,
    /// The HTTP method, when this step sent a request.
    pub method: Option<&'static str>,
    pub url: Option<String>,
    /// The request's headers and body, redacted.
    pub sent: Option<String>,
    pub status: Option<u16>,
    /// The answer's body, redacted.
    pub received: Option<String>,
    /// What was decided and why (or the failure's sentence).
    pub note: String,
    pub failed: bool,
}

/// Where to send the person: open `url` (a popup); the redirect carries `state`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Authorize {
    pub url: String,
    pub state: String,
}

/// What discovery found.
#[derive(Debug, Clone, PartialEq)]
pub struct Discovered {
    /// `None` for a 2025-03-26 server without Protected Resource Metadata.
    pub resource_metadata: Option<ProtectedResourceMetadata>,
    /// The `resource` parameter sent (RFC 8707).
    pub resource: String,
    pub auth_server: AuthServerMetadata,
}

/// What a flow found and chose that a page may keep across a reload ([`OAuth::saved_flow`],
/// [`OAuth::restore`]): the server it is for, discovery's result, and the client's id and how
/// it authenticates, so a token kept from before can be refreshed. No secret: a client
/// secret or private key comes again from the new flow's [`OAuthSettings`], so it is only
/// where the page already keeps those. Serialized as JSON through `serde_json::Value`, the
/// metadata as their documents (no derived code for the metadata types: the wasm is smaller).
#[derive(Debug, Clone, PartialEq)]
pub struct SavedFlow {
    server_url: String,
    discovered: Discovered,
    client_id: String,
    /// [`ClientAuthMethod::as_str`].
    client_auth: String,
    /// The client came from Dynamic Client Registration (the next sign-in reuses it).
    registered: bool,
}

impl SavedFlow {
    /// The MCP server the flow was for.
    pub fn server_url(&self) -> &str {
        &self.server_url
    }

    fn to_json(&self) -> Value {
        let discovered = &self.discovered;
        json!({
            "server_url": self.server_url,
            "resource": discovered.resource,
            "resource_metadata": discovered.resource_metadata.as_ref().map(ProtectedResourceMetadata::to_json),
            "auth_server": discovered.auth_server.to_json(),
            "from_document": discovered.auth_server.from_document,
            "client_id": self.client_id,
            "client_auth": self.client_auth,
            "registered": self.registered,
        })
    }

    fn from_json(value: &Value) -> Option<Self> {
        let text = |key: &str| value.get(key)?.as_str().map(str::to_owned);
        let resource_metadata = match value.get("resource_metadata") {
            Some(Value::Null) | None => None,
            Some(prm) => Some(ProtectedResourceMetadata::parse(&prm.to_string()).ok()?),
        };
        let mut auth_server =
            AuthServerMetadata::parse(&value.get("auth_server")?.to_string()).ok()?;
        auth_server.from_document = value.get("from_document")?.as_bool()?;
        Some(Self {
            server_url: text("server_url")?,
            discovered: Discovered {
                resource_metadata,
                resource: text("resource")?,
                auth_server,
            },
            client_id: text("client_id")?,
            client_auth: text("client_auth")?,
            registered: value.get("registered")?.as_bool()?,
        })
    }
}

/// Through `serde_json::Value` (see [`SavedFlow`]).
fn from_value<'de, D: Deserializer<'de>, T>(
    deserializer: D,
    read: impl FnOnce(&Value) -> Option<T>,
    what: &str,
) -> Result<T, D::Error> {
    let value = Value::deserialize(deserializer)?;
    read(&value).ok_or_else(|| serde::de::Error::custom(format!("not {what}")))
}

impl Serialize for SavedFlow {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for SavedFlow {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        from_value(deserializer, SavedFlow::from_json, "a kept sign-in flow")
    }
}

/// An authorization started and not finished, for a page that sends its own tab to the
/// authorization URL (when pop-ups are blocked) and so loses its memory:
/// [`OAuth::pending_sign_in`] gives it after [`OAuth::start`], the page keeps it while away
/// (the tab's sessionStorage), and [`OAuth::resume`] takes it back in the page that comes
/// back, before [`OAuth::finish`]. It holds the PKCE verifier: `Debug` hides it, and a page
/// keeps it no longer than the trip.
#[derive(Clone, PartialEq)]
pub struct PendingSignIn {
    flow: SavedFlow,
    redirect_uri: String,
    state: String,
    verifier: String,
    scope: Option<String>,
    authorizations: u32,
}

impl PendingSignIn {
    /// The `state` the redirect must carry (not a secret: it is in the authorization URL).
    pub fn state(&self) -> &str {
        &self.state
    }

    /// The MCP server the sign-in is for.
    pub fn server_url(&self) -> &str {
        &self.flow.server_url
    }

    fn to_json(&self) -> Value {
        json!({
            "flow": self.flow.to_json(),
            "redirect_uri": self.redirect_uri,
            "state": self.state,
            "verifier": self.verifier,
            "scope": self.scope,
            "authorizations": self.authorizations,
        })
    }

    fn from_json(value: &Value) -> Option<Self> {
        let text = |key: &str| value.get(key)?.as_str().map(str::to_owned);
        Some(Self {
            flow: SavedFlow::from_json(value.get("flow")?)?,
            redirect_uri: text("redirect_uri")?,
            state: text("state")?,
            verifier: text("verifier")?,
            scope: text("scope"),
            authorizations: u32::try_from(value.get("authorizations")?.as_u64()?).ok()?,
        })
    }
}

impl Serialize for PendingSignIn {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for PendingSignIn {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        from_value(
            deserializer,
            PendingSignIn::from_json,
            "a sign-in in progress",
        )
    }
}

impl fmt::Debug for PendingSignIn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PendingSignIn")
            .field("flow", &self.flow)
            .field("redirect_uri", &self.redirect_uri)
            .field("state", &self.state)
            .field("verifier", &"[redacted]")
            .field("scope", &self.scope)
            .field("authorizations", &self.authorizations)
            .finish()
    }
}

/// The last refusal the server sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub status: u16,
    /// `None` when the answer had no (readable) Bearer challenge.
    pub challenge: Option<BearerChallenge>,
}

/// An authorization started and not finished.
struct Pending {
    pkce: Pkce,
    state: String,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum GrantKind {
    Code,
    ClientCredentials,
    CrossApp,
}

struct Held {
    tokens: Tokens,
    /// `Clock::now_ms` when the access token is to be refreshed before a request (before it
    /// expires: [`refresh_at`]), if its lifetime was said.
    refresh_at: Option<f64>,
    grant: GrantKind,
}

impl State {
    /// A new access token: what the server said of the old one no longer applies (a 403
    /// asking for more scope is answered by it).
    fn new_token(&mut self) {
        self.generation += 1;
        self.refusal = None;
        self.token_accepted = false;
        self.token_refused = false;
    }
}

#[derive(Default)]
struct State {
    refusal: Option<Refusal>,
    discovered: Option<Discovered>,
    client: Option<ClientId>,
    registered: Option<RegisteredClient>,
    pending: Option<Pending>,
    held: Option<Held>,
    /// Increases with every new access token (a request sent with an older one that is
    /// refused retries with the new one instead of refreshing again).
    generation: u64,
    /// The scope of the last authorization (the base of a step-up).
    requested_scope: Option<String>,
    /// Authorizations since the server last accepted a token it never refused.
    authorizations: u32,
    /// The server accepted a request made with the token held (since it was obtained).
    token_accepted: bool,
    /// The server refused a request made with the token held (since it was obtained).
    token_refused: bool,
    log: Vec<AuthLogEntry>,
}

type Refresh = Shared<LocalBoxFuture<'static, bool>>;

/// Hears each new step-log entry.
type LogListener = Box<dyn Fn(&AuthLogEntry)>;

struct Inner {
    http: Rc<dyn Http>,
    clock: Rc<dyn Clock>,
    random: Rc<dyn Random>,
    signer: Rc<dyn Signer>,
    settings: OAuthSettings,
    state: RefCell<State>,
    refreshing: RefCell<Option<Refresh>>,
    on_log: RefCell<Option<LogListener>>,
    stepper: RefCell<Option<Rc<dyn Stepper>>>,
}

/// One server's authorization: the flow and the tokens it got. Clones share it; give one to
/// [`crate::ClientConfig::auth`] so the session uses its token.
#[derive(Clone)]
pub struct OAuth(Rc<Inner>);

impl PartialEq for OAuth {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl fmt::Debug for OAuth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OAuth")
            .field("server_url", &self.0.settings.server_url)
            .field("signed_in", &self.is_signed_in())
            .finish_non_exhaustive()
    }
}

fn fail(step: AuthStep) -> impl Fn(AuthErrorKind) -> AuthError {
    move |kind| AuthError::new(step, kind)
}

/// Why no metadata was read when some URLs could not be read at all (`blocked`: URL and
/// failure): the browser hides whether they are absent or send no CORS headers, so the error
/// names them and the header they need ("no metadata was found" would hide the likelier cause).
fn unreadable(step: AuthStep, blocked: &[(String, String)]) -> Option<AuthError> {
    let (_, detail) = blocked.first()?;
    let urls: Vec<&str> = blocked.iter().map(|(url, _)| url.as_str()).collect();
    Some(AuthError::new(
        step,
        AuthErrorKind::Network {
            url: urls.join(" and "),
            detail: detail.clone(),
        },
    ))
}

/// JSON members whose values are secrets, blanked in the step log.
const SECRET_MEMBERS: [&str; 5] = [
    "access_token",
    "refresh_token",
    "id_token",
    "client_secret",
    "registration_access_token",
];

/// A JSON answer with its secret members replaced (other text is kept, cut short).
fn redact_answer(body: &str) -> String {
    match serde_json::from_str::<serde_json::Value>(body) {
        Ok(serde_json::Value::Object(mut object)) => {
            for key in SECRET_MEMBERS {
                if let Some(value) = object.get_mut(key) {
                    *value = serde_json::Value::String("[redacted]".to_owned());
                }
            }
            serde_json::Value::Object(object).to_string()
        }
        _ => excerpt(body, 2_000),
    }
}

impl OAuth {
    /// A flow over `runtime`'s HTTP and clock with `random` for PKCE and `state`, and no
    /// signer (`private_key_jwt` refuses with a sentence).
    pub fn new(runtime: &Runtime, random: Rc<dyn Random>, settings: OAuthSettings) -> Self {
        Self::with_signer(runtime, random, Rc::new(NoSigner), settings)
    }

    /// [`OAuth::new`] with a signer for `private_key_jwt` client assertions.
    pub fn with_signer(
        runtime: &Runtime,
        random: Rc<dyn Random>,
        signer: Rc<dyn Signer>,
        settings: OAuthSettings,
    ) -> Self {
        Self(Rc::new(Inner {
            http: runtime.http.clone(),
            clock: runtime.clock.clone(),
            random,
            signer,
            settings,
            state: RefCell::default(),
            refreshing: RefCell::default(),
            on_log: RefCell::default(),
            stepper: RefCell::default(),
        }))
    }

    /// In the page: `fetch`, the page's clock, `crypto.getRandomValues`, WebCrypto.
    pub fn browser(settings: OAuthSettings) -> Self {
        Self::with_signer(
            &Runtime::browser(),
            Rc::new(crate::browser::random::CryptoRandom),
            Rc::new(crate::browser::sign::WebCryptoSigner),
            settings,
        )
    }

    pub fn settings(&self) -> &OAuthSettings {
        &self.0.settings
    }

    /// Called with each new step-log entry (the auth view's live feed).
    pub fn on_log(&self, listener: impl Fn(&AuthLogEntry) + 'static) {
        *self.0.on_log.borrow_mut() = Some(Box::new(listener));
    }

    /// Step by step: the flow waits for `stepper` before each request it sends (see
    /// [`Stepper`]); `None` (the default) sends each at once.
    pub fn set_stepper(&self, stepper: Option<Rc<dyn Stepper>>) {
        *self.0.stepper.borrow_mut() = stepper;
    }

    /// Waits for the stepper, if there is one, before `next` is sent. (Boxed: one copy of
    /// it, not one in each request's future.)
    fn pass(&self, next: NextStep) -> LocalBoxFuture<'static, Result<(), AuthError>> {
        let stepper = self.0.stepper.borrow().clone();
        Box::pin(async move {
            match stepper {
                Some(stepper) if stepper.before(&next).await == Release::Stop => {
                    Err(AuthError::new(next.step, AuthErrorKind::Stopped))
                }
                _ => Ok(()),
            }
        })
    }

    fn flow_ended(&self) {
        let stepper = self.0.stepper.borrow().clone();
        if let Some(stepper) = stepper {
            stepper.flow_ended();
        }
    }

    /// The step log so far, oldest first.
    pub fn log(&self) -> Vec<AuthLogEntry> {
        self.0.state.borrow().log.clone()
    }

    /// The server's last 401 or 403, as the engine (or [`OAuth::note_refusal`]) recorded it.
    pub fn refusal(&self) -> Option<Refusal> {
        self.0.state.borrow().refusal.clone()
    }

    /// Whether the server refused and a new authorization ([`OAuth::start`]) is what helps:
    /// a 401 with no token left to try, or a 403 asking for more scope.
    pub fn needs_authorization(&self) -> bool {
        let state = self.0.state.borrow();
        match &state.refusal {
            Some(Refusal { status: 401, .. }) => state.held.is_none(),
            Some(Refusal {
                status: 403,
                challenge: Some(challenge),
            }) => challenge.is_insufficient_scope(),
            _ => false,
        }
    }

    pub fn is_signed_in(&self) -> bool {
        self.0.state.borrow().held.is_some()
    }

    /// The registration made by Dynamic Client Registration, to remember per issuer.
    pub fn registered_client(&self) -> Option<RegisteredClient> {
        self.0.state.borrow().registered.clone()
    }

    /// What discovery found, once it ran.
    pub fn discovered(&self) -> Option<Discovered> {
        self.0.state.borrow().discovered.clone()
    }

    /// What discovery found and the client chosen, once both are known, for the page to keep
    /// beside the tokens ([`OAuth::restore`] takes it back).
    pub fn saved_flow(&self) -> Option<SavedFlow> {
        let state = self.0.state.borrow();
        let (Some(discovered), Some(client)) = (&state.discovered, &state.client) else {
            return None;
        };
        Some(SavedFlow {
            server_url: self.0.settings.server_url.clone(),
            discovered: discovered.clone(),
            client_id: client.client_id.clone(),
            client_auth: client.method.as_str().to_owned(),
            registered: state
                .registered
                .as_ref()
                .is_some_and(|r| r.client_id == client.client_id),
        })
    }

    /// Takes back what [`OAuth::saved_flow`] gave (a page reloaded with its tokens kept), so
    /// a refresh needs no new discovery or sign-in. Refused when it is for another server, or
    /// when its client authenticates with a secret or key these settings do not have.
    pub fn restore(&self, saved: SavedFlow) -> Result<(), AuthError> {
        let outcome = self.restore_flow(AuthStep::Refresh, saved).map(|client| {
            self.record(
                AuthStep::Refresh,
                &format!(
                    "kept from before the page was reloaded: the authorization server {} and the client {} ({})",
                    self.discovered().map(|d| d.auth_server.issuer).unwrap_or_default(),
                    client.client_id,
                    client.method.as_str()
                ),
            );
        });
        if let Err(error) = &outcome {
            self.record_failure(error);
        }
        outcome
    }

    /// Checks `saved` against these settings and holds its discovery and client.
    fn restore_flow(&self, step: AuthStep, saved: SavedFlow) -> Result<ClientId, AuthError> {
        let settings = &self.0.settings;
        let invalid = |detail: String| {
            AuthError::new(
                step,
                AuthErrorKind::Invalid {
                    what: "what this tab kept of the sign-in".to_owned(),
                    detail,
                },
            )
        };
        if saved.server_url != settings.server_url {
            return Err(invalid(format!(
                "it is for {}, not {}",
                saved.server_url, settings.server_url
            )));
        }
        let method = ClientAuthMethod::parse(&saved.client_auth).ok_or_else(|| {
            invalid(format!(
                "\"{}\" is not a client authentication",
                saved.client_auth
            ))
        })?;
        let typed = match &settings.client {
            ClientChoice::Preregistered {
                client_id,
                client_secret,
                private_key,
                ..
            } => {
                self.check_secret_destination(&saved.discovered.auth_server.issuer)?;
                if *client_id != saved.client_id {
                    return Err(invalid(format!(
                        "it is for the client {}, not {client_id}",
                        saved.client_id
                    )));
                }
                Some((client_secret.clone(), private_key.is_some()))
            }
            ClientChoice::Automatic { .. } => None,
        };
        let secret = match method {
            ClientAuthMethod::None => None,
            ClientAuthMethod::PrivateKeyJwt => match typed {
                Some((_, true)) => None,
                _ => {
                    return Err(AuthError::new(
                        step,
                        AuthErrorKind::NotReady {
                            what: "paste the client's private key again (it is kept only in the page's memory) and sign in",
                        },
                    ))
                }
            },
            ClientAuthMethod::ClientSecretBasic | ClientAuthMethod::ClientSecretPost => {
                match typed {
                    Some((Some(secret), _)) => Some(secret),
                    _ => {
                        return Err(AuthError::new(
                            step,
                            AuthErrorKind::NotReady {
                                what: "give the client secret again (it was not kept in this tab) and sign in",
                            },
                        ))
                    }
                }
            }
        };
        let client = ClientId::new(saved.client_id.clone(), secret, method);
        let mut state = self.0.state.borrow_mut();
        if saved.registered {
            state.registered = Some(RegisteredClient::new(
                saved.discovered.auth_server.issuer.clone(),
                saved.client_id,
                None,
                Some(saved.client_auth),
            ));
        }
        state.discovered = Some(saved.discovered);
        state.client = Some(client.clone());
        Ok(client)
    }

    /// The `state` of the authorization [`OAuth::start`] began, while no redirect finished it:
    /// what tells the page which flow a redirect belongs to.
    pub fn pending_state(&self) -> Option<String> {
        Some(self.0.state.borrow().pending.as_ref()?.state.clone())
    }

    /// The authorization [`OAuth::start`] began and no redirect finished yet, for a page
    /// that leaves for the authorization URL in its own tab.
    pub fn pending_sign_in(&self) -> Option<PendingSignIn> {
        let flow = self.saved_flow()?;
        let state = self.0.state.borrow();
        let pending = state.pending.as_ref()?;
        Some(PendingSignIn {
            flow,
            redirect_uri: self.0.settings.redirect_uri.clone(),
            state: pending.state.clone(),
            verifier: pending.pkce.verifier().to_owned(),
            scope: state.requested_scope.clone(),
            authorizations: state.authorizations,
        })
    }

    /// Takes back an authorization begun by an earlier page in this tab
    /// ([`OAuth::pending_sign_in`]), so [`OAuth::finish`] can check the redirect's `state`
    /// and exchange its code. Refused when it is for another server, redirect URI or client.
    pub fn resume(&self, pending: PendingSignIn) -> Result<(), AuthError> {
        let outcome = self.resume_inner(pending);
        if let Err(error) = &outcome {
            self.record_failure(error);
        }
        outcome
    }

    fn resume_inner(&self, pending: PendingSignIn) -> Result<(), AuthError> {
        const STEP: AuthStep = AuthStep::Callback;
        if pending.redirect_uri != self.0.settings.redirect_uri {
            return Err(AuthError::new(
                STEP,
                AuthErrorKind::Invalid {
                    what: "what this tab kept of the sign-in".to_owned(),
                    detail: format!(
                        "it was sent back to {}, not {}",
                        pending.redirect_uri, self.0.settings.redirect_uri
                    ),
                },
            ));
        }
        let PendingSignIn {
            flow,
            state,
            verifier,
            scope,
            authorizations,
            ..
        } = pending;
        let client = self.restore_flow(STEP, flow)?;
        {
            let mut held = self.0.state.borrow_mut();
            held.authorizations = held.authorizations.max(authorizations);
            held.requested_scope = scope;
            held.pending = Some(Pending {
                pkce: Pkce::from_verifier(verifier),
                state,
            });
        }
        self.record(
            STEP,
            &format!(
                "back in this tab from the authorization server: the sign-in started before the page left \
                 resumes (its state, PKCE verifier, discovery and client {} were kept in this tab's sessionStorage)",
                client.client_id
            ),
        );
        Ok(())
    }

    /// The tokens held (for the page to keep in sessionStorage when the person asks).
    pub fn tokens(&self) -> Option<Tokens> {
        self.0
            .state
            .borrow()
            .held
            .as_ref()
            .map(|held| held.tokens.clone())
    }

    /// Uses tokens kept from before (sessionStorage). Their lifetime is unknown: a 401
    /// refreshes them.
    pub fn set_tokens(&self, tokens: Tokens) {
        let mut state = self.0.state.borrow_mut();
        state.new_token();
        state.held = Some(Held {
            tokens,
            refresh_at: None,
            grant: GrantKind::Code,
        });
    }

    /// Forgets the tokens and any authorization in progress (the registration and
    /// discovery stay).
    pub fn sign_out(&self) {
        let mut state = self.0.state.borrow_mut();
        state.held = None;
        state.pending = None;
        state.generation += 1;
        drop(state);
        self.record(
            AuthStep::Authorization,
            "signed out: the tokens were forgotten",
        );
    }

    /// Whether the token would be sent to `url`: the server's own origin only.
    ///
    /// ```
    /// # use mcp_lens_client::auth::{ClientChoice, OAuth, OAuthSettings};
    /// # fn check(auth: &OAuth) {
    /// assert!(auth.sends_token_to("https://mcp.example.com/other/path"));
    /// assert!(!auth.sends_token_to("https://evil.example.com/mcp"));
    /// # }
    /// ```
    pub fn sends_token_to(&self, url: &str) -> bool {
        match (origin_of(url), origin_of(&self.0.settings.server_url)) {
            (Some(to), Some(server)) => to == server,
            _ => false,
        }
    }

    /// Records a server's refusal read elsewhere (the engine does this itself).
    pub fn note_refusal(&self, status: u16, www_authenticate: Option<&str>) {
        let challenge = www_authenticate.and_then(bearer_challenge);
        let note = match &challenge {
            Some(challenge) => format!(
                "the server answered {status}{}{}{}",
                challenge
                    .error
                    .as_deref()
                    .map(|e| format!(", error {}", excerpt(e, 60)))
                    .unwrap_or_default(),
                challenge
                    .scope
                    .as_deref()
                    .map(|s| format!(", scope \"{}\"", excerpt(s, 200)))
                    .unwrap_or_default(),
                challenge
                    .resource_metadata
                    .as_deref()
                    .map(|r| format!(", resource metadata at {}", excerpt(r, 200)))
                    .unwrap_or_default(),
            ),
            None => format!(
                "the server answered {status} without a readable Bearer challenge (a browser reads \
                 WWW-Authenticate only when the server lists it in Access-Control-Expose-Headers); \
                 the well-known metadata URLs will be tried"
            ),
        };
        {
            let mut state = self.0.state.borrow_mut();
            state.token_refused |= state.held.is_some();
            state.refusal = Some(Refusal { status, challenge });
        }
        self.record(AuthStep::Challenge, &note);
    }

    fn now(&self) -> f64 {
        self.0.clock.now_ms()
    }

    fn push_log(&self, entry: AuthLogEntry) {
        if let Some(listener) = &*self.0.on_log.borrow() {
            listener(&entry);
        }
        let mut state = self.0.state.borrow_mut();
        if state.log.len() >= LOG_ENTRIES {
            state.log.remove(0);
        }
        state.log.push(entry);
    }

    fn record(&self, step: AuthStep, note: &str) {
        self.push_log(AuthLogEntry {
            at_ms: self.now(),
            step,
            method: None,
            url: None,
            sent: None,
            status: None,
            received: None,
            note: note.to_owned(),
            failed: false,
        });
    }

    /// Records the error a flow ended with, and ends the flow.
    fn record_failure(&self, error: &AuthError) {
        self.push_log(AuthLogEntry {
            at_ms: self.now(),
            step: error.step,
            method: None,
            url: None,
            sent: None,
            status: None,
            received: None,
            note: error.to_string(),
            failed: !error.is_stopped(),
        });
    }

    /// Sends one authorization request and reads its answer, logging both redacted.
    /// `logged` is what the log shows of the request; `why`, what led to it (told to a
    /// stepper first, which may hold it).
    #[allow(clippy::too_many_arguments)]
    async fn exchange(
        &self,
        step: AuthStep,
        method: &'static str,
        url: &str,
        headers: Vec<(String, String)>,
        body: Option<&str>,
        logged: Option<String>,
        why: String,
    ) -> Result<(u16, String), AuthError> {
        self.pass(NextStep {
            step,
            method,
            url: url.to_owned(),
            sent: logged.clone(),
            why,
        })
        .await?;
        let at_ms = self.now();
        let outcome = self
            .0
            .http
            .send(HttpRequest {
                method,
                url,
                headers,
                body,
                abort: None,
                // Registration and token requests: codes, verifiers, refresh tokens,
                // secrets and assertions must not follow a redirect to wherever it points.
                refuse_redirects: method == "POST",
            })
            .await;
        let mut entry = AuthLogEntry {
            at_ms,
            step,
            method: Some(method),
            url: Some(url.to_owned()),
            sent: logged,
            status: None,
            received: None,
            note: String::new(),
            failed: false,
        };
        let answer = match outcome {
            Ok(response) => {
                let status = response.status();
                entry.status = Some(status);
                match response.text(ANSWER_BYTES).await {
                    Ok(text) => Ok((status, text)),
                    Err(kind) => Err(AuthErrorKind::Invalid {
                        what: format!("the answer of {url}"),
                        detail: kind.to_string(),
                    }),
                }
            }
            Err(ErrorKind::Network { detail }) => Err(AuthErrorKind::Network {
                url: url.to_owned(),
                detail,
            }),
            Err(ErrorKind::Redirected) => Err(AuthErrorKind::Invalid {
                what: format!("the answer of {url}"),
                detail: "it is a redirect, which is not followed".to_owned(),
            }),
            Err(other) => Err(AuthErrorKind::Invalid {
                what: format!("the request to {url}"),
                detail: other.to_string(),
            }),
        };
        match &answer {
            Ok((_, text)) => entry.received = Some(redact_answer(text)),
            Err(kind) => {
                entry.note = kind.to_string();
                entry.failed = true;
            }
        }
        self.push_log(entry);
        answer.map_err(fail(step))
    }

    fn note_last(&self, note: String) {
        if let Some(entry) = self.0.state.borrow_mut().log.last_mut() {
            entry.note = note;
        }
    }

    /// GETs metadata from each URL in turn until one answers 2xx: 4xx, 502 and network
    /// failures (a browser cannot tell CORS from absence) move on to the next URL; `blocked`
    /// gets the URLs that failed so, with the failure. `why` says why each URL is tried.
    async fn first_document(
        &self,
        step: AuthStep,
        urls: &[String],
        why: &dyn Fn(&str) -> String,
        blocked: &mut Vec<(String, String)>,
    ) -> Result<Option<(String, String)>, AuthError> {
        for (index, url) in urls.iter().enumerate() {
            let headers = vec![("accept".to_owned(), "application/json".to_owned())];
            let why = match index {
                0 => why(url),
                _ => format!("the URL before had none; {}", why(url)),
            };
            match self
                .exchange(step, "GET", url, headers, None, None, why)
                .await
            {
                Ok((status, text)) if (200..300).contains(&status) => {
                    return Ok(Some((url.clone(), text)))
                }
                Ok((status, _)) if try_next_after(status) => {
                    self.note_last(format!("answered {status}: not here, trying the next URL"));
                }
                Ok((status, text)) => {
                    return Err(AuthError::new(
                        step,
                        AuthErrorKind::HttpStatus {
                            url: url.clone(),
                            status,
                            body_start: excerpt(&text, 300),
                        },
                    ))
                }
                Err(error) if error.is_network() => {
                    self.note_last(format!("{error} Trying the next URL."));
                    if let AuthErrorKind::Network { detail, .. } = error.kind {
                        blocked.push((url.clone(), detail));
                    }
                }
                Err(error) => return Err(error),
            }
        }
        Ok(None)
    }

    /// Finds the Protected Resource Metadata and the authorization server (see
    /// [`mcp_lens_protocol::auth::discovery`]). Refuses metadata for another resource.
    pub async fn discover(&self) -> Result<Discovered, AuthError> {
        let outcome = self.discover_inner(true).await;
        if let Err(error) = &outcome {
            self.record_failure(error);
        }
        self.flow_ended();
        outcome
    }

    async fn discover_inner(&self, code_flow: bool) -> Result<Discovered, AuthError> {
        let server = self.0.settings.server_url.clone();
        let challenge_url = self
            .refusal()
            .and_then(|r| r.challenge)
            .and_then(|c| c.resource_metadata)
            .filter(|url| HttpUrl::parse(url).is_some());
        let mut urls = prm_urls(&server).map_err(fail(AuthStep::ResourceMetadata))?;
        if let Some(url) = &challenge_url {
            urls.retain(|u| u != url);
            urls.insert(0, url.clone());
        }
        let mut prm_blocked = Vec::new();
        let root_prm = urls.last().cloned();
        let why_prm = |url: &str| {
            if Some(url) == challenge_url.as_deref() {
                "the server's 401 names it (resource_metadata in WWW-Authenticate)".to_owned()
            } else if Some(url) == root_prm.as_deref() {
                "the well-known URL at the server's origin (RFC 9728)".to_owned()
            } else {
                "the well-known URL for the server's path (RFC 9728)".to_owned()
            }
        };
        let prm = match self
            .first_document(
                AuthStep::ResourceMetadata,
                &urls,
                &why_prm,
                &mut prm_blocked,
            )
            .await?
        {
            Some((_, text)) => {
                let prm = ProtectedResourceMetadata::parse(&text)
                    .map_err(fail(AuthStep::ResourceMetadata))?;
                Some(prm)
            }
            None => None,
        };
        let (resource, issuer, legacy) = match &prm {
            Some(prm) => {
                let resource = check_resource(&server, prm)
                    .map_err(|(step, kind)| AuthError::new(step, kind))?;
                let issuer = prm.authorization_server().map(str::to_owned);
                self.note_last(format!(
                    "resource {resource} matches the server; authorization server: {}",
                    issuer
                        .as_deref()
                        .unwrap_or("none listed (the server's origin is used)")
                ));
                let legacy = issuer.is_none();
                (resource, issuer, legacy)
            }
            None => {
                // The server named its metadata, so it has some: unreadable there is most often
                // a missing CORS header, and guessing a 2025-03-26 server would mislead.
                let named = |(url, _): &(String, String)| Some(url) == challenge_url.as_ref();
                if let Some(error) = prm_blocked
                    .iter()
                    .any(named)
                    .then(|| unreadable(AuthStep::ResourceMetadata, &prm_blocked))
                    .flatten()
                {
                    return Err(error);
                }
                self.record(
                    AuthStep::ResourceMetadata,
                    if prm_blocked.is_empty() {
                        "no protected resource metadata: a 2025-03-26 server, whose origin is its authorization server"
                    } else {
                        "no protected resource metadata could be read (the browser hides why: absent, or \
                         sent without Access-Control-Allow-Origin): trying the 2025-03-26 way, the \
                         server's origin as its authorization server"
                    },
                );
                let resource = mcp_lens_protocol::auth::discovery::canonical_resource(&server)
                    .unwrap_or_else(|| server.clone());
                (resource, None, true)
            }
        };
        let issuer = match issuer {
            Some(issuer) => issuer,
            None => HttpUrl::parse(&server)
                .map(|url| url.origin)
                .unwrap_or_default(),
        };
        let urls: Vec<String> = auth_server_metadata_urls(&issuer)
            .into_iter()
            .map(|(url, _)| url)
            .collect();
        let named_by = if legacy {
            "the server's origin (no resource metadata names one)"
        } else {
            "named by the resource metadata"
        };
        let why_metadata = |url: &str| {
            let kind = if url.contains("/.well-known/openid-configuration") {
                "OpenID Connect discovery"
            } else {
                "RFC 8414"
            };
            format!("the authorization server is {issuer}, {named_by}; its {kind} metadata URL")
        };
        let mut blocked = Vec::new();
        let auth_server = match self
            .first_document(
                AuthStep::AuthServerMetadata,
                &urls,
                &why_metadata,
                &mut blocked,
            )
            .await?
        {
            Some((_, text)) => {
                let mut metadata =
                    AuthServerMetadata::parse(&text).map_err(fail(AuthStep::AuthServerMetadata))?;
                metadata
                    .validate(&issuer, legacy, code_flow)
                    .map_err(fail(AuthStep::AuthServerMetadata))?;
                let named = legacy.then(|| metadata.bind_to_origin(&issuer)).flatten();
                self.note_last(format!(
                    "issuer {}; PKCE S256; registration {}; client ID metadata documents {}",
                    metadata.issuer,
                    if metadata.registration_endpoint.is_some() {
                        "offered"
                    } else {
                        "not offered"
                    },
                    if metadata.client_id_metadata_document_supported {
                        "supported"
                    } else {
                        "not supported"
                    },
                ));
                if let Some(named) = named {
                    self.record(
                        AuthStep::AuthServerMetadata,
                        &format!(
                            "the metadata names the issuer {}, which nothing vouches for: with no resource \
                             metadata (2025-03-26) the server's origin is its authorization server, so {issuer} \
                             is the issuer (the audience of any assertion, the iss expected back)",
                            excerpt(&named, 200)
                        ),
                    );
                }
                metadata
            }
            None if legacy => {
                let fallback = AuthServerMetadata::fallback(&server).ok_or_else(|| {
                    AuthError::new(
                        AuthStep::AuthServerMetadata,
                        AuthErrorKind::NotFound {
                            what: "authorization server metadata",
                            tried: urls.clone(),
                        },
                    )
                })?;
                self.record(
                    AuthStep::AuthServerMetadata,
                    &format!(
                        "no metadata: using the 2025-03-26 defaults {}, {} and {}",
                        fallback.authorization_endpoint,
                        fallback.token_endpoint,
                        fallback.registration_endpoint.as_deref().unwrap_or("")
                    ),
                );
                fallback
            }
            None => {
                return Err(
                    unreadable(AuthStep::AuthServerMetadata, &blocked).unwrap_or_else(|| {
                        AuthError::new(
                            AuthStep::AuthServerMetadata,
                            AuthErrorKind::NotFound {
                                what: "authorization server metadata",
                                tried: urls,
                            },
                        )
                    }),
                )
            }
        };
        let discovered = Discovered {
            resource_metadata: prm,
            resource,
            auth_server,
        };
        self.0.state.borrow_mut().discovered = Some(discovered.clone());
        Ok(discovered)
    }

    /// The client's identity at the discovered server, registering if needed.
    async fn client_for(
        &self,
        discovered: &Discovered,
        scope: Option<&str>,
    ) -> Result<ClientId, AuthError> {
        let server = &discovered.auth_server;
        let supported = server.token_endpoint_auth_methods_supported.as_deref();
        self.check_secret_destination(&server.issuer)?;
        let (metadata_document_url, known) = match &self.0.settings.client {
            ClientChoice::Preregistered {
                client_id,
                private_key: Some(pem),
                ..
            } => {
                let key = PrivateKey::from_pem(pem).map_err(fail(AuthStep::ClientRegistration))?;
                key.check_accepted(
                    server
                        .token_endpoint_auth_signing_alg_values_supported
                        .as_deref(),
                )
                .map_err(fail(AuthStep::ClientRegistration))?;
                let listed = supported.is_none_or(|methods| {
                    methods.is_empty() || methods.iter().any(|m| m == "private_key_jwt")
                });
                self.record(
                    AuthStep::ClientRegistration,
                    &format!(
                        "using the pre-registered client {client_id} (private_key_jwt, {}){}",
                        key.alg.as_str(),
                        if listed {
                            ""
                        } else {
                            "; the server does not list private_key_jwt among its methods, trying it anyway"
                        }
                    ),
                );
                return Ok(ClientId::new(
                    client_id.clone(),
                    None,
                    ClientAuthMethod::PrivateKeyJwt,
                ));
            }
            ClientChoice::Preregistered {
                client_id,
                client_secret,
                private_key: None,
                ..
            } => {
                let method = ClientAuthMethod::select(None, client_secret.is_some(), supported);
                self.record(
                    AuthStep::ClientRegistration,
                    &format!(
                        "using the pre-registered client {client_id} ({})",
                        method.as_str()
                    ),
                );
                return Ok(ClientId::new(
                    client_id.clone(),
                    client_secret.clone(),
                    method,
                ));
            }
            ClientChoice::Automatic {
                metadata_document_url,
                known,
            } => (metadata_document_url, known),
        };
        if let Some(url) = metadata_document_url {
            if server.client_id_metadata_document_supported {
                check_metadata_document_url(url).map_err(fail(AuthStep::ClientRegistration))?;
                self.record(
                    AuthStep::ClientRegistration,
                    &format!(
                        "the server supports client ID metadata documents: the client ID is {url}"
                    ),
                );
                return Ok(ClientId::new(url.clone(), None, ClientAuthMethod::None));
            }
        } else if server.client_id_metadata_document_supported {
            self.record(
                AuthStep::ClientRegistration,
                "the server supports client ID metadata documents, but this app has none \
                 (a static build must be told its public https address: MCP_LENS_PUBLIC_URL); \
                 registering instead",
            );
        }
        let remembered = self
            .0
            .state
            .borrow()
            .registered
            .clone()
            .filter(|r| r.issuer == server.issuer)
            .or_else(|| known.iter().find(|r| r.issuer == server.issuer).cloned());
        let registered = match remembered {
            Some(registered) => {
                self.record(
                    AuthStep::ClientRegistration,
                    &format!(
                        "using the client {} registered with {} before",
                        registered.client_id, server.issuer
                    ),
                );
                registered
            }
            None => self.register(server, scope).await?,
        };
        let method = ClientAuthMethod::select(
            registered.auth_method.as_deref(),
            registered.secret().is_some(),
            supported,
        );
        Ok(ClientId::new(
            registered.client_id.clone(),
            registered.secret().map(str::to_owned),
            method,
        ))
    }

    /// A pre-registered secret or key goes only to the issuer it was entered for (see
    /// [`ClientChoice::Preregistered`]); with none named, nothing is sent until the person
    /// confirms the one found. Issuers are compared exactly (RFC 8414 names one string).
    fn check_secret_destination(&self, issuer: &str) -> Result<(), AuthError> {
        let ClientChoice::Preregistered {
            client_secret,
            private_key,
            for_issuer,
            ..
        } = &self.0.settings.client
        else {
            return Ok(());
        };
        if client_secret.is_none() && private_key.is_none() {
            return Ok(());
        }
        let kind = match for_issuer.as_deref() {
            Some(entered_for) if entered_for == issuer => return Ok(()),
            Some(entered_for) => AuthErrorKind::SecretForAnotherIssuer {
                entered_for: entered_for.to_owned(),
                found: issuer.to_owned(),
            },
            None => AuthErrorKind::ConfirmIssuer {
                issuer: issuer.to_owned(),
            },
        };
        Err(AuthError::new(AuthStep::ClientRegistration, kind))
    }

    async fn register(
        &self,
        server: &AuthServerMetadata,
        scope: Option<&str>,
    ) -> Result<RegisteredClient, AuthError> {
        let Some(endpoint) = &server.registration_endpoint else {
            return Err(AuthError::new(
                AuthStep::ClientRegistration,
                AuthErrorKind::NoClientIdentity {
                    issuer: server.issuer.clone(),
                },
            ));
        };
        let settings = &self.0.settings;
        let body = client_metadata(
            &settings.client_name,
            &[&settings.redirect_uri],
            scope,
            None,
        )
        .to_string();
        let headers = vec![
            ("content-type".to_owned(), "application/json".to_owned()),
            ("accept".to_owned(), "application/json".to_owned()),
        ];
        let why = format!(
            "no client id was given and none is registered with {} yet: registering this app \
             (RFC 7591 Dynamic Client Registration), scope {}",
            server.issuer,
            scope.unwrap_or("none (omitted)")
        );
        let (status, text) = self
            .exchange(
                AuthStep::ClientRegistration,
                "POST",
                endpoint,
                headers,
                Some(&body),
                Some(body.clone()),
                why,
            )
            .await?;
        let registered = RegisteredClient::parse(&server.issuer, endpoint, status, &text)
            .map_err(fail(AuthStep::ClientRegistration))?;
        self.note_last(format!("registered as {}", registered.client_id));
        self.0.state.borrow_mut().registered = Some(registered.clone());
        Ok(registered)
    }

    fn random<const N: usize>(&self, step: AuthStep) -> Result<[u8; N], AuthError> {
        let mut bytes = [0u8; N];
        self.0.random.fill(&mut bytes).map_err(|detail| {
            AuthError::new(
                step,
                AuthErrorKind::Invalid {
                    what: "the page's random numbers".to_owned(),
                    detail,
                },
            )
        })?;
        Ok(bytes)
    }

    /// Discovery (once), the client's identity, then the URL to send the person to, with
    /// the scope the spec's strategy picks (on a `403 insufficient_scope`: what was asked
    /// before plus what the server names). Refuses after [`MAX_AUTHORIZATIONS`] in a row.
    pub async fn start(&self) -> Result<Authorize, AuthError> {
        let outcome = self.start_inner().await;
        if let Err(error) = &outcome {
            self.record_failure(error);
            self.flow_ended(); // else it goes on in the sign-in window, then `finish`
        }
        outcome
    }

    async fn start_inner(&self) -> Result<Authorize, AuthError> {
        let attempts = {
            let mut state = self.0.state.borrow_mut();
            if state.token_accepted && !state.token_refused {
                state.authorizations = 0; // the last token worked: this is a new need
            }
            state.authorizations
        };
        if attempts >= MAX_AUTHORIZATIONS {
            return Err(AuthError::new(
                AuthStep::Authorization,
                AuthErrorKind::TooManyAttempts { attempts },
            ));
        }
        let discovered = match self.discovered() {
            Some(discovered) => discovered,
            None => self.discover_inner(true).await?,
        };
        let challenge = self.refusal().and_then(|r| r.challenge);
        let step_up = challenge
            .as_ref()
            .is_some_and(BearerChallenge::is_insufficient_scope);
        let challenge_scope = challenge.as_ref().and_then(|c| c.scope.as_deref());
        let wants_refresh = matches!(self.0.settings.client, ClientChoice::Automatic { .. });
        let scope = if step_up {
            let previous = self.0.state.borrow().requested_scope.clone();
            step_up_scope(previous.as_deref(), challenge_scope)
        } else {
            choose_scope(
                challenge_scope,
                discovered
                    .resource_metadata
                    .as_ref()
                    .and_then(|prm| prm.scopes_supported.as_deref()),
                discovered.auth_server.scopes_supported.as_deref(),
                wants_refresh,
            )
        };
        let client = self.client_for(&discovered, scope.as_deref()).await?;
        let pkce = Pkce::from_random(&self.random::<32>(AuthStep::Authorization)?);
        let state = state_from_random(&self.random::<16>(AuthStep::Authorization)?);
        let url = AuthorizationRequest {
            authorization_endpoint: &discovered.auth_server.authorization_endpoint,
            client_id: &client.client_id,
            redirect_uri: &self.0.settings.redirect_uri,
            code_challenge: &pkce.challenge,
            state: &state,
            scope: scope.as_deref(),
            resource: Some(&discovered.resource),
        }
        .url();
        let note = format!(
            "open this URL to sign in; scope: {}",
            scope.as_deref().unwrap_or("none (omitted)")
        );
        self.pass(NextStep {
            step: AuthStep::Authorization,
            method: "GET",
            url: url.clone(),
            sent: None,
            why: format!(
                "the client is {}; PKCE S256, a new state, resource {}: the sign-in window {note}",
                client.client_id, discovered.resource
            ),
        })
        .await?;
        {
            let mut held = self.0.state.borrow_mut();
            held.authorizations += 1;
            held.requested_scope = scope.clone();
            held.client = Some(client);
            held.pending = Some(Pending {
                pkce,
                state: state.clone(),
            });
        }
        self.push_log(AuthLogEntry {
            at_ms: self.now(),
            step: AuthStep::Authorization,
            method: Some("GET"),
            url: Some(url.clone()),
            sent: None,
            status: None,
            received: None,
            note,
            failed: false,
        });
        Ok(Authorize { url, state })
    }

    /// Reads the redirect (its URL or query), checks its `state` (and `iss`), and exchanges
    /// the code for tokens.
    pub async fn finish(&self, redirect: &str) -> Result<(), AuthError> {
        let outcome = self.finish_inner(Callback::parse(redirect)).await;
        if let Err(error) = &outcome {
            self.record_failure(error);
        }
        self.flow_ended();
        outcome
    }

    /// [`OAuth::finish`] for a page that read the code and state itself.
    pub async fn exchange_code(&self, code: &str, state: &str) -> Result<(), AuthError> {
        let callback = Callback {
            code: Some(code.to_owned()),
            state: Some(state.to_owned()),
            ..Callback::default()
        };
        let outcome = self.finish_inner(callback).await;
        if let Err(error) = &outcome {
            self.record_failure(error);
        }
        self.flow_ended();
        outcome
    }

    async fn finish_inner(&self, callback: Callback) -> Result<(), AuthError> {
        let not_started = AuthError::new(
            AuthStep::Callback,
            AuthErrorKind::NotReady {
                what: "start the authorization",
            },
        );
        let (expected_state, issuer, iss_required) = {
            let state = self.0.state.borrow();
            let (Some(pending), Some(discovered)) = (&state.pending, &state.discovered) else {
                return Err(not_started);
            };
            (
                pending.state.clone(),
                discovered.auth_server.issuer.clone(),
                discovered
                    .auth_server
                    .authorization_response_iss_parameter_supported,
            )
        };
        let code = callback
            .check(&expected_state, &issuer, iss_required)
            .map_err(|(step, kind)| AuthError::new(step, kind))?;
        if callback.iss.is_none() {
            // Nothing else can tell a code from this authorization server from one another
            // server's sign-in page obtained elsewhere with this flow's state (a mix-up).
            self.record(
                AuthStep::Callback,
                &format!(
                    "the redirect carries no iss (RFC 9207), so nothing proves the code came from {issuer}: \
                     if the sign-in window showed another site's sign-in page than you expected, sign out"
                ),
            );
        } else {
            self.record(
                AuthStep::Callback,
                &format!("the redirect's iss is {issuer}, this flow's authorization server"),
            );
        }
        let pending = self
            .0
            .state
            .borrow_mut()
            .pending
            .take()
            .ok_or(not_started)?;
        let grant = Grant::AuthorizationCode {
            code,
            verifier: pending.pkce.verifier().to_owned(),
            redirect_uri: self.0.settings.redirect_uri.clone(),
        };
        self.token(AuthStep::TokenExchange, grant, GrantKind::Code)
            .await
    }

    /// Sends a token request with the client and resource of this flow, and holds the
    /// tokens it gives.
    async fn token(&self, step: AuthStep, grant: Grant, kind: GrantKind) -> Result<(), AuthError> {
        let (client, discovered, previous_refresh) = {
            let state = self.0.state.borrow();
            let (Some(client), Some(discovered)) = (&state.client, &state.discovered) else {
                return Err(AuthError::new(
                    step,
                    AuthErrorKind::NotReady { what: "sign in" },
                ));
            };
            let previous = state
                .held
                .as_ref()
                .and_then(|held| held.tokens.refresh_token().map(str::to_owned));
            (client.clone(), discovered.clone(), previous)
        };
        let endpoint = &discovered.auth_server.token_endpoint;
        if !is_secure_endpoint(endpoint) {
            return Err(AuthError::new(
                step,
                AuthErrorKind::InsecureEndpoint {
                    url: endpoint.clone(),
                },
            ));
        }
        let mut request = token_request(&grant, &client, Some(&discovered.resource));
        let mut method = client.method.as_str().to_owned();
        if client.method == ClientAuthMethod::PrivateKeyJwt {
            let issuer = &discovered.auth_server.issuer;
            let (assertion, alg) = self
                .client_assertion(step, &client.client_id, issuer)
                .await?;
            request = request.with_client_assertion(&assertion);
            method = format!("{method} ({alg}, signed for {issuer})");
        }
        let logged = format!(
            "client authentication: {method}\n{}",
            request.redacted_body()
        );
        let why = match kind {
            _ if step == AuthStep::Refresh => {
                "renewing the access token with the refresh token (it is about to expire, or \
                 the server refused it)"
            }
            GrantKind::Code => {
                "the redirect's state matched: exchanging its code, with the PKCE verifier, \
                 for tokens"
            }
            GrantKind::ClientCredentials => {
                "machine to machine: the client credentials grant with the pre-registered client"
            }
            GrantKind::CrossApp => {
                "exchanging the identity assertion (ID-JAG) for an access token (RFC 7523)"
            }
        };
        let (status, text) = self
            .exchange(
                step,
                "POST",
                endpoint,
                request.headers.clone(),
                Some(&request.body),
                Some(logged),
                why.to_owned(),
            )
            .await?;
        let tokens = parse_token_answer(endpoint, status, &text).map_err(fail(step))?;
        let tokens = match grant {
            Grant::RefreshToken { .. } => tokens.keeping_refresh_token(previous_refresh.as_deref()),
            _ => tokens,
        };
        let refresh_at = tokens
            .expires_in
            .map(|seconds| refresh_at(self.now(), seconds));
        self.note_last(format!(
            "got a {} token{}{}",
            tokens.token_type,
            tokens
                .expires_in
                .map(|s| format!(" for {s} s"))
                .unwrap_or_default(),
            if tokens.refresh_token().is_some() {
                " and a refresh token"
            } else {
                ""
            }
        ));
        let mut state = self.0.state.borrow_mut();
        state.new_token();
        state.held = Some(Held {
            tokens,
            refresh_at,
            grant: kind,
        });
        Ok(())
    }

    /// Gets a new access token with the refresh token.
    pub async fn refresh(&self) -> Result<(), AuthError> {
        let refresh_token = self
            .tokens()
            .and_then(|t| t.refresh_token().map(str::to_owned));
        let outcome = match refresh_token {
            Some(refresh_token) => {
                self.token(
                    AuthStep::Refresh,
                    Grant::RefreshToken { refresh_token },
                    GrantKind::Code,
                )
                .await
            }
            None => Err(AuthError::new(
                AuthStep::Refresh,
                AuthErrorKind::NotReady {
                    what: "sign in (there is no refresh token)",
                },
            )),
        };
        if let Err(error) = &outcome {
            self.record_failure(error);
        }
        self.flow_ended();
        outcome
    }

    /// Machine-to-machine: discovery, then the `client_credentials` grant with the
    /// pre-registered id and secret (authenticated as the server supports:
    /// `client_secret_basic` or `client_secret_post`). `scope` overrides the spec's choice.
    pub async fn client_credentials(&self, scope: Option<&str>) -> Result<(), AuthError> {
        let outcome = self.client_credentials_inner(scope).await;
        if let Err(error) = &outcome {
            self.record_failure(error);
        }
        self.flow_ended();
        outcome
    }

    /// For the grants with no window: discovery (once), the scope (`scope`, else the spec's
    /// choice), and the client's identity at the authorization server.
    async fn windowless_client(
        &self,
        scope: Option<&str>,
    ) -> Result<(Discovered, Option<String>), AuthError> {
        let discovered = match self.discovered() {
            Some(discovered) => discovered,
            None => self.discover_inner(false).await?,
        };
        let scope = match scope {
            Some(scope) => Some(scope.to_owned()),
            None => choose_scope(
                self.refusal()
                    .and_then(|r| r.challenge)
                    .and_then(|c| c.scope)
                    .as_deref(),
                discovered
                    .resource_metadata
                    .as_ref()
                    .and_then(|prm| prm.scopes_supported.as_deref()),
                None,
                false,
            ),
        };
        let client = self.client_for(&discovered, scope.as_deref()).await?;
        self.0.state.borrow_mut().client = Some(client);
        Ok((discovered, scope))
    }

    async fn client_credentials_inner(&self, scope: Option<&str>) -> Result<(), AuthError> {
        const STEP: AuthStep = AuthStep::ClientCredentials;
        if !matches!(
            &self.0.settings.client,
            ClientChoice::Preregistered {
                client_secret: Some(_),
                ..
            } | ClientChoice::Preregistered {
                private_key: Some(_),
                ..
            }
        ) {
            return Err(AuthError::new(
                STEP,
                AuthErrorKind::NotReady {
                    what: "enter a client ID and its secret or private key",
                },
            ));
        }
        let (_, scope) = self.windowless_client(scope).await?;
        self.token(
            STEP,
            Grant::ClientCredentials { scope },
            GrantKind::ClientCredentials,
        )
        .await
    }

    /// A fresh `private_key_jwt` assertion by the pasted key for `audience`, and its
    /// algorithm.
    async fn client_assertion(
        &self,
        step: AuthStep,
        client_id: &str,
        audience: &str,
    ) -> Result<(String, &'static str), AuthError> {
        let ClientChoice::Preregistered {
            private_key: Some(pem),
            ..
        } = &self.0.settings.client
        else {
            return Err(AuthError::new(
                step,
                AuthErrorKind::NotReady {
                    what: "paste the client's private key",
                },
            ));
        };
        let key = PrivateKey::from_pem(pem).map_err(fail(step))?;
        let jti = base64url(&self.random::<16>(step)?);
        let now = self.0.signer.unix_seconds();
        let input = assertion_signing_input(client_id, audience, now, &jti, key.alg);
        let signature = self
            .0
            .signer
            .sign(&key, input.as_bytes())
            .await
            .map_err(|detail| {
                AuthError::new(
                    step,
                    AuthErrorKind::Invalid {
                        what: "the client assertion".to_owned(),
                        detail,
                    },
                )
            })?;
        Ok((compact(&input, &signature), key.alg.as_str()))
    }

    /// Cross-app access (SEP-990, "enterprise-managed authorization"): discovery, then the
    /// person's ID token for an ID-JAG at their identity provider (RFC 8693 token
    /// exchange, naming this server's authorization server and the server), then the ID-JAG
    /// for an access token at the authorization server (RFC 7523 JWT bearer grant, as the
    /// pre-registered client). No sign-in window. `scope` overrides the spec's choice.
    pub async fn cross_app_access(&self, scope: Option<&str>) -> Result<(), AuthError> {
        let outcome = self.cross_app_access_inner(scope).await;
        if let Err(error) = &outcome {
            self.record_failure(error);
        }
        self.flow_ended();
        outcome
    }

    async fn cross_app_access_inner(&self, scope: Option<&str>) -> Result<(), AuthError> {
        const STEP: AuthStep = AuthStep::IdentityAssertion;
        let Some(cross_app) = self.0.settings.cross_app.clone() else {
            return Err(AuthError::new(
                STEP,
                AuthErrorKind::NotReady {
                    what: "enter the identity provider's token endpoint, client id and ID token",
                },
            ));
        };
        if !matches!(self.0.settings.client, ClientChoice::Preregistered { .. }) {
            return Err(AuthError::new(
                STEP,
                AuthErrorKind::NotReady {
                    what: "enter the client id this app has at the server's authorization server",
                },
            ));
        }
        let (discovered, scope) = self.windowless_client(scope).await?;
        // What the ID token says (read, not trusted: the identity provider checks it).
        if let Some(claims) = unverified_claims(&cross_app.id_token) {
            let claim = |name: &str| {
                claims
                    .get(name)
                    .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
                    .unwrap_or_else(|| "(none)".to_owned())
            };
            self.record(
                STEP,
                &format!(
                    "the ID token is from {} for the audience {} (subject {})",
                    excerpt(&claim("iss"), 200),
                    excerpt(&claim("aud"), 200),
                    excerpt(&claim("sub"), 100)
                ),
            );
        } else {
            self.record(
                STEP,
                "the ID token is not a JWT this app can read; sending it as typed",
            );
        }
        let endpoint = cross_app.idp_token_endpoint.trim().to_owned();
        if HttpUrl::parse(&endpoint).is_none() || !is_secure_endpoint(&endpoint) {
            return Err(AuthError::new(
                STEP,
                AuthErrorKind::InsecureEndpoint { url: endpoint },
            ));
        }
        let idp_client = ClientId::new(
            cross_app.idp_client_id.trim(),
            cross_app.idp_client_secret.clone(),
            if cross_app.idp_client_secret.is_some() {
                ClientAuthMethod::ClientSecretBasic
            } else {
                ClientAuthMethod::None
            },
        );
        let request = token_request(
            &Grant::TokenExchange {
                id_token: cross_app.id_token.trim().to_owned(),
                audience: discovered.auth_server.issuer.clone(),
                scope: scope.clone(),
            },
            &idp_client,
            Some(&discovered.resource),
        );
        let logged = format!(
            "client authentication: {}\n{}",
            idp_client.method.as_str(),
            request.redacted_body()
        );
        let why = format!(
            "cross-app access: exchanging the ID token at the identity provider for an identity \
             assertion for {} (RFC 8693)",
            discovered.auth_server.issuer
        );
        let (status, text) = self
            .exchange(
                STEP,
                "POST",
                &endpoint,
                request.headers.clone(),
                Some(&request.body),
                Some(logged),
                why,
            )
            .await?;
        let assertion = parse_id_jag_answer(&endpoint, status, &text).map_err(fail(STEP))?;
        self.note_last(format!(
            "got an identity assertion (ID-JAG) for {}",
            discovered.auth_server.issuer
        ));
        self.token(
            AuthStep::AssertionGrant,
            Grant::JwtBearer { assertion, scope },
            GrantKind::CrossApp,
        )
        .await
    }

    /// Adds the bearer token to a request for `url` (the server's origin only), refreshing
    /// first when it is about to expire. Gives the token's generation.
    async fn authorize_request(
        &self,
        url: &str,
        headers: &mut Vec<(String, String)>,
    ) -> Option<u64> {
        if !self.sends_token_to(url) {
            return None;
        }
        let expiring = {
            let state = self.0.state.borrow();
            state
                .held
                .as_ref()
                .is_some_and(|held| held.refresh_at.is_some_and(|at| at <= self.now()))
        };
        if expiring {
            let generation = self.0.state.borrow().generation;
            self.renew(generation).await;
        }
        let state = self.0.state.borrow();
        let held = state.held.as_ref()?;
        headers.retain(|(name, _)| !name.eq_ignore_ascii_case("authorization"));
        headers.push((
            "authorization".to_owned(),
            format!("Bearer {}", held.tokens.access_token()),
        ));
        Some(state.generation)
    }

    /// Gets a new token for one that failed (generation `failed`): one refresh (or one
    /// client-credentials grant) shared by every request that needs it. True when a new
    /// token is held.
    async fn renew(&self, failed: u64) -> bool {
        let running = self.0.refreshing.borrow().clone();
        if let Some(running) = running {
            return running.await;
        }
        let (generation, grant, can_refresh) = {
            let state = self.0.state.borrow();
            let Some(held) = &state.held else {
                return false;
            };
            (
                state.generation,
                held.grant,
                held.tokens.refresh_token().is_some(),
            )
        };
        if generation != failed {
            return true; // a newer token came meanwhile
        }
        let this = self.clone();
        let renewal = async move {
            let outcome = match (grant, can_refresh) {
                (_, true) => this.refresh().await,
                (GrantKind::ClientCredentials, false) => this.client_credentials(None).await,
                (GrantKind::CrossApp, false) => this.cross_app_access(None).await,
                (GrantKind::Code, false) => {
                    this.record(
                        AuthStep::Refresh,
                        "the token was refused and there is no refresh token: sign in again",
                    );
                    return false;
                }
            };
            if outcome.is_err() {
                let mut state = this.0.state.borrow_mut();
                state.held = None;
                state.generation += 1;
            }
            outcome.is_ok()
        }
        .boxed_local()
        .shared();
        *self.0.refreshing.borrow_mut() = Some(renewal.clone());
        let renewed = renewal.await;
        *self.0.refreshing.borrow_mut() = None;
        renewed
    }

    /// What the engine does with a refused request (401 or 403 from the server's origin):
    /// records the refusal; on a 401 of a request sent with a token, gets a new one. True
    /// when the request should be sent once more.
    async fn after_refusal(
        &self,
        status: u16,
        www_authenticate: Option<&str>,
        sent: Option<u64>,
    ) -> bool {
        let stale = {
            let state = self.0.state.borrow();
            state.held.is_some() && sent != Some(state.generation)
        };
        if stale {
            // Sent without a token, or with an older one, and a sign-in finished meanwhile:
            // this says nothing of the token held now (and must not offer "Sign in" over
            // it). Send the request again with it.
            return true;
        }
        self.note_refusal(status, www_authenticate);
        match (status, sent) {
            (401, Some(generation)) => self.renew(generation).await,
            // No refresh widens a grant (RFC 6749 §6): a 403 asks for a new authorization.
            _ => false,
        }
    }

    /// Records that the server accepted a request made with the token held (the engine does
    /// this itself). The retry limit starts again at the next authorization only if that
    /// token was never refused: a server that accepts `initialize` from anyone and refuses
    /// everything else would otherwise reset it on every connect and loop.
    pub fn note_accepted(&self) {
        self.0.state.borrow_mut().token_accepted = true;
    }
}

/// `withOAuth`: a layer around the session's [`Http`] that sends the bearer token on every
/// request to the server's origin, and a request whose token was refused once more after
/// the token was renewed. Built once at connect ([`OAuth::around`]).
struct Bearer {
    auth: OAuth,
    http: Rc<dyn Http>,
}

impl OAuth {
    /// `http` with this authorization's token on the server's requests (see [`Bearer`]).
    pub(crate) fn around(&self, http: Rc<dyn Http>) -> Rc<dyn Http> {
        Rc::new(Bearer {
            auth: self.clone(),
            http,
        })
    }
}

impl Http for Bearer {
    fn send<'a>(
        &'a self,
        request: HttpRequest<'a>,
    ) -> LocalBoxFuture<'a, Result<HttpResponse, ErrorKind>> {
        Box::pin(self.send_authorized(request))
    }
}

impl Bearer {
    /// The token on requests to the server's origin, and one retry after a refused token was
    /// renewed.
    async fn send_authorized(&self, request: HttpRequest<'_>) -> Result<HttpResponse, ErrorKind> {
        let auth = &self.auth;
        let HttpRequest {
            method,
            url,
            mut headers,
            body,
            abort,
            refuse_redirects,
        } = request;
        let send = |headers| {
            self.http.send(HttpRequest {
                method,
                url,
                headers,
                body,
                abort,
                refuse_redirects,
            })
        };
        let unauthorized = headers.clone();
        let sent = auth.authorize_request(url, &mut headers).await;
        let response = send(headers).await?;
        let status = response.status();
        if !auth.sends_token_to(url) {
            return Ok(response);
        }
        if (200..300).contains(&status) && sent.is_some() {
            auth.note_accepted();
        }
        if status != 401 && status != 403 {
            return Ok(response);
        }
        let challenge = response.header("www-authenticate");
        if !auth.after_refusal(status, challenge.as_deref(), sent).await {
            return Ok(response);
        }
        if let Some(body) = response.body() {
            body.cancel();
        }
        let mut headers = unauthorized;
        let sent = auth.authorize_request(url, &mut headers).await;
        let retried = send(headers).await?;
        match retried.status() {
            // Once only: the refusal is recorded for the page, which may sign in again.
            status @ (401 | 403) => {
                auth.note_refusal(status, retried.header("www-authenticate").as_deref())
            }
            200..=299 if sent.is_some() => auth.note_accepted(),
            _ => {}
        }
        Ok(retried)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_refreshed_30_s_before_it_expires_or_a_quarter_of_its_life_before() {
        // An hour: 30 s before.
        assert_eq!(refresh_at(1_000.0, 3_600), 1_000.0 + 3_600_000.0 - 30_000.0);
        // Two minutes: still 30 s before.
        assert_eq!(refresh_at(0.0, 120), 90_000.0);
        // 10 s (oidc-provider's resource tokens in the e2e test): 2.5 s before, not at once.
        assert_eq!(refresh_at(5_000.0, 10), 12_500.0);
        assert!(refresh_at(5_000.0, 10) > 5_000.0);
        // A token said to expire at once is due at once.
        assert_eq!(refresh_at(7.0, 0), 7.0);
        for seconds in [1, 2, 59, 60, 61, 119, 121, 86_400] {
            let due = refresh_at(0.0, seconds);
            let lifetime = seconds as f64 * 1000.0;
            assert!(
                due >= lifetime * 0.75 && due < lifetime,
                "{seconds} s: {due}"
            );
        }
    }

    #[test]
    fn metadata_that_could_not_be_read_names_its_urls_and_the_cors_header() {
        assert_eq!(unreadable(AuthStep::AuthServerMetadata, &[]), None);
        let blocked = [
            (
                "http://127.0.0.1:4000/.well-known/oauth-authorization-server".to_owned(),
                "TypeError: Failed to fetch".to_owned(),
            ),
            (
                "http://127.0.0.1:4000/.well-known/openid-configuration".to_owned(),
                "TypeError: Failed to fetch".to_owned(),
            ),
        ];
        let error = unreadable(AuthStep::AuthServerMetadata, &blocked).unwrap();
        assert!(error.is_network());
        let text = error.to_string();
        assert!(
            text.starts_with(
                "Reading the authorization server metadata failed: \
                 http://127.0.0.1:4000/.well-known/oauth-authorization-server and \
                 http://127.0.0.1:4000/.well-known/openid-configuration could not be reached \
                 (TypeError: Failed to fetch)."
            ),
            "{text}"
        );
        assert!(text.contains("Access-Control-Allow-Origin"), "{text}");
    }
}
