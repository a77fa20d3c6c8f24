//! A finished game's analysis (« Analyser », docs/protocol.md "Analysis"): the engine's review of
//! every position (`dames_ai::draughts::review`) as the server stores it with the game and sends
//! it, and as the comments and marks of the game's PDN file.
//!
//! Scores are White's, in hundredths of a man, within ±[`CAP`]; `mate` is the plies to a forced
//! end, won by the side the sign of `eval` gives. `positions[i]` is the position before move `i`
//! (the last one after the last move analysed), `moves[i]` the move played from `positions[i]`.

use serde::{Deserialize, Serialize};

use dames_ai::draughts::review::{self, Mark, Review, Scored};
pub use dames_ai::draughts::review::{BLUNDER, CAP, DUBIOUS, MISTAKE};

use crate::protocol::DraughtsMove;

/// The version of the stored format: an analysis stored in another one is not read (it is made
/// again when asked for).
pub const FORMAT: u32 = 1;

/// A game's analysis.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameAnalysis {
    /// [`FORMAT`].
    pub format: u32,
    /// Nodes searched for each position.
    pub nodes: u64,
    /// The positions, one more than the moves.
    pub positions: Vec<PositionEval>,
    /// The moves analysed.
    pub moves: Vec<MoveEval>,
    /// The game had more moves than were analysed (the first ones were).
    pub truncated: bool,
    /// When it was made (Unix ms).
    pub at: i64,
    /// How long it took (ms).
    pub ms: u64,
}

/// One position, searched.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PositionEval {
    /// White's score, hundredths of a man, within ±[`CAP`].
    pub eval: i32,
    /// Plies to a forced end (won by the side of `eval`'s sign); `null` otherwise.
    pub mate: Option<u32>,
    /// The best move (as a legal move of the protocol); `null` when the game is over here.
    pub best: Option<DraughtsMove>,
    /// The principal variation, in notation, from `best` on.
    pub pv: Vec<String>,
    /// Deepest completed iteration (0: the game is over here).
    pub depth: u32,
}

/// One move, judged by the expected score it lost for its mover (docs/ai.md "Game review").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveEval {
    /// The move as played.
    pub notation: String,
    /// The expected score lost (0–1, three decimals).
    pub loss: f64,
    /// `?!`, `?` or `??`; `null` for a move that lost less than [`DUBIOUS`].
    pub mark: Option<MoveMark>,
}

/// What a move lost, as the PDN move suffix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MoveMark {
    /// `?!`: dubious.
    #[serde(rename = "?!")]
    Dubious,
    /// `?`: a mistake.
    #[serde(rename = "?")]
    Mistake,
    /// `??`: a blunder.
    #[serde(rename = "??")]
    Blunder,
}

impl MoveMark {
    /// The PDN suffix.
    pub fn symbol(self) -> &'static str {
        match self {
            MoveMark::Dubious => "?!",
            MoveMark::Mistake => "?",
            MoveMark::Blunder => "??",
        }
    }
}

impl From<Mark> for MoveMark {
    fn from(m: Mark) -> Self {
        match m {
            Mark::Dubious => MoveMark::Dubious,
            Mark::Mistake => MoveMark::Mistake,
            Mark::Blunder => MoveMark::Blunder,
        }
    }
}

fn legal(info: &draughts::MoveInfo) -> DraughtsMove {
    DraughtsMove {
        from: info.from,
        to: info.to,
        path: info.path.clone(),
        captures: info.captures.clone(),
        notation: info.notation.clone(),
    }
}

impl PositionEval {
    fn from_scored(s: &Scored) -> Self {
        Self {
            eval: s.white,
            mate: s.mate,
            best: s.best.as_ref().map(legal),
            pv: s.pv.iter().map(|m| m.notation.clone()).collect(),
            depth: s.depth,
        }
    }

    /// The score as a PDN comment writes it: men with two decimals from White's side
    /// (`+0.35`, `-1.20`), a forced end as `#7` (White wins in 7 plies) or `#-7`.
    pub fn text(&self) -> String {
        match self.mate {
            Some(plies) if self.eval < 0 => format!("#-{plies}"),
            Some(plies) => format!("#{plies}"),
            None => format!("{:+.2}", f64::from(self.eval) / 100.0),
        }
    }
}

impl GameAnalysis {
    /// The analysis of a review made with `nodes` a position, at `at`, in `ms`.
    pub fn from_review(r: &Review, nodes: u64, at: i64, ms: u64) -> Self {
        Self {
            format: FORMAT,
            nodes,
            positions: r.positions.iter().map(PositionEval::from_scored).collect(),
            moves: r
                .moves
                .iter()
                .map(|m| MoveEval {
                    notation: m.played.notation.clone(),
                    loss: (m.loss * 1000.0).round() / 1000.0,
                    mark: m.mark.map(MoveMark::from),
                })
                .collect(),
            truncated: r.truncated,
            at,
            ms,
        }
    }

    /// A stored analysis, `None` if it is not one of this [`FORMAT`].
    pub fn from_json(text: &str) -> Option<Self> {
        serde_json::from_str::<Self>(text)
            .ok()
            .filter(|a| a.format == FORMAT && a.positions.len() == a.moves.len() + 1)
    }

    /// What the PDN file says after each move: its mark as the move's suffix and
    /// `{eval <after the move>, best <the best move before it>}`.
    pub fn annotations(&self) -> Vec<draughts::Annotation> {
        self.moves
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let mut comment = format!("eval {}", self.positions[i + 1].text());
                if let Some(best) = &self.positions[i].best {
                    comment.push_str(&format!(", best {}", best.notation));
                }
                draughts::Annotation {
                    suffix: m.mark.map(|k| k.symbol().to_owned()),
                    comment: Some(comment),
                }
            })
            .collect()
    }

    /// The PDN `Annotator` tag's value.
    pub fn annotator(&self) -> String {
        format!(
            "Dames analysis ({} nodes a position; marks ?! ? ?? at {DUBIOUS}, {MISTAKE}, {BLUNDER} of expected score lost)",
            self.nodes
        )
    }
}

/// The expected score of White's `eval` (0–1), as the graph draws it.
pub fn expected_score(eval: i32) -> f64 {
    review::expected_score(eval)
}

#[cfg(test)]
mod tests {
    use super::*;
    use dames_ai::draughts::review::{review, ReviewBudget};

    fn analysed() -> (draughts::Game, GameAnalysis) {
        let mut game =
            draughts::Game::from_fen(draughts::Rules::default(), "W:W29,47:B18,3").unwrap();
        for mv in ["29-23", "18x29"] {
            game.play_notation(mv).unwrap();
        }
        let budget = ReviewBudget {
            nodes: 5_000,
            max_plies: 10,
        };
        let r = review(&game, &budget, &Default::default(), &mut |_, _| {}).unwrap();
        (game, GameAnalysis::from_review(&r, 5_000, 1, 2))
    }

    #[test]
    fn an_analysis_round_trips_through_its_stored_json() {
        let (_, a) = analysed();
        let text = serde_json::to_string(&a).unwrap();
        assert!(text.contains(r#""mark":"??""#), "{text}");
        assert_eq!(GameAnalysis::from_json(&text), Some(a.clone()));
        let other = text.replace(r#""format":1"#, r#""format":99"#);
        assert_eq!(GameAnalysis::from_json(&other), None);
        assert_eq!(GameAnalysis::from_json("{}"), None);
    }

    #[test]
    fn scores_are_written_in_men_from_whites_side() {
        let p = |eval, mate| PositionEval {
            eval,
            mate,
            best: None,
            pv: vec![],
            depth: 1,
        };
        assert_eq!(p(35, None).text(), "+0.35");
        assert_eq!(p(-120, None).text(), "-1.20");
        assert_eq!(p(0, None).text(), "+0.00");
        assert_eq!(p(CAP, Some(7)).text(), "#7");
        assert_eq!(p(-CAP, Some(0)).text(), "#-0");
    }

    #[test]
    fn the_pdn_of_an_analysed_game_carries_its_comments_and_marks_and_reads_back() {
        let (game, a) = analysed();
        let text = game.to_pdn_annotated(&[("Annotator".into(), a.annotator())], &a.annotations());
        assert!(text.contains("1. 29-23?? {eval "), "{text}");
        assert!(
            text.contains(", best 29-24}") || text.contains(", best 47-"),
            "{text}"
        );
        assert!(text.contains("marks ?! ? ??"), "{text}");
        let read = draughts::read_pdn(&text).unwrap();
        let back = draughts::Game::from_pdn(&read[0], draughts::Rules::default()).unwrap();
        assert_eq!(back.fen(), game.fen());
    }
}
