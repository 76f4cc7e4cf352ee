//! Workload identity (SEP-1933, `io.modelcontextprotocol/auth/wif`): the JWT a person pasted
//! for a workload, presented with the RFC 7523 JWT bearer grant; no registration and no
//! sign-in window. What the JWT claims and what will likely make it refused are said before
//! it is sent; a refusal stops the flow: the request is not sent again and no other grant is
//! tried (see [`mcp_lens_protocol::auth::workload`]).

use super::{GrantKind, OAuth, Workload};
use futures::future::LocalBoxFuture;
use mcp_lens_protocol::auth::discovery::is_secure_endpoint;
use mcp_lens_protocol::auth::workload::{
    check_workload_jwt, refusal_sentence, workload_token_request,
};
use mcp_lens_protocol::auth::{AuthError, AuthErrorKind, AuthStep};
use mcp_lens_protocol::error::excerpt;

use super::ClientChoice;

const STEP: AuthStep = AuthStep::WorkloadGrant;

impl OAuth {
    /// Workload identity: discovery, then the pasted workload JWT for an access token at
    /// the authorization server (the JWT bearer grant, with the client id the person gave,
    /// if any). `scope` overrides the spec's choice. A refused JWT is not sent again.
    /// (Boxed: the page's sign-in and a renewal share one copy of its code.)
    pub fn workload_identity<'a>(
        &'a self,
        scope: Option<&'a str>,
    ) -> LocalBoxFuture<'a, Result<(), AuthError>> {
        Box::pin(async move {
            let outcome = self.workload_inner(scope).await;
            self.windowless_ended(outcome)
        })
    }

    async fn workload_inner(&self, scope: Option<&str>) -> Result<(), AuthError> {
        let Some(Workload { jwt }) = self.0.settings.workload.clone() else {
            return Err(AuthError::new(
                STEP,
                AuthErrorKind::NotReady {
                    what: "paste the workload JWT",
                },
            ));
        };
        let (discovered, scope) = self.windowless_discovery(scope).await?;
        // A new sign-in, with no proof of possession: a DPoP key of an earlier one goes.
        self.0.state.borrow_mut().proof_key = None;
        let server = &discovered.auth_server;
        let read = check_workload_jwt(&jwt, server, self.0.signer.unix_seconds())
            .map_err(|kind| AuthError::new(STEP, kind))?;
        let claims = &read.claims;
        let shown = |value: &Option<String>| {
            value
                .as_deref()
                .map_or_else(|| "(none)".to_owned(), |v| excerpt(v, 200))
        };
        let mut note = format!(
            "the workload JWT is from {} for the audience {} (subject {})",
            shown(&claims.iss),
            if claims.aud.is_empty() {
                "(none)".to_owned()
            } else {
                excerpt(&claims.aud.join(", "), 200)
            },
            shown(&claims.sub)
        );
        for warning in &read.warnings {
            note.push_str(&format!("; {warning}"));
        }
        self.record(STEP, &note);
        let endpoint = server.token_endpoint.clone();
        if !is_secure_endpoint(&endpoint) {
            return Err(AuthError::new(
                STEP,
                AuthErrorKind::InsecureEndpoint { url: endpoint },
            ));
        }
        let client_id = match &self.0.settings.client {
            ClientChoice::Preregistered { client_id, .. } => Some(client_id.as_str()),
            ClientChoice::Automatic { .. } => None,
        };
        let request = workload_token_request(
            &read.jwt,
            scope.as_deref(),
            Some(&discovered.resource),
            client_id,
        );
        let logged = format!(
            "client authentication: {}\n{}",
            if client_id.is_some() {
                "none (the client id as given; the JWT is the credential)"
            } else {
                "none (no client id: the JWT is the credential)"
            },
            request.redacted_body()
        );
        let (status, text) = self
            .exchange(
                STEP,
                "POST",
                &endpoint,
                request.headers.clone(),
                Some(&request.body),
                Some(logged),
                "workload identity: the workload JWT as the assertion of the JWT bearer grant \
                 (RFC 7523)"
                    .to_owned(),
            )
            .await?;
        self.hold_answer(STEP, &endpoint, status, &text, GrantKind::Workload, None)
            .inspect_err(|error| {
                // What a refusal means, and that nothing else is tried.
                self.record(STEP, &refusal_sentence(&error.kind));
            })
    }
}
