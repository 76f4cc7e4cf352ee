//! JSON Schema patterns are ECMA-262 regular expressions. The browser's `RegExp` has their
//! exact semantics but backtracks: a server's `^(a+)+$` against 40 characters would block the
//! page for hours. So a pattern runs on a linear-time engine (regex-lite: no backtracking, time
//! linear in the text) whenever it compiles there and means the same as in ECMAScript for this
//! text; what it cannot run (lookaround, backreferences, Unicode classes) goes to the browser
//! only when it has none of the catastrophic shapes and the text is short. Anything else is
//! reported as not checked, never run unbounded.

use crate::schema::validate::risks_catastrophic_backtracking;
use crate::schema::Patterns;
use regex_lite::Regex;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// The longest text the browser's backtracking engine is given (for a pattern the linear
/// engine cannot run): with no exponential shape, its time is polynomial in this.
const BROWSER_TEXT_LIMIT: usize = 1_000;
/// Compiled patterns kept (a form checks the same few patterns on every keystroke).
const CACHE_LIMIT: usize = 256;

/// Which engine checks a pattern against a text.
#[derive(Clone)]
pub enum Engine {
    Linear(Rc<Regex>),
    Browser,
    NotChecked,
}

/// Chooses the engine for `pattern` on `text` (see the module's comment).
pub fn engine_for(pattern: &str, text: &str) -> Engine {
    if let Some(regex) = linear(pattern) {
        if same_meaning(pattern, text) {
            return Engine::Linear(regex);
        }
    }
    if risks_catastrophic_backtracking(pattern) || text.chars().count() > BROWSER_TEXT_LIMIT {
        Engine::NotChecked
    } else {
        Engine::Browser
    }
}

/// The pattern compiled by the linear engine, if it compiles there with ECMAScript's meaning.
fn linear(pattern: &str) -> Option<Rc<Regex>> {
    // Page-wide, not per connection: a pattern compiles the same for every form and server.
    thread_local! {
        static COMPILED: RefCell<HashMap<String, Option<Rc<Regex>>>> = RefCell::default();
    }
    COMPILED.with(|cache| {
        if let Some(known) = cache.borrow().get(pattern) {
            return known.clone();
        }
        let compiled = (!rust_only_syntax(pattern))
            .then(|| Regex::new(pattern).ok().map(Rc::new))
            .flatten();
        let mut cache = cache.borrow_mut();
        if cache.len() >= CACHE_LIMIT {
            cache.clear();
        }
        cache.insert(pattern.to_owned(), compiled.clone());
        compiled
    })
}

/// Syntax that regex-lite accepts but ECMAScript reads otherwise: inline flags `(?i)`,
/// `\A`/`\z`/`\U` (literal letters in ECMAScript), POSIX classes `[[:alpha:]]`, `{,n}`.
fn rust_only_syntax(pattern: &str) -> bool {
    let mut chars = pattern.chars().peekable();
    let mut previous = None;
    while let Some(c) = chars.next() {
        match (c, chars.peek()) {
            ('\\', Some(&next)) => {
                if matches!(next, 'A' | 'z' | 'Z' | 'U') {
                    return true;
                }
                chars.next();
                previous = None;
                continue;
            }
            ('(', Some('?')) => {
                let mut ahead = chars.clone();
                ahead.next();
                if !matches!(ahead.next(), Some(':') | Some('<')) {
                    return true;
                }
            }
            ('[', Some(':')) if previous == Some('[') => return true,
            ('{', Some(',')) => return true,
            _ => {}
        }
        previous = Some(c);
    }
    false
}

/// Where the engines differ for this text: regex-lite's `.` also matches `\r` and its `\s`
/// is ASCII only, while ECMAScript's `.` stops at line ends and its `\s` knows Unicode spaces.
fn same_meaning(pattern: &str, text: &str) -> bool {
    let plain_text = text.is_ascii() && !text.contains('\r');
    plain_text || !(pattern.contains('.') || pattern.contains("\\s") || pattern.contains("\\S"))
}

#[cfg(target_arch = "wasm32")]
mod browser {
    use wasm_bindgen::prelude::*;

    #[wasm_bindgen(inline_js = "export function mcp_lens_pattern_test(pattern, text) {
  for (const flags of ['u', '']) {
    try { return new RegExp(pattern, flags).test(text) ? 1 : 0; } catch (_) {}
  }
  return 2;
}")]
    extern "C" {
        /// 1 = matches, 0 = does not, 2 = the pattern does not compile. Never throws.
        pub fn mcp_lens_pattern_test(pattern: &str, text: &str) -> u8;
    }
}

pub struct BrowserPatterns;

impl Patterns for BrowserPatterns {
    fn is_match(&self, pattern: &str, text: &str) -> Option<bool> {
        match engine_for(pattern, text) {
            Engine::Linear(regex) => Some(regex.is_match(text)),
            #[cfg(target_arch = "wasm32")]
            Engine::Browser => match browser::mcp_lens_pattern_test(pattern, text) {
                0 => Some(false),
                1 => Some(true),
                _ => None,
            },
            #[cfg(not(target_arch = "wasm32"))]
            Engine::Browser => None,
            Engine::NotChecked => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn which(pattern: &str, text: &str) -> &'static str {
        match engine_for(pattern, text) {
            Engine::Linear(_) => "linear",
            Engine::Browser => "browser",
            Engine::NotChecked => "not checked",
        }
    }

    #[test]
    fn catastrophic_patterns_run_in_linear_time() {
        let text = format!("{}!", "a".repeat(100_000));
        let started = std::time::Instant::now();
        assert_eq!(BrowserPatterns.is_match("^(a+)+$", &text), Some(false));
        assert_eq!(BrowserPatterns.is_match("^(a|aa)+$", &text), Some(false));
        assert_eq!(BrowserPatterns.is_match(r"^(\w+\s?)*$", &text), Some(false));
        assert_eq!(BrowserPatterns.is_match("^(a+)+$", "aaaa"), Some(true));
        // Generous: the point is seconds against centuries.
        assert!(started.elapsed().as_secs() < 5);
    }

    #[test]
    fn what_the_linear_engine_cannot_run_goes_to_the_browser_only_when_bounded() {
        assert_eq!(which("^[a-z]+$", "abc"), "linear");
        assert_eq!(which("^(?=a)b", "ab"), "browser");
        assert_eq!(which(r"^(\w)\1$", "aa"), "browser");
        assert_eq!(which("^(?=a)(a+)+$", "aaa"), "not checked");
        assert_eq!(
            which("^(?=a)", &"a".repeat(BROWSER_TEXT_LIMIT + 1)),
            "not checked"
        );
        assert_eq!(which(r"^\p{L}+$", "abc"), "browser");
    }

    #[test]
    fn syntax_that_means_otherwise_in_ecmascript_is_not_given_to_the_linear_engine() {
        for pattern in [r"(?i)abc", r"\Aabc\z", "[[:alpha:]]", "a{,3}"] {
            assert_eq!(which(pattern, "abc"), "browser", "{pattern}");
        }
        assert_eq!(which("(?:ab)+", "abab"), "linear");
        assert_eq!(which("(?<year>[0-9]{4})", "2026"), "linear");
        assert_eq!(which(r"\x41\u0042", "AB"), "linear");
    }

    #[test]
    fn unicode_spaces_and_line_ends_go_to_the_browser() {
        assert_eq!(which(r"^\S+$", "a\u{a0}b"), "browser");
        assert_eq!(which("^a.b$", "a\rb"), "browser");
        assert_eq!(which("^[a-z]+$", "é"), "linear");
        assert_eq!(which(r"^\S+$", "ab"), "linear");
    }
}
