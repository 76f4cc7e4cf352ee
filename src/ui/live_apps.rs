//! The MCP Apps in the page, per connection (`Connection::close_apps` and its kin) and by tool, so that what takes their frames away (a
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

thread_local! {
    /// Every connection's apps, by its id. Kept here, not in each connection's store: the store
    /// is made with the first paint, and holding the apps there would bring their drop code
    /// into it; this list is first touched when an app is drawn.
    static LIVE: RefCell<Vec<(String, LiveApp)>> = const { RefCell::new(Vec::new()) };
}

/// How to ask one app to tear down, and whether it is still closing.
type Closer = (Rc<dyn Fn()>, Rc<dyn Fn() -> bool>);

/// An app of connection `server` came into the page.
pub fn register(server: String, app: LiveApp) {
    LIVE.with(|live| live.borrow_mut().push((server, app)));
}

/// Its frame left the page.
pub fn unregister(frame: &str) {
    LIVE.with(|live| live.borrow_mut().retain(|(_, app)| app.frame != frame));
}

/// The teardown and closing checks of connection `server`'s apps (only `tool`'s, if given).
pub fn of(server: &str, tool: Option<&str>) -> Vec<Closer> {
    LIVE.with(|live| {
        live.borrow()
            .iter()
            .filter(|(of, app)| of == server && tool.is_none_or(|tool| (app.tool)() == tool))
            .map(|(_, app)| (app.teardown.clone(), app.closing.clone()))
            .collect()
    })
}

/// How long a torn-down app may take to answer before its frame goes anyway.
pub const TEARDOWN_TIMEOUT_MS: u32 = 2_000;

/// Tears down `apps` (a connection's, [`of`]) before their frames are taken away:
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
