//! The `.egdb` file of one signature: a header with a version and a checksum, then two
//! compressed sections: the two-bit values on entry ([`super::Wdl`], four positions a byte) and
//! the distance bytes (see [`super`]).
//!
//! ```text
//! offset  size  field
//!      0     8  magic "DAMEGDB\n"
//!      8     4  format version (little-endian), 1
//!     12     1  board side, 10
//!     13     1  three-against-a-king moves the tables assume, 16
//!     14     4  white men, white kings, black men, black kings
//!     18     2  zero
//!     20     8  slots (positions, used or not)
//!     28     8  compressed size of the two-bit section
//!     36     8  compressed size of the distance section
//!     44     8  FNV-1a 64 of bytes 0..44 and of both sections
//!     52        the two sections
//! ```
//!
//! Compression is PackBits (run-length): a control byte `c < 128` is followed by `c + 1`
//! literal bytes; `c ≥ 128` by one byte repeated `c − 126` times. Draws and the long runs of
//! equal values in the index order make it pay; the file is read back in a single pass.

use std::fmt;

use super::index::Material;
use super::{windowed, Wdl, Zone, THREE_VS_KING_MOVES};

const MAGIC: &[u8; 8] = b"DAMEGDB\n";
/// The format version written and read.
pub const VERSION: u32 = 1;
const HEADER: usize = 52;

/// Why an `.egdb` file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EgdbError {
    /// Not an endgame table file.
    BadMagic,
    /// A format version this program does not read.
    UnsupportedVersion(u32),
    /// Tables for another board or another three-against-a-king count.
    OtherRules {
        /// Board side in the file.
        board: u8,
        /// Three-against-a-king moves in the file.
        three_vs_king_moves: u8,
    },
    /// The file ends early or its sizes disagree.
    Truncated,
    /// The checksum does not match the contents.
    Checksum {
        /// The checksum in the header.
        stored: u64,
        /// The checksum of the contents.
        computed: u64,
    },
    /// A section does not decompress to its size.
    Corrupt,
    /// The two sections disagree on a position.
    Inconsistent(u64),
}

impl fmt::Display for EgdbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EgdbError::BadMagic => f.write_str("not an endgame table (bad magic)"),
            EgdbError::UnsupportedVersion(v) => {
                write!(f, "format version {v} (this program reads {VERSION})")
            }
            EgdbError::OtherRules {
                board,
                three_vs_king_moves,
            } => write!(
                f,
                "tables for a {board}×{board} board with {three_vs_king_moves} moves in \
                 three against a king"
            ),
            EgdbError::Truncated => f.write_str("file truncated or sizes inconsistent"),
            EgdbError::Checksum { stored, computed } => {
                write!(f, "checksum {stored:016x} stored, {computed:016x} computed")
            }
            EgdbError::Corrupt => f.write_str("a section does not decompress to its size"),
            EgdbError::Inconsistent(i) => write!(f, "sections disagree at slot {i}"),
        }
    }
}

impl std::error::Error for EgdbError {}

/// FNV-1a, 64 bits.
fn fnv1a(mut h: u64, data: &[u8]) -> u64 {
    for &b in data {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// PackBits compression.
pub fn compress(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() / 4 + 16);
    let mut i = 0;
    while i < data.len() {
        let run = data[i..]
            .iter()
            .take(129)
            .take_while(|&&b| b == data[i])
            .count();
        if run >= 2 {
            out.push((run + 126) as u8);
            out.push(data[i]);
            i += run;
            continue;
        }
        let start = i;
        while i < data.len()
            && i - start < 128
            && !(i + 2 < data.len() && data[i] == data[i + 1] && data[i] == data[i + 2])
        {
            i += 1;
        }
        out.push((i - start - 1) as u8);
        out.extend_from_slice(&data[start..i]);
    }
    out
}

/// PackBits decompression into exactly `len` bytes.
///
/// # Errors
/// [`EgdbError::Corrupt`] if the data runs short, overflows `len` or has bytes left over.
pub fn decompress(data: &[u8], len: usize) -> Result<Vec<u8>, EgdbError> {
    let mut out = Vec::with_capacity(len);
    let mut i = 0;
    while i < data.len() {
        let c = usize::from(data[i]);
        i += 1;
        if c < 128 {
            let lit = data.get(i..i + c + 1).ok_or(EgdbError::Corrupt)?;
            out.extend_from_slice(lit);
            i += c + 1;
        } else {
            let b = *data.get(i).ok_or(EgdbError::Corrupt)?;
            out.resize(out.len() + c - 126, b);
            i += 1;
        }
        if out.len() > len {
            return Err(EgdbError::Corrupt);
        }
    }
    if out.len() != len {
        return Err(EgdbError::Corrupt);
    }
    Ok(out)
}

fn wdl_code(w: Wdl) -> u8 {
    match w {
        Wdl::Draw => 0,
        Wdl::Win => 1,
        Wdl::Loss => 2,
    }
}

/// The two-bit values on entry of a table, four a byte (lowest bits first).
fn pack_wdl(m: &Material, table: &[u8]) -> Vec<u8> {
    let limit = Zone::of(m).limit();
    table
        .chunks(4)
        .map(|c| {
            c.iter().enumerate().fold(0u8, |a, (k, &b)| {
                a | wdl_code(windowed(b, limit)) << (2 * k)
            })
        })
        .collect()
}

/// The file of one signature's table.
pub fn encode_file(m: &Material, table: &[u8]) -> Vec<u8> {
    let wdl = compress(&pack_wdl(m, table));
    let dist = compress(table);
    let mut out = Vec::with_capacity(HEADER + wdl.len() + dist.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&[10, THREE_VS_KING_MOVES, m.wm, m.wk, m.bm, m.bk, 0, 0]);
    out.extend_from_slice(&m.slots().to_le_bytes());
    out.extend_from_slice(&(wdl.len() as u64).to_le_bytes());
    out.extend_from_slice(&(dist.len() as u64).to_le_bytes());
    let sum = fnv1a(fnv1a(fnv1a(FNV_START, &out), &wdl), &dist);
    out.extend_from_slice(&sum.to_le_bytes());
    out.extend_from_slice(&wdl);
    out.extend_from_slice(&dist);
    out
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"))
}

/// Reads one signature's file: its material and distance table, after checking the header,
/// the checksum, both sizes and that the two sections agree.
///
/// # Errors
/// [`EgdbError`] for anything wrong.
pub fn decode_file(bytes: &[u8]) -> Result<(Material, Vec<u8>), EgdbError> {
    if bytes.len() < HEADER {
        return Err(if bytes.starts_with(MAGIC) || MAGIC.starts_with(bytes) {
            EgdbError::Truncated
        } else {
            EgdbError::BadMagic
        });
    }
    if &bytes[..8] != MAGIC {
        return Err(EgdbError::BadMagic);
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if version != VERSION {
        return Err(EgdbError::UnsupportedVersion(version));
    }
    if bytes[12] != 10 || bytes[13] != THREE_VS_KING_MOVES {
        return Err(EgdbError::OtherRules {
            board: bytes[12],
            three_vs_king_moves: bytes[13],
        });
    }
    let m = Material {
        wm: bytes[14],
        wk: bytes[15],
        bm: bytes[16],
        bk: bytes[17],
    };
    if m.wm.max(m.wk).max(m.bm).max(m.bk) > 4 || m.pieces() > 4 {
        return Err(EgdbError::Corrupt);
    }
    let (slots, wdl_len, dist_len) = (u64_at(bytes, 20), u64_at(bytes, 28), u64_at(bytes, 36));
    if slots != m.slots()
        || (HEADER as u64)
            .checked_add(wdl_len)
            .and_then(|n| n.checked_add(dist_len))
            != Some(bytes.len() as u64)
    {
        return Err(EgdbError::Truncated);
    }
    let stored = u64_at(bytes, 44);
    let computed = fnv1a(fnv1a(FNV_START, &bytes[..44]), &bytes[HEADER..]);
    if stored != computed {
        return Err(EgdbError::Checksum { stored, computed });
    }
    let split = HEADER + wdl_len as usize;
    let n = slots as usize;
    let wdl = decompress(&bytes[HEADER..split], n.div_ceil(4))?;
    let table = decompress(&bytes[split..], n)?;
    if let Some(i) = pack_wdl(&m, &table)
        .iter()
        .zip(&wdl)
        .position(|(a, b)| a != b)
    {
        return Err(EgdbError::Inconsistent(4 * i as u64));
    }
    Ok((m, table))
}

/// The file name of a signature's table (`w01b01.egdb`).
pub fn file_name(m: &Material) -> String {
    format!("{}.egdb", m.name())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn m() -> Material {
        Material {
            wm: 0,
            wk: 1,
            bm: 0,
            bk: 1,
        }
    }

    fn table() -> Vec<u8> {
        (0..m().slots()).map(|i| ((i / 7) % 5) as u8 * 3).collect()
    }

    proptest! {
        #[test]
        fn packbits_round_trips(data in proptest::collection::vec(prop_oneof![Just(0u8), Just(7u8), any::<u8>()], 0..2000)) {
            let packed = compress(&data);
            prop_assert_eq!(decompress(&packed, data.len()).unwrap(), data);
        }
    }

    #[test]
    fn a_file_round_trips_with_its_material() {
        let bytes = encode_file(&m(), &table());
        assert_eq!(decode_file(&bytes).unwrap(), (m(), table()));
    }

    #[test]
    fn a_corrupted_file_is_refused_with_a_typed_error() {
        let good = encode_file(&m(), &table());
        let mut flipped = good.clone();
        *flipped.last_mut().unwrap() ^= 1;
        assert!(matches!(
            decode_file(&flipped),
            Err(EgdbError::Checksum { .. })
        ));
        assert_eq!(
            decode_file(&good[..good.len() - 1]),
            Err(EgdbError::Truncated)
        );
        assert_eq!(decode_file(&good[..20]), Err(EgdbError::Truncated));
        let mut magic = good.clone();
        magic[0] = b'X';
        assert_eq!(decode_file(&magic), Err(EgdbError::BadMagic));
        let mut version = good.clone();
        version[8] = 2;
        assert_eq!(decode_file(&version), Err(EgdbError::UnsupportedVersion(2)));
        let mut rules = good;
        rules[13] = 10;
        assert!(matches!(
            decode_file(&rules),
            Err(EgdbError::OtherRules { .. })
        ));
    }
}
