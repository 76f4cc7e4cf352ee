//! A special URL's host as the WHATWG URL Standard reads it: an IPv6 literal, or a domain
//! percent-decoded, lowercased and checked, read as IPv4 (in every base the standard allows)
//! when it ends in a number. The rest of the parser is in `url.rs`.

use super::error::UrlError;

/// The host parser for special URLs: an IPv6 literal, or a domain percent-decoded,
/// lowercased, checked for forbidden code points, and read as IPv4 when it ends in a number.
pub(super) fn parse_host(input: &str) -> Result<String, UrlError> {
    let invalid = || UrlError::InvalidHost {
        host: input.to_owned(),
    };
    if let Some(inner) = input.strip_prefix('[') {
        let inner = inner.strip_suffix(']').ok_or_else(invalid)?;
        let pieces = parse_ipv6(inner).ok_or_else(invalid)?;
        return Ok(format!("[{}]", serialize_ipv6(pieces)));
    }
    let decoded = percent_decode(input);
    let domain = String::from_utf8(decoded).map_err(|_| invalid())?;
    if !domain.is_ascii() {
        return Err(UrlError::InternationalHost {
            host: domain.to_owned(),
        });
    }
    let domain = domain.to_ascii_lowercase();
    if domain.is_empty() {
        return Err(invalid());
    }
    if domain.split('.').any(|label| label.starts_with("xn--")) {
        return Err(UrlError::InternationalHost { host: domain });
    }
    if domain.bytes().any(|b| {
        b <= 0x20
            || b == 0x7f
            || matches!(
                b,
                b'#' | b'%'
                    | b'/'
                    | b':'
                    | b'<'
                    | b'>'
                    | b'?'
                    | b'@'
                    | b'['
                    | b'\\'
                    | b']'
                    | b'^'
                    | b'|'
            )
    }) {
        return Err(invalid());
    }
    if !domain
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
    {
        return Err(UrlError::UnusualHost { host: domain });
    }
    match parse_ipv4(&domain) {
        Ok(Some(address)) => {
            let [a, b, c, d] = address.to_be_bytes();
            Ok(format!("{a}.{b}.{c}.{d}"))
        }
        Ok(None) => Ok(domain),
        Err(()) => Err(invalid()),
    }
}

/// `%XX` escapes undone (malformed ones kept as they are), as the standard decodes.
pub fn percent_decode(input: &str) -> Vec<u8> {
    let bytes = input.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(high), Some(low)) = (hex_value(bytes[i + 1]), hex_value(bytes[i + 2])) {
                out.push(high << 4 | low);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    out
}

fn hex_value(byte: u8) -> Option<u8> {
    (byte as char).to_digit(16).map(|d| d as u8)
}

/// The IPv4 parser: `Ok(None)` when the host does not end in a number (a domain), `Err`
/// when it does but is no valid address (the whole URL is then refused, as a browser does).
pub(super) fn parse_ipv4(host: &str) -> Result<Option<u32>, ()> {
    let mut parts: Vec<&str> = host.split('.').collect();
    if parts.len() > 1 && parts.last() == Some(&"") {
        parts.pop();
    }
    let Some(last) = parts.last() else {
        return Ok(None);
    };
    let ends_in_number = !last.is_empty()
        && (last.bytes().all(|b| b.is_ascii_digit()) || ipv4_number(last).is_some());
    if !ends_in_number {
        return Ok(None);
    }
    if parts.len() > 4 {
        return Err(());
    }
    let mut numbers = Vec::with_capacity(4);
    for part in &parts {
        numbers.push(ipv4_number(part).ok_or(())?);
    }
    let (last, init) = numbers.split_last().ok_or(())?;
    if init.iter().any(|&n| n > 255) {
        return Err(());
    }
    if *last >= 256u64.pow(5 - numbers.len() as u32) {
        return Err(());
    }
    let mut address = *last;
    for (i, n) in init.iter().enumerate() {
        address += n * 256u64.pow(3 - i as u32);
    }
    u32::try_from(address).map(Some).map_err(|_| ())
}

/// One IPv4 part: decimal, `0x` hexadecimal, or octal with a leading zero.
fn ipv4_number(part: &str) -> Option<u64> {
    if part.is_empty() {
        return None;
    }
    let (digits, radix) =
        if let Some(hex) = part.strip_prefix("0x").or_else(|| part.strip_prefix("0X")) {
            (hex, 16)
        } else if part.len() > 1 && part.starts_with('0') {
            (&part[1..], 8)
        } else {
            (part, 10)
        };
    if digits.is_empty() {
        return Some(0);
    }
    if !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    // Anything this long is over 2^32 whatever its base; saturate instead of overflowing.
    let digits = digits.trim_start_matches('0');
    if digits.len() > 12 {
        return Some(u64::MAX / 2);
    }
    u64::from_str_radix(if digits.is_empty() { "0" } else { digits }, radix).ok()
}

/// The IPv6 parser of the standard (compression, an embedded IPv4 tail).
pub(super) fn parse_ipv6(input: &str) -> Option<[u16; 8]> {
    let chars: Vec<char> = input.chars().collect();
    let mut address = [0u16; 8];
    let mut piece_index = 0usize;
    let mut compress: Option<usize> = None;
    let mut pointer = 0usize;
    let at = |i: usize| chars.get(i).copied();
    if at(0) == Some(':') {
        if at(1) != Some(':') {
            return None;
        }
        pointer += 2;
        piece_index += 1;
        compress = Some(piece_index);
    }
    while let Some(c) = at(pointer) {
        if piece_index == 8 {
            return None;
        }
        if c == ':' {
            if compress.is_some() {
                return None;
            }
            pointer += 1;
            piece_index += 1;
            compress = Some(piece_index);
            continue;
        }
        let mut value: u32 = 0;
        let mut length = 0;
        while length < 4 {
            match at(pointer).and_then(|c| c.to_digit(16)) {
                Some(digit) => {
                    value = value * 16 + digit;
                    pointer += 1;
                    length += 1;
                }
                None => break,
            }
        }
        if at(pointer) == Some('.') {
            if length == 0 {
                return None;
            }
            pointer -= length;
            if piece_index > 6 {
                return None;
            }
            let mut numbers_seen = 0;
            while at(pointer).is_some() {
                let mut ipv4_piece: Option<u32> = None;
                if numbers_seen > 0 {
                    if at(pointer) == Some('.') && numbers_seen < 4 {
                        pointer += 1;
                    } else {
                        return None;
                    }
                }
                if !at(pointer).is_some_and(|c| c.is_ascii_digit()) {
                    return None;
                }
                while let Some(digit) = at(pointer).and_then(|c| c.to_digit(10)) {
                    match ipv4_piece {
                        None => ipv4_piece = Some(digit),
                        Some(0) => return None,
                        Some(n) => ipv4_piece = Some(n * 10 + digit),
                    }
                    if ipv4_piece > Some(255) {
                        return None;
                    }
                    pointer += 1;
                }
                let piece = address[piece_index] as u32 * 0x100 + ipv4_piece.unwrap_or(0);
                address[piece_index] = piece as u16;
                numbers_seen += 1;
                if numbers_seen == 2 || numbers_seen == 4 {
                    piece_index += 1;
                }
            }
            if numbers_seen != 4 {
                return None;
            }
            break;
        } else if at(pointer) == Some(':') {
            pointer += 1;
            at(pointer)?;
        } else if at(pointer).is_some() {
            return None;
        }
        address[piece_index] = value as u16;
        piece_index += 1;
    }
    if let Some(compress) = compress {
        let mut swaps = piece_index - compress;
        piece_index = 7;
        while piece_index != 0 && swaps > 0 {
            address.swap(piece_index, compress + swaps - 1);
            piece_index -= 1;
            swaps -= 1;
        }
    } else if piece_index != 8 {
        return None;
    }
    Some(address)
}

/// The IPv6 serializer: lowercase hex, the first longest run of two or more zero pieces
/// compressed to `::`.
fn serialize_ipv6(pieces: [u16; 8]) -> String {
    let mut best: Option<(usize, usize)> = None;
    let mut i = 0;
    while i < 8 {
        if pieces[i] == 0 {
            let start = i;
            while i < 8 && pieces[i] == 0 {
                i += 1;
            }
            let length = i - start;
            if length > 1 && best.is_none_or(|(_, best_length)| length > best_length) {
                best = Some((start, length));
            }
        } else {
            i += 1;
        }
    }
    let mut out = String::new();
    let mut i = 0;
    while i < 8 {
        if let Some((start, length)) = best {
            if i == start {
                out.push_str(if i == 0 { "::" } else { ":" });
                i += length;
                continue;
            }
        }
        out.push_str(&format!("{:x}", pieces[i]));
        if i < 7 {
            out.push(':');
        }
        i += 1;
    }
    out
}
