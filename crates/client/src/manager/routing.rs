//! Where what the servers send goes: handlers registered per server, or for every server
//! that has none of its own (`None`), by kind of notification; server requests waiting for a
//! person; wire lines for loggers.

use crate::events::ClientEvent;
use mcp_lens_protocol::jsonrpc::RequestId;
use mcp_lens_protocol::wire_log::{WireAnswer, WireEntry};
use serde_json::Value;
use std::rc::Rc;

/// The kinds of notification a handler can be registered for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum NotificationKind {
    ResourceUpdated,
    ListChanged,
    Progress,
    Logging,
    /// Any other notification method.
    Other,
}

impl NotificationKind {
    /// The kind of a notification method.
    pub fn of(method: &str) -> Self {
        match method {
            "notifications/resources/updated" => Self::ResourceUpdated,
            "notifications/progress" => Self::Progress,
            "notifications/message" => Self::Logging,
            m if m.ends_with("/list_changed") => Self::ListChanged,
            _ => Self::Other,
        }
    }
}

/// A server request waiting for a person (sampling, elicitation).
#[derive(Debug, Clone, PartialEq)]
pub struct PendingRequest {
    pub server: String,
    pub id: RequestId,
    pub method: String,
    pub params: Option<Value>,
}

pub(super) type NotificationHandler = Rc<dyn Fn(&str, &str, Option<&Value>)>;

pub(super) type RequestHandler = Rc<dyn Fn(&PendingRequest)>;

pub(super) type Logger = Rc<dyn Fn(&str, WireLine)>;

pub(super) type EventTap = Rc<dyn Fn(&str, ClientEvent)>;

/// What an RPC logger is given: a new entry, or the completion of a pending one.
#[derive(Debug, Clone, PartialEq)]
pub enum WireLine {
    Entry(WireEntry),
    Answer(WireAnswer),
}

/// Handlers registered for one server (`Some(id)`) or for all (`None`).
#[derive(Default)]
pub(super) struct Handlers {
    notifications: Registry<(Option<String>, NotificationKind), NotificationHandler>,
    requests: Registry<Option<String>, RequestHandler>,
    loggers: Registry<Option<String>, Logger>,
    taps: Registry<Option<String>, EventTap>,
}

impl Handlers {
    pub(super) fn on_notification(
        &mut self,
        server: Option<&str>,
        kind: NotificationKind,
        handler: NotificationHandler,
    ) {
        self.notifications
            .insert((server.map(str::to_owned), kind), handler);
    }

    pub(super) fn on_server_request(&mut self, server: Option<&str>, handler: RequestHandler) {
        self.requests.insert(server.map(str::to_owned), handler);
    }

    pub(super) fn on_wire(&mut self, server: Option<&str>, logger: Logger) {
        self.loggers.insert(server.map(str::to_owned), logger);
    }

    pub(super) fn on_event(&mut self, server: Option<&str>, tap: EventTap) {
        self.taps.insert(server.map(str::to_owned), tap);
    }

    /// The handler of `server`'s notifications of `kind`: its own, else every server's.
    pub(super) fn notification(
        &self,
        server: &str,
        kind: NotificationKind,
    ) -> Option<NotificationHandler> {
        self.notifications
            .get(&(Some(server.to_owned()), kind))
            .or_else(|| self.notifications.get(&(None, kind)))
            .cloned()
    }

    /// The handler of `server`'s requests for a person: its own, else every server's.
    pub(super) fn server_request(&self, server: &str) -> Option<RequestHandler> {
        self.requests
            .get(&Some(server.to_owned()))
            .or_else(|| self.requests.get(&None))
            .cloned()
    }

    /// The tap of `server`'s events: its own, else every server's.
    pub(super) fn tap(&self, server: &str) -> Option<EventTap> {
        self.taps
            .get(&Some(server.to_owned()))
            .or_else(|| self.taps.get(&None))
            .cloned()
    }

    /// The loggers of `server`'s wire lines: its own, then every server's (both get each).
    pub(super) fn loggers(&self, server: &str) -> Vec<Logger> {
        [
            self.loggers.get(&Some(server.to_owned())),
            self.loggers.get(&None),
        ]
        .into_iter()
        .flatten()
        .cloned()
        .collect()
    }

    /// Forgets a server's own handlers (the global ones stay).
    pub(super) fn forget(&mut self, server: &str) {
        let own = Some(server.to_owned());
        self.notifications.retain(|(server, _)| server != &own);
        self.requests.retain(|server| server != &own);
        self.loggers.retain(|server| server != &own);
        self.taps.retain(|server| server != &own);
    }
}

/// A handful of handlers by key. A list, not a map: there are a few per server, and each
/// map type's code would cost the page's download several kilobytes.
struct Registry<K, V>(Vec<(K, V)>);

impl<K, V> Default for Registry<K, V> {
    fn default() -> Self {
        Self(Vec::new())
    }
}

impl<K: PartialEq, V> Registry<K, V> {
    /// Sets the handler for `key`, replacing an earlier one.
    fn insert(&mut self, key: K, value: V) {
        self.0.retain(|(k, _)| k != &key);
        self.0.push((key, value));
    }

    fn get(&self, key: &K) -> Option<&V> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    fn retain(&mut self, mut keep: impl FnMut(&K) -> bool) {
        self.0.retain(|(k, _)| keep(k));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;

    #[test]
    fn notification_kinds() {
        assert_eq!(
            NotificationKind::of("notifications/tools/list_changed"),
            NotificationKind::ListChanged
        );
        assert_eq!(
            NotificationKind::of("notifications/resources/updated"),
            NotificationKind::ResourceUpdated
        );
        assert_eq!(
            NotificationKind::of("notifications/message"),
            NotificationKind::Logging
        );
        assert_eq!(NotificationKind::of("x/y"), NotificationKind::Other);
    }

    #[test]
    fn a_servers_own_handler_comes_first_then_every_servers_and_forgetting_keeps_the_global() {
        let heard: Rc<RefCell<Vec<&str>>> = Rc::default();
        let mut handlers = Handlers::default();
        let hear = |name: &'static str| {
            let heard = heard.clone();
            Rc::new(move |_: &str, _: &str, _: Option<&Value>| heard.borrow_mut().push(name))
        };
        handlers.on_notification(None, NotificationKind::Logging, hear("global"));
        handlers.on_notification(Some("a"), NotificationKind::Logging, hear("a's"));
        handlers.on_notification(Some("a"), NotificationKind::Logging, hear("a's newer"));
        for server in ["a", "b"] {
            let handler = handlers.notification(server, NotificationKind::Logging);
            handler.expect("a handler")(server, "notifications/message", None);
        }
        assert!(handlers
            .notification("a", NotificationKind::Progress)
            .is_none());
        handlers.on_wire(Some("a"), Rc::new(|_, _| {}));
        handlers.on_wire(None, Rc::new(|_, _| {}));
        assert_eq!(handlers.loggers("a").len(), 2);
        assert_eq!(handlers.loggers("b").len(), 1);
        handlers.forget("a");
        handlers
            .notification("a", NotificationKind::Logging)
            .expect("the global one")("a", "notifications/message", None);
        assert_eq!(handlers.loggers("a").len(), 1);
        assert_eq!(*heard.borrow(), ["a's newer", "global", "global"]);
    }
}
