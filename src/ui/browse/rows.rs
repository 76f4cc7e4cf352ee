//! The drawn rows of a list, kept by hand between the list's two spacers. A filter edit or a
//! scroll changes which rows are drawn; instead of removing the rows that go and making new
//! elements for the rows that come, the elements in place are given the new rows' text and
//! attributes (a row's element takes only the parts that differ), and elements are made or
//! removed only for the difference in number. A row whose item stays keeps its element, so a
//! scroll by one row makes one element and removes one, and the focus stays on its row.
//!
//! Which element shows which row is [`plan`], pure and tested natively; [`DrawnRows`] carries
//! it out on the page. Rows are plain markup (text nodes, never HTML), with no listener of
//! their own: the list listens for all of them.

use super::model::{Item, Kind};
use crate::protocol::error::{reveal_controls, reveal_in_prose};
use wasm_bindgen::JsCast;
use web_sys::{Document, Element, Text};

/// One drawn row of a list: what it shows, nothing reactive.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Row {
    /// Its place in the list: part of the row's key, since a server may list a name twice.
    index: usize,
    key: String,
    name: String,
    description: Option<String>,
    /// `app` (the tool has an MCP App) or `app only` (only its app may call it).
    badge: Option<&'static str>,
    selected: bool,
}

impl Row {
    pub(super) fn of(kind: Kind, index: usize, item: &Item, selected: Option<&str>) -> Self {
        // The name is what the protocol uses; the title (when it says more) and the
        // description help find it.
        let name = reveal_controls(match kind {
            Kind::Resources => &item.title,
            _ => &item.key,
        });
        let description = match kind {
            Kind::Resources => item.detail.clone(),
            _ if item.title != item.key => Some(reveal_in_prose(&item.title)),
            _ => item.description.as_deref().map(reveal_in_prose),
        };
        Row {
            index,
            key: item.key.clone(),
            name,
            description,
            badge: if item.app_only {
                Some("app only")
            } else {
                item.ui.as_ref().map(|_| "app")
            },
            selected: selected == Some(item.key.as_str()),
        }
    }
}

/// What happens at one place of the drawn rows, in their order on the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// The next drawn element shows the next new row: the same item (kept) or another one
    /// (its text and attributes rewritten in place).
    Reuse,
    /// A new element for the next new row, before the next drawn element.
    Insert,
    /// The next drawn element goes.
    Remove,
}

/// How to turn the drawn rows, the items `old` (ascending positions in the list), into
/// `new` (ascending too), with no element moved: an item in both keeps its element; an
/// element whose item goes shows the next new item that has none, in place, as long as there
/// is one before the next kept element; the rest are inserted or removed.
pub fn plan(old: &[usize], new: &[usize]) -> Vec<Step> {
    let mut steps = Vec::with_capacity(old.len().max(new.len()) + 1);
    let (mut i, mut j) = (0, 0);
    // Both are ascending, so whether an item is in the other list is a binary search.
    let kept_later = |item: usize, list: &[usize]| list.binary_search(&item).is_ok();
    while j < new.len() {
        let Some(&drawn) = old.get(i) else {
            steps.push(Step::Insert);
            j += 1;
            continue;
        };
        let wanted = new[j];
        if drawn == wanted {
            steps.push(Step::Reuse);
            i += 1;
            j += 1;
        } else if kept_later(drawn, &new[j..]) {
            // `drawn` keeps its element further down: `wanted` comes before it.
            steps.push(Step::Insert);
            j += 1;
        } else if kept_later(wanted, &old[i..]) {
            // `wanted` has an element further down: this one, whose item goes, goes.
            steps.push(Step::Remove);
            i += 1;
        } else {
            steps.push(Step::Reuse);
            i += 1;
            j += 1;
        }
    }
    steps.extend(std::iter::repeat_n(Step::Remove, old.len() - i));
    steps
}

/// One drawn row's elements and what they show.
struct Drawn {
    row: Row,
    li: Element,
    name: Text,
    badge: Option<(Element, Text)>,
    description: Option<(Element, Text)>,
}

/// The rows drawn in a list, in order, between its spacers.
#[derive(Default)]
pub struct DrawnRows {
    drawn: Vec<Drawn>,
    /// Whether this has drawn in its list yet.
    started: bool,
}

impl DrawnRows {
    /// Draws `rows` (ascending by index) in `list`, before `end` (the lower spacer).
    pub fn update(&mut self, kind: Kind, list: &Element, end: &Element, rows: Vec<Row>) {
        let Some(document) = list.owner_document() else {
            return;
        };
        if !self.started {
            // Leptos may give a new list component the elements of the one it replaces (a
            // view of the same shape is patched, not made anew): rows drawn by the one before
            // are not this one's to keep.
            self.started = true;
            let mut at = list.first_element_child();
            while let Some(child) = at {
                at = child.next_element_sibling();
                if child.class_list().contains("item") {
                    child.remove();
                }
            }
        }
        let old: Vec<usize> = self.drawn.iter().map(|d| d.row.index).collect();
        let new: Vec<usize> = rows.iter().map(|r| r.index).collect();
        // An element that shows another item from now on must not keep the focus: it would
        // move to that item unseen (a row that goes takes the focus with it, as removed).
        let focused = document.active_element();
        let mut old_rows = std::mem::take(&mut self.drawn).into_iter();
        let mut new_rows = rows.into_iter();
        let mut drawn = Vec::with_capacity(new.len());
        let mut next_old = old_rows.next();
        for step in plan(&old, &new) {
            match step {
                Step::Reuse => {
                    let (Some(mut element), Some(row)) = (next_old.take(), new_rows.next()) else {
                        break;
                    };
                    next_old = old_rows.next();
                    if element.row.index != row.index && focused.as_ref() == Some(&element.li) {
                        if let Some(li) = element.li.dyn_ref::<web_sys::HtmlElement>() {
                            let _ = li.blur();
                        }
                    }
                    element.show(&document, kind, row);
                    drawn.push(element);
                }
                Step::Insert => {
                    let Some(row) = new_rows.next() else { break };
                    let before = next_old.as_ref().map_or(end, |d| &d.li);
                    let Some(element) = Drawn::new(&document, kind, row) else {
                        continue;
                    };
                    let _ = list.insert_before(&element.li, Some(before));
                    drawn.push(element);
                }
                Step::Remove => {
                    if let Some(element) = next_old.take() {
                        element.li.remove();
                    }
                    next_old = old_rows.next();
                }
            }
        }
        self.drawn = drawn;
    }
}

fn span(document: &Document, class: &str, text: &str) -> Option<(Element, Text)> {
    let span = document.create_element("span").ok()?;
    span.set_class_name(class);
    let text = document.create_text_node(text);
    span.append_child(&text).ok()?;
    Some((span, text))
}

/// The badge's tooltip: what `app` and `app only` mean.
fn badge_title(badge: &str) -> &'static str {
    if badge == "app" {
        "Renders an MCP App beside its result"
    } else {
        "Meant for its MCP App only (hidden from a model); callable here for testing"
    }
}

fn item_class(kind: Kind, selected: bool) -> String {
    let selected = if selected { " selected" } else { "" };
    format!("{}-item item{selected}", kind.noun())
}

impl Drawn {
    /// A new row element: `li.{noun}-item.item` with its name, badge and description.
    fn new(document: &Document, kind: Kind, row: Row) -> Option<Self> {
        let li = document.create_element("li").ok()?;
        li.set_class_name(&item_class(kind, row.selected));
        for (name, value) in [
            // One row is the list's Tab stop (`keys::set_tab_stop`); the keys reach the rest.
            ("tabindex", "-1"),
            ("role", "option"),
            ("aria-selected", if row.selected { "true" } else { "false" }),
            ("data-index", &row.index.to_string()),
            (kind.key_attribute(), &row.key),
        ] {
            li.set_attribute(name, value).ok()?;
        }
        let (name_span, name) = span(document, "item-name", &row.name)?;
        li.append_child(&name_span).ok()?;
        let badge = row
            .badge
            .and_then(|badge| new_badge(document, &li, None, badge));
        let description = row
            .description
            .as_deref()
            .and_then(|d| span(document, "item-description", d))
            .and_then(|(span, text)| li.append_child(&span).ok().map(|_| (span, text)));
        Some(Drawn {
            row,
            li,
            name,
            badge,
            description,
        })
    }

    /// Makes this element show `row`, changing only what differs from what it shows.
    fn show(&mut self, document: &Document, kind: Kind, row: Row) {
        let old = &self.row;
        let li = &self.li;
        if old.index != row.index {
            let _ = li.set_attribute("data-index", &row.index.to_string());
        }
        if old.key != row.key {
            let _ = li.set_attribute(kind.key_attribute(), &row.key);
        }
        if old.selected != row.selected {
            li.set_class_name(&item_class(kind, row.selected));
            let _ = li.set_attribute("aria-selected", if row.selected { "true" } else { "false" });
        }
        if old.name != row.name {
            self.name.set_data(&row.name);
        }
        if old.badge != row.badge {
            match (self.badge.take(), row.badge) {
                (Some((span, text)), Some(badge)) => {
                    text.set_data(badge);
                    let _ = span.set_attribute("data-badge", badge);
                    let _ = span.set_attribute("title", badge_title(badge));
                    self.badge = Some((span, text));
                }
                (Some((span, _)), None) => span.remove(),
                (None, Some(badge)) => {
                    let before = self.description.as_ref().map(|(span, _)| span);
                    self.badge = new_badge(document, li, before, badge);
                }
                (None, None) => {}
            }
        }
        if old.description != row.description {
            match (self.description.take(), row.description.as_deref()) {
                (Some((span, text)), Some(description)) => {
                    text.set_data(description);
                    self.description = Some((span, text));
                }
                (Some((span, _)), None) => span.remove(),
                (None, Some(description)) => {
                    self.description = span(document, "item-description", description)
                        .and_then(|(span, text)| li.append_child(&span).ok().map(|_| (span, text)));
                }
                (None, None) => {}
            }
        }
        self.row = row;
    }
}

/// A badge span (`app` or `app only`) in `li`, before `before` (the description) or last.
fn new_badge(
    document: &Document,
    li: &Element,
    before: Option<&Element>,
    badge: &str,
) -> Option<(Element, Text)> {
    let (span, text) = span(document, "item-badge", badge)?;
    span.set_attribute("data-badge", badge).ok()?;
    span.set_attribute("title", badge_title(badge)).ok()?;
    li.insert_before(&span, before.map(|b| b.unchecked_ref()))
        .ok()?;
    Some((span, text))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Carries out `plan(old, new)` on a list of items standing for the elements: what each
    /// place shows afterwards, and how many elements were made and removed.
    fn carry_out(old: &[usize], new: &[usize]) -> (Vec<usize>, usize, usize) {
        let steps = plan(old, new);
        let (mut shown, mut made, mut removed) = (Vec::new(), 0, 0);
        let (mut i, mut j) = (0, 0);
        for step in steps {
            match step {
                Step::Reuse => {
                    assert!(i < old.len() && j < new.len(), "{old:?} -> {new:?}");
                    shown.push(new[j]);
                    i += 1;
                    j += 1;
                }
                Step::Insert => {
                    shown.push(new[j]);
                    made += 1;
                    j += 1;
                }
                Step::Remove => {
                    assert!(i < old.len());
                    removed += 1;
                    i += 1;
                }
            }
        }
        assert_eq!((i, j), (old.len(), new.len()), "{old:?} -> {new:?}");
        (shown, made, removed)
    }

    #[test]
    fn a_filter_edit_rewrites_the_elements_in_place() {
        // Another set of the same number: no element made or removed.
        let (shown, made, removed) = carry_out(&[1, 2, 3, 4], &[10, 20, 30, 40]);
        assert_eq!(shown, [10, 20, 30, 40]);
        assert_eq!((made, removed), (0, 0));
        // Fewer: the rest removed; more: the rest made.
        assert_eq!(carry_out(&[1, 2, 3, 4], &[7, 8]), (vec![7, 8], 0, 2));
        assert_eq!(carry_out(&[7, 8], &[1, 2, 3, 4]), (vec![1, 2, 3, 4], 2, 0));
        assert_eq!(carry_out(&[], &[1, 2]), (vec![1, 2], 2, 0));
        assert_eq!(carry_out(&[1, 2], &[]), (vec![], 0, 2));
    }

    #[test]
    fn an_item_that_stays_keeps_its_element() {
        // A scroll by one row: one made at the end, one removed at the start.
        assert_eq!(
            plan(&[5, 6, 7, 8], &[6, 7, 8, 9]),
            [
                Step::Remove,
                Step::Reuse,
                Step::Reuse,
                Step::Reuse,
                Step::Insert
            ]
        );
        assert_eq!(
            plan(&[6, 7, 8, 9], &[5, 6, 7, 8]),
            [
                Step::Insert,
                Step::Reuse,
                Step::Reuse,
                Step::Reuse,
                Step::Remove
            ]
        );
        // A narrower filter that keeps 3 and 9: the others' elements show 4 and 5 in place.
        let steps = plan(&[1, 2, 3, 6, 7, 9], &[3, 4, 5, 9]);
        assert_eq!(
            steps,
            [
                Step::Remove,
                Step::Remove,
                Step::Reuse,
                Step::Reuse,
                Step::Reuse,
                Step::Reuse
            ]
        );
        assert_eq!(
            carry_out(&[1, 2, 3, 6, 7, 9], &[3, 4, 5, 9]).0,
            [3, 4, 5, 9]
        );
    }

    // Native only: proptest does not build for wasm32.
    #[cfg(not(target_arch = "wasm32"))]
    mod property {
        use super::*;
        use proptest::collection::btree_set;

        proptest::proptest! {
            /// Any change shows exactly the new items, in order; every item in both keeps
            /// its element; and no more elements are made or removed than the difference in
            /// number plus what the kept ones' places force.
            #[test]
            fn the_plan_shows_the_new_rows(
                old in btree_set(0usize..60, 0..30),
                new in btree_set(0usize..60, 0..30),
            ) {
                let old: Vec<usize> = old.into_iter().collect();
                let new: Vec<usize> = new.into_iter().collect();
                let (shown, made, removed) = carry_out(&old, &new);
                proptest::prop_assert_eq!(&shown, &new);
                proptest::prop_assert_eq!(old.len() + made - removed, new.len());
                // Kept items are reused where they are (never removed and made again).
                let steps = plan(&old, &new);
                let (mut i, mut j) = (0, 0);
                for step in steps {
                    match step {
                        Step::Reuse => {
                            if new.binary_search(&old[i]).is_ok() {
                                proptest::prop_assert_eq!(old[i], new[j]);
                            }
                            i += 1;
                            j += 1;
                        }
                        Step::Insert => {
                            proptest::prop_assert!(old.binary_search(&new[j]).is_err());
                            j += 1;
                        }
                        Step::Remove => {
                            proptest::prop_assert!(new.binary_search(&old[i]).is_err());
                            i += 1;
                        }
                    }
                }
                // With nothing in common, only the difference in number is made or removed.
                if old.iter().all(|item| new.binary_search(item).is_err()) {
                    proptest::prop_assert_eq!(made + removed, old.len().abs_diff(new.len()));
                }
            }
        }
    }
}
