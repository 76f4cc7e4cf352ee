//! JSON Web Tokens the client makes or passes on, as data: the `private_key_jwt` client
//! assertion (RFC 7523 §2.2, SEP-1046) and the private key that signs it (PKCS #8 PEM, as
//! `openssl` and `jose` write it), the compact form, and the claims of a token someone
//! else signed (read, never trusted: for the steps view). Signing is the page's (WebCrypto):
//! this module says what is signed, with which algorithm, and assembles the result.

use super::encode::{base64_decode, base64url};
use super::AuthErrorKind;
use serde_json::{json, Map, Value};
use std::fmt;

/// How long a client assertion is valid: RFC 7523 wants a short life.
pub const ASSERTION_LIFETIME_S: u64 = 300;

/// `client_assertion_type` of a JWT client assertion (RFC 7523 §2.2).
pub const ASSERTION_TYPE_JWT_BEARER: &str =
    "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

/// The JWS algorithms a pasted key can sign with (RFC 7518 §3.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SigningAlg {
    /// ECDSA on P-256 with SHA-256.
    Es256,
    /// ECDSA on P-384 with SHA-384.
    Es384,
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    Rs256,
}

impl SigningAlg {
    pub fn as_str(self) -> &'static str {
        match self {
            SigningAlg::Es256 => "ES256",
            SigningAlg::Es384 => "ES384",
            SigningAlg::Rs256 => "RS256",
        }
    }
}

/// A private key in PKCS #8 DER, with the algorithm its type implies. `Debug` hides it.
#[derive(Clone, PartialEq, Eq)]
pub struct PrivateKey {
    der: Vec<u8>,
    pub alg: SigningAlg,
}

impl fmt::Debug for PrivateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PrivateKey")
            .field("alg", &self.alg)
            .finish_non_exhaustive()
    }
}

const ID_EC_PUBLIC_KEY: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01];
const CURVE_P256: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07];
const CURVE_P384: &[u8] = &[0x2b, 0x81, 0x04, 0x00, 0x22];
const RSA_ENCRYPTION: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01];

/// One DER item at `pos`: its tag, its content, and where the next item starts.
fn der_item(bytes: &[u8], pos: usize) -> Option<(u8, &[u8], usize)> {
    let tag = *bytes.get(pos)?;
    let first = *bytes.get(pos + 1)? as usize;
    let (length, start) = if first < 0x80 {
        (first, pos + 2)
    } else {
        let count = first & 0x7f;
        if count == 0 || count > 3 {
            return None;
        }
        let mut length = 0usize;
        for i in 0..count {
            length = length << 8 | *bytes.get(pos + 2 + i)? as usize;
        }
        (length, pos + 2 + count)
    };
    let end = start.checked_add(length)?;
    Some((tag, bytes.get(start..end)?, end))
}

fn invalid_key(detail: &str) -> AuthErrorKind {
    AuthErrorKind::Invalid {
        what: "the private key".to_owned(),
        detail: detail.to_owned(),
    }
}

impl PrivateKey {
    /// Reads a `-----BEGIN PRIVATE KEY-----` block (PKCS #8): an EC key on P-256 or P-384,
    /// or an RSA key. Other PEM kinds get a sentence saying how to convert them.
    ///
    /// ```
    /// use mcp_lens_protocol::auth::jwt::PrivateKey;
    /// let error = PrivateKey::from_pem("-----BEGIN EC PRIVATE KEY-----\nAA==\n-----END EC PRIVATE KEY-----")
    ///     .unwrap_err();
    /// assert!(error.to_string().contains("openssl pkcs8 -topk8 -nocrypt"));
    /// ```
    pub fn from_pem(text: &str) -> Result<Self, AuthErrorKind> {
        const BEGIN: &str = "-----BEGIN PRIVATE KEY-----";
        const END: &str = "-----END PRIVATE KEY-----";
        let text = text.trim();
        if text.is_empty() {
            return Err(invalid_key("it is empty"));
        }
        let Some(start) = text.find(BEGIN) else {
            return Err(invalid_key(if text.contains("ENCRYPTED PRIVATE KEY") {
                "it is encrypted: decrypt it first (openssl pkcs8 -in key.pem -out plain.pem)"
            } else if text.contains("EC PRIVATE KEY") || text.contains("RSA PRIVATE KEY") {
                "it is not in PKCS #8 form: convert it with openssl pkcs8 -topk8 -nocrypt -in key.pem"
            } else if text.contains("PUBLIC KEY") || text.contains("CERTIFICATE") {
                "this is a public key or certificate: paste the private key"
            } else {
                "it has no \"-----BEGIN PRIVATE KEY-----\" line (paste the whole PEM block)"
            }));
        };
        let body = &text[start + BEGIN.len()..];
        let Some(end) = body.find(END) else {
            return Err(invalid_key(
                "it has no \"-----END PRIVATE KEY-----\" line (paste the whole PEM block)",
            ));
        };
        let der = base64_decode(&body[..end]).ok_or_else(|| invalid_key("it is not base64"))?;
        let alg = Self::algorithm(&der)
            .ok_or_else(|| invalid_key("it is not a PKCS #8 private key this app can read"))??;
        Ok(Self { der, alg })
    }

    /// The algorithm of a PKCS #8 `PrivateKeyInfo`: `None` when it is not one.
    fn algorithm(der: &[u8]) -> Option<Result<SigningAlg, AuthErrorKind>> {
        let (0x30, info, _) = der_item(der, 0)? else {
            return None;
        };
        let (0x02, _version, next) = der_item(info, 0)? else {
            return None;
        };
        let (0x30, identifier, next) = der_item(info, next)? else {
            return None;
        };
        let (0x04, _key, _) = der_item(info, next)? else {
            return None;
        };
        let (0x06, oid, after) = der_item(identifier, 0)? else {
            return None;
        };
        Some(if oid == RSA_ENCRYPTION {
            Ok(SigningAlg::Rs256)
        } else if oid == ID_EC_PUBLIC_KEY {
            match der_item(identifier, after) {
                Some((0x06, curve, _)) if curve == CURVE_P256 => Ok(SigningAlg::Es256),
                Some((0x06, curve, _)) if curve == CURVE_P384 => Ok(SigningAlg::Es384),
                _ => Err(invalid_key(
                    "its elliptic curve is not P-256 or P-384 (the curves of ES256 and ES384)",
                )),
            }
        } else {
            Err(invalid_key(
                "its type is not EC (P-256, P-384) or RSA; Ed25519 and others are not supported",
            ))
        })
    }

    /// The PKCS #8 DER bytes, for the signer only.
    pub fn der(&self) -> &[u8] {
        &self.der
    }

    /// Checks that the authorization server accepts this key's algorithm, when it lists the
    /// ones it accepts (`token_endpoint_auth_signing_alg_values_supported`).
    pub fn check_accepted(&self, supported: Option<&[String]>) -> Result<(), AuthErrorKind> {
        match supported {
            Some(list) if !list.is_empty() && !list.iter().any(|a| a == self.alg.as_str()) => {
                Err(AuthErrorKind::Invalid {
                    what: "the private key".to_owned(),
                    detail: format!(
                        "it signs with {}, and the authorization server accepts only {}",
                        self.alg.as_str(),
                        list.join(", ")
                    ),
                })
            }
            _ => Ok(()),
        }
    }
}

/// What a `private_key_jwt` client assertion signs: `BASE64URL(header).BASE64URL(claims)`,
/// with `iss` and `sub` the client id, `aud` the authorization server's issuer (RFC 7523bis;
/// servers also accept it where they expect the token endpoint's URL less often), a life of
/// [`ASSERTION_LIFETIME_S`] and a one-time `jti`.
///
/// ```
/// use mcp_lens_protocol::auth::jwt::{assertion_signing_input, unverified_claims, SigningAlg};
/// let input = assertion_signing_input("my-client", "https://as.example", 1_700_000_000, "j1", SigningAlg::Es256);
/// let claims = unverified_claims(&format!("{input}.c2ln")).unwrap();
/// assert_eq!((claims["iss"].as_str(), claims["aud"].as_str()), (Some("my-client"), Some("https://as.example")));
/// assert_eq!(claims["exp"], 1_700_000_300u64);
/// ```
pub fn assertion_signing_input(
    client_id: &str,
    audience: &str,
    now_s: u64,
    jti: &str,
    alg: SigningAlg,
) -> String {
    let header = json!({ "alg": alg.as_str(), "typ": "JWT" });
    let claims = json!({
        "iss": client_id,
        "sub": client_id,
        "aud": audience,
        "iat": now_s,
        "exp": now_s + ASSERTION_LIFETIME_S,
        "jti": jti,
    });
    format!(
        "{}.{}",
        base64url(header.to_string().as_bytes()),
        base64url(claims.to_string().as_bytes())
    )
}

/// The compact JWS: the signing input, a dot, the signature (for ECDSA, WebCrypto's raw
/// `r || s`, which is what JWS wants).
pub fn compact(signing_input: &str, signature: &[u8]) -> String {
    format!("{signing_input}.{}", base64url(signature))
}

/// The claims of a compact JWT, read without checking its signature (for showing what a
/// token says, never for trusting it). `None` unless it is three parts with a JSON object
/// in the middle.
pub fn unverified_claims(token: &str) -> Option<Map<String, Value>> {
    let mut parts = token.trim().split('.');
    let (_header, payload, _signature) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    match serde_json::from_slice(&base64_decode(payload)?).ok()? {
        Value::Object(claims) => Some(claims),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Generated with `openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256` (and
    // P-384, `-algorithm RSA -pkeyopt rsa_keygen_bits:1024`, `-algorithm ED25519`): test keys only.
    const P256: &str = "-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgLhSmPl04Z6prfeca
4+2+8jh9fqA0jJOlzSuwxDS3+ZyhRANCAAQpxXIre9buj9LsntX177RbCH+eEDxO
yIpIDxe7HCsmU24t1MJpQhbDNSSFzHCgea/oq1PIpRKsdHQzlfHoo30j
-----END PRIVATE KEY-----";
    const P384: &str = "-----BEGIN PRIVATE KEY-----
MIG2AgEAMBAGByqGSM49AgEGBSuBBAAiBIGeMIGbAgEBBDCIrFkdbWTifzpqEYx7
c/IQoBqWxIIHNoHWDF/XwEIC2bUc1mihTparjW5TBhEf0wyhZANiAAS1CDc7P9a+
Hzd6p/ZyXjwEqiRQpC9xqGMAHAK5BwkDCZtwR+ZZNojhaphNWzfq914OeHOBDMrg
UWDhtlRZkFBWKz9zDl22dhwUP2awf2o5Hh5RIgFnqQCKYG3NaojbgxY=
-----END PRIVATE KEY-----";
    const RSA: &str = "-----BEGIN PRIVATE KEY-----
MIICdwIBADANBgkqhkiG9w0BAQEFAASCAmEwggJdAgEAAoGBALZ/ccPcKpiwGqPP
a1KCKkFlxZLhEsaQfkA/EICvIvHEuYxMjqY7weEkylAqvWuVvKFpKEzp0TmcZ3t4
0y7gWGeDaacMTtu1O5I/9ljmfo9HJvX4Rpj4m0dfiWQDypY3QdtCRDfDEiF4Bw//
F2GtlRdk3km+WinM75TZlTDuL71XAgMBAAECgYEAqefXK+kTg1oZQz8+BPAIlSBC
JHAFgfZOhFPyckwbtYlY0iUIff2OkKUm8iIIflxG5OO5UHozf3Z85Xhk7PSTeCBg
oNzKNYJH/6tCw5H79R3edaUTmgkPLdSzmwO+4kKEDHt7F3gSy4jYZWMZVO6qJTyF
AkAyiockE7re2Rb2LWkCQQDoMbW6mKwvY9tXQyixjYZZHD7RARqRNflecju9I8K6
6Xll6f33KkR4B1k6pk9YyfnX8w8bund5yQfRCXQFEeVNAkEAyTVgydvv7CkpUwig
N0sJRCftiSKH1lQvzvIpMpNiHdPg0fHZjQcrQVwQdN8h/3lHZ2Q/DFoUItSa/h8P
tHfLMwJBAIRX4QbsAig4uEoygz1ANzUPPlaOVIAzzWChp58UhOdYL9OA3TpFoyTu
u1MMe+lVpcwKQ7BARdzqUkQ5KSHCo3kCQEKGJ24WDYkjQsp1O6OMZ4/lM5/3jrnK
M9RUNFLIb9Q0zUwcjjUWfbKqYbaCX5c73ePNPRs0XRv29xe15VdhlAkCQEkSIbHg
Hea5lmZM8GCHFkwGvQcHIJMDvgaIU48SGpg3o3RcLwIilHAw037T+Cx05h4sMoH+
DFEhIwDBsgj5E/4=
-----END PRIVATE KEY-----";
    const ED25519: &str = "-----BEGIN PRIVATE KEY-----
MC4CAQAwBQYDK2VwBCIEIJgj3xbE/GQQlHdJxTi/CMgZRLE7bqLlbbpmMKJmm1Nm
-----END PRIVATE KEY-----";

    #[test]
    fn pkcs8_keys_give_their_algorithm() {
        assert_eq!(PrivateKey::from_pem(P256).unwrap().alg, SigningAlg::Es256);
        assert_eq!(PrivateKey::from_pem(P384).unwrap().alg, SigningAlg::Es384);
        assert_eq!(PrivateKey::from_pem(RSA).unwrap().alg, SigningAlg::Rs256);
        // Pasted with surrounding text and Windows line ends.
        let pasted = format!("key:\r\n{}\r\n", P256.replace('\n', "\r\n"));
        assert_eq!(
            PrivateKey::from_pem(&pasted).unwrap().alg,
            SigningAlg::Es256
        );
        assert!(!format!("{:?}", PrivateKey::from_pem(P256).unwrap()).contains("MIGH"));
    }

    #[test]
    fn other_pem_kinds_say_what_to_do() {
        let says = |text: &str, what: &str| {
            let error = PrivateKey::from_pem(text).unwrap_err().to_string();
            assert!(error.contains(what), "{error}");
        };
        says("", "empty");
        says(
            "-----BEGIN ENCRYPTED PRIVATE KEY-----\nAA==\n-----END ENCRYPTED PRIVATE KEY-----",
            "decrypt",
        );
        says(
            "-----BEGIN PUBLIC KEY-----\nAA==\n-----END PUBLIC KEY-----",
            "public key",
        );
        says("-----BEGIN PRIVATE KEY-----\nAAAA", "END PRIVATE KEY");
        says(
            "-----BEGIN PRIVATE KEY-----\n!!\n-----END PRIVATE KEY-----",
            "base64",
        );
        says(
            "-----BEGIN PRIVATE KEY-----\nMAA=\n-----END PRIVATE KEY-----",
            "PKCS #8",
        );
        // An Ed25519 key (OID 1.3.101.112).
        says(ED25519, "Ed25519");
    }

    #[test]
    fn the_server_s_algorithms_are_respected() {
        let key = PrivateKey::from_pem(P256).unwrap();
        assert!(key.check_accepted(None).is_ok());
        assert!(key.check_accepted(Some(&["ES256".to_owned()])).is_ok());
        let refused = key.check_accepted(Some(&["RS256".to_owned()])).unwrap_err();
        assert!(
            refused.to_string().contains("accepts only RS256"),
            "{refused}"
        );
    }

    #[test]
    fn an_assertion_carries_the_rfc_7523_claims() {
        let input = assertion_signing_input("c", "https://as/", 10, "jti-1", SigningAlg::Es384);
        let token = compact(&input, &[1, 2, 3]);
        assert!(token.ends_with(".AQID"));
        let header = input.split('.').next().unwrap();
        assert_eq!(
            base64_decode(header).unwrap(),
            br#"{"alg":"ES384","typ":"JWT"}"#
        );
        let claims = unverified_claims(&token).unwrap();
        assert_eq!(claims["sub"], "c");
        assert_eq!(claims["iat"], 10);
        assert_eq!(claims["exp"], 310);
        assert_eq!(claims["jti"], "jti-1");
        assert_eq!(unverified_claims("a.b"), None);
        assert_eq!(unverified_claims("a.b.c.d"), None);
        assert_eq!(
            unverified_claims(&format!("x.{}.y", base64url(b"[1]"))),
            None
        );
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn any_text_as_a_key_or_token_is_an_answer_not_a_panic(text in any::<String>()) {
            let _ = PrivateKey::from_pem(&text);
            let _ = PrivateKey::from_pem(&format!("-----BEGIN PRIVATE KEY-----{text}-----END PRIVATE KEY-----"));
            let _ = unverified_claims(&text);
        }

        #[test]
        fn any_der_bytes_are_an_answer_not_a_panic(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            let _ = PrivateKey::algorithm(&bytes);
        }
    }
}
