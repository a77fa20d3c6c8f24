//! Random identifiers: room codes, seat tokens, client ids; seat tokens are stored hashed and
//! compared in constant time.

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// The 31 characters of room codes: no `0 O 1 I L`.
pub const CODE_ALPHABET: &[u8] = b"23456789ABCDEFGHJKMNPQRSTUVWXYZ";
/// Length of a room code.
pub const CODE_LEN: usize = 6;

/// `N` bytes from the operating system's RNG.
fn random_bytes<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    // The OS RNG failing is not recoverable: nothing secret can be made without it.
    getrandom::fill(&mut bytes).expect("the operating system's random generator failed");
    bytes
}

/// A fresh 128-bit random value as 32 lowercase hex digits (seat tokens, client ids).
pub fn random_hex128() -> String {
    random_bytes::<16>()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A fresh random room code (uniform over the alphabet: bytes ≥ 248 are redrawn).
pub fn random_code() -> String {
    let mut code = String::with_capacity(CODE_LEN);
    while code.len() < CODE_LEN {
        for b in random_bytes::<16>() {
            if b < 248 && code.len() < CODE_LEN {
                code.push(CODE_ALPHABET[(b % 31) as usize] as char);
            }
        }
    }
    code
}

/// The canonical form of a code typed by a person (upper case), or `None` if it cannot be one.
pub fn normalize_code(input: &str) -> Option<String> {
    let code = input.trim().to_ascii_uppercase();
    (code.len() == CODE_LEN && code.bytes().all(|b| CODE_ALPHABET.contains(&b))).then_some(code)
}

/// SHA-256 of a seat token: the only form the server keeps.
pub fn hash_token(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// Whether `token` hashes to `hash`, compared in constant time.
pub fn token_matches(token: &str, hash: &[u8; 32]) -> bool {
    hash_token(token).ct_eq(hash).into()
}

/// Whether `s` looks like a value made by [`random_hex128`] (used to ignore junk cookies).
pub fn is_hex128(s: &str) -> bool {
    s.len() == 32 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// HMAC-SHA-256 of `message` under `key` (RFC 2104).
fn hmac_sha256(key: &[u8], message: &[u8]) -> [u8; 32] {
    const BLOCK: usize = 64;
    let mut block = [0u8; BLOCK];
    if key.len() > BLOCK {
        block[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        block[..key.len()].copy_from_slice(key);
    }
    let pad = |byte: u8| block.map(|b| b ^ byte);
    let inner = Sha256::new()
        .chain_update(pad(0x36))
        .chain_update(message)
        .finalize();
    Sha256::new()
        .chain_update(pad(0x5c))
        .chain_update(inner)
        .finalize()
        .into()
}

/// Hex digits of the signature a client id carries in its cookie (128 bits).
const CLIENT_MAC_LEN: usize = 32;

/// The cookie value of client id `id` (from [`random_hex128`]): `{id}.{mac}`, the mac keyed by
/// the server's `key`, so that the server recognises the ids it issued
/// ([`verified_client_id`]) and a value planted by someone else is refused.
pub fn signed_client_id(key: &str, id: &str) -> String {
    let mac = hmac_sha256(key.as_bytes(), id.as_bytes());
    let mut value = String::with_capacity(id.len() + 1 + CLIENT_MAC_LEN);
    value.push_str(id);
    value.push('.');
    for b in &mac[..CLIENT_MAC_LEN / 2] {
        value.push_str(&format!("{b:02x}"));
    }
    value
}

/// The client id of a cookie value made by [`signed_client_id`] under `key`, or `None` if the
/// server did not issue it (compared in constant time).
pub fn verified_client_id(key: &str, value: &str) -> Option<String> {
    let (id, _) = value.split_once('.')?;
    if !is_hex128(id) {
        return None;
    }
    let expected = signed_client_id(key, id);
    bool::from(expected.as_bytes().ct_eq(value.as_bytes())).then(|| id.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hmac_sha256_matches_the_rfc_4231_test_vectors() {
        let hex = |b: [u8; 32]| b.iter().map(|b| format!("{b:02x}")).collect::<String>();
        assert_eq!(
            hex(hmac_sha256(&[0x0b; 20], b"Hi There")),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        );
        assert_eq!(
            hex(hmac_sha256(b"Jefe", b"what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        // A key longer than a block is hashed first (case 6).
        assert_eq!(
            hex(hmac_sha256(
                &[0xaa; 131],
                b"Test Using Larger Than Block-Size Key - Hash Key First"
            )),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        );
    }

    #[test]
    fn only_a_client_id_signed_with_the_server_key_is_recognised() {
        let id = random_hex128();
        let value = signed_client_id("key", &id);
        assert_eq!(verified_client_id("key", &value), Some(id.clone()));
        // Another key, a bare id, a changed id or mac, junk: refused.
        assert_eq!(verified_client_id("other", &value), None);
        assert_eq!(verified_client_id("key", &id), None);
        let mut forged = value.clone().into_bytes();
        forged[0] = if forged[0] == b'a' { b'b' } else { b'a' };
        assert_eq!(
            verified_client_id("key", &String::from_utf8(forged).unwrap()),
            None
        );
        assert_eq!(verified_client_id("key", &format!("{value}0")), None);
        assert_eq!(verified_client_id("key", &value[..value.len() - 1]), None);
        assert_eq!(verified_client_id("key", "x.y"), None);
    }

    #[test]
    fn codes_use_only_the_unambiguous_alphabet() {
        for _ in 0..200 {
            let code = random_code();
            assert_eq!(code.len(), 6);
            assert!(code.bytes().all(|b| CODE_ALPHABET.contains(&b)), "{code}");
        }
    }

    #[test]
    fn codes_are_case_insensitive_on_input() {
        assert_eq!(normalize_code(" k7m2qx ").as_deref(), Some("K7M2QX"));
        assert_eq!(normalize_code("K7M2Q0"), None);
        assert_eq!(normalize_code("K7M2QXX"), None);
        assert_eq!(normalize_code("KIMLQX"), None);
    }

    #[test]
    fn tokens_are_128_bit_and_match_only_their_hash() {
        let a = random_hex128();
        let b = random_hex128();
        assert!(is_hex128(&a) && a != b);
        let h = hash_token(&a);
        assert!(token_matches(&a, &h));
        assert!(!token_matches(&b, &h));
    }
}
