//! What the client knows of its session as a whole: whether it ended, the protocol era and
//! version it speaks and why, what the server declared about tasks, a renewal in progress, and
//! the resources it subscribed to. (The session id belongs to the transport.)

use futures::future::{LocalBoxFuture, Shared};
use mcp_lens_protocol::error::McpError;
use mcp_lens_protocol::tasks::ServerTasks;
use std::cell::{Cell, RefCell};

/// A session renewal that every request which lost the session awaits.
pub(crate) type Renewal = Shared<LocalBoxFuture<'static, Result<(), McpError>>>;

#[derive(Default)]
pub(crate) struct SessionState {
    closed: Cell<bool>,
    /// Speaking the stateless 2026-07-28 era (no session; envelope and routing headers).
    modern: Cell<bool>,
    /// The protocol version in use (the server's choice, or the stateless era's).
    protocol_version: RefCell<Option<String>>,
    era_reason: RefCell<String>,
    /// The era's reason is a problem the person should fix.
    era_warning: Cell<bool>,
    /// What the server's `capabilities.tasks` declares.
    server_tasks: Cell<ServerTasks>,
    /// A session renewal in progress (after the server lost the session).
    renewal: RefCell<Option<Renewal>>,
    /// The resources subscribed to in this session, in the order subscribed.
    subscriptions: RefCell<Vec<String>>,
}

impl SessionState {
    /// Ends the session; false when it had ended already.
    pub(crate) fn end(&self) -> bool {
        !self.closed.replace(true)
    }

    pub(crate) fn is_closed(&self) -> bool {
        self.closed.get()
    }

    pub(crate) fn is_modern(&self) -> bool {
        self.modern.get()
    }

    pub(crate) fn set_modern(&self, modern: bool) {
        self.modern.set(modern);
    }

    pub(crate) fn protocol_version(&self) -> Option<String> {
        self.protocol_version.borrow().clone()
    }

    pub(crate) fn set_protocol_version(&self, version: Option<String>) {
        *self.protocol_version.borrow_mut() = version;
    }

    /// Why this era is in use, and whether that is a problem to fix.
    pub(crate) fn era(&self) -> (String, bool) {
        (self.era_reason.borrow().clone(), self.era_warning.get())
    }

    pub(crate) fn set_era_reason(&self, reason: &str) {
        *self.era_reason.borrow_mut() = reason.to_owned();
    }

    pub(crate) fn set_era_warning(&self, warning: bool) {
        self.era_warning.set(warning);
    }

    pub(crate) fn server_tasks(&self) -> ServerTasks {
        self.server_tasks.get()
    }

    pub(crate) fn set_server_tasks(&self, tasks: ServerTasks) {
        self.server_tasks.set(tasks);
    }

    /// The renewal in progress, if any (a clone to await: no borrow is held).
    pub(crate) fn renewal(&self) -> Option<Renewal> {
        self.renewal.borrow().clone()
    }

    pub(crate) fn set_renewal(&self, renewal: Option<Renewal>) {
        *self.renewal.borrow_mut() = renewal;
    }

    /// Remembers a subscription (once).
    pub(crate) fn subscribed(&self, uri: &str) {
        let mut subscribed = self.subscriptions.borrow_mut();
        if !subscribed.iter().any(|known| known == uri) {
            subscribed.push(uri.to_owned());
        }
    }

    pub(crate) fn unsubscribed(&self, uri: &str) {
        self.subscriptions.borrow_mut().retain(|known| known != uri);
    }

    pub(crate) fn is_subscribed(&self, uri: &str) -> bool {
        self.subscriptions.borrow().iter().any(|known| known == uri)
    }

    pub(crate) fn subscriptions(&self) -> Vec<String> {
        self.subscriptions.borrow().clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_ends_once() {
        let session = SessionState::default();
        assert!(!session.is_closed());
        assert!(session.end());
        assert!(session.is_closed());
        assert!(!session.end());
    }

    #[test]
    fn subscriptions_are_remembered_once_in_order_until_forgotten() {
        let session = SessionState::default();
        session.subscribed("file:///b");
        session.subscribed("file:///a");
        session.subscribed("file:///b");
        assert_eq!(session.subscriptions(), ["file:///b", "file:///a"]);
        assert!(session.is_subscribed("file:///a"));
        session.unsubscribed("file:///b");
        assert_eq!(session.subscriptions(), ["file:///a"]);
        assert!(!session.is_subscribed("file:///b"));
    }
}
