//! Which declared sources reach the person's own machine or network (loopback, private and
//! link-local addresses, local names), read as the browser reads the host.

use std::fmt;

use super::policy::CspDecl;
use super::source::CspList;

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
pub(super) fn whatwg_ipv4(host: &str) -> Option<u32> {
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
