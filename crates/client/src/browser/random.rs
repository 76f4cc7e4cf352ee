//! `crypto.getRandomValues`, the page's source of the PKCE verifier and `state`.

use crate::runtime::Random;
use js_sys::{Function, Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};

/// The browser's cryptographic random numbers, as the client's [`Random`].
pub struct CryptoRandom;

impl Random for CryptoRandom {
    fn fill(&self, bytes: &mut [u8]) -> Result<(), String> {
        let crypto = Reflect::get(&js_sys::global(), &JsValue::from_str("crypto"))
            .map_err(|_| "this page has no crypto object".to_owned())?;
        let get = Reflect::get(&crypto, &JsValue::from_str("getRandomValues"))
            .ok()
            .and_then(|f| f.dyn_into::<Function>().ok())
            .ok_or_else(|| "this page has no crypto.getRandomValues".to_owned())?;
        let array = Uint8Array::new_with_length(bytes.len() as u32);
        get.call1(&crypto, &array)
            .map_err(|_| "crypto.getRandomValues failed".to_owned())?;
        array.copy_to(bytes);
        Ok(())
    }
}
