//! `_meta.ui.csp` as a validated declaration, and the Content-Security-Policy (and its
//! `<meta>` element) built from it.

use serde_json::{json, Map, Value};

use super::source::{check_source, shown, CspList, SourceRefusal, MAX_SOURCES};

/// A dropped entry: which list, the entry as it can be shown (invisible characters revealed,
/// shortened), and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejected {
    pub list: Option<CspList>,
    pub entry: String,
    pub reason: SourceRefusal,
}

/// `_meta.ui.csp`, validated. The lists hold canonical sources only.
///
/// ```
/// use mcp_lens_protocol::apps::CspDecl;
/// use serde_json::json;
/// let csp = CspDecl::from_value(Some(&json!({
///     "connectDomains": ["https://api.openweathermap.org", "https://x.com; script-src *"],
///     "resourceDomains": ["https://cdn.jsdelivr.net"]
/// })));
/// assert_eq!(csp.connect, ["https://api.openweathermap.org"]);
/// assert_eq!(csp.rejected.len(), 1);
/// let policy = csp.policy();
/// assert!(policy.contains("connect-src https://api.openweathermap.org;"));
/// assert!(!policy.contains("x.com"));
/// // Nothing declared: no network at all.
/// assert!(CspDecl::from_value(None).policy().contains("connect-src 'none'"));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CspDecl {
    pub connect: Vec<String>,
    pub resource: Vec<String>,
    pub frame: Vec<String>,
    pub base_uri: Vec<String>,
    pub rejected: Vec<Rejected>,
}

impl CspDecl {
    /// Reads `_meta.ui.csp` (absent or `null`: nothing declared). Never fails: what does not
    /// validate is in [`CspDecl::rejected`].
    pub fn from_value(csp: Option<&Value>) -> Self {
        let mut decl = CspDecl::default();
        let object = match csp {
            None | Some(Value::Null) => return decl,
            Some(Value::Object(object)) => object,
            Some(other) => {
                decl.rejected.push(Rejected {
                    list: None,
                    entry: shown(&other.to_string()),
                    reason: SourceRefusal::NotAList,
                });
                return decl;
            }
        };
        for list in CspList::ALL {
            let sources = match object.get(list.key()) {
                None | Some(Value::Null) => continue,
                Some(Value::Array(items)) => items,
                Some(other) => {
                    decl.rejected.push(Rejected {
                        list: Some(list),
                        entry: shown(&other.to_string()),
                        reason: SourceRefusal::NotAList,
                    });
                    continue;
                }
            };
            let mut accepted: Vec<String> = Vec::new();
            let mut too_many = 0;
            for item in sources {
                let checked = match item {
                    Value::String(text) => check_source(text, list).map_err(|r| (shown(text), r)),
                    other => Err((shown(&other.to_string()), SourceRefusal::NotAString)),
                };
                match checked {
                    Ok(source) if accepted.contains(&source) => {}
                    Ok(_) if accepted.len() == MAX_SOURCES => too_many += 1,
                    Ok(source) => accepted.push(source),
                    Err((entry, reason)) => {
                        // Reports are bounded like the lists.
                        if decl.rejected.len() < MAX_SOURCES * 4 {
                            decl.rejected.push(Rejected {
                                list: Some(list),
                                entry,
                                reason,
                            });
                        }
                    }
                }
            }
            if too_many > 0 {
                decl.rejected.push(Rejected {
                    list: Some(list),
                    entry: String::new(),
                    reason: SourceRefusal::TooMany(too_many),
                });
            }
            *decl.list_mut(list) = accepted;
        }
        decl
    }

    fn list_mut(&mut self, list: CspList) -> &mut Vec<String> {
        match list {
            CspList::Connect => &mut self.connect,
            CspList::Resource => &mut self.resource,
            CspList::Frame => &mut self.frame,
            CspList::BaseUri => &mut self.base_uri,
        }
    }

    /// The accepted lists as `McpUiResourceCsp` JSON (what `hostCapabilities.sandbox.csp`
    /// reports as approved); empty lists are left out.
    pub fn to_json(&self) -> Value {
        let mut out = Map::new();
        for (list, sources) in [
            (CspList::Connect, &self.connect),
            (CspList::Resource, &self.resource),
            (CspList::Frame, &self.frame),
            (CspList::BaseUri, &self.base_uri),
        ] {
            if !sources.is_empty() {
                out.insert(list.key().into(), json!(sources));
            }
        }
        Value::Object(out)
    }

    /// The Content-Security-Policy for the app's document. The directives are those of the
    /// reference host (`basic-host` `csp.ts`) with its defaults tightened to the spec's:
    ///
    /// ```text
    /// default-src 'none'
    /// script-src 'self' 'unsafe-inline' 'unsafe-eval' blob: data: <resource>
    /// style-src 'self' 'unsafe-inline' blob: data: <resource>
    /// img-src 'self' data: blob: <resource>
    /// font-src 'self' data: blob: <resource>
    /// media-src 'self' data: blob: <resource>
    /// connect-src <connect> | 'none'
    /// worker-src 'self' blob: <resource>
    /// frame-src <frame> | 'none'
    /// object-src 'none'
    /// base-uri <baseUri> | 'none'
    /// form-action 'none'
    /// ```
    ///
    /// Differences from the reference host: `default-src 'none'` (it has `'self'
    /// 'unsafe-inline'`; the spec's default has `'none'`); `connect-src` without `'self'`
    /// (there is no same-origin server, and in a `srcdoc` frame `'self'` could mean the
    /// inspector's own origin), so nothing declared is `'none'` as the spec's default says;
    /// `form-action 'none'` added (it does not fall back to `default-src`). Local sources
    /// (`'unsafe-eval'`, `blob:`, `data:`) are the reference host's, for bundled apps and
    /// workers; they reach no network.
    pub fn policy(&self) -> String {
        fn with(fixed: &str, sources: &[String]) -> String {
            let mut out = fixed.to_owned();
            for source in sources {
                out.push(' ');
                out.push_str(source);
            }
            out
        }
        fn or_none(directive: &str, sources: &[String]) -> String {
            if sources.is_empty() {
                format!("{directive} 'none'")
            } else {
                with(directive, sources)
            }
        }
        let r = &self.resource;
        [
            "default-src 'none'".to_owned(),
            with(
                "script-src 'self' 'unsafe-inline' 'unsafe-eval' blob: data:",
                r,
            ),
            with("style-src 'self' 'unsafe-inline' blob: data:", r),
            with("img-src 'self' data: blob:", r),
            with("font-src 'self' data: blob:", r),
            with("media-src 'self' data: blob:", r),
            or_none("connect-src", &self.connect),
            with("worker-src 'self' blob:", r),
            or_none("frame-src", &self.frame),
            "object-src 'none'".to_owned(),
            or_none("base-uri", &self.base_uri),
            "form-action 'none'".to_owned(),
        ]
        .join("; ")
    }

    /// Whether any external origin is allowed (the spec: hosts "SHOULD warn users when UI
    /// requires external domain access").
    pub fn reaches_network(&self) -> bool {
        !(self.connect.is_empty()
            && self.resource.is_empty()
            && self.frame.is_empty()
            && self.base_uri.is_empty())
    }
}

/// The directive names [`CspDecl::policy`] writes, in order.
pub const DIRECTIVES: [&str; 12] = [
    "default-src",
    "script-src",
    "style-src",
    "img-src",
    "font-src",
    "media-src",
    "connect-src",
    "worker-src",
    "frame-src",
    "object-src",
    "base-uri",
    "form-action",
];

/// A `<meta http-equiv="Content-Security-Policy">` element for `policy`, escaped for an
/// attribute (a policy from [`CspDecl::policy`] needs no escaping; this holds for any text).
pub fn csp_meta_tag(policy: &str) -> String {
    let mut escaped = String::with_capacity(policy.len());
    for c in policy.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '"' => escaped.push_str("&quot;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            c => escaped.push(c),
        }
    }
    format!("<meta http-equiv=\"Content-Security-Policy\" content=\"{escaped}\">")
}

/// The app's HTML with the policy's `<meta>` as its first element: after a leading
/// `<!DOCTYPE …>` (so the document keeps its standards mode), else at the very start. A
/// `<meta>` policy applies to everything parsed after it, and a policy the HTML adds later
/// can only restrict further, so nothing in the HTML can loosen it. For a `srcdoc` frame.
///
/// ```
/// use mcp_lens_protocol::apps::csp::with_csp_meta;
/// let html = with_csp_meta("<!doctype html><html><body>hi</body></html>", "default-src 'none'");
/// assert!(html.starts_with("<!doctype html><meta http-equiv=\"Content-Security-Policy\""));
/// ```
pub fn with_csp_meta(html: &str, policy: &str) -> String {
    let meta = csp_meta_tag(policy);
    let trimmed = html.trim_start_matches(['\u{feff}', ' ', '\t', '\n', '\r', '\x0c']);
    let start = html.len() - trimmed.len();
    let doctype_end = trimmed
        .get(..9)
        .filter(|head| head.eq_ignore_ascii_case("<!doctype"))
        .and_then(|_| trimmed.find('>'))
        .map(|end| start + end + 1);
    match doctype_end {
        Some(end) => format!("{}{meta}{}", &html[..end], &html[end..]),
        None => format!("{meta}{html}"),
    }
}
