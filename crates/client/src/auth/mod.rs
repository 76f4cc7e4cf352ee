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

pub use crate::runtime::{Random, Signer};
pub use found::{Authorize, Discovered, Refusal};
pub use log::AuthLogEntry;
pub use mcp_lens_protocol::auth as rules;
pub use persist::{PendingSignIn, SavedFlow};
pub use settings::{ClientChoice, CrossApp, OAuthSettings};
pub use stepper::{NextStep, Release, StepGate, Stepper};

use crate::runtime::{Clock, Http};
use futures::future::{LocalBoxFuture, Shared};
use mcp_lens_protocol::auth::challenge::bearer_challenge;
use mcp_lens_protocol::auth::jwt::PrivateKey;
use mcp_lens_protocol::auth::messages::{ClientId, RegisteredClient, Tokens};
use mcp_lens_protocol::auth::pkce::Pkce;
use mcp_lens_protocol::auth::{AuthError, AuthErrorKind, AuthStep};
use mcp_lens_protocol::error::excerpt;
use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

mod bearer;
mod construct;
mod discovery;
mod exchange;
mod found;
mod grants;
mod identity;
mod log;
mod persist;
mod restore;
mod settings;
mod sign_in;
mod stepper;

/// Authorizations in a row (with no request accepted in between) before [`OAuth::start`]
/// refuses: a server that always answers 403 never loops the person through sign-ins
/// (conformance auth/scope-retry-limit allows three).
pub const MAX_AUTHORIZATIONS: u32 = 3;

/// Entries the step log keeps (the oldest go first).
pub const LOG_ENTRIES: usize = 200;

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
    /// The issuer the person confirmed a pre-registered secret or key for, in this flow
    /// ([`OAuth::confirm_issuer`]).
    confirmed_issuer: Option<String>,
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
    /// The `withOAuth` layer (`around` in bearer.rs, set in construct.rs), reached through this pointer so that a
    /// session that has no authorization does not carry its code: a page that splits its
    /// wasm keeps the flow's code where `OAuth`s are made (see [`OAuth::around`]).
    layer: fn(&OAuth, Rc<dyn Http>) -> Rc<dyn Http>,
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

impl OAuth {
    /// `http` with this authorization's token on the server's requests, and one retry after a
    /// refused token was renewed: the `withOAuth` layer, composed once at connect.
    pub(crate) fn around(&self, http: Rc<dyn Http>) -> Rc<dyn Http> {
        (self.0.layer)(self, http)
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

    /// The person confirmed that the pre-registered secret or key belongs at `issuer` (after
    /// [`AuthErrorKind::ConfirmIssuer`] named it): this flow sends it there from now on. (The
    /// page remembers the answer with the client id, as `for_issuer` of the next flows.)
    pub fn confirm_issuer(&self, issuer: &str) {
        self.0.state.borrow_mut().confirmed_issuer = Some(issuer.to_owned());
    }

    /// The `state` of the authorization [`OAuth::start`] began, while no redirect finished it:
    /// what tells the page which flow a redirect belongs to.
    pub fn pending_state(&self) -> Option<String> {
        Some(self.0.state.borrow().pending.as_ref()?.state.clone())
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

    /// Records that the server accepted a request made with the token held (the engine does
    /// this itself). The retry limit starts again at the next authorization only if that
    /// token was never refused: a server that accepts `initialize` from anyone and refuses
    /// everything else would otherwise reset it on every connect and loop.
    pub fn note_accepted(&self) {
        self.0.state.borrow_mut().token_accepted = true;
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

    fn note_last(&self, note: String) {
        if let Some(entry) = self.0.state.borrow_mut().log.last_mut() {
            entry.note = note;
        }
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
}
