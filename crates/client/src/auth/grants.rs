//! Token requests: the code exchange's, a refresh, the client credentials grant (a secret or
//! a `private_key_jwt` assertion), and cross-app access (an ID token for an ID-JAG at the
//! identity provider, then the ID-JAG for an access token). Credentials go to a token endpoint
//! only over HTTPS or to this machine.

use super::{fail, ClientChoice, Discovered, GrantKind, Held, OAuth};
use futures::future::LocalBoxFuture;
use mcp_lens_protocol::auth::discovery::{is_secure_endpoint, HttpUrl};
use mcp_lens_protocol::auth::dpop::{nonce_retry, Answered, NonceRetry, PROOF_HEADER};
use mcp_lens_protocol::auth::encode::base64url;
use mcp_lens_protocol::auth::jwt::{
    assertion_signing_input, compact, unverified_claims, PrivateKey,
};
use mcp_lens_protocol::auth::messages::{
    parse_bound_token_answer, parse_id_jag_answer, token_request, ClientAuthMethod, ClientId, Grant,
};
use mcp_lens_protocol::auth::scope::choose_scope;
use mcp_lens_protocol::auth::{AuthError, AuthErrorKind, AuthStep};
use mcp_lens_protocol::error::excerpt;

/// A token is refreshed this long before it expires (at most: see [`refresh_at`]).
const EXPIRY_MARGIN_MS: f64 = 30_000.0;

/// When a token obtained at `obtained_ms` that lives `expires_in` seconds is refreshed before
/// a request: [`EXPIRY_MARGIN_MS`] before it expires, or a quarter of its lifetime before when
/// that is shorter (a token living 10 s would otherwise be refreshed before every request).
fn refresh_at(obtained_ms: f64, expires_in: u64) -> f64 {
    let lifetime = expires_in as f64 * 1000.0;
    obtained_ms + lifetime - EXPIRY_MARGIN_MS.min(lifetime / 4.0)
}

impl OAuth {
    /// Sends a token request with the client and resource of this flow, and holds the
    /// tokens it gives.
    ///
    /// Boxed: one copy of its code, not one inside each grant's future (the code exchange, a
    /// refresh, client credentials, cross-app access each await it).
    pub(super) fn token(
        &self,
        step: AuthStep,
        grant: Grant,
        kind: GrantKind,
    ) -> LocalBoxFuture<'_, Result<(), AuthError>> {
        Box::pin(self.token_inner(step, grant, kind))
    }

    async fn token_inner(
        &self,
        step: AuthStep,
        grant: Grant,
        kind: GrantKind,
    ) -> Result<(), AuthError> {
        let (client, discovered, previous_refresh) = {
            let state = self.0.state.borrow();
            let (Some(client), Some(discovered)) = (&state.client, &state.discovered) else {
                return Err(AuthError::new(
                    step,
                    AuthErrorKind::NotReady { what: "sign in" },
                ));
            };
            let previous = state
                .held
                .as_ref()
                .and_then(|held| held.tokens.refresh_token().map(str::to_owned));
            (client.clone(), discovered.clone(), previous)
        };
        let endpoint = &discovered.auth_server.token_endpoint;
        if !is_secure_endpoint(endpoint) {
            return Err(AuthError::new(
                step,
                AuthErrorKind::InsecureEndpoint {
                    url: endpoint.clone(),
                },
            ));
        }
        let mut request = token_request(&grant, &client, Some(&discovered.resource));
        let mut method = client.method.as_str().to_owned();
        if client.method == ClientAuthMethod::PrivateKeyJwt {
            let issuer = &discovered.auth_server.issuer;
            let (assertion, alg) = self
                .client_assertion(step, &client.client_id, issuer)
                .await?;
            request = request.with_client_assertion(&assertion);
            method = format!("{method} ({alg}, signed for {issuer})");
        }
        let logged = format!(
            "client authentication: {method}\n{}",
            request.redacted_body()
        );
        let why = match kind {
            _ if step == AuthStep::Refresh => {
                "renewing the access token with the refresh token (it is about to expire, or \
                 the server refused it)"
            }
            GrantKind::Code => {
                "the redirect's state matched: exchanging its code, with the PKCE verifier, \
                 for tokens"
            }
            GrantKind::ClientCredentials => {
                "machine to machine: the client credentials grant with the pre-registered client"
            }
            GrantKind::CrossApp => {
                "exchanging the identity assertion (ID-JAG) for an access token (RFC 7523)"
            }
            GrantKind::Workload => "exchanging the workload JWT for an access token (RFC 7523)",
        };
        self.dpop_for_grant(step, &discovered).await?;
        let mut nonce_retried = false;
        let (status, text) = loop {
            let mut headers = request.headers.clone();
            let mut logged = logged.clone();
            if let Some((proof, shown)) = self.proof(step, "POST", endpoint, None, None).await? {
                headers.push((PROOF_HEADER.to_owned(), proof));
                logged = format!("{logged}\n{shown}");
            }
            let (status, text) = self
                .exchange(
                    step,
                    "POST",
                    endpoint,
                    headers,
                    Some(&request.body),
                    Some(logged),
                    why.to_owned(),
                )
                .await?;
            if self.uses_dpop() {
                let nonce = self.nonce_for(endpoint);
                let answer = Answered::TokenEndpoint {
                    status,
                    body: &text,
                };
                match nonce_retry(answer, nonce.as_deref(), nonce_retried) {
                    NonceRetry::RetryWith(_) => {
                        nonce_retried = true;
                        self.note_last(
                            "the authorization server asks for a DPoP nonce (use_dpop_nonce, RFC 9449 \
                             §8): the request goes once more, with a new proof carrying it"
                                .to_owned(),
                        );
                        continue;
                    }
                    NonceRetry::Stuck(why) => {
                        return Err(AuthError::new(
                            step,
                            AuthErrorKind::Invalid {
                                what: "the DPoP nonce".to_owned(),
                                detail: why,
                            },
                        ))
                    }
                    NonceRetry::NotAsked => {}
                }
            }
            break (status, text);
        };
        let keep = match grant {
            Grant::RefreshToken { .. } => previous_refresh,
            _ => None,
        };
        self.hold_answer(step, endpoint, status, &text, kind, keep)
    }

    /// Reads a token endpoint's answer and holds its tokens (`keep`: the refresh token kept
    /// when a refresh's answer brings none).
    pub(super) fn hold_answer(
        &self,
        step: AuthStep,
        endpoint: &str,
        status: u16,
        text: &str,
        kind: GrantKind,
        keep: Option<String>,
    ) -> Result<(), AuthError> {
        let tokens = parse_bound_token_answer(endpoint, status, text, self.uses_dpop())
            .map_err(fail(step))?;
        let tokens = match keep {
            Some(previous) => tokens.keeping_refresh_token(Some(&previous)),
            None => tokens,
        };
        let refresh_at = tokens
            .expires_in
            .map(|seconds| refresh_at(self.now(), seconds));
        self.note_last(format!(
            "got a {} token{}{}",
            tokens.token_type,
            tokens
                .expires_in
                .map(|s| format!(" for {s} s"))
                .unwrap_or_default(),
            if tokens.refresh_token().is_some() {
                " and a refresh token"
            } else {
                ""
            }
        ));
        let mut state = self.0.state.borrow_mut();
        state.new_token();
        state.held = Some(Held {
            tokens,
            refresh_at,
            grant: kind,
        });
        Ok(())
    }

    /// Gets a new access token with the refresh token.
    pub async fn refresh(&self) -> Result<(), AuthError> {
        let refresh_token = self
            .tokens()
            .and_then(|t| t.refresh_token().map(str::to_owned));
        let outcome = match refresh_token {
            Some(refresh_token) => {
                self.token(
                    AuthStep::Refresh,
                    Grant::RefreshToken { refresh_token },
                    GrantKind::Code,
                )
                .await
            }
            None => Err(AuthError::new(
                AuthStep::Refresh,
                AuthErrorKind::NotReady {
                    what: "sign in (there is no refresh token)",
                },
            )),
        };
        if let Err(error) = &outcome {
            self.record_failure(error);
        }
        self.flow_ended();
        outcome
    }

    /// Machine-to-machine: discovery, then the `client_credentials` grant with the
    /// pre-registered id and secret (authenticated as the server supports:
    /// `client_secret_basic` or `client_secret_post`). `scope` overrides the spec's choice.
    /// (Boxed: the page's sign-in and a renewal share one copy of its code.)
    pub fn client_credentials<'a>(
        &'a self,
        scope: Option<&'a str>,
    ) -> LocalBoxFuture<'a, Result<(), AuthError>> {
        Box::pin(async move {
            let outcome = self.client_credentials_inner(scope).await;
            self.windowless_ended(outcome)
        })
    }

    /// The end of a grant with no window: a failure goes to the steps, and the stepper is
    /// told the flow ended.
    pub(super) fn windowless_ended(&self, outcome: Result<(), AuthError>) -> Result<(), AuthError> {
        if let Err(error) = &outcome {
            self.record_failure(error);
        }
        self.flow_ended();
        outcome
    }

    /// For the grants with no window: discovery (once), the scope (`scope`, else the spec's
    /// choice), and the client's identity at the authorization server.
    async fn windowless_client(
        &self,
        scope: Option<&str>,
    ) -> Result<(Discovered, Option<String>), AuthError> {
        let (discovered, scope) = self.windowless_discovery(scope).await?;
        let client = self.client_for(&discovered, scope.as_deref()).await?;
        self.0.state.borrow_mut().client = Some(client);
        Ok((discovered, scope))
    }

    /// Discovery (once) and the scope (`scope`, else the spec's choice) of a grant with no
    /// window.
    pub(super) async fn windowless_discovery(
        &self,
        scope: Option<&str>,
    ) -> Result<(Discovered, Option<String>), AuthError> {
        let discovered = match self.discovered() {
            Some(discovered) => discovered,
            None => self.discover_inner(false).await?,
        };
        let scope = match scope {
            Some(scope) => Some(scope.to_owned()),
            None => choose_scope(
                self.refusal()
                    .and_then(|r| r.challenge)
                    .and_then(|c| c.scope)
                    .as_deref(),
                discovered
                    .resource_metadata
                    .as_ref()
                    .and_then(|prm| prm.scopes_supported.as_deref()),
                None,
                false,
            ),
        };
        Ok((discovered, scope))
    }

    async fn client_credentials_inner(&self, scope: Option<&str>) -> Result<(), AuthError> {
        const STEP: AuthStep = AuthStep::ClientCredentials;
        if !matches!(
            &self.0.settings.client,
            ClientChoice::Preregistered {
                client_secret: Some(_),
                ..
            } | ClientChoice::Preregistered {
                private_key: Some(_),
                ..
            }
        ) {
            return Err(AuthError::new(
                STEP,
                AuthErrorKind::NotReady {
                    what: "enter a client ID and its secret or private key",
                },
            ));
        }
        let (_, scope) = self.windowless_client(scope).await?;
        self.token(
            STEP,
            Grant::ClientCredentials { scope },
            GrantKind::ClientCredentials,
        )
        .await
    }

    /// A fresh `private_key_jwt` assertion by the pasted key for `audience`, and its
    /// algorithm.
    async fn client_assertion(
        &self,
        step: AuthStep,
        client_id: &str,
        audience: &str,
    ) -> Result<(String, &'static str), AuthError> {
        let ClientChoice::Preregistered {
            private_key: Some(pem),
            ..
        } = &self.0.settings.client
        else {
            return Err(AuthError::new(
                step,
                AuthErrorKind::NotReady {
                    what: "paste the client's private key",
                },
            ));
        };
        let key = PrivateKey::from_pem(pem).map_err(fail(step))?;
        let jti = base64url(&self.random::<16>(step)?);
        let now = self.0.signer.unix_seconds();
        let input = assertion_signing_input(client_id, audience, now, &jti, key.alg);
        let signature = self
            .0
            .signer
            .sign(&key, input.as_bytes())
            .await
            .map_err(|detail| {
                AuthError::new(
                    step,
                    AuthErrorKind::Invalid {
                        what: "the client assertion".to_owned(),
                        detail,
                    },
                )
            })?;
        Ok((compact(&input, &signature), key.alg.as_str()))
    }

    /// Cross-app access (SEP-990, "enterprise-managed authorization"): discovery, then the
    /// person's ID token for an ID-JAG at their identity provider (RFC 8693 token
    /// exchange, naming this server's authorization server and the server), then the ID-JAG
    /// for an access token at the authorization server (RFC 7523 JWT bearer grant, as the
    /// pre-registered client). No sign-in window. `scope` overrides the spec's choice.
    /// (Boxed: the page's sign-in and a renewal share one copy of its code.)
    pub fn cross_app_access<'a>(
        &'a self,
        scope: Option<&'a str>,
    ) -> LocalBoxFuture<'a, Result<(), AuthError>> {
        Box::pin(async move {
            let outcome = self.cross_app_access_inner(scope).await;
            self.windowless_ended(outcome)
        })
    }

    async fn cross_app_access_inner(&self, scope: Option<&str>) -> Result<(), AuthError> {
        const STEP: AuthStep = AuthStep::IdentityAssertion;
        let Some(cross_app) = self.0.settings.cross_app.clone() else {
            return Err(AuthError::new(
                STEP,
                AuthErrorKind::NotReady {
                    what: "enter the identity provider's token endpoint, client id and ID token",
                },
            ));
        };
        if !matches!(self.0.settings.client, ClientChoice::Preregistered { .. }) {
            return Err(AuthError::new(
                STEP,
                AuthErrorKind::NotReady {
                    what: "enter the client id this app has at the server's authorization server",
                },
            ));
        }
        let (discovered, scope) = self.windowless_client(scope).await?;
        // What the ID token says (read, not trusted: the identity provider checks it).
        if let Some(claims) = unverified_claims(&cross_app.id_token) {
            let claim = |name: &str| {
                claims
                    .get(name)
                    .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
                    .unwrap_or_else(|| "(none)".to_owned())
            };
            self.record(
                STEP,
                &format!(
                    "the ID token is from {} for the audience {} (subject {})",
                    excerpt(&claim("iss"), 200),
                    excerpt(&claim("aud"), 200),
                    excerpt(&claim("sub"), 100)
                ),
            );
        } else {
            self.record(
                STEP,
                "the ID token is not a JWT this app can read; sending it as typed",
            );
        }
        let endpoint = cross_app.idp_token_endpoint.trim().to_owned();
        if HttpUrl::parse(&endpoint).is_none() || !is_secure_endpoint(&endpoint) {
            return Err(AuthError::new(
                STEP,
                AuthErrorKind::InsecureEndpoint { url: endpoint },
            ));
        }
        let idp_client = ClientId::new(
            cross_app.idp_client_id.trim(),
            cross_app.idp_client_secret.clone(),
            if cross_app.idp_client_secret.is_some() {
                ClientAuthMethod::ClientSecretBasic
            } else {
                ClientAuthMethod::None
            },
        );
        let request = token_request(
            &Grant::TokenExchange {
                id_token: cross_app.id_token.trim().to_owned(),
                audience: discovered.auth_server.issuer.clone(),
                scope: scope.clone(),
            },
            &idp_client,
            Some(&discovered.resource),
        );
        let logged = format!(
            "client authentication: {}\n{}",
            idp_client.method.as_str(),
            request.redacted_body()
        );
        let why = format!(
            "cross-app access: exchanging the ID token at the identity provider for an identity \
             assertion for {} (RFC 8693)",
            discovered.auth_server.issuer
        );
        let (status, text) = self
            .exchange(
                STEP,
                "POST",
                &endpoint,
                request.headers.clone(),
                Some(&request.body),
                Some(logged),
                why,
            )
            .await?;
        let assertion = parse_id_jag_answer(&endpoint, status, &text).map_err(fail(STEP))?;
        self.note_last(format!(
            "got an identity assertion (ID-JAG) for {}",
            discovered.auth_server.issuer
        ));
        self.token(
            AuthStep::AssertionGrant,
            Grant::JwtBearer { assertion, scope },
            GrantKind::CrossApp,
        )
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_refreshed_30_s_before_it_expires_or_a_quarter_of_its_life_before() {
        // An hour: 30 s before.
        assert_eq!(refresh_at(1_000.0, 3_600), 1_000.0 + 3_600_000.0 - 30_000.0);
        // Two minutes: still 30 s before.
        assert_eq!(refresh_at(0.0, 120), 90_000.0);
        // 10 s (oidc-provider's resource tokens in the e2e test): 2.5 s before, not at once.
        assert_eq!(refresh_at(5_000.0, 10), 12_500.0);
        assert!(refresh_at(5_000.0, 10) > 5_000.0);
        // A token said to expire at once is due at once.
        assert_eq!(refresh_at(7.0, 0), 7.0);
        for seconds in [1, 2, 59, 60, 61, 119, 121, 86_400] {
            let due = refresh_at(0.0, seconds);
            let lifetime = seconds as f64 * 1000.0;
            assert!(
                due >= lifetime * 0.75 && due < lifetime,
                "{seconds} s: {due}"
            );
        }
    }
}
