//! What the code above the store may change in a connection, each change named for what
//! happened (a connect that failed, a sign-in step, a wire line an MCP App or the sign-in sent,
//! a page of a list, a task's news). The signals themselves are the store's: views read them
//! (`reads.rs`) and ask for changes here.

use super::{Connection, LastConnect, Linked, SignIn, Status};
use crate::client::ListKind;
use crate::protocol::error::McpError;
use crate::protocol::jsonrpc::RequestId;
use crate::protocol::task_extension::AnyTask;
use crate::protocol::wire_log::WireEntry;
use crate::ui::browse::lists::append;
use crate::ui::task_rows;
use leptos::prelude::*;
use rmcp::model::CallToolResult;
use std::sync::Arc;

impl Connection {
    /// A connect is on its way (its code may still be loading).
    pub fn begin_connect(self) {
        self.status.set(Status::Connecting);
        self.error.set(None);
    }

    /// A connect did not go out: what was typed cannot be used (said beside the input).
    pub fn connect_refused_input(self) {
        self.status.set(Status::Disconnected);
    }

    /// A connect failed before it reached the server (a chunk that could not be fetched, a
    /// sign-in that could not be prepared): `reason` is said.
    pub fn fail(self, reason: String) {
        self.error.set(Some(reason));
        self.status.set(Status::Failed);
    }

    /// Something about this server went wrong that does not change its status: said.
    pub fn report(self, reason: String) {
        self.error.set(Some(reason));
    }

    /// A line the page itself sent or heard for this server (the sign-in's token requests, an
    /// MCP App's messages), into the wire log.
    pub fn log_wire(self, entry: WireEntry) {
        self.wire.update(|log| log.push(entry));
    }

    /// Where signing in stands now.
    pub fn set_sign_in(self, next: SignIn) {
        self.sign_in.set(next);
    }

    /// The sign-in log has a new step.
    pub fn sign_in_stepped(self) {
        self.auth_log.update(|n| *n += 1);
    }

    /// Whether the sign-in chunk holds an authorization for this server: connects go through
    /// it, and it hears the server's refusals itself.
    pub(in crate::ui) fn set_has_authorization(self, held: bool) {
        self.signin.set_value(held);
    }

    /// The server's last 401 or 403 (status, `WWW-Authenticate`).
    pub(in crate::ui) fn last_refusal(self) -> Option<(u16, Option<String>)> {
        self.refusal.get_value()
    }

    /// What the last connect went out with (for a sign-in that starts after it).
    pub(in crate::ui) fn last_connect(self) -> Option<LastConnect> {
        self.last_connect.get_value()
    }

    /// The full app's address named this server: its link is read when its panels are first
    /// drawn (`take_link_pending` says so once).
    pub(in crate::ui) fn expect_link(self) {
        self.link_pending.set_value(true);
    }

    /// Whether the address's link is still to be read (then it is not any more).
    pub(in crate::ui) fn take_link_pending(self) -> bool {
        let pending = self.link_pending.get_value();
        self.link_pending.set_value(false);
        pending
    }

    /// What the address links to (opened once the server lists it), and what of the link
    /// could not be used.
    pub(in crate::ui) fn set_link(self, linked: Option<Linked>, problems: Vec<String>) {
        self.link_to(linked);
        self.link_problems.set(problems);
    }

    /// What the address links to, read with the page (the embed view's: its problems are said
    /// in its own way).
    pub(in crate::ui) fn link_to(self, linked: Option<Linked>) {
        self.linked.set_value(linked);
    }

    /// What the address links to, not yet opened.
    pub fn linked(self) -> Option<Linked> {
        self.linked.get_value()
    }

    /// The link was opened.
    pub(in crate::ui) fn link_done(self) {
        self.linked.set_value(None);
    }

    /// The server does not list what the link names: said with the link's other problems.
    pub(in crate::ui) fn link_missing(self, problem: String) {
        self.linked.set_value(None);
        self.link_problems.update(|problems| problems.push(problem));
    }

    /// The person dismissed what could not be used of the link.
    pub(in crate::ui) fn dismiss_link_problems(self) {
        self.link_problems.set(Vec::new());
    }

    /// The full app's link asks to connect at once (`&connect`).
    pub(in crate::ui) fn connect_when_ready(self, connect: bool) {
        self.auto_connect.set_value(connect);
    }

    /// Whether a link asked to connect at once (then it no longer does).
    pub(in crate::ui) fn take_auto_connect(self) -> bool {
        let asked = self.auto_connect.get_value();
        self.auto_connect.set_value(false);
        asked
    }

    /// The page asks before connecting a link's address on the person's machine or network
    /// (`origin`), or no longer asks (`None`).
    pub(in crate::ui) fn ask_to_connect(self, origin: Option<String>) {
        self.connect_ask.set(origin);
    }

    /// The next page of list `list` from `cursor` (all the rest with `all`), appended where it
    /// continues: a list fetched again meanwhile (its first page, with a new cursor) is left as
    /// it is.
    pub async fn load_more(self, list: ListKind, cursor: String, all: bool) -> Result<(), String> {
        let (update, next) = self.list_more(list, &cursor, all).await?;
        let mut appended = Ok(());
        self.server.update(|state| {
            let Some(state) = state else { return };
            if state.more.get(list) != Some(cursor.as_str()) {
                return;
            }
            // In place when nothing else holds this state: the lists listed so far are not
            // copied for each page.
            let next_state = Arc::make_mut(state);
            appended = append(next_state, update);
            if appended.is_ok() {
                next_state.more.set(list, next);
            }
        });
        appended
    }

    /// A task this page started or heard of (its tool and progress token when they are known).
    pub fn record_task(self, task: AnyTask, tool: Option<String>, token: Option<RequestId>) {
        task_rows::upsert(self.tasks, task, tool, token);
    }

    /// A followed task ended: its result, or why there is none (`None`: cancelled).
    pub fn task_ended(self, id: &str, end: Result<Option<CallToolResult>, McpError>) {
        self.tasks.update(|rows| {
            if let Some(row) = rows.iter_mut().find(|r| r.task.task_id == id) {
                row.result = end.map_err(|e| e.to_string()).transpose();
            }
        });
    }
}
