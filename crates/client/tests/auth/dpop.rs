//! DPoP (RFC 9449): a key per sign-in from the signer, a fresh proof on the token request and
//! on every request presenting the token (`DPoP` scheme, `ath`), and one retry with the nonce
//! the authorization server or the MCP server asks for.

use crate::support::{initialize_result, Exchange, Harness, URL};
use crate::{machine_metadata, preregistered, Counting, AS, PRM_PATH, REDIRECT};
use futures::future::LocalBoxFuture;
use mcp_lens_client::auth::{OAuth, OAuthSettings, Signer};
use mcp_lens_client::protocol::auth::dpop::ath;
use mcp_lens_client::protocol::auth::encode::base64_decode;
use mcp_lens_client::protocol::auth::jwt::{unverified_claims, PrivateKey};
use mcp_lens_client::protocol::auth::AuthStep;
use mcp_lens_client::runtime::DpopKey;
use mcp_lens_client::ClientConfig;
use serde_json::{json, Value};
use std::rc::Rc;

/// RFC 9449's example public key, and a signature that is the signed data's length.
struct FakeKey;

impl DpopKey for FakeKey {
    fn public_point(&self) -> Vec<u8> {
        let mut point = vec![0x04];
        point.extend(base64_decode("l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs").unwrap());
        point.extend(base64_decode("9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA").unwrap());
        point
    }

    fn sign(&self, data: &[u8]) -> LocalBoxFuture<'static, Result<Vec<u8>, String>> {
        let signature = data.len().to_string().into_bytes();
        Box::pin(async move { Ok(signature) })
    }
}

struct DpopSigner;

impl Signer for DpopSigner {
    fn unix_seconds(&self) -> u64 {
        1_700_000_000
    }

    fn sign(&self, _: &PrivateKey, _: &[u8]) -> LocalBoxFuture<'static, Result<Vec<u8>, String>> {
        Box::pin(async { Err("no assertions here".to_owned()) })
    }

    fn dpop_key(&self) -> LocalBoxFuture<'static, Result<Rc<dyn DpopKey>, String>> {
        Box::pin(async { Ok(Rc::new(FakeKey) as Rc<dyn DpopKey>) })
    }
}

/// A proof's JOSE header and claims.
fn proof(headers: &[(String, String)]) -> (Value, Value) {
    let proof = headers
        .iter()
        .find(|(name, _)| name == "dpop")
        .map(|(_, value)| value.clone())
        .expect("a DPoP proof");
    let header = base64_decode(proof.split('.').next().unwrap()).unwrap();
    (
        serde_json::from_slice(&header).unwrap(),
        Value::Object(unverified_claims(&proof).unwrap()),
    )
}

/// The PRM (requiring DPoP-bound tokens, or not) and metadata offering ES256 proofs.
fn dpop_discovery(required: bool) -> Vec<Exchange> {
    let mut exchanges = machine_metadata(json!({
        "token_endpoint_auth_methods_supported": ["client_secret_post"],
        "dpop_signing_alg_values_supported": ["ES256"],
    }));
    exchanges[0] = Exchange::at("GET", PRM_PATH).json_body(
        &json!({ "resource": URL, "authorization_servers": [AS], "dpop_bound_access_tokens_required": required })
            .to_string(),
    );
    exchanges
}

fn dpop_oauth(h: &Harness) -> OAuth {
    OAuth::with_signer(
        &h.runtime(),
        Rc::new(Counting::default()),
        Rc::new(DpopSigner),
        OAuthSettings::new(URL, REDIRECT, preregistered("machine", Some("s3cret"))),
    )
}

#[test]
fn offered_but_not_asked_for_a_bearer_token_is_got_with_no_proof() {
    let mut h = Harness::new();
    let auth = dpop_oauth(&h);
    h.script(dpop_discovery(false));
    h.script([Exchange::at("POST", &format!("{AS}/token"))
        .no_header("dpop")
        .json_body(r#"{"access_token":"plain","token_type":"Bearer"}"#)]);
    let get = auth.clone();
    h.run(async move { get.client_credentials(None).await })
        .expect("a Bearer token");
    assert_eq!(auth.tokens().unwrap().access_token(), "plain");
    assert!(h.http.remaining().is_empty());
}

#[test]
fn proofs_go_with_the_token_request_and_every_request_and_nonces_are_retried_once() {
    let mut h = Harness::new();
    let auth = dpop_oauth(&h);
    let token_endpoint = format!("{AS}/token");
    h.script(dpop_discovery(true));
    h.script([
        Exchange::at("POST", &token_endpoint)
            .status(400)
            .answer_header("dpop-nonce", "as-nonce-1")
            .json_body(r#"{"error":"use_dpop_nonce"}"#),
        Exchange::at("POST", &token_endpoint)
            .json_body(r#"{"access_token":"dp-tok","token_type":"DPoP","expires_in":3600}"#),
    ]);
    let get = auth.clone();
    h.run(async move { get.client_credentials(None).await })
        .expect("a DPoP-bound token");

    let authorization = "DPoP dp-tok";
    let refused = Exchange::post("initialize")
        .header("authorization", authorization)
        .status(401)
        .answer_header("www-authenticate", r#"DPoP error="use_dpop_nonce""#)
        .answer_header("dpop-nonce", "rs-nonce-1")
        .json_body(r#"{"error":"use_dpop_nonce"}"#);
    h.script([
        refused,
        Exchange::post("initialize")
            .header("authorization", authorization)
            .result(initialize_result("2025-06-18", json!({ "tools": {} }))),
        Exchange::post("notifications/initialized")
            .header("authorization", authorization)
            .status(202),
        Exchange::post("tools/list")
            .header("authorization", authorization)
            .result(json!({ "tools": [] })),
        Exchange::get()
            .header("authorization", authorization)
            .status(405),
    ]);
    let mut config = ClientConfig::new(URL);
    config.known_handshake = true;
    config.auth = Some(auth.clone());
    h.connect(config).expect("connects after the nonce retry");
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());

    let seen = h.http.seen.borrow();
    let tokens: Vec<_> = seen.iter().filter(|s| s.url == token_endpoint).collect();
    assert_eq!(tokens.len(), 2);
    let (header, first) = proof(&tokens[0].headers);
    assert_eq!(header["typ"], "dpop+jwt");
    assert_eq!(header["alg"], "ES256");
    assert_eq!(
        header["jwk"]["x"],
        "l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs"
    );
    assert!(header["jwk"].get("d").is_none());
    assert_eq!(first["htm"], "POST");
    assert_eq!(first["htu"], token_endpoint.as_str());
    assert_eq!(first["iat"], 1_700_000_000);
    assert!(first.get("ath").is_none() && first.get("nonce").is_none());
    let (_, second) = proof(&tokens[1].headers);
    assert_eq!(second["nonce"], "as-nonce-1");
    assert_ne!(first["jti"], second["jti"]);

    let to_server: Vec<_> = seen.iter().filter(|s| s.url == URL).collect();
    assert_eq!(to_server.len(), 5);
    let mut jtis = vec![first["jti"].clone(), second["jti"].clone()];
    for (n, request) in to_server.iter().enumerate() {
        let (_, claims) = proof(&request.headers);
        assert_eq!(claims["htm"], request.method);
        assert_eq!(claims["htu"], URL);
        assert_eq!(claims["ath"], ath("dp-tok").as_str());
        // The first was refused for a nonce; every later one carries it.
        assert_eq!(claims.get("nonce").is_some(), n > 0, "{claims}");
        if n > 0 {
            assert_eq!(claims["nonce"], "rs-nonce-1");
        }
        jtis.push(claims["jti"].clone());
    }
    let distinct: std::collections::HashSet<String> = jtis.iter().map(Value::to_string).collect();
    assert_eq!(distinct.len(), jtis.len(), "a proof was reused: {jtis:?}");

    let log = auth.log();
    assert!(log.iter().any(|e| e.step == AuthStep::ClientCredentials
        && e.note
            .contains("DPoP (RFC 9449): a new P-256 key for this sign-in")));
    assert!(log.iter().any(|e| e
        .sent
        .as_deref()
        .is_some_and(|s| s.contains("DPoP proof: htm POST"))
        && e.note.contains("asks for a DPoP nonce")));
}
