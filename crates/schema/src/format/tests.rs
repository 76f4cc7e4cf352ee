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
