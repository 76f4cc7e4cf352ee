//! The apps host's browser calls (`src/ui/apps_host.js`), through one imported function.

use std::cell::Cell;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

// Every browser call of the apps host goes through this one function (`src/ui/apps_host.js`
// says what each operation does): each JavaScript function the wasm imports lives in the first
// paint's module (wasm-split leaves imports there), so one import instead of a dozen keeps the
// first paint from growing. And the host's code itself is not part of the first paint: this
// stub imports it (scripts/wasm-split.mjs ships it beside the loader, two folders above the
// snippets) the first time an app is drawn ([`host_loaded`]); until then there is no frame to
// speak to, and an operation does nothing.
#[wasm_bindgen(inline_js = "let host = null;
export function apps_host(op, target, text) { return host ? host(op, target, text) : ''; }
export function apps_host_load() {
  return host ? Promise.resolve() : import(new URL('../../apps_host.js', import.meta.url)).then((m) => { host = m.apps_host; });
}")]
extern "C" {
    pub(super) fn apps_host(op: &str, target: &JsValue, text: &str) -> String;
    pub(super) fn apps_host_load() -> js_sys::Promise;
}

/// Whether the host's JavaScript is here (fetched on the first call; a failed fetch is tried
/// again by the next).
pub(in crate::ui) async fn host_loaded() -> bool {
    wasm_bindgen_futures::JsFuture::from(apps_host_load())
        .await
        .is_ok()
}

thread_local! {
    /// Numbers the apps' frames (`data-app`), so each host reads its own frame's messages.
    /// Page-wide: frame numbers must differ across every connection's apps.
    pub(super) static NEXT_FRAME: Cell<u64> = const { Cell::new(0) };
}
