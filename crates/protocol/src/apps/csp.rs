//! The app's isolation as data: the Content-Security-Policy built from the resource's
//! `_meta.ui.csp`, the iframe's `sandbox` attribute, and its `allow` attribute (permissions
//! policy) from `_meta.ui.permissions` and what the person granted.
//!
//! Every declared domain is a hostile server's text headed for a policy: each one is parsed
//! as a CSP host-source and only a canonical rewrite of what parsed goes out; everything else
//! is dropped and reported in [`CspDecl::rejected`]. The reference host (`basic-host`'s
//! `csp.ts`) only drops entries containing `;`, CR, LF, quotes or a space, so `*`, `data:`,
//! `https:`, `javascript:x` or `a,b` pass there; not here.
//!
//! Accepted (the spec: "Origins", "Wildcard subdomains supported: `https://*.example.com`",
//! and `wss://realtime.service.com` in its `connectDomains` example):
//! - `http://` or `https://` host-sources; `ws://` and `wss://` in `connectDomains` only;
//! - a host: DNS labels of letters, digits and `-` (at least two labels, or `localhost`), an
//!   IPv4 address, or a bracketed IPv6 address; `*.` only as the whole leftmost label, over at
//!   least two labels (`https://*.example.com`, never `*`, `*.com` or `https://a*.b.com`);
//! - an optional port (1-65535) and path (RFC 3986 path characters without `,` `;` `&` `'`
//!   `*`); no user info, query or fragment;
//! - without a scheme (`cdn.example.com`) it becomes `https://cdn.example.com`.
//!
//! Hosts are lowercased; duplicates are kept once; at most [`MAX_SOURCES`] per list.
//!
//! A source on the person's own machine or network (loopback, private and link-local
//! addresses, `localhost`, `.local` names) is valid, and a real app may need one (a local
//! dev server), but it lets a server's app reach what the person runs there (a router's page,
//! a local database's HTTP port): [`CspDecl::local_sources`] lists them for the page to warn.

use std::fmt;

use serde_json::{json, Map, Value};

use crate::error::{excerpt, reveal_controls};

/// Most sources kept per list; the rest are dropped (and reported once).
pub const MAX_SOURCES: usize = 64;

/// Longest source accepted.
pub const MAX_SOURCE_CHARS: usize = 512;

/// The iframe's `sandbox` attribute: scripts and form events (apps handle `submit`; the CSP's
/// `form-action 'none'` keeps a submission from leaving). Never `allow-same-origin` (a
/// `srcdoc` frame would then share the inspector's origin: its storage, its tokens), nor
/// `allow-popups`, `allow-top-navigation*`, `allow-modals` or `allow-downloads`: links go
/// through `ui/open-link` and downloads through `ui/download-file`, after the person agrees.
///
/// The reference host's inner frame has `allow-scripts allow-same-origin allow-forms`, which is
/// safe there only because its outer proxy frame is served from another origin (the spec's
/// "Sandbox proxy": a web host "MUST" have one). Without `allow-same-origin` the app's frame
/// gets an opaque origin wherever its document comes from. Note for the frame's document: an
/// `about:srcdoc` (or `blob:`) document also inherits the embedding page's own policy, and
/// mcp-lens's forbids inline scripts, so an app framed that way directly from the page would
/// not run; its document must come from elsewhere (a proxy on another origin, as the spec
/// has it), which is the UI's decision.
pub const SANDBOX: &str = "allow-scripts allow-forms";

/// Which declared list a source came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CspList {
    Connect,
    Resource,
    Frame,
    BaseUri,
}

impl CspList {
    /// The member of `_meta.ui.csp`.
    pub fn key(self) -> &'static str {
        match self {
            CspList::Connect => "connectDomains",
            CspList::Resource => "resourceDomains",
            CspList::Frame => "frameDomains",
            CspList::BaseUri => "baseUriDomains",
        }
    }

    const ALL: [CspList; 4] = [
        CspList::Connect,
        CspList::Resource,
        CspList::Frame,
        CspList::BaseUri,
    ];
}

/// Why a declared source was dropped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceRefusal {
    /// `_meta.ui.csp` is not an object, or a list is not an array.
    NotAList,
    NotAString,
    TooLong,
    /// Whitespace, control or non-ASCII characters (a punycode `xn--` host is fine).
    Characters,
    /// A character that means something in a policy or an HTML attribute (`;` `,` quotes…).
    Forbidden(char),
    /// Not http(s) (or ws(s) for connections).
    Scheme(String),
    /// `data:`, `blob:`, `https:`…: a whole scheme, not an origin.
    SchemeOnly,
    UserInfo,
    /// A query or fragment, which a source cannot have.
    QueryOrFragment,
    Host,
    /// `*` anywhere but as the leftmost label over two or more labels.
    Wildcard,
    /// A single-label host other than `localhost` (this also catches `self`, `none`…).
    SingleLabel,
    Port,
    Path,
    /// More than [`MAX_SOURCES`] in one list: how many were dropped.
    TooMany(usize),
}

impl fmt::Display for SourceRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SourceRefusal::NotAList => write!(f, "not an array of strings"),
            SourceRefusal::NotAString => write!(f, "not a string"),
            SourceRefusal::TooLong => write!(f, "longer than {MAX_SOURCE_CHARS} characters"),
            SourceRefusal::Characters => write!(
                f,
                "contains whitespace, control or non-ASCII characters (write hosts in punycode)"
            ),
            SourceRefusal::Forbidden(c) => {
                write!(f, "contains '{c}', which could change the policy")
            }
            SourceRefusal::Scheme(s) => write!(
                f,
                "the scheme \"{s}\" is not allowed (http and https; ws and wss for connections)"
            ),
            SourceRefusal::SchemeOnly => {
                write!(f, "a whole scheme, not an origin (data:, blob:, https: …)")
            }
            SourceRefusal::UserInfo => write!(f, "contains user information (@)"),
            SourceRefusal::QueryOrFragment => write!(f, "has a query or fragment"),
            SourceRefusal::Host => write!(f, "the host is not a valid host name or address"),
            SourceRefusal::Wildcard => write!(
                f,
                "a wildcard is only allowed as the leftmost label over two or more labels (https://*.example.com)"
            ),
            SourceRefusal::SingleLabel => write!(
                f,
                "a single-label host (only localhost is; keywords must not be smuggled in)"
            ),
            SourceRefusal::Port => write!(f, "the port is not a number from 1 to 65535"),
            SourceRefusal::Path => write!(f, "the path has characters a source cannot have"),
            SourceRefusal::TooMany(n) => {
                write!(f, "more than {MAX_SOURCES} sources; {n} dropped")
            }
        }
    }
}

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

/// Where a declared source reaches on the person's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LocalReach {
    /// 127.0.0.0/8, 0.0.0.0/8, `::1`, `::`, `localhost` and its subdomains: this computer.
    Loopback,
    /// 10/8, 172.16/12, 192.168/16, `fc00::/7`: the local network.
    PrivateNetwork,
    /// 169.254/16, `fe80::/10`: this network link.
    LinkLocal,
    /// A name only the local network resolves: `.local` (mDNS), `.home.arpa`, `.internal`.
    LocalName,
}

impl fmt::Display for LocalReach {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LocalReach::Loopback => "a loopback address: this computer",
            LocalReach::PrivateNetwork => "a private network address: your local network",
            LocalReach::LinkLocal => "a link-local address: your local network",
            LocalReach::LocalName => "a name of your local network",
        })
    }
}

/// A declared source that reaches the person's machine or network.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalSource {
    pub list: CspList,
    /// The canonical source, as it is in the policy.
    pub source: String,
    pub reach: LocalReach,
}

impl fmt::Display for LocalSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} names {}, {}: the app may reach what runs there.",
            self.list.key(),
            self.source,
            self.reach
        )
    }
}

impl CspDecl {
    /// The accepted sources that reach the person's machine or network, in list order: the
    /// page shows each as a warning (the policy still allows them: the person decides whether
    /// to keep the app running).
    ///
    /// ```
    /// use mcp_lens_protocol::apps::csp::{CspDecl, LocalReach};
    /// use serde_json::json;
    /// let csp = CspDecl::from_value(Some(&json!({
    ///     "connectDomains": ["https://api.example.com", "http://192.168.1.1", "ws://localhost:8080"]
    /// })));
    /// let local: Vec<_> = csp.local_sources().into_iter().map(|s| (s.source, s.reach)).collect();
    /// assert_eq!(local, [("http://192.168.1.1".to_owned(), LocalReach::PrivateNetwork),
    ///                    ("ws://localhost:8080".to_owned(), LocalReach::Loopback)]);
    /// ```
    pub fn local_sources(&self) -> Vec<LocalSource> {
        CspList::ALL
            .iter()
            .flat_map(|&list| {
                let sources = match list {
                    CspList::Connect => &self.connect,
                    CspList::Resource => &self.resource,
                    CspList::Frame => &self.frame,
                    CspList::BaseUri => &self.base_uri,
                };
                sources.iter().filter_map(move |source| {
                    Some(LocalSource {
                        list,
                        source: source.clone(),
                        reach: local_reach(source_host(source))?,
                    })
                })
            })
            .collect()
    }
}

/// The host of a canonical source (`scheme://host[:port][/path]`), brackets kept for IPv6.
fn source_host(source: &str) -> &str {
    let rest = source.split_once("://").map_or(source, |(_, rest)| rest);
    let authority = rest.split('/').next().unwrap_or(rest);
    if authority.starts_with('[') {
        return authority.split_inclusive(']').next().unwrap_or(authority);
    }
    authority.split(':').next().unwrap_or(authority)
}

/// Whether `host` (a host-source's host: a name, `*.name`, an IPv4 address in any form the
/// browser reads as one, or a bracketed IPv6 address) is on the person's machine or network.
///
/// ```
/// use mcp_lens_protocol::apps::csp::{local_reach, LocalReach};
/// assert_eq!(local_reach("127.1"), Some(LocalReach::Loopback)); // the browser reads 127.0.0.1
/// assert_eq!(local_reach("0xa.0.0.1"), Some(LocalReach::PrivateNetwork)); // 10.0.0.1
/// assert_eq!(local_reach("[::ffff:192.168.0.1]"), Some(LocalReach::PrivateNetwork));
/// assert_eq!(local_reach("*.printer.local"), Some(LocalReach::LocalName));
/// assert_eq!(local_reach("example.com"), None);
/// ```
pub fn local_reach(host: &str) -> Option<LocalReach> {
    let host = host.to_ascii_lowercase();
    if let Some(inner) = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        return ipv6_reach(inner.parse().ok()?);
    }
    let name = host.trim_end_matches('.');
    if let Some(address) = whatwg_ipv4(name) {
        return ipv4_reach(address);
    }
    let labels: Vec<&str> = name.split('.').collect();
    match labels.as_slice() {
        [.., "localhost"] => Some(LocalReach::Loopback),
        [.., "local"] | [.., "internal"] | [.., "home", "arpa"] => Some(LocalReach::LocalName),
        _ => None,
    }
}

fn ipv4_reach(address: u32) -> Option<LocalReach> {
    let [a, b, ..] = address.to_be_bytes();
    match (a, b) {
        (127, _) | (0, _) => Some(LocalReach::Loopback),
        (10, _) | (192, 168) => Some(LocalReach::PrivateNetwork),
        (172, 16..=31) => Some(LocalReach::PrivateNetwork),
        (169, 254) => Some(LocalReach::LinkLocal),
        _ => None,
    }
}

fn ipv6_reach(address: std::net::Ipv6Addr) -> Option<LocalReach> {
    if let Some(v4) = address.to_ipv4_mapped() {
        return ipv4_reach(u32::from(v4));
    }
    let first = address.segments()[0];
    match () {
        _ if address.is_loopback() || address.is_unspecified() => Some(LocalReach::Loopback),
        _ if first & 0xfe00 == 0xfc00 => Some(LocalReach::PrivateNetwork),
        _ if first & 0xffc0 == 0xfe80 => Some(LocalReach::LinkLocal),
        _ => None,
    }
}

/// A host the URL standard reads as an IPv4 address (its last label a number), as the
/// browser does: 1 to 4 parts, each decimal, octal (`0` first) or hexadecimal (`0x`), the
/// last filling the bytes left (`127.1` is 127.0.0.1). `None` for a domain name or a number
/// out of range (the browser refuses those).
fn whatwg_ipv4(host: &str) -> Option<u32> {
    let parts: Vec<&str> = host.split('.').collect();
    let number = |part: &str| -> Option<u64> {
        let (digits, radix) = match part {
            "" => return None,
            p if p.starts_with("0x") || p.starts_with("0X") => (&p[2..], 16),
            p if p.len() > 1 && p.starts_with('0') => (&p[1..], 8),
            p => (p, 10),
        };
        if digits.is_empty() {
            return Some(0);
        }
        if digits.len() > 12 {
            return None;
        }
        u64::from_str_radix(digits, radix).ok()
    };
    let last = parts.last()?;
    // Only a host whose last label is a number is an address; any other is a name.
    number(last)?;
    if parts.len() > 4 {
        return None;
    }
    let numbers: Vec<u64> = parts.iter().map(|p| number(p)).collect::<Option<_>>()?;
    let (last, first) = numbers.split_last()?;
    if first.iter().any(|n| *n > 255) || *last >= 256u64.pow(5 - numbers.len() as u32) {
        return None;
    }
    let mut address = *last;
    for (i, n) in first.iter().enumerate() {
        address += n << (8 * (3 - i));
    }
    u32::try_from(address).ok()
}

fn shown(text: &str) -> String {
    excerpt(&reveal_controls(text), 120)
}

/// Validates one declared source for `list` and returns its canonical form.
///
/// ```
/// use mcp_lens_protocol::apps::csp::{check_source, CspList, SourceRefusal};
/// assert_eq!(check_source("https://*.Cloudflare.com", CspList::Resource).unwrap(),
///            "https://*.cloudflare.com");
/// assert_eq!(check_source("'unsafe-eval'", CspList::Resource), Err(SourceRefusal::Forbidden('\'')));
/// assert_eq!(check_source("*", CspList::Connect), Err(SourceRefusal::Wildcard));
/// ```
pub fn check_source(text: &str, list: CspList) -> Result<String, SourceRefusal> {
    if text.chars().count() > MAX_SOURCE_CHARS {
        return Err(SourceRefusal::TooLong);
    }
    if let Some(c) = text
        .chars()
        .find(|c| matches!(c, ';' | ',' | '\'' | '"' | '\\' | '<' | '>' | '&' | '`'))
    {
        return Err(SourceRefusal::Forbidden(c));
    }
    if text.is_empty() || text.chars().any(|c| !c.is_ascii_graphic()) {
        return Err(SourceRefusal::Characters);
    }
    let (scheme, rest) = match text.split_once("://") {
        Some((scheme, rest)) => {
            let scheme = scheme.to_ascii_lowercase();
            let allowed = match list {
                CspList::Connect => matches!(scheme.as_str(), "http" | "https" | "ws" | "wss"),
                _ => matches!(scheme.as_str(), "http" | "https"),
            };
            if !allowed {
                return Err(SourceRefusal::Scheme(excerpt(&scheme, 20)));
            }
            (scheme, rest)
        }
        None => {
            // `data:`, `blob:`, `https:`, `javascript:x`: a scheme, not a host and port.
            let authority = text.split('/').next().unwrap_or("");
            if let Some((_, port)) = authority.rsplit_once(':') {
                if !authority.starts_with('[')
                    && (port.is_empty() || !port.bytes().all(|b| b.is_ascii_digit()))
                {
                    return Err(SourceRefusal::SchemeOnly);
                }
            }
            ("https".to_owned(), text)
        }
    };
    if rest.contains('?') || rest.contains('#') {
        return Err(SourceRefusal::QueryOrFragment);
    }
    let (authority, path) = match rest.find('/') {
        Some(at) => rest.split_at(at),
        None => (rest, ""),
    };
    if authority.contains('@') {
        return Err(SourceRefusal::UserInfo);
    }
    let (host, port) = split_host_port(authority)?;
    let host = check_host(host)?;
    if !path
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"-._~/%!$()+=:@".contains(&b))
    {
        return Err(SourceRefusal::Path);
    }
    if !percent_escapes_ok(path) {
        return Err(SourceRefusal::Path);
    }
    let mut out = format!("{scheme}://{host}");
    if let Some(port) = port {
        out.push(':');
        out.push_str(&port.to_string());
    }
    out.push_str(path);
    Ok(out)
}

fn split_host_port(authority: &str) -> Result<(&str, Option<u16>), SourceRefusal> {
    let (host, port) = if authority.starts_with('[') {
        match authority.find(']') {
            Some(end) => {
                let (host, after) = authority.split_at(end + 1);
                match after {
                    "" => (host, None),
                    _ => match after.strip_prefix(':') {
                        Some(port) => (host, Some(port)),
                        None => return Err(SourceRefusal::Host),
                    },
                }
            }
            None => return Err(SourceRefusal::Host),
        }
    } else {
        match authority.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        }
    };
    let port = match port {
        None => None,
        Some(digits) => {
            if digits.is_empty() || digits.len() > 5 || !digits.bytes().all(|b| b.is_ascii_digit())
            {
                return Err(SourceRefusal::Port);
            }
            match digits.parse::<u16>() {
                Ok(0) | Err(_) => return Err(SourceRefusal::Port),
                Ok(port) => Some(port),
            }
        }
    };
    Ok((host, port))
}

fn check_host(host: &str) -> Result<String, SourceRefusal> {
    if let Some(inner) = host.strip_prefix('[') {
        let inner = inner.strip_suffix(']').ok_or(SourceRefusal::Host)?;
        let ok = !inner.is_empty()
            && inner.len() <= 45
            && inner.contains(':')
            && inner
                .bytes()
                .all(|b| b.is_ascii_hexdigit() || b == b':' || b == b'.');
        return if ok {
            Ok(format!("[{}]", inner.to_ascii_lowercase()))
        } else {
            Err(SourceRefusal::Host)
        };
    }
    let (wildcard, name) = match host.strip_prefix("*.") {
        Some(name) => (true, name),
        None => (false, host),
    };
    if name.contains('*') {
        return Err(SourceRefusal::Wildcard);
    }
    if name.is_empty() || name.len() > 253 {
        return Err(SourceRefusal::Host);
    }
    let labels: Vec<&str> = name.split('.').collect();
    for label in &labels {
        let ok = !label.is_empty()
            && label.len() <= 63
            && !label.starts_with('-')
            && !label.ends_with('-')
            && label
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-');
        if !ok {
            return Err(SourceRefusal::Host);
        }
    }
    let name = name.to_ascii_lowercase();
    if labels.len() < 2 {
        if wildcard {
            return Err(SourceRefusal::Wildcard);
        }
        if name != "localhost" {
            return Err(SourceRefusal::SingleLabel);
        }
    }
    Ok(if wildcard { format!("*.{name}") } else { name })
}

fn percent_escapes_ok(path: &str) -> bool {
    let bytes = path.as_bytes();
    bytes.iter().enumerate().all(|(i, &b)| {
        b != b'%'
            || (bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit))
    })
}

/// `_meta.ui.permissions` (`McpUiResourcePermissions`): each member present and truthy (in
/// JavaScript's sense, as the reference host tests `if (permissions.camera)`) is requested.
///
/// ```
/// use mcp_lens_protocol::apps::Permissions;
/// use serde_json::json;
/// let requested = Permissions::from_value(Some(&json!({ "camera": {}, "microphone": {} })));
/// let granted = Permissions { camera: true, geolocation: true, ..Permissions::default() };
/// // Only what was both requested and granted.
/// assert_eq!(requested.allow_attribute(granted), "camera");
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Permissions {
    pub camera: bool,
    pub microphone: bool,
    pub geolocation: bool,
    pub clipboard_write: bool,
}

impl Permissions {
    pub fn from_value(value: Option<&Value>) -> Self {
        let member = |key: &str| value.and_then(|v| v.get(key)).is_some_and(truthy);
        Permissions {
            camera: member("camera"),
            microphone: member("microphone"),
            geolocation: member("geolocation"),
            clipboard_write: member("clipboardWrite"),
        }
    }

    /// Whether anything is requested.
    pub fn any(self) -> bool {
        self.camera || self.microphone || self.geolocation || self.clipboard_write
    }

    /// What is in both.
    pub fn intersect(self, other: Permissions) -> Permissions {
        Permissions {
            camera: self.camera && other.camera,
            microphone: self.microphone && other.microphone,
            geolocation: self.geolocation && other.geolocation,
            clipboard_write: self.clipboard_write && other.clipboard_write,
        }
    }

    /// The permissions-policy features, in the reference host's order.
    pub fn features(self) -> Vec<&'static str> {
        [
            (self.camera, "camera"),
            (self.microphone, "microphone"),
            (self.geolocation, "geolocation"),
            (self.clipboard_write, "clipboard-write"),
        ]
        .into_iter()
        .filter_map(|(on, name)| on.then_some(name))
        .collect()
    }

    /// Turns one permissions-policy feature (as [`Permissions::features`] names it) on or off;
    /// any other name changes nothing.
    ///
    /// ```
    /// use mcp_lens_protocol::apps::Permissions;
    /// let mut granted = Permissions::default();
    /// granted.set("clipboard-write", true);
    /// granted.set("usb", true);
    /// assert_eq!(granted.features(), ["clipboard-write"]);
    /// granted.set("clipboard-write", false);
    /// assert!(!granted.any());
    /// ```
    pub fn set(&mut self, feature: &str, on: bool) {
        match feature {
            "camera" => self.camera = on,
            "microphone" => self.microphone = on,
            "geolocation" => self.geolocation = on,
            "clipboard-write" => self.clipboard_write = on,
            _ => {}
        }
    }

    /// The iframe's `allow` attribute for what was requested (`self`) and `granted` by the
    /// person: the reference host's `buildAllowAttribute` (features joined by `"; "`), given
    /// only the intersection. Empty: set no `allow` attribute.
    pub fn allow_attribute(self, granted: Permissions) -> String {
        self.intersect(granted).features().join("; ")
    }

    /// As `McpUiResourcePermissions` JSON (`{"camera": {}, ...}`), e.g. for
    /// `hostCapabilities.sandbox.permissions`.
    pub fn to_json(self) -> Value {
        let mut out = Map::new();
        for (on, key) in [
            (self.camera, "camera"),
            (self.microphone, "microphone"),
            (self.geolocation, "geolocation"),
            (self.clipboard_write, "clipboardWrite"),
        ] {
            if on {
                out.insert(key.into(), json!({}));
            }
        }
        Value::Object(out)
    }
}

/// JavaScript truthiness, as the reference host tests optional members.
pub(crate) fn truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(_) | Value::Object(_) => true,
    }
}

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

#[cfg(test)]
mod tests;
