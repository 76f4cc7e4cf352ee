//! Browser I/O: `fetch` with streamed bodies and abort, timers, `spawn_local`; together the
//! page's [`Runtime`]. Holds no protocol state of its own.

pub mod http;
pub mod random;
pub mod sign;
pub mod timer;
pub mod url;

use crate::runtime::{Clock, Runtime, Spawn};
use futures::future::LocalBoxFuture;
use std::rc::Rc;

/// The page's runtime: [`http::Fetch`], [`BrowserClock`], [`SpawnLocal`].
pub fn runtime() -> Runtime {
    Runtime {
        http: Rc::new(http::Fetch),
        clock: Rc::new(BrowserClock),
        spawner: Rc::new(SpawnLocal),
    }
}

impl Runtime {
    /// The page's runtime: `fetch`, browser timers and `wasm_bindgen_futures::spawn_local`.
    /// Only usable inside a browser (wasm32).
    pub fn browser() -> Self {
        runtime()
    }
}

/// `performance.now()`, `setTimeout`, a frame callback for "after paint", a message to itself
/// for "yield", and `requestIdleCallback` for "idle".
pub struct BrowserClock;

impl Clock for BrowserClock {
    fn now_ms(&self) -> f64 {
        timer::now_ms()
    }

    fn sleep(&self, ms: u32) -> LocalBoxFuture<'static, ()> {
        Box::pin(timer::sleep(ms))
    }

    fn after_paint(&self) -> LocalBoxFuture<'static, ()> {
        Box::pin(timer::after_paint())
    }

    fn yield_now(&self) -> LocalBoxFuture<'static, ()> {
        Box::pin(timer::yield_now())
    }

    fn idle(&self) -> LocalBoxFuture<'static, ()> {
        Box::pin(timer::idle())
    }
}

/// `wasm_bindgen_futures::spawn_local`.
pub struct SpawnLocal;

impl Spawn for SpawnLocal {
    fn spawn(&self, task: LocalBoxFuture<'static, ()>) {
        wasm_bindgen_futures::spawn_local(task);
    }
}
