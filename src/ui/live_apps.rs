//! The MCP Apps in the page, per connection (kept in its store: `Connection::close_apps` and its
//! kin) and by tool, so that what takes their frames away (a
//! re-run, another tool, a disconnect) tears them down first and waits for their answers. Here,
//! in the connect path, as closures the apps' own chunk registers (`apps.rs`): a server without
//! apps never downloads their host.

use crate::client::browser::timer::{now_ms, sleep};
use std::cell::RefCell;
use std::rc::Rc;

/// One app in the page: how to ask it to tear down, and whether it still is.
pub struct LiveApp {
    /// The frame's id.
    pub frame: String,
    /// The tool whose app it is (it may change as its call is re-run).
    pub tool: Rc<dyn Fn() -> String>,
    /// Sends `ui/resource-teardown` (or closes at once an app not yet initialized).
    pub teardown: Rc<dyn Fn()>,
    /// Whether it is still waiting for the app's answer to the teardown.
    pub closing: Rc<dyn Fn() -> bool>,
}

/// One connection's apps in the page, kept in its store (`Connection::kept`).
#[derive(Default)]
pub struct LiveApps(RefCell<Vec<LiveApp>>);

/// How to ask one app to tear down, and whether it is still closing.
pub type Closer = (Rc<dyn Fn()>, Rc<dyn Fn() -> bool>);

impl LiveApps {
    /// An app came into the page.
    pub fn register(&self, app: LiveApp) {
        self.0.borrow_mut().push(app);
    }

    /// Its frame left the page.
    pub fn unregister(&self, frame: &str) {
        self.0.borrow_mut().retain(|app| app.frame != frame);
    }

    /// The teardown and closing checks of the apps (only `tool`'s, if given).
    pub fn of(&self, tool: Option<&str>) -> Vec<Closer> {
        self.0
            .borrow()
            .iter()
            .filter(|app| tool.is_none_or(|tool| (app.tool)() == tool))
            .map(|app| (app.teardown.clone(), app.closing.clone()))
            .collect()
    }
}

/// How long a torn-down app may take to answer before its frame goes anyway.
pub const TEARDOWN_TIMEOUT_MS: u32 = 2_000;

/// Tears down `apps` (a connection's, [`LiveApps::of`]) before their frames are taken away:
/// each is sent `ui/resource-teardown`, and this returns once each has answered, or after
/// [`TEARDOWN_TIMEOUT_MS`].
pub async fn close(apps: Vec<Closer>) {
    for (teardown, _) in &apps {
        teardown();
    }
    let started = now_ms();
    let limit = f64::from(TEARDOWN_TIMEOUT_MS) + 100.0;
    while apps.iter().any(|(_, closing)| closing()) && now_ms() - started < limit {
        sleep(20).await;
    }
}
