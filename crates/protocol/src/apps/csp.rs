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

mod frame;
mod local;
mod policy;
mod source;

pub(crate) use frame::truthy;
pub use frame::{Permissions, SANDBOX};
pub use local::{local_reach, LocalReach, LocalSource};
pub use policy::{csp_meta_tag, with_csp_meta, CspDecl, Rejected, DIRECTIVES};
pub use source::{check_source, CspList, SourceRefusal, MAX_SOURCES, MAX_SOURCE_CHARS};

#[cfg(test)]
mod tests;
