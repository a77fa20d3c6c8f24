//! What people may type as a name or a free text (reviews, requests): Unicode normalised and
//! free of the characters that make a text look like something else (docs/security.md, "Names
//! and texts").
//!
//! - Names and texts are put in NFC, so that « é » typed two ways is one name.
//! - Control characters, line separators, private-use and unassigned code points are refused.
//! - Default-ignorable code points (bidi overrides and isolates, zero-width spaces, soft hyphen,
//!   Hangul fillers, tags…) are refused: `Ana\u{202E}gnp.exe` would show as « Anaexe.png ».
//!   Two exceptions keep real writing working: ZWJ and ZWNJ between two visible characters
//!   (emoji sequences, Persian and Indic scripts) and variation selectors after a base (emoji).
//! - Combining marks need a base, at most [`MAX_MARKS`] in a row, never the same one twice in a
//!   row (UTS #39 §5.4): no « Zalgo » text spilling over the lines around it.
//! - Names only: spaces of every kind become one plain space, a name needs something visible,
//!   and the names the interface gives CPU players (« CPU », « CPU Expert »… in French and
//!   English, also spelt with look-alike letters) are reserved.
//!
//! ```
//! use dames_room::names::{name, NameError};
//! assert_eq!(name("  Ana\u{00A0}\u{00A0}Bo ").unwrap(), "Ana Bo");
//! assert_eq!(name("Ana\u{202E}gnp.exe"), Err(NameError::Invisible));
//! assert_eq!(name("Cpu Facile"), Err(NameError::Reserved));
//! ```

use icu_normalizer::{ComposingNormalizerBorrowed, DecomposingNormalizerBorrowed};
use icu_properties::props::{DefaultIgnorableCodePoint, GeneralCategory, WhiteSpace};
use icu_properties::{CodePointMapData, CodePointSetData};

/// Longest name, in characters (after normalisation).
pub const MAX_NAME: usize = 24;
/// Combining marks allowed in a row after one base character.
pub const MAX_MARKS: usize = 4;

/// Why a name or a text is refused; [`NameError::as_str`] is the machine-readable `reason` of
/// the `invalid_name` error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// Empty, or longer than [`MAX_NAME`] characters.
    #[error("a name has 1 to {MAX_NAME} characters")]
    Length,
    /// A control character or a line break.
    #[error("no control characters or line breaks")]
    Control,
    /// An invisible formatting character (bidi override, zero-width space…).
    #[error("no invisible formatting characters (bidi overrides, zero-width spaces…)")]
    Invisible,
    /// A combining mark without a base, too many in a row, or one repeated.
    #[error("too many accents or combining marks on one letter")]
    Marks,
    /// A private-use or unassigned code point.
    #[error("no private-use or unassigned characters")]
    Unassigned,
    /// Nothing visible (only spaces or blank characters).
    #[error("a name needs a visible letter, digit or symbol")]
    Blank,
    /// A name of the CPU players.
    #[error("this name is kept for the CPU players")]
    Reserved,
}

impl NameError {
    /// The snake_case reason sent with `invalid_name`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Length => "length",
            Self::Control => "control",
            Self::Invisible => "invisible",
            Self::Marks => "marks",
            Self::Unassigned => "unassigned",
            Self::Blank => "blank",
            Self::Reserved => "reserved",
        }
    }
}

/// The `detail` of `invalid_name`: field `name`, the reason of [`NameError::as_str`] (with `max`
/// for `length`) and the English sentence.
impl From<NameError> for crate::error::Detail {
    fn from(why: NameError) -> Self {
        let detail = Self::field("name", why.as_str(), why.to_string());
        match why {
            NameError::Length => detail.with("max", MAX_NAME),
            _ => detail,
        }
    }
}

const NFC: ComposingNormalizerBorrowed<'static> = ComposingNormalizerBorrowed::new_nfc();
const NFKD: DecomposingNormalizerBorrowed<'static> = DecomposingNormalizerBorrowed::new_nfkd();

fn category(c: char) -> GeneralCategory {
    CodePointMapData::<GeneralCategory>::new().get(c)
}

fn is_ignorable(c: char) -> bool {
    CodePointSetData::new::<DefaultIgnorableCodePoint>().contains(c)
}

fn is_space(c: char) -> bool {
    CodePointSetData::new::<WhiteSpace>().contains(c)
}

/// A space of any width that is not a control character (`\t`, `\n` are controls).
fn is_plain_space(c: char) -> bool {
    category(c) == GeneralCategory::SpaceSeparator
}

fn is_mark(gc: GeneralCategory) -> bool {
    matches!(
        gc,
        GeneralCategory::NonspacingMark
            | GeneralCategory::SpacingMark
            | GeneralCategory::EnclosingMark
    )
}

fn is_variation_selector(c: char) -> bool {
    matches!(c, '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}')
}

/// A character after which a joiner or a mark may come: not a space, control or invisible.
fn is_base(c: char) -> bool {
    !is_space(c)
        && !is_ignorable(c)
        && !matches!(
            category(c),
            GeneralCategory::Control | GeneralCategory::Format
        )
}

/// Checks every character of an already NFC text (`newlines`: `\n` and `\t` allowed).
///
/// # Errors
/// The first problem found.
pub fn check_chars(text: &str, newlines: bool) -> Result<(), NameError> {
    let chars: Vec<char> = text.chars().collect();
    let mut marks = 0;
    for (i, &c) in chars.iter().enumerate() {
        let prev = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1).copied();
        let gc = category(c);
        if newlines && matches!(c, '\n' | '\t') {
            marks = 0;
            continue;
        }
        match gc {
            GeneralCategory::Control
            | GeneralCategory::LineSeparator
            | GeneralCategory::ParagraphSeparator => return Err(NameError::Control),
            GeneralCategory::PrivateUse
            | GeneralCategory::Surrogate
            | GeneralCategory::Unassigned => return Err(NameError::Unassigned),
            _ => {}
        }
        if is_variation_selector(c) {
            // After a base or after its marks, like a mark.
            if !prev.is_some_and(|p| is_base(p) || is_variation_selector(p)) {
                return Err(NameError::Invisible);
            }
        } else if matches!(c, '\u{200C}' | '\u{200D}') {
            // ZWNJ / ZWJ: only inside a word or an emoji sequence.
            let before = prev.is_some_and(|p| is_base(p) || is_variation_selector(p));
            if !(before && next.is_some_and(is_base)) {
                return Err(NameError::Invisible);
            }
        } else if is_ignorable(c) || gc == GeneralCategory::Format {
            return Err(NameError::Invisible);
        }
        if is_mark(gc) {
            marks += 1;
            let repeated = prev == Some(c) && !is_variation_selector(c);
            let orphan = i == 0 || prev.is_some_and(|p| is_space(p) || p == '\n');
            if marks > MAX_MARKS || repeated || orphan {
                return Err(NameError::Marks);
            }
        } else {
            marks = 0;
        }
    }
    Ok(())
}

/// Characters that show nothing though they are letters or symbols.
fn is_blank(c: char) -> bool {
    is_space(c) || is_ignorable(c) || matches!(c, '\u{2800}' | '\u{3164}' | '\u{FFA0}')
}

/// The name as stored and shown: NFC, spaces collapsed, checked.
///
/// # Errors
/// The [`NameError`] saying what is wrong.
pub fn name(input: &str) -> Result<String, NameError> {
    let nfc = NFC.normalize(input);
    let mut out = String::with_capacity(nfc.len());
    for word in nfc.split(is_plain_space).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    let len = out.chars().count();
    if len == 0 || len > MAX_NAME * 4 {
        return Err(NameError::Length);
    }
    check_chars(&out, false)?;
    if len > MAX_NAME {
        return Err(NameError::Length);
    }
    if out.chars().all(|c| is_blank(c) || is_mark(category(c))) {
        return Err(NameError::Blank);
    }
    if is_reserved(&out) {
        return Err(NameError::Reserved);
    }
    Ok(out)
}

/// A free text (review, request) as stored: NFC, CRLF as LF, trimmed, checked (newlines and
/// tabs allowed).
///
/// # Errors
/// The [`NameError`] saying what is wrong (`Length` is left to the caller, whose limit differs).
pub fn text(input: &str) -> Result<String, NameError> {
    let text = NFC.normalize(input).replace("\r\n", "\n");
    let text = text.trim();
    check_chars(text, true)?;
    Ok(text.to_owned())
}

/// Look-alike letters of other scripts folded to the Latin letters of the reserved names.
fn fold_confusable(c: char) -> char {
    match c {
        'с' | 'ϲ' => 'c',
        'р' | 'ρ' => 'p',
        'υ' | 'ս' | 'µ' | 'μ' => 'u',
        'о' | 'ο' | '0' => 'o',
        'а' | 'α' => 'a',
        'е' | 'ε' => 'e',
        'і' | 'ι' | '1' | 'ı' => 'i',
        'т' | 'τ' => 't',
        'г' => 'r',
        'ո' => 'n',
        other => other,
    }
}

/// The words of the CPU players' seats in the interface (« CPU Difficile », "CPU Hard").
const LEVELS: &[&str] = &[
    "",
    "facile",
    "normal",
    "difficile",
    "expert",
    "easy",
    "medium",
    "hard",
];

/// Whether `name` reads as the name of a CPU player, whatever the case, accents, spacing,
/// punctuation or look-alike letters.
pub fn is_reserved(name: &str) -> bool {
    let folded: String = NFKD
        .normalize(&name.to_lowercase())
        .chars()
        .map(fold_confusable)
        .filter(|c| c.is_alphanumeric() && !is_mark(category(*c)))
        .collect();
    if matches!(folded.as_str(), "ordinateur" | "lordinateur" | "computer") {
        return true;
    }
    let Some(rest) = folded.strip_prefix("cpu") else {
        return false;
    };
    let rest = rest.trim_end_matches(|c: char| c.is_ascii_digit());
    LEVELS.contains(&rest) || rest.chars().all(|c| c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_nfc_with_one_plain_space() {
        // « é » as e + combining acute becomes the one-character form.
        assert_eq!(name("Rene\u{301}").unwrap(), "René");
        assert_eq!(
            name("  Ana \u{3000}\u{00A0} Bo\t").unwrap_err(),
            NameError::Control
        );
        assert_eq!(name("  Ana \u{3000}\u{00A0} Bo ").unwrap(), "Ana Bo");
        assert_eq!(name(&"é".repeat(24)).unwrap().chars().count(), 24);
        assert_eq!(name(&"e\u{301}".repeat(24)).unwrap().chars().count(), 24);
        assert_eq!(name(&"x".repeat(25)), Err(NameError::Length));
        assert_eq!(name("   "), Err(NameError::Length));
    }

    #[test]
    fn bidi_overrides_and_zero_width_characters_are_refused() {
        for bad in [
            "Ana\u{202E}gnp.exe",
            "Ana\u{2067}x",
            "A\u{200B}na",
            "\u{FEFF}Ana",
            "An\u{00AD}a",
            "Ana\u{200F}",
            "\u{200D}Ana",
            "Ana\u{200D}",
            "Ana\u{E0041}",
            "\u{3164}\u{3164}",
        ] {
            assert_eq!(name(bad), Err(NameError::Invisible), "{bad:?}");
        }
    }

    #[test]
    fn joiners_and_variation_selectors_inside_real_writing_are_kept() {
        // A family emoji (ZWJ sequence), a red heart (VS16), a Persian name with ZWNJ.
        for good in [
            "Ana 👨\u{200D}👩\u{200D}👧",
            "👁\u{FE0F}\u{200D}🗨\u{FE0F}",
            "❤\u{FE0F} Bo",
            "نیم\u{200C}رخ",
            "Nguyễn Thị Ánh",
            "क्षत्रिय",
            "שָׁלוֹם",
        ] {
            assert!(name(good).is_ok(), "{good:?}: {:?}", name(good));
        }
    }

    #[test]
    fn combining_marks_are_limited() {
        // NFC first: « á » absorbs the first acute, five marks are left on it.
        let zalgo = "Za\u{301}\u{300}\u{302}\u{303}\u{304}\u{306}lgo";
        assert_eq!(name(zalgo), Err(NameError::Marks));
        assert_eq!(name("x\u{301}\u{301}"), Err(NameError::Marks));
        assert_eq!(name("\u{301}Ana"), Err(NameError::Marks));
        assert_eq!(name("Ana \u{301}"), Err(NameError::Marks));
        assert!(name("a\u{316}\u{301}\u{317}\u{300}").is_ok());
    }

    #[test]
    fn controls_private_use_and_blanks_are_refused() {
        assert_eq!(name("a\u{1b}[31m"), Err(NameError::Control));
        assert_eq!(name("a\u{2028}b"), Err(NameError::Control));
        assert_eq!(name("a\u{E000}"), Err(NameError::Unassigned));
        assert_eq!(name("a\u{10FFFF}"), Err(NameError::Unassigned));
        assert_eq!(name("\u{2800}\u{2800}"), Err(NameError::Blank));
    }

    #[test]
    fn the_cpu_names_are_reserved_in_both_languages() {
        for taken in [
            "CPU",
            "cpu",
            "C.P.U.",
            "CPU Expert",
            "CPU difficile",
            "cpu-hard",
            "CPU 2",
            "ＣＰＵ",
            "ÇPÜ",
            "СРU",
            "Ordinateur",
            "L'ordinateur",
            "Computer",
        ] {
            assert_eq!(name(taken), Err(NameError::Reserved), "{taken:?}");
        }
        for free in ["Cpuce", "Ana", "Expert", "Ai", "Ordi"] {
            assert!(name(free).is_ok(), "{free:?}");
        }
    }

    #[test]
    fn texts_keep_lines_but_not_invisible_characters() {
        assert_eq!(text(" a\r\nb\tc ").unwrap(), "a\nb\tc");
        assert_eq!(text("ok \u{202E}xe"), Err(NameError::Invisible));
        assert_eq!(text("a\u{7}"), Err(NameError::Control));
        assert_eq!(text("Bravo 👍\u{1F3FD}").unwrap(), "Bravo 👍\u{1F3FD}");
    }
}
