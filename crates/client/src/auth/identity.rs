//! The client's identity at the authorization server, in the specification's order: a
//! pre-registered client (its secret or key only for the issuer it was entered for), a Client
//! ID Metadata Document, a registration remembered per issuer, else Dynamic Client
//! Registration.

use super::{fail, ClientChoice, Discovered, OAuth};
use mcp_lens_protocol::auth::discovery::AuthServerMetadata;
use mcp_lens_protocol::auth::jwt::PrivateKey;
use mcp_lens_protocol::auth::messages::{
    check_metadata_document_url, client_metadata, ClientAuthMethod, ClientId, RegisteredClient,
};
use mcp_lens_protocol::auth::redact::redact_answer;
use mcp_lens_protocol::auth::{AuthError, AuthErrorKind, AuthStep};

impl OAuth {
    /// The client's identity at the discovered server, registering if needed.
    pub(super) async fn client_for(
        &self,
        discovered: &Discovered,
        scope: Option<&str>,
    ) -> Result<ClientId, AuthError> {
        let server = &discovered.auth_server;
        let supported = server.token_endpoint_auth_methods_supported.as_deref();
        self.check_secret_destination(&server.issuer)?;
        let (metadata_document_url, known) = match &self.0.settings.client {
            ClientChoice::Preregistered {
                client_id,
                private_key: Some(pem),
                ..
            } => {
                let key = PrivateKey::from_pem(pem).map_err(fail(AuthStep::ClientRegistration))?;
                key.check_accepted(
                    server
                        .token_endpoint_auth_signing_alg_values_supported
                        .as_deref(),
                )
                .map_err(fail(AuthStep::ClientRegistration))?;
                let listed = supported.is_none_or(|methods| {
                    methods.is_empty() || methods.iter().any(|m| m == "private_key_jwt")
                });
                self.record(
                    AuthStep::ClientRegistration,
                    &format!(
                        "using the pre-registered client {client_id} (private_key_jwt, {}){}",
                        key.alg.as_str(),
                        if listed {
                            ""
                        } else {
                            "; the server does not list private_key_jwt among its methods, trying it anyway"
                        }
                    ),
                );
                return Ok(ClientId::new(
                    client_id.clone(),
                    None,
                    ClientAuthMethod::PrivateKeyJwt,
                ));
            }
            ClientChoice::Preregistered {
                client_id,
                client_secret,
                private_key: None,
                ..
            } => {
                let method = ClientAuthMethod::select(None, client_secret.is_some(), supported);
                self.record(
                    AuthStep::ClientRegistration,
                    &format!(
                        "using the pre-registered client {client_id} ({})",
                        method.as_str()
                    ),
                );
                return Ok(ClientId::new(
                    client_id.clone(),
                    client_secret.clone(),
                    method,
                ));
            }
            ClientChoice::Automatic {
                metadata_document_url,
                known,
            } => (metadata_document_url, known),
        };
        if let Some(url) = metadata_document_url {
            if server.client_id_metadata_document_supported {
                check_metadata_document_url(url).map_err(fail(AuthStep::ClientRegistration))?;
                self.record(
                    AuthStep::ClientRegistration,
                    &format!(
                        "the server supports client ID metadata documents: the client ID is {url}"
                    ),
                );
                return Ok(ClientId::new(url.clone(), None, ClientAuthMethod::None));
            }
        } else if server.client_id_metadata_document_supported {
            self.record(
                AuthStep::ClientRegistration,
                "the server supports client ID metadata documents, but this app has none \
                 (a static build must be told its public https address: MCP_LENS_PUBLIC_URL); \
                 registering instead",
            );
        }
        let remembered = self
            .0
            .state
            .borrow()
            .registered
            .clone()
            .filter(|r| r.issuer == server.issuer)
            .or_else(|| known.iter().find(|r| r.issuer == server.issuer).cloned());
        let registered = match remembered {
            Some(registered) => {
                self.record(
                    AuthStep::ClientRegistration,
                    &format!(
                        "using the client {} registered with {} before",
                        registered.client_id, server.issuer
                    ),
                );
                registered
            }
            None => self.register(server, scope).await?,
        };
        let method = ClientAuthMethod::select(
            registered.auth_method.as_deref(),
            registered.secret().is_some(),
            supported,
        );
        Ok(ClientId::new(
            registered.client_id.clone(),
            registered.secret().map(str::to_owned),
            method,
        ))
    }

    /// A pre-registered secret or key goes only to the issuer it was entered for (see
    /// [`ClientChoice::Preregistered`]); with none named, nothing is sent until the person
    /// confirms the one found. Issuers are compared exactly (RFC 8414 names one string).
    pub(super) fn check_secret_destination(&self, issuer: &str) -> Result<(), AuthError> {
        let ClientChoice::Preregistered {
            client_secret,
            private_key,
            for_issuer,
            ..
        } = &self.0.settings.client
        else {
            return Ok(());
        };
        if client_secret.is_none() && private_key.is_none() {
            return Ok(());
        }
        let confirmed = self.0.state.borrow().confirmed_issuer.clone();
        let kind = match confirmed.as_deref().or(for_issuer.as_deref()) {
            Some(entered_for) if entered_for == issuer => return Ok(()),
            Some(entered_for) => AuthErrorKind::SecretForAnotherIssuer {
                entered_for: entered_for.to_owned(),
                found: issuer.to_owned(),
            },
            None => AuthErrorKind::ConfirmIssuer {
                issuer: issuer.to_owned(),
            },
        };
        Err(AuthError::new(AuthStep::ClientRegistration, kind))
    }

    async fn register(
        &self,
        server: &AuthServerMetadata,
        scope: Option<&str>,
    ) -> Result<RegisteredClient, AuthError> {
        let Some(endpoint) = &server.registration_endpoint else {
            return Err(AuthError::new(
                AuthStep::ClientRegistration,
                AuthErrorKind::NoClientIdentity {
                    issuer: server.issuer.clone(),
                },
            ));
        };
        let settings = &self.0.settings;
        let body = client_metadata(
            &settings.client_name,
            &[&settings.redirect_uri],
            scope,
            None,
        )
        .to_string();
        let headers = vec![
            ("content-type".to_owned(), "application/json".to_owned()),
            ("accept".to_owned(), "application/json".to_owned()),
        ];
        let why = format!(
            "no client id was given and none is registered with {} yet: registering this app \
             (RFC 7591 Dynamic Client Registration), scope {}",
            server.issuer,
            scope.unwrap_or("none (omitted)")
        );
        let (status, text) = self
            .exchange(
                AuthStep::ClientRegistration,
                "POST",
                endpoint,
                headers,
                Some(&body),
                // Ours, with no secret in it; read by the same rule as any answer all the same.
                Some(redact_answer(&body)),
                why,
            )
            .await?;
        let registered = RegisteredClient::parse(&server.issuer, endpoint, status, &text)
            .map_err(fail(AuthStep::ClientRegistration))?;
        self.note_last(format!("registered as {}", registered.client_id));
        self.0.state.borrow_mut().registered = Some(registered.clone());
        Ok(registered)
    }
}
