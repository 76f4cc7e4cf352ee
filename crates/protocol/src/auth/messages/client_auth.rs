//! Who the client is at the token endpoint: its id, its secret if any, and how it proves
//! itself as registered.

use std::fmt;

/// How the client proves itself at the token endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClientAuthMethod {
    /// A public client: `client_id` in the body.
    None,
    /// `Authorization: Basic` with the id and secret (RFC 6749 §2.3.1).
    ClientSecretBasic,
    /// `client_id` and `client_secret` in the body.
    ClientSecretPost,
    /// A JWT signed with the client's private key (RFC 7523 §2.2): `client_assertion` in
    /// the body, added by [`TokenRequest::with_client_assertion`].
    PrivateKeyJwt,
}

impl ClientAuthMethod {
    pub fn as_str(self) -> &'static str {
        match self {
            ClientAuthMethod::None => "none",
            ClientAuthMethod::ClientSecretBasic => "client_secret_basic",
            ClientAuthMethod::ClientSecretPost => "client_secret_post",
            ClientAuthMethod::PrivateKeyJwt => "private_key_jwt",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "none" => Some(ClientAuthMethod::None),
            "client_secret_basic" => Some(ClientAuthMethod::ClientSecretBasic),
            "client_secret_post" => Some(ClientAuthMethod::ClientSecretPost),
            "private_key_jwt" => Some(ClientAuthMethod::PrivateKeyJwt),
            _ => None,
        }
    }

    /// The method to use (the TypeScript SDK's rule): the one registered, if the server
    /// supports it; else, with a secret, Basic then post; else `none`. A server that lists
    /// no methods supports `client_secret_basic` (RFC 8414 §2).
    ///
    /// ```
    /// use mcp_lens_protocol::auth::messages::ClientAuthMethod;
    /// let only_post = vec!["client_secret_post".to_owned()];
    /// assert_eq!(ClientAuthMethod::select(None, true, Some(&only_post)), ClientAuthMethod::ClientSecretPost);
    /// assert_eq!(ClientAuthMethod::select(None, true, None), ClientAuthMethod::ClientSecretBasic);
    /// assert_eq!(ClientAuthMethod::select(None, false, None), ClientAuthMethod::None);
    /// ```
    pub fn select(
        registered: Option<&str>,
        has_secret: bool,
        supported: Option<&[String]>,
    ) -> Self {
        let supported = supported.unwrap_or_default();
        let listed = |method: ClientAuthMethod| supported.iter().any(|s| s == method.as_str());
        if let Some(method) = registered.and_then(Self::parse) {
            let usable = match method {
                ClientAuthMethod::None => true,
                ClientAuthMethod::PrivateKeyJwt => false, // chosen with a key, not here
                _ => has_secret,
            };
            if usable && (supported.is_empty() || listed(method)) {
                return method;
            }
        }
        if !has_secret {
            return ClientAuthMethod::None;
        }
        if supported.is_empty() || listed(ClientAuthMethod::ClientSecretBasic) {
            ClientAuthMethod::ClientSecretBasic
        } else if listed(ClientAuthMethod::ClientSecretPost) {
            ClientAuthMethod::ClientSecretPost
        } else if listed(ClientAuthMethod::None) {
            ClientAuthMethod::None
        } else {
            ClientAuthMethod::ClientSecretPost
        }
    }
}

/// The client's identity at one authorization server. `Debug` hides the secret.
#[derive(Clone, PartialEq, Eq)]
pub struct ClientId {
    pub client_id: String,
    client_secret: Option<String>,
    pub method: ClientAuthMethod,
}

impl ClientId {
    pub fn new(
        client_id: impl Into<String>,
        client_secret: Option<String>,
        method: ClientAuthMethod,
    ) -> Self {
        Self {
            client_id: client_id.into(),
            client_secret: client_secret.filter(|s| !s.is_empty()),
            method,
        }
    }

    pub fn has_secret(&self) -> bool {
        self.client_secret.is_some()
    }

    /// The secret, for the token request only.
    pub fn secret(&self) -> Option<&str> {
        self.client_secret.as_deref()
    }
}

impl fmt::Debug for ClientId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientId")
            .field("client_id", &self.client_id)
            .field(
                "client_secret",
                &self.client_secret.as_ref().map(|_| "[redacted]"),
            )
            .field("method", &self.method)
            .finish()
    }
}
