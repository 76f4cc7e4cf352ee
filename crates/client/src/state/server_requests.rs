//! What the server asked that is not answered yet: its requests shown to a person, the
//! embedded requests of a 2026-07-28 `input_required` round (whose answers go back to that
//! round), and the client's own messages waiting in the outbox.

use futures::channel::oneshot;
use mcp_lens_protocol::error::Step;
use mcp_lens_protocol::jsonrpc::RequestId;
use serde_json::Value;
use std::cell::RefCell;
use std::collections::VecDeque;

/// JSON-RPC code for a server request the person declined or let expire.
pub(crate) const DECLINED: i32 = -1;
/// The most server requests (sampling, elicitation) waiting for a person at once; more are
/// declined at once.
pub(crate) const MAX_WAITING_FOR_PERSON: usize = 16;
/// The most bytes (as JSON, roughly) the requests waiting for a person may hold together: the
/// page keeps each one's params until it is answered, and 16 requests of 16 MB each would be
/// 256 MB of wasm memory. One request as large as a message may be still fits.
pub(crate) const MAX_BYTES_WAITING_FOR_PERSON: usize = 24 * 1024 * 1024;
/// How many of the client's own messages start per turn of the event loop.
pub(crate) const OUTBOX_BATCH: usize = 12;

/// A person's answer: a result, or a JSON-RPC error (code, message).
pub(crate) type PersonAnswer = Result<Value, (i32, String)>;

#[derive(Default)]
pub(crate) struct ServerRequests {
    /// Server requests shown to a person and not answered yet, with their params' bytes.
    awaiting_person: RefCell<Vec<(RequestId, usize)>>,
    /// Requests embedded in `input_required` results, waiting for a person's answer.
    input_waiters: RefCell<Vec<(RequestId, oneshot::Sender<PersonAnswer>)>>,
    outbox: RefCell<Outbox>,
}

/// The client's own messages (answers to server requests, cancellations) not sent yet.
#[derive(Default)]
struct Outbox {
    queue: VecDeque<(String, Step)>,
    /// A task is sending them.
    draining: bool,
}

impl ServerRequests {
    /// Why one more request of `bytes` may not wait for the person (as a sentence's end:
    /// "declined: …"), or None when it may.
    pub(crate) fn refusal(&self, bytes: usize) -> Option<String> {
        let awaiting = self.awaiting_person.borrow();
        if awaiting.len() >= MAX_WAITING_FOR_PERSON {
            return Some(format!(
                "{MAX_WAITING_FOR_PERSON} requests were already waiting for the person"
            ));
        }
        let held: usize = awaiting.iter().map(|(_, bytes)| bytes).sum();
        (held + bytes > MAX_BYTES_WAITING_FOR_PERSON).then(|| {
            format!(
                "the requests waiting for the person would hold {:.1} MB (at most {} MB)",
                (held + bytes) as f64 / (1024.0 * 1024.0),
                MAX_BYTES_WAITING_FOR_PERSON / (1024 * 1024)
            )
        })
    }

    /// A server request of `bytes` now waits for the person.
    pub(crate) fn await_person(&self, id: RequestId, bytes: usize) {
        self.awaiting_person.borrow_mut().push((id, bytes));
    }

    /// An input round's request of `bytes` now waits for the person: the person's answer
    /// arrives on the receiver.
    pub(crate) fn await_input(
        &self,
        id: RequestId,
        bytes: usize,
    ) -> oneshot::Receiver<PersonAnswer> {
        let (answer, answered) = oneshot::channel();
        self.input_waiters.borrow_mut().push((id.clone(), answer));
        self.awaiting_person.borrow_mut().push((id, bytes));
        answered
    }

    /// The request no longer waits for the person; false when it was not waiting.
    pub(crate) fn stop_waiting(&self, id: &RequestId) -> bool {
        let mut awaiting = self.awaiting_person.borrow_mut();
        let before = awaiting.len();
        awaiting.retain(|(waiting, _)| waiting != id);
        awaiting.len() != before
    }

    /// Where the answer to `id` goes when it is an input round's request.
    pub(crate) fn take_input_waiter(
        &self,
        id: &RequestId,
    ) -> Option<oneshot::Sender<PersonAnswer>> {
        let mut waiters = self.input_waiters.borrow_mut();
        let index = waiters.iter().position(|(waiting, _)| waiting == id)?;
        Some(waiters.remove(index).1)
    }

    /// Nothing waits any more (the session ended): input rounds fail as declined.
    pub(crate) fn forget_all(&self) {
        self.awaiting_person.borrow_mut().clear();
        self.input_waiters.borrow_mut().clear();
    }

    /// Queues a message of the client's own; true when no task is sending the outbox yet
    /// (the caller starts one, which calls [`ServerRequests::next_batch`] until it is empty).
    pub(crate) fn queue(&self, body: String, step: Step) -> bool {
        let mut outbox = self.outbox.borrow_mut();
        outbox.queue.push_back((body, step));
        !std::mem::replace(&mut outbox.draining, true)
    }

    /// The next messages to send, at most [`OUTBOX_BATCH`], in order (none once the session
    /// is `closed`). Empty: the outbox is drained and the sending task ends.
    pub(crate) fn next_batch(&self, closed: bool) -> Vec<(String, Step)> {
        let mut outbox = self.outbox.borrow_mut();
        if closed {
            outbox.queue.clear();
        }
        let take = outbox.queue.len().min(OUTBOX_BATCH);
        if take == 0 {
            outbox.draining = false;
        }
        outbox.queue.drain(..take).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn id(n: i64) -> RequestId {
        RequestId::Number(n)
    }

    #[test]
    fn a_request_waits_for_the_person_until_answered_once_and_the_waiting_are_bounded() {
        let requests = ServerRequests::default();
        for n in 0..MAX_WAITING_FOR_PERSON as i64 {
            assert_eq!(requests.refusal(100), None);
            requests.await_person(id(n), 100);
        }
        assert_eq!(
            requests.refusal(100).as_deref(),
            Some("16 requests were already waiting for the person")
        );
        assert!(requests.stop_waiting(&id(3)));
        assert!(!requests.stop_waiting(&id(3)));
        assert_eq!(requests.refusal(100), None);
        assert!(requests.take_input_waiter(&id(4)).is_none());
    }

    #[test]
    fn the_waiting_are_bounded_by_bytes_and_answering_one_frees_its_bytes() {
        let requests = ServerRequests::default();
        let large = 10 * 1024 * 1024;
        requests.await_person(id(1), large);
        let _answered = requests.await_input(id(2), large);
        assert_eq!(
            requests.refusal(large).as_deref(),
            Some("the requests waiting for the person would hold 30.0 MB (at most 24 MB)")
        );
        assert_eq!(requests.refusal(1024), None);
        assert!(requests.stop_waiting(&id(1)));
        assert_eq!(requests.refusal(large), None);
        requests.forget_all();
        assert_eq!(requests.refusal(MAX_BYTES_WAITING_FOR_PERSON), None);
        assert!(requests.refusal(MAX_BYTES_WAITING_FOR_PERSON + 1).is_some());
    }

    #[test]
    fn an_input_rounds_answer_goes_back_to_the_round_and_ending_forgets_all() {
        let requests = ServerRequests::default();
        let mut answered = requests.await_input(id(1), 10);
        assert!(requests.stop_waiting(&id(1)));
        let waiter = requests.take_input_waiter(&id(1)).expect("a round waits");
        let _ = waiter.send(Ok(json!({ "action": "accept" })));
        assert_eq!(
            answered.try_recv().ok().flatten(),
            Some(Ok(json!({ "action": "accept" })))
        );
        let mut declined = requests.await_input(id(2), 10);
        requests.forget_all();
        assert!(!requests.stop_waiting(&id(2)));
        assert!(declined.try_recv().is_err(), "its round sees it declined");
    }

    #[test]
    fn the_outbox_sends_in_order_by_batches_and_nothing_once_closed() {
        let requests = ServerRequests::default();
        assert!(
            requests.queue("0".to_owned(), Step::AnswerServer),
            "starts a drain"
        );
        for n in 1..30 {
            assert!(!requests.queue(n.to_string(), Step::AnswerServer));
        }
        let first = requests.next_batch(false);
        assert_eq!(first.len(), OUTBOX_BATCH);
        assert_eq!(first[0].0, "0");
        assert_eq!(requests.next_batch(false)[0].0, OUTBOX_BATCH.to_string());
        assert!(
            requests.next_batch(true).is_empty(),
            "closed: the rest is dropped"
        );
        assert!(
            requests.queue("again".to_owned(), Step::Cancel),
            "a new drain"
        );
        assert_eq!(requests.next_batch(false).len(), 1);
        assert!(requests.next_batch(false).is_empty());
    }
}
