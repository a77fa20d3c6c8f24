//! The input generator of [`crate`]: a small deterministic random source and the mutations
//! that turn a valid input into a nearly valid one — structural changes of a JSON value (a field
//! removed, added, renamed, retyped, a number pushed to its limits, a string given invisible or
//! combining characters), then, sometimes, changes of its bytes (a bit flipped, a token inserted,
//! the text cut short, invalid UTF-8, a key repeated).

use serde_json::{Map, Number, Value};

/// A fast, seedable random source: the CPU players' SplitMix64 ([`dames_ai::Rng`]), so the same
/// seed gives the same inputs.
#[derive(Clone, Debug)]
pub struct Rng(dames_ai::Rng);

impl Rng {
    /// A source for `seed`.
    pub fn new(seed: u64) -> Self {
        Self(dames_ai::Rng::new(seed ^ 0x853c_49e6_748f_ea9b))
    }

    /// 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }

    /// True once in `n` times.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    /// One element of `items` (which must not be empty).
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Strings that break naive code: invisible and bidi characters, combining marks, controls,
/// look-alikes of reserved names, very long texts, notation-like and number-like texts.
pub const STRINGS: &[&str] = &[
    "",
    " ",
    "  ",
    "\t",
    "\n",
    "\r\n",
    "\u{0}",
    "\u{7f}",
    "\u{1b}[31m",
    "\u{202e}",
    "\u{202d}",
    "\u{2066}",
    "\u{200b}",
    "\u{200d}",
    "\u{200c}",
    "\u{feff}",
    "\u{ad}",
    "\u{180e}",
    "\u{e0001}",
    "\u{301}",
    "\u{301}\u{301}\u{301}\u{301}\u{301}\u{301}",
    "e\u{301}",
    "\u{e9}",
    "\u{1f600}",
    "\u{1f468}\u{200d}\u{1f469}\u{200d}\u{1f467}",
    "\u{1f1eb}\u{1f1f7}",
    "\u{fffd}",
    "\u{ffff}",
    "\u{10ffff}",
    "\u{2028}",
    "\u{85}",
    "\u{3000}",
    "\u{a0}",
    "CPU",
    "cpu",
    "C.P.U.",
    "\u{421}PU",
    "Ordinateur",
    "Computer",
    "IA",
    "Ana",
    "K7M2QX",
    "k7m2qx",
    "0",
    "-1",
    "1e999",
    "NaN",
    "null",
    "true",
    "32-28",
    "32x28",
    "28x19x10",
    "1-",
    "-",
    "x",
    "xx",
    "50x50",
    "0-0",
    "99-98",
    "255x0",
    "1x2x3x4x5x6x7x8x9x10x11x12x13x14x15x16x17x18x19x20",
    "W:W31,32:B1,K2",
    "W:W:B",
    "B:BK1-50:W",
    "\"",
    "\\",
    "/",
    "../",
    "%00",
    "%2e%2e%2f",
    "%ff",
    "%c3%28",
    "<script>",
    "{}",
    "[]",
    "https://push.example.com/send/abc",
    "https://[::ffff:127.0.0.1]/",
    "https://127.1/",
    "https://localhost./",
    "http://[::1]:8080",
    "null",
];

/// Numbers at the edges of the types the server reads (seats, squares, cubes, milliseconds).
pub const NUMBERS: &[f64] = &[
    0.0,
    1.0,
    -1.0,
    2.0,
    3.0,
    4.0,
    5.0,
    6.0,
    7.0,
    8.0,
    9.0,
    10.0,
    12.0,
    16.0,
    24.0,
    25.0,
    31.0,
    32.0,
    33.0,
    46.0,
    50.0,
    51.0,
    72.0,
    73.0,
    100.0,
    127.0,
    128.0,
    -128.0,
    255.0,
    256.0,
    1000.0,
    30000.0,
    30001.0,
    65535.0,
    65536.0,
    2147483647.0,
    2147483648.0,
    -2147483649.0,
    4294967296.0,
    9007199254740993.0,
    -9007199254740993.0,
    0.5,
    -0.0,
    1e300,
    -1e300,
];

/// Whole numbers at the edges of 64 bits.
const INTEGERS: &[i128] = &[i64::MAX as i128, i64::MIN as i128, u64::MAX as i128];

/// Byte strings spliced into the text of an input.
const TOKENS: &[&[u8]] = &[
    b"{",
    b"}",
    b"[",
    b"]",
    b"\"",
    b",",
    b":",
    b"\\",
    b"\\u0000",
    b"\\ud800",
    b"\\udfff\\ud800",
    b"\\u202e",
    b"1e999",
    b"-0",
    b"00",
    b"nul",
    b"null",
    b"true",
    b"\xff",
    b"\xc3",
    b"\xe2\x80",
    b"\xef\xbb\xbf",
    b"\x00",
    b" ",
    b"\n",
    b"x",
    b"-",
    b"/",
    b"%",
];

/// A random string: one of [`STRINGS`], a few of them joined, a long run, or random characters.
pub fn string(rng: &mut Rng) -> String {
    match rng.below(8) {
        0..=3 => (*rng.pick(STRINGS)).to_owned(),
        4 => (0..1 + rng.below(4)).map(|_| *rng.pick(STRINGS)).collect(),
        5 => rng
            .pick(&["a", "\u{e9}", "\u{301}", "9", " ", "\u{1f600}"])
            .repeat(*rng.pick(&[23, 24, 25, 199, 200, 201, 2000, 2001, 5000])),
        _ => (0..rng.below(12)).map(|_| random_char(rng)).collect(),
    }
}

/// A random character, mostly from the ranges that matter to names and notation.
pub fn random_char(rng: &mut Rng) -> char {
    let code = match rng.below(6) {
        0 => 0x20 + rng.below(0x5f) as u32,
        1 => rng.below(0x20) as u32,
        2 => 0x300 + rng.below(0x70) as u32,
        3 => 0x2000 + rng.below(0x70) as u32,
        4 => 0x80 + rng.below(0x780) as u32,
        _ => rng.below(0x11_0000) as u32,
    };
    char::from_u32(code).unwrap_or('\u{fffd}')
}

/// A random number from [`NUMBERS`] or [`INTEGERS`], or a small whole number.
pub fn number(rng: &mut Rng) -> Value {
    match rng.below(4) {
        0 => {
            let n = *rng.pick(INTEGERS);
            if n > i64::MAX as i128 {
                Value::Number(Number::from(n as u64))
            } else {
                Value::Number(Number::from(n as i64))
            }
        }
        1 => Value::Number(Number::from(rng.below(80) as i64 - 10)),
        _ => Number::from_f64(*rng.pick(NUMBERS)).map_or(Value::Null, |n| {
            // Whole numbers as integers, as a client would send them.
            match n.as_f64() {
                Some(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => {
                    Value::Number(Number::from(f as i64))
                }
                _ => Value::Number(n),
            }
        }),
    }
}

/// A random JSON value of any type, `depth` levels deep at most.
pub fn value(rng: &mut Rng, depth: usize) -> Value {
    let kinds = if depth == 0 { 5 } else { 7 };
    match rng.below(kinds) {
        0 => Value::Null,
        1 => Value::Bool(rng.one_in(2)),
        2 | 3 => number(rng),
        4 => Value::String(string(rng)),
        5 => Value::Array((0..rng.below(4)).map(|_| value(rng, depth - 1)).collect()),
        _ => {
            let mut map = Map::new();
            for _ in 0..rng.below(4) {
                map.insert(key(rng), value(rng, depth - 1));
            }
            Value::Object(map)
        }
    }
}

/// Field names of the protocol, and others.
const KEYS: &[&str] = &[
    "type",
    "id",
    "move",
    "from",
    "to",
    "path",
    "notation",
    "captures",
    "name",
    "seat",
    "game",
    "settings",
    "rules",
    "cpu",
    "level",
    "kick",
    "action",
    "ready",
    "players",
    "variant",
    "endpoint",
    "keys",
    "p256dh",
    "auth",
    "kind",
    "stars",
    "text",
    "since",
    "rhythm",
    "cpu_ms",
    "hints",
    "__proto__",
    "",
    "\u{202e}",
];

fn key(rng: &mut Rng) -> String {
    if rng.one_in(4) {
        string(rng)
    } else {
        (*rng.pick(KEYS)).to_owned()
    }
}

/// Applies 1 to 4 structural mutations to `v`.
pub fn mutate_value(rng: &mut Rng, v: &mut Value) {
    for _ in 0..1 + rng.below(4) {
        mutate_once(rng, v, 0);
    }
}

/// Walks down to a random node and changes it.
fn mutate_once(rng: &mut Rng, v: &mut Value, depth: usize) {
    // Go deeper with some probability when there is somewhere to go.
    let go_down = depth < 12 && rng.below(3) != 0;
    match v {
        Value::Object(map) if go_down && !map.is_empty() => {
            let n = rng.below(map.len());
            if let Some((_, child)) = map.iter_mut().nth(n) {
                return mutate_once(rng, child, depth + 1);
            }
        }
        Value::Array(items) if go_down && !items.is_empty() => {
            let n = rng.below(items.len());
            return mutate_once(rng, &mut items[n], depth + 1);
        }
        _ => {}
    }
    change(rng, v);
}

/// Changes this node.
fn change(rng: &mut Rng, v: &mut Value) {
    if rng.one_in(5) {
        *v = value(rng, 2);
        return;
    }
    match v {
        Value::Null => *v = value(rng, 1),
        Value::Bool(b) => match rng.below(3) {
            0 => *b = !*b,
            1 => *v = Value::String(b.to_string()),
            _ => *v = Value::from(u8::from(*b)),
        },
        Value::Number(n) => {
            let f = n.as_f64().unwrap_or(0.0);
            *v = match rng.below(6) {
                0 => Value::from(n.as_i64().unwrap_or(0).wrapping_add(1)),
                1 => Value::from(n.as_i64().unwrap_or(0).wrapping_sub(1)),
                2 => Value::from(n.as_i64().unwrap_or(0).wrapping_neg()),
                3 => Number::from_f64(f + 0.5).map_or(Value::Null, Value::Number),
                4 => Value::String(n.to_string()),
                _ => number(rng),
            };
        }
        Value::String(s) => *s = mutate_string(rng, s),
        Value::Array(items) => match rng.below(6) {
            0 if !items.is_empty() => {
                let i = rng.below(items.len());
                items.remove(i);
            }
            1 if !items.is_empty() => {
                let i = rng.below(items.len());
                let copy = items[i].clone();
                items.insert(i, copy);
            }
            2 => items.push(value(rng, 1)),
            3 => items.truncate(rng.below(items.len() + 1)),
            4 if items.len() > 1 => {
                let (i, j) = (rng.below(items.len()), rng.below(items.len()));
                items.swap(i, j);
            }
            _ => {
                // Deep nesting.
                let mut nested = Value::Array(std::mem::take(items));
                for _ in 0..*rng.pick(&[2, 20, 127, 200]) {
                    nested = Value::Array(vec![nested]);
                }
                *v = nested;
            }
        },
        Value::Object(map) => match rng.below(5) {
            0 if !map.is_empty() => {
                let n = rng.below(map.len());
                if let Some(k) = map.keys().nth(n).cloned() {
                    map.remove(&k);
                }
            }
            1 if !map.is_empty() => {
                // A field renamed (a typo, another case).
                let n = rng.below(map.len());
                if let Some(k) = map.keys().nth(n).cloned() {
                    if let Some(child) = map.remove(&k) {
                        map.insert(mutate_string(rng, &k), child);
                    }
                }
            }
            _ => {
                map.insert(key(rng), value(rng, 2));
            }
        },
    }
}

/// A nearly equal string: a character inserted, removed or replaced, digits changed, part of it
/// repeated, or an interesting string put in.
pub fn mutate_string(rng: &mut Rng, s: &str) -> String {
    let mut chars: Vec<char> = s.chars().collect();
    match rng.below(9) {
        0 if !chars.is_empty() => {
            chars.remove(rng.below(chars.len()));
        }
        1 => {
            let at = rng.below(chars.len() + 1);
            chars.insert(at, random_char(rng));
        }
        2 if !chars.is_empty() => {
            let at = rng.below(chars.len());
            chars[at] = random_char(rng);
        }
        3 => {
            // Digits changed: other squares, other seats.
            for c in chars.iter_mut() {
                if c.is_ascii_digit() && rng.one_in(2) {
                    *c = char::from(b'0' + rng.below(10) as u8);
                }
            }
        }
        4 if !chars.is_empty() => {
            let at = rng.below(chars.len());
            let tail: Vec<char> = chars[at..].to_vec();
            chars.extend(tail);
        }
        5 => {
            let at = rng.below(chars.len() + 1);
            let insert: Vec<char> = rng.pick(STRINGS).chars().collect();
            chars.splice(at..at, insert);
        }
        6 => {
            for c in chars.iter_mut() {
                *c = if c.is_lowercase() {
                    c.to_ascii_uppercase()
                } else {
                    c.to_ascii_lowercase()
                };
            }
        }
        7 if !chars.is_empty() => chars.truncate(rng.below(chars.len())),
        _ => return string(rng),
    }
    chars.into_iter().collect()
}

/// Changes the bytes of a serialised input: a bit flipped, a token inserted, a span deleted or
/// repeated, the text cut short, a key written twice.
pub fn mutate_bytes(rng: &mut Rng, bytes: &mut Vec<u8>) {
    for _ in 0..1 + rng.below(3) {
        let len = bytes.len();
        match rng.below(8) {
            0 if len > 0 => {
                let at = rng.below(len);
                bytes[at] ^= 1 << rng.below(8);
            }
            1 => {
                let at = rng.below(len + 1);
                let token = rng.pick(TOKENS);
                bytes.splice(at..at, token.iter().copied());
            }
            2 if len > 0 => {
                let at = rng.below(len);
                let end = (at + 1 + rng.below(8)).min(len);
                bytes.drain(at..end);
            }
            3 if len > 0 => {
                let at = rng.below(len);
                let end = (at + 1 + rng.below(16)).min(len);
                let span = bytes[at..end].to_vec();
                bytes.splice(at..at, span);
            }
            4 if len > 0 => bytes.truncate(rng.below(len)),
            5 if len > 1 && bytes[0] == b'{' => {
                // The first field written again with another value: `{"a":1,"a":2,…}`.
                if let Some(end) = bytes.iter().position(|&b| b == b',' || b == b'}') {
                    let mut field = bytes[1..end].to_vec();
                    if !field.is_empty() {
                        field.push(b',');
                        bytes.splice(1..1, field);
                    }
                }
            }
            6 if len > 0 => {
                let at = rng.below(len);
                bytes[at] = rng.next_u64() as u8;
            }
            _ => {
                let at = rng.below(len + 1);
                bytes.splice(at..at, vec![b' '; 1 + rng.below(3)]);
            }
        }
    }
}

/// `text` mutated `rounds` times: each time its bytes one time in `byte_odds` (read back
/// lossily, as the result may not be UTF-8), its characters ([`mutate_string`]) otherwise.
pub fn mutate_text(rng: &mut Rng, mut text: String, rounds: usize, byte_odds: usize) -> String {
    for _ in 0..rounds {
        text = if rng.one_in(byte_odds) {
            let mut bytes = text.into_bytes();
            mutate_bytes(rng, &mut bytes);
            String::from_utf8_lossy(&bytes).into_owned()
        } else {
            mutate_string(rng, &text)
        };
    }
    text
}

/// `v` mutated: structurally most of the time, then its bytes one time in `byte_odds`.
pub fn mutated_json(rng: &mut Rng, v: &Value, byte_odds: usize) -> Vec<u8> {
    let mut v = v.clone();
    if !rng.one_in(8) {
        mutate_value(rng, &mut v);
    }
    let mut bytes = serde_json::to_vec(&v).unwrap_or_default();
    if rng.one_in(byte_odds) {
        mutate_bytes(rng, &mut bytes);
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_inputs() {
        let template =
            serde_json::json!({"type": "move", "id": "a", "move": {"notation": "32-28"}});
        let run = |seed| {
            let mut rng = Rng::new(seed);
            (0..50)
                .map(|_| mutated_json(&mut rng, &template, 3))
                .collect::<Vec<_>>()
        };
        assert_eq!(run(7), run(7));
        assert_ne!(run(7), run(8));
    }

    #[test]
    fn mutations_change_most_inputs_and_keep_some_valid() {
        let template = serde_json::json!({"name": "Ana", "seat": 1});
        let mut rng = Rng::new(1);
        let (mut changed, mut still_json) = (0, 0);
        for _ in 0..1000 {
            let bytes = mutated_json(&mut rng, &template, 4);
            changed += usize::from(bytes != serde_json::to_vec(&template).unwrap());
            still_json += usize::from(serde_json::from_slice::<Value>(&bytes).is_ok());
        }
        assert!(changed > 800, "{changed}");
        assert!(still_json > 600 && still_json < 1000, "{still_json}");
    }
}
