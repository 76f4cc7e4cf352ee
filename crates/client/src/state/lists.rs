//! Re-list bookkeeping: at most one fetch of each list in flight, and exactly one more after
//! it when the server announced a change meanwhile (so an older list never replaces a newer
//! one); what the last tools list said of running tools as tasks; and each list's lifetime
//! (SEP-2549).

use crate::events::ListKind;
use mcp_lens_protocol::caching::ListLifetime;
use mcp_lens_protocol::tasks::TaskSupport;
use serde_json::Value;
use std::cell::RefCell;
use std::collections::HashMap;

/// The re-list state of one list kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Relist {
    #[default]
    Idle,
    Running,
    /// Running, and a change was announced since it started.
    RunAgain,
}

#[derive(Default)]
pub(crate) struct Lists {
    /// Re-list states by [`ListKind`].
    relists: RefCell<[Relist; 4]>,
    /// The tools (by name) of the last tools list that may or must run as tasks.
    task_support: RefCell<HashMap<String, TaskSupport>>,
    /// The input schemas (by tool name) of the last tools list: a 2026-07-28 call mirrors
    /// the parameters they mark with `x-mcp-header` (read when a call is made, not here).
    input_schemas: RefCell<HashMap<String, Value>>,
    /// Each list's lifetime by [`ListKind`], from the pages held now (`None`: never listed).
    lifetimes: RefCell<[Option<ListLifetime>; 4]>,
}

impl Lists {
    /// Claims the kind's fetch: true when the caller should fetch now, false when one is in
    /// flight (which will then fetch once more).
    pub(crate) fn start(&self, kind: ListKind) -> bool {
        let mut relists = self.relists.borrow_mut();
        let state = &mut relists[kind as usize];
        match state {
            Relist::Idle => {
                *state = Relist::Running;
                true
            }
            Relist::Running | Relist::RunAgain => {
                *state = Relist::RunAgain;
                false
            }
        }
    }

    /// A fetch ended: true when it must run once more (and stays claimed).
    pub(crate) fn finish(&self, kind: ListKind) -> bool {
        let mut relists = self.relists.borrow_mut();
        let state = &mut relists[kind as usize];
        let again = *state == Relist::RunAgain;
        *state = if again { Relist::Running } else { Relist::Idle };
        again
    }

    /// rmcp's Tool has no `execution`: remembers which listed tools may run as tasks from
    /// raw `tools/list` pages (a first page starts the list afresh; later pages add to it),
    /// and each tool's input schema as listed.
    pub(crate) fn remember_task_support(&self, pages: &[Value], first: bool) {
        let tools = || {
            pages
                .iter()
                .filter_map(|page| page.get("tools").and_then(Value::as_array))
                .flatten()
        };
        {
            let mut schemas = self.input_schemas.borrow_mut();
            if first {
                schemas.clear();
            }
            schemas.extend(tools().filter_map(|tool| {
                let name = tool.get("name").and_then(Value::as_str)?;
                Some((name.to_owned(), tool.get("inputSchema")?.clone()))
            }));
        }
        let listed = tools().filter_map(|tool| {
            let name = tool.get("name").and_then(Value::as_str)?;
            let support = TaskSupport::of_tool(tool);
            (support != TaskSupport::Forbidden).then(|| (name.to_owned(), support))
        });
        let mut known = self.task_support.borrow_mut();
        if first {
            known.clear();
        }
        known.extend(listed);
    }

    /// Pages of a list arrived at `now_ms`: a first page starts its lifetime afresh, later
    /// pages ("Load more") can only bring its end forward.
    pub(crate) fn received(&self, kind: ListKind, pages: &[Value], first: bool, now_ms: u64) {
        let mut lifetimes = self.lifetimes.borrow_mut();
        let held = &mut lifetimes[kind as usize];
        *held = match (*held, first) {
            (Some(known), false) => Some(known.with_pages(pages, now_ms)),
            _ => ListLifetime::received(pages, now_ms),
        };
    }

    /// The server said the list changed: stale whatever its lifetime said.
    pub(crate) fn invalidate(&self, kind: ListKind) {
        let mut lifetimes = self.lifetimes.borrow_mut();
        let held = &mut lifetimes[kind as usize];
        *held = held.map(ListLifetime::invalidated);
    }

    pub(crate) fn lifetime(&self, kind: ListKind) -> Option<ListLifetime> {
        self.lifetimes.borrow()[kind as usize]
    }

    /// A tool's input schema, as the last tools list gave it.
    pub(crate) fn input_schema(&self, tool: &str) -> Option<Value> {
        self.input_schemas.borrow().get(tool).cloned()
    }

    /// A tool's `execution.taskSupport`, as the last tools list said.
    pub(crate) fn task_support(&self, tool: &str) -> TaskSupport {
        self.task_support
            .borrow()
            .get(tool)
            .copied()
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn one_fetch_per_kind_and_one_more_for_any_number_of_changes_meanwhile() {
        let lists = Lists::default();
        assert!(lists.start(ListKind::Tools));
        assert!(lists.start(ListKind::Prompts), "kinds are independent");
        assert!(!lists.start(ListKind::Tools));
        assert!(!lists.start(ListKind::Tools));
        assert!(lists.finish(ListKind::Tools), "changes came: once more");
        assert!(!lists.finish(ListKind::Tools), "then idle");
        assert!(lists.start(ListKind::Tools));
        assert!(!lists.finish(ListKind::Prompts));
    }

    #[test]
    fn a_lifetime_starts_with_a_first_page_and_a_change_ends_it() {
        let lists = Lists::default();
        assert_eq!(lists.lifetime(ListKind::Tools), None);
        lists.invalidate(ListKind::Tools);
        assert_eq!(lists.lifetime(ListKind::Tools), None);
        let page = |ttl: u64| json!({ "tools": [], "ttlMs": ttl });
        lists.received(ListKind::Tools, &[page(60_000)], true, 0);
        lists.received(ListKind::Tools, &[page(1_000)], false, 10);
        let held = lists.lifetime(ListKind::Tools).unwrap();
        assert_eq!(held.freshness.stale_at_ms(), 1_010);
        lists.received(ListKind::Tools, &[page(60_000)], true, 20);
        assert_eq!(
            lists
                .lifetime(ListKind::Tools)
                .unwrap()
                .freshness
                .stale_at_ms(),
            60_020
        );
        lists.invalidate(ListKind::Tools);
        assert!(
            lists
                .lifetime(ListKind::Tools)
                .unwrap()
                .freshness
                .invalidated
        );
        assert_eq!(lists.lifetime(ListKind::Prompts), None);
    }

    #[test]
    fn task_support_comes_from_the_raw_pages_and_a_first_page_starts_afresh() {
        let lists = Lists::default();
        let tool = |name: &str, support: &str| json!({ "name": name, "execution": { "taskSupport": support } });
        let page = |tools: Value| json!({ "tools": tools });
        lists.remember_task_support(
            &[page(json!([
                tool("slow", "required"),
                tool("quick", "forbidden")
            ]))],
            true,
        );
        lists.remember_task_support(&[page(json!([tool("either", "optional")]))], false);
        assert_eq!(lists.task_support("slow"), TaskSupport::Required);
        assert_eq!(lists.task_support("either"), TaskSupport::Optional);
        assert_eq!(lists.task_support("quick"), TaskSupport::default());
        lists.remember_task_support(&[page(json!([]))], true);
        assert_eq!(lists.task_support("slow"), TaskSupport::default());
    }
}
