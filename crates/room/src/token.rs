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

#[cfg(test)]
mod tests {
    use super::*;

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
