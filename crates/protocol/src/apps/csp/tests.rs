use super::local::whatwg_ipv4;
use super::*;
use serde_json::{json, Value};

#[test]
fn sources_on_the_persons_machine_or_network_are_reported() {
    let local = [
        ("http://127.0.0.1:9", LocalReach::Loopback),
        ("http://127.255.0.7", LocalReach::Loopback),
        ("http://127.1", LocalReach::Loopback),
        ("http://0x7f.0.0.1", LocalReach::Loopback),
        ("http://0177.0.0.1", LocalReach::Loopback),
        ("http://0.0.0.0:8000", LocalReach::Loopback),
        ("ws://localhost:5173", LocalReach::Loopback),
        ("http://app.localhost", LocalReach::Loopback),
        ("http://[::1]:3000", LocalReach::Loopback),
        ("http://[::ffff:127.0.0.1]", LocalReach::Loopback),
        ("http://10.0.0.1", LocalReach::PrivateNetwork),
        ("http://172.16.0.1", LocalReach::PrivateNetwork),
        ("http://172.31.255.255", LocalReach::PrivateNetwork),
        ("http://192.168.1.1", LocalReach::PrivateNetwork),
        ("http://[fc00::1]", LocalReach::PrivateNetwork),
        ("http://[fd12:3456::1]", LocalReach::PrivateNetwork),
        ("http://169.254.169.254", LocalReach::LinkLocal),
        ("http://[fe80::1]", LocalReach::LinkLocal),
        ("http://[febf::1]", LocalReach::LinkLocal),
        ("https://printer.local", LocalReach::LocalName),
        ("https://*.corp.local", LocalReach::LocalName),
        ("https://nas.home.arpa", LocalReach::LocalName),
        ("https://db.internal", LocalReach::LocalName),
    ];
    let public = [
        "https://api.example.com",
        "https://*.example.com",
        "http://172.32.0.1",
        "http://172.15.255.255",
        "http://192.169.0.1",
        "http://11.0.0.1",
        "http://128.0.0.1",
        "http://[2001:db8::1]",
        "http://[fec0::1]",
        "https://local.example.com",
        "https://localhost.example.com",
        "https://127.0.0.1.nip.io",
        "https://1a.2",
    ];
    let declared: Vec<&str> = local
        .iter()
        .map(|(source, _)| *source)
        .chain(public)
        .collect();
    let csp = CspDecl::from_value(Some(&json!({ "connectDomains": declared })));
    assert!(csp.rejected.is_empty(), "{:?}", csp.rejected);
    let found: Vec<(String, LocalReach)> = csp
        .local_sources()
        .into_iter()
        .map(|s| (s.source, s.reach))
        .collect();
    let expected: Vec<(String, LocalReach)> = local
        .iter()
        .map(|(source, reach)| (check_source(source, CspList::Connect).unwrap(), *reach))
        .collect();
    assert_eq!(found, expected);
    // Every list is read, and the sentence names the list, the source and the reach.
    let csp = CspDecl::from_value(Some(&json!({
        "resourceDomains": ["http://192.168.0.2"],
        "frameDomains": ["http://localhost:8080"],
        "baseUriDomains": ["http://10.1.1.1"],
    })));
    let sentences: Vec<String> = csp
        .local_sources()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        sentences,
        [
            "resourceDomains names http://192.168.0.2, a private network address: your local network: the app may reach what runs there.",
            "frameDomains names http://localhost:8080, a loopback address: this computer: the app may reach what runs there.",
            "baseUriDomains names http://10.1.1.1, a private network address: your local network: the app may reach what runs there.",
        ]
    );
}

#[test]
fn ipv4_is_read_as_the_browser_reads_it() {
    for (host, address) in [
        ("127.0.0.1", Some(0x7f00_0001)),
        ("127.1", Some(0x7f00_0001)),
        ("127.0.1", Some(0x7f00_0001)),
        ("0x7f000001", Some(0x7f00_0001)),
        ("2130706433", Some(0x7f00_0001)),
        ("017700000001", Some(0x7f00_0001)),
        ("0xc0.0xa8.0x1.0x1", Some(0xc0a8_0101)),
        ("192.168.1.1.", None), // trailing dot handled by the caller
        ("256.0.0.1", None),
        ("1.2.3.4.5", None),
        ("1.2.3.256", None),
        ("example.com", None),
        ("1.2.3.x", None),
    ] {
        assert_eq!(whatwg_ipv4(host), address, "{host}");
    }
    assert_eq!(
        local_reach("192.168.1.1."),
        Some(LocalReach::PrivateNetwork)
    );
    assert_eq!(local_reach("1.2.3.4.5"), None);
}

fn ok(text: &str, list: CspList) -> String {
    check_source(text, list).unwrap_or_else(|r| panic!("{text}: {r}"))
}

#[test]
fn spec_examples_are_accepted() {
    // spec.types.ts McpUiResourceCsp @example values.
    assert_eq!(
        ok("https://api.weather.com", CspList::Connect),
        "https://api.weather.com"
    );
    assert_eq!(
        ok("wss://realtime.service.com", CspList::Connect),
        "wss://realtime.service.com"
    );
    assert_eq!(
        ok("https://cdn.jsdelivr.net", CspList::Resource),
        "https://cdn.jsdelivr.net"
    );
    assert_eq!(
        ok("https://*.cloudflare.com", CspList::Resource),
        "https://*.cloudflare.com"
    );
    assert_eq!(
        ok("https://www.youtube.com", CspList::Frame),
        "https://www.youtube.com"
    );
    assert_eq!(
        ok("https://cdn.example.com", CspList::BaseUri),
        "https://cdn.example.com"
    );
    // Development servers, addresses, ports, paths, punycode.
    assert_eq!(
        ok("http://localhost:3000", CspList::Resource),
        "http://localhost:3000"
    );
    assert_eq!(
        ok("http://127.0.0.1:8080", CspList::Connect),
        "http://127.0.0.1:8080"
    );
    assert_eq!(
        ok("http://[::1]:5173", CspList::Connect),
        "http://[::1]:5173"
    );
    assert_eq!(
        ok("HTTPS://CDN.Example.com/npm/lib@1.2/", CspList::Resource),
        "https://cdn.example.com/npm/lib@1.2/"
    );
    assert_eq!(
        ok("https://xn--bcher-kva.example", CspList::Resource),
        "https://xn--bcher-kva.example"
    );
    // Without a scheme: https.
    assert_eq!(
        ok("cdn.example.com", CspList::Resource),
        "https://cdn.example.com"
    );
    assert_eq!(
        ok("localhost:8080", CspList::Resource),
        "https://localhost:8080"
    );
}

#[test]
fn injection_attempts_are_refused_with_a_reason() {
    use SourceRefusal as R;
    let cases: [(&str, CspList, SourceRefusal); 27] = [
        (
            "https://a.com; script-src *",
            CspList::Connect,
            R::Forbidden(';'),
        ),
        (
            "https://a.com,https://b.com",
            CspList::Connect,
            R::Forbidden(','),
        ),
        ("'unsafe-inline'", CspList::Resource, R::Forbidden('\'')),
        ("\"https://a.com\"", CspList::Resource, R::Forbidden('"')),
        (
            "https://a.com https://b.com",
            CspList::Resource,
            R::Characters,
        ),
        (
            "https://a.com\nscript-src *",
            CspList::Resource,
            R::Characters,
        ),
        (" https://a.com", CspList::Resource, R::Characters),
        ("https://a.com\u{202E}", CspList::Resource, R::Characters),
        ("https://bücher.example", CspList::Resource, R::Characters),
        ("", CspList::Resource, R::Characters),
        ("*", CspList::Connect, R::Wildcard),
        ("https://*", CspList::Connect, R::Wildcard),
        ("https://*.com", CspList::Resource, R::Wildcard),
        ("https://a*.example.com", CspList::Resource, R::Wildcard),
        ("https://*.*.example.com", CspList::Resource, R::Wildcard),
        ("data:", CspList::Resource, R::SchemeOnly),
        ("blob:", CspList::Resource, R::SchemeOnly),
        ("https:", CspList::Connect, R::SchemeOnly),
        ("javascript:alert(1)", CspList::Resource, R::SchemeOnly),
        (
            "ftp://files.example.com",
            CspList::Resource,
            R::Scheme("ftp".into()),
        ),
        (
            "wss://realtime.example.com",
            CspList::Resource,
            R::Scheme("wss".into()),
        ),
        (
            "https://user@evil.example.com",
            CspList::Connect,
            R::UserInfo,
        ),
        ("https://a.com/?x=1", CspList::Connect, R::QueryOrFragment),
        ("self", CspList::Connect, R::SingleLabel),
        ("https://a.com:0", CspList::Connect, R::Port),
        ("https://a.com:99999", CspList::Connect, R::Port),
        ("https://a.com/%zz", CspList::Connect, R::Path),
    ];
    for (text, list, reason) in cases {
        assert_eq!(check_source(text, list), Err(reason), "{text:?}");
    }
    for host in [
        "https://-a.com",
        "https://a..com",
        "https://a.com.",
        "https://[zz]",
        "https://a_b.com",
    ] {
        assert_eq!(
            check_source(host, CspList::Connect),
            Err(SourceRefusal::Host),
            "{host}"
        );
    }
    assert_eq!(
        check_source(
            &format!("https://{}.com", "a".repeat(600)),
            CspList::Connect
        ),
        Err(SourceRefusal::TooLong)
    );
    assert_eq!(
        check_source("https://a.com/*", CspList::Connect),
        Err(SourceRefusal::Path)
    );
}

#[test]
fn nothing_declared_is_no_network() {
    // The spec's "Restrictive Default" (connect-src 'none', default-src 'none'), with the
    // reference host's frame-src/object-src/base-uri.
    let policy = CspDecl::from_value(None).policy();
    assert_eq!(
        policy,
        "default-src 'none'; \
         script-src 'self' 'unsafe-inline' 'unsafe-eval' blob: data:; \
         style-src 'self' 'unsafe-inline' blob: data:; \
         img-src 'self' data: blob:; font-src 'self' data: blob:; media-src 'self' data: blob:; \
         connect-src 'none'; worker-src 'self' blob:; frame-src 'none'; object-src 'none'; \
         base-uri 'none'; form-action 'none'"
    );
    assert!(!CspDecl::from_value(Some(&Value::Null)).reaches_network());
    assert_eq!(CspDecl::from_value(Some(&json!({}))).policy(), policy);
}

#[test]
fn declared_domains_go_where_the_spec_maps_them() {
    // The spec's resource content example (weather dashboard).
    let csp = CspDecl::from_value(Some(&json!({
        "connectDomains": ["https://api.openweathermap.org"],
        "resourceDomains": ["https://cdn.jsdelivr.net"],
        "frameDomains": ["https://www.youtube.com", "https://player.vimeo.com"],
        "baseUriDomains": ["https://cdn.example.com"]
    })));
    assert!(csp.rejected.is_empty());
    assert!(csp.reaches_network());
    let policy = csp.policy();
    for directive in [
        "script-src",
        "style-src",
        "img-src",
        "font-src",
        "media-src",
        "worker-src",
    ] {
        let d = policy
            .split("; ")
            .find(|d| d.starts_with(directive))
            .unwrap();
        assert!(d.ends_with(" https://cdn.jsdelivr.net"), "{d}");
    }
    assert!(policy.contains("; connect-src https://api.openweathermap.org;"));
    assert!(policy.contains("; frame-src https://www.youtube.com https://player.vimeo.com;"));
    assert!(policy.contains("; base-uri https://cdn.example.com;"));
    assert_eq!(
        csp.to_json(),
        json!({
            "connectDomains": ["https://api.openweathermap.org"],
            "resourceDomains": ["https://cdn.jsdelivr.net"],
            "frameDomains": ["https://www.youtube.com", "https://player.vimeo.com"],
            "baseUriDomains": ["https://cdn.example.com"]
        })
    );
}

#[test]
fn wrong_shapes_and_floods_are_reported_not_passed() {
    let csp = CspDecl::from_value(Some(&json!("connect-src *")));
    assert_eq!(csp.rejected[0].reason, SourceRefusal::NotAList);
    assert!(!csp.reaches_network());
    let csp = CspDecl::from_value(Some(&json!({
        "connectDomains": "https://a.com",
        "resourceDomains": [1, null, "https://b.com", "https://B.com"]
    })));
    assert!(csp.connect.is_empty());
    assert_eq!(csp.resource, ["https://b.com"]);
    let reasons: Vec<_> = csp
        .rejected
        .iter()
        .map(|r| (r.list, r.reason.clone()))
        .collect();
    assert_eq!(
        reasons,
        [
            (Some(CspList::Connect), SourceRefusal::NotAList),
            (Some(CspList::Resource), SourceRefusal::NotAString),
            (Some(CspList::Resource), SourceRefusal::NotAString),
        ]
    );
    let many: Vec<String> = (0..1000)
        .map(|i| format!("https://h{i}.example.com"))
        .collect();
    let csp = CspDecl::from_value(Some(&json!({ "connectDomains": many })));
    assert_eq!(csp.connect.len(), MAX_SOURCES);
    assert_eq!(
        csp.rejected.last().unwrap().reason,
        SourceRefusal::TooMany(1000 - MAX_SOURCES)
    );
    // Shown entries reveal invisible characters and are short.
    let csp = CspDecl::from_value(Some(&json!({ "frameDomains": ["https://a.com\u{202E}x"] })));
    assert_eq!(csp.rejected[0].entry, "https://a.com⟦U+202E⟧x");
}

#[test]
fn permissions_follow_javascript_truthiness_and_the_grant() {
    let requested = Permissions::from_value(Some(&json!({
        "camera": {}, "microphone": true, "geolocation": false, "clipboardWrite": {}
    })));
    assert_eq!(
        requested,
        Permissions {
            camera: true,
            microphone: true,
            geolocation: false,
            clipboard_write: true
        }
    );
    let all = Permissions {
        camera: true,
        microphone: true,
        geolocation: true,
        clipboard_write: true,
    };
    // buildAllowAttribute's order and separator.
    assert_eq!(
        requested.allow_attribute(all),
        "camera; microphone; clipboard-write"
    );
    assert_eq!(requested.allow_attribute(Permissions::default()), "");
    assert_eq!(
        requested.to_json(),
        json!({ "camera": {}, "microphone": {}, "clipboardWrite": {} })
    );
    assert!(!Permissions::from_value(Some(&json!([1]))).any());
    assert!(!Permissions::from_value(Some(&json!({ "camera": 0, "microphone": "" }))).any());
}

#[test]
fn the_meta_tag_goes_first_and_escapes() {
    assert_eq!(
        csp_meta_tag("a\"b<c>&"),
        "<meta http-equiv=\"Content-Security-Policy\" content=\"a&quot;b&lt;c&gt;&amp;\">"
    );
    let meta = csp_meta_tag("p");
    assert_eq!(with_csp_meta("<p>x</p>", "p"), format!("{meta}<p>x</p>"));
    assert_eq!(
        with_csp_meta("\u{feff}\n<!DOCTYPE html>\n<html>", "p"),
        format!("\u{feff}\n<!DOCTYPE html>{meta}\n<html>")
    );
    assert_eq!(with_csp_meta("", "p"), meta);
    assert_eq!(with_csp_meta("<!doc", "p"), format!("{meta}<!doc"));
    assert_eq!(
        with_csp_meta("é<!DOCTYPE html>", "p"),
        format!("{meta}é<!DOCTYPE html>")
    );
}
