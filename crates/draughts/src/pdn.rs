//! PDN games (Portable Draughts Notation): reading and writing tags and movetext, so that games
//! can be exported to and imported from other draughts software.
//!
//! Reading skips comments (`{…}`, `;…` to the end of the line), variations (`(…)`), NAGs
//! (`$3`), move annotations (`!`, `?`) and move numbers (`12.`, `12...`, also glued to the move
//! as in `12.32-28`); it stops a game at a result token (`2-0`, `0-2`, `1-1`, `0-0`, `*`, and the
//! `1-0`/`0-1`/`1/2-1/2` some programs write). A file may hold several games.
//!
//! ```
//! use draughts::{pdn, Game, Rules};
//!
//! let text = r#"[Event "Example"]
//! [GameType "20"]
//!
//! 1. 32-28 19-23 2. 28x19 14x23 {a comment} 1-1"#;
//! let games = pdn::read_pdn(text).unwrap();
//! let game = Game::from_pdn(&games[0], Rules::default()).unwrap();
//! assert_eq!(game.ply(), 4);
//! let written = game.to_pdn(&[("Event".into(), "Example".into())]);
//! assert!(written.contains("1. 32-28 19-23 2. 28x19 14x23 1-1"));
//! ```

use std::fmt;

use crate::board::Variant;
use crate::draw::Rules;
use crate::fen::ParseFenError;
use crate::game::{Game, PlayError};
use crate::Color;

/// One game as read from PDN text: its tags, its moves as written and its result token.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PdnGame {
    /// The tag pairs in file order (`("Event", "…")`).
    pub tags: Vec<(String, String)>,
    /// The moves in notation, in order.
    pub moves: Vec<String>,
    /// The result token (`2-0`, `0-2`, `1-1`, `0-0` or `*`), if the movetext had one.
    pub result: Option<String>,
}

impl PdnGame {
    /// The value of tag `name` (case-insensitive), if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Why PDN text could not be read or replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParsePdnError {
    /// A `[` tag without its closing `]` or quotes.
    BadTag(String),
    /// A `{` comment or `(` variation not closed.
    Unterminated,
    /// The `GameType` tag names a game other than international, Brazilian or Canadian
    /// draughts.
    UnsupportedGameType(String),
    /// The `FEN` tag does not parse.
    Fen(ParseFenError),
    /// A move could not be played (ply counted from 1).
    Move {
        /// Which ply.
        ply: usize,
        /// The move as written.
        text: String,
        /// Why.
        error: PlayError,
    },
}

impl fmt::Display for ParsePdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParsePdnError::BadTag(s) => write!(f, "malformed tag {s:?}"),
            ParsePdnError::Unterminated => write!(f, "unterminated comment or variation"),
            ParsePdnError::UnsupportedGameType(s) => write!(f, "unsupported GameType {s:?}"),
            ParsePdnError::Fen(e) => write!(f, "FEN tag: {e}"),
            ParsePdnError::Move { ply, text, error } => {
                write!(f, "move {text:?} (ply {ply}): {error}")
            }
        }
    }
}

impl std::error::Error for ParsePdnError {}

const RESULTS: [(&str, &str); 8] = [
    ("2-0", "2-0"),
    ("0-2", "0-2"),
    ("1-1", "1-1"),
    ("0-0", "0-0"),
    ("*", "*"),
    ("1-0", "2-0"),
    ("0-1", "0-2"),
    ("1/2-1/2", "1-1"),
];

/// Reads every game of a PDN text.
///
/// # Errors
/// [`ParsePdnError::BadTag`] or [`ParsePdnError::Unterminated`]; moves are not checked here
/// (see [`Game::from_pdn`]).
pub fn read_pdn(text: &str) -> Result<Vec<PdnGame>, ParsePdnError> {
    let mut games = Vec::new();
    let mut game = PdnGame::default();
    let mut rest = text.trim_start_matches('\u{feff}');
    loop {
        rest = rest.trim_start();
        let Some(c) = rest.chars().next() else { break };
        match c {
            '[' => {
                if !game.moves.is_empty() {
                    games.push(std::mem::take(&mut game));
                }
                let (tag, after) = read_tag(rest)?;
                game.tags.push(tag);
                rest = after;
            }
            '{' => rest = skip_comment(rest)?,
            '(' => rest = skip_variation(rest)?,
            ';' | '%' => rest = rest.split_once('\n').map_or("", |(_, r)| r),
            _ => {
                let end = rest
                    .find(|c: char| c.is_whitespace() || "{([;".contains(c))
                    .unwrap_or(rest.len());
                let (token, after) = rest.split_at(end);
                rest = after;
                if let Some(&(_, result)) = RESULTS.iter().find(|(t, _)| *t == token) {
                    game.result = Some(result.to_string());
                    games.push(std::mem::take(&mut game));
                } else if let Some(mv) = move_of_token(token) {
                    game.moves.push(mv.to_string());
                }
            }
        }
    }
    if !game.moves.is_empty() || !game.tags.is_empty() {
        games.push(game);
    }
    Ok(games)
}

/// The move in a movetext token, without move number and annotations; `None` for a bare move
/// number, a NAG or an annotation.
fn move_of_token(token: &str) -> Option<&str> {
    if token.starts_with('$') {
        return None;
    }
    let t = token.trim_start_matches(|c: char| c.is_ascii_digit());
    let t = if t.starts_with('.') {
        t.trim_start_matches('.')
    } else {
        token
    };
    let t = t.trim_end_matches(['!', '?', '+', '#']);
    (!t.is_empty()).then_some(t)
}

fn read_tag(s: &str) -> Result<((String, String), &str), ParsePdnError> {
    let bad = || ParsePdnError::BadTag(s.chars().take(40).collect());
    let inner = &s[1..];
    let name_end = inner.find('"').ok_or_else(bad)?;
    let name = inner[..name_end].trim();
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return Err(bad());
    }
    let mut value = String::new();
    let mut chars = inner[name_end + 1..].char_indices();
    let close = loop {
        match chars.next().ok_or_else(bad)? {
            (_, '\\') => value.push(chars.next().ok_or_else(bad)?.1),
            (i, '"') => break name_end + 1 + i + 1,
            (_, c) => value.push(c),
        }
    };
    let after = inner[close..].trim_start();
    let after = after.strip_prefix(']').ok_or_else(bad)?;
    Ok(((name.to_string(), value), after))
}

fn skip_comment(s: &str) -> Result<&str, ParsePdnError> {
    s.find('}')
        .map(|i| &s[i + 1..])
        .ok_or(ParsePdnError::Unterminated)
}

fn skip_variation(s: &str) -> Result<&str, ParsePdnError> {
    let mut depth = 0usize;
    let mut rest = s;
    while let Some(i) = rest.find(['(', ')', '{']) {
        match rest.as_bytes()[i] {
            b'(' => {
                depth += 1;
                rest = &rest[i + 1..];
            }
            b')' => {
                depth -= 1;
                rest = &rest[i + 1..];
                if depth == 0 {
                    return Ok(rest);
                }
            }
            _ => rest = skip_comment(&rest[i..])?,
        }
    }
    Err(ParsePdnError::Unterminated)
}

/// Escapes a tag value.
fn quote(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

/// What a PDN file says of one move besides its notation: a move suffix (`?!`, `?`, `??`, `!`…)
/// and a comment (written in braces after the move; braces inside it are dropped).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Annotation {
    /// Glued to the move: `32-28?!`.
    pub suffix: Option<String>,
    /// `{…}` after the move.
    pub comment: Option<String>,
}

/// Writes a PDN game: `tags` (in order, except `GameType`, `FEN` and `Result`, which are
/// written from the game), then the movetext with every landing square, `notes[i]` after move
/// `i` (a Black move after a comment gets its number again, `3...`), wrapped at 80 columns.
pub(crate) fn write_pdn(game: &Game, tags: &[(String, String)], notes: &[Annotation]) -> String {
    let result = game.outcome().map_or("*", |o| o.pdn_result());
    let mut out = String::new();
    for (k, v) in tags {
        if ["GameType", "FEN", "Result"]
            .iter()
            .any(|t| t.eq_ignore_ascii_case(k))
        {
            continue;
        }
        out.push_str(&format!("[{k} \"{}\"]\n", quote(v)));
    }
    out.push_str(&format!(
        "[GameType \"{}\"]\n",
        game.variant().pdn_game_type()
    ));
    if !game.starts_from_initial() {
        out.push_str(&format!("[FEN \"{}\"]\n", game.start_fen()));
    }
    out.push_str(&format!("[Result \"{result}\"]\n\n"));
    let start_black = game.start_fen().starts_with('B');
    let mut tokens = Vec::new();
    let mut after_comment = false;
    for (i, info) in game.moves().iter().enumerate() {
        let ply = i + usize::from(start_black);
        if ply % 2 == 0 {
            tokens.push(format!("{}.", ply / 2 + 1));
        } else if i == 0 || after_comment {
            tokens.push(format!("{}...", ply / 2 + 1));
        }
        let note = notes.get(i);
        let suffix = note.and_then(|n| n.suffix.as_deref()).unwrap_or("");
        tokens.push(format!("{}{suffix}", info.notation));
        after_comment = false;
        if let Some(comment) = note.and_then(|n| n.comment.as_deref()) {
            let clean: String = comment.chars().filter(|c| !"{}".contains(*c)).collect();
            // One token per word, so that a long comment wraps like the moves.
            let words: Vec<&str> = clean.split_whitespace().collect();
            for (k, w) in words.iter().enumerate() {
                let open = if k == 0 { "{" } else { "" };
                let close = if k + 1 == words.len() { "}" } else { "" };
                tokens.push(format!("{open}{w}{close}"));
            }
            if words.is_empty() {
                tokens.push("{}".into());
            }
            after_comment = true;
        }
    }
    tokens.push(result.to_string());
    let mut line_len = 0;
    for t in tokens {
        if line_len > 0 && line_len + 1 + t.len() > 80 {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        line_len += t.len();
        out.push_str(&t);
    }
    out.push('\n');
    out
}

impl Game {
    /// Replays a PDN game. The board is the `GameType` tag's (20, 26 or 27; `rules.variant`
    /// without the tag); the start is the `FEN` tag's (the usual start without it). A result
    /// token that the moves do not explain is applied as a resignation (`2-0`, `0-2`) or an
    /// agreed draw (`1-1`).
    ///
    /// # Errors
    /// [`ParsePdnError`] for an unsupported game type, a bad FEN or a move that cannot be played.
    pub fn from_pdn(pdn: &PdnGame, rules: Rules) -> Result<Game, ParsePdnError> {
        let mut rules = rules;
        if let Some(gt) = pdn.tag("GameType") {
            let number = gt.split(',').next().unwrap_or("").trim();
            rules.variant = number
                .parse()
                .ok()
                .and_then(Variant::from_pdn_game_type)
                .ok_or_else(|| ParsePdnError::UnsupportedGameType(gt.to_string()))?;
        }
        let mut game = Game::replay(rules, pdn.tag("FEN"), &pdn.moves)?;
        if game.outcome().is_none() {
            // Results the moves do not explain: a resignation or an agreed draw.
            let _ = match pdn.result.as_deref() {
                Some("2-0") => game.resign(Color::Black),
                Some("0-2") => game.resign(Color::White),
                Some("1-1") => game.agree_draw(),
                _ => Ok(()),
            };
        }
        Ok(game)
    }

    /// The game as PDN text (see the module documentation), with `tags` first (`Event`, `Site`,
    /// `Date`, `White`, `Black`, …).
    pub fn to_pdn(&self, tags: &[(String, String)]) -> String {
        write_pdn(self, tags, &[])
    }

    /// [`Game::to_pdn`] with `notes[i]` (a suffix, a comment) after move `i`; the text reads back
    /// with [`read_pdn`] and [`Game::from_pdn`] to the same game.
    pub fn to_pdn_annotated(&self, tags: &[(String, String)], notes: &[Annotation]) -> String {
        write_pdn(self, tags, notes)
    }
}

impl fmt::Display for PdnGame {
    /// The tags and moves as read (no replay).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, v) in &self.tags {
            writeln!(f, "[{k} \"{}\"]", quote(v))?;
        }
        writeln!(f)?;
        for (i, m) in self.moves.iter().enumerate() {
            if i % 2 == 0 {
                write!(f, "{}. ", i / 2 + 1)?;
            }
            write!(f, "{m} ")?;
        }
        writeln!(f, "{}", self.result.as_deref().unwrap_or("*"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_tags_comments_variations_and_numbers() {
        let text = r#"
[Event "Test \"quoted\""]
[GameType "20,W,10,10,N2,0"]
1.32-28 {comment (not a variation)} 19-23 (2. 28x19 (1... 20-24) {x} 14x23) 2. 28x19! $1
14x23 ; line comment 0-2
1-1
[Event "Second"]
1. 31-26 *"#;
        let games = read_pdn(text).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("event"), Some("Test \"quoted\""));
        assert_eq!(games[0].moves, ["32-28", "19-23", "28x19", "14x23"]);
        assert_eq!(games[0].result.as_deref(), Some("1-1"));
        assert_eq!(games[1].moves, ["31-26"]);
        assert_eq!(games[1].result.as_deref(), Some("*"));
    }

    #[test]
    fn malformed_input_is_an_error() {
        assert_eq!(read_pdn("{ never closed"), Err(ParsePdnError::Unterminated));
        assert_eq!(read_pdn("( 1. 32-28"), Err(ParsePdnError::Unterminated));
        assert!(matches!(read_pdn("[Event"), Err(ParsePdnError::BadTag(_))));
        assert!(matches!(
            read_pdn("[Event \"x\""),
            Err(ParsePdnError::BadTag(_))
        ));
        let g = &read_pdn("[GameType \"21\"] 1. 11-15 *").unwrap()[0];
        assert!(matches!(
            Game::from_pdn(g, Rules::default()),
            Err(ParsePdnError::UnsupportedGameType(_))
        ));
        let g = &read_pdn("1. 32-28 32-28 *").unwrap()[0];
        assert!(matches!(
            Game::from_pdn(g, Rules::default()),
            Err(ParsePdnError::Move { ply: 2, .. })
        ));
    }

    #[test]
    fn annotated_moves_keep_their_suffix_and_comment_and_read_back_to_the_same_game() {
        let mut game = Game::new(Rules::default());
        for mv in ["32-28", "19-23", "28x19", "14x23", "37-32"] {
            game.play_notation(mv).unwrap();
        }
        let note = |suffix: Option<&str>, comment: &str| Annotation {
            suffix: suffix.map(Into::into),
            comment: Some(comment.into()),
        };
        let notes = [
            note(None, "eval +0.05, best 32-28"),
            note(Some("?!"), "eval +0.31, best 17-21 {braces} dropped"),
            Annotation::default(),
            note(Some("??"), "eval #7, best 20-24"),
        ];
        let text = game.to_pdn_annotated(&[], &notes);
        assert!(text.lines().all(|l| l.len() <= 80), "{text}");
        let one_line = text.replace('\n', " ");
        assert!(
            one_line.contains("1. 32-28 {eval +0.05, best 32-28} 1... 19-23?! {eval +0.31, best"),
            "{text}"
        );
        assert!(
            one_line.contains("braces dropped} 2. 28x19 14x23?? {eval #7"),
            "{text}"
        );
        assert!(one_line.contains("} 3. 37-32 *"), "{text}");
        let read = read_pdn(&text).unwrap();
        assert_eq!(read.len(), 1);
        assert_eq!(read[0].moves, ["32-28", "19-23", "28x19", "14x23", "37-32"]);
        let back = Game::from_pdn(&read[0], Rules::default()).unwrap();
        assert_eq!(back.fen(), game.fen());
        assert_eq!(game.to_pdn_annotated(&[], &[]), game.to_pdn(&[]));
    }

    #[test]
    fn writes_and_reads_back_a_game_starting_with_black() {
        let rules = Rules::new(Variant::Brazilian);
        let mut game = Game::from_fen(rules, "B:W21-32:B1-12").unwrap();
        for _ in 0..3 {
            let mv = game.legal_moves()[0].notation.clone();
            game.play_notation(&mv).unwrap();
        }
        let text = game.to_pdn(&[("Event".to_string(), "Casual".to_string())]);
        assert!(text.contains("[GameType \"26\"]"), "{text}");
        assert!(text.contains("[FEN \"B:W21,"), "{text}");
        assert!(text.contains("\n\n1... "), "{text}");
        let back = Game::from_pdn(&read_pdn(&text).unwrap()[0], Rules::default()).unwrap();
        assert_eq!(back.fen(), game.fen());
        assert_eq!(back.variant(), Variant::Brazilian);
    }
}
