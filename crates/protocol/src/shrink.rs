//! A server's JSON cut down to a size the page may keep for display (the server messages
//! list): its shape and its first values, every long string and long list cut with a mark of
//! what was left out. The wire log keeps whole messages (within its own budget); a list that
//! only shows the start of each message must not hold 200 messages of 10 MB.

use serde_json::{Map, Value};

/// What a scalar or a structure's own punctuation counts against the budget.
const NODE_BYTES: usize = 8;

/// Roughly the bytes `value` takes as JSON text: its strings and keys, and a few bytes per
/// other node. Linear in the number of nodes (a 10 MB string is one step).
pub fn json_bytes(value: &Value) -> usize {
    match value {
        Value::String(text) => text.len() + 2,
        Value::Array(items) => NODE_BYTES + items.iter().map(json_bytes).sum::<usize>(),
        Value::Object(members) => {
            NODE_BYTES
                + members
                    .iter()
                    .map(|(key, member)| key.len() + 3 + json_bytes(member))
                    .sum::<usize>()
        }
        _ => NODE_BYTES,
    }
}

/// Cuts `text` in place to at most `max_bytes` (on a character boundary) and marks the cut
/// with `… (N more bytes)`, giving back the memory of the rest. Returns whether it was cut.
pub fn shrink_text(text: &mut String, max_bytes: usize) -> bool {
    if text.len() <= max_bytes {
        return false;
    }
    let mut end = max_bytes;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let more = text.len() - end;
    text.truncate(end);
    text.push_str(&format!("… ({more} more bytes)"));
    text.shrink_to_fit();
    true
}

/// Cuts `value` in place to about `max_bytes` (as [`json_bytes`] counts): depth first, in
/// order, each string cut where the budget ends (marked `… (N more bytes)`), then the rest of
/// each array replaced by one string `… N more items` and the rest of each object by one
/// member `"…": "N more members"`. Returns whether anything was cut. A value within the
/// budget is left as it is.
///
/// ```
/// use mcp_lens_protocol::shrink::{json_bytes, shrink_json};
/// use serde_json::json;
/// let mut params = json!({ "level": "info", "data": "x".repeat(10_000_000) });
/// assert!(shrink_json(&mut params, 2_000));
/// assert_eq!(params["level"], "info");
/// assert!(params["data"].as_str().unwrap().ends_with("… (9998031 more bytes)"));
/// assert!(json_bytes(&params) < 2_100);
/// ```
pub fn shrink_json(value: &mut Value, max_bytes: usize) -> bool {
    if json_bytes(value) <= max_bytes {
        return false;
    }
    let mut budget = max_bytes;
    shrink_into(value, &mut budget);
    true
}

/// Keeps what fits in `budget` (and spends it); what does not is cut and marked.
fn shrink_into(value: &mut Value, budget: &mut usize) {
    match value {
        Value::String(text) => {
            shrink_text(text, budget.saturating_sub(2));
            *budget = budget.saturating_sub(text.len() + 2);
        }
        Value::Array(items) => {
            *budget = budget.saturating_sub(NODE_BYTES);
            let mut kept = 0;
            for item in items.iter_mut() {
                if *budget == 0 {
                    break;
                }
                shrink_into(item, budget);
                kept += 1;
            }
            if kept < items.len() {
                let more = items.len() - kept;
                items.truncate(kept);
                items.push(Value::String(format!("… {more} more items")));
                items.shrink_to_fit();
            }
        }
        Value::Object(members) => {
            *budget = budget.saturating_sub(NODE_BYTES);
            let total = members.len();
            let mut kept = Map::new();
            for (key, mut member) in std::mem::take(members) {
                if *budget == 0 {
                    break;
                }
                let mut key = key;
                if key.len() + 3 > *budget {
                    let mut end = budget.saturating_sub(3);
                    while !key.is_char_boundary(end) {
                        end -= 1;
                    }
                    key.truncate(end);
                    key.push('…');
                }
                *budget = budget.saturating_sub(key.len() + 3);
                shrink_into(&mut member, budget);
                kept.insert(key, member);
            }
            if kept.len() < total {
                let more = total - kept.len();
                kept.insert(
                    "…".to_owned(),
                    Value::String(format!("{more} more members")),
                );
            }
            *members = kept;
        }
        _ => *budget = budget.saturating_sub(NODE_BYTES),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn long_strings_lists_and_objects_are_cut_with_a_mark() {
        let mut list = json!([1, 2, "a".repeat(100), 4, 5, 6]);
        assert!(shrink_json(&mut list, 60));
        let items = list.as_array().unwrap();
        assert_eq!(items[0], 1);
        assert!(items[2].as_str().unwrap().ends_with("more bytes)"));
        assert!(items
            .last()
            .unwrap()
            .as_str()
            .unwrap()
            .ends_with("more items"));

        let members: Map<String, Value> = (0..1_000).map(|n| (format!("k{n}"), json!(n))).collect();
        let mut object = Value::Object(members);
        assert!(shrink_json(&mut object, 200));
        assert_eq!(object["k0"], 0);
        assert!(object["…"].as_str().unwrap().ends_with("more members"));

        // Within the budget: untouched.
        let mut small = json!({ "uri": "file:///a", "n": [1, 2] });
        let before = small.clone();
        assert!(!shrink_json(&mut small, 1_000));
        assert_eq!(small, before);
        // Cut on a character boundary.
        let mut wide = json!("é".repeat(100));
        shrink_json(&mut wide, 21);
        // 19 bytes of room (2 for the quotes): nine two-byte characters, not half a tenth.
        assert!(wide
            .as_str()
            .unwrap()
            .starts_with(&format!("{}…", "é".repeat(9))));
    }

    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        /// Any JSON, any budget: the result is within the budget plus the marks (at most one
        /// per node kept), and the first member of a cut object is still the first.
        #[test]
        fn any_json_shrinks_within_its_budget(value in crate::arbitrary::json(), max in 0usize..400) {
            let mut shrunk = value.clone();
            let cut = shrink_json(&mut shrunk, max);
            proptest::prop_assert_eq!(cut, json_bytes(&value) > max);
            if !cut {
                proptest::prop_assert_eq!(&shrunk, &value);
            }
            // Each kept node may overrun by its mark (about 40 bytes) at most once.
            proptest::prop_assert!(json_bytes(&shrunk) <= max + 64 * (1 + max / NODE_BYTES));
        }
    }

    #[test]
    fn a_flood_message_shrinks_to_its_budget_quickly() {
        let mut params =
            json!({ "level": "info", "logger": "flood", "data": "x".repeat(10 << 20) });
        assert!(shrink_json(&mut params, 16 * 1024));
        assert!(json_bytes(&params) < 16 * 1024 + 64);
        assert_eq!(params["logger"], "flood");
    }
}
