//! DPoP (RFC 9449, the MCP DPoP extension, SEP-1932): sender-constrained tokens. The client
//! holds an EC P-256 key pair (in the page: a WebCrypto key whose private half cannot be
//! exported) and sends a fresh signed proof with every token request and every request
//! that presents the token. This module says what each proof contains and assembles it; the
//! signing itself is the page's, as for `private_key_jwt` ([`super::jwt`]).
//!
//! - [`PublicJwk`]: the public key as a JWK, and its RFC 7638 thumbprint (`jkt`).
//! - [`ProofClaims`] and [`proof_signing_input`]: what is signed (`typ: dpop+jwt`, `alg`,
//!   `jwk`; `jti`, `htm`, `htu`, `iat`, and `ath`, `nonce`, `content_digest` when they apply).
//! - [`Nonces`] and [`nonce_retry`]: `DPoP-Nonce` values kept per server, and the one retry
//!   after `use_dpop_nonce` from the token endpoint or the MCP server.
//! - [`dpop_decision`]: whether a sign-in uses DPoP, from the metadata and the challenge.
//!
//! ```
//! use mcp_lens_protocol::auth::dpop::{authorization_value, ath, htu};
//! assert_eq!(htu("https://mcp.example.com/mcp?x=1#top").unwrap(), "https://mcp.example.com/mcp");
//! assert_eq!(ath("Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU"), "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo");
//! assert_eq!(authorization_value("tok"), "DPoP tok");
//! ```

use super::challenge::{parse_challenges, scheme_challenge, BearerChallenge};
use super::encode::{base64, base64_decode, base64url, form_encode, with_query};
use super::pkce::sha256;
use super::AuthErrorKind;
use crate::error::excerpt;
use crate::url::{origin_of, WebUrl};
use serde_json::{json, Value};

/// The `Authorization` scheme of a DPoP-bound token (RFC 9449 §7.1).
pub const SCHEME: &str = "DPoP";
/// The request header carrying the proof.
pub const PROOF_HEADER: &str = "dpop";
/// The answer header carrying a server-provided nonce (RFC 9449 §8, §9).
pub const NONCE_HEADER: &str = "dpop-nonce";
/// The proof's JOSE `typ`.
pub const PROOF_TYPE: &str = "dpop+jwt";
/// The OAuth error asking for a nonce.
pub const USE_DPOP_NONCE: &str = "use_dpop_nonce";
/// What a page needs from both servers' CORS settings for DPoP: the proof header allowed
/// on requests, and the nonce (and, from the MCP server, the challenge) readable on answers.
pub const CORS_NEEDS: &str =
    "Access-Control-Allow-Headers: dpop, authorization (on the token endpoint and the MCP \
server) and Access-Control-Expose-Headers: dpop-nonce (both) and www-authenticate (the MCP server)";
/// The one algorithm this client signs proofs with: ECDSA on P-256 with SHA-256, which
/// WebCrypto offers everywhere and RFC 9449's examples use.
pub const ALG: &str = "ES256";
/// The most nonces kept (one per server origin; a session talks to two or three).
const MAX_NONCES: usize = 16;
/// A nonce longer than this is not kept (nonces are short opaque strings).
const MAX_NONCE_CHARS: usize = 1024;

fn invalid(what: &str, detail: impl Into<String>) -> AuthErrorKind {
    AuthErrorKind::Invalid {
        what: what.to_owned(),
        detail: detail.into(),
    }
}

/// The public half of a P-256 key: its two 32-byte coordinates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicJwk {
    x: [u8; 32],
    y: [u8; 32],
}

impl PublicJwk {
    /// From WebCrypto's `exportKey("raw", publicKey)`: the uncompressed point, `0x04 || X || Y`.
    pub fn from_uncompressed(point: &[u8]) -> Result<Self, AuthErrorKind> {
        match point {
            [0x04, rest @ ..] if rest.len() == 64 => {
                let mut x = [0; 32];
                let mut y = [0; 32];
                x.copy_from_slice(&rest[..32]);
                y.copy_from_slice(&rest[32..]);
                Ok(Self { x, y })
            }
            _ => Err(invalid(
                "the DPoP public key",
                format!(
                    "it is {} bytes, not an uncompressed P-256 point (65 bytes starting with 0x04)",
                    point.len()
                ),
            )),
        }
    }

    /// From WebCrypto's `exportKey("jwk", publicKey)`: its `x` and `y` (base64url).
    pub fn from_coordinates(x: &str, y: &str) -> Result<Self, AuthErrorKind> {
        let coordinate = |text: &str, name: &str| -> Result<[u8; 32], AuthErrorKind> {
            base64_decode(text)
                .and_then(|bytes| <[u8; 32]>::try_from(bytes).ok())
                .ok_or_else(|| {
                    invalid(
                        "the DPoP public key",
                        format!("its {name} is not 32 bytes of base64url"),
                    )
                })
        };
        Ok(Self {
            x: coordinate(x, "x")?,
            y: coordinate(y, "y")?,
        })
    }

    /// The JWK that goes in every proof's header: public members only (a `d` would give the
    /// key away), in RFC 9449's order.
    pub fn to_json(&self) -> Value {
        json!({ "kty": "EC", "x": base64url(&self.x), "y": base64url(&self.y), "crv": "P-256" })
    }

    /// The RFC 7638 thumbprint: SHA-256 of the required members in lexicographic order with
    /// no whitespace, base64url. An access token bound to this key names it in `cnf.jkt`.
    pub fn thumbprint(&self) -> String {
        let canonical = format!(
            r#"{{"crv":"P-256","kty":"EC","x":"{}","y":"{}"}}"#,
            base64url(&self.x),
            base64url(&self.y)
        );
        base64url(&sha256(canonical.as_bytes()))
    }
}

/// `htu`: the request's URL without query and fragment (RFC 9449 §4.2).
pub fn htu(url: &str) -> Result<String, AuthErrorKind> {
    let parsed = WebUrl::parse(url).map_err(|_| {
        invalid(
            "the DPoP target",
            format!("\"{}\" is not an http(s) URL", excerpt(url, 200)),
        )
    })?;
    Ok(format!("{}{}", parsed.origin(), parsed.path()))
}

/// `ath`: base64url(SHA-256(ASCII access token)), binding a proof to the token it presents.
pub fn ath(access_token: &str) -> String {
    base64url(&sha256(access_token.as_bytes()))
}

/// `content_digest` (the MCP DPoP extension): `sha-256=:BASE64(SHA-256(body)):`, binding a
/// proof to one JSON-RPC body, since every MCP request is a POST to the same URL.
pub fn content_digest(body: &[u8]) -> String {
    format!("sha-256=:{}:", base64(&sha256(body)))
}

/// A proof's `jti` from 16 random bytes: unique per proof, so a server can spot a replay.
pub fn jti_from_random(random: &[u8; 16]) -> String {
    base64url(random)
}

/// What one proof claims.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProofClaims {
    pub jti: String,
    /// The HTTP method, as sent (`POST`).
    pub htm: String,
    /// See [`htu`].
    pub htu: String,
    /// Seconds since the Unix epoch.
    pub iat: u64,
    /// See [`ath`]; only when the request presents an access token (to the MCP server).
    pub ath: Option<String>,
    /// The latest nonce this server gave, if it gave one.
    pub nonce: Option<String>,
    /// See [`content_digest`]; only on requests to the MCP server.
    pub content_digest: Option<String>,
}

impl ProofClaims {
    /// The claims every proof has: which request, when, which proof, which nonce.
    fn of_request(
        method: &str,
        url: &str,
        iat: u64,
        jti: String,
        nonce: Option<&str>,
    ) -> Result<Self, AuthErrorKind> {
        Ok(Self {
            jti,
            htm: method.to_ascii_uppercase(),
            htu: htu(url)?,
            iat,
            ath: None,
            nonce: nonce.map(str::to_owned),
            content_digest: None,
        })
    }

    /// The claims of a token request (RFC 9449 §5): no token yet, so no `ath`, and no body
    /// digest (the extension keeps it for the MCP server).
    pub fn for_token_endpoint(
        token_endpoint: &str,
        iat: u64,
        jti: String,
        nonce: Option<&str>,
    ) -> Result<Self, AuthErrorKind> {
        Self::of_request("POST", token_endpoint, iat, jti, nonce)
    }

    /// The claims of a request presenting `access_token` to the MCP server.
    pub fn for_resource(
        method: &str,
        url: &str,
        body: Option<&[u8]>,
        access_token: &str,
        iat: u64,
        jti: String,
        nonce: Option<&str>,
    ) -> Result<Self, AuthErrorKind> {
        Ok(Self {
            ath: Some(ath(access_token)),
            content_digest: body.map(content_digest),
            ..Self::of_request(method, url, iat, jti, nonce)?
        })
    }
}

/// What the page signs (ES256 over these bytes; WebCrypto's `r || s` is the JWS signature):
/// `BASE64URL(header).BASE64URL(claims)`. [`super::jwt::compact`] assembles the proof.
pub fn proof_signing_input(key: &PublicJwk, claims: &ProofClaims) -> String {
    let header = json!({ "typ": PROOF_TYPE, "alg": ALG, "jwk": key.to_json() });
    let mut payload =
        json!({ "jti": claims.jti, "htm": claims.htm, "htu": claims.htu, "iat": claims.iat });
    let optional = [
        ("ath", &claims.ath),
        ("nonce", &claims.nonce),
        ("content_digest", &claims.content_digest),
    ];
    for (name, value) in optional {
        if let Some(value) = value {
            payload[name] = json!(value);
        }
    }
    format!(
        "{}.{}",
        base64url(header.to_string().as_bytes()),
        base64url(payload.to_string().as_bytes())
    )
}

/// The `Authorization` value presenting a DPoP-bound token.
pub fn authorization_value(access_token: &str) -> String {
    format!("{SCHEME} {access_token}")
}

/// The authorization URL with `dpop_jkt` (RFC 9449 §10): binds the code to this key, so a
/// code stolen from the redirect is useless to another key.
pub fn with_dpop_jkt(authorization_url: &str, key: &PublicJwk) -> String {
    with_query(
        authorization_url,
        &form_encode(&[("dpop_jkt", &key.thumbprint())]),
    )
}

/// The latest `DPoP-Nonce` of each server, by origin (an authorization server and an MCP
/// server keep separate nonces, RFC 9449 §8 and §9). Bounded; the oldest goes first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Nonces {
    by_origin: Vec<(String, String)>,
}

impl Nonces {
    /// Keeps the nonce an answer from `url` carried (any answer may carry a fresh one).
    /// Empty, oversized or non-printable values are not nonces and are ignored.
    pub fn remember(&mut self, url: &str, header: Option<&str>) {
        let (Some(origin), Some(nonce)) = (origin_of(url), header.map(str::trim)) else {
            return;
        };
        let printable = nonce.bytes().all(|b| (0x21..=0x7e).contains(&b));
        if nonce.is_empty() || nonce.len() > MAX_NONCE_CHARS || !printable {
            return;
        }
        self.by_origin.retain(|(known, _)| *known != origin);
        if self.by_origin.len() == MAX_NONCES {
            self.by_origin.remove(0);
        }
        self.by_origin.push((origin, nonce.to_owned()));
    }

    /// The nonce to put in the next proof for `url`.
    pub fn for_url(&self, url: &str) -> Option<&str> {
        let origin = origin_of(url)?;
        self.by_origin
            .iter()
            .find(|(known, _)| *known == origin)
            .map(|(_, nonce)| nonce.as_str())
    }
}

/// Where an answer came from, for [`nonce_retry`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answered<'a> {
    /// The token endpoint: its JSON body (RFC 9449 §8: 400 with `error: use_dpop_nonce`).
    TokenEndpoint { status: u16, body: &'a str },
    /// The MCP server: its `WWW-Authenticate` (§9: 401 with `DPoP error="use_dpop_nonce"`).
    Resource {
        status: u16,
        www_authenticate: Option<&'a str>,
    },
}

/// What to do with an answer that may ask for a nonce.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NonceRetry {
    /// Not a nonce request: handle the answer as usual.
    NotAsked,
    /// Send the request again, once, with a new proof carrying this nonce.
    RetryWith(String),
    /// The server asked for a nonce that cannot be used: the sentence says why.
    Stuck(String),
}

/// Whether an answer asks for a DPoP nonce, and the one retry (the specification and the
/// conformance suite expect exactly one; a second request for a nonce is reported).
/// `nonce_header` is the answer's `DPoP-Nonce` as the page could read it.
pub fn nonce_retry(
    answer: Answered<'_>,
    nonce_header: Option<&str>,
    retried_already: bool,
) -> NonceRetry {
    let asked = match answer {
        Answered::TokenEndpoint { status, body } => {
            (400..500).contains(&status)
                && serde_json::from_str::<Value>(body)
                    .ok()
                    .and_then(|v| v.get("error")?.as_str().map(|e| e == USE_DPOP_NONCE))
                    .unwrap_or(false)
        }
        Answered::Resource {
            status,
            www_authenticate,
        } => {
            status == 401
                && www_authenticate
                    .and_then(|header| scheme_challenge(header, SCHEME))
                    .is_some_and(|challenge| challenge.error.as_deref() == Some(USE_DPOP_NONCE))
        }
    };
    if !asked {
        return NonceRetry::NotAsked;
    }
    let server = match answer {
        Answered::TokenEndpoint { .. } => "the authorization server",
        Answered::Resource { .. } => "the MCP server",
    };
    if retried_already {
        return NonceRetry::Stuck(format!(
            "{server} asked for a DPoP nonce again after the proof carried the one it gave; stopped rather than loop"
        ));
    }
    match nonce_header.map(str::trim).filter(|n| !n.is_empty()) {
        Some(nonce) => NonceRetry::RetryWith(nonce.to_owned()),
        None => NonceRetry::Stuck(format!(
            "{server} asked for a DPoP nonce, but its DPoP-Nonce header could not be read: a browser \
             shows it to the page only when the server lists DPoP-Nonce in Access-Control-Expose-Headers \
             ({CORS_NEEDS})"
        )),
    }
}

/// A `DPoP` challenge from the MCP server: the same parameters as a Bearer one, plus the
/// algorithms it accepts (`algs`, RFC 9449 §7.1).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DpopChallenge {
    pub params: BearerChallenge,
    pub algs: Vec<String>,
}

/// The first `DPoP` challenge in a `WWW-Authenticate` header, if any.
pub fn dpop_challenge(header: &str) -> Option<DpopChallenge> {
    let params = scheme_challenge(header, SCHEME)?;
    let algs = parse_challenges(header)
        .into_iter()
        .find(|c| c.scheme.eq_ignore_ascii_case(SCHEME))
        .and_then(|c| c.param("algs").map(str::to_owned))
        .map(|algs| algs.split_whitespace().map(str::to_owned).collect())
        .unwrap_or_default();
    Some(DpopChallenge { params, algs })
}

/// Whether a sign-in asks for a DPoP-bound token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DpopDecision {
    /// Use DPoP: proofs at the token endpoint and on every request to the server.
    Use,
    /// Plain Bearer tokens; `why` for the sign-in steps view.
    Bearer { why: String },
    /// DPoP is required but impossible: nothing is sent, the sentence says why.
    Impossible(String),
}

/// What the person chose for DPoP.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DpopPreference {
    /// Use it when the MCP server asks for it (and the authorization server offers ES256):
    /// a server that does not ask may accept only Bearer tokens (an authorization server
    /// such as oidc-provider offers DPoP to every client, in front of servers that do not
    /// understand it).
    #[default]
    Auto,
    /// Use it whenever the authorization server offers ES256.
    Always,
    Never,
}

/// Decides from the authorization server's `dpop_signing_alg_values_supported`, whether the
/// MCP server requires DPoP (its challenge's scheme is `DPoP`, or its Protected Resource
/// Metadata says `dpop_bound_access_tokens_required`), and the person's preference.
pub fn dpop_decision(
    server_algs: Option<&[String]>,
    resource_requires: bool,
    preference: DpopPreference,
) -> DpopDecision {
    let offers_es256 = server_algs.is_some_and(|algs| algs.iter().any(|a| a == ALG));
    match (offers_es256, resource_requires, preference) {
        (true, true, _) => DpopDecision::Use,
        (false, true, _) => DpopDecision::Impossible(match server_algs {
            Some(algs) if !algs.is_empty() => format!(
                "the MCP server requires DPoP, and its authorization server signs proofs only with {} \
                 (this page signs with ES256)",
                excerpt(&algs.join(", "), 200)
            ),
            _ => "the MCP server requires DPoP, and its authorization server does not say it supports \
                  DPoP (no dpop_signing_alg_values_supported in its metadata)"
                .to_owned(),
        }),
        (true, false, DpopPreference::Always) => DpopDecision::Use,
        (true, false, DpopPreference::Auto) => DpopDecision::Bearer {
            why: "the authorization server offers DPoP, but the MCP server does not ask for it (no \
                  DPoP challenge, no dpop_bound_access_tokens_required): a Bearer token, which it \
                  accepts"
                .to_owned(),
        },
        (true, false, DpopPreference::Never) => DpopDecision::Bearer {
            why: "DPoP is turned off in the settings".to_owned(),
        },
        (false, false, _) => DpopDecision::Bearer {
            why: "the authorization server does not offer DPoP with ES256".to_owned(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::jwt::{compact, unverified_claims};

    /// RFC 9449 figures 2, 9 and 13: the example key and what it yields.
    fn rfc_key() -> PublicJwk {
        PublicJwk::from_coordinates(
            "l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs",
            "9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA",
        )
        .unwrap()
    }

    #[test]
    fn the_rfc_example_key_has_the_published_thumbprint() {
        assert_eq!(
            rfc_key().thumbprint(),
            "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"
        );
        let mut point = vec![0x04];
        point.extend(base64_decode("l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs").unwrap());
        point.extend(base64_decode("9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA").unwrap());
        assert_eq!(PublicJwk::from_uncompressed(&point).unwrap(), rfc_key());
        assert!(PublicJwk::from_uncompressed(&point[1..]).is_err());
        assert!(PublicJwk::from_coordinates("AAAA", "AAAA").is_err());
        assert!(rfc_key().to_json().get("d").is_none());
    }

    #[test]
    fn the_rfc_example_token_request_proof_is_signed_over_the_same_bytes() {
        let claims = ProofClaims::for_token_endpoint(
            "https://server.example.com/token",
            1_562_262_616,
            "-BwC3ESc6acc2lTc".into(),
            None,
        )
        .unwrap();
        // RFC 9449 figure 2's proof, before its signature.
        assert_eq!(
            proof_signing_input(&rfc_key(), &claims),
            "eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7Imt0eSI6IkVDIiwieCI6Imw4dEZyaHgtMzR0VjNoUklDUkRZOXpDa0RscEJoRjQyVVFVZldWQVdCRnMiLCJ5IjoiOVZFNGpmX09rX282NHpiVFRsY3VOSmFqSG10NnY5VERWclUwQ2R2R1JEQSIsImNydiI6IlAtMjU2In19.\
             eyJqdGkiOiItQndDM0VTYzZhY2MybFRjIiwiaHRtIjoiUE9TVCIsImh0dSI6Imh0dHBzOi8vc2VydmVyLmV4YW1wbGUuY29tL3Rva2VuIiwiaWF0IjoxNTYyMjYyNjE2fQ"
        );
    }

    #[test]
    fn a_resource_proof_binds_the_token_the_nonce_and_the_body() {
        let claims = ProofClaims::for_resource(
            "post",
            "http://localhost:3000/mcp?session=1#x",
            Some(br#"{"jsonrpc":"2.0","method":"tools/list","id":1}"#),
            "Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU",
            1_700_000_000,
            "j1".into(),
            Some("conformance-rs-dpop-nonce"),
        )
        .unwrap();
        let proof = compact(&proof_signing_input(&rfc_key(), &claims), &[7; 64]);
        let read = unverified_claims(&proof).unwrap();
        assert_eq!(read["htm"], "POST");
        assert_eq!(read["htu"], "http://localhost:3000/mcp");
        assert_eq!(read["ath"], "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo");
        assert_eq!(read["nonce"], "conformance-rs-dpop-nonce");
        assert_eq!(read["iat"], 1_700_000_000u64);
        assert!(read["content_digest"]
            .as_str()
            .unwrap()
            .starts_with("sha-256=:"));
        let header: Value =
            serde_json::from_slice(&base64_decode(proof.split('.').next().unwrap()).unwrap())
                .unwrap();
        assert_eq!(header["typ"], "dpop+jwt");
        assert_eq!(header["alg"], "ES256");
        assert_eq!(header["jwk"]["crv"], "P-256");
        // The extension's example digest is of the body "{\"hello\": \"world\"}" (RFC 9530 §2).
        assert_eq!(
            content_digest(b"{\"hello\": \"world\"}"),
            "sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:"
        );
        assert!(htu("not a url").is_err());
        assert_eq!(jti_from_random(&[0; 16]).len(), 22);
    }

    #[test]
    fn nonces_are_kept_per_server_and_replaced() {
        let mut nonces = Nonces::default();
        nonces.remember("http://localhost:4000/token", Some("as-1"));
        nonces.remember("http://localhost:3000/mcp", Some(" rs-1 "));
        nonces.remember("http://localhost:4000/token", Some("as-2"));
        nonces.remember("http://localhost:3000/mcp", Some("bad nonce"));
        nonces.remember("http://localhost:3000/mcp", None);
        assert_eq!(nonces.for_url("http://localhost:4000/other"), Some("as-2"));
        assert_eq!(nonces.for_url("http://localhost:3000/mcp"), Some("rs-1"));
        assert_eq!(nonces.for_url("http://localhost:5000/"), None);
        for port in 0..40 {
            nonces.remember(&format!("http://localhost:{}/", 6000 + port), Some("n"));
        }
        assert_eq!(nonces.by_origin.len(), MAX_NONCES);
    }

    #[test]
    fn use_dpop_nonce_is_retried_once_from_either_server() {
        // The conformance suite's authorization server and MCP server (auth/dpop-nonce).
        let token = Answered::TokenEndpoint {
            status: 400,
            body: r#"{"error":"use_dpop_nonce","error_description":"Authorization server requires a DPoP nonce"}"#,
        };
        assert_eq!(
            nonce_retry(token, Some("conformance-as-dpop-nonce"), false),
            NonceRetry::RetryWith("conformance-as-dpop-nonce".into())
        );
        assert!(matches!(
            nonce_retry(token, Some("n"), true),
            NonceRetry::Stuck(_)
        ));
        let resource = Answered::Resource {
            status: 401,
            www_authenticate: Some(
                r#"DPoP error="use_dpop_nonce", resource_metadata="http://localhost:3000/.well-known/oauth-protected-resource/mcp""#,
            ),
        };
        assert_eq!(
            nonce_retry(resource, Some("conformance-rs-dpop-nonce"), false),
            NonceRetry::RetryWith("conformance-rs-dpop-nonce".into())
        );
        let NonceRetry::Stuck(sentence) = nonce_retry(resource, None, false) else {
            panic!("a nonce request without a readable nonce is stuck")
        };
        assert!(
            sentence.contains("Access-Control-Expose-Headers"),
            "{sentence}"
        );
        let other = Answered::TokenEndpoint {
            status: 400,
            body: r#"{"error":"invalid_grant"}"#,
        };
        assert_eq!(nonce_retry(other, Some("n"), false), NonceRetry::NotAsked);
        let bearer = Answered::Resource {
            status: 401,
            www_authenticate: Some(r#"Bearer error="use_dpop_nonce""#),
        };
        assert_eq!(nonce_retry(bearer, Some("n"), false), NonceRetry::NotAsked);
    }

    #[test]
    fn dpop_challenges_carry_the_resource_metadata_and_algorithms() {
        let challenge = dpop_challenge(
            r#"DPoP algs="ES256 PS256", resource_metadata="http://localhost:3000/.well-known/oauth-protected-resource/mcp""#,
        )
        .unwrap();
        assert_eq!(challenge.algs, ["ES256", "PS256"]);
        assert_eq!(
            challenge.params.resource_metadata.as_deref(),
            Some("http://localhost:3000/.well-known/oauth-protected-resource/mcp")
        );
        assert_eq!(dpop_challenge(r#"Bearer scope="a""#), None);
    }

    #[test]
    fn dpop_is_used_when_the_server_asks_and_the_authorization_server_offers_it() {
        let es256 = vec!["ES256".to_owned()];
        let rs256 = vec!["RS256".to_owned()];
        // Offered but not asked for: Bearer (the server may know no other scheme), unless the
        // person wants it always.
        assert!(matches!(
            dpop_decision(Some(&es256), false, DpopPreference::Auto),
            DpopDecision::Bearer { why } if why.contains("does not ask for it")
        ));
        assert_eq!(
            dpop_decision(Some(&es256), false, DpopPreference::Always),
            DpopDecision::Use
        );
        assert_eq!(
            dpop_decision(Some(&es256), true, DpopPreference::Auto),
            DpopDecision::Use
        );
        assert_eq!(
            dpop_decision(Some(&es256), true, DpopPreference::Never),
            DpopDecision::Use
        );
        assert!(matches!(
            dpop_decision(Some(&es256), false, DpopPreference::Never),
            DpopDecision::Bearer { .. }
        ));
        assert!(matches!(
            dpop_decision(None, false, DpopPreference::Auto),
            DpopDecision::Bearer { .. }
        ));
        assert!(
            matches!(dpop_decision(Some(&rs256), true, DpopPreference::Auto), DpopDecision::Impossible(s) if s.contains("RS256"))
        );
        assert!(matches!(
            dpop_decision(None, true, DpopPreference::Auto),
            DpopDecision::Impossible(_)
        ));
        assert!(with_dpop_jkt("https://as/authorize?a=b", &rfc_key())
            .ends_with("&dpop_jkt=0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"));
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn any_answer_or_key_text_is_an_answer_not_a_panic(text in ".{0,80}", status in any::<u16>(), bytes in proptest::collection::vec(any::<u8>(), 0..80)) {
            let _ = PublicJwk::from_uncompressed(&bytes);
            let _ = PublicJwk::from_coordinates(&text, &text);
            let _ = htu(&text);
            let _ = dpop_challenge(&text);
            let _ = nonce_retry(Answered::TokenEndpoint { status, body: &text }, Some(&text), false);
            let _ = nonce_retry(Answered::Resource { status, www_authenticate: Some(&text) }, None, false);
            let mut nonces = Nonces::default();
            nonces.remember(&text, Some(&text));
            let _ = nonces.for_url(&text);
        }

        #[test]
        fn every_proof_decodes_to_its_claims(jti in "[A-Za-z0-9_-]{1,30}", iat in any::<u32>(), nonce in proptest::option::of("[!-~]{1,20}"), token in "[!-~]{1,40}") {
            let key = PublicJwk::from_uncompressed(&[[4u8].as_slice(), &[9; 64]].concat()).unwrap();
            let claims = ProofClaims::for_resource("POST", "https://mcp.example.com/mcp", None, &token, u64::from(iat), jti.clone(), nonce.as_deref()).unwrap();
            let proof = crate::auth::jwt::compact(&proof_signing_input(&key, &claims), &[1; 64]);
            let read = crate::auth::jwt::unverified_claims(&proof).unwrap();
            prop_assert_eq!(read["jti"].as_str(), Some(jti.as_str()));
            prop_assert_eq!(read["iat"].as_u64(), Some(u64::from(iat)));
            prop_assert_eq!(read.get("nonce").and_then(Value::as_str), nonce.as_deref());
            let expected = ath(&token);
            prop_assert_eq!(read["ath"].as_str(), Some(expected.as_str()));
        }
    }
}
