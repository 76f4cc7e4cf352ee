//! What the views read of a connection: each of the store's signals, read-only. What changes
//! them is the store's own (the manager's taps, connect, disconnect) or one of its methods that
//! says what happened (`Connection::fail`, `Connection::log_wire`...): no view writes a signal
//! of the store directly.

use super::{Connection, ServerRequest, SignIn, Status};
use crate::client::{ClientEvent, Progress, ServerState};
use crate::ui::browse::model::Memory;
use crate::ui::task_rows::TaskRow;
use leptos::prelude::*;
use std::collections::VecDeque;
use std::sync::Arc;

impl Connection {
    pub fn status(&self) -> Reader<Status> {
        Reader(self.status)
    }

    /// Why the last connect failed or the session was lost, as the sentence shown.
    pub fn error(&self) -> Reader<Option<String>> {
        Reader(self.error)
    }

    /// The connected server's state (its info and lists); None when not connected.
    pub fn server(&self) -> Reader<Option<Arc<ServerState>>> {
        Reader(self.server)
    }

    /// The server's messages outside answers, numbered (the events panel keys rows by it).
    pub fn events(&self) -> Reader<VecDeque<(u64, ClientEvent)>> {
        Reader(self.events)
    }

    /// Server requests waiting for a person.
    pub fn server_requests(&self) -> Reader<Vec<ServerRequest>> {
        Reader(self.server_requests)
    }

    /// The latest progress notification (panels show it when it is for their request).
    pub fn progress(&self) -> Reader<Option<Progress>> {
        Reader(self.progress)
    }

    /// Why the server's own messages come only with answers, if they do.
    pub fn stream_note(&self) -> Reader<Option<String>> {
        Reader(self.stream_note)
    }

    /// URL elicitations the server said are complete.
    pub fn completed_elicitations(&self) -> Reader<Vec<String>> {
        Reader(self.completed_elicitations)
    }

    /// What the tabs remember while connected (selection, forms, results).
    pub fn memory(&self) -> Memory {
        self.memory
    }

    /// The session's tasks, newest first.
    pub fn tasks(&self) -> Reader<Vec<TaskRow>> {
        Reader(self.tasks)
    }

    /// Where signing in to this server stands.
    pub fn sign_in(&self) -> Reader<SignIn> {
        Reader(self.sign_in)
    }

    /// Changes with every new step of the sign-in log (the auth view reads the log then).
    pub fn auth_log(&self) -> Reader<u64> {
        Reader(self.auth_log)
    }

    /// What could not be used of the full app's deep link, one sentence each.
    pub fn link_problems(&self) -> Reader<Vec<String>> {
        Reader(self.link_problems)
    }

    /// A link's local address the page asks about before connecting (its origin).
    pub fn connect_ask(&self) -> Reader<Option<String>> {
        Reader(self.connect_ask)
    }
}

/// One of the store's signals, to read: what a view may do with it (the writes are the
/// store's). Its methods are the signal's own, inlined: a `ReadSignal` beside each `RwSignal`
/// would cost an arena slot each and its own copy of the reading code in the first paint.
pub struct Reader<T: Send + Sync + 'static>(RwSignal<T>);

impl<T: Send + Sync + 'static> Clone for Reader<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: Send + Sync + 'static> Copy for Reader<T> {}

impl<T: Send + Sync + 'static> Reader<T> {
    /// The value, tracked: a reactive reader runs again when it changes.
    #[inline]
    pub fn get(&self) -> T
    where
        T: Clone,
    {
        self.0.get()
    }

    #[inline]
    pub fn get_untracked(&self) -> T
    where
        T: Clone,
    {
        self.0.get_untracked()
    }

    /// `read` of the value, tracked.
    #[inline]
    pub fn with<R>(&self, read: impl FnOnce(&T) -> R) -> R {
        self.0.with(read)
    }

    #[inline]
    pub fn with_untracked<R>(&self, read: impl FnOnce(&T) -> R) -> R {
        self.0.with_untracked(read)
    }

    /// Tracks the signal without reading it.
    #[inline]
    pub fn track(&self) {
        self.0.track()
    }
}
