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
            move_focus(&list, &row, if event.key() == "ArrowDown" { 1 } else { -1 });
        }
        "PageDown" | "PageUp" => {
            event.prevent_default();
            let page = (list.client_height() / ROW_HEIGHT as i32).max(1) as isize;
            move_focus(
                &list,
                &row,
                if event.key() == "PageDown" {
                    page
                } else {
                    -page
                },
            );
        }
        "Home" | "End" => {
            event.prevent_default();
            let end = event.key() == "End";
            let _ = list.remove_attribute(MOVING_TO);
            list.set_scroll_top(if end { list.scroll_height() } else { 0 });
            request_animation_frame(move || {
                let rows = drawn_rows(&list);
                focus(if end { rows.last() } else { rows.first() }.cloned());
            });
        }
        _ => {}
    }
}

/// ArrowDown in a list's filter goes into the list, to its first row.
pub fn on_filter_key(event: &KeyboardEvent, list: Option<Element>) {
    if event.key() != "ArrowDown" {
        return;
    }
    if let Some(first) = list.and_then(|list| drawn_rows(&list).into_iter().next()) {
        event.prevent_default();
        focus(Some(first));
    }
}

/// The attribute on a list naming the row its Tab stop returns to (the last one focused).
const STOP: &str = "data-stop";

/// One Tab stop for the whole list (a roving tabindex): the row last focused when it is
/// drawn, else the selected row, else the first; every other row is reached with the keys.
pub fn set_tab_stop(list: &Element, focused: Option<&Element>) {
    if let Some(index) = focused.and_then(|row| row.get_attribute("data-index")) {
        let _ = list.set_attribute(STOP, &index);
    }
    let rows = drawn_rows(list);
    let stop = number(list, STOP)
        .and_then(|index| {
            rows.iter()
                .position(|row| number(row, "data-index") == Some(index))
        })
        .or_else(|| {
            rows.iter()
                .position(|row| row.class_list().contains("selected"))
        })
        .unwrap_or(0);
    for (n, row) in rows.iter().enumerate() {
        let wanted = if n == stop { "0" } else { "-1" };
        if row.get_attribute("tabindex").as_deref() != Some(wanted) {
            let _ = row.set_attribute("tabindex", wanted);
        }
    }
}

/// The list's attribute holding the index of the row the focus is moving to while that row
/// waits to be drawn. Presses faster than frames (a held key, a quick typist) each move one
/// row from there; counting from the focused row instead lost every press but one per frame.
const MOVING_TO: &str = "data-moving-to";

/// Moves the focus `step` rows down (or up, below 0). Past the end of what is drawn, scrolls
/// as many rows and focuses the row once the window has drawn it, after the next frame.
fn move_focus(list: &Element, row: &Element, step: isize) {
    let Some(from) = number(list, MOVING_TO).or_else(|| number(row, "data-index")) else {
        return;
    };
    let down = step > 0;
    let target = from.saturating_add_signed(step);
    if target == from {
        return; // the first row
    }

    if let Some(next) = drawn_row(list, target) {
        let _ = list.remove_attribute(MOVING_TO);
        focus(Some(next));
        return;
    }
    let _ = list.set_attribute(MOVING_TO, &target.to_string());
    let delta = (target.abs_diff(from) as f64 * ROW_HEIGHT) as i32;
    list.set_scroll_top(list.scroll_top() + if down { delta } else { -delta });
    let paging = step.unsigned_abs() > 1;
    let list = list.clone();
    request_animation_frame(move || {
        // An earlier frame's callback, or a press that found its row drawn, did the move.
        let Some(target) = number(&list, MOVING_TO) else {
            return;
        };
        let _ = list.remove_attribute(MOVING_TO);
        // Past the list's end there is no row: the focus stays where it is, or, paging,
        // goes to the row at that end.
        let row = drawn_row(&list, target).or_else(|| {
            let rows = drawn_rows(&list);
            paging
                .then(|| if down { rows.last() } else { rows.first() }.cloned())
                .flatten()
        });
        focus(row);
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

/// Focuses `element`; a row becomes its list's Tab stop.
fn focus(element: Option<Element>) {
    let Some(element) = element else {
        return;
    };
    if element.class_list().contains("item") {
        if let Some(list) = element.parent_element() {
            set_tab_stop(&list, Some(&element));
        }
    }
    if let Some(element) = element.dyn_ref::<HtmlElement>() {
        let _ = element.focus();
    }
}
