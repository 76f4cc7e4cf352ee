use super::*;
use serde_json::Value;

/// The shared corpus (also read by the in-browser check against Chromium's `URL`).
pub(crate) const CORPUS: &str = include_str!("corpus.json");

fn corpus() -> Vec<(String, Option<String>)> {
    let cases: Vec<Value> = serde_json::from_str(CORPUS).expect("corpus.json is JSON");
    cases
        .iter()
        .map(|case| {
            (
                case["input"].as_str().expect("input").to_owned(),
                case["base"].as_str().map(str::to_owned),
            )
        })
        .collect()
}

/// What the `url` crate (a WHATWG implementation) reads: `Some(href)` for an http(s) URL.
#[cfg(not(target_arch = "wasm32"))]
fn twin(input: &str, base: Option<&str>) -> Option<String> {
    let parsed = match base {
        Some(base) => ::url::Url::parse(base).ok()?.join(input).ok()?,
        None => ::url::Url::parse(input).ok()?,
    };
    matches!(parsed.scheme(), "http" | "https").then(|| parsed.as_str().to_owned())
}

fn ours(input: &str, base: Option<&str>) -> Result<WebUrl, UrlError> {
    match base {
        Some(base) => WebUrl::parse(base)?.join(input),
        None => WebUrl::parse(input),
    }
}

/// The rule the corpus checks: whatever this parser accepts, the twin reads identically;
/// what it refuses but the twin accepts is only what implementations read differently (a
/// host needing IDNA or with unusual characters, a reference with three leading slashes).
#[cfg(not(target_arch = "wasm32"))]
fn agrees_with_twin(input: &str, base: Option<&str>) -> Result<(), String> {
    match (ours(input, base), twin(input, base)) {
        (Ok(url), Some(href)) if same_reading(url.href(), &href) => Ok(()),
        (Ok(url), twin) => Err(format!(
            "{input:?} (base {base:?}): ours {:?}, the url crate {twin:?}",
            url.href()
        )),
        (
            Err(
                UrlError::InternationalHost { .. }
                | UrlError::UnusualHost { .. }
                | UrlError::Ambiguous { .. },
            ),
            Some(_),
        )
        | (Err(_), None) => Ok(()),
        (Err(error), Some(href)) => Err(format!(
            "{input:?} (base {base:?}): ours refused ({error}), the url crate read {href:?}"
        )),
    }
}

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn the_corpus_reads_as_the_url_crate_reads_it() {
    let failures: Vec<String> = corpus()
        .iter()
        .filter_map(|(input, base)| agrees_with_twin(input, base.as_deref()).err())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_backslash_ends_the_authority_as_a_browser_reads_it() {
    let url = WebUrl::parse("https://evil.example\\@good.example/mcp").unwrap();
    assert_eq!(url.origin(), "https://evil.example");
    assert!(!url.has_credentials());
    // Decoded from a query parameter, `%5C` is a backslash; left encoded it is userinfo.
    let url = WebUrl::parse("https://evil.example%5C@good.example/mcp").unwrap();
    assert_eq!(url.origin(), "https://good.example");
    assert_eq!(url.username(), "evil.example%5C");
}

#[test]
fn userinfo_runs_to_the_last_at_sign() {
    let url = WebUrl::parse("http://a@b@c/").unwrap();
    assert_eq!(url.origin(), "http://c");
    assert_eq!(url.href(), "http://a%40b@c/");
    assert_eq!(url.without_credentials().href(), "http://c/");
    let url = WebUrl::parse("http://user:PASSW0RD@host/mcp").unwrap();
    assert_eq!((url.username(), url.password()), ("user", Some("PASSW0RD")));
    assert!(!format!("{url:?} {url}").contains("PASSW0RD"));
}

#[test]
fn tabs_and_newlines_vanish_wherever_they_are() {
    assert_eq!(
        WebUrl::parse("http://e\tvil.ex\nample/").unwrap().origin(),
        "http://evil.example"
    );
}

#[test]
fn hosts_in_every_ipv4_base_are_read_as_addresses() {
    for (input, host) in [
        ("http://127.1/", "127.0.0.1"),
        ("http://0x7f.1/", "127.0.0.1"),
        ("http://2130706433/", "127.0.0.1"),
        ("http://0177.0.0.1/", "127.0.0.1"),
        ("http://%31%32%37.0.0.1/", "127.0.0.1"),
    ] {
        let url = WebUrl::parse(input).unwrap();
        assert_eq!(url.host_str(), host, "{input}");
        assert!(url.is_loopback(), "{input}");
    }
    for refused in ["http://127.0.0.256/", "http://09/", "http://1.2.3.4.5/"] {
        assert!(WebUrl::parse(refused).is_err(), "{refused}");
    }
}

#[test]
fn loopback_means_the_literal_addresses_and_localhost() {
    for yes in [
        "http://127.0.0.1:3001/",
        "http://127.9.8.7/",
        "http://[::1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://localhost:8000/",
        "http://LOCALHOST./",
    ] {
        assert!(WebUrl::parse(yes).unwrap().is_loopback(), "{yes}");
    }
    for no in [
        "http://127.evil.example/",
        "http://localhost.evil.example/",
        "http://evil.localhost.example/",
        "http://10.0.0.1/",
        "https://example.com/",
    ] {
        assert!(!WebUrl::parse(no).unwrap().is_loopback(), "{no}");
    }
}

#[test]
fn private_networks_are_named_by_address_and_by_local_names() {
    for yes in [
        "http://127.0.0.1/",
        "http://10.1.2.3/",
        "http://172.16.0.1/",
        "http://172.31.255.255/",
        "http://192.168.1.1/",
        "http://169.254.169.254/",
        "http://100.64.0.1/",
        "http://0.0.0.0/",
        "http://[fd00::1]/",
        "http://[fe80::1]/",
        "http://[::ffff:10.0.0.1]/",
        "http://intranet/",
        "http://printer.local/",
        "http://db.internal/",
        "http://app.localhost/",
    ] {
        assert!(WebUrl::parse(yes).unwrap().is_private_network(), "{yes}");
    }
    for no in [
        "https://example.com/",
        "http://172.32.0.1/",
        "http://8.8.8.8/",
        "http://[2001:db8::1]/",
        "http://local.example.com/",
    ] {
        assert!(!WebUrl::parse(no).unwrap().is_private_network(), "{no}");
    }
}

#[test]
fn references_resolve_against_a_base() {
    let base = WebUrl::parse("http://h:1/api/v1/sse?x=1").unwrap();
    assert_eq!(
        base.join("messages/?session_id=9").unwrap().href(),
        "http://h:1/api/v1/messages/?session_id=9"
    );
    assert_eq!(base.join("/m").unwrap().href(), "http://h:1/m");
    assert_eq!(
        base.join("\\\\evil.example/m").unwrap().origin(),
        "http://evil.example"
    );
    assert_eq!(base.join("?y").unwrap().href(), "http://h:1/api/v1/sse?y");
    assert_eq!(
        base.join("#f").unwrap().href(),
        "http://h:1/api/v1/sse?x=1#f"
    );
    assert!(base.join("javascript:alert(1)").is_err());
}

#[test]
fn refusals_say_why() {
    assert_eq!(WebUrl::parse(""), Err(UrlError::Empty));
    assert_eq!(WebUrl::parse("/mcp"), Err(UrlError::Relative));
    assert!(matches!(
        WebUrl::parse("ftp://h/"),
        Err(UrlError::NotHttp { .. })
    ));
    assert_eq!(WebUrl::parse("http://"), Err(UrlError::MissingHost));
    assert_eq!(WebUrl::parse("http://h:99999/"), Err(UrlError::InvalidPort));
    assert!(matches!(
        WebUrl::parse("http://münchen.example/"),
        Err(UrlError::InternationalHost { .. })
    ));
    assert!(UrlError::InvalidPort.to_string().contains("port"));
}

#[test]
fn parts_are_slices_of_the_href() {
    let url = WebUrl::parse("https://u:p@[::1]:8443/a/b?c=d#e").unwrap();
    assert_eq!(url.scheme(), "https");
    assert_eq!(url.host_str(), "[::1]");
    assert_eq!(url.port(), Some(8443));
    assert_eq!(url.path(), "/a/b");
    assert_eq!(url.query(), Some("c=d"));
    assert_eq!(url.fragment(), Some("e"));
    assert_eq!(url.without_fragment(), "https://u:p@[::1]:8443/a/b?c=d");
    assert_eq!(url.origin(), "https://[::1]:8443");
    let plain = WebUrl::parse("http://h").unwrap();
    assert_eq!(
        (plain.path(), plain.query(), plain.password()),
        ("/", None, None)
    );
    assert_eq!(plain.port_or_default(), 80);
}

#[cfg(not(target_arch = "wasm32"))]
mod properties {
    use super::*;
    use proptest::prelude::*;

    /// Text made of the characters URL parsers disagree on.
    fn tricky() -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            Just("http://".to_owned()),
            Just("https:".to_owned()),
            Just("/".to_owned()),
            Just("\\".to_owned()),
            Just("@".to_owned()),
            Just(":".to_owned()),
            Just("?".to_owned()),
            Just("#".to_owned()),
            Just("%".to_owned()),
            Just("%2e".to_owned()),
            Just("%5C".to_owned()),
            Just("%40".to_owned()),
            Just(".".to_owned()),
            Just("..".to_owned()),
            Just("[".to_owned()),
            Just("]".to_owned()),
            Just("\t".to_owned()),
            Just("\n".to_owned()),
            Just(" ".to_owned()),
            Just("0x".to_owned()),
            Just("127".to_owned()),
            Just("ü".to_owned()),
            "[a-fA-F0-9]{1,4}",
            "[a-z]{1,5}",
        ];
        proptest::collection::vec(piece, 0..12).prop_map(|pieces| pieces.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]
        #[test]
        fn any_text_reads_as_the_url_crate_reads_it_or_is_refused(text in tricky()) {
            agrees_with_twin(&text, None).map_err(TestCaseError::fail)?;
        }

        #[test]
        fn any_reference_resolves_as_the_url_crate_resolves_it(text in tricky()) {
            agrees_with_twin(&text, Some("http://u:p@h:81/a/b?q#f")).map_err(TestCaseError::fail)?;
        }

        #[test]
        fn equal_origin_keys_mean_equal_origins(a in tricky(), b in tricky()) {
            if let (Some(key_a), Some(key_b)) = (origin_key(&a), origin_key(&b)) {
                if key_a == key_b {
                    if let (Ok(url_a), Ok(url_b)) = (WebUrl::parse(&a), WebUrl::parse(&b)) {
                        prop_assert_eq!(url_a.origin(), url_b.origin());
                    }
                }
            }
        }

        #[test]
        fn an_origin_key_is_the_origin_of_its_own_text(text in tricky()) {
            // A text compared with itself spelled as the browser writes its origin.
            if let (Some(key), Ok(url)) = (origin_key(&text), WebUrl::parse(&text)) {
                if let Some(again) = origin_key(&url.origin()) {
                    if again == key {
                        prop_assert_eq!(WebUrl::parse(&url.origin()).unwrap().origin(), url.origin());
                    }
                }
            }
        }

        #[test]
        fn an_href_reads_back_as_itself(text in tricky()) {
            if let Ok(url) = WebUrl::parse(&text) {
                let again = WebUrl::parse(url.href()).unwrap();
                prop_assert_eq!(again.href(), url.href());
            }
        }
    }
}
