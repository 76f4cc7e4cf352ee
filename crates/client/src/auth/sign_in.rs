//! Signing in through a window: the authorization URL (PKCE, `state`, the scope the
//! specification's strategy picks, a step-up on `403 insufficient_scope`), then the redirect
//! checked (`state`, `iss`) and its code exchanged for tokens.

use super::MAX_AUTHORIZATIONS;
use super::{AuthLogEntry, Authorize, ClientChoice, GrantKind, NextStep, OAuth, Pending};
use mcp_lens_protocol::auth::challenge::BearerChallenge;
use mcp_lens_protocol::auth::messages::{AuthorizationRequest, Callback, Grant};
use mcp_lens_protocol::auth::pkce::{state_from_random, Pkce};
use mcp_lens_protocol::auth::scope::{choose_scope, step_up_scope};
use mcp_lens_protocol::auth::{AuthError, AuthErrorKind, AuthStep};

impl OAuth {
    /// Discovery (once), the client's identity, then the URL to send the person to, with
    /// the scope the spec's strategy picks (on a `403 insufficient_scope`: what was asked
    /// before plus what the server names). Refuses after [`MAX_AUTHORIZATIONS`] in a row.
    pub async fn start(&self) -> Result<Authorize, AuthError> {
        let outcome = self.start_inner().await;
        if let Err(error) = &outcome {
            self.record_failure(error);
            self.flow_ended(); // else it goes on in the sign-in window, then `finish`
        }
        outcome
    }

    async fn start_inner(&self) -> Result<Authorize, AuthError> {
        let attempts = {
            let mut state = self.0.state.borrow_mut();
            if state.token_accepted && !state.token_refused {
                state.authorizations = 0; // the last token worked: this is a new need
            }
            state.authorizations
        };
        if attempts >= MAX_AUTHORIZATIONS {
            return Err(AuthError::new(
                AuthStep::Authorization,
                AuthErrorKind::TooManyAttempts { attempts },
            ));
        }
        let discovered = match self.discovered() {
            Some(discovered) => discovered,
            None => self.discover_inner(true).await?,
        };
        let challenge = self.refusal().and_then(|r| r.challenge);
        let step_up = challenge
            .as_ref()
            .is_some_and(BearerChallenge::is_insufficient_scope);
        let challenge_scope = challenge.as_ref().and_then(|c| c.scope.as_deref());
        let wants_refresh = matches!(self.0.settings.client, ClientChoice::Automatic { .. });
        let scope = if step_up {
            let previous = self.0.state.borrow().requested_scope.clone();
            step_up_scope(previous.as_deref(), challenge_scope)
        } else {
            choose_scope(
                challenge_scope,
                discovered
                    .resource_metadata
                    .as_ref()
                    .and_then(|prm| prm.scopes_supported.as_deref()),
                discovered.auth_server.scopes_supported.as_deref(),
                wants_refresh,
            )
        };
        let client = self.client_for(&discovered, scope.as_deref()).await?;
        let pkce = Pkce::from_random(&self.random::<32>(AuthStep::Authorization)?);
        let state = state_from_random(&self.random::<16>(AuthStep::Authorization)?);
        let url = AuthorizationRequest {
            authorization_endpoint: &discovered.auth_server.authorization_endpoint,
            client_id: &client.client_id,
            redirect_uri: &self.0.settings.redirect_uri,
            code_challenge: &pkce.challenge,
            state: &state,
            scope: scope.as_deref(),
            resource: Some(&discovered.resource),
        }
        .url();
        let note = format!(
            "open this URL to sign in; scope: {}",
            scope.as_deref().unwrap_or("none (omitted)")
        );
        self.pass(NextStep {
            step: AuthStep::Authorization,
            method: "GET",
            url: url.clone(),
            sent: None,
            why: format!(
                "the client is {}; PKCE S256, a new state, resource {}: the sign-in window {note}",
                client.client_id, discovered.resource
            ),
        })
        .await?;
        {
            let mut held = self.0.state.borrow_mut();
            held.authorizations += 1;
            held.requested_scope = scope.clone();
            held.client = Some(client);
            held.pending = Some(Pending {
                pkce,
                state: state.clone(),
            });
        }
        self.push_log(AuthLogEntry {
            at_ms: self.now(),
            step: AuthStep::Authorization,
            method: Some("GET"),
            url: Some(url.clone()),
            sent: None,
            status: None,
            received: None,
            note,
            failed: false,
        });
        Ok(Authorize { url, state })
    }

    /// Reads the redirect (its URL or query), checks its `state` (and `iss`), and exchanges
    /// the code for tokens.
    pub async fn finish(&self, redirect: &str) -> Result<(), AuthError> {
        let outcome = self.finish_inner(Callback::parse(redirect)).await;
        if let Err(error) = &outcome {
            self.record_failure(error);
        }
        self.flow_ended();
        outcome
    }

    async fn finish_inner(&self, callback: Callback) -> Result<(), AuthError> {
        let not_started = AuthError::new(
            AuthStep::Callback,
            AuthErrorKind::NotReady {
                what: "start the authorization",
            },
        );
        let (expected_state, issuer, iss_required) = {
            let state = self.0.state.borrow();
            let (Some(pending), Some(discovered)) = (&state.pending, &state.discovered) else {
                return Err(not_started);
            };
            (
                pending.state.clone(),
                discovered.auth_server.issuer.clone(),
                discovered
                    .auth_server
                    .authorization_response_iss_parameter_supported,
            )
        };
        let code = callback
            .check(&expected_state, &issuer, iss_required)
            .map_err(|(step, kind)| AuthError::new(step, kind))?;
        if callback.iss.is_none() {
            // Nothing else can tell a code from this authorization server from one another
            // server's sign-in page obtained elsewhere with this flow's state (a mix-up).
            self.record(
                AuthStep::Callback,
                &format!(
                    "the redirect carries no iss (RFC 9207), so nothing proves the code came from {issuer}: \
                     if the sign-in window showed another site's sign-in page than you expected, sign out"
                ),
            );
        } else {
            self.record(
                AuthStep::Callback,
                &format!("the redirect's iss is {issuer}, this flow's authorization server"),
            );
        }
        let pending = self
            .0
            .state
            .borrow_mut()
            .pending
            .take()
            .ok_or(not_started)?;
        let grant = Grant::AuthorizationCode {
            code,
            verifier: pending.pkce.verifier().to_owned(),
            redirect_uri: self.0.settings.redirect_uri.clone(),
        };
        self.token(AuthStep::TokenExchange, grant, GrantKind::Code)
            .await
    }
}
