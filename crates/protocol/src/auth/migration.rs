//! Authorization-server migration (SEP-2352, "Authorization Server Binding"): a 401 on a
//! session that was connected means the token was revoked or expired, or the MCP server now
//! trusts another authorization server. After re-running discovery from that 401, the client
//! decides here what changed and what to do. Client credentials are bound to the issuer that
//! issued them: they are never sent to another one ("clients MUST NOT reuse client
//! credentials from a different authorization server and MUST re-register with the new
//! authorization server"); a Client ID Metadata Document URL is portable, since each
//! authorization server resolves it itself.
//!
//! ```
//! use mcp_lens_protocol::auth::discovery::AuthServerMetadata;
//! use mcp_lens_protocol::auth::migration::{after_unauthorized, Binding, ClientSource, NewClient, NextSignIn};
//! let before = Binding { issuer: "https://as1.example".into(), client: ClientSource::Registered, refresh_token: false };
//! let mut moved_to = AuthServerMetadata::fallback("https://as2.example/mcp").unwrap();
//! moved_to.issuer = "https://as2.example".into();
//! let next = after_unauthorized(&before, &moved_to, &[], false);
//! assert!(matches!(next, NextSignIn::Moved { client: NewClient::Register, .. }));
//! ```

use super::discovery::AuthServerMetadata;
use crate::error::excerpt;
use std::fmt;

/// How the client identified itself to the authorization server it signed in at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClientSource {
    /// A client id the person entered, for this issuer (`None`: entered before any issuer
    /// was known, then confirmed for the one discovery found).
    PersonGiven { for_issuer: Option<String> },
    /// Dynamic Client Registration at that authorization server.
    Registered,
    /// A Client ID Metadata Document URL (portable across authorization servers).
    MetadataDocument { url: String },
}

/// What the connected session's sign-in was bound to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    /// The issuer of the authorization server that issued the tokens.
    pub issuer: String,
    pub client: ClientSource,
    /// A refresh token from that issuer is held.
    pub refresh_token: bool,
}

/// A client id held for one issuer: entered by the person, or a remembered registration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnownClient {
    pub issuer: String,
    pub client_id: String,
    pub person_given: bool,
}

/// How the client will identify itself at the new authorization server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NewClient {
    /// The person entered a client id for the new issuer: use it.
    PersonGiven { client_id: String },
    /// A registration remembered for the new issuer (it was used before).
    RegisteredBefore { client_id: String },
    /// The same Client ID Metadata Document URL: the new server supports them.
    MetadataDocument { url: String },
    /// Register there (Dynamic Client Registration).
    Register,
    /// Nothing can be sent without the person: the sentence says why, and whether
    /// registering there is possible if they agree.
    AskThePerson { why: String, can_register: bool },
}

/// What to do after a 401 on a connected session, once discovery ran again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NextSignIn {
    /// The same authorization server: the token was revoked or expired. Refresh once when a
    /// refresh token is held (and was not just refused), else sign in again with the same
    /// client.
    SameServer { refresh_first: bool },
    /// The server moved to another authorization server. Forget the tokens (both were
    /// issued by the old one); keep the server entry and the person's drafts.
    Moved {
        from: String,
        to: String,
        client: NewClient,
    },
}

/// Whether two issuer identifiers name the same authorization server (a trailing slash
/// aside, as the metadata check allows; anything else is another server).
pub fn same_issuer(a: &str, b: &str) -> bool {
    a.trim_end_matches('/') == b.trim_end_matches('/')
}

/// Decides after a 401 on a connected session. `now` is the authorization server discovery
/// names now (its validated metadata); `known`: client ids the person entered or
/// registrations remembered, each bound to its issuer;
/// `refresh_refused`: the held refresh token was already tried after this 401.
pub fn after_unauthorized(
    before: &Binding,
    now: &AuthServerMetadata,
    known: &[KnownClient],
    refresh_refused: bool,
) -> NextSignIn {
    if same_issuer(&before.issuer, &now.issuer) {
        return NextSignIn::SameServer {
            refresh_first: before.refresh_token && !refresh_refused,
        };
    }
    let for_new = |person: bool| {
        known
            .iter()
            .find(|known| {
                known.person_given == person
                    && !known.client_id.is_empty()
                    && same_issuer(&known.issuer, &now.issuer)
            })
            .map(|known| known.client_id.clone())
    };
    // The specification's order: pre-registered, then a metadata document, then registration.
    let client = if let Some(client_id) = for_new(true) {
        NewClient::PersonGiven { client_id }
    } else if let Some(client_id) = for_new(false) {
        NewClient::RegisteredBefore { client_id }
    } else {
        match &before.client {
            ClientSource::MetadataDocument { url } if now.client_id_metadata_document_supported => {
                NewClient::MetadataDocument { url: url.clone() }
            }
            ClientSource::PersonGiven { .. } => NewClient::AskThePerson {
                // The specification: surface an error rather than use mismatched credentials.
                why: format!(
                    "the client id you entered was registered with {}, and the server now uses {}; \
                     enter a client id registered there{}",
                    excerpt(&before.issuer, 200),
                    excerpt(&now.issuer, 200),
                    if now.registration_endpoint.is_some() { ", or let the app register one" } else { "" }
                ),
                can_register: now.registration_endpoint.is_some(),
            },
            _ if now.registration_endpoint.is_some() => NewClient::Register,
            _ => NewClient::AskThePerson {
                why: format!(
                    "{} offers no dynamic client registration{}; enter a client id registered there",
                    excerpt(&now.issuer, 200),
                    if now.client_id_metadata_document_supported { " and this app has no client ID metadata document" } else { " and no client ID metadata documents" }
                ),
                can_register: false,
            },
        }
    };
    NextSignIn::Moved {
        from: before.issuer.clone(),
        to: now.issuer.clone(),
        client,
    }
}

impl fmt::Display for NextSignIn {
    /// The sign-in steps view's line for the decision.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NextSignIn::SameServer { refresh_first: true } => write!(
                f,
                "The server refused the token; the authorization server is unchanged, so the refresh token is tried once."
            ),
            NextSignIn::SameServer { refresh_first: false } => write!(
                f,
                "The server refused the token (revoked or expired); the authorization server is unchanged: sign in again."
            ),
            NextSignIn::Moved { from, to, client } => {
                write!(
                    f,
                    "The server now uses the authorization server {} instead of {}. Its old tokens and \
                     client credentials are not sent there. ",
                    excerpt(to, 200),
                    excerpt(from, 200)
                )?;
                match client {
                    NewClient::PersonGiven { client_id } => {
                        write!(f, "Signing in with the client id you entered for it ({}).", excerpt(client_id, 80))
                    }
                    NewClient::RegisteredBefore { client_id } => write!(
                        f,
                        "Signing in with the client registered there before ({}).",
                        excerpt(client_id, 80)
                    ),
                    NewClient::MetadataDocument { url } => write!(
                        f,
                        "Signing in with the same client ID metadata document ({}), which it resolves itself.",
                        excerpt(url, 200)
                    ),
                    NewClient::Register => write!(f, "Registering this app there, then signing in."),
                    NewClient::AskThePerson { why, .. } => write!(f, "Nothing was sent: {why}."),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server(issuer: &str, registration: bool, cimd: bool) -> AuthServerMetadata {
        let mut metadata = AuthServerMetadata::fallback(&format!("{issuer}/mcp")).unwrap();
        metadata.issuer = issuer.to_owned();
        if !registration {
            metadata.registration_endpoint = None;
        }
        metadata.client_id_metadata_document_supported = cimd;
        metadata
    }

    fn known(issuer: String, client_id: String, person_given: bool) -> KnownClient {
        KnownClient {
            issuer,
            client_id,
            person_given,
        }
    }

    fn binding(client: ClientSource, refresh_token: bool) -> Binding {
        Binding {
            issuer: "http://localhost:4001".into(),
            client,
            refresh_token,
        }
    }

    #[test]
    fn the_conformance_migration_registers_at_the_new_server() {
        // auth/authorization-server-migration: registered at AS1, the PRM now names AS2.
        let before = binding(ClientSource::Registered, false);
        let known = [known(
            "http://localhost:4001".to_owned(),
            "as1-client-id-LEAKED-IF-SEEN-AT-AS2".to_owned(),
            false,
        )];
        let next = after_unauthorized(
            &before,
            &server("http://localhost:4002", true, false),
            &known,
            false,
        );
        assert_eq!(
            next,
            NextSignIn::Moved {
                from: "http://localhost:4001".into(),
                to: "http://localhost:4002".into(),
                client: NewClient::Register
            }
        );
        assert_eq!(
            next.to_string(),
            "The server now uses the authorization server http://localhost:4002 instead of http://localhost:4001. \
             Its old tokens and client credentials are not sent there. Registering this app there, then signing in."
        );
        // Back at AS1 later: its own registration is reused there (bound to its issuer).
        let back = after_unauthorized(
            &Binding {
                issuer: "http://localhost:4002".into(),
                ..before
            },
            &server("http://localhost:4001/", true, false),
            &known,
            false,
        );
        assert!(
            matches!(back, NextSignIn::Moved { client: NewClient::RegisteredBefore { client_id }, .. } if client_id.starts_with("as1-"))
        );
    }

    #[test]
    fn an_unchanged_server_refreshes_once_then_signs_in_again() {
        let now = server("http://localhost:4001/", true, false);
        let with_refresh = binding(ClientSource::Registered, true);
        assert_eq!(
            after_unauthorized(&with_refresh, &now, &[], false),
            NextSignIn::SameServer {
                refresh_first: true
            }
        );
        assert_eq!(
            after_unauthorized(&with_refresh, &now, &[], true),
            NextSignIn::SameServer {
                refresh_first: false
            }
        );
        let without = binding(ClientSource::PersonGiven { for_issuer: None }, false);
        let next = after_unauthorized(&without, &now, &[], false);
        assert_eq!(
            next,
            NextSignIn::SameServer {
                refresh_first: false
            }
        );
        assert!(next.to_string().contains("sign in again"));
    }

    #[test]
    fn portable_and_person_given_clients() {
        let url = "https://app.example/mcp-lens/client.json".to_owned();
        let cimd = binding(ClientSource::MetadataDocument { url: url.clone() }, true);
        assert!(matches!(
            after_unauthorized(&cimd, &server("https://as2.example", false, true), &[], false),
            NextSignIn::Moved { client: NewClient::MetadataDocument { url: u }, .. } if u == url
        ));
        // A metadata document the new server does not support: register instead.
        assert!(matches!(
            after_unauthorized(
                &cimd,
                &server("https://as2.example", true, false),
                &[],
                false
            ),
            NextSignIn::Moved {
                client: NewClient::Register,
                ..
            }
        ));
        let given = binding(
            ClientSource::PersonGiven {
                for_issuer: Some("http://localhost:4001".into()),
            },
            false,
        );
        let next = after_unauthorized(
            &given,
            &server("https://as2.example", true, false),
            &[],
            false,
        );
        let NextSignIn::Moved {
            client:
                NewClient::AskThePerson {
                    why,
                    can_register: true,
                },
            ..
        } = &next
        else {
            panic!("{next:?}")
        };
        assert!(
            why.contains("registered with http://localhost:4001")
                && why.contains("let the app register"),
            "{why}"
        );
        assert!(next.to_string().contains("Nothing was sent"));
        let entered = [known(
            "https://as2.example/".to_owned(),
            "typed-for-as2".to_owned(),
            true,
        )];
        assert!(matches!(
            after_unauthorized(&given, &server("https://as2.example", true, false), &entered, false),
            NextSignIn::Moved { client: NewClient::PersonGiven { client_id }, .. } if client_id == "typed-for-as2"
        ));
        let closed = after_unauthorized(
            &binding(ClientSource::Registered, false),
            &server("https://as2.example", false, false),
            &[],
            false,
        );
        assert!(matches!(
            closed,
            NextSignIn::Moved {
                client: NewClient::AskThePerson {
                    can_register: false,
                    ..
                },
                ..
            }
        ));
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn credentials_never_cross_to_another_issuer(old in "https?://[a-z]{1,6}(/[a-z]{0,3})?", new in "https?://[a-z]{1,6}(/[a-z]{0,3})?", registration in any::<bool>(), cimd in any::<bool>(), id in "[a-z]{1,8}", person in any::<bool>()) {
            let mut now = AuthServerMetadata::fallback("http://localhost/").unwrap();
            now.issuer = new.clone();
            if !registration { now.registration_endpoint = None; }
            now.client_id_metadata_document_supported = cimd;
            let before = Binding { issuer: old.clone(), client: ClientSource::Registered, refresh_token: true };
            let known = [KnownClient { issuer: old.clone(), client_id: id.clone(), person_given: person }];
            match after_unauthorized(&before, &now, &known, false) {
                NextSignIn::SameServer { .. } => prop_assert!(same_issuer(&old, &new)),
                NextSignIn::Moved { client, .. } => {
                    prop_assert!(!same_issuer(&old, &new));
                    let reused = matches!(&client, NewClient::PersonGiven { client_id } | NewClient::RegisteredBefore { client_id } if *client_id == id);
                    prop_assert!(!reused);
                }
            }
        }
    }
}
