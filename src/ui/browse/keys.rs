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
            let down = event.key() == "ArrowDown";
            let next = if down {
                row.next_element_sibling()
            } else {
                row.previous_element_sibling()
            };
            match next.filter(|next| !next.class_list().contains("spacer")) {
                Some(next) => focus(Some(next)),
                // The end of what is drawn: scroll one row, and move once it is drawn.
                None => {
                    let Some(index) = row.get_attribute("data-index") else {
                        return;
                    };
                    list.set_scroll_top(
                        list.scroll_top() + if down { ROW_HEIGHT } else { -ROW_HEIGHT } as i32,
                    );
                    request_animation_frame(move || {
                        let rows = drawn_rows(&list);
                        let target = rows.iter().position(|r| {
                            r.get_attribute("data-index").as_deref() == Some(index.as_str())
                        });
                        let next = target.and_then(|at| {
                            if down {
                                rows.get(at + 1)
                            } else {
                                at.checked_sub(1).and_then(|at| rows.get(at))
                            }
                        });
                        focus(next.cloned());
                    });
                }
            }
        }
        _ => {}
    }
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

fn focus(element: Option<Element>) {
    if let Some(element) = element.and_then(|e| e.dyn_into::<HtmlElement>().ok()) {
        let _ = element.focus();
    }
}
