//! The engine's table: request ids and the requests waiting for their answer, each matched
//! by id whatever stream its answer arrives on (as the TypeScript SDK's `Protocol` does,
//! above any transport).

use crate::runtime::Abort;
use futures::channel::oneshot;
use mcp_lens_protocol::error::ErrorKind;
use mcp_lens_protocol::jsonrpc::{IdAllocator, RequestId};
use mcp_lens_protocol::pending::PendingRequests;
use serde_json::Value;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// A request's raw `result`, or why it has none.
pub(crate) type Answer = Result<Value, ErrorKind>;

/// What wakes a request's caller, and what its fetch is stopped with.
struct Waiter {
    answer: oneshot::Sender<Answer>,
    abort: Abort,
    /// When the request was sent or last reported progress (for the idle timeout).
    activity: Rc<Cell<f64>>,
}

/// Request ids and the requests in flight.
#[derive(Default)]
pub(crate) struct Engine {
    ids: RefCell<IdAllocator>,
    pending: RefCell<PendingRequests<Waiter>>,
}

impl Engine {
    /// The next request id of this session.
    pub(crate) fn next_id(&self) -> RequestId {
        self.ids.borrow_mut().next_id()
    }

    /// Waits for the answer to `id` (a `method` request whose fetch `abort` stops): the
    /// answer's receiver, and when the request last showed activity (sent now, at `now_ms`).
    pub(crate) fn expect(
        &self,
        id: RequestId,
        method: &str,
        abort: Abort,
        now_ms: f64,
    ) -> (oneshot::Receiver<Answer>, Rc<Cell<f64>>) {
        let (answer, answered) = oneshot::channel();
        let activity = Rc::new(Cell::new(now_ms));
        self.pending.borrow_mut().insert(
            id,
            method,
            Waiter {
                answer,
                abort,
                activity: activity.clone(),
            },
        );
        (answered, activity)
    }

    /// Whether `id` still waits for its answer.
    pub(crate) fn waiting(&self, id: &RequestId) -> bool {
        self.pending.borrow().contains(id)
    }

    /// Hands an answer to its request; false when no request waits for it (unknown id,
    /// already answered, given up on).
    pub(crate) fn resolve(&self, id: &RequestId, answer: Answer) -> bool {
        let pending = self.pending.borrow_mut().take(id);
        match pending {
            Some(pending) => {
                let _ = pending.waiter.answer.send(answer);
                true
            }
            None => false,
        }
    }

    /// Cancels a request in flight: its fetch is aborted and its caller told. False when it
    /// was not in flight.
    pub(crate) fn cancel(&self, id: &RequestId) -> bool {
        let Some(pending) = self.pending.borrow_mut().take(id) else {
            return false;
        };
        pending.waiter.abort.abort();
        let _ = pending.waiter.answer.send(Err(ErrorKind::Cancelled));
        true
    }

    /// Gives up on a request (it failed or timed out): a late answer counts as unknown.
    pub(crate) fn forget(&self, id: &RequestId) {
        self.pending.borrow_mut().forget(id);
    }

    /// The request reported progress at `now_ms`: its idle timeout starts again.
    pub(crate) fn progressed(&self, id: &RequestId, now_ms: f64) {
        if let Some(pending) = self.pending.borrow().get(id) {
            pending.waiter.activity.set(now_ms);
        }
    }

    /// Fails every request in flight with `kind`, aborting their fetches.
    pub(crate) fn fail_all(&self, kind: ErrorKind) {
        let in_flight = self.pending.borrow_mut().drain();
        for (_, pending) in in_flight {
            pending.waiter.abort.abort();
            let _ = pending.waiter.answer.send(Err(kind.clone()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn answer_of(mut answered: oneshot::Receiver<Answer>) -> Option<Answer> {
        answered.try_recv().ok().flatten()
    }

    #[test]
    fn an_answer_reaches_its_request_once_and_a_second_is_unknown() {
        let engine = Engine::default();
        let id = engine.next_id();
        assert_ne!(engine.next_id(), id, "ids are not reused");
        let (answered, _) = engine.expect(id.clone(), "ping", Abort::new(), 0.0);
        assert!(engine.waiting(&id));
        assert!(engine.resolve(&id, Ok(json!({}))));
        assert!(!engine.waiting(&id));
        assert!(!engine.resolve(&id, Ok(json!({}))));
        assert_eq!(answer_of(answered), Some(Ok(json!({}))));
    }

    #[test]
    fn a_cancelled_request_is_aborted_and_told_and_a_forgotten_one_answers_nobody() {
        let engine = Engine::default();
        let (cancelled, forgotten) = (engine.next_id(), engine.next_id());
        let abort = Abort::new();
        let (answered, _) = engine.expect(cancelled.clone(), "tools/call", abort.clone(), 0.0);
        let _ = engine.expect(forgotten.clone(), "tools/call", Abort::new(), 0.0);
        assert!(engine.cancel(&cancelled));
        assert!(abort.is_aborted());
        assert_eq!(answer_of(answered), Some(Err(ErrorKind::Cancelled)));
        assert!(!engine.cancel(&cancelled));
        engine.forget(&forgotten);
        assert!(!engine.resolve(&forgotten, Ok(json!({}))));
    }

    #[test]
    fn progress_moves_the_activity_and_failing_all_aborts_every_request() {
        let engine = Engine::default();
        let (first, second) = (engine.next_id(), engine.next_id());
        let aborts = [Abort::new(), Abort::new()];
        let (first_answer, activity) = engine.expect(first.clone(), "a", aborts[0].clone(), 1.0);
        let (second_answer, _) = engine.expect(second, "b", aborts[1].clone(), 1.0);
        engine.progressed(&first, 5.0);
        assert_eq!(activity.get(), 5.0);
        engine.fail_all(ErrorKind::StreamEnded);
        assert!(aborts.iter().all(Abort::is_aborted));
        assert_eq!(answer_of(first_answer), Some(Err(ErrorKind::StreamEnded)));
        assert_eq!(answer_of(second_answer), Some(Err(ErrorKind::StreamEnded)));
        assert!(!engine.waiting(&first));
    }
}
