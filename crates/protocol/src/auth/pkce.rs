//! PKCE (RFC 7636) with S256, and the `state` value, from random bytes the caller draws
//! (the page's `crypto.getRandomValues`; fixed bytes in tests).
//!
//! SHA-256 is written here (FIPS 180-4, about 60 lines) rather than taken from the `sha2`
//! crate: it hashes one verifier per sign-in, so speed does not matter, and `sha2` brings
//! `digest`, `block-buffer`, `crypto-common` and their generic machinery into the wasm for
//! that one call. The tests check it against RFC 7636 appendix B, the FIPS 180 examples, and
//! (property test) `sha2` itself on arbitrary input.
//!
//! ```
//! use mcp_lens_protocol::auth::pkce::Pkce;
//! // RFC 7636 appendix B.
//! let random = [116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186,
//!     22, 212, 37, 77, 105, 214, 191, 240, 91, 88, 5, 88, 83, 132, 141, 121];
//! let pkce = Pkce::from_random(&random);
//! assert_eq!(pkce.verifier(), "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk");
//! assert_eq!(pkce.challenge, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
//! ```

use super::encode::base64url;
use std::fmt;

/// The only challenge method MCP allows.
pub const S256: &str = "S256";

/// A PKCE pair. The verifier is a secret until the code is exchanged: `Debug` hides it.
#[derive(Clone, PartialEq, Eq)]
pub struct Pkce {
    verifier: String,
    /// `BASE64URL(SHA256(verifier))`, sent with the authorization request.
    pub challenge: String,
}

impl Pkce {
    /// The verifier is the 32 random bytes in URL-safe base64 (43 characters, within RFC
    /// 7636's 43 to 128).
    pub fn from_random(random: &[u8; 32]) -> Self {
        let verifier = base64url(random);
        let challenge = s256_challenge(&verifier);
        Self {
            verifier,
            challenge,
        }
    }

    /// The pair of a verifier kept from before (an authorization that left the page and
    /// came back to it).
    ///
    /// ```
    /// use mcp_lens_protocol::auth::pkce::Pkce;
    /// let pair = Pkce::from_random(&[7; 32]);
    /// assert_eq!(Pkce::from_verifier(pair.verifier().to_owned()), pair);
    /// ```
    pub fn from_verifier(verifier: String) -> Self {
        let challenge = s256_challenge(&verifier);
        Self {
            verifier,
            challenge,
        }
    }

    /// Sent with the token request only.
    pub fn verifier(&self) -> &str {
        &self.verifier
    }
}

impl fmt::Debug for Pkce {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pkce")
            .field("verifier", &"[redacted]")
            .field("challenge", &self.challenge)
            .finish()
    }
}

/// `BASE64URL(SHA256(ASCII(verifier)))`.
pub fn s256_challenge(verifier: &str) -> String {
    base64url(&sha256(verifier.as_bytes()))
}

/// A `state` value: the random bytes in URL-safe base64.
///
/// ```
/// assert_eq!(mcp_lens_protocol::auth::pkce::state_from_random(&[0; 16]), "AAAAAAAAAAAAAAAAAAAAAA");
/// ```
pub fn state_from_random(random: &[u8; 16]) -> String {
    base64url(random)
}

const K: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

/// SHA-256 (FIPS 180-4) of `data`.
///
/// ```
/// let digest = mcp_lens_protocol::auth::pkce::sha256(b"abc");
/// assert_eq!(digest[..4], [0xba, 0x78, 0x16, 0xbf]);
/// ```
pub fn sha256(data: &[u8]) -> [u8; 32] {
    let mut h: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    let bit_length = (data.len() as u64).wrapping_mul(8);
    let mut message = data.to_vec();
    message.push(0x80);
    while message.len() % 64 != 56 {
        message.push(0);
    }
    message.extend_from_slice(&bit_length.to_be_bytes());
    for block in message.chunks_exact(64) {
        let mut w = [0u32; 64];
        for (i, word) in block.chunks_exact(4).enumerate() {
            w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = h;
        for i in 0..64 {
            let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
            let choice = (e & f) ^ (!e & g);
            let t1 = hh
                .wrapping_add(s1)
                .wrapping_add(choice)
                .wrapping_add(K[i])
                .wrapping_add(w[i]);
            let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
            let majority = (a & b) ^ (a & c) ^ (b & c);
            let t2 = s0.wrapping_add(majority);
            hh = g;
            g = f;
            f = e;
            e = d.wrapping_add(t1);
            d = c;
            c = b;
            b = a;
            a = t1.wrapping_add(t2);
        }
        for (state, value) in h.iter_mut().zip([a, b, c, d, e, f, g, hh]) {
            *state = state.wrapping_add(value);
        }
    }
    let mut out = [0u8; 32];
    for (chunk, word) in out.chunks_exact_mut(4).zip(h) {
        chunk.copy_from_slice(&word.to_be_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn sha256_matches_the_fips_180_examples() {
        assert_eq!(
            hex(&sha256(b"")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            hex(&sha256(b"abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            hex(&sha256(
                b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
            )),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        );
        assert_eq!(
            hex(&sha256(&[b'a'; 1_000_000])),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        );
    }

    #[test]
    fn rfc_7636_appendix_b() {
        assert_eq!(
            s256_challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
        let pkce = Pkce::from_random(&[7; 32]);
        assert_eq!(pkce.verifier().len(), 43);
        assert!(!format!("{pkce:?}").contains(pkce.verifier()));
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod properties {
    use super::*;
    use proptest::prelude::*;
    use sha2::Digest;

    proptest! {
        #[test]
        fn sha256_agrees_with_the_sha2_crate(data in proptest::collection::vec(any::<u8>(), 0..300)) {
            let expected: [u8; 32] = sha2::Sha256::digest(&data).into();
            prop_assert_eq!(sha256(&data), expected);
        }
    }
}
