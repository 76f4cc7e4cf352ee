//! What the sign-in bar's buttons start: a sign-in in a window, with no window (client
//! credentials, cross-app access, a workload JWT), step by step; its steps released or stopped.

use super::connect::*;
use super::entries::*;
use super::same_tab::*;
use crate::protocol::auth::AuthStep;
use crate::ui::servers::Settings;
use crate::ui::store::{Connection, SignIn};
use leptos::prelude::*;
use leptos::task::spawn_local;

/// No window: a token by cross-app access or the client credentials grant, then the
/// connect again.
pub(super) fn sign_in_as_client(connection: Connection) {
    let Some((oauth, config, known_handshake)) = with_entry(connection, |e| {
        (e.oauth.clone(), e.config.clone(), e.known_handshake)
    }) else {
        return;
    };
    set_sign_in(connection, SignIn::Waiting);
    let attempt = next_attempt(connection);
    spawn_local(async move {
        let outcome = if oauth.settings().workload.is_some() {
            oauth.workload_identity(None).await
        } else if oauth.settings().cross_app.is_some() {
            oauth.cross_app_access(None).await
        } else {
            oauth.client_credentials(None).await
        };
        if !is_current(connection, attempt) {
            return; // "Start again" replaced it
        }
        match outcome {
            Ok(()) => {
                set_sign_in(connection, SignIn::SignedIn);
                connection.connect_now(config, known_handshake);
            }
            Err(error) => set_sign_in(connection, needed(&error)),
        }
    });
}

/// Starts an authorization and sends `popup` to it. `settings` are the full app's (the embed
/// view has none, and cannot sign in within its tab).
pub(super) fn sign_in(
    connection: Connection,
    popup: Option<web_sys::Window>,
    settings: Option<Settings>,
) {
    let Some(oauth) = oauth_of(connection) else {
        set_sign_in(
            connection,
            SignIn::Needed(
                "Connect first: signing in starts from the server's refusal.".to_owned(),
            ),
        );
        return;
    };
    let Some(popup) = popup else {
        let refusal = same_tab_refusal(settings);
        set_same_tab(connection, refusal.is_none());
        set_sign_in(
            connection,
            SignIn::Needed(format!(
                "The browser blocked the sign-in window. {}",
                refusal.unwrap_or(
                    "Allow pop-ups for this page and click Sign in again, or sign in in this tab: \
                     the page goes to the authorization server and comes back to this server, \
                     signed in (other servers' sessions end and the wire log starts again)."
                )
            )),
        );
        return;
    };
    listen_for_callbacks();
    set_same_tab(connection, false);
    set_sign_in(connection, SignIn::Waiting);
    spawn_local(async move {
        match oauth.start().await {
            Ok(authorize) => {
                if popup.closed().unwrap_or(true) {
                    set_sign_in(connection, SignIn::Needed(
                        "The sign-in window was closed before the authorization page opened. Click Sign in again."
                            .to_owned(),
                    ));
                    return;
                }
                let _ = popup.location().set_href(&authorize.url);
                with_entry(connection, |entry| entry.popup = Some(popup));
            }
            Err(error) => {
                let _ = popup.close();
                set_sign_in(connection, needed(&error));
            }
        }
    });
}

/// Step by step with the sign-in window: `OAuth::start` waits at each request, the click that
/// lets the authorization redirect go (or "Run the rest") opens the window (`release`), and
/// the redirect is sent there once `start` gives it.
pub(super) fn sign_in_step_by_step(connection: Connection, settings: Option<Settings>) {
    let Some(oauth) = oauth_of(connection) else {
        return sign_in(connection, None, settings); // says to connect first
    };
    listen_for_callbacks();
    set_same_tab(connection, false);
    set_sign_in(connection, SignIn::Waiting);
    let attempt = next_attempt(connection);
    stepping(connection, |s| {
        s.window_due = true;
        if let Some(old) = s.popup.take() {
            let _ = old.close();
        }
    });
    spawn_local(async move {
        let outcome = oauth.start().await;
        if !is_current(connection, attempt) {
            return; // "Start again" replaced it
        }
        let popup = stepping(connection, |s| {
            s.window_due = false;
            s.popup.take()
        })
        .flatten();
        match (
            outcome,
            popup.filter(|popup| !popup.closed().unwrap_or(true)),
        ) {
            (Ok(authorize), Some(popup)) => {
                let _ = popup.location().set_href(&authorize.url);
                with_entry(connection, |entry| entry.popup = Some(popup));
            }
            // Blocked (or closed): as without step by step, say so and offer this tab.
            (Ok(_), None) => sign_in(connection, None, settings),
            (Err(error), popup) => {
                if let Some(popup) = popup {
                    let _ = popup.close();
                }
                set_sign_in(connection, needed(&error));
            }
        }
    });
}

/// "Next step" (`rest` false) or "Run the rest": lets the step waiting go. A click that lets
/// a window sign-in's authorization redirect go opens the window (blank until the URL is known).
pub(super) fn release(connection: Connection, rest: bool) {
    let gate = gate_of(connection);
    let step = gate.waiting().map(|next| next.step);
    let redirect = rest || step == Some(AuthStep::Authorization);
    if redirect && stepping(connection, |s| s.window_due && s.popup.is_none()) == Some(true) {
        let popup = open_window();
        stepping(connection, |s| s.popup = popup);
    }
    // The focus goes on to the next step's "Next step", if one will wait (after a grant, the
    // flow has ended).
    let focus_next = !rest && !step.is_some_and(|step| GRANTS.contains(&step));
    stepping(connection, |s| s.focus_next = focus_next);
    if rest {
        gate.run_rest();
    } else {
        gate.next();
    }
}

pub(super) fn stop(connection: Connection) {
    stepping(connection, |s| s.focus_next = false);
    gate_of(connection).stop();
}

/// The "Step by step" box: off lets whatever waits go on by itself.
pub(super) fn set_step_by_step(connection: Connection, on: bool) {
    if !on {
        release(connection, true);
    }
    gate_of(connection).set_stepping(on);
}

pub(super) fn step_by_step_box(connection: Connection) -> AnyView {
    view! {
        <label class="checkbox">
            <input id="sign-in-step-by-step" type="checkbox"
                prop:checked=move || {
                    connection.auth_log().track();
                    gate_of(connection).is_stepping()
                }
                on:change=move |ev| set_step_by_step(connection, event_target_checked(&ev))/>
            " Step by step"
        </label>
    }
    .into_any()
}

/// The person's yes to sending the pre-registered secret or key to `issuer`: this flow's
/// `OAuth` sends it there, and the entry counts as made for that issuer, so the next connect
/// keeps the flow (and its tokens) rather than making a new one for the changed setting.
pub(super) fn confirm_issuer(connection: Connection, issuer: &str) {
    with_entry(connection, |entry| {
        entry.oauth.confirm_issuer(issuer);
        entry.made_for.1.client_issuer = issuer.to_owned();
    });
}
