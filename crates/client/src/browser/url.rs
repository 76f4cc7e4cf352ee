//! The browser's own URL parser (`new URL(text)`), the reading `fetch` will use: the twin
//! that [`mcp_lens_protocol::url`] is checked against in the page.

/// The browser's `href` of `text`, or `None` when the browser refuses it.
pub fn href(text: &str) -> Option<String> {
    web_sys::Url::new(text).ok().map(|url| url.href())
}

/// The browser's origin of `text` (`scheme://host[:port]`), or `None` when it refuses it.
pub fn origin(text: &str) -> Option<String> {
    web_sys::Url::new(text).ok().map(|url| url.origin())
}
