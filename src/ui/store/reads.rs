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
    pub fn status(&self) -> ReadSignal<Status> {
        self.status.read_only()
    }

    /// Why the last connect failed or the session was lost, as the sentence shown.
    pub fn error(&self) -> ReadSignal<Option<String>> {
        self.error.read_only()
    }

    /// The connected server's state (its info and lists); None when not connected.
    pub fn server(&self) -> ReadSignal<Option<Arc<ServerState>>> {
        self.server.read_only()
    }

    /// The server's messages outside answers, numbered (the events panel keys rows by it).
    pub fn events(&self) -> ReadSignal<VecDeque<(u64, ClientEvent)>> {
        self.events.read_only()
    }

    /// Server requests waiting for a person.
    pub fn server_requests(&self) -> ReadSignal<Vec<ServerRequest>> {
        self.server_requests.read_only()
    }

    /// The latest progress notification (panels show it when it is for their request).
    pub fn progress(&self) -> ReadSignal<Option<Progress>> {
        self.progress.read_only()
    }

    /// Why the server's own messages come only with answers, if they do.
    pub fn stream_note(&self) -> ReadSignal<Option<String>> {
        self.stream_note.read_only()
    }

    /// URL elicitations the server said are complete.
    pub fn completed_elicitations(&self) -> ReadSignal<Vec<String>> {
        self.completed_elicitations.read_only()
    }

    /// What the tabs remember while connected (selection, forms, results).
    pub fn memory(&self) -> Memory {
        self.memory
    }

    /// The session's tasks, newest first.
    pub fn tasks(&self) -> ReadSignal<Vec<TaskRow>> {
        self.tasks.read_only()
    }

    /// Where signing in to this server stands.
    pub fn sign_in(&self) -> ReadSignal<SignIn> {
        self.sign_in.read_only()
    }

    /// Changes with every new step of the sign-in log (the auth view reads the log then).
    pub fn auth_log(&self) -> ReadSignal<u64> {
        self.auth_log.read_only()
    }

    /// What could not be used of the full app's deep link, one sentence each.
    pub fn link_problems(&self) -> ReadSignal<Vec<String>> {
        self.link_problems.read_only()
    }

    /// A link's local address the page asks about before connecting (its origin).
    pub fn connect_ask(&self) -> ReadSignal<Option<String>> {
        self.connect_ask.read_only()
    }
}
