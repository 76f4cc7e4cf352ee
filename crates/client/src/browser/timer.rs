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

/// Resolves in a task of its own, after whatever the page has queued (input, a frame): a
/// message posted to a `MessageChannel`, which unlike `setTimeout(0)` is never held back to
/// 4 ms when nested. Falls back to `setTimeout(0)` where there is no `MessageChannel`.
pub async fn yield_now() {
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        let channel = js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("MessageChannel"))
            .ok()
            .and_then(|constructor| constructor.dyn_into::<js_sys::Function>().ok())
            .and_then(|constructor| {
                js_sys::Reflect::construct(&constructor, &js_sys::Array::new()).ok()
            });
        let port = |name: &str| {
            channel
                .as_ref()
                .and_then(|channel| js_sys::Reflect::get(channel, &JsValue::from_str(name)).ok())
        };
        let post = port("port2").and_then(|port| {
            let post = js_sys::Reflect::get(&port, &JsValue::from_str("postMessage")).ok()?;
            Some((port, post.dyn_into::<js_sys::Function>().ok()?))
        });
        let callback = Closure::once_into_js(move || {
            let _ = resolve.call0(&JsValue::UNDEFINED);
        });
        let posted = match (port("port1"), post) {
            (Some(receiver), Some((sender, post))) => {
                js_sys::Reflect::set(&receiver, &JsValue::from_str("onmessage"), &callback).is_ok()
                    && post.call1(&sender, &JsValue::NULL).is_ok()
            }
            _ => false,
        };
        if !posted {
            if let Some(window) = web_sys::window() {
                let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(
                    callback.unchecked_ref(),
                    0,
                );
            }
        }
    });
    let _ = JsFuture::from(promise).await;
}

/// Resolves when the page is idle (`requestIdleCallback`), or after 50 ms where there is no
/// such callback. Reached through `Reflect` and imports the glue already has, so the page's
/// first-paint script grows by nothing for it.
pub async fn idle() {
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        let global = js_sys::global();
        let request = js_sys::Reflect::get(&global, &JsValue::from_str("requestIdleCallback"))
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
        let callback = Closure::once_into_js(move || {
            let _ = resolve.call0(&JsValue::UNDEFINED);
        });
        let asked = request.is_some_and(|request| request.call1(&global, &callback).is_ok());
        if !asked {
            if let Some(window) = web_sys::window() {
                let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(
                    callback.unchecked_ref(),
                    50,
                );
            }
        }
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
