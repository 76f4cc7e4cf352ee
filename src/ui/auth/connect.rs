//! A connect through an authorization: the `OAuth` made (or kept) for a connect, what follows a
//! connect or a refusal, the code exchanged and the connect again, signing out.

use super::entries::*;
use super::tokens::*;
use crate::client::auth::{ClientChoice, CrossApp, OAuth, OAuthSettings, Workload};
use crate::client::ClientConfig;
use crate::protocol::auth::AuthStep;
use crate::ui::store::{Connection, Identity, SignIn};
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::rc::Rc;

/// The configuration a connect goes out with: this server's `OAuth` in `auth` (kept while the
/// server URL and the client identity stay the same, so its tokens and registration do too).
pub(in crate::ui) fn prepare(
    connection: Connection,
    mut config: ClientConfig,
    identity: Identity,
    known_handshake: RwSignal<bool>,
) -> ClientConfig {
    let id = connection.id();
    if config.bearer_token.is_some() {
        // The person's own token: no sign-in.
        forget_connection(connection);
        return config;
    }
    connection.set_has_authorization(true);
    let remember = identity.remember;
    let identity = Identity {
        client_id: identity.client_id.trim().to_owned(),
        client_secret: identity.client_secret.trim().to_owned(),
        private_key: identity.private_key.trim().to_owned(),
        remember: false, // not part of what the `OAuth` is for
        ..identity
    };
    let made_for = (config.url.clone(), identity);
    let kept = with_entry(connection, |entry| {
        (entry.made_for == made_for).then(|| entry.oauth.clone())
    })
    .flatten();
    let oauth = kept.unwrap_or_else(|| {
        let identity = &made_for.1;
        let client = if identity.client_id.is_empty() {
            ClientChoice::automatic(metadata_document_url())
        } else {
            let given = |text: &String| Some(text.clone()).filter(|s| !s.is_empty());
            ClientChoice::Preregistered {
                client_id: identity.client_id.clone(),
                client_secret: given(&identity.client_secret),
                private_key: given(&identity.private_key),
                for_issuer: given(&identity.client_issuer),
            }
        };
        let mut settings = OAuthSettings::new(&config.url, &redirect_uri(), client);
        settings.cross_app = cross_app(&identity.cross_app);
        settings.workload = workload(&identity.workload_jwt);
        let oauth = OAuth::browser(settings);
        oauth.set_stepper(Some(Rc::new(gate_of(connection))));
        oauth.on_log(move |entry| {
            connection.sign_in_stepped();
            log_on_wire(connection, entry);
            if entry.method.is_some() && !entry.failed && GRANTS.contains(&entry.step) {
                // The flow holds the new tokens once this step's answer is read: after
                // this listener returns.
                spawn_local(async move { remember_tokens(connection) });
            }
            // A refusal of any request (a tool call's 403 asking for more scope, say)
            // offers "Sign in" at once; but not over a sign-in in progress (the old
            // session's requests may still be refused until it finishes).
            let signing_in = connection
                .sign_in()
                .with_untracked(|s| *s == SignIn::Waiting);
            if entry.step == AuthStep::Challenge && !signing_in {
                if let Some(reason) = oauth_of(connection).and_then(|o| needed_reason(&o)) {
                    set_sign_in(connection, SignIn::Needed(reason));
                }
            }
        });
        if let Some((tokens, flow)) = remembered_tokens(&id, &config.url).filter(|_| remember) {
            oauth.set_tokens(tokens);
            // Discovery and the client kept beside them: a refused token is refreshed
            // rather than signed in again (a flow that no longer fits is said in the steps).
            if let Some(flow) = flow {
                let _ = oauth.restore(flow);
            }
        }
        set_sign_in(connection, SignIn::Idle);
        oauth
    });
    let held = remember && oauth.is_signed_in();
    config.auth = Some(oauth.clone());
    put_entry(
        connection,
        Entry {
            oauth,
            made_for,
            config: config.clone(),
            known_handshake,
            connection,
            popup: None,
            remember,
            same_tab: false,
        },
    );
    if held {
        // "Remember" ticked after signing in: keep what is held now.
        remember_tokens(connection);
    }
    connection.sign_in_stepped();
    config
}

/// The steps whose success gives new tokens.
pub(super) const GRANTS: [AuthStep; 5] = [
    AuthStep::TokenExchange,
    AuthStep::Refresh,
    AuthStep::ClientCredentials,
    AuthStep::AssertionGrant,
    AuthStep::WorkloadGrant,
];

/// After a connect settled: offer "Sign in" when the server refused for want of it.
/// (Also when connected: a server may accept `initialize` and refuse what follows.)
pub(in crate::ui) fn after_connect(connection: Connection) {
    let Some(oauth) = oauth_of(connection) else {
        return;
    };
    let next = if let Some(reason) = needed_reason(&oauth) {
        // A sign-in in progress stands: a connect started before it settles refused, and the
        // sign-in connects again when it finishes. Offering "Sign in" over it would start a
        // second authorization whose window replaces the first one's.
        if connection
            .sign_in()
            .with_untracked(|s| *s == SignIn::Waiting)
        {
            return;
        }
        SignIn::Needed(reason)
    } else if oauth.is_signed_in() {
        SignIn::SignedIn
    } else {
        SignIn::Idle
    };
    set_sign_in(connection, next);
}

/// Cross-app access, when the person filled in its fields (endpoint, client id, ID token).
pub(super) fn cross_app(fields: &[String; 3]) -> Option<CrossApp> {
    let [endpoint, idp_client_id, id_token] = fields.clone().map(|f| f.trim().to_owned());
    (!endpoint.is_empty() || !id_token.is_empty()).then_some(CrossApp {
        idp_token_endpoint: endpoint,
        idp_client_id,
        idp_client_secret: None,
        id_token,
    })
}

/// Workload identity, when the person pasted a workload JWT.
pub(super) fn workload(jwt: &str) -> Option<Workload> {
    let jwt = jwt.trim();
    (!jwt.is_empty()).then(|| Workload {
        jwt: jwt.to_owned(),
    })
}

/// Whether this server's sign-in needs no window: the client credentials grant (machine to
/// machine), cross-app access (an ID token the person gave) or a workload JWT.
pub(super) fn signs_in_without_window(connection: Connection) -> bool {
    with_entry(connection, |e| {
        let identity = &e.made_for.1;
        identity.machine
            || cross_app(&identity.cross_app).is_some()
            || workload(&identity.workload_jwt).is_some()
    })
    .unwrap_or(false)
}

/// The server refused a session that had no authorization (a connect, or a request after
/// one): an `OAuth` is made for the last connect's configuration, told of the refusal (its
/// challenge says where to start), and Sign in offered.
pub(in crate::ui) fn refused(connection: Connection) {
    let Some(last) = connection.last_connect() else {
        return;
    };
    if last.config.bearer_token.is_some() {
        return; // the person's own token was refused: theirs to change, not a sign-in
    }
    prepare(connection, last.config, last.identity, last.known_handshake);
    if let (Some(oauth), Some((status, challenge))) =
        (oauth_of(connection), connection.last_refusal())
    {
        oauth.note_refusal(status, challenge.as_deref());
    }
    after_connect(connection);
}

/// The server's sign-in goes (the person gave a token of their own).
pub(in crate::ui) fn forget_connection(connection: Connection) {
    remove_entry(connection);
    connection.set_has_authorization(false);
    set_sign_in(connection, SignIn::Idle);
    connection.sign_in_stepped();
}

/// Ends the session, then forgets the tokens (the page's memory and the tab's; the
/// registration stays): the DELETE that ends the session still carries the token, so the
/// server accepts it (sent after the tokens were forgotten, it was refused 401, the session
/// stayed open on the server, and the refusal offered "Sign in" at once).
pub(super) fn sign_out(connection: Connection) {
    let oauth = oauth_of(connection);
    forget_tokens(&connection.id());
    set_sign_in(connection, SignIn::Idle);
    connection.disconnect_then(move || {
        if let Some(oauth) = oauth {
            oauth.sign_out();
        }
    });
}

/// Checks the redirect's `state` and exchanges its code (`OAuth::finish`), then connects
/// again with the token.
pub(super) fn finish(
    oauth: OAuth,
    connection: Connection,
    config: ClientConfig,
    known_handshake: RwSignal<bool>,
    redirect: String,
) {
    set_sign_in(connection, SignIn::Waiting);
    spawn_local(async move {
        match oauth.finish(&redirect).await {
            Ok(()) => {
                set_sign_in(connection, SignIn::SignedIn);
                connection.connect_now(config, known_handshake);
            }
            Err(error) => set_sign_in(connection, needed(&error)),
        }
    });
}
