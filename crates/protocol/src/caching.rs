//! List lifetimes (SEP-2549, 2026-07-28 "Caching"): cacheable results carry `ttlMs` (how
//! long the client may consider them fresh) and `cacheScope` (`public` or `private`). The
//! client lists again only when the list is stale, when the person asks, or when the server
//! says it changed; it never polls on the TTL.
//!
//! ```
//! use mcp_lens_protocol::caching::{cache_hints, may_relist, Freshness, RelistReason};
//! use serde_json::json;
//! let hints = cache_hints(&json!({"tools": [], "ttlMs": 300000, "cacheScope": "public"}));
//! let received = Freshness::new(1_000, hints.ttl_ms);
//! assert!(!may_relist(Some(&received), 2_000, RelistReason::Needed));
//! assert!(may_relist(Some(&received), 2_000, RelistReason::PersonAsked));
//! assert!(may_relist(Some(&received), 301_000, RelistReason::Needed));
//! ```

use serde_json::Value;

/// Who may reuse a cached result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CacheScope {
    /// No user-specific data: any cache may share it.
    Public,
    /// For the same authorization context only (another token means another cache).
    Private,
    /// The result did not say (older servers): treated as private, the safe reading.
    Unstated,
}

/// What a result says about its own freshness.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheHints {
    /// Milliseconds the result may be considered fresh; 0 when absent, negative or not a
    /// number (the specification: "immediately stale").
    pub ttl_ms: u64,
    /// Whether the result carried a usable `ttlMs` at all (for showing "the server gave no
    /// lifetime" rather than "0 s").
    pub ttl_stated: bool,
    pub scope: CacheScope,
}

/// Reads `ttlMs` and `cacheScope` from a result. Total: any JSON gives hints.
pub fn cache_hints(result: &Value) -> CacheHints {
    let ttl = result
        .get("ttlMs")
        .and_then(Value::as_f64)
        .filter(|ttl| ttl.is_finite());
    let scope = match result.get("cacheScope").and_then(Value::as_str) {
        Some("public") => CacheScope::Public,
        Some("private") => CacheScope::Private,
        _ => CacheScope::Unstated,
    };
    CacheHints {
        // `as` saturates: a value past u64::MAX becomes u64::MAX, a fraction is dropped.
        ttl_ms: ttl.map_or(0, |ttl| ttl.max(0.0) as u64),
        ttl_stated: ttl.is_some(),
        scope,
    }
}

/// One result (one page of a list) as received: fresh while `now < received + ttl`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Freshness {
    pub received_at_ms: u64,
    pub ttl_ms: u64,
    /// Set by a change notification: stale at once whatever the TTL said.
    pub invalidated: bool,
}

impl Freshness {
    pub fn new(received_at_ms: u64, ttl_ms: u64) -> Self {
        Self {
            received_at_ms,
            ttl_ms,
            invalidated: false,
        }
    }

    /// When the result goes stale (saturating: a huge TTL never wraps to the past).
    pub fn stale_at_ms(&self) -> u64 {
        self.received_at_ms.saturating_add(self.ttl_ms)
    }

    pub fn is_fresh(&self, now_ms: u64) -> bool {
        !self.invalidated && now_ms < self.stale_at_ms()
    }

    /// Milliseconds of freshness left (0 once stale), for "fresh for 4 min" in the list's header.
    pub fn remaining_ms(&self, now_ms: u64) -> u64 {
        if self.invalidated {
            0
        } else {
            self.stale_at_ms().saturating_sub(now_ms)
        }
    }

    /// A list of several pages is fresh while every page is: it goes stale with its first
    /// stale page (each page has its own clock, the specification's pagination rule).
    pub fn of_pages(pages: &[Freshness]) -> Option<Freshness> {
        pages.iter().copied().min_by_key(|page| {
            if page.invalidated {
                0
            } else {
                page.stale_at_ms()
            }
        })
    }
}

/// Why the client would list again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RelistReason {
    /// The app needs the list (a tab opened, a reconnect, a search): only when stale.
    Needed,
    /// The person pressed "refresh": always.
    PersonAsked,
    /// The server sent the list's `list_changed` notification: always.
    ListChanged,
    /// A call failed as if the list were out of date (unknown tool, invalid params, a
    /// header mismatch): the specification allows listing before the TTL runs out.
    LooksOutdated,
}

/// Whether to list again now. `known`: the freshness of the list held (`None`: never listed).
pub fn may_relist(known: Option<&Freshness>, now_ms: u64, reason: RelistReason) -> bool {
    match (known, reason) {
        (None, _) => true,
        (
            Some(_),
            RelistReason::PersonAsked | RelistReason::ListChanged | RelistReason::LooksOutdated,
        ) => true,
        (Some(freshness), RelistReason::Needed) => !freshness.is_fresh(now_ms),
    }
}

/// The list a `list_changed` notification makes stale, if it is one.
pub fn invalidated_list(notification: &str) -> Option<&'static str> {
    match notification {
        "notifications/tools/list_changed" => Some("tools/list"),
        "notifications/prompts/list_changed" => Some("prompts/list"),
        // A resources change may concern templates too; both are listed again.
        "notifications/resources/list_changed" => Some("resources/list"),
        _ => None,
    }
}

/// Whether a request's result may be cached: one of the cacheable methods, and not a retry
/// of a multi round-trip request (its result depends on answers that are no part of the
/// cache key).
pub fn cacheable(method: &str, params: Option<&Value>) -> bool {
    let method_cacheable = matches!(
        method,
        "server/discover"
            | "tools/list"
            | "prompts/list"
            | "resources/list"
            | "resources/templates/list"
            | "resources/read"
            | "skills/list"
            | "skills/get"
    );
    let round_trip = params.is_some_and(|params| {
        params.get("inputResponses").is_some() || params.get("requestState").is_some()
    });
    method_cacheable && !round_trip
}

/// The lifetime as the list's header says it: "fresh for 5 min", "no lifetime given".
pub fn describe(hints: &CacheHints, freshness: &Freshness, now_ms: u64) -> String {
    describe_with(hints, freshness, now_ms, "listed again when needed")
}

/// [`describe`], saying `when_stale` of a list whose lifetime ran out.
fn describe_with(
    hints: &CacheHints,
    freshness: &Freshness,
    now_ms: u64,
    when_stale: &str,
) -> String {
    let scope = match hints.scope {
        CacheScope::Public => ", shared (public)",
        CacheScope::Private => ", for this sign-in only (private)",
        CacheScope::Unstated => "",
    };
    if freshness.invalidated {
        return format!("changed on the server: list again{scope}");
    }
    if !hints.ttl_stated {
        return format!("no lifetime given: kept until the server says it changed{scope}");
    }
    match freshness.remaining_ms(now_ms) {
        0 => format!("stale: {when_stale}{scope}"),
        left => format!("fresh for {}{scope}", duration(left)),
    }
}

/// A list as the client holds it: what its first page said of itself, and its freshness
/// over every page fetched since (each page with its own clock).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListLifetime {
    pub hints: CacheHints,
    pub freshness: Freshness,
    /// More than the first page is held (the person asked for more): listing again would
    /// start over at the first page and drop what they asked for.
    pub paged: bool,
}

impl ListLifetime {
    /// A list fetched from its first page: `pages` as received at `now_ms`.
    pub fn received(pages: &[Value], now_ms: u64) -> Option<Self> {
        let hints = cache_hints(pages.first()?);
        let clocks: Vec<Freshness> = pages
            .iter()
            .map(|page| Freshness::new(now_ms, cache_hints(page).ttl_ms))
            .collect();
        Some(Self {
            hints,
            freshness: Freshness::of_pages(&clocks)?,
            paged: pages.len() > 1,
        })
    }

    /// More pages of the same list ("Load more"): the list goes stale with the first stale one.
    pub fn with_pages(self, pages: &[Value], now_ms: u64) -> Self {
        let mut clocks = vec![self.freshness];
        clocks.extend(
            pages
                .iter()
                .map(|page| Freshness::new(now_ms, cache_hints(page).ttl_ms)),
        );
        Self {
            freshness: Freshness::of_pages(&clocks).unwrap_or(self.freshness),
            paged: self.paged || !pages.is_empty(),
            ..self
        }
    }

    /// The server said the list changed: stale at once.
    pub fn invalidated(self) -> Self {
        Self {
            freshness: Freshness {
                invalidated: true,
                ..self.freshness
            },
            ..self
        }
    }

    /// Whether to list again now. A list whose server stated no lifetime (a server older
    /// than 2026-07-28) is kept until it says the list changed, as before lifetimes existed:
    /// only the person or a change lists it again. Nor is a list the person paged through
    /// listed again because it is needed (the Python SDK's servers say `ttlMs: 0` by default,
    /// so every opening of its tab would start it over at the first page): it is shown stale
    /// until the person refreshes it or the server says it changed.
    pub fn may_relist(&self, now_ms: u64, reason: RelistReason) -> bool {
        if reason == RelistReason::Needed
            && (self.paged || (!self.hints.ttl_stated && !self.freshness.invalidated))
        {
            return false;
        }
        may_relist(Some(&self.freshness), now_ms, reason)
    }

    pub fn describe(&self, now_ms: u64) -> String {
        let when_stale = if self.paged {
            "Refresh lists it again"
        } else {
            "listed again when needed"
        };
        describe_with(&self.hints, &self.freshness, now_ms, when_stale)
    }
}

fn duration(ms: u64) -> String {
    let seconds = ms.div_ceil(1000);
    match seconds {
        0..=59 => format!("{seconds} s"),
        60..=3599 => format!("{} min", seconds.div_ceil(60)),
        3600..=86_399 => format!("{} h", seconds.div_ceil(3600)),
        _ => format!("{} days", seconds.div_ceil(86_400)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn hints_are_read_as_the_specification_says() {
        let hints = |result: Value| cache_hints(&result);
        assert_eq!(
            hints(json!({"tools": [], "ttlMs": 300000, "cacheScope": "private"})),
            CacheHints {
                ttl_ms: 300_000,
                ttl_stated: true,
                scope: CacheScope::Private
            }
        );
        assert_eq!(hints(json!({"ttlMs": -5})).ttl_ms, 0);
        assert_eq!(hints(json!({"ttlMs": 1.9})).ttl_ms, 1);
        assert_eq!(hints(json!({"ttlMs": 1e300})).ttl_ms, u64::MAX);
        let absent = hints(json!({"tools": []}));
        assert_eq!(
            absent,
            CacheHints {
                ttl_ms: 0,
                ttl_stated: false,
                scope: CacheScope::Unstated
            }
        );
        assert_eq!(
            hints(json!({"ttlMs": "60000", "cacheScope": "everyone"})).scope,
            CacheScope::Unstated
        );
        assert!(!hints(json!({"ttlMs": "60000"})).ttl_stated);
    }

    #[test]
    fn a_fresh_list_is_not_listed_again_unless_asked_or_changed() {
        let held = Freshness::new(10_000, 300_000);
        assert!(!may_relist(Some(&held), 10_001, RelistReason::Needed));
        assert!(!may_relist(Some(&held), 309_999, RelistReason::Needed));
        assert!(may_relist(Some(&held), 310_000, RelistReason::Needed));
        for reason in [
            RelistReason::PersonAsked,
            RelistReason::ListChanged,
            RelistReason::LooksOutdated,
        ] {
            assert!(may_relist(Some(&held), 10_001, reason));
        }
        assert!(may_relist(None, 0, RelistReason::Needed));
        // ttlMs 0 (the conformance servers' value): stale at once.
        assert!(may_relist(
            Some(&Freshness::new(5, 0)),
            5,
            RelistReason::Needed
        ));
        let changed = Freshness {
            invalidated: true,
            ..held
        };
        assert!(may_relist(Some(&changed), 10_001, RelistReason::Needed));
        assert!(Freshness::new(u64::MAX - 1, u64::MAX).is_fresh(u64::MAX - 1));
    }

    #[test]
    fn a_paged_list_goes_stale_with_its_first_stale_page() {
        let pages = [
            Freshness::new(0, 60_000),
            Freshness::new(1_000, 5_000),
            Freshness::new(2_000, 600_000),
        ];
        assert_eq!(Freshness::of_pages(&pages).unwrap().stale_at_ms(), 6_000);
        let invalidated = [
            pages[0],
            Freshness {
                invalidated: true,
                ..pages[2]
            },
        ];
        assert!(Freshness::of_pages(&invalidated).unwrap().invalidated);
        assert_eq!(Freshness::of_pages(&[]), None);
    }

    #[test]
    fn round_trip_retries_and_other_methods_are_not_cached() {
        assert!(cacheable("tools/list", None));
        assert!(cacheable(
            "resources/read",
            Some(&json!({"uri": "file:///a"}))
        ));
        assert!(!cacheable(
            "resources/read",
            Some(&json!({"uri": "file:///a", "requestState": "s"}))
        ));
        assert!(!cacheable(
            "tools/list",
            Some(&json!({"inputResponses": {}}))
        ));
        assert!(!cacheable("tools/call", None));
        assert_eq!(
            invalidated_list("notifications/tools/list_changed"),
            Some("tools/list")
        );
        assert_eq!(invalidated_list("notifications/message"), None);
    }

    #[test]
    fn the_lifetime_reads_as_a_few_words() {
        let public = cache_hints(&json!({"ttlMs": 300000, "cacheScope": "public"}));
        let held = Freshness::new(0, public.ttl_ms);
        assert_eq!(
            describe(&public, &held, 1_000),
            "fresh for 5 min, shared (public)"
        );
        assert_eq!(
            describe(&public, &held, 299_500),
            "fresh for 1 s, shared (public)"
        );
        assert_eq!(
            describe(&public, &held, 300_000),
            "stale: listed again when needed, shared (public)"
        );
        let silent = cache_hints(&json!({}));
        assert_eq!(
            describe(&silent, &Freshness::new(0, 0), 0),
            "no lifetime given: kept until the server says it changed"
        );
        let private = cache_hints(&json!({"ttlMs": 7_200_000, "cacheScope": "private"}));
        assert_eq!(
            describe(&private, &Freshness::new(0, private.ttl_ms), 0),
            "fresh for 2 h, for this sign-in only (private)"
        );
        assert_eq!(
            describe(
                &private,
                &Freshness {
                    invalidated: true,
                    ..Freshness::new(0, 1)
                },
                0
            ),
            "changed on the server: list again, for this sign-in only (private)"
        );
        assert_eq!(duration(3 * 86_400_000), "3 days");
    }

    #[test]
    fn a_held_list_keeps_its_pages_clocks_and_a_silent_server_keeps_its_list() {
        let first =
            [json!({"tools": [], "ttlMs": 60000, "cacheScope": "public", "nextCursor": "2"})];
        let held = ListLifetime::received(&first, 1_000).unwrap();
        assert_eq!(held.freshness.stale_at_ms(), 61_000);
        assert!(!held.may_relist(2_000, RelistReason::Needed));
        assert!(held.may_relist(2_000, RelistReason::PersonAsked));
        assert!(held.may_relist(61_000, RelistReason::Needed));
        assert_eq!(held.describe(2_000), "fresh for 59 s, shared (public)");
        // A second page with a shorter lifetime brings the whole list's end forward.
        let more = held.with_pages(&[json!({"tools": [], "ttlMs": 5000})], 3_000);
        assert_eq!(more.freshness.stale_at_ms(), 8_000);
        assert_eq!(more.hints.scope, CacheScope::Public);
        // Paged through: not started over at the first page because a tab opened, only when
        // the person asks or the server says it changed.
        assert!(more.paged && !held.paged);
        assert!(!more.may_relist(8_000, RelistReason::Needed));
        assert_eq!(
            more.describe(8_000),
            "stale: Refresh lists it again, shared (public)"
        );
        assert!(more.may_relist(8_000, RelistReason::PersonAsked));
        assert!(more
            .invalidated()
            .may_relist(8_000, RelistReason::ListChanged));
        let all_at_once = ListLifetime::received(&[first[0].clone(), json!({"tools": []})], 0);
        assert!(!all_at_once
            .unwrap()
            .may_relist(u64::MAX, RelistReason::Needed));
        let changed = held.invalidated();
        assert!(changed.may_relist(2_000, RelistReason::Needed));
        assert_eq!(
            changed.describe(2_000),
            "changed on the server: list again, shared (public)"
        );
        // No ttlMs: kept until a change or the person; ttlMs 0: stale at once.
        let silent = ListLifetime::received(&[json!({"tools": []})], 0).unwrap();
        assert!(!silent.may_relist(u64::MAX, RelistReason::Needed));
        assert!(silent.may_relist(0, RelistReason::PersonAsked));
        assert!(silent.invalidated().may_relist(0, RelistReason::Needed));
        let zero = ListLifetime::received(&[json!({"tools": [], "ttlMs": 0})], 5).unwrap();
        assert!(zero.may_relist(5, RelistReason::Needed));
        assert!(ListLifetime::received(&[], 0).is_none());
    }

    #[cfg(not(target_arch = "wasm32"))]
    mod properties {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #[test]
            fn any_result_gives_hints_and_freshness_never_wraps(result in crate::arbitrary::json(), ttl in any::<f64>(), at in any::<u64>(), now in any::<u64>()) {
                let _ = cache_hints(&result);
                let hints = cache_hints(&json!({"ttlMs": ttl}));
                let held = Freshness::new(at, hints.ttl_ms);
                prop_assert!(held.stale_at_ms() >= at);
                prop_assert_eq!(held.is_fresh(now), held.remaining_ms(now) > 0);
                prop_assert!(!describe(&hints, &held, now).is_empty());
            }
        }
    }
}
