//! How an [`OAuth`] is made: its constructors, which put the `withOAuth` layer
//! ([`bearer::around`]) behind the pointer the session calls (so `mod.rs`, which holds the
//! flow, never names the layer, and the layer's file only reads the flow).

use super::{bearer, Inner, NoSigner, OAuth, OAuthSettings, Random, Signer};
use crate::runtime::Runtime;
use std::cell::RefCell;
use std::rc::Rc;

impl OAuth {
    /// A flow over `runtime`'s HTTP and clock with `random` for PKCE and `state`, and no
    /// signer (`private_key_jwt` refuses with a sentence).
    pub fn new(runtime: &Runtime, random: Rc<dyn Random>, settings: OAuthSettings) -> Self {
        Self::with_signer(runtime, random, Rc::new(NoSigner), settings)
    }

    /// [`OAuth::new`] with a signer for `private_key_jwt` client assertions.
    pub fn with_signer(
        runtime: &Runtime,
        random: Rc<dyn Random>,
        signer: Rc<dyn Signer>,
        settings: OAuthSettings,
    ) -> Self {
        Self(Rc::new(Inner {
            http: runtime.http.clone(),
            clock: runtime.clock.clone(),
            random,
            signer,
            settings,
            state: RefCell::default(),
            refreshing: RefCell::default(),
            on_log: RefCell::default(),
            stepper: RefCell::default(),
            layer: bearer::around,
        }))
    }

    /// In the page: `fetch`, the page's clock, `crypto.getRandomValues`, WebCrypto.
    pub fn browser(settings: OAuthSettings) -> Self {
        Self::with_signer(
            &Runtime::browser(),
            Rc::new(crate::browser::random::CryptoRandom),
            Rc::new(crate::browser::sign::WebCryptoSigner),
            settings,
        )
    }
}
