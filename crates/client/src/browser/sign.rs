//! `crypto.subtle.sign`: the page signs `private_key_jwt` client assertions with WebCrypto,
//! so the pasted key never leaves the page and no signing code ships in the wasm.

use crate::runtime::{DpopKey, Signer};
use futures::future::LocalBoxFuture;
use js_sys::{Array, Function, Object, Reflect, Uint8Array};
use mcp_lens_protocol::auth::jwt::{PrivateKey, SigningAlg};
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// WebCrypto as the client's [`Signer`], with `Date.now()` for the claims.
pub struct WebCryptoSigner;

fn object(pairs: &[(&str, &str)]) -> Object {
    let object = Object::new();
    for (name, value) in pairs {
        let _ = Reflect::set(&object, &JsValue::from_str(name), &JsValue::from_str(value));
    }
    object
}

/// The import and sign parameters of WebCrypto for each JWS algorithm (RFC 7518 §3).
fn parameters(alg: SigningAlg) -> (Object, Object) {
    match alg {
        SigningAlg::Es256 => (
            object(&[("name", "ECDSA"), ("namedCurve", "P-256")]),
            object(&[("name", "ECDSA"), ("hash", "SHA-256")]),
        ),
        SigningAlg::Es384 => (
            object(&[("name", "ECDSA"), ("namedCurve", "P-384")]),
            object(&[("name", "ECDSA"), ("hash", "SHA-384")]),
        ),
        SigningAlg::Rs256 => (
            object(&[("name", "RSASSA-PKCS1-v1_5"), ("hash", "SHA-256")]),
            object(&[("name", "RSASSA-PKCS1-v1_5")]),
        ),
    }
}

fn method(target: &JsValue, name: &str) -> Result<Function, String> {
    Reflect::get(target, &JsValue::from_str(name))
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok())
        .ok_or_else(|| {
            format!("this page has no crypto.subtle.{name} (an https page or localhost is needed)")
        })
}

/// The reason a WebCrypto promise was rejected with (a `DOMException`'s message).
fn reason(error: JsValue) -> String {
    Reflect::get(&error, &JsValue::from_str("message"))
        .ok()
        .and_then(|m| m.as_string())
        .unwrap_or_else(|| "unknown error".to_owned())
}

/// `crypto.subtle`, or why the page has none.
fn subtle() -> Result<JsValue, String> {
    let crypto = Reflect::get(&js_sys::global(), &JsValue::from_str("crypto"))
        .map_err(|_| "this page has no crypto object".to_owned())?;
    Reflect::get(&crypto, &JsValue::from_str("subtle"))
        .ok()
        .filter(|s| s.is_object())
        .ok_or_else(|| {
            "this page has no crypto.subtle (an https page or localhost is needed)".to_owned()
        })
}

/// The WebCrypto signature of `data` by `key`.
async fn sign_with(
    subtle: &JsValue,
    params: &Object,
    key: &JsValue,
    data: &[u8],
) -> Result<Vec<u8>, String> {
    let signed = method(subtle, "sign")?
        .call3(subtle, params, key, &Uint8Array::from(data))
        .map_err(|e| format!("signing failed: {}", reason(e)))?;
    let signature = JsFuture::from(js_sys::Promise::from(signed))
        .await
        .map_err(|e| format!("signing failed: {}", reason(e)))?;
    Ok(Uint8Array::new(&signature).to_vec())
}

async fn sign(der: Vec<u8>, alg: SigningAlg, data: Vec<u8>) -> Result<Vec<u8>, String> {
    let subtle = subtle()?;
    let (import_params, sign_params) = parameters(alg);
    let usages = Array::of1(&JsValue::from_str("sign"));
    let import = method(&subtle, "importKey")?;
    let arguments = Array::of5(
        &JsValue::from_str("pkcs8"),
        &Uint8Array::from(der.as_slice()),
        &import_params,
        &JsValue::FALSE,
        &usages,
    );
    let promise = import
        .apply(&subtle, &arguments)
        .map_err(|e| format!("the key could not be imported: {}", reason(e)))?;
    let key = JsFuture::from(js_sys::Promise::from(promise))
        .await
        .map_err(|e| format!("the key could not be imported: {}", reason(e)))?;
    sign_with(&subtle, &sign_params, &key, &data).await
}

/// A DPoP key pair made by `crypto.subtle.generateKey` with `extractable: false`: the page
/// holds a handle to the private key and can only sign with it.
struct WebCryptoDpopKey {
    private_key: JsValue,
    public_point: Vec<u8>,
}

impl DpopKey for WebCryptoDpopKey {
    fn public_point(&self) -> Vec<u8> {
        self.public_point.clone()
    }

    fn sign(&self, data: &[u8]) -> LocalBoxFuture<'static, Result<Vec<u8>, String>> {
        let key = self.private_key.clone();
        let data = data.to_vec();
        Box::pin(async move {
            let (_, params) = parameters(SigningAlg::Es256);
            sign_with(&subtle()?, &params, &key, &data).await
        })
    }
}

async fn dpop_key() -> Result<Rc<dyn DpopKey>, String> {
    let subtle = subtle()?;
    let (params, _) = parameters(SigningAlg::Es256);
    let usages = Array::of1(&JsValue::from_str("sign"));
    let generated = method(&subtle, "generateKey")?
        .call3(&subtle, &params, &JsValue::FALSE, &usages)
        .map_err(|e| format!("no DPoP key could be made: {}", reason(e)))?;
    let pair = JsFuture::from(js_sys::Promise::from(generated))
        .await
        .map_err(|e| format!("no DPoP key could be made: {}", reason(e)))?;
    let half = |name: &str| Reflect::get(&pair, &JsValue::from_str(name)).unwrap_or_default();
    // The public half of a pair is always exportable, whatever `extractable` says.
    let exported = method(&subtle, "exportKey")?
        .call2(&subtle, &JsValue::from_str("raw"), &half("publicKey"))
        .map_err(|e| format!("the DPoP public key could not be read: {}", reason(e)))?;
    let raw = JsFuture::from(js_sys::Promise::from(exported))
        .await
        .map_err(|e| format!("the DPoP public key could not be read: {}", reason(e)))?;
    Ok(Rc::new(WebCryptoDpopKey {
        private_key: half("privateKey"),
        public_point: Uint8Array::new(&raw).to_vec(),
    }))
}

impl Signer for WebCryptoSigner {
    fn unix_seconds(&self) -> u64 {
        (js_sys::Date::now() / 1000.0) as u64
    }

    fn sign(
        &self,
        key: &PrivateKey,
        data: &[u8],
    ) -> LocalBoxFuture<'static, Result<Vec<u8>, String>> {
        Box::pin(sign(key.der().to_vec(), key.alg, data.to_vec()))
    }

    fn dpop_key(&self) -> LocalBoxFuture<'static, Result<Rc<dyn DpopKey>, String>> {
        Box::pin(dpop_key())
    }
}
