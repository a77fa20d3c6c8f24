//! `patterns.bin`: the pattern evaluation's weights, versioned and checked.
//!
//! ```text
//! offset  size  field
//!      0     8  magic "DAMEPAT\n"
//!      8     2  format version (little-endian), 1
//!     10     2  windows (16), squares a window (8), the pattern unit (4), linear features (70):
//!               2 bytes each, so the header ends at 18
//!     18     4  length L of the note (UTF-8: the command, seed, data and errors that made it)
//!     22     L  the note
//!   22+L        the weights, (opening, ending) pairs in order: linear features (hundredths of
//!               a man), then window 0's 6 561 indices, window 1's, … (1/unit hundredths),
//!               as runs: a LEB128 count of zero values, then one value (zigzag LEB128),
//!               repeated; a final run of zeros has no value after it
//!    end−8   8  FNV-1a 64 of every byte before it
//! ```
//!
//! Most indices never occur in games (a window full of men of both sides in odd places), so
//! their weights stay 0 and the runs make the file small.

use std::fmt;

use super::{Feature, INDICES, REGIONS, REGION_SQUARES, UNIT, WEIGHT_COUNT};

const MAGIC: &[u8; 8] = b"DAMEPAT\n";
/// The format version written and read.
pub const VERSION: u16 = 1;
const HEADER: usize = 22;

/// A full set of weights: `[opening, ending]` per linear feature, then per window index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternWeights {
    /// How the weights were made (free text).
    pub note: String,
    weights: Vec<[i16; 2]>,
}

/// Why a weights file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightsError {
    /// Not a pattern weights file (an empty file is one too: none was trained yet).
    BadMagic,
    /// A format version this program does not read.
    UnsupportedVersion(u16),
    /// Windows, squares, unit or feature count other than this program's.
    OtherShape,
    /// The file ends early, or has bytes after the weights.
    Truncated,
    /// The checksum does not match the contents.
    Checksum,
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsError::BadMagic => f.write_str("not a pattern weights file"),
            WeightsError::UnsupportedVersion(v) => {
                write!(f, "format version {v} (this program reads {VERSION})")
            }
            WeightsError::OtherShape => f.write_str("weights for other windows or features"),
            WeightsError::Truncated => f.write_str("file truncated or too long"),
            WeightsError::Checksum => f.write_str("checksum mismatch"),
        }
    }
}

impl std::error::Error for WeightsError {}

fn fnv1a(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn shape() -> [u16; 4] {
    [
        REGIONS as u16,
        REGION_SQUARES as u16,
        UNIT as u16,
        Feature::COUNT as u16,
    ]
}

fn put_varint(out: &mut Vec<u8>, mut x: u64) {
    while x >= 0x80 {
        out.push((x as u8) | 0x80);
        x >>= 7;
    }
    out.push(x as u8);
}

fn get_varint(bytes: &[u8], at: &mut usize) -> Result<u64, WeightsError> {
    let mut x = 0u64;
    for shift in (0..64).step_by(7) {
        let b = *bytes.get(*at).ok_or(WeightsError::Truncated)?;
        *at += 1;
        x |= u64::from(b & 0x7f) << shift;
        if b < 0x80 {
            return Ok(x);
        }
    }
    Err(WeightsError::Truncated)
}

impl PatternWeights {
    /// Weights from `linear` (the linear features, hundredths of a man) and `patterns` (every
    /// window's indices in order, 1/[`UNIT`] hundredths).
    ///
    /// # Panics
    /// If the lengths are not [`Feature::COUNT`] and `REGIONS × INDICES`.
    pub fn new(note: String, linear: &[[i16; 2]], patterns: &[[i16; 2]]) -> PatternWeights {
        assert_eq!(linear.len(), Feature::COUNT);
        assert_eq!(patterns.len(), REGIONS * INDICES);
        let mut weights = linear.to_vec();
        weights.extend_from_slice(patterns);
        PatternWeights { note, weights }
    }

    /// The linear features' weights (hundredths of a man).
    pub fn linear(&self) -> &[[i16; 2]; Feature::COUNT] {
        self.weights[..Feature::COUNT]
            .try_into()
            .expect("linear weights")
    }

    /// The weight pair of window `r` at `index` (1/[`UNIT`] hundredths of a man).
    #[inline(always)]
    pub fn pattern(&self, r: usize, index: u16) -> [i16; 2] {
        self.weights[Feature::COUNT + r * INDICES + usize::from(index)]
    }

    /// Every pattern weight pair, window by window.
    pub fn patterns(&self) -> &[[i16; 2]] {
        &self.weights[Feature::COUNT..]
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&VERSION.to_le_bytes());
        for x in shape() {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out.extend_from_slice(&(self.note.len() as u32).to_le_bytes());
        out.extend_from_slice(self.note.as_bytes());
        let mut zeros = 0u64;
        for &v in self.weights.iter().flatten() {
            if v == 0 {
                zeros += 1;
                continue;
            }
            put_varint(&mut out, zeros);
            zeros = 0;
            let v = i64::from(v);
            put_varint(&mut out, ((v << 1) ^ (v >> 63)) as u64);
        }
        if zeros > 0 {
            put_varint(&mut out, zeros);
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a file written by [`PatternWeights::to_bytes`].
    ///
    /// # Errors
    /// A [`WeightsError`] saying what is wrong; nothing is read from a file that fails.
    pub fn from_bytes(bytes: &[u8]) -> Result<PatternWeights, WeightsError> {
        if bytes.len() < HEADER + 8 || &bytes[..8] != MAGIC {
            return Err(WeightsError::BadMagic);
        }
        let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        let version = u16_at(8);
        if version != VERSION {
            return Err(WeightsError::UnsupportedVersion(version));
        }
        if (0..4).map(|i| u16_at(10 + 2 * i)).ne(shape()) {
            return Err(WeightsError::OtherShape);
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        if fnv1a(body) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
            return Err(WeightsError::Checksum);
        }
        let note_len = u32::from_le_bytes(body[18..22].try_into().expect("4 bytes")) as usize;
        let note = body
            .get(HEADER..HEADER + note_len)
            .ok_or(WeightsError::Truncated)?;
        let note = String::from_utf8_lossy(note).into_owned();
        let values = decode(body, HEADER + note_len, 2 * WEIGHT_COUNT)?;
        let weights = values.chunks(2).map(|c| [c[0], c[1]]).collect();
        Ok(PatternWeights { note, weights })
    }
}

/// Exactly `n` values from the runs starting at `at`, which must end the body.
fn decode(body: &[u8], mut at: usize, n: usize) -> Result<Vec<i16>, WeightsError> {
    let mut values = Vec::with_capacity(n);
    while at < body.len() {
        let zeros = get_varint(body, &mut at)? as usize;
        if values.len() + zeros > n {
            return Err(WeightsError::Truncated);
        }
        values.resize(values.len() + zeros, 0);
        if at == body.len() {
            break;
        }
        let z = get_varint(body, &mut at)?;
        let v = ((z >> 1) as i64) ^ -((z & 1) as i64);
        let v = i16::try_from(v).map_err(|_| WeightsError::Truncated)?;
        if values.len() == n {
            return Err(WeightsError::Truncated);
        }
        values.push(v);
    }
    if values.len() != n {
        return Err(WeightsError::Truncated);
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> PatternWeights {
        let mut rng = crate::Rng::new(3);
        let linear: Vec<[i16; 2]> = (0..Feature::COUNT)
            .map(|i| [i as i16 * 3 - 50, -(i as i16)])
            .collect();
        let patterns: Vec<[i16; 2]> = (0..REGIONS * INDICES)
            .map(|_| match rng.below(10) {
                0 => [rng.below(2000) as i16 - 1000, i16::MIN],
                1 => [i16::MAX, 0],
                _ => [0, 0],
            })
            .collect();
        PatternWeights::new("seed 3".into(), &linear, &patterns)
    }

    #[test]
    fn weights_round_trip_through_the_file() {
        let w = sample();
        let bytes = w.to_bytes();
        let back = PatternWeights::from_bytes(&bytes).unwrap();
        assert_eq!(back, w);
        assert_eq!(back.to_bytes(), bytes);
        // Four in five pairs are zeros: under half the four bytes a pair of a raw file.
        assert!(bytes.len() < 2 * WEIGHT_COUNT, "{}", bytes.len());
    }

    #[test]
    fn a_damaged_file_is_refused_with_a_typed_error() {
        let bytes = sample().to_bytes();
        assert_eq!(PatternWeights::from_bytes(&[]), Err(WeightsError::BadMagic));
        let mut v = bytes.clone();
        v[8] = 9;
        assert_eq!(
            PatternWeights::from_bytes(&v),
            Err(WeightsError::UnsupportedVersion(9))
        );
        let mut v = bytes.clone();
        v[10] = 15;
        assert_eq!(
            PatternWeights::from_bytes(&v),
            Err(WeightsError::OtherShape)
        );
        let mut v = bytes.clone();
        let mid = v.len() / 2;
        v[mid] ^= 1;
        assert_eq!(PatternWeights::from_bytes(&v), Err(WeightsError::Checksum));
        let mut v = bytes[..bytes.len() - 20].to_vec();
        let sum = fnv1a(&v);
        v.extend_from_slice(&sum.to_le_bytes());
        assert_eq!(PatternWeights::from_bytes(&v), Err(WeightsError::Truncated));
    }

    #[test]
    fn the_compiled_weights_load_and_say_how_they_were_made() {
        let w = super::super::compiled().expect("patterns.bin loads");
        assert!(w.note.starts_with("dames tune patterns"), "{}", w.note);
        assert!(w.patterns().iter().any(|p| *p != [0, 0]));
    }
}
