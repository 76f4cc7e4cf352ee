//! A token refused on a session that worked (SEP-2352): discovery again from the refusal's
//! challenge, then `mcp_lens_protocol::auth::migration` decides. The tokens go either way (they
//! were refused and nothing renews them), so the page offers "Sign in" again; when the MCP
//! server moved to another authorization server, its client credentials are not sent there:
//! the next sign-in registers there (or uses a client id held for that issuer), while the
//! server's entry and the person's drafts stay as they were.

use super::{ClientChoice, OAuth};
use mcp_lens_protocol::auth::migration::{after_unauthorized, Binding, ClientSource, KnownClient};
use mcp_lens_protocol::auth::AuthStep;

impl OAuth {
    /// After a refused token that nothing renews: drops the tokens and runs discovery again;
    /// the steps say what changed (recorded as a challenge step, which makes the page offer
    /// "Sign in" once the tokens are gone).
    pub(super) async fn after_token_refused(&self) {
        let before = self.0.state.borrow().discovered.clone();
        {
            let mut state = self.0.state.borrow_mut();
            state.held = None;
            state.generation += 1;
            state.discovered = None;
            state.client = None;
        }
        let Some(before) = before else {
            self.record(
                AuthStep::Challenge,
                "the server refused the token and there is no refresh token: sign in again",
            );
            return;
        };
        let (client, known) = match &self.0.settings.client {
            ClientChoice::Preregistered {
                client_id,
                for_issuer,
                ..
            } => (
                ClientSource::PersonGiven {
                    for_issuer: for_issuer.clone(),
                },
                for_issuer
                    .iter()
                    .map(|issuer| KnownClient {
                        issuer: issuer.clone(),
                        client_id: client_id.clone(),
                        person_given: true,
                    })
                    .collect::<Vec<_>>(),
            ),
            ClientChoice::Automatic {
                metadata_document_url,
                known,
            } => (
                match metadata_document_url {
                    Some(url) if before.auth_server.client_id_metadata_document_supported => {
                        ClientSource::MetadataDocument { url: url.clone() }
                    }
                    _ => ClientSource::Registered,
                },
                known
                    .iter()
                    .chain(self.0.state.borrow().registered.as_ref())
                    .map(|registered| KnownClient {
                        issuer: registered.issuer.clone(),
                        client_id: registered.client_id.clone(),
                        person_given: false,
                    })
                    .collect(),
            ),
        };
        let binding = Binding {
            issuer: before.auth_server.issuer.clone(),
            client,
            refresh_token: false,
        };
        match self.discover_inner(true).await {
            Ok(now) => {
                let next = after_unauthorized(&binding, &now.auth_server, &known, true);
                self.record(AuthStep::Challenge, &next.to_string());
            }
            // Discovery's own step says why; a sign-in runs it again.
            Err(_) => self.record(
                AuthStep::Challenge,
                "the server refused the token, and discovery could not be run again: sign in again",
            ),
        }
    }
}
