//! What a flow found or decided, as the page reads it: discovery's result, where to send the
//! person, and the server's last refusal.

use crate::runtime::DpopKey;
use mcp_lens_protocol::auth::challenge::BearerChallenge;
use mcp_lens_protocol::auth::discovery::{AuthServerMetadata, ProtectedResourceMetadata};
use mcp_lens_protocol::auth::dpop::PublicJwk;
use std::rc::Rc;

/// Where to send the person: open `url` (a popup); the redirect carries `state`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Authorize {
    pub url: String,
    pub state: String,
}

/// What discovery found.
#[derive(Debug, Clone, PartialEq)]
pub struct Discovered {
    /// `None` for a 2025-03-26 server without Protected Resource Metadata.
    pub resource_metadata: Option<ProtectedResourceMetadata>,
    /// The `resource` parameter sent (RFC 8707).
    pub resource: String,
    pub auth_server: AuthServerMetadata,
}

/// The last refusal the server sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub status: u16,
    /// `None` when the answer had no (readable) Bearer or DPoP challenge.
    pub challenge: Option<BearerChallenge>,
    /// The challenge was a `DPoP` one (RFC 9449 §7.1): the server wants DPoP-bound tokens.
    pub dpop: bool,
}

/// The DPoP key of the current sign-in (made for it; the private half is never read) and
/// its public JWK, which every proof carries.
#[derive(Clone)]
pub(crate) struct ProofKey {
    pub key: Rc<dyn DpopKey>,
    pub jwk: PublicJwk,
}
