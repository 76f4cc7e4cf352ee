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
mod tests {
    use super::*;
    use serde_json::Value;

    /// Cases from the JSON-Schema-Test-Suite (github.com/json-schema-org/JSON-Schema-Test-Suite,
    /// tests/draft2020-12/optional/format/*.json) for the formats checked here, as
    /// `[description, data, valid]`. Left out: the "all string formats ignore ..." cases
    /// (the caller only checks strings), `regex` (deliberately unchecked), and the
    /// idn-email case with a lone UTF-16 surrogate, which a Rust `&str` cannot hold.
    /// Every other case is kept and passes unchanged.
    const SUITE: &str = r###"
{
"email": [
 ["a valid e-mail address", "joe.bloggs@example.com", true],
 ["an invalid e-mail address", "2962", false],
 ["tilde in local part is valid", "te~st@example.com", true],
 ["tilde before local part is valid", "~test@example.com", true],
 ["tilde after local part is valid", "test~@example.com", true],
 ["a quoted string with a space in the local part is valid", "\"joe bloggs\"@example.com", true],
 ["a quoted string with a double dot in the local part is valid", "\"joe..bloggs\"@example.com", true],
 ["a quoted string with a @ in the local part is valid", "\"joe@bloggs\"@example.com", true],
 ["an IPv4-address-literal after the @ is valid", "joe.bloggs@[127.0.0.1]", true],
 ["an IPv6-address-literal after the @ is valid", "joe.bloggs@[IPv6:::1]", true],
 ["dot before local part is not valid", ".test@example.com", false],
 ["dot after local part is not valid", "test.@example.com", false],
 ["two separated dots inside local part are valid", "te.s.t@example.com", true],
 ["two subsequent dots inside local part are not valid", "te..st@example.com", false],
 ["an invalid domain", "joe.bloggs@invalid=domain.com", false],
 ["an invalid IPv4-address-literal", "joe.bloggs@[127.0.0.300]", false],
 ["two email addresses is not valid", "user1@oceania.org, user2@oceania.org", false],
 ["full \"From\" header is invalid", "\"Winston Smith\" <winston.smith@recdep.minitrue> (Records Department)", false],
 ["local part is required", "@example.com", false],
 ["domain is required", "joe.bloggs@", false],
 ["unquoted space in local part is invalid", "joe bloggs@example.com", false],
 ["a domain that looks like an IPv4 address without brackets is valid", "test@255.255.255.255", true],
 ["an empty quoted string in the local part is valid", "\"\"@iana.org", true],
 ["a quoted string containing only a space in the local part is valid", "\" \"@iana.org", true],
 ["consecutive hyphens inside a domain label are valid", "test@c--n.com", true],
 ["a domain label starting with a digit is valid", "test@123.com", true],
 ["a non-ASCII character in the local part is not valid", "a\u00e9@iana.org", false],
 ["a non-ASCII character in the domain is not valid", "a@\u00e9.org", false],
 ["a fullwidth commercial at is not a valid separator", "a\uff20iana.org", false],
 ["a non-ASCII character in a quoted pair is not valid", "\"test\\\u00a9\"@iana.org", false],
 ["a trailing line feed is not valid", "test@iana.org\n", false],
 ["a trailing carriage return is not valid", "test@iana.org\r", false],
 ["a trailing space is not valid", "a@iana.org ", false],
 ["a leading space is not valid", " a@iana.org", false],
 ["a tab in the local part is not valid", "a\tb@iana.org", false],
 ["a delete character in the local part is not valid", "\u007f@iana.org", false],
 ["a quoted string with no special characters in the local part is valid", "\"test\"@iana.org", true],
 ["a quoted pair in the local part is valid", "\"\\a\"@iana.org", true],
 ["an escaped double quote in the local part is valid", "\"\\\"\"@iana.org", true],
 ["an escaped backslash in the local part is valid", "\"\\\\\"@iana.org", true],
 ["an unescaped double quote in an unquoted local part is not valid", "test\"@iana.org", false],
 ["text after the closing double quote in the local part is not valid", "\"test\"test@iana.org", false],
 ["an unclosed double quote in the local part is not valid", "\"test@iana.org", false],
 ["two unquoted @ signs are not valid", "a@b@c.org", false],
 ["a backslash-escaped @ in an unquoted local part is not valid", "test\\@test@iana.org", false],
 ["an address literal in the local part position is not valid", "[1.2.3.4]@iana.org", false],
 ["an empty string is not valid", "", false],
 ["a domain label starting with a hyphen is not valid", "test@-iana.org", false],
 ["a domain label ending with a hyphen is not valid", "test@iana-.com", false],
 ["a domain starting with a dot is not valid", "test@.iana.org", false],
 ["a domain ending with a dot is not valid", "test@iana.org.", false],
 ["two subsequent dots inside the domain are not valid", "test@iana..com", false],
 ["a single-label domain is valid", "test@io", true],
 ["an unclosed address literal is not valid", "test@[1.2.3.4", false],
 ["empty brackets after the @ are not valid", "a@[]", false],
 ["an IPv4-address-literal with three octets is not valid", "a@[1.2.3]", false],
 ["an IPv4-address-literal with five octets is not valid", "a@[1.2.3.4.5]", false],
 ["bracketed content that is not an address is not valid", "test@[RFC-5322-domain-literal]", false],
 ["a domain label before the opening bracket is not valid", "test@a[255.255.255.255]", false],
 ["a lowercase IPv6 tag in an address literal is valid", "a@[ipv6:::1]", true],
 ["a comma in an unquoted local part is not valid", "a,b@iana.org", false],
 ["a semicolon in an unquoted local part is not valid", "a;b@iana.org", false],
 ["a colon in an unquoted local part is not valid", "a:b@iana.org", false],
 ["a parenthesis in an unquoted local part is not valid", "test(comment)@iana.org", false],
 ["a parenthesis in the domain is not valid", "a@b(c).org", false]
],
"idn-email": [
 ["a valid idn e-mail (example@example.test in Hangul)", "실례@실례.테스트", true],
 ["an invalid e-mail/idn e-mail address", "2962", false],
 ["a valid e-mail address", "joe.bloggs@example.com", true]
],
"uri": [
 ["a valid URL with anchor tag", "http://foo.bar/?baz=qux#quux", true],
 ["a valid URL with anchor tag and parentheses", "http://foo.com/blah_(wikipedia)_blah#cite-1", true],
 ["a valid URL with URL-encoded stuff", "http://foo.bar/?q=Test%20URL-encoded%20stuff", true],
 ["a valid puny-coded URL ", "http://xn--nw2a.xn--j6w193g/", true],
 ["a valid URL with many special characters", "http://-.~_!$&'()*+,;=:%40:80%2f::::::@example.com", true],
 ["a valid URL based on IPv4", "http://223.255.255.254", true],
 ["a valid URL with ftp scheme", "ftp://ftp.is.co.za/rfc/rfc1808.txt", true],
 ["a valid URL for a simple text file", "http://www.ietf.org/rfc/rfc2396.txt", true],
 ["a valid URL", "ldap://[2001:db8::7]/c=GB?objectClass?one", true],
 ["a valid mailto URI", "mailto:John.Doe@example.com", true],
 ["a valid newsgroup URI", "news:comp.infosystems.www.servers.unix", true],
 ["a valid tel URI", "tel:+1-816-555-1212", true],
 ["a valid URN", "urn:oasis:names:specification:docbook:dtd:xml:4.1.2", true],
 ["an invalid protocol-relative URI Reference", "//foo.bar/?baz=qux#quux", false],
 ["an invalid relative URI Reference", "/abc", false],
 ["an invalid URI", "\\\\WINDOWS\\fileshare", false],
 ["an invalid URI though valid URI reference", "abc", false],
 ["an invalid URI with spaces", "http:// shouldfail.com", false],
 ["an invalid URI with spaces and missing scheme", ":// should fail", false],
 ["an invalid URI with comma in scheme", "bar,baz:foo", false],
 ["invalid userinfo", "https://[@example.org/test.txt", false],
 ["unescaped non US-ASCII characters", "https://example.org/foobar®.txt", false],
 ["invalid backslash character", "https://example.org/foobar\\.txt", false],
 ["invalid \" character", "https://example.org/foobar\".txt", false],
 ["invalid <> characters", "https://example.org/foobar<>.txt", false],
 ["invalid {} characters", "https://example.org/foobar{}.txt", false],
 ["invalid ^ character", "https://example.org/foobar^.txt", false],
 ["invalid ` character", "https://example.org/foobar`.txt", false],
 ["invalid SPACE character", "https://example.org/foo bar.txt", false],
 ["invalid | character", "https://example.org/foobar|.txt", false],
 ["URI with leading-zero IPv4 is structurally valid as a reg-name", "http://087.10.0.1/", true],
 ["URI with out-of-bounds IPv4 is structurally valid as a reg-name", "http://999.999.999.999/", true],
 ["invalid percent-encoding with non-hex digits", "http://example.com/%6G", false],
 ["incomplete percent-encoding triplet", "http://example.com/%A", false],
 ["lone percent sign is invalid", "http://example.com/%", false],
 ["scheme must start with a letter", "1http://example.com", false],
 ["invalid character in scheme", "ht_tp://example.com", false],
 ["non-numeric port is invalid", "http://example.com:abc/path", false],
 ["port digit boundary: one above range (colon)", "http://a.com:8:0", false],
 ["above-ceiling DIGIT in port: colon is %x3A, one above 9 (%x39)", "http://a.com::", false],
 ["port may be empty when colon is present", "http://a.com:", true],
 ["port has no RFC 3986 upper bound", "http://a.com:999999999", true],
 ["authority with empty host and explicit port is valid", "http://:80", true],
 ["userinfo may be empty", "http://@a.com", true],
 ["userinfo with non-empty value and empty host is valid", "http://user@", true],
 ["host reg-name may contain sub-delimiters", "http://!$&'()*+,;=.com", true],
 ["host reg-name may end with a dot", "http://example.com.", true],
 ["tilde is valid in reg-name because it is an unreserved character", "http://exa~mple.com/", true],
 ["underscore is valid in reg-name because it is an unreserved character", "http://under_score.com/", true]
],
"uri-reference": [
 ["a valid URI", "http://foo.bar/?baz=qux#quux", true],
 ["a valid protocol-relative URI Reference", "//foo.bar/?baz=qux#quux", true],
 ["a valid relative URI Reference", "/abc", true],
 ["an invalid URI Reference", "\\\\WINDOWS\\fileshare", false],
 ["a valid URI Reference", "abc", true],
 ["a valid URI fragment", "#fragment", true],
 ["an invalid URI fragment", "#frag\\ment", false],
 ["unescaped non US-ASCII characters", "/foobar®.txt", false],
 ["invalid backslash character", "https://example.org/foobar\\.txt", false],
 ["URI with leading-zero IPv4 is structurally valid as a reg-name", "http://087.10.0.1/", true],
 ["URI with out-of-bounds IPv4 is structurally valid as a reg-name", "http://999.999.999.999/", true],
 ["an empty URI reference", "", true],
 ["a query-only reference", "?query=1", true],
 ["a network-path reference with an empty authority", "//", true],
 ["an incomplete percent-encoding", "/%zz", false],
 ["a double quote in a path", "/a\"b", false],
 ["square brackets outside an authority", "/[::1]", false],
 ["a non-numeric port in a network-path reference", "//example.com:abc/p", false],
 ["more than one at-sign in the authority", "//a@b@example.com/", false],
 ["a leading zero in the IPv4 part of an IPv6 literal", "//[::ffff:192.168.0.01]/p", false],
 ["a colon in the first segment of a relative-path reference", "1:b", false],
 ["a colon in the first segment preceded by a dot-segment", "./this:that", true],
 ["a trailing line feed", "/p\n", false],
 ["an uppercase version character in an IPvFuture literal", "//[V1.fe]/p", true]
],
"iri": [
 ["a valid IRI with anchor tag", "http://ƒøø.ßår/?∂éœ=πîx#πîüx", true],
 ["a valid IRI with anchor tag and parentheses", "http://ƒøø.com/blah_(wîkïpédiå)_blah#ßité-1", true],
 ["a valid IRI with URL-encoded stuff", "http://ƒøø.ßår/?q=Test%20URL-encoded%20stuff", true],
 ["a valid IRI with many special characters", "http://-.~_!$&'()*+,;=:%40:80%2f::::::@example.com", true],
 ["a valid IRI based on IPv6", "http://[2001:0db8:85a3:0000:0000:8a2e:0370:7334]", true],
 ["an IPv6 address without enclosing brackets is invalid", "http://2001:0db8:85a3:0000:0000:8a2e:0370:7334", false],
 ["an invalid relative IRI Reference", "/abc", false],
 ["an invalid IRI", "\\\\WINDOWS\\filëßåré", false],
 ["an invalid IRI though valid IRI reference", "âππ", false],
 ["an IPv6 host whose embedded IPv4 has a leading zero is invalid", "http://[::ffff:192.168.0.01]", false],
 ["a valid IRI with a compressed IPv6 host", "http://[2001:db8::1]", true],
 ["a trailing newline after a valid IRI is invalid", "http://ƒøø.ßår/\n", false],
 ["a valid IRI with an IPv4 host", "http://192.168.0.1/p", true],
 ["a valid IRI with no authority and a rootless path", "urn:example:resource", true],
 ["a valid IRI with no authority and an absolute path", "file:/etc/hosts", true],
 ["a valid IRI with a supplementary-plane character in the path", "http://ƒøø.ßår/𐌀", true],
 ["a valid IRI with a supplementary-plane private-use char in query", "http://ƒøø.ßår/?q=\udb80\udc00", true]
],
"iri-reference": [
 ["a valid IRI", "http://ƒøø.ßår/?∂éœ=πîx#πîüx", true],
 ["a valid protocol-relative IRI Reference", "//ƒøø.ßår/?∂éœ=πîx#πîüx", true],
 ["a valid relative IRI Reference", "/âππ", true],
 ["an invalid IRI Reference", "\\\\WINDOWS\\filëßåré", false],
 ["a valid IRI Reference", "âππ", true],
 ["a valid IRI fragment", "#ƒrägmênt", true],
 ["an invalid IRI fragment", "#ƒräg\\mênt", false],
 ["an IPvFuture host with an uppercase version letter is valid", "//[V1.fe]/p", true]
],
"uuid": [
 ["all upper-case", "2EB8AA08-AA98-11EA-B4AA-73B441D16380", true],
 ["all lower-case", "2eb8aa08-aa98-11ea-b4aa-73b441d16380", true],
 ["mixed case", "2eb8aa08-AA98-11ea-B4Aa-73B441D16380", true],
 ["all zeroes is valid", "00000000-0000-0000-0000-000000000000", true],
 ["wrong length", "2eb8aa08-aa98-11ea-b4aa-73b441d1638", false],
 ["missing section", "2eb8aa08-aa98-11ea-73b441d16380", false],
 ["bad characters (not hex)", "2eb8aa08-aa98-11ea-b4ga-73b441d16380", false],
 ["no dashes", "2eb8aa08aa9811eab4aa73b441d16380", false],
 ["too few dashes", "2eb8aa08aa98-11ea-b4aa73b441d16380", false],
 ["too many dashes", "2eb8-aa08-aa98-11ea-b4aa73b44-1d16380", false],
 ["dashes in the wrong spot", "2eb8aa08aa9811eab4aa73b441d16380----", false],
 ["shifted dashes", "2eb8aa0-8aa98-11e-ab4aa7-3b441d16380", false],
 ["valid version 4", "98d80576-482e-427f-8434-7f86890ab222", true],
 ["valid version 5", "99c17cbb-656f-564a-940f-1a4568f03487", true],
 ["hypothetical version 6", "99c17cbb-656f-664a-940f-1a4568f03487", true],
 ["hypothetical version 15", "99c17cbb-656f-f64a-940f-1a4568f03487", true],
 ["URN prefixed UUID is invalid", "urn:uuid:2eb8aa08-aa98-11ea-b4aa-73b441d16380", false]
],
"date": [
 ["a valid date string", "1963-06-19", true],
 ["a valid date string with 31 days in January", "2020-01-31", true],
 ["a invalid date string with 32 days in January", "2020-01-32", false],
 ["a valid date string with 28 days in February (normal)", "2021-02-28", true],
 ["a invalid date string with 30 days in February (leap)", "2020-02-30", false],
 ["a valid date string with 31 days in March", "2020-03-31", true],
 ["a invalid date string with 32 days in March", "2020-03-32", false],
 ["a valid date string with 30 days in April", "2020-04-30", true],
 ["a invalid date string with 31 days in April", "2020-04-31", false],
 ["a valid date string with 31 days in May", "2020-05-31", true],
 ["a invalid date string with 32 days in May", "2020-05-32", false],
 ["a valid date string with 30 days in June", "2020-06-30", true],
 ["a invalid date string with 31 days in June", "2020-06-31", false],
 ["a valid date string with 31 days in July", "2020-07-31", true],
 ["a invalid date string with 32 days in July", "2020-07-32", false],
 ["a valid date string with 31 days in August", "2020-08-31", true],
 ["a invalid date string with 32 days in August", "2020-08-32", false],
 ["a valid date string with 30 days in September", "2020-09-30", true],
 ["a invalid date string with 31 days in September", "2020-09-31", false],
 ["a valid date string with 31 days in October", "2020-10-31", true],
 ["a invalid date string with 32 days in October", "2020-10-32", false],
 ["a valid date string with 30 days in November", "2020-11-30", true],
 ["a invalid date string with 31 days in November", "2020-11-31", false],
 ["a valid date string with 31 days in December", "2020-12-31", true],
 ["a invalid date string with 32 days in December", "2020-12-32", false],
 ["an invalid date string", "06/19/1963", false],
 ["only RFC3339 not all of ISO 8601 are valid", "2013-350", false],
 ["non-padded month dates are not valid", "1998-1-20", false],
 ["non-padded day dates are not valid", "1998-01-1", false],
 ["invalid month", "1998-13-01", false],
 ["2021 is not a leap year", "2021-02-29", false],
 ["2020 is a leap year", "2020-02-29", true],
 ["invalid non-ASCII '৪' (a Bengali 4)", "1963-06-1৪", false],
 ["invalid: non-ASCII Bengali digit in month field", "2020-0৪-01", false],
 ["ISO8601 / non-RFC3339: YYYYMMDD without dashes (2023-03-28)", "20230328", false],
 ["ISO8601 / non-RFC3339: week number implicit day of week (2023-01-02)", "2023-W01", false],
 ["ISO8601 / non-RFC3339: week number with day of week (2023-03-28)", "2023-W13-2", false],
 ["ISO8601 / non-RFC3339: week number rollover to next year (2023-01-01)", "2022W527", false],
 ["an invalid time string in date-time format", "2020-11-28T23:55:45Z", false],
 ["century year 0100 is not a leap year", "0100-02-29", false],
 ["century year 0400 is a leap year", "0400-02-29", true],
 ["century year 2100 is not a leap year", "2100-02-29", false],
 ["invalid: leading whitespace is not permitted", " 2024-01-15", false],
 ["invalid: trailing whitespace is not permitted", "2024-01-15 ", false],
 ["invalid: month 00 is not valid per date-month range 01-12", "2024-00-15", false],
 ["invalid: day 00 is not valid per date-mday minimum of 01", "2024-01-00", false],
 ["invalid: empty string", "", false],
 ["invalid: embedded whitespace between year and month", "2020 -01-01", false],
 ["invalid: trailing character after valid full-date", "2020-01-01X", false],
 ["invalid: trailing Z after full-date", "2020-01-01Z", false],
 ["invalid: full-date followed by space and time component", "2020-01-01 00:00:00Z", false],
 ["valid: four-digit year 0001", "0001-01-01", true],
 ["invalid: two-digit year (N-2 digits)", "20-01-01", false],
 ["invalid: three-digit year (N-1 digits)", "998-01-01", false],
 ["invalid: five-digit year (N+1 digits)", "12020-01-01", false],
 ["invalid: positive sign prefix on year", "+2020-01-01", false],
 ["invalid: negative sign prefix on year", "-2020-01-01", false],
 ["invalid: non-ASCII Bengali digit in year field", "২020-01-01", false],
 ["invalid: alphabetic characters in year field", "YYYY-01-01", false],
 ["invalid: three-digit month (N+1 digits)", "2020-001-01", false],
 ["invalid: alphabetic characters in month field", "2020-MM-01", false],
 ["invalid: three-digit day (N+1 digits)", "2020-01-001", false],
 ["invalid: alphabetic characters in day field", "2020-01-DD", false],
 ["invalid: colon separators", "2020:01:01", false],
 ["invalid: dot separators", "2020.01.01", false],
 ["invalid: space separators", "2020 01 01", false],
 ["invalid: mixed slash and hyphen separators", "2020-01/01", false],
 ["invalid: duplicated first hyphen", "2020--01-01", false],
 ["invalid: duplicated second hyphen", "2020-01--01", false]
],
"time": [
 ["a valid time string", "08:30:06Z", true],
 ["invalid time string with extra leading zeros", "008:030:006Z", false],
 ["invalid time string with no leading zero for single digit", "8:3:6Z", false],
 ["hour, minute, second must be two digits", "8:0030:6Z", false],
 ["a valid time string with leap second, Zulu", "23:59:60Z", true],
 ["invalid leap second, Zulu (wrong hour)", "22:59:60Z", false],
 ["invalid leap second, Zulu (wrong minute)", "23:58:60Z", false],
 ["valid leap second, zero time-offset", "23:59:60+00:00", true],
 ["invalid leap second, zero time-offset (wrong hour)", "22:59:60+00:00", false],
 ["invalid leap second, zero time-offset (wrong minute)", "23:58:60+00:00", false],
 ["valid leap second, positive time-offset", "01:29:60+01:30", true],
 ["valid leap second, large positive time-offset", "23:29:60+23:30", true],
 ["invalid leap second, positive time-offset (wrong hour)", "23:59:60+01:00", false],
 ["invalid leap second, positive time-offset (wrong minute)", "23:59:60+00:30", false],
 ["valid leap second, negative time-offset", "15:59:60-08:00", true],
 ["valid leap second, large negative time-offset", "00:29:60-23:30", true],
 ["invalid leap second, negative time-offset (wrong hour)", "23:59:60-01:00", false],
 ["invalid leap second, negative time-offset (wrong minute)", "23:59:60-00:30", false],
 ["a valid time string with second fraction", "23:20:50.52Z", true],
 ["a valid time string with precise second fraction", "08:30:06.283185Z", true],
 ["a valid time string with plus offset", "08:30:06+00:20", true],
 ["a valid time string with minus offset", "08:30:06-08:00", true],
 ["time with unknown local offset is valid", "12:34:56-00:00", true],
 ["hour, minute in time-offset must be two digits", "08:30:06-8:000", false],
 ["a valid time string with case-insensitive Z", "08:30:06z", true],
 ["an invalid time string with invalid hour", "24:00:00Z", false],
 ["an invalid time string with invalid minute", "00:60:00Z", false],
 ["an invalid time string with invalid second", "00:00:61Z", false],
 ["an invalid time string with invalid leap second (wrong hour)", "22:59:60Z", false],
 ["an invalid time string with invalid leap second (wrong minute)", "23:58:60Z", false],
 ["an invalid time string with invalid time numoffset hour", "01:02:03+24:00", false],
 ["an invalid time string with invalid time numoffset minute", "01:02:03+00:60", false],
 ["an invalid time string with invalid time with both Z and numoffset", "01:02:03Z+00:30", false],
 ["an invalid offset indicator", "08:30:06 PST", false],
 ["only RFC3339 not all of ISO 8601 are valid", "01:01:01,1111", false],
 ["no time offset", "12:00:00", false],
 ["no time offset with second fraction", "12:00:00.52", false],
 ["invalid non-ASCII '২' (a Bengali 2)", "1২:00:00Z", false],
 ["offset not starting with plus or minus", "08:30:06#00:20", false],
 ["contains letters", "ab:cd:ef", false],
 ["an invalid time string in date-time format", "2020-11-28T23:55:45Z", false],
 ["a numeric time-offset requires the colon separator", "08:30:06+0130", false],
 ["a numeric time-offset requires the minutes component", "08:30:06+01", false],
 ["a trailing newline after a valid time", "08:30:06Z\n", false],
 ["hour 24 is invalid with a numeric time-offset", "24:59:00+01:00", false]
],
"date-time": [
 ["a valid date-time string", "1963-06-19T08:30:06.283185Z", true],
 ["a valid date-time string without second fraction", "1963-06-19T08:30:06Z", true],
 ["a valid date-time string with plus offset", "1937-01-01T12:00:27.87+00:20", true],
 ["a valid date-time string with minus offset", "1990-12-31T15:59:50.123-08:00", true],
 ["a valid date-time with a leap second, UTC", "1998-12-31T23:59:60Z", true],
 ["a valid date-time with a leap second, with minus offset", "1998-12-31T15:59:60.123-08:00", true],
 ["an invalid date-time past leap second, UTC", "1998-12-31T23:59:61Z", false],
 ["an invalid date-time with leap second on a wrong minute, UTC", "1998-12-31T23:58:60Z", false],
 ["an invalid date-time with leap second on a wrong hour, UTC", "1998-12-31T22:59:60Z", false],
 ["an invalid day in date-time string", "1990-02-31T15:59:59.123-08:00", false],
 ["an invalid offset in date-time string", "1990-12-31T15:59:59-24:00", false],
 ["an invalid closing Z after time-zone offset", "1963-06-19T08:30:06.28123+01:00Z", false],
 ["an invalid hour in date-time string", "1990-12-31T24:00:00Z", false],
 ["an invalid minute in date-time string", "1990-12-31T15:60:00Z", false],
 ["an invalid offset minute in date-time string", "1990-12-31T10:00:00+10:60", false],
 ["an invalid date-time string", "06/19/1963 08:30:06 PST", false],
 ["case-insensitive T and Z", "1963-06-19t08:30:06.283185z", true],
 ["only RFC3339 not all of ISO 8601 are valid", "2013-350T01:01:01", false],
 ["invalid non-padded month dates", "1963-6-19T08:30:06.283185Z", false],
 ["invalid non-padded day dates", "1963-06-1T08:30:06.283185Z", false],
 ["invalid non-ASCII '৪' (a Bengali 4) in date portion", "1963-06-1৪T00:00:00Z", false],
 ["invalid non-ASCII '৪' (a Bengali 4) in time portion", "1963-06-11T0৪:00:00Z", false],
 ["invalid extended year", "+11963-06-19T08:30:06.283185Z", false],
 ["a second fraction of fifteen nines is valid", "1985-04-12T00:59:59.999999999999999Z", true]
],
"duration": [
 ["a valid duration string", "P4DT12H30M5S", true],
 ["an invalid duration string", "PT1D", false],
 ["must start with P", "4DT12H30M5S", false],
 ["no elements present", "P", false],
 ["no time elements present", "P1YT", false],
 ["no date or time elements present", "PT", false],
 ["elements out of order", "P2D1Y", false],
 ["missing time separator", "P1D2H", false],
 ["time element in the date position", "P2S", false],
 ["four years duration", "P4Y", true],
 ["zero time, in seconds", "PT0S", true],
 ["zero time, in days", "P0D", true],
 ["one month duration", "P1M", true],
 ["one minute duration", "PT1M", true],
 ["one and a half days, in hours", "PT36H", true],
 ["one and a half days, in days and hours", "P1DT12H", true],
 ["two weeks", "P2W", true],
 ["weeks cannot be combined with other units", "P1Y2W", false],
 ["invalid non-ASCII '২' (a Bengali 2)", "P২Y", false],
 ["element without unit", "P1", false],
 ["all date and time components", "P1Y2M3DT4H5M6S", true],
 ["date components only", "P1Y2M3D", true],
 ["time components only", "PT1H2M3S", true],
 ["month and day", "P1M2D", true],
 ["hour and minute", "PT1H30M", true],
 ["multi-digit values in all components", "P10Y10M10DT10H10M10S", true],
 ["fractional duration is not allowed by RFC 3339 ABNF", "PT0.5S", false],
 ["leading whitespace is invalid", " P1D", false],
 ["trailing whitespace is invalid", "P1D ", false],
 ["empty string is invalid", "", false],
 ["years and months can appear without days", "P1Y2M", true],
 ["years and days cannot appear without months", "P1Y2D", false],
 ["months and days can appear without years", "P1M2D", true],
 ["hours and minutes can appear without seconds", "PT1H2M", true],
 ["hours and seconds cannot appear without minutes", "PT1H2S", false],
 ["minutes and seconds can appear without hour", "PT1M2S", true],
 ["a leading sign is not allowed", "-P1D", false],
 ["a number before the time separator has no unit", "P1D2T3H", false],
 ["exponent notation is not allowed in a component", "P1e2D", false],
 ["a trailing newline is invalid", "P1D\n", false],
 ["weeks cannot be combined with a time component", "P1WT1H", false],
 ["weeks cannot be combined with a zero-valued component", "P0Y1W", false],
 ["a leading zero in a component is valid", "P01D", true],
 ["a component with many digits is valid", "P999999999999999999999999999999999999999999999999999999999999999999999999999999D", true],
 ["a comma as the decimal separator is invalid", "PT0,5S", false],
 ["a sign inside a component is invalid", "P-1D", false]
],
"ipv4": [
 ["a valid IP address", "192.168.0.1", true],
 ["an IP address with too many components", "127.0.0.0.1", false],
 ["an IP address with out-of-range values", "256.256.256.256", false],
 ["an IP address without 4 components", "127.0", false],
 ["a 2-part address resolving to a routable IP (inet_aton shorthand)", "127.1", false],
 ["a 3-part address resolving to a routable IP (inet_aton shorthand)", "127.0.1", false],
 ["an IP address as an integer", "0x7f000001", false],
 ["an IP address as an integer (decimal)", "2130706433", false],
 ["invalid non-ASCII '২' (a Bengali 2)", "1২7.0.0.1", false],
 ["netmask is not a part of ipv4 address", "192.168.1.0/24", false],
 ["leading whitespace is invalid", " 192.168.0.1", false],
 ["trailing whitespace is invalid", "192.168.0.1 ", false],
 ["trailing newline is invalid", "192.168.0.1\n", false],
 ["hexadecimal notation is invalid", "0x7f.0.0.1", false],
 ["octal notation explicit is invalid", "0o10.0.0.1", false],
 ["empty part (double dot) is invalid", "192.168..1", false],
 ["leading dot is invalid", ".192.168.0.1", false],
 ["trailing dot is invalid", "192.168.0.1.", false],
 ["minimum valid IPv4 address", "0.0.0.0", true],
 ["maximum valid IPv4 address", "255.255.255.255", true],
 ["empty string is invalid", "", false],
 ["plus sign is invalid", "+1.2.3.4", false],
 ["negative sign is invalid", "-1.2.3.4", false],
 ["exponential notation is invalid", "1e2.0.0.1", false],
 ["alpha characters are invalid", "192.168.a.1", false],
 ["internal whitespace is invalid", "192. 168.0.1", false],
 ["tab character is invalid", "192.168.0.1\t", false],
 ["with port number is invalid", "192.168.0.1:80", false],
 ["single octet out of range in last position", "192.168.0.256", false]
],
"ipv6": [
 ["a valid IPv6 address", "::1", true],
 ["a group with 5 hex digits is invalid", "12345::", false],
 ["trailing 4 hex symbols is valid", "::abef", true],
 ["trailing 5 hex symbols is invalid", "::abcef", false],
 ["an IPv6 address with too many components", "1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1", false],
 ["an IPv6 address containing illegal characters", "::laptop", false],
 ["no digits is valid", "::", true],
 ["leading colons is valid", "::42:ff:1", true],
 ["trailing colons is valid", "d6::", true],
 ["missing leading octet is invalid", ":2:3:4:5:6:7:8", false],
 ["missing trailing octet is invalid", "1:2:3:4:5:6:7:", false],
 ["missing leading octet with omitted octets later", ":2:3:4::8", false],
 ["single set of double colons in the middle is valid", "1:d6::42", true],
 ["two sets of double colons is invalid", "1::d6::42", false],
 ["mixed format with the ipv4 section as decimal octets", "1::d6:192.168.0.1", true],
 ["mixed format with double colons between the sections", "1:2::192.168.0.1", true],
 ["mixed format with ipv4 section with octet out of range", "1::2:192.168.256.1", false],
 ["mixed format with ipv4 section with a hex octet", "1::2:192.168.ff.1", false],
 ["mixed format with leading double colons (ipv4-mapped ipv6 address)", "::ffff:192.168.0.1", true],
 ["triple colons is invalid", "1:2:3:4:5:::8", false],
 ["8 octets", "1:2:3:4:5:6:7:8", true],
 ["insufficient octets without double colons", "1:2:3:4:5:6:7", false],
 ["no colons is invalid", "1", false],
 ["ipv4 is not ipv6", "127.0.0.1", false],
 ["ipv4 segment must have 4 octets", "1:2:3:4:1.2.3", false],
 ["leading whitespace is invalid", "  ::1", false],
 ["trailing whitespace is invalid", "::1  ", false],
 ["netmask is not a part of ipv6 address", "fe80::/64", false],
 ["zone id is not a part of ipv6 address", "fe80::a%eth1", false],
 ["a long valid ipv6", "1000:1000:1000:1000:1000:1000:255.255.255.255", true],
 ["a long invalid ipv6, below length limit, first", "100:100:100:100:100:100:255.255.255.255.255", false],
 ["a long invalid ipv6, below length limit, second", "100:100:100:100:100:100:100:255.255.255.255", false],
 ["invalid non-ASCII '৪' (a Bengali 4)", "1:2:3:4:5:6:7:৪", false],
 ["invalid non-ASCII '৪' (a Bengali 4) in the IPv4 portion", "1:2::192.16৪.0.1", false],
 ["an out-of-range first octet in the embedded IPv4 is invalid", "::ffff:256.1.1.1", false]
],
"hostname": [
 ["a valid host name", "www.example.com", true],
 ["a valid punycoded IDN hostname", "xn--4gbwdl.xn--wgbh1c", true],
 ["a host name starting with an illegal character", "-a-host-name-that-starts-with--", false],
 ["a host name containing illegal characters", "not_a_valid_host_name", false],
 ["a host name with a component too long", "a-vvvvvvvvvvvvvvvveeeeeeeeeeeeeeeerrrrrrrrrrrrrrrryyyyyyyyyyyyyyyy-long-host-name-component", false],
 ["starts with hyphen", "-hostname", false],
 ["ends with hyphen", "hostname-", false],
 ["starts with underscore", "_hostname", false],
 ["ends with underscore", "hostname_", false],
 ["contains underscore", "host_name", false],
 ["maximum label length", "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijk.com", true],
 ["exceeds maximum label length", "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl.com", false],
 ["single label with hyphen", "host-name", true],
 ["single label starting with digit", "1host", true],
 ["empty string", "", false]
],
"json-pointer": [
 ["a valid JSON-pointer", "/foo/bar~0/baz~1/%a", true],
 ["not a valid JSON-pointer (~ not escaped)", "/foo/bar~", false],
 ["valid JSON-pointer with empty segment", "/foo//bar", true],
 ["valid JSON-pointer with the last empty segment", "/foo/bar/", true],
 ["valid JSON-pointer as stated in RFC 6901 #1", "", true],
 ["valid JSON-pointer as stated in RFC 6901 #2", "/foo", true],
 ["valid JSON-pointer as stated in RFC 6901 #3", "/foo/0", true],
 ["valid JSON-pointer as stated in RFC 6901 #4", "/", true],
 ["valid JSON-pointer as stated in RFC 6901 #5", "/a~1b", true],
 ["valid JSON-pointer as stated in RFC 6901 #6", "/c%d", true],
 ["valid JSON-pointer as stated in RFC 6901 #7", "/e^f", true],
 ["valid JSON-pointer as stated in RFC 6901 #8", "/g|h", true],
 ["valid JSON-pointer as stated in RFC 6901 #9", "/i\\j", true],
 ["valid JSON-pointer as stated in RFC 6901 #10", "/k\"l", true],
 ["valid JSON-pointer as stated in RFC 6901 #11", "/ ", true],
 ["valid JSON-pointer as stated in RFC 6901 #12", "/m~0n", true],
 ["valid JSON-pointer used adding to the last array position", "/foo/-", true],
 ["valid JSON-pointer (- used as object member name)", "/foo/-/bar", true],
 ["valid JSON-pointer (multiple escaped characters)", "/~1~0~0~1~1", true],
 ["valid JSON-pointer (escaped with fraction part) #1", "/~1.1", true],
 ["valid JSON-pointer (escaped with fraction part) #2", "/~0.1", true],
 ["not a valid JSON-pointer (URI Fragment Identifier) #1", "#", false],
 ["not a valid JSON-pointer (URI Fragment Identifier) #2", "#/", false],
 ["not a valid JSON-pointer (URI Fragment Identifier) #3", "#a", false],
 ["not a valid JSON-pointer (some escaped, but not all) #1", "/~0~", false],
 ["not a valid JSON-pointer (some escaped, but not all) #2", "/~0/~", false],
 ["not a valid JSON-pointer (wrong escape character) #1", "/~2", false],
 ["not a valid JSON-pointer (wrong escape character) #2", "/~-1", false],
 ["not a valid JSON-pointer (multiple characters not escaped)", "/~~", false],
 ["not a valid JSON-pointer (isn't empty nor starts with /) #1", "a", false],
 ["not a valid JSON-pointer (isn't empty nor starts with /) #2", "0", false],
 ["not a valid JSON-pointer (isn't empty nor starts with /) #3", "a/a", false],
 ["valid JSON-pointer (Unicode characters allowed by RFC 6901)", "/foo/bar/😎", true],
 ["valid JSON-pointer (leading-zero reference token)", "/01", true],
 ["valid JSON-pointer (DEL character allowed by RFC 6901)", "/\u007f", true],
 ["not a valid JSON-pointer (URI fragment with a pointer tail)", "#/foo", false],
 ["not a valid JSON-pointer (dangling ~ after a NUL character)", "/foo\u0000~", false],
 ["valid JSON-pointer (right curly bracket U+007D)", "/}", true],
 ["valid JSON-pointer (fullwidth tilde is not an escape)", "/\uff5e", true],
 ["not a valid JSON-pointer (tilde then fullwidth digit)", "/~\uff10", false],
 ["valid JSON-pointer (control characters allowed after JSON unescaping)", "/foo\u0000bar\n\tbaz", true]
],
"relative-json-pointer": [
 ["a valid upwards RJP", "1", true],
 ["a valid downwards RJP", "0/foo/bar", true],
 ["a valid up and then down RJP, with array index", "2/0/baz/1/zip", true],
 ["a valid RJP taking the member or index name", "0#", true],
 ["a valid RJP with forward index manipulation", "0+1", true],
 ["a valid RJP with forward index manipulation and a JSON Pointer", "0+1/foo", true],
 ["a valid RJP with backward index manipulation and a JSON Pointer", "1-2/bar", true],
 ["a valid RJP with zero index manipulation", "0-0", true],
 ["a valid RJP with index manipulation taking the index name", "0-1#", true],
 ["an invalid RJP that is a valid JSON Pointer", "/foo/bar", false],
 ["a json-pointer part that does not start with a slash is invalid", "1foo", false],
 ["negative prefix", "-1/foo/bar", false],
 ["explicit positive prefix", "+1/foo/bar", false],
 ["index manipulation without an integer", "0+", false],
 ["index manipulation integer with a leading zero", "0-01", false],
 ["index manipulation with two signs", "0++1", false],
 ["index manipulation followed by an invalid JSON Pointer", "0+1not-a-pointer", false],
 ["non-ASCII digit in the prefix is not allowed", "١/foo", false],
 ["## is not a valid json-pointer", "0##", false],
 ["zero cannot be followed by other digits, plus json-pointer", "01/a", false],
 ["zero cannot be followed by other digits, plus octothorpe", "01#", false],
 ["empty string", "", false],
 ["multi-digit integer prefix", "120/foo/bar", true],
 ["multi-digit prefix with a zero followed by another digit", "100", true],
 ["tilde not followed by 0 or 1 in the json-pointer part", "0/~2", false],
 ["unescaped tilde at the end of the json-pointer part", "0/foo/bar~", false],
 ["octothorpe followed by a json-pointer", "1#/foo/bar", false],
 ["empty reference tokens in the json-pointer part", "0//", true],
 ["trailing newline after the non-negative integer", "1\n", false]
],
"uri-template": [
 ["a valid uri-template", "http://example.com/dictionary/{term:1}/{term}", true],
 ["an invalid uri-template", "http://example.com/dictionary/{term:1}/{term", false],
 ["a valid uri-template without variables", "http://example.com/dictionary", true],
 ["a valid relative uri-template", "dictionary/{term:1}/{term}", true],
 ["an empty expression is invalid", "{}", false],
 ["an empty varspec inside the variable list is invalid", "{a,,b}", false],
 ["a zero prefix max-length is invalid", "{v:0}", false],
 ["a five-digit prefix max-length is invalid", "{v:10000}", false],
 ["an empty string is a valid uri-template", "", true],
 ["an unmatched closing brace is invalid", "foo}bar", false],
 ["a percent-encoded triplet in a literal is valid", "a%41b", true],
 ["a literal with a lone percent sign is invalid", "a%", false],
 ["a literal with an incomplete percent-encoded triplet is invalid", "a%4", false],
 ["a literal with non-hex percent encoding is invalid", "a%GG", false],
 ["a supplementary plane character in a literal is valid", "a\ud83d\ude00b", true],
 ["a private-use character in a literal is valid", "a\ue000b", true],
 ["a supplementary private-use character in a literal is valid", "a\udb80\udc00b", true],
 ["reserved expansion operator", "{+var}", true],
 ["fragment expansion operator", "{#var}", true],
 ["label expansion operator", "{.var}", true],
 ["path segment expansion operator", "{/var}", true],
 ["path style parameter expansion operator", "{;var}", true],
 ["form style query expansion operator", "{?var}", true],
 ["form style query continuation operator", "{&var}", true],
 ["the explode modifier is valid", "{var*}", true],
 ["a variable list with more than one varspec is valid", "{x,y}", true],
 ["a dotted variable name is valid", "{a.b}", true],
 ["a double dot in a variable name is invalid", "{a..b}", false],
 ["a variable name may start with a percent-encoded triplet", "{%41}", true],
 ["a variable name with a lone percent sign is invalid", "{%}", false],
 ["a variable name with an incomplete percent-encoded triplet is invalid", "{%4}", false],
 ["a variable name with non-hex percent encoding is invalid", "{%GG}", false],
 ["a four-digit prefix max-length is valid", "{v:1000}", true],
 ["a leading zero in the prefix max-length is invalid", "{v:01}", false],
 ["a space in a literal is invalid", "a b", false],
 ["a delete character in a literal is invalid", "a\u007fb", false],
 ["a trailing comma in the variable list is invalid", "{a,}", false],
 ["a default value in a varspec is invalid", "{var=def}", false],
 ["an operator in place of the first varspec is invalid", "{,+var}", false],
 ["an apostrophe in a literal is valid", "a'b", true]
]
}
"###;

    #[test]
    fn json_schema_test_suite() {
        let suite: Value = serde_json::from_str(SUITE).expect("fixture is JSON");
        let mut failures = Vec::new();
        let mut checked = 0;
        for (format, cases) in suite.as_object().expect("fixture is an object") {
            for case in cases.as_array().expect("cases are an array") {
                let (Some(description), Some(data), Some(valid)) =
                    (case[0].as_str(), case[1].as_str(), case[2].as_bool())
                else {
                    panic!("malformed case {case}");
                };
                checked += 1;
                if check(format, data).map(|result| result.is_ok()) != Some(valid) {
                    failures.push(format!("{format}: {description}: {data:?}"));
                }
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        assert_eq!(checked, 556);
    }

    fn accepts(format: &str, text: &str) -> bool {
        check(format, text) == Some(Ok(()))
    }

    #[test]
    fn unknown_formats_and_regex_are_not_checked() {
        for format in ["regex", "idn-hostname", "int64", "color", ""] {
            assert!(!known(format), "{format}");
            assert_eq!(check(format, "(unclosed"), None, "{format}");
        }
        for rule in RULES {
            assert!(known(rule.name));
        }
    }

    #[test]
    fn failures_say_what_the_text_is_not() {
        assert_eq!(
            check("email", "nobody"),
            Some(Err("not an email address".to_owned()))
        );
        assert_eq!(
            check("ipv4", "1.2.3"),
            Some(Err("not an IPv4 address".to_owned()))
        );
    }

    #[test]
    fn email() {
        for valid in [
            "a@b.co",
            "first.last+tag@sub.example.org",
            "\"a\\\"b\"@x.io",
            "x@[IPv6:2001:db8::1]",
        ] {
            assert!(accepts("email", valid), "{valid}");
        }
        let too_long_local = format!("{}@example.com", "a".repeat(65));
        for invalid in [
            "a@b@c",
            "a@",
            "a..b@c.d",
            "ü@x.io",
            "a@[IPv6:1.2.3.4]",
            &too_long_local,
        ] {
            assert!(!accepts("email", invalid), "{invalid}");
        }
    }

    #[test]
    fn idn_email_allows_unicode_where_email_does_not() {
        for text in [
            "jürgen@bücher.de",
            "\"jü rgen\"@example.com",
            "用户@例子.广告",
        ] {
            assert!(accepts("idn-email", text), "{text}");
            assert!(!accepts("email", text), "{text}");
        }
        for invalid in ["jürgen@", "a b@c.de", "a@bü cher.de", "a\u{3000}b@c.de"] {
            assert!(!accepts("idn-email", invalid), "{invalid}");
        }
    }

    #[test]
    fn uri_and_iri() {
        assert!(accepts("uri", "weather://Oslo/current?units=metric"));
        assert!(accepts("uri", "file:///home/user/notes.txt"));
        assert!(accepts("uri", "http://[v7.a:b]/"));
        assert!(!accepts("uri", "http://[1.2.3.4]/"));
        assert!(!accepts("uri", "http://a/b#c#d"));
        assert!(accepts("uri-reference", "../up/one?x#y"));
        assert!(!accepts("uri-reference", "a b"));
        assert!(accepts("iri", "https://例子.测试/路径?查询=值#片段"));
        assert!(
            !accepts("iri", "https://example.org/\u{e000}"),
            "private use outside query"
        );
        assert!(accepts("iri", "https://example.org/?\u{e000}"));
        assert!(accepts("iri-reference", "../über"));
        assert!(!accepts("iri-reference", "a\u{7f}b"));
    }

    #[test]
    fn uuid_date_time_and_duration() {
        assert!(accepts("uuid", "123e4567-e89b-12d3-a456-426614174000"));
        assert!(!accepts("uuid", "{123e4567-e89b-12d3-a456-426614174000}"));
        assert!(accepts("date", "2000-02-29"));
        assert!(!accepts("date", "1900-02-29"));
        assert!(accepts("time", "00:00:00.0-23:59"));
        assert!(!accepts("time", "12:00:00.Z"));
        assert!(accepts("date-time", "2016-12-31T23:59:60Z"));
        assert!(!accepts("date-time", "2016-12-31 23:59:59Z"));
        assert!(accepts("duration", "P1Y2M3DT4H5M6S"));
        assert!(!accepts("duration", "p1d"));
        assert!(!accepts("duration", "PT1H1T"));
    }

    /// The suite's ipv4 file says nothing about leading zeros; we reject them because
    /// common parsers read `010` as octal 8, so the same text means different addresses.
    #[test]
    fn ipv4_rejects_leading_zeros() {
        for invalid in ["087.10.0.1", "192.168.00.1", "01.2.3.4", "1.2.3.04"] {
            assert!(!accepts("ipv4", invalid), "{invalid}");
        }
        assert!(accepts("ipv4", "10.0.0.1"));
    }

    #[test]
    fn ipv6() {
        for valid in [
            "2001:db8::8a2e:370:7334",
            "::ffff:10.0.0.1",
            "1:2:3:4:5:6:7::",
            "::2:3:4:5:6:7:8",
        ] {
            assert!(accepts("ipv6", valid), "{valid}");
        }
        for invalid in [
            "1:2:3:4:5:6:7:8::",
            "::1:2:3:4:5:6:7:8",
            "1:2:3:4:5:6:1.2.3.4:8",
            "::ffff:10.0.0.01",
        ] {
            assert!(!accepts("ipv6", invalid), "{invalid}");
        }
    }

    #[test]
    fn hostname_limits() {
        let label = "a".repeat(63);
        let at_limit = [label.as_str(); 4]
            .join(".")
            .chars()
            .take(253)
            .collect::<String>();
        assert!(accepts("hostname", &at_limit));
        let over_limit = format!("{at_limit}a");
        assert!(!accepts("hostname", &over_limit));
        for invalid in ["example.com.", ".", "a..b", "exa mple.com", "bücher.de"] {
            assert!(!accepts("hostname", invalid), "{invalid}");
        }
    }

    #[test]
    fn pointers_and_templates() {
        assert!(accepts("json-pointer", "/a~0b/~1"));
        assert!(!accepts("json-pointer", "/~"));
        assert!(accepts("relative-json-pointer", "3/a"));
        assert!(!accepts("relative-json-pointer", "3#a"));
        assert!(accepts("uri-template", "weather://{city}/current{?units}"));
        assert!(!accepts("uri-template", "weather://{city/current"));
    }
}

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
