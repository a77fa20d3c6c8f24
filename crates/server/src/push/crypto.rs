//! Web Push cryptography: the server's VAPID key (RFC 8292: an ES256 JWT in the
//! `Authorization: vapid t=…, k=…` header) and the message encryption of RFC 8291 (ECDH P-256 +
//! HKDF-SHA-256 → AES-128-GCM in the `aes128gcm` content coding of RFC 8188, one record).

use aes_gcm::aead::{Aead, KeyInit};
use aes_gcm::{Aes128Gcm, Nonce};
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use base64::Engine as _;
use hkdf::Hkdf;
use p256::ecdsa::signature::Signer;
use p256::ecdsa::{Signature, SigningKey};
use p256::elliptic_curve::sec1::ToEncodedPoint;
use p256::{PublicKey, SecretKey};
use sha2::Sha256;

/// Record size written in the aes128gcm header: one record holds the whole (small) payload.
const RECORD_SIZE: u32 = 4096;
/// Largest payload before encryption (a push service accepts 4096 bytes of body).
pub const MAX_PAYLOAD: usize = 3000;

/// 32 bytes from the OS RNG that are a valid P-256 secret key.
pub fn random_secret() -> SecretKey {
    loop {
        let mut bytes = [0u8; 32];
        if getrandom::fill(&mut bytes).is_err() {
            continue;
        }
        if let Ok(key) = SecretKey::from_slice(&bytes) {
            return key;
        }
    }
}

/// The uncompressed SEC1 form (65 bytes) of a public key.
pub fn public_bytes(key: &PublicKey) -> Vec<u8> {
    key.to_encoded_point(false).as_bytes().to_vec()
}

/// base64url without padding.
pub fn b64(bytes: &[u8]) -> String {
    B64.encode(bytes)
}

/// Decodes base64url, with or without padding.
pub fn unb64(text: &str) -> Option<Vec<u8>> {
    B64.decode(text.trim_end_matches('=')).ok()
}

/// The server's VAPID key pair.
#[derive(Clone)]
pub struct Vapid {
    key: SigningKey,
    /// base64url of the uncompressed public key: the browser's `applicationServerKey`.
    pub public: String,
}

impl std::fmt::Debug for Vapid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Vapid")
            .field("public", &self.public)
            .finish()
    }
}

impl Vapid {
    /// A fresh key pair; [`Vapid::secret_b64`] is what to store.
    pub fn generate() -> Self {
        Self::from_secret(&random_secret())
    }

    fn from_secret(secret: &SecretKey) -> Self {
        Self {
            key: SigningKey::from(secret),
            public: b64(&public_bytes(&secret.public_key())),
        }
    }

    /// The stored form: base64url of the 32-byte scalar.
    pub fn secret_b64(&self) -> String {
        b64(&self.key.to_bytes())
    }

    /// Reads back [`Vapid::secret_b64`].
    pub fn from_b64(text: &str) -> Option<Self> {
        let bytes = unb64(text)?;
        Some(Self::from_secret(&SecretKey::from_slice(&bytes).ok()?))
    }

    /// The `Authorization` header value for a push to `audience` (the endpoint's origin),
    /// valid until `exp` (Unix seconds).
    pub fn authorization(&self, audience: &str, subject: &str, exp: i64) -> String {
        let header = b64(br#"{"typ":"JWT","alg":"ES256"}"#);
        let claims = serde_json::json!({"aud": audience, "exp": exp, "sub": subject});
        let claims = b64(claims.to_string().as_bytes());
        let signing_input = format!("{header}.{claims}");
        let signature: Signature = self.key.sign(signing_input.as_bytes());
        let jwt = format!("{signing_input}.{}", b64(&signature.to_bytes()));
        format!("vapid t={jwt}, k={}", self.public)
    }
}

/// Why a subscription's keys cannot be used.
#[derive(Debug, PartialEq, Eq)]
pub struct BadKeys(pub &'static str);

/// Checks a subscription's `p256dh` (a P-256 point, 65 bytes) and `auth` (16 bytes).
///
/// # Errors
/// Which key is wrong.
pub fn check_keys(p256dh: &str, auth: &str) -> Result<(PublicKey, [u8; 16]), BadKeys> {
    let point = unb64(p256dh).ok_or(BadKeys("keys.p256dh is not base64url"))?;
    if point.len() != 65 {
        return Err(BadKeys("keys.p256dh must be an uncompressed P-256 point"));
    }
    let public =
        PublicKey::from_sec1_bytes(&point).map_err(|_| BadKeys("keys.p256dh is not on P-256"))?;
    let auth: [u8; 16] = unb64(auth)
        .and_then(|a| a.try_into().ok())
        .ok_or(BadKeys("keys.auth must be 16 bytes of base64url"))?;
    Ok((public, auth))
}

/// Encrypts `payload` for the browser key `ua_public` and auth secret `auth` (RFC 8291), with
/// a fresh ephemeral key and salt: the `aes128gcm` body.
pub fn encrypt(ua_public: &PublicKey, auth: &[u8; 16], payload: &[u8]) -> Vec<u8> {
    let mut salt = [0u8; 16];
    let _ = getrandom::fill(&mut salt);
    encrypt_with(ua_public, auth, payload, &random_secret(), salt)
}

fn hkdf_expand<const N: usize>(salt: &[u8], ikm: &[u8], info: &[u8]) -> [u8; N] {
    let mut out = [0u8; N];
    // N ≤ 32 is always a valid HKDF-SHA-256 output length.
    let _ = Hkdf::<Sha256>::new(Some(salt), ikm).expand(info, &mut out);
    out
}

/// [`encrypt`] with a given ephemeral key and salt (tests).
pub fn encrypt_with(
    ua_public: &PublicKey,
    auth: &[u8; 16],
    payload: &[u8],
    as_secret: &SecretKey,
    salt: [u8; 16],
) -> Vec<u8> {
    let ua_bytes = public_bytes(ua_public);
    let as_bytes = public_bytes(&as_secret.public_key());
    let shared = p256::ecdh::diffie_hellman(as_secret.to_nonzero_scalar(), ua_public.as_affine());
    let mut key_info = b"WebPush: info\0".to_vec();
    key_info.extend_from_slice(&ua_bytes);
    key_info.extend_from_slice(&as_bytes);
    let ikm: [u8; 32] = hkdf_expand(auth, shared.raw_secret_bytes(), &key_info);
    let cek: [u8; 16] = hkdf_expand(&salt, &ikm, b"Content-Encoding: aes128gcm\0");
    let nonce: [u8; 12] = hkdf_expand(&salt, &ikm, b"Content-Encoding: nonce\0");
    let mut plain = payload.to_vec();
    plain.push(2); // delimiter of the last (only) record, no padding
    let cipher = Aes128Gcm::new(&cek.into());
    let sealed = cipher
        .encrypt(Nonce::from_slice(&nonce), plain.as_slice())
        .unwrap_or_default();
    let mut body = Vec::with_capacity(86 + sealed.len());
    body.extend_from_slice(&salt);
    body.extend_from_slice(&RECORD_SIZE.to_be_bytes());
    body.push(as_bytes.len() as u8);
    body.extend_from_slice(&as_bytes);
    body.extend_from_slice(&sealed);
    body
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 8291 section 5: the example message, with its keys, salt and result.
    #[test]
    fn rfc8291_example() {
        let ua_public = PublicKey::from_sec1_bytes(
            &unb64("BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4").unwrap(),
        )
        .unwrap();
        let auth: [u8; 16] = unb64("BTBZMqHH6r4Tts7J_aSIgg").unwrap().try_into().unwrap();
        let as_secret =
            SecretKey::from_slice(&unb64("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw").unwrap())
                .unwrap();
        let salt: [u8; 16] = unb64("DGv6ra1nlYgDCS1FRnbzlw").unwrap().try_into().unwrap();
        let body = encrypt_with(
            &ua_public,
            &auth,
            b"When I grow up, I want to be a watermelon",
            &as_secret,
            salt,
        );
        assert_eq!(
            b64(&body),
            "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
        );
    }
}
