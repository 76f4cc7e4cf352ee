//! The table of requests waiting for their answer.
//!
//! Answers may arrive in any order, on any stream; each is matched to its request by id.
//! An answer whose id is not in the table (never sent, already answered, or given up on)
//! is reported to the caller to log, and otherwise ignored.

use super::jsonrpc::RequestId;
use std::collections::HashMap;

/// What we remember about one request in flight. `W` is whatever wakes the caller up
/// (a channel sender in the client; anything in tests).
#[derive(Debug)]
pub struct Pending<W> {
    pub method: String,
    pub waiter: W,
}

#[derive(Debug)]
pub struct PendingRequests<W> {
    entries: HashMap<RequestId, Pending<W>>,
}

impl<W> Default for PendingRequests<W> {
    fn default() -> Self {
        Self {
            entries: HashMap::new(),
        }
    }
}

impl<W> PendingRequests<W> {
    pub fn insert(&mut self, id: RequestId, method: impl Into<String>, waiter: W) {
        self.entries.insert(
            id,
            Pending {
                method: method.into(),
                waiter,
            },
        );
    }

    /// Removes and returns the request this answer belongs to.
    ///
    /// Ids match exactly; as a tolerance for servers that echo numeric ids as strings
    /// (`"5"` for `5`), a string answer id that is a decimal integer also matches.
    pub fn take(&mut self, answer_id: &RequestId) -> Option<Pending<W>> {
        if let Some(found) = self.entries.remove(answer_id) {
            return Some(found);
        }
        match answer_id {
            RequestId::String(text) => {
                let number = text.parse::<i64>().ok()?;
                self.entries.remove(&RequestId::Number(number))
            }
            RequestId::Number(_) => None,
        }
    }

    pub fn get(&self, id: &RequestId) -> Option<&Pending<W>> {
        self.entries.get(id)
    }

    /// Gives up on a request (timeout, cancel): a late answer will then count as unknown.
    pub fn forget(&mut self, id: &RequestId) -> Option<Pending<W>> {
        self.entries.remove(id)
    }

    pub fn contains(&self, id: &RequestId) -> bool {
        self.entries.contains_key(id)
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Empties the table, e.g. when the session ends; the caller fails every waiter.
    pub fn drain(&mut self) -> Vec<(RequestId, Pending<W>)> {
        self.entries.drain().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jsonrpc::{decode_incoming, IdAllocator, Incoming};

    /// Feeds recorded answers through `decode_incoming` and the table, as the client does.
    fn route(
        table: &mut PendingRequests<&'static str>,
        text: &str,
    ) -> Vec<Result<&'static str, String>> {
        decode_incoming(text)
            .into_iter()
            .map(|message| match message {
                Incoming::Result { id, .. } | Incoming::Error { id: Some(id), .. } => table
                    .take(&id)
                    .map(|p| p.waiter)
                    .ok_or(format!("unknown id {id}")),
                other => Err(format!("not an answer: {other:?}")),
            })
            .collect()
    }

    #[test]
    fn answers_out_of_order_reach_their_callers() {
        let mut ids = IdAllocator::default();
        let mut table = PendingRequests::default();
        table.insert(ids.next_id(), "tools/list", "tools");
        table.insert(ids.next_id(), "prompts/list", "prompts");
        table.insert(ids.next_id(), "resources/list", "resources");
        let routed = route(
            &mut table,
            r#"[{"jsonrpc":"2.0","id":2,"result":{}},{"jsonrpc":"2.0","id":0,"result":{}},{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"x"}}]"#,
        );
        assert_eq!(routed, vec![Ok("resources"), Ok("tools"), Ok("prompts")]);
        assert!(table.is_empty());
    }

    #[test]
    fn id_zero_is_an_ordinary_id() {
        let mut table = PendingRequests::default();
        table.insert(RequestId::Number(0), "initialize", "init");
        assert_eq!(
            route(&mut table, r#"{"jsonrpc":"2.0","id":0,"result":{}}"#),
            vec![Ok("init")]
        );
    }

    #[test]
    fn string_ids_match_exactly_and_numeric_strings_match_numbers() {
        let mut table = PendingRequests::default();
        table.insert(RequestId::String("req-a".into()), "ping", "a");
        table.insert(RequestId::Number(5), "ping", "five");
        assert_eq!(
            route(
                &mut table,
                r#"[{"jsonrpc":"2.0","id":"req-a","result":{}},{"jsonrpc":"2.0","id":"5","result":{}}]"#
            ),
            vec![Ok("a"), Ok("five")]
        );
    }

    #[test]
    fn unknown_and_repeated_ids_are_reported_and_ignored() {
        let mut table = PendingRequests::default();
        table.insert(RequestId::Number(3), "tools/call", "call");
        let routed = route(
            &mut table,
            r#"[{"jsonrpc":"2.0","id":99,"result":{}},{"jsonrpc":"2.0","id":3,"result":{}},{"jsonrpc":"2.0","id":3,"result":{}}]"#,
        );
        assert_eq!(
            routed,
            vec![
                Err("unknown id 99".into()),
                Ok("call"),
                Err("unknown id 3".into())
            ]
        );
    }

    #[test]
    fn forgotten_requests_do_not_match_late_answers() {
        let mut table = PendingRequests::default();
        table.insert(RequestId::Number(1), "tools/call", "call");
        assert!(table.forget(&RequestId::Number(1)).is_some());
        assert!(table.take(&RequestId::Number(1)).is_none());
    }
}
