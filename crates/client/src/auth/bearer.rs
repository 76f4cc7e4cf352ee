//! `withOAuth`: the layer around the session's HTTP that puts the bearer token on every
//! request to the server's origin (refreshed first when it is about to expire), records the
//! server's 401 and 403 for the page, and on a 401 of a request sent with a token renews it
//! once (one renewal shared by concurrent requests) and sends that request once more.

use super::{GrantKind, OAuth};
use crate::runtime::{Http, HttpRequest, HttpResponse};
use futures::future::LocalBoxFuture;
use futures::FutureExt;
use mcp_lens_protocol::auth::dpop::{self, nonce_retry, Answered, NonceRetry};
use mcp_lens_protocol::auth::AuthStep;
use mcp_lens_protocol::error::ErrorKind;
use mcp_lens_protocol::transport_choice::origin_of;
use std::rc::Rc;

/// `withOAuth`: a layer around the session's [`Http`] that sends the bearer token on every
/// request to the server's origin, and a request whose token was refused once more after
/// the token was renewed. Built once at connect ([`OAuth::around`]).
struct Bearer {
    auth: OAuth,
    http: Rc<dyn Http>,
}

/// `http` with `auth`'s token on the server's requests (see [`Bearer`]; [`OAuth::around`]).
pub(super) fn around(auth: &OAuth, http: Rc<dyn Http>) -> Rc<dyn Http> {
    Rc::new(Bearer {
        auth: auth.clone(),
        http,
    })
}

impl Http for Bearer {
    fn send<'a>(
        &'a self,
        request: HttpRequest<'a>,
    ) -> LocalBoxFuture<'a, Result<HttpResponse, ErrorKind>> {
        Box::pin(self.send_authorized(request))
    }
}

impl Bearer {
    /// The token on requests to the server's origin, and one retry after a refused token was
    /// renewed.
    async fn send_authorized(&self, request: HttpRequest<'_>) -> Result<HttpResponse, ErrorKind> {
        let auth = &self.auth;
        let HttpRequest {
            method,
            url,
            mut headers,
            body,
            abort,
            refuse_redirects,
        } = request;
        let send = |headers| {
            self.http.send(HttpRequest {
                method,
                url,
                headers,
                body,
                abort,
                refuse_redirects,
            })
        };
        let unauthorized = headers.clone();
        let sent = auth
            .authorize_request(method, url, body.map(str::as_bytes), &mut headers)
            .await;
        let mut response = send(headers).await?;
        if !auth.sends_token_to(url) {
            return Ok(response);
        }
        // A DPoP nonce the server gives (RFC 9449 §9), and the one retry it asks for.
        auth.remember_nonce(url, response.header(dpop::NONCE_HEADER).as_deref());
        if response.status() == 401 && sent.is_some() && auth.uses_dpop() {
            let challenge = response.header("www-authenticate");
            let answer = Answered::Resource {
                status: 401,
                www_authenticate: challenge.as_deref(),
            };
            let nonce = response.header(dpop::NONCE_HEADER);
            match nonce_retry(answer, nonce.as_deref(), false) {
                NonceRetry::RetryWith(_) => {
                    if let Some(body) = response.body() {
                        body.cancel();
                    }
                    let mut headers = unauthorized.clone();
                    auth.authorize_request(method, url, body.map(str::as_bytes), &mut headers)
                        .await;
                    response = send(headers).await?;
                    auth.remember_nonce(url, response.header(dpop::NONCE_HEADER).as_deref());
                }
                NonceRetry::Stuck(why) => auth.record(AuthStep::Challenge, &why),
                NonceRetry::NotAsked => {}
            }
        }
        let status = response.status();
        if (200..300).contains(&status) && sent.is_some() {
            auth.note_accepted();
        }
        if status != 401 && status != 403 {
            return Ok(response);
        }
        let challenge = response.header("www-authenticate");
        if !auth.after_refusal(status, challenge.as_deref(), sent).await {
            return Ok(response);
        }
        if let Some(body) = response.body() {
            body.cancel();
        }
        let mut headers = unauthorized;
        let sent = auth
            .authorize_request(method, url, body.map(str::as_bytes), &mut headers)
            .await;
        let retried = send(headers).await?;
        match retried.status() {
            // Once only: the refusal is recorded for the page, which may sign in again.
            status @ (401 | 403) => {
                auth.note_refusal(status, retried.header("www-authenticate").as_deref())
            }
            200..=299 if sent.is_some() => auth.note_accepted(),
            _ => {}
        }
        Ok(retried)
    }
}

impl OAuth {
    /// Whether the token would be sent to `url`: the server's own origin only.
    ///
    /// ```
    /// # use mcp_lens_client::auth::{ClientChoice, OAuth, OAuthSettings};
    /// # fn check(auth: &OAuth) {
    /// assert!(auth.sends_token_to("https://mcp.example.com/other/path"));
    /// assert!(!auth.sends_token_to("https://evil.example.com/mcp"));
    /// # }
    /// ```
    pub fn sends_token_to(&self, url: &str) -> bool {
        match (origin_of(url), origin_of(&self.0.settings.server_url)) {
            (Some(to), Some(server)) => to == server,
            _ => false,
        }
    }

    /// Adds the bearer token to a request for `url` (the server's origin only), refreshing
    /// first when it is about to expire; a DPoP-bound token goes with the `DPoP` scheme and a
    /// fresh proof of `method`, `url` and `body`. Gives the token's generation.
    async fn authorize_request(
        &self,
        method: &str,
        url: &str,
        body: Option<&[u8]>,
        headers: &mut Vec<(String, String)>,
    ) -> Option<u64> {
        if !self.sends_token_to(url) {
            return None;
        }
        let expiring = {
            let state = self.0.state.borrow();
            state
                .held
                .as_ref()
                .is_some_and(|held| held.refresh_at.is_some_and(|at| at <= self.now()))
        };
        if expiring {
            let generation = self.0.state.borrow().generation;
            self.renew(generation).await;
        }
        let (token, dpop, generation) = {
            let state = self.0.state.borrow();
            let held = state.held.as_ref()?;
            let dpop = held.tokens.is_dpop() && state.proof_key.is_some();
            (
                held.tokens.access_token().to_owned(),
                dpop,
                state.generation,
            )
        };
        headers.retain(|(name, _)| {
            !name.eq_ignore_ascii_case("authorization")
                && !name.eq_ignore_ascii_case(dpop::PROOF_HEADER)
        });
        if !dpop {
            headers.push(("authorization".to_owned(), format!("Bearer {token}")));
            return Some(generation);
        }
        match self
            .proof(AuthStep::Challenge, method, url, body, Some(&token))
            .await
        {
            Ok(Some((proof, _))) => headers.push((dpop::PROOF_HEADER.to_owned(), proof)),
            Ok(None) => {}
            // Sent without a proof, the server refuses it, and the step says why.
            Err(error) => self.record_failure(&error),
        }
        headers.push((
            "authorization".to_owned(),
            dpop::authorization_value(&token),
        ));
        Some(generation)
    }

    /// Gets a new token for one that failed (generation `failed`): one refresh (or one
    /// client-credentials grant) shared by every request that needs it. True when a new
    /// token is held.
    async fn renew(&self, failed: u64) -> bool {
        let running = self.0.refreshing.borrow().clone();
        if let Some(running) = running {
            return running.await;
        }
        let (generation, grant, can_refresh) = {
            let state = self.0.state.borrow();
            let Some(held) = &state.held else {
                return false;
            };
            (
                state.generation,
                held.grant,
                held.tokens.refresh_token().is_some(),
            )
        };
        if generation != failed {
            return true; // a newer token came meanwhile
        }
        let this = self.clone();
        let renewal = async move {
            let outcome = match (grant, can_refresh) {
                (_, true) => this.refresh().await,
                (GrantKind::ClientCredentials, false) => this.client_credentials(None).await,
                (GrantKind::CrossApp, false) => this.cross_app_access(None).await,
                (GrantKind::Workload, false) => this.workload_identity(None).await,
                (GrantKind::Code, false) => {
                    // Revoked, or the server moved to another authorization server (SEP-2352).
                    this.after_token_refused().await;
                    return false;
                }
            };
            if outcome.is_err() {
                let mut state = this.0.state.borrow_mut();
                state.held = None;
                state.generation += 1;
            }
            outcome.is_ok()
        }
        .boxed_local()
        .shared();
        *self.0.refreshing.borrow_mut() = Some(renewal.clone());
        let renewed = renewal.await;
        *self.0.refreshing.borrow_mut() = None;
        renewed
    }

    /// What the engine does with a refused request (401 or 403 from the server's origin):
    /// records the refusal; on a 401 of a request sent with a token, gets a new one. True
    /// when the request should be sent once more.
    async fn after_refusal(
        &self,
        status: u16,
        www_authenticate: Option<&str>,
        sent: Option<u64>,
    ) -> bool {
        let stale = {
            let state = self.0.state.borrow();
            state.held.is_some() && sent != Some(state.generation)
        };
        if stale {
            // Sent without a token, or with an older one, and a sign-in finished meanwhile:
            // this says nothing of the token held now (and must not offer "Sign in" over
            // it). Send the request again with it.
            return true;
        }
        self.note_refusal(status, www_authenticate);
        match (status, sent) {
            (401, Some(generation)) => self.renew(generation).await,
            // No refresh widens a grant (RFC 6749 §6): a 403 asks for a new authorization.
            _ => false,
        }
    }
}
