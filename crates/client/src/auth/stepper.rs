//! Step by step: the flow waits before each request it sends until the person lets it go.
//!
//! [`OAuth::set_stepper`](super::OAuth::set_stepper) gives the flow a [`Stepper`]; before every
//! request (each metadata URL, the registration, the authorization redirect, the code
//! exchange, a refresh, the client credentials and cross-app grants) it tells the stepper what
//! it is about to send and why ([`NextStep`], redacted as the step log), and sends it only
//! when the stepper answers [`Release::Send`]. [`Release::Stop`] ends the flow with
//! [`AuthErrorKind::Stopped`](mcp_lens_protocol::auth::AuthErrorKind::Stopped), sending
//! nothing more. Without a stepper nothing waits.
//!
//! [`StepGate`] is the stepper a page uses: its buttons call [`StepGate::next`],
//! [`StepGate::run_rest`] and [`StepGate::stop`], and [`StepGate::on_change`] tells it when
//! the step waiting changes.

use futures::channel::oneshot;
use futures::future::LocalBoxFuture;
use futures::FutureExt;
use mcp_lens_protocol::auth::AuthStep;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// A request the flow is about to send: what, where, and why. Redacted as the step log (no
/// token, secret, code or verifier).
#[derive(Debug, Clone, PartialEq)]
pub struct NextStep {
    pub step: AuthStep,
    pub method: &'static str,
    pub url: String,
    /// What the request will carry (client authentication and body), redacted; `None` for a
    /// plain GET.
    pub sent: Option<String>,
    /// What was decided before it: why this request, to this URL.
    pub why: String,
}

/// What a [`Stepper`] says of the step waiting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Release {
    /// Send the request and go on.
    Send,
    /// Send nothing more: the flow ends with `AuthErrorKind::Stopped`.
    Stop,
}

/// Holds the flow before each request it sends.
///
/// ```
/// use futures::future::LocalBoxFuture;
/// use mcp_lens_client::auth::{NextStep, Release, Stepper};
/// /// Lets every request go but the token exchange.
/// struct NoTokens;
/// impl Stepper for NoTokens {
///     fn before(&self, next: &NextStep) -> LocalBoxFuture<'static, Release> {
///         let release = if next.url.ends_with("/token") { Release::Stop } else { Release::Send };
///         Box::pin(async move { release })
///     }
/// }
/// # let _ = NoTokens;
/// ```
pub trait Stepper {
    /// Called before `next` is sent; the flow waits for the answer.
    fn before(&self, next: &NextStep) -> LocalBoxFuture<'static, Release>;

    /// A flow ended: with tokens, with a failure, or stopped. A sign-in's flow runs from
    /// `OAuth::start` through `OAuth::finish` (the sign-in window in between); a refresh, the
    /// client credentials grant and cross-app access are flows of their own.
    fn flow_ended(&self) {}
}

/// The stepper a page drives with buttons: while stepping, each request waits until
/// [`StepGate::next`] (this one), [`StepGate::run_rest`] (this one and the rest of its flow)
/// or [`StepGate::stop`] (nothing more). Not stepping, nothing waits. Clones share it.
///
/// ```
/// use futures::executor::LocalPool;
/// use futures::task::LocalSpawnExt;
/// use mcp_lens_client::auth::{NextStep, Release, StepGate, Stepper};
/// use mcp_lens_client::protocol::auth::AuthStep;
/// let gate = StepGate::default();
/// gate.set_stepping(true);
/// let next = NextStep { step: AuthStep::ResourceMetadata, method: "GET",
///     url: "https://mcp.example.com/.well-known/oauth-protected-resource".into(),
///     sent: None, why: "the well-known URL".into() };
/// let mut pool = LocalPool::new();
/// let released = pool.spawner().spawn_local_with_handle(gate.before(&next)).unwrap();
/// pool.run_until_stalled();
/// assert_eq!(gate.waiting(), Some(next)); // waits for the person
/// assert!(gate.next());
/// assert_eq!(pool.run_until(released), Release::Send);
/// assert_eq!(gate.waiting(), None);
/// ```
#[derive(Clone, Default)]
pub struct StepGate(Rc<Gate>);

#[derive(Default)]
struct Gate {
    stepping: Cell<bool>,
    /// "Run the rest": the current flow goes on without waiting until it ends.
    running: Cell<bool>,
    waiting: RefCell<Vec<(NextStep, oneshot::Sender<Release>)>>,
    on_change: RefCell<Option<Rc<dyn Fn()>>>,
}

impl StepGate {
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether requests wait for the person. Turning it on (again) makes every later request
    /// wait, ending any "run the rest"; turning it off lets whatever waits go.
    pub fn set_stepping(&self, on: bool) {
        self.0.stepping.set(on);
        self.0.running.set(false);
        if on {
            self.changed();
        } else {
            self.release_all(Release::Send);
        }
    }

    pub fn is_stepping(&self) -> bool {
        self.0.stepping.get()
    }

    /// The step waiting for the person (the first, if flows wait side by side).
    pub fn waiting(&self) -> Option<NextStep> {
        self.0
            .waiting
            .borrow()
            .first()
            .map(|(next, _)| next.clone())
    }

    /// Sends the step waiting; the flow stops again before its next request. False when
    /// nothing was waiting.
    pub fn next(&self) -> bool {
        let mut waiting = self.0.waiting.borrow_mut();
        if waiting.is_empty() {
            return false;
        }
        let (_, release) = waiting.remove(0);
        drop(waiting);
        let _ = release.send(Release::Send);
        self.changed();
        true
    }

    /// Sends what waits and lets the rest of its flow go on without waiting (to its tokens,
    /// or its failure); the next flow waits again.
    pub fn run_rest(&self) {
        self.0.running.set(true);
        self.release_all(Release::Send);
    }

    /// Stops what waits: its flow sends nothing more and ends with `Stopped`.
    pub fn stop(&self) {
        self.release_all(Release::Stop);
    }

    /// Called whenever the step waiting changes (one starts waiting, or is let go).
    pub fn on_change(&self, listener: impl Fn() + 'static) {
        *self.0.on_change.borrow_mut() = Some(Rc::new(listener));
    }

    fn release_all(&self, release: Release) {
        let all = std::mem::take(&mut *self.0.waiting.borrow_mut());
        for (_, sender) in all {
            let _ = sender.send(release);
        }
        self.changed();
    }

    fn changed(&self) {
        let listener = self.0.on_change.borrow().clone();
        if let Some(listener) = listener {
            listener();
        }
    }
}

impl Stepper for StepGate {
    fn before(&self, next: &NextStep) -> LocalBoxFuture<'static, Release> {
        if !self.0.stepping.get() || self.0.running.get() {
            return Box::pin(async { Release::Send });
        }
        let (sender, released) = oneshot::channel();
        self.0.waiting.borrow_mut().push((next.clone(), sender));
        self.changed();
        // A gate dropped with the step waiting sends nothing.
        released
            .map(|release| release.unwrap_or(Release::Stop))
            .boxed_local()
    }

    fn flow_ended(&self) {
        self.0.running.set(false);
    }
}
