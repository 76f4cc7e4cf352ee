//! JSON Schema patterns are ECMA-262 regular expressions, so the page checks them with the
//! browser's own `RegExp` (exact semantics, no regex engine in the wasm).

use crate::schema::validate::risks_catastrophic_backtracking;
use crate::schema::Patterns;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = "export function mcp_lens_pattern_test(pattern, text) {
  for (const flags of ['u', '']) {
    try { return new RegExp(pattern, flags).test(text) ? 1 : 0; } catch (_) {}
  }
  return 2;
}")]
extern "C" {
    /// 1 = matches, 0 = does not, 2 = the pattern does not compile. Never throws.
    fn mcp_lens_pattern_test(pattern: &str, text: &str) -> u8;
}

pub struct BrowserPatterns;

impl Patterns for BrowserPatterns {
    fn is_match(&self, pattern: &str, text: &str) -> Option<bool> {
        // The browser's engine backtracks: a server's `^(a+)+$` against 40 characters would
        // block the page for hours. Such patterns are reported as not checked instead.
        if risks_catastrophic_backtracking(pattern) {
            return None;
        }
        match mcp_lens_pattern_test(pattern, text) {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }
}
