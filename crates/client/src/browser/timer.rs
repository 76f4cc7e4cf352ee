//! Timers on the browser's event loop (never `std::time`, which panics in wasm32).

use wasm_bindgen::{closure::Closure, JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// Resolves after `ms` milliseconds.
pub async fn sleep(ms: u32) {
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        let Some(window) = web_sys::window() else {
            let _ = resolve.call0(&JsValue::UNDEFINED);
            return;
        };
        let callback = Closure::once_into_js(move || {
            let _ = resolve.call0(&JsValue::UNDEFINED);
        });
        let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(
            callback.unchecked_ref(),
            ms.min(i32::MAX as u32) as i32,
        );
    });
    let _ = JsFuture::from(promise).await;
}

/// Milliseconds since the page started, for measuring durations.
pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or_else(js_sys::Date::now)
}

/// Resolves once the browser has painted the next frame (a frame callback, then a task), or
/// after 100 ms when no frame comes (a hidden tab does not paint).
pub async fn after_paint() {
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        let Some(window) = web_sys::window() else {
            let _ = resolve.call0(&JsValue::UNDEFINED);
            return;
        };
        let fallback = resolve.clone();
        let on_timeout = Closure::once_into_js(move || {
            let _ = fallback.call0(&JsValue::UNDEFINED);
        });
        let _ = window
            .set_timeout_with_callback_and_timeout_and_arguments_0(on_timeout.unchecked_ref(), 100);
        let frame_window = window.clone();
        let on_frame = Closure::once_into_js(move || {
            let after = Closure::once_into_js(move || {
                let _ = resolve.call0(&JsValue::UNDEFINED);
            });
            let _ = frame_window
                .set_timeout_with_callback_and_timeout_and_arguments_0(after.unchecked_ref(), 0);
        });
        let _ = window.request_animation_frame(on_frame.unchecked_ref());
    });
    let _ = JsFuture::from(promise).await;
}
