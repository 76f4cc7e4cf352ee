//! JSON Schema `format` checks for form validation.
//!
//! JSON Schema treats `format` as an annotation unless a validator opts in to asserting it.
//! A form is such an opt-in: telling the user "not an email address" before sending beats a
//! server error. Formats we do not check are never errors, so [`check`] answers `None` for
//! them and the form accepts any text.
//!
//! `regex` is deliberately not checked: its syntax is ECMA-262's, and without an ECMAScript
//! regex engine we would reject valid patterns or accept invalid ones.
//!
//! Every check works on `&str` with iterators and `get`, so no input can make one panic.

use crate::uri_template::{is_iprivate, is_ucschar, UriTemplate};

/// `None` when the format is not one we check (unknown formats are annotations, never errors).
pub fn check(format: &str, text: &str) -> Option<Result<(), String>> {
    let rule = rule_for(format)?;
    Some(if (rule.accepts)(text) {
        Ok(())
    } else {
        Err(rule.complaint.to_owned())
    })
}

/// Whether [`check`] checks this format.
pub fn known(format: &str) -> bool {
    rule_for(format).is_some()
}

/// A checked format: its name, its test, and what to tell the user when the test fails.
struct Rule {
    name: &'static str,
    accepts: fn(&str) -> bool,
    complaint: &'static str,
}

const RULES: &[Rule] = &[
    Rule {
        name: "email",
        accepts: is_email,
        complaint: "not an email address",
    },
    Rule {
        name: "idn-email",
        accepts: is_idn_email,
        complaint: "not an email address",
    },
    Rule {
        name: "uri",
        accepts: is_uri,
        complaint: "not an absolute URI (it needs a scheme, like https:)",
    },
    Rule {
        name: "uri-reference",
        accepts: is_uri_reference,
        complaint: "not a URI reference",
    },
    Rule {
        name: "iri",
        accepts: is_iri,
        complaint: "not an absolute IRI (it needs a scheme, like https:)",
    },
    Rule {
        name: "iri-reference",
        accepts: is_iri_reference,
        complaint: "not an IRI reference",
    },
    Rule {
        name: "uuid",
        accepts: is_uuid,
        complaint: "not a UUID (8-4-4-4-12 hexadecimal digits)",
    },
    Rule {
        name: "date",
        accepts: is_date,
        complaint: "not a date (YYYY-MM-DD)",
    },
    Rule {
        name: "time",
        accepts: is_time,
        complaint: "not a time (hh:mm:ss with Z or an offset like +01:00)",
    },
    Rule {
        name: "date-time",
        accepts: is_date_time,
        complaint: "not a date-time (YYYY-MM-DDThh:mm:ss with Z or an offset like +01:00)",
    },
    Rule {
        name: "duration",
        accepts: is_duration,
        complaint: "not a duration (like P3DT4H30M)",
    },
    Rule {
        name: "ipv4",
        accepts: is_ipv4,
        complaint: "not an IPv4 address",
    },
    Rule {
        name: "ipv6",
        accepts: is_ipv6,
        complaint: "not an IPv6 address",
    },
    Rule {
        name: "hostname",
        accepts: is_hostname,
        complaint: "not a hostname",
    },
    Rule {
        name: "json-pointer",
        accepts: is_json_pointer,
        complaint: "not a JSON Pointer",
    },
    Rule {
        name: "relative-json-pointer",
        accepts: is_relative_json_pointer,
        complaint: "not a relative JSON Pointer",
    },
    Rule {
        name: "uri-template",
        accepts: is_uri_template,
        complaint: "not a URI template",
    },
];

fn rule_for(format: &str) -> Option<&'static Rule> {
    RULES.iter().find(|rule| rule.name == format)
}

/// Which characters a check admits beyond ASCII: the `idn-` and IRI variants allow Unicode.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Charset {
    Ascii,
    Unicode,
}

impl Charset {
    /// Non-ASCII text the Unicode variants accept: anything visible (not a control or space).
    fn allows_non_ascii(self, c: char) -> bool {
        self == Charset::Unicode && !c.is_ascii() && !c.is_control() && !c.is_whitespace()
    }
}

// ---------------------------------------------------------------------------------------
// email, idn-email: RFC 5321 Mailbox (RFC 6531 for idn-email), without RFC 5322 comments.

fn is_email(text: &str) -> bool {
    is_mailbox(text, Charset::Ascii)
}

fn is_idn_email(text: &str) -> bool {
    is_mailbox(text, Charset::Unicode)
}

/// `local-part "@" ( domain / address-literal )`, with the RFC 5321 limit of 64 octets
/// for the local part.
fn is_mailbox(text: &str, charset: Charset) -> bool {
    split_mailbox(text).is_some_and(|(local, domain)| {
        local.len() <= 64 && is_local_part(local, charset) && is_mail_domain(domain, charset)
    })
}

/// Splits at the `@` after the local part; a quoted local part may itself contain `@`.
fn split_mailbox(text: &str) -> Option<(&str, &str)> {
    let local_end = if text.starts_with('"') {
        closing_quote_end(text)?
    } else {
        text.find('@')?
    };
    let (local, rest) = text.split_at_checked(local_end)?;
    Some((local, rest.strip_prefix('@')?))
}

/// The byte position just after the quote that closes the quoted string starting `text`.
fn closing_quote_end(text: &str) -> Option<usize> {
    let mut escaped = false;
    for (index, c) in text.char_indices().skip(1) {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '"' => return Some(index + 1),
            _ => {}
        }
    }
    None
}

fn is_local_part(local: &str, charset: Charset) -> bool {
    if local.starts_with('"') {
        is_quoted_string(local, charset)
    } else {
        is_dot_atom(local, charset)
    }
}

/// `Dot-string`: atoms of `atext` joined by single dots.
fn is_dot_atom(local: &str, charset: Charset) -> bool {
    local.split('.').all(|atom| {
        !atom.is_empty()
            && atom.chars().all(|c| {
                c.is_ascii_alphanumeric()
                    || "!#$%&'*+-/=?^_`{|}~".contains(c)
                    || charset.allows_non_ascii(c)
            })
    })
}

/// `Quoted-string`: printable ASCII (or Unicode for idn-email) with `\` escapes; may be empty.
fn is_quoted_string(local: &str, charset: Charset) -> bool {
    let Some(inner) = local
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'))
    else {
        return false;
    };
    let printable = |c: char| (' '..='~').contains(&c) || charset.allows_non_ascii(c);
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        let valid = match c {
            '\\' => chars.next().is_some_and(printable),
            '"' => false,
            _ => printable(c),
        };
        if !valid {
            return false;
        }
    }
    true
}

/// A domain name, or `[IPv4]` / `[IPv6:...]` address literal.
fn is_mail_domain(domain: &str, charset: Charset) -> bool {
    match domain.strip_prefix('[') {
        Some(rest) => rest.strip_suffix(']').is_some_and(is_address_literal),
        None => is_domain(domain, charset),
    }
}

fn is_address_literal(literal: &str) -> bool {
    let tagged_ipv6 = literal
        .get(..5)
        .is_some_and(|tag| tag.eq_ignore_ascii_case("IPv6:"));
    match literal.get(5..) {
        Some(address) if tagged_ipv6 => is_ipv6(address),
        _ => is_ipv4(literal),
    }
}

// ---------------------------------------------------------------------------------------
// hostname: RFC 1123 labels.

fn is_hostname(text: &str) -> bool {
    is_domain(text, Charset::Ascii)
}

/// Dot-separated labels of letters, digits and inner hyphens, each 1 to 63 characters,
/// at most 253 in all. No trailing dot: that is DNS notation, not part of a host name.
fn is_domain(text: &str, charset: Charset) -> bool {
    !text.is_empty()
        && text.chars().count() <= 253
        && text.split('.').all(|label| is_label(label, charset))
}

fn is_label(label: &str, charset: Charset) -> bool {
    (1..=63).contains(&label.chars().count())
        && !label.starts_with('-')
        && !label.ends_with('-')
        && label
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || charset.allows_non_ascii(c))
}

// ---------------------------------------------------------------------------------------
// ipv4, ipv6.

/// Four decimal octets 0-255 without leading zeros, which some parsers read as octal.
fn is_ipv4(text: &str) -> bool {
    text.split('.').count() == 4 && text.split('.').all(is_dec_octet)
}

fn is_dec_octet(part: &str) -> bool {
    (1..=3).contains(&part.len())
        && part.bytes().all(|b| b.is_ascii_digit())
        && (part == "0" || !part.starts_with('0'))
        && part.parse::<u8>().is_ok()
}

/// RFC 4291 text form: eight groups of 1-4 hex digits, the last two of which may be an
/// IPv4 address, with at most one `::` standing for one or more zero groups.
fn is_ipv6(text: &str) -> bool {
    match text.split_once("::") {
        None => count_groups(text, true) == Some(8),
        Some((head, tail)) => {
            let head_groups = if head.is_empty() {
                Some(0)
            } else {
                count_groups(head, false)
            };
            let tail_groups = if tail.is_empty() {
                Some(0)
            } else {
                count_groups(tail, true)
            };
            !tail.contains("::")
                && matches!((head_groups, tail_groups), (Some(h), Some(t)) if h + t <= 7)
        }
    }
}

/// How many 16-bit groups colon-separated `part` holds, or `None` if it is malformed.
fn count_groups(part: &str, may_end_with_ipv4: bool) -> Option<usize> {
    let last = part.split(':').count().saturating_sub(1);
    part.split(':')
        .enumerate()
        .try_fold(0, |count, (index, group)| {
            if may_end_with_ipv4 && index == last && group.contains('.') {
                is_ipv4(group).then_some(count + 2)
            } else {
                let is_hex =
                    (1..=4).contains(&group.len()) && group.bytes().all(|b| b.is_ascii_hexdigit());
                is_hex.then_some(count + 1)
            }
        })
}

// ---------------------------------------------------------------------------------------
// uri, uri-reference, iri, iri-reference: RFC 3986 and RFC 3987.

fn is_uri(text: &str) -> bool {
    is_absolute(text, Charset::Ascii)
}

fn is_uri_reference(text: &str) -> bool {
    is_reference(text, Charset::Ascii)
}

fn is_iri(text: &str) -> bool {
    is_absolute(text, Charset::Unicode)
}

fn is_iri_reference(text: &str) -> bool {
    is_reference(text, Charset::Unicode)
}

/// `scheme ":" hier-part [ "?" query ] [ "#" fragment ]`.
fn is_absolute(text: &str, charset: Charset) -> bool {
    after_scheme(text).is_some_and(|rest| is_after_scheme(rest, charset))
}

/// A URI, or a `relative-ref` when the text does not start with a valid scheme.
fn is_reference(text: &str, charset: Charset) -> bool {
    match after_scheme(text) {
        Some(rest) => is_after_scheme(rest, charset),
        None => is_relative_ref(text, charset),
    }
}

/// The text after `scheme:` when the text starts with a valid scheme.
fn after_scheme(text: &str) -> Option<&str> {
    let (scheme, rest) = text.split_once(':')?;
    let mut chars = scheme.chars();
    let valid = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    valid.then_some(rest)
}

fn is_after_scheme(rest: &str, charset: Charset) -> bool {
    let (hier, query, fragment) = split_query_and_fragment(rest);
    let path_valid = match hier.strip_prefix("//") {
        Some(after) => is_authority_and_path(after, charset),
        None => is_path(hier, charset),
    };
    path_valid && is_query_and_fragment(query, fragment, charset)
}

/// `relative-part [ "?" query ] [ "#" fragment ]`; a relative path's first segment cannot
/// hold a colon, or it would read as a scheme.
fn is_relative_ref(text: &str, charset: Charset) -> bool {
    let (relative, query, fragment) = split_query_and_fragment(text);
    let path_valid = match relative.strip_prefix("//") {
        Some(after) => is_authority_and_path(after, charset),
        None => {
            let first_segment = relative.split('/').next().unwrap_or_default();
            !first_segment.contains(':') && is_path(relative, charset)
        }
    };
    path_valid && is_query_and_fragment(query, fragment, charset)
}

/// Splits off the fragment (after the first `#`) and then the query (after the first `?`).
fn split_query_and_fragment(text: &str) -> (&str, Option<&str>, Option<&str>) {
    let (before_fragment, fragment) = match text.split_once('#') {
        Some((before, fragment)) => (before, Some(fragment)),
        None => (text, None),
    };
    match before_fragment.split_once('?') {
        Some((hier, query)) => (hier, Some(query), fragment),
        None => (before_fragment, None, fragment),
    }
}

/// RFC 3987 allows private-use characters in the query only.
fn is_query_and_fragment(query: Option<&str>, fragment: Option<&str>, charset: Charset) -> bool {
    let in_query = |c: char| {
        c == '/'
            || c == '?'
            || is_pchar(c, charset)
            || (charset == Charset::Unicode && is_iprivate(c))
    };
    let in_fragment = |c: char| c == '/' || c == '?' || is_pchar(c, charset);
    query.is_none_or(|query| consists_of(query, in_query))
        && fragment.is_none_or(|fragment| consists_of(fragment, in_fragment))
}

/// `authority path-abempty`, the text after `//`.
fn is_authority_and_path(text: &str, charset: Charset) -> bool {
    let (authority, path) = match text.find('/') {
        Some(index) => text.split_at_checked(index).unwrap_or((text, "")),
        None => (text, ""),
    };
    is_authority(authority, charset) && is_path(path, charset)
}

/// `[ userinfo "@" ] host [ ":" port ]`.
fn is_authority(authority: &str, charset: Charset) -> bool {
    let (userinfo, host_and_port) = match authority.split_once('@') {
        Some((userinfo, rest)) => (Some(userinfo), rest),
        None => (None, authority),
    };
    let in_userinfo = |c: char| is_unreserved(c, charset) || is_sub_delim(c) || c == ':';
    userinfo.is_none_or(|userinfo| consists_of(userinfo, in_userinfo))
        && is_host_and_port(host_and_port, charset)
}

/// `IP-literal` in brackets or a `reg-name` (which covers dotted IPv4), then `[":" *DIGIT]`.
fn is_host_and_port(text: &str, charset: Charset) -> bool {
    let is_port = |port: &str| port.bytes().all(|b| b.is_ascii_digit());
    if let Some(rest) = text.strip_prefix('[') {
        return rest.split_once(']').is_some_and(|(literal, after)| {
            (is_ipv6(literal) || is_ipvfuture(literal))
                && (after.is_empty() || after.strip_prefix(':').is_some_and(is_port))
        });
    }
    let (host, port) = match text.split_once(':') {
        Some((host, port)) => (host, Some(port)),
        None => (text, None),
    };
    consists_of(host, |c| is_unreserved(c, charset) || is_sub_delim(c)) && port.is_none_or(is_port)
}

/// `"v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )`, `v` in either case.
fn is_ipvfuture(literal: &str) -> bool {
    let Some((version, address)) = literal
        .strip_prefix(['v', 'V'])
        .and_then(|r| r.split_once('.'))
    else {
        return false;
    };
    !version.is_empty()
        && version.bytes().all(|b| b.is_ascii_hexdigit())
        && !address.is_empty()
        && address
            .chars()
            .all(|c| is_unreserved(c, Charset::Ascii) || is_sub_delim(c) || c == ':')
}

fn is_path(path: &str, charset: Charset) -> bool {
    consists_of(path, |c| c == '/' || is_pchar(c, charset))
}

fn is_pchar(c: char, charset: Charset) -> bool {
    is_unreserved(c, charset) || is_sub_delim(c) || c == ':' || c == '@'
}

/// `unreserved`, or `iunreserved` (adding RFC 3987 `ucschar`) for IRIs.
fn is_unreserved(c: char, charset: Charset) -> bool {
    c.is_ascii_alphanumeric()
        || matches!(c, '-' | '.' | '_' | '~')
        || (charset == Charset::Unicode && is_ucschar(c))
}

fn is_sub_delim(c: char) -> bool {
    matches!(
        c,
        '!' | '$' | '&' | '\'' | '(' | ')' | '*' | '+' | ',' | ';' | '='
    )
}

/// Whether `text` is made of characters `allowed` admits and `%XX` escapes.
fn consists_of(text: &str, allowed: impl Fn(char) -> bool) -> bool {
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        let valid = match c {
            '%' => is_hex_pair(chars.next(), chars.next()),
            _ => allowed(c),
        };
        if !valid {
            return false;
        }
    }
    true
}

fn is_hex_pair(first: Option<char>, second: Option<char>) -> bool {
    first.is_some_and(|c| c.is_ascii_hexdigit()) && second.is_some_and(|c| c.is_ascii_hexdigit())
}

// ---------------------------------------------------------------------------------------
// uuid.

/// RFC 9562 string form, any version and case: 8-4-4-4-12 hex digits.
fn is_uuid(text: &str) -> bool {
    text.split('-').count() == 5
        && text
            .split('-')
            .zip([8, 4, 4, 4, 12])
            .all(|(group, length)| {
                group.len() == length && group.bytes().all(|b| b.is_ascii_hexdigit())
            })
}

// ---------------------------------------------------------------------------------------
// date, time, date-time: RFC 3339 section 5.6. Non-ASCII bytes fail every digit and
// separator test, so working on bytes is safe.

fn is_date(text: &str) -> bool {
    is_full_date(text.as_bytes())
}

fn is_time(text: &str) -> bool {
    is_full_time(text.as_bytes())
}

/// `full-date ("T" / "t") full-time`.
fn is_date_time(text: &str) -> bool {
    let bytes = text.as_bytes();
    matches!(bytes.get(10), Some(b'T' | b't'))
        && bytes.get(..10).is_some_and(is_full_date)
        && bytes.get(11..).is_some_and(is_full_time)
}

/// `YYYY-MM-DD` with the real length of the month, leap years included.
fn is_full_date(bytes: &[u8]) -> bool {
    let [y0, y1, y2, y3, b'-', m0, m1, b'-', d0, d1] = *bytes else {
        return false;
    };
    match (
        number(&[y0, y1, y2, y3]),
        number(&[m0, m1]),
        number(&[d0, d1]),
    ) {
        (Some(year), Some(month @ 1..=12), Some(day)) => {
            (1..=days_in_month(year, month)).contains(&day)
        }
        _ => false,
    }
}

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if is_leap_year(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

fn is_leap_year(year: u32) -> bool {
    year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400))
}

/// `hh:mm:ss[.fraction]` then `Z` or `+hh:mm`/`-hh:mm`. A leap second (`:60`) is only valid
/// at 23:59 UTC, so the offset is applied before checking it.
fn is_full_time(bytes: &[u8]) -> bool {
    let [h0, h1, b':', m0, m1, b':', s0, s1, ref rest @ ..] = *bytes else {
        return false;
    };
    let clock = (number(&[h0, h1]), number(&[m0, m1]), number(&[s0, s1]));
    let (Some(hour @ 0..=23), Some(minute @ 0..=59), Some(second @ 0..=60)) = clock else {
        return false;
    };
    let Some(offset) = skip_fraction(rest).and_then(offset_minutes) else {
        return false;
    };
    let utc_minute = i64::from(hour * 60 + minute) - offset;
    second < 60 || utc_minute.rem_euclid(24 * 60) == 23 * 60 + 59
}

/// What follows an optional `.` and one or more digits.
fn skip_fraction(bytes: &[u8]) -> Option<&[u8]> {
    let Some(after_dot) = bytes.strip_prefix(b".") else {
        return Some(bytes);
    };
    let digits = after_dot.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return None;
    }
    after_dot.get(digits..)
}

/// The offset from UTC in minutes, for `Z`, `z`, `+hh:mm` or `-hh:mm` and nothing after.
fn offset_minutes(bytes: &[u8]) -> Option<i64> {
    match *bytes {
        [b'Z' | b'z'] => Some(0),
        [sign @ (b'+' | b'-'), h0, h1, b':', m0, m1] => {
            let (Some(hours @ 0..=23), Some(minutes @ 0..=59)) =
                (number(&[h0, h1]), number(&[m0, m1]))
            else {
                return None;
            };
            let total = i64::from(hours * 60 + minutes);
            Some(if sign == b'-' { -total } else { total })
        }
        _ => None,
    }
}

/// The value of a short run of ASCII digits, or `None` if any byte is not one.
fn number(digits: &[u8]) -> Option<u32> {
    digits.iter().try_fold(0u32, |value, &byte| {
        let digit = char::from(byte).to_digit(10)?;
        value.checked_mul(10)?.checked_add(digit)
    })
}

// ---------------------------------------------------------------------------------------
// duration: RFC 3339 Appendix A, as JSON Schema 2020-12 specifies.

/// `"P" (dur-date / dur-time / dur-week)`. Units must come in order without gaps (years,
/// months, days; hours, minutes, seconds), and weeks stand alone.
fn is_duration(text: &str) -> bool {
    let Some(body) = text.strip_prefix('P') else {
        return false;
    };
    let (date, time) = match body.split_once('T') {
        Some((date, time)) => (date, Some(time)),
        None => (body, None),
    };
    let Some(date_units) = unit_letters(date) else {
        return false;
    };
    match time.map(unit_letters) {
        None => matches!(
            date_units.as_str(),
            "Y" | "YM" | "YMD" | "M" | "MD" | "D" | "W"
        ),
        Some(Some(time_units)) => {
            matches!(
                date_units.as_str(),
                "" | "Y" | "YM" | "YMD" | "M" | "MD" | "D"
            ) && matches!(time_units.as_str(), "H" | "HM" | "HMS" | "M" | "MS" | "S")
        }
        Some(None) => false,
    }
}

/// The unit letters of a run of `1*DIGIT letter` elements, or `None` if it is not one.
fn unit_letters(text: &str) -> Option<String> {
    let mut letters = String::new();
    let mut digits = 0;
    for c in text.chars() {
        if c.is_ascii_digit() {
            digits += 1;
        } else if c.is_ascii_uppercase() && digits > 0 {
            letters.push(c);
            digits = 0;
        } else {
            return None;
        }
    }
    (digits == 0).then_some(letters)
}

// ---------------------------------------------------------------------------------------
// json-pointer, relative-json-pointer: RFC 6901 and draft-bhutton-relative-json-pointer-00.

/// Empty, or `/`-prefixed tokens in which `~` is always `~0` or `~1`.
fn is_json_pointer(text: &str) -> bool {
    if text.is_empty() {
        return true;
    }
    let mut chars = text.chars();
    if chars.next() != Some('/') {
        return false;
    }
    while let Some(c) = chars.next() {
        if c == '~' && !matches!(chars.next(), Some('0' | '1')) {
            return false;
        }
    }
    true
}

/// `non-negative-integer [("+" / "-") non-negative-integer] ( "#" / json-pointer )`.
fn is_relative_json_pointer(text: &str) -> bool {
    let rest =
        strip_non_negative_integer(text).and_then(|rest| match rest.strip_prefix(['+', '-']) {
            Some(after_sign) => strip_non_negative_integer(after_sign),
            None => Some(rest),
        });
    rest.is_some_and(|rest| rest == "#" || is_json_pointer(rest))
}

/// What follows a leading `0` or `[1-9][0-9]*` (ASCII digits only).
fn strip_non_negative_integer(text: &str) -> Option<&str> {
    let length = text.bytes().take_while(u8::is_ascii_digit).count();
    let (digits, rest) = text.split_at_checked(length)?;
    let valid = digits == "0" || (!digits.is_empty() && !digits.starts_with('0'));
    valid.then_some(rest)
}

// ---------------------------------------------------------------------------------------
// uri-template: RFC 6570, using the parser that expands MCP resource templates.

fn is_uri_template(text: &str) -> bool {
    UriTemplate::parse(text).problems().is_empty()
}

#[cfg(test)]
mod tests;

#[cfg(all(test, not(target_arch = "wasm32")))]
mod properties {
    use super::*;
    use proptest::prelude::*;

    /// Text near the shapes the checks look for, so they get past their first test.
    fn format_like() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            prop_oneof![
                "[0-9]{1,4}",
                "[-:.@/?#%\\[\\]~TZPYMDHSW+\"\\\\]",
                "[a-fA-F]{1,3}",
                "(IPv6:|::|//|http:|%4|~1|\\{a\\})",
                any::<char>().prop_map(String::from),
            ],
            0..16,
        )
        .prop_map(|pieces| pieces.concat())
    }

    proptest! {
        #[test]
        fn any_text_never_panics_for_any_format(
            text in prop_oneof![any::<String>(), format_like()],
        ) {
            for rule in RULES {
                let _ = check(rule.name, &text);
            }
        }
    }
}
