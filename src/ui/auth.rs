//! Signing in to a protected server (MCP authorization), in the session chunk: reached only
//! through `lazy`'s `session_connect` and the session panels (the sign-in bar and the steps
//! view are their first parts), so none of it is in the first paint's download. The sign-in
//! client fields (`SignInClient`) are drawn in the Settings panel, their values `Settings`
//! signals.
//!
//! The flow: a connect goes out with `ClientConfig::auth` set to this server's `OAuth` (unless
//! the person typed a token of their own). When the server refuses (401, or 403 asking for
//! more scope) the connection bar offers "Sign in"; its click opens a blank popup (a click may
//! open one), `OAuth::start` discovers and registers, the popup goes to the authorization
//! URL, and the authorization server sends it back to `callback.html` (same origin), which
//! posts the redirect URL to this page (target origin: its own) and closes. The page takes it
//! only from its own origin and from that popup, `OAuth::finish` checks `state` and exchanges
//! the code, and the connect runs again with the token. When the browser blocks the popup,
//! "Sign in in this tab" keeps the authorization in progress in the tab's sessionStorage
//! (`PENDING_KEY`) and sends the tab itself to the authorization URL; `callback.html` hands
//! the redirect back through the same entry and returns to `index.html`, where
//! `resume_in_this_tab` (run from the session chunk right after the first paint) deletes the
//! entry, resumes and connects. Machine to machine and cross-app
//! access get the token with no popup. Tokens stay in the `OAuth` (memory), and in the tab's
//! sessionStorage only when the person ticked "Remember": never in localStorage, the
//! address, the console, the wire log or curl.
//!
//! Step by step (the "Step by step" box beside Sign in, per server, kept in the page's memory
//! only: a reload signs in automatically again): the server's `OAuth` has this server's
//! `StepGate`, which holds each request of a sign-in (and of a later refresh) until the
//! person clicks "Next step" or "Run the rest" in the steps view, or "Stop". The sign-in window
//! is opened by the click that lets the authorization redirect go (a browser blocks one
//! opened later), so it does not cover the page while the person steps through discovery.
//!
//! The files, each importing only those listed before it: `auth/entries.rs` (each server's
//! sign-in), `auth/tokens.rs`, `auth/connect.rs` (a connect through an authorization),
//! `auth/same_tab.rs` (the window's callback, or this tab), `auth/flows.rs` (what the buttons
//! start), `auth/views.rs`.

mod connect;
mod entries;
mod flows;
mod same_tab;
mod tokens;
mod views;

pub(super) use connect::{after_connect, forget_connection, prepare, refused};
pub(super) use same_tab::{left_for_sign_in, resume_in_this_tab};
pub(super) use views::sign_in_bar;
pub use views::{AuthView, SignInClient};
