//! The page's side of the embed view's widget (`src/ui/embed_host.js`): its look, its height and
//! what it tells the host page (connected, an error, each result). Outside an iframe these do
//! nothing.

use super::address::TargetKind;

#[wasm_bindgen::prelude::wasm_bindgen(module = "/src/ui/embed_host.js")]
extern "C" {
    pub(super) fn set_root_property(name: &str, value: &str);
    pub(super) fn watch_height(element: &wasm_bindgen::JsValue);
    pub(super) fn post_connected();
    pub(super) fn post_error();
    #[wasm_bindgen(js_name = post_result)]
    fn post_result_js(kind: &str, name: &str, is_error: bool);
}

/// Tells the host page a result arrived (in the embed view; nothing outside an iframe).
pub fn post_result(kind: TargetKind, name: &str, is_error: bool) {
    post_result_js(kind.parameter(), name, is_error);
}
