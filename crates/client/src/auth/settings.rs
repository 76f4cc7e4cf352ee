//! What the flow needs from the page: the server, the redirect, and how the client identifies
//! itself to the authorization server (secrets kept out of `Debug`).

use mcp_lens_protocol::auth::messages::RegisteredClient;
use std::fmt;

/// How the client identifies itself to the authorization server (the spec's order of
/// preference: pre-registered, then a Client ID Metadata Document, then registration).
///
/// ```
/// use mcp_lens_client::auth::ClientChoice;
/// let typed = ClientChoice::Preregistered { client_id: "my-app".into(), client_secret: None, private_key: None, for_issuer: None };
/// assert!(!format!("{typed:?}").is_empty());
/// let automatic = ClientChoice::automatic(Some("https://app.example/client.json".into()));
/// # let _ = automatic;
/// ```
#[derive(Clone)]
pub enum ClientChoice {
    /// An id the person registered with the authorization server, and its secret or the
    /// private key (PKCS #8 PEM) it signs `private_key_jwt` assertions with.
    Preregistered {
        client_id: String,
        client_secret: Option<String>,
        private_key: Option<String>,
        /// The authorization server (its issuer) the secret or key was entered for: they go
        /// to that issuer's token endpoint only, since it is the MCP server's metadata that
        /// names the authorization server. `None`: the first flow stops before sending either,
        /// with [`AuthErrorKind::ConfirmIssuer`](mcp_lens_protocol::auth::AuthErrorKind::ConfirmIssuer) naming the issuer found, for the page to ask.
        for_issuer: Option<String>,
    },
    /// A Client ID Metadata Document URL when the server supports them and one is given;
    /// else a registration remembered for this server (`known`, by issuer); else Dynamic
    /// Client Registration (its result: [`OAuth::registered_client`](crate::auth::OAuth::registered_client)).
    Automatic {
        metadata_document_url: Option<String>,
        known: Vec<RegisteredClient>,
    },
}

impl ClientChoice {
    pub fn automatic(metadata_document_url: Option<String>) -> Self {
        ClientChoice::Automatic {
            metadata_document_url,
            known: Vec::new(),
        }
    }
}

impl fmt::Debug for ClientChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientChoice::Preregistered {
                client_id,
                client_secret,
                private_key,
                for_issuer,
            } => f
                .debug_struct("Preregistered")
                .field("client_id", client_id)
                .field("for_issuer", for_issuer)
                .field(
                    "client_secret",
                    &client_secret.as_ref().map(|_| "[redacted]"),
                )
                .field("private_key", &private_key.as_ref().map(|_| "[redacted]"))
                .finish(),
            ClientChoice::Automatic {
                metadata_document_url,
                known,
            } => f
                .debug_struct("Automatic")
                .field("metadata_document_url", metadata_document_url)
                .field("known", known)
                .finish(),
        }
    }
}

/// What the flow needs from the page.
///
/// ```
/// use mcp_lens_client::auth::{ClientChoice, OAuthSettings};
/// let settings = OAuthSettings::new("https://mcp.example.com/mcp", "https://app.example/cb", ClientChoice::automatic(None));
/// assert_eq!(settings.client_name, "mcp-lens");
/// ```
#[derive(Debug, Clone)]
pub struct OAuthSettings {
    /// The MCP server (the protected resource); the token goes to its origin only.
    pub server_url: String,
    /// Where the authorization server sends the person back (the app's callback page).
    pub redirect_uri: String,
    /// Shown by the authorization server on its consent page (registration).
    pub client_name: String,
    pub client: ClientChoice,
    /// Cross-app access (SEP-990): sign in with an ID token from the person's identity
    /// provider instead of a sign-in window ([`OAuth::cross_app_access`](crate::auth::OAuth::cross_app_access)).
    pub cross_app: Option<CrossApp>,
    /// Workload identity (SEP-1933): a JWT from the workload's platform, presented with the
    /// JWT bearer grant instead of a sign-in window ([`OAuth::workload_identity`](crate::auth::OAuth::workload_identity)).
    pub workload: Option<Workload>,
}

impl OAuthSettings {
    pub fn new(server_url: &str, redirect_uri: &str, client: ClientChoice) -> Self {
        Self {
            server_url: server_url.to_owned(),
            redirect_uri: redirect_uri.to_owned(),
            client_name: "mcp-lens".to_owned(),
            client,
            cross_app: None,
            workload: None,
        }
    }
}

/// What cross-app access needs from the person: their identity provider's token endpoint,
/// the client id (and optional secret) this app has there, and an ID token it issued them.
/// `Debug` hides the token and the secret.
#[derive(Clone, PartialEq, Eq)]
pub struct CrossApp {
    pub idp_token_endpoint: String,
    pub idp_client_id: String,
    pub idp_client_secret: Option<String>,
    pub id_token: String,
}

impl fmt::Debug for CrossApp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CrossApp")
            .field("idp_token_endpoint", &self.idp_token_endpoint)
            .field("idp_client_id", &self.idp_client_id)
            .field(
                "idp_client_secret",
                &self.idp_client_secret.as_ref().map(|_| "[redacted]"),
            )
            .field("id_token", &"[redacted]")
            .finish()
    }
}

/// A workload JWT the person pasted or loaded (SEP-1933). `Debug` hides it: it is a
/// credential.
#[derive(Clone, PartialEq, Eq)]
pub struct Workload {
    pub jwt: String,
}

impl fmt::Debug for Workload {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Workload")
            .field("jwt", &"[redacted]")
            .finish()
    }
}
