//! The store's own rules, natively: what a chunk keeps per connection, and the changes the
//! code above may ask for.

use super::*;
use crate::protocol::task_extension::AnyTask;

fn connection(id: &str) -> Connection {
    Connection::new(RwSignal::new(WireLog::default()), id.to_owned())
}

#[derive(Default)]
struct Counter(std::cell::Cell<u32>);

#[derive(Default)]
struct Other(std::cell::Cell<u32>);

#[test]
fn each_chunk_keeps_its_own_state_per_connection() {
    let owner = Owner::new();
    owner.with(|| {
        let (a, b) = (connection("a"), connection("b"));
        assert!(
            a.kept_if_any::<Counter>().is_none(),
            "nothing kept before first use"
        );
        a.kept::<Counter>().0.set(3);
        // The same type on the same connection is the same value; another type or another
        // connection is not.
        assert_eq!(a.kept::<Counter>().0.get(), 3);
        assert_eq!(a.kept_if_any::<Counter>().map(|c| c.0.get()), Some(3));
        assert_eq!(a.kept::<Other>().0.get(), 0);
        assert_eq!(b.kept::<Counter>().0.get(), 0);
        b.kept::<Counter>().0.set(7);
        assert_eq!(a.kept::<Counter>().0.get(), 3);
    });
}

#[test]
fn what_a_connection_kept_goes_with_it() {
    let owner = Owner::new();
    let (gone, held) = owner.with(|| {
        let gone = connection("gone");
        let held = Rc::new(());
        gone.kept::<Counter>().0.set(1);
        gone.kept.update_value(|all| all.push(held.clone()));
        (gone, held)
    });
    assert_eq!(Rc::strong_count(&held), 2);
    owner.cleanup();
    // A removed server's connection answers "nothing kept" rather than panicking, and its
    // chunks' state was let go.
    assert!(gone.kept_if_any::<Counter>().is_none());
    assert_eq!(Rc::strong_count(&held), 1);
}

#[test]
fn a_connect_that_fails_before_the_server_says_why_and_stops_connecting() {
    let owner = Owner::new();
    owner.with(|| {
        let c = connection("s");
        c.begin_connect();
        assert_eq!(c.status().get_untracked(), Status::Connecting);
        c.fail("The session chunk could not be fetched.".to_owned());
        assert_eq!(c.status().get_untracked(), Status::Failed);
        assert_eq!(
            c.error().get_untracked().as_deref(),
            Some("The session chunk could not be fetched.")
        );
        // A new connect clears the last one's error.
        c.begin_connect();
        assert_eq!(c.error().get_untracked(), None);
        // Input that cannot be used leaves it disconnected, with no error of the server's.
        c.connect_refused_input();
        assert_eq!(c.status().get_untracked(), Status::Disconnected);
    });
}

#[test]
fn a_link_is_read_once_and_its_missing_target_is_said() {
    let owner = Owner::new();
    owner.with(|| {
        let c = connection("s");
        assert!(!c.take_link_pending());
        c.expect_link();
        assert!(c.take_link_pending());
        assert!(!c.take_link_pending(), "read once");
        c.set_link(None, vec!["args are not JSON".to_owned()]);
        c.link_missing("The server does not list the tool nope.".to_owned());
        assert_eq!(c.link_problems().get_untracked().len(), 2);
        assert!(c.linked().is_none());
        c.dismiss_link_problems();
        assert!(c.link_problems().get_untracked().is_empty());
        c.connect_when_ready(true);
        assert!(c.take_auto_connect());
        assert!(!c.take_auto_connect(), "asked once");
    });
}

#[test]
fn a_task_is_recorded_then_ends_with_its_result() {
    let owner = Owner::new();
    owner.with(|| {
        let c = connection("s");
        let task: crate::protocol::tasks::Task = serde_json::from_value(serde_json::json!({
            "taskId": "t1", "status": "working",
            "createdAt": "2026-12-05T10:00:00Z", "lastUpdatedAt": "2026-12-05T10:00:00Z"
        }))
        .unwrap();
        let task = AnyTask::from(task);
        c.record_task(task, Some("slow".to_owned()), None);
        assert_eq!(c.tasks().with_untracked(Vec::len), 1);
        c.task_ended("t1", Ok(None));
        c.task_ended("unknown", Ok(None));
        c.tasks().with_untracked(|rows| {
            assert_eq!(rows.len(), 1);
            assert_eq!(rows[0].tool, "slow");
            assert!(rows[0].result.is_none(), "cancelled: no result");
        });
    });
}
