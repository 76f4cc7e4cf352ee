//! DPoP (RFC 9449, the MCP DPoP extension SEP-1932): a sign-in whose authorization server
//! offers ES256 proofs (or whose MCP server requires them) gets a key pair of its own, made by
//! the signer (in the page: WebCrypto, private half not extractable); every token request
//! and every request presenting the token carries a fresh proof, with the latest nonce of
//! that server. What each proof contains is [`mcp_lens_protocol::auth::dpop`]'s.

use super::found::ProofKey;
use super::{fail, Discovered, OAuth};
use futures::future::LocalBoxFuture;
use mcp_lens_protocol::auth::dpop::{
    dpop_decision, jti_from_random, proof_signing_input, DpopDecision, DpopPreference, ProofClaims,
    PublicJwk,
};
use mcp_lens_protocol::auth::jwt::compact;
use mcp_lens_protocol::auth::{AuthError, AuthErrorKind, AuthStep};
use mcp_lens_protocol::error::excerpt;

fn invalid(step: AuthStep, what: &str, detail: String) -> AuthError {
    AuthError::new(
        step,
        AuthErrorKind::Invalid {
            what: what.to_owned(),
            detail,
        },
    )
}

impl OAuth {
    /// Before a grant's token request: whether its tokens are to be DPoP-bound. A new grant
    /// gets a new key; a refresh keeps the key its tokens are bound to.
    pub(super) async fn dpop_for_grant(
        &self,
        step: AuthStep,
        discovered: &Discovered,
    ) -> Result<(), AuthError> {
        if step == AuthStep::Refresh {
            return Ok(());
        }
        let required = self.refusal().is_some_and(|r| r.dpop)
            || discovered
                .resource_metadata
                .as_ref()
                .is_some_and(|prm| prm.dpop_bound_access_tokens_required);
        let decision = dpop_decision(
            discovered
                .auth_server
                .dpop_signing_alg_values_supported
                .as_deref(),
            required,
            DpopPreference::Auto,
        );
        match decision {
            DpopDecision::Bearer { .. } => {
                self.0.state.borrow_mut().proof_key = None;
                Ok(())
            }
            DpopDecision::Impossible(why) => Err(invalid(step, "DPoP", why)),
            DpopDecision::Use => {
                let key = self
                    .0
                    .signer
                    .dpop_key()
                    .await
                    .map_err(|detail| invalid(step, "the DPoP key", detail))?;
                let jwk = PublicJwk::from_uncompressed(&key.public_point()).map_err(fail(step))?;
                self.record(
                    step,
                    &format!(
                        "DPoP (RFC 9449): a new P-256 key for this sign-in (its private half cannot \
                         be exported), thumbprint {}; the token request and every request to the \
                         server carry a fresh proof signed with it",
                        jwk.thumbprint()
                    ),
                );
                self.0.state.borrow_mut().proof_key = Some(ProofKey { key, jwk });
                Ok(())
            }
        }
    }

    /// A fresh proof for one request to `url` (a token endpoint when `access_token` is
    /// `None`), with the latest nonce of its server, and the line the steps view shows of it.
    /// `None` when the sign-in has no DPoP key.
    /// Boxed: one copy of its code for the token requests and the server's requests.
    pub(super) fn proof<'a>(
        &'a self,
        step: AuthStep,
        method: &'a str,
        url: &'a str,
        body: Option<&'a [u8]>,
        access_token: Option<&'a str>,
    ) -> LocalBoxFuture<'a, Result<Option<(String, String)>, AuthError>> {
        Box::pin(self.proof_inner(step, method, url, body, access_token))
    }

    async fn proof_inner(
        &self,
        step: AuthStep,
        method: &str,
        url: &str,
        body: Option<&[u8]>,
        access_token: Option<&str>,
    ) -> Result<Option<(String, String)>, AuthError> {
        let (key, nonce) = {
            let state = self.0.state.borrow();
            let Some(key) = state.proof_key.clone() else {
                return Ok(None);
            };
            (key, state.nonces.for_url(url).map(str::to_owned))
        };
        let jti = jti_from_random(&self.random::<16>(step)?);
        let iat = self.0.signer.unix_seconds();
        let claims = match access_token {
            Some(token) => {
                ProofClaims::for_resource(method, url, body, token, iat, jti, nonce.as_deref())
            }
            None => ProofClaims::for_token_endpoint(url, iat, jti, nonce.as_deref()),
        }
        .map_err(fail(step))?;
        let input = proof_signing_input(&key.jwk, &claims);
        let signature = key
            .key
            .sign(input.as_bytes())
            .await
            .map_err(|detail| invalid(step, "the DPoP proof", detail))?;
        let shown = format!(
            "DPoP proof: htm {}, htu {}, iat {}, jti {}{}{}",
            claims.htm,
            excerpt(&claims.htu, 200),
            claims.iat,
            claims.jti,
            if claims.ath.is_some() {
                ", ath (the token's hash)"
            } else {
                ""
            },
            claims
                .nonce
                .as_deref()
                .map(|n| format!(", nonce {}", excerpt(n, 80)))
                .unwrap_or_default()
        );
        Ok(Some((compact(&input, &signature), shown)))
    }

    /// Keeps the `DPoP-Nonce` an answer from `url` carried.
    pub(super) fn remember_nonce(&self, url: &str, header: Option<&str>) {
        self.0.state.borrow_mut().nonces.remember(url, header);
    }

    /// The latest `DPoP-Nonce` of `url`'s server.
    pub(super) fn nonce_for(&self, url: &str) -> Option<String> {
        self.0.state.borrow().nonces.for_url(url).map(str::to_owned)
    }

    /// Whether this sign-in's tokens are DPoP-bound (it has a key).
    pub(super) fn uses_dpop(&self) -> bool {
        self.0.state.borrow().proof_key.is_some()
    }
}
