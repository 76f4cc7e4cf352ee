//! Discovery: the server's Protected Resource Metadata (the 401's `resource_metadata`, then
//! the well-known URLs), then its authorization server's metadata (RFC 8414, then OpenID
//! Connect), each URL tried in turn; a 2025-03-26 server without resource metadata has its
//! origin as authorization server.

use super::{fail, Discovered, OAuth};
use mcp_lens_protocol::auth::discovery::{
    auth_server_metadata_urls, check_resource, prm_urls, try_next_after, AuthServerMetadata,
    HttpUrl, ProtectedResourceMetadata,
};
use mcp_lens_protocol::auth::redact::redact_text;
use mcp_lens_protocol::auth::{AuthError, AuthErrorKind, AuthStep};
use mcp_lens_protocol::error::excerpt;

/// Why no metadata was read when some URLs could not be read at all (`blocked`: URL and
/// failure): the browser hides whether they are absent or send no CORS headers, so the error
/// names them and the header they need ("no metadata was found" would hide the likelier cause).
fn unreadable(step: AuthStep, blocked: &[(String, String)]) -> Option<AuthError> {
    let (_, detail) = blocked.first()?;
    let urls: Vec<&str> = blocked.iter().map(|(url, _)| url.as_str()).collect();
    Some(AuthError::new(
        step,
        AuthErrorKind::Network {
            url: urls.join(" and "),
            detail: detail.clone(),
        },
    ))
}

impl OAuth {
    /// GETs metadata from each URL in turn until one answers 2xx: 4xx, 502 and network
    /// failures (a browser cannot tell CORS from absence) move on to the next URL; `blocked`
    /// gets the URLs that failed so, with the failure. `why` says why each URL is tried.
    async fn first_document(
        &self,
        step: AuthStep,
        urls: &[String],
        why: &dyn Fn(&str) -> String,
        blocked: &mut Vec<(String, String)>,
    ) -> Result<Option<(String, String)>, AuthError> {
        for (index, url) in urls.iter().enumerate() {
            let headers = vec![("accept".to_owned(), "application/json".to_owned())];
            let why = match index {
                0 => why(url),
                _ => format!("the URL before had none; {}", why(url)),
            };
            match self
                .exchange(step, "GET", url, headers, None, None, why)
                .await
            {
                Ok((status, text)) if (200..300).contains(&status) => {
                    return Ok(Some((url.clone(), text)))
                }
                Ok((status, _)) if try_next_after(status) => {
                    self.note_last(format!("answered {status}: not here, trying the next URL"));
                }
                Ok((status, text)) => {
                    return Err(AuthError::new(
                        step,
                        AuthErrorKind::HttpStatus {
                            url: url.clone(),
                            status,
                            body_start: excerpt(&redact_text(&text), 300),
                        },
                    ))
                }
                Err(error) if error.is_network() => {
                    self.note_last(format!("{error} Trying the next URL."));
                    if let AuthErrorKind::Network { detail, .. } = error.kind {
                        blocked.push((url.clone(), detail));
                    }
                }
                Err(error) => return Err(error),
            }
        }
        Ok(None)
    }

    /// Finds the Protected Resource Metadata and the authorization server (see
    /// [`mcp_lens_protocol::auth::discovery`]). Refuses metadata for another resource.
    pub async fn discover(&self) -> Result<Discovered, AuthError> {
        let outcome = self.discover_inner(true).await;
        if let Err(error) = &outcome {
            self.record_failure(error);
        }
        self.flow_ended();
        outcome
    }

    pub(super) async fn discover_inner(&self, code_flow: bool) -> Result<Discovered, AuthError> {
        let server = self.0.settings.server_url.clone();
        let challenge_url = self
            .refusal()
            .and_then(|r| r.challenge)
            .and_then(|c| c.resource_metadata)
            .filter(|url| HttpUrl::parse(url).is_some());
        let mut urls = prm_urls(&server).map_err(fail(AuthStep::ResourceMetadata))?;
        if let Some(url) = &challenge_url {
            urls.retain(|u| u != url);
            urls.insert(0, url.clone());
        }
        let mut prm_blocked = Vec::new();
        let root_prm = urls.last().cloned();
        let why_prm = |url: &str| {
            if Some(url) == challenge_url.as_deref() {
                "the server's 401 names it (resource_metadata in WWW-Authenticate)".to_owned()
            } else if Some(url) == root_prm.as_deref() {
                "the well-known URL at the server's origin (RFC 9728)".to_owned()
            } else {
                "the well-known URL for the server's path (RFC 9728)".to_owned()
            }
        };
        let prm = match self
            .first_document(
                AuthStep::ResourceMetadata,
                &urls,
                &why_prm,
                &mut prm_blocked,
            )
            .await?
        {
            Some((_, text)) => {
                let prm = ProtectedResourceMetadata::parse(&text)
                    .map_err(fail(AuthStep::ResourceMetadata))?;
                Some(prm)
            }
            None => None,
        };
        let (resource, issuer, legacy) = match &prm {
            Some(prm) => {
                let resource = check_resource(&server, prm)
                    .map_err(|(step, kind)| AuthError::new(step, kind))?;
                let issuer = prm.authorization_server().map(str::to_owned);
                self.note_last(format!(
                    "resource {resource} matches the server; authorization server: {}",
                    issuer
                        .as_deref()
                        .unwrap_or("none listed (the server's origin is used)")
                ));
                let legacy = issuer.is_none();
                (resource, issuer, legacy)
            }
            None => {
                // The server named its metadata, so it has some: unreadable there is most often
                // a missing CORS header, and guessing a 2025-03-26 server would mislead.
                let named = |(url, _): &(String, String)| Some(url) == challenge_url.as_ref();
                if let Some(error) = prm_blocked
                    .iter()
                    .any(named)
                    .then(|| unreadable(AuthStep::ResourceMetadata, &prm_blocked))
                    .flatten()
                {
                    return Err(error);
                }
                self.record(
                    AuthStep::ResourceMetadata,
                    if prm_blocked.is_empty() {
                        "no protected resource metadata: a 2025-03-26 server, whose origin is its authorization server"
                    } else {
                        "no protected resource metadata could be read (the browser hides why: absent, or \
                         sent without Access-Control-Allow-Origin): trying the 2025-03-26 way, the \
                         server's origin as its authorization server"
                    },
                );
                let resource = mcp_lens_protocol::auth::discovery::canonical_resource(&server)
                    .unwrap_or_else(|| server.clone());
                (resource, None, true)
            }
        };
        let issuer = match issuer {
            Some(issuer) => issuer,
            None => HttpUrl::parse(&server)
                .map(|url| url.origin)
                .unwrap_or_default(),
        };
        let urls: Vec<String> = auth_server_metadata_urls(&issuer)
            .into_iter()
            .map(|(url, _)| url)
            .collect();
        let named_by = if legacy {
            "the server's origin (no resource metadata names one)"
        } else {
            "named by the resource metadata"
        };
        let why_metadata = |url: &str| {
            let kind = if url.contains("/.well-known/openid-configuration") {
                "OpenID Connect discovery"
            } else {
                "RFC 8414"
            };
            format!("the authorization server is {issuer}, {named_by}; its {kind} metadata URL")
        };
        let mut blocked = Vec::new();
        let auth_server = match self
            .first_document(
                AuthStep::AuthServerMetadata,
                &urls,
                &why_metadata,
                &mut blocked,
            )
            .await?
        {
            Some((_, text)) => {
                let mut metadata =
                    AuthServerMetadata::parse(&text).map_err(fail(AuthStep::AuthServerMetadata))?;
                metadata
                    .validate(&issuer, legacy, code_flow)
                    .map_err(fail(AuthStep::AuthServerMetadata))?;
                let named = legacy.then(|| metadata.bind_to_origin(&issuer)).flatten();
                self.note_last(format!(
                    "issuer {}; PKCE S256; registration {}; client ID metadata documents {}",
                    metadata.issuer,
                    if metadata.registration_endpoint.is_some() {
                        "offered"
                    } else {
                        "not offered"
                    },
                    if metadata.client_id_metadata_document_supported {
                        "supported"
                    } else {
                        "not supported"
                    },
                ));
                if let Some(named) = named {
                    self.record(
                        AuthStep::AuthServerMetadata,
                        &format!(
                            "the metadata names the issuer {}, which nothing vouches for: with no resource \
                             metadata (2025-03-26) the server's origin is its authorization server, so {issuer} \
                             is the issuer (the audience of any assertion, the iss expected back)",
                            excerpt(&named, 200)
                        ),
                    );
                }
                metadata
            }
            None if legacy => {
                let fallback = AuthServerMetadata::fallback(&server).ok_or_else(|| {
                    AuthError::new(
                        AuthStep::AuthServerMetadata,
                        AuthErrorKind::NotFound {
                            what: "authorization server metadata",
                            tried: urls.clone(),
                        },
                    )
                })?;
                self.record(
                    AuthStep::AuthServerMetadata,
                    &format!(
                        "no metadata: using the 2025-03-26 defaults {}, {} and {}",
                        fallback.authorization_endpoint,
                        fallback.token_endpoint,
                        fallback.registration_endpoint.as_deref().unwrap_or("")
                    ),
                );
                fallback
            }
            None => {
                return Err(
                    unreadable(AuthStep::AuthServerMetadata, &blocked).unwrap_or_else(|| {
                        AuthError::new(
                            AuthStep::AuthServerMetadata,
                            AuthErrorKind::NotFound {
                                what: "authorization server metadata",
                                tried: urls,
                            },
                        )
                    }),
                )
            }
        };
        let discovered = Discovered {
            resource_metadata: prm,
            resource,
            auth_server,
        };
        self.0.state.borrow_mut().discovered = Some(discovered.clone());
        Ok(discovered)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_that_could_not_be_read_names_its_urls_and_the_cors_header() {
        assert_eq!(unreadable(AuthStep::AuthServerMetadata, &[]), None);
        let blocked = [
            (
                "http://127.0.0.1:4000/.well-known/oauth-authorization-server".to_owned(),
                "TypeError: Failed to fetch".to_owned(),
            ),
            (
                "http://127.0.0.1:4000/.well-known/openid-configuration".to_owned(),
                "TypeError: Failed to fetch".to_owned(),
            ),
        ];
        let error = unreadable(AuthStep::AuthServerMetadata, &blocked).unwrap();
        assert!(error.is_network());
        let text = error.to_string();
        assert!(
            text.starts_with(
                "Reading the authorization server metadata failed: \
                 http://127.0.0.1:4000/.well-known/oauth-authorization-server and \
                 http://127.0.0.1:4000/.well-known/openid-configuration could not be reached \
                 (TypeError: Failed to fetch)."
            ),
            "{text}"
        );
        assert!(text.contains("Access-Control-Allow-Origin"), "{text}");
    }
}
