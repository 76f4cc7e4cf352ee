//! Across a page load: what a flow found and chose ([`SavedFlow`]) given to the page and taken
//! back, so a kept token can be refreshed; and a sign-in in progress ([`PendingSignIn`]) kept
//! while the page's own tab visits the authorization server.

use super::{ClientChoice, OAuth, Pending, PendingSignIn, SavedFlow};
use mcp_lens_protocol::auth::messages::{ClientAuthMethod, ClientId, RegisteredClient};
use mcp_lens_protocol::auth::pkce::Pkce;
use mcp_lens_protocol::auth::{AuthError, AuthErrorKind, AuthStep};

impl OAuth {
    /// What discovery found and the client chosen, once both are known, for the page to keep
    /// beside the tokens ([`OAuth::restore`] takes it back).
    pub fn saved_flow(&self) -> Option<SavedFlow> {
        let state = self.0.state.borrow();
        let (Some(discovered), Some(client)) = (&state.discovered, &state.client) else {
            return None;
        };
        Some(SavedFlow {
            server_url: self.0.settings.server_url.clone(),
            discovered: discovered.clone(),
            client_id: client.client_id.clone(),
            client_auth: client.method.as_str().to_owned(),
            registered: state
                .registered
                .as_ref()
                .is_some_and(|r| r.client_id == client.client_id),
        })
    }

    /// Takes back what [`OAuth::saved_flow`] gave (a page reloaded with its tokens kept), so
    /// a refresh needs no new discovery or sign-in. Refused when it is for another server, or
    /// when its client authenticates with a secret or key these settings do not have.
    pub fn restore(&self, saved: SavedFlow) -> Result<(), AuthError> {
        let outcome = self.restore_flow(AuthStep::Refresh, saved).map(|client| {
            self.record(
                AuthStep::Refresh,
                &format!(
                    "kept from before the page was reloaded: the authorization server {} and the client {} ({})",
                    self.discovered().map(|d| d.auth_server.issuer).unwrap_or_default(),
                    client.client_id,
                    client.method.as_str()
                ),
            );
        });
        if let Err(error) = &outcome {
            self.record_failure(error);
        }
        outcome
    }

    /// Checks `saved` against these settings and holds its discovery and client.
    fn restore_flow(&self, step: AuthStep, saved: SavedFlow) -> Result<ClientId, AuthError> {
        let settings = &self.0.settings;
        let invalid = |detail: String| {
            AuthError::new(
                step,
                AuthErrorKind::Invalid {
                    what: "what this tab kept of the sign-in".to_owned(),
                    detail,
                },
            )
        };
        if saved.server_url != settings.server_url {
            return Err(invalid(format!(
                "it is for {}, not {}",
                saved.server_url, settings.server_url
            )));
        }
        let method = ClientAuthMethod::parse(&saved.client_auth).ok_or_else(|| {
            invalid(format!(
                "\"{}\" is not a client authentication",
                saved.client_auth
            ))
        })?;
        let typed = match &settings.client {
            ClientChoice::Preregistered {
                client_id,
                client_secret,
                private_key,
                ..
            } => {
                self.check_secret_destination(&saved.discovered.auth_server.issuer)?;
                if *client_id != saved.client_id {
                    return Err(invalid(format!(
                        "it is for the client {}, not {client_id}",
                        saved.client_id
                    )));
                }
                Some((client_secret.clone(), private_key.is_some()))
            }
            ClientChoice::Automatic { .. } => None,
        };
        let secret = match method {
            ClientAuthMethod::None => None,
            ClientAuthMethod::PrivateKeyJwt => match typed {
                Some((_, true)) => None,
                _ => {
                    return Err(AuthError::new(
                        step,
                        AuthErrorKind::NotReady {
                            what: "paste the client's private key again (it is kept only in the page's memory) and sign in",
                        },
                    ))
                }
            },
            ClientAuthMethod::ClientSecretBasic | ClientAuthMethod::ClientSecretPost => {
                match typed {
                    Some((Some(secret), _)) => Some(secret),
                    _ => {
                        return Err(AuthError::new(
                            step,
                            AuthErrorKind::NotReady {
                                what: "give the client secret again (it was not kept in this tab) and sign in",
                            },
                        ))
                    }
                }
            }
        };
        let client = ClientId::new(saved.client_id.clone(), secret, method);
        let mut state = self.0.state.borrow_mut();
        if saved.registered {
            state.registered = Some(RegisteredClient::new(
                saved.discovered.auth_server.issuer.clone(),
                saved.client_id,
                None,
                Some(saved.client_auth),
            ));
        }
        state.discovered = Some(saved.discovered);
        state.client = Some(client.clone());
        Ok(client)
    }

    /// The authorization [`OAuth::start`] began and no redirect finished yet, for a page
    /// that leaves for the authorization URL in its own tab.
    pub fn pending_sign_in(&self) -> Option<PendingSignIn> {
        let flow = self.saved_flow()?;
        let state = self.0.state.borrow();
        let pending = state.pending.as_ref()?;
        Some(PendingSignIn {
            flow,
            redirect_uri: self.0.settings.redirect_uri.clone(),
            state: pending.state.clone(),
            verifier: pending.pkce.verifier().to_owned(),
            scope: state.requested_scope.clone(),
            authorizations: state.authorizations,
        })
    }

    /// Takes back an authorization begun by an earlier page in this tab
    /// ([`OAuth::pending_sign_in`]), so [`OAuth::finish`] can check the redirect's `state`
    /// and exchange its code. Refused when it is for another server, redirect URI or client.
    pub fn resume(&self, pending: PendingSignIn) -> Result<(), AuthError> {
        let outcome = self.resume_inner(pending);
        if let Err(error) = &outcome {
            self.record_failure(error);
        }
        outcome
    }

    fn resume_inner(&self, pending: PendingSignIn) -> Result<(), AuthError> {
        const STEP: AuthStep = AuthStep::Callback;
        if pending.redirect_uri != self.0.settings.redirect_uri {
            return Err(AuthError::new(
                STEP,
                AuthErrorKind::Invalid {
                    what: "what this tab kept of the sign-in".to_owned(),
                    detail: format!(
                        "it was sent back to {}, not {}",
                        pending.redirect_uri, self.0.settings.redirect_uri
                    ),
                },
            ));
        }
        let PendingSignIn {
            flow,
            state,
            verifier,
            scope,
            authorizations,
            ..
        } = pending;
        let client = self.restore_flow(STEP, flow)?;
        {
            let mut held = self.0.state.borrow_mut();
            held.authorizations = held.authorizations.max(authorizations);
            held.requested_scope = scope;
            held.pending = Some(Pending {
                pkce: Pkce::from_verifier(verifier),
                state,
            });
        }
        self.record(
            STEP,
            &format!(
                "back in this tab from the authorization server: the sign-in started before the page left \
                 resumes (its state, PKCE verifier, discovery and client {} were kept in this tab's sessionStorage)",
                client.client_id
            ),
        );
        Ok(())
    }
}
