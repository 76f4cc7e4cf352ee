//! Where keyboard focus goes after an array's item is moved or removed, so a person using the
//! keyboard stays on the list they were editing.

use leptos::prelude::request_animation_frame;

/// The `.array` element holding the item whose button was pressed.
pub(super) fn item_list(ev: &web_sys::MouseEvent) -> Option<web_sys::Element> {
    use wasm_bindgen::JsCast;
    ev.current_target()?
        .dyn_into::<web_sys::Element>()
        .ok()?
        .closest(".array-item")
        .ok()??
        .parent_element()
}

pub(super) fn focus_element(element: Option<web_sys::Element>) {
    use wasm_bindgen::JsCast;
    if let Some(element) = element.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
        let _ = element.focus();
    }
}

/// A moved item's element is taken out and put back, which drops the focus: give it back to
/// the button that moved it, or to the other one once the item reached the end.
pub(super) fn refocus_moved(
    ev: &web_sys::MouseEvent,
    same: &'static str,
    other: &'static str,
    at_end: bool,
) {
    use wasm_bindgen::JsCast;
    let Some(actions) = ev
        .current_target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|b| b.parent_element())
    else {
        return;
    };
    let class = if at_end { other } else { same };
    request_animation_frame(move || {
        focus_element(actions.query_selector(&format!(".{class}")).ok().flatten());
    });
}

/// After a removal the focus goes to the remove button of the item that took the removed
/// one's place, or of the one before it, or else to the list's "Add item".
pub(super) fn refocus_removed(list: Option<web_sys::Element>, at: usize) {
    let Some(list) = list else {
        return;
    };
    request_animation_frame(move || {
        let items = list.query_selector_all(":scope > .array-item").ok();
        let count = items.as_ref().map_or(0, |i| i.length() as usize);
        let item = items
            .filter(|_| count > 0)
            .and_then(|items| items.get(at.min(count - 1) as u32))
            .and_then(|node| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(node).ok());
        let target = item
            .and_then(|i| {
                i.query_selector(":scope > .item-actions .remove-item")
                    .ok()
                    .flatten()
            })
            .or_else(|| list.query_selector(":scope > .add-item").ok().flatten());
        focus_element(target);
    });
}
