//! The page's own address as options, and back (pure: no browser API; tested natively).
//!
//! One format serves the embed view (`?embed&url=...`), the full app's deep link (`?url=...`)
//! and the share dialog that builds both. Parsing is total: any query string gives options,
//! and whatever could not be used is a sentence in [`Address::problems`] (shown in the page),
//! never silently dropped. Nothing here reads or writes a secret: there is no token or header
//! parameter, and the share dialog never adds one.
//!
//! Values that reach CSS (`accent`, `font-size`) are validated to a canonical form here, so
//! the page never puts text from its address into a style.

use crate::protocol::era::VersionChoice;
use crate::protocol::transport_choice::TransportChoice;
use serde_json::{Map, Value};

/// What the address narrows the view to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetKind {
    Tool,
    Prompt,
    Resource,
}

impl TargetKind {
    pub const ALL: [TargetKind; 3] = [TargetKind::Tool, TargetKind::Prompt, TargetKind::Resource];

    /// The address parameter that names it.
    pub fn parameter(self) -> &'static str {
        match self {
            TargetKind::Tool => "tool",
            TargetKind::Prompt => "prompt",
            TargetKind::Resource => "resource",
        }
    }
}

/// One tool, prompt, resource or resource template (by its URI template), by name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub kind: TargetKind,
    pub name: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Theme {
    #[default]
    System,
    Light,
    Dark,
}

impl Theme {
    pub fn key(self) -> &'static str {
        match self {
            Theme::System => "system",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    fn from_key(key: &str) -> Option<Self> {
        [Theme::System, Theme::Light, Theme::Dark]
            .into_iter()
            .find(|t| t.key().eq_ignore_ascii_case(key.trim()))
    }
}

/// A colour given as hex (`#0b7285`, `0b7285`, `#08c`), kept as its red, green and blue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Accent(pub [u8; 3]);

impl Accent {
    pub fn parse(text: &str) -> Option<Self> {
        let hex = text.trim();
        let hex = hex.strip_prefix('#').unwrap_or(hex);
        if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let digit = |i: usize| u8::from_str_radix(&hex[i..i + 1], 16).ok();
        match hex.len() {
            3 => Some(Accent([digit(0)? * 17, digit(1)? * 17, digit(2)? * 17])),
            6 => {
                let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
                Some(Accent([byte(0)?, byte(2)?, byte(4)?]))
            }
            _ => None,
        }
    }

    /// `#rrggbb`: the only form of it that reaches CSS.
    pub fn css(self) -> String {
        let [r, g, b] = self.0;
        format!("#{r:02x}{g:02x}{b:02x}")
    }

    /// Text on the accent colour: black or white, whichever contrasts more (WCAG luminance).
    pub fn foreground(self) -> &'static str {
        let linear = |c: u8| {
            let c = f64::from(c) / 255.0;
            if c <= 0.04045 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        let [r, g, b] = self.0;
        let luminance = 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
        // Contrast with white: 1.05 / (L + 0.05); with black: (L + 0.05) / 0.05.
        if 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.05 {
            "#ffffff"
        } else {
            "#000000"
        }
    }
}

/// The base font size accepted from the address, in CSS pixels.
pub const FONT_SIZES: std::ops::RangeInclusive<u8> = 10..=32;

/// The page's options. `Address::default()` is the full app with nothing linked.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Address {
    /// The compact view for an iframe (`embed`).
    pub embed: bool,
    /// The server (`url`).
    pub url: Option<String>,
    /// A transport key (`auto`, `streamable-http`, `sse`: `TransportChoice::key`).
    pub transport: Option<String>,
    pub target: Option<Target>,
    /// Arguments for the target's form (`args`, a JSON object).
    pub args: Option<Map<String, Value>>,
    /// Connect at once instead of on a click (`connect`).
    pub connect: bool,
    pub theme: Theme,
    pub accent: Option<Accent>,
    /// `font-size`, in pixels.
    pub font_size: Option<u8>,
    /// What could not be used, one sentence each (not part of what [`build`] writes).
    pub problems: Vec<String>,
}

/// Whether a query string asks for the embed view: the one question the main module asks
/// before it knows which part of the app to fetch.
pub fn is_embed(query: &str) -> bool {
    pairs(query).any(|(name, value)| name == "embed" && flag(&value))
}

/// What a deployment lets its embedded widgets do beyond the default, from index.html's
/// `<meta name="mcp-lens-embed-allow" content="private-network sign-in">` (written by
/// `scripts/build.sh` from `MCP_LENS_EMBED_ALLOW`). By default a widget, which any page may
/// frame, reaches no address on the person's own machine or network and offers no sign-in:
/// a hostile page could frame it invisibly and catch a click.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EmbedAllow {
    pub private_network: bool,
    pub sign_in: bool,
}

impl EmbedAllow {
    /// The words of the meta's `content` (spaces or commas between them); unknown words are
    /// ignored.
    pub fn parse(content: &str) -> Self {
        let mut allow = EmbedAllow::default();
        for word in content.split([' ', ',']).map(str::trim) {
            match word {
                "private-network" => allow.private_network = true,
                "sign-in" => allow.sign_in = true,
                _ => {}
            }
        }
        allow
    }

    /// This page's setting.
    pub fn of_page() -> Self {
        let content = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| {
                d.query_selector("meta[name=\"mcp-lens-embed-allow\"]")
                    .ok()
                    .flatten()
            })
            .and_then(|meta| meta.get_attribute("content"))
            .unwrap_or_default();
        Self::parse(&content)
    }
}

/// A flag parameter: present (`&connect`, `&connect=1`) unless it says no.
fn flag(value: &str) -> bool {
    !matches!(
        value.trim().to_ascii_lowercase().as_str(),
        "0" | "false" | "no" | "off"
    )
}

/// The `name=value` pairs of a query string (with or without its `?`), decoded.
fn pairs(query: &str) -> impl Iterator<Item = (String, String)> + '_ {
    query
        .strip_prefix('?')
        .unwrap_or(query)
        .split('&')
        .filter(|part| !part.is_empty())
        .map(|part| match part.split_once('=') {
            Some((name, value)) => (decode(name), decode(value)),
            None => (decode(part), String::new()),
        })
}

/// `application/x-www-form-urlencoded` decoding: `+` is a space, `%XX` a byte; a `%` not
/// followed by two hex digits stays as it is; bytes that are not UTF-8 become U+FFFD.
fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => match hex_pair(bytes[i + 1], bytes[i + 2]) {
                Some(byte) => {
                    out.push(byte);
                    i += 2;
                }
                None => out.push(b'%'),
            },
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex_pair(high: u8, low: u8) -> Option<u8> {
    let value = |b: u8| (b as char).to_digit(16);
    Some((value(high)? * 16 + value(low)?) as u8)
}

/// Percent-encodes everything but the unreserved characters (RFC 3986), so a value reads
/// back the same through [`decode`] and through the browser's `URLSearchParams`.
fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Reads a query string (`location.search`). Total: never fails, never panics; the first of
/// a repeated parameter counts; unknown parameters are left to others (`version`).
pub fn parse(query: &str) -> Address {
    let mut address = Address::default();
    let mut seen: Vec<String> = Vec::new();
    let mut args_text = None;
    for (name, value) in pairs(query) {
        if seen.contains(&name) {
            continue;
        }
        seen.push(name.clone());
        match name.as_str() {
            "embed" => address.embed = flag(&value),
            "connect" => address.connect = flag(&value),
            "url" => address.url = Some(value.trim().to_owned()).filter(|u| !u.is_empty()),
            "transport" => match TransportChoice::from_key(value.trim()) {
                Some(choice) => address.transport = Some(choice.key().to_owned()),
                None => address.problems.push(format!(
                    "The transport \"{value}\" in the address is not one of auto, streamable-http, sse; Auto is used."
                )),
            },
            "tool" | "prompt" | "resource" => {
                let kind = TargetKind::ALL
                    .into_iter()
                    .find(|k| k.parameter() == name)
                    .unwrap_or(TargetKind::Tool);
                match &address.target {
                    Some(first) => address.problems.push(format!(
                        "The address names both a {} and a {}; only the {} \"{}\" is shown.",
                        first.kind.parameter(),
                        kind.parameter(),
                        first.kind.parameter(),
                        first.name
                    )),
                    None if value.is_empty() => address.problems.push(format!(
                        "The address has an empty {}= parameter; it is ignored.",
                        kind.parameter()
                    )),
                    None => address.target = Some(Target { kind, name: value }),
                }
            }
            "args" => args_text = Some(value),
            "theme" => match Theme::from_key(&value) {
                Some(theme) => address.theme = theme,
                None => address.problems.push(format!(
                    "The theme \"{value}\" in the address is not light, dark or system; the system's is used."
                )),
            },
            "accent" => match Accent::parse(&value) {
                Some(accent) => address.accent = Some(accent),
                None => address.problems.push(format!(
                    "The accent \"{value}\" in the address is not a hex colour such as 0b7285 or #0b7285; the default is used."
                )),
            },
            "font-size" => {
                let number = value.trim();
                let number = number.strip_suffix("px").unwrap_or(number);
                match number.parse::<u8>() {
                    Ok(size) if FONT_SIZES.contains(&size) => address.font_size = Some(size),
                    _ => address.problems.push(format!(
                        "The font-size \"{value}\" in the address is not a whole number of pixels from {} to {}; the default is used.",
                        FONT_SIZES.start(),
                        FONT_SIZES.end()
                    )),
                }
            }
            _ => {}
        }
    }
    if let Some(text) = args_text {
        match serde_json::from_str::<Value>(&text) {
            Ok(Value::Object(map)) => address.args = Some(map),
            Ok(_) => address.problems.push(
                "The arguments in the address (args) are JSON but not an object such as {\"message\": \"hi\"}; the form starts empty."
                    .to_owned(),
            ),
            Err(error) => address.problems.push(format!(
                "The arguments in the address (args) are not valid JSON ({error}); the form starts empty."
            )),
        }
    }
    if address.embed && address.url.is_none() {
        address
            .problems
            .push("The address names no server: add url=<the server's MCP endpoint>.".to_owned());
    }
    address
}

/// The parameters the full app's deep link uses; the others are the embed view's options.
const LINK_PARAMETERS: [&str; 7] = [
    "url",
    "transport",
    "version",
    "tool",
    "prompt",
    "resource",
    "args",
];

/// Reads the full app's deep link (`?url=..&tool=..&args=..`): [`parse`] over the parameters
/// the full app uses, so its problems are the link's (invalid `args` among them), while an
/// embed option left in the address (`theme`, `accent`, ...) is not reported where it does not
/// apply. A `version` that is not a protocol version the page speaks is a problem too.
pub fn parse_link(query: &str) -> Address {
    let kept: Vec<&str> = query
        .strip_prefix('?')
        .unwrap_or(query)
        .split('&')
        .filter(|part| {
            let name = part.split_once('=').map_or(*part, |(name, _)| name);
            LINK_PARAMETERS.contains(&decode(name).as_str())
        })
        .collect();
    let mut address = parse(&kept.join("&"));
    if let Some((_, value)) = pairs(query).find(|(name, _)| name == "version") {
        if VersionChoice::from_key(&value).is_none() {
            let known: Vec<&str> = VersionChoice::all()
                .into_iter()
                .map(VersionChoice::key)
                .collect();
            address.problems.push(format!(
                "The protocol version \"{value}\" in the address is not one of {}; Auto is used.",
                known.join(", ")
            ));
        }
    }
    address
}

/// Writes options as a query string, `?` included; [`parse`] reads it back unchanged.
/// Only what differs from the defaults is written.
pub fn build(address: &Address) -> String {
    let mut parts: Vec<String> = Vec::new();
    if address.embed {
        parts.push("embed".to_owned());
    }
    let mut put = |name: &str, value: &str| parts.push(format!("{name}={}", encode(value)));
    if let Some(url) = &address.url {
        put("url", url);
    }
    if let Some(transport) = &address.transport {
        put("transport", transport);
    }
    if let Some(target) = &address.target {
        put(target.kind.parameter(), &target.name);
    }
    if let Some(args) = &address.args {
        put("args", &Value::Object(args.clone()).to_string());
    }
    if address.theme != Theme::System {
        put("theme", address.theme.key());
    }
    if let Some(accent) = address.accent {
        put("accent", &accent.css());
    }
    if let Some(size) = address.font_size {
        put("font-size", &size.to_string());
    }
    if address.connect {
        parts.push("connect".to_owned());
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!("?{}", parts.join("&"))
    }
}

// Native only: proptest does not build for wasm32.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    #[test]
    fn embeds_are_allowed_only_what_the_deployment_names() {
        assert_eq!(EmbedAllow::parse(""), EmbedAllow::default());
        assert_eq!(
            EmbedAllow::parse("private-network, sign-in"),
            EmbedAllow {
                private_network: true,
                sign_in: true
            }
        );
        assert_eq!(
            EmbedAllow::parse("sign-in everything"),
            EmbedAllow {
                private_network: false,
                sign_in: true
            }
        );
    }

    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    #[test]
    fn an_embed_link_with_everything() {
        let a = parse(
            "?embed&url=http%3A%2F%2F127.0.0.1%3A3001%2Fmcp&tool=echo&args=%7B%22message%22%3A%22hi%20there%22%7D&connect&theme=dark&accent=%230B7285&font-size=18px",
        );
        assert!(a.embed && a.connect, "{a:?}");
        assert_eq!(a.url.as_deref(), Some("http://127.0.0.1:3001/mcp"));
        assert_eq!(
            a.target,
            Some(Target {
                kind: TargetKind::Tool,
                name: "echo".into()
            })
        );
        assert_eq!(a.args, json!({"message": "hi there"}).as_object().cloned());
        assert_eq!(a.theme, Theme::Dark);
        assert_eq!(a.accent.map(Accent::css).as_deref(), Some("#0b7285"));
        assert_eq!(a.font_size, Some(18));
        assert!(a.problems.is_empty(), "{:?}", a.problems);
    }

    #[test]
    fn invalid_args_are_reported_not_dropped() {
        let a = parse("?embed&url=x&tool=echo&args=%7Bmessage");
        assert_eq!(a.args, None);
        assert_eq!(a.problems.len(), 1);
        assert!(
            a.problems[0].contains("not valid JSON") && a.problems[0].contains("line 1"),
            "{:?}",
            a.problems
        );
        let a = parse("?args=%5B1%5D");
        assert!(a.problems[0].contains("not an object"), "{:?}", a.problems);
    }

    #[test]
    fn nothing_unvalidated_reaches_css() {
        for bad in [
            "red;}body{display:none",
            "url(x)",
            "#12345",
            "#gggggg",
            "var(--x)",
            "",
        ] {
            assert_eq!(Accent::parse(bad), None, "{bad}");
            let a = parse(&format!("?accent={}", encode(bad)));
            assert_eq!(a.accent, None);
            assert_eq!(a.problems.len(), 1, "{bad}: {:?}", a.problems);
        }
        assert_eq!(
            Accent::parse("08c").map(Accent::css).as_deref(),
            Some("#0088cc")
        );
        for bad in ["9", "33", "1e1", "16pt", "-1", "calc(100px)"] {
            let a = parse(&format!("?font-size={}", encode(bad)));
            assert_eq!(a.font_size, None, "{bad}");
            assert_eq!(a.problems.len(), 1);
        }
    }

    #[test]
    fn accent_foreground_contrasts() {
        assert_eq!(Accent([0xff, 0xff, 0x00]).foreground(), "#000000");
        assert_eq!(Accent([0x0b, 0x72, 0x85]).foreground(), "#ffffff");
    }

    #[test]
    fn unknown_options_say_so_and_keep_defaults() {
        let a = parse("?theme=pink&transport=carrier-pigeon&tool=&version=2025-06-18");
        assert_eq!(a.theme, Theme::System);
        assert_eq!(a.transport, None);
        assert_eq!(a.target, None);
        assert_eq!(a.problems.len(), 3, "{:?}", a.problems);
        // An embed without a server says what is missing.
        assert!(parse("?embed").problems[0].contains("url="));
    }

    #[test]
    fn two_targets_keep_the_first_and_say_so() {
        let a = parse("?prompt=p&tool=t");
        assert_eq!(a.target.unwrap().kind, TargetKind::Prompt);
        assert_eq!(a.problems.len(), 1);
    }

    #[test]
    fn flags_and_plus_and_stray_percent() {
        assert!(is_embed("?url=x&embed"));
        assert!(is_embed("embed=1"));
        assert!(!is_embed("?embed=false"));
        assert!(!is_embed("?embedded"));
        assert!(!is_embed(""));
        let a = parse("?url=a+b%zz%4");
        assert_eq!(a.url.as_deref(), Some("a b%zz%4"));
        assert!(!parse("?connect=0").connect);
    }

    #[test]
    fn build_writes_only_what_is_set() {
        assert_eq!(build(&Address::default()), "");
        let a = Address {
            url: Some("http://h/mcp?k=1&x".into()),
            target: Some(Target {
                kind: TargetKind::Resource,
                name: "demo://r/{id}".into(),
            }),
            ..Address::default()
        };
        assert_eq!(
            build(&a),
            "?url=http%3A%2F%2Fh%2Fmcp%3Fk%3D1%26x&resource=demo%3A%2F%2Fr%2F%7Bid%7D"
        );
    }

    #[test]
    fn the_full_apps_link_reports_its_own_problems_only() {
        let a = parse_link(
            "?url=http%3A%2F%2Fh%2Fmcp&tool=echo&args=%7B%22message%22&theme=pink&accent=red&version=2024-01-01",
        );
        assert_eq!(a.url.as_deref(), Some("http://h/mcp"));
        assert_eq!(a.target.as_ref().map(|t| t.name.as_str()), Some("echo"));
        assert_eq!(a.args, None);
        assert_eq!(a.problems.len(), 2, "{:?}", a.problems);
        assert!(a.problems[0].contains("not valid JSON"), "{:?}", a.problems);
        assert!(
            a.problems[1].contains("2024-01-01") && a.problems[1].contains("2025-06-18"),
            "{:?}",
            a.problems
        );
        // A good link has none; `embed` left in it changes nothing here.
        let a = parse_link("?embed&url=x&prompt=p&args=%7B%7D&version=2025-06-18&transport=sse");
        assert!(a.problems.is_empty() && !a.embed, "{a:?}");
        assert_eq!(a.transport.as_deref(), Some("sse"));
        assert!(parse_link("?transport=smoke").problems[0].contains("smoke"));
    }

    fn json_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            ".*".prop_map(Value::String),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::vec((".*", inner), 0..4)
                    .prop_map(|entries| Value::Object(entries.into_iter().collect())),
            ]
        })
    }

    fn address() -> impl Strategy<Value = Address> {
        let target = (0..3usize, ".+").prop_map(|(k, name)| Target {
            kind: TargetKind::ALL[k],
            name,
        });
        let args = prop::collection::vec((".*", json_value()), 0..4)
            .prop_map(|entries| entries.into_iter().collect::<Map<String, Value>>());
        (
            any::<bool>(),
            prop::option::of(".*".prop_map(|u: String| u.trim().to_owned())),
            prop::option::of(prop::sample::select(
                TransportChoice::ALL.map(TransportChoice::key).to_vec(),
            )),
            prop::option::of(target),
            prop::option::of(args),
            any::<bool>(),
            0..3usize,
            prop::option::of(any::<[u8; 3]>()),
            prop::option::of(FONT_SIZES),
        )
            .prop_map(
                |(embed, url, transport, target, args, connect, theme, accent, font_size)| {
                    let url = url.filter(|u| !u.is_empty());
                    let mut address = Address {
                        embed,
                        url: url.clone(),
                        transport: transport.map(str::to_owned),
                        target,
                        args,
                        connect,
                        theme: [Theme::System, Theme::Light, Theme::Dark][theme],
                        accent: accent.map(Accent),
                        font_size,
                        problems: Vec::new(),
                    };
                    if embed && url.is_none() {
                        address.url = Some("http://127.0.0.1/mcp".into());
                    }
                    address
                },
            )
    }

    proptest! {
        #[test]
        fn any_query_string_parses_without_panicking(query in ".*") {
            let _ = parse(&query);
            let _ = parse_link(&query);
            let _ = is_embed(&query);
        }

        #[test]
        fn any_bytes_as_percent_escapes_parse(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
            let query: String = bytes.iter().map(|b| format!("%{b:02X}")).collect();
            let _ = parse(&format!("?args={query}&url={query}&{query}={query}"));
        }

        #[test]
        fn build_then_parse_round_trips(address in address()) {
            let query = build(&address);
            prop_assert_eq!(parse(&query), address, "{}", query);
        }

        #[test]
        fn decode_undoes_encode(text in ".*") {
            prop_assert_eq!(decode(&encode(&text)), text);
        }
    }
}
