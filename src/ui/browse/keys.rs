//! Keyboard use of a list: rows take focus; Enter or Space opens one, the arrows move
//! between rows (scrolling a windowed list so the next row is drawn), and `/` anywhere
//! outside a text field focuses the list's filter.

use super::window::ROW_HEIGHT;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, KeyboardEvent};

/// A key pressed on a row. `open` selects the row (its element is then drawn anew, so the
/// focus is put back on the selected row after the next frame).
pub fn on_row_key(event: &KeyboardEvent, row: Element, open: impl FnOnce()) {
    let Some(list) = row.parent_element() else {
        return;
    };
    match event.key().as_str() {
        "Enter" | " " => {
            event.prevent_default();
            open();
            request_animation_frame(move || {
                focus(list.query_selector("li.selected").ok().flatten())
            });
        }
        "ArrowDown" | "ArrowUp" => {
            event.prevent_default();
            move_focus(&list, &row, event.key() == "ArrowDown");
        }
        _ => {}
    }
}

/// The list's attribute holding the index of the row the focus is moving to while that row
/// waits to be drawn. Presses faster than frames (a held key, a quick typist) each move one
/// row from there; counting from the focused row instead lost every press but one per frame.
const MOVING_TO: &str = "data-moving-to";

/// Moves the focus one row down or up. Past the end of what is drawn, scrolls one row and
/// focuses the row once the window has drawn it, after the next frame.
fn move_focus(list: &Element, row: &Element, down: bool) {
    let Some(from) = number(list, MOVING_TO).or_else(|| number(row, "data-index")) else {
        return;
    };
    let target = if down {
        from.checked_add(1)
    } else {
        from.checked_sub(1)
    };
    let Some(target) = target else {
        return; // the first row
    };
    if let Some(next) = drawn_row(list, target) {
        let _ = list.remove_attribute(MOVING_TO);
        focus(Some(next));
        return;
    }
    let _ = list.set_attribute(MOVING_TO, &target.to_string());
    list.set_scroll_top(list.scroll_top() + if down { ROW_HEIGHT } else { -ROW_HEIGHT } as i32);
    let list = list.clone();
    request_animation_frame(move || {
        // An earlier frame's callback, or a press that found its row drawn, did the move.
        let Some(target) = number(&list, MOVING_TO) else {
            return;
        };
        let _ = list.remove_attribute(MOVING_TO);
        // Past the list's end there is no row: the focus stays where it is.
        focus(drawn_row(&list, target));
    });
}

/// Focuses the filter when `/` is typed outside a text field (as in many developer tools).
pub fn focus_filter_on_slash(filter_id: &'static str) {
    let handle = window_event_listener(leptos::ev::keydown, move |event| {
        if event.key() != "/" || event.ctrl_key() || event.meta_key() || event.alt_key() {
            return;
        }
        let typing = event
            .target()
            .and_then(|t| t.dyn_into::<Element>().ok())
            .is_some_and(|t| {
                matches!(t.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT")
                    || t.has_attribute("contenteditable")
            });
        if typing {
            return;
        }
        event.prevent_default();
        focus(document().get_element_by_id(filter_id));
    });
    on_cleanup(move || handle.remove());
}

fn drawn_rows(list: &Element) -> Vec<Element> {
    let mut rows = Vec::new();
    let mut at = list.first_element_child();
    while let Some(row) = at {
        at = row.next_element_sibling();
        if !row.class_list().contains("spacer") {
            rows.push(row);
        }
    }
    rows
}

fn drawn_row(list: &Element, index: usize) -> Option<Element> {
    drawn_rows(list)
        .into_iter()
        .find(|row| number(row, "data-index") == Some(index))
}

fn number(element: &Element, attribute: &str) -> Option<usize> {
    element.get_attribute(attribute)?.parse().ok()
}

fn focus(element: Option<Element>) {
    if let Some(element) = element.and_then(|e| e.dyn_into::<HtmlElement>().ok()) {
        let _ = element.focus();
    }
}
