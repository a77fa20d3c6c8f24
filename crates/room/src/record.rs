//! A room's game as a record, to look at again and to download (issue 14, docs/protocol.md
//! "Game records"): the players, the start position, every entry of the game log (moves with
//! their readable notation, resignations, draws) and the result, rebuilt from the stored log
//! through the rules engine; the same game as standard PDN (draughts, written by the `draughts`
//! crate's PDN writer) or in the project's own text format (Chinese checkers, docs/notation.md).
//!
//! Notation: draughts moves in PDN (FMJD square numbers, `32-28`, `28x19x10`); Chinese checkers
//! moves as the hole numbers of their path (`12-23`, `4-15-37`), holes numbered 1–121 row by row
//! from the tip of camp 0, left to right — the engine's cell index plus one.

use serde::Serialize;
use serde_json::Value;

use crate::game::{GameKind, GameRules, GameState};
use crate::protocol::{Board, Cube, LegalMove, Outcome};
use crate::room::{Settings, Status};
use crate::rows::{ActionRow, GameRow};
use crate::view::{SeatKind, SeatView};

/// A game of a room (`GET /api/rooms/{code}/games/{n}/record`; `…/record`: the current one).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameRecord {
    /// The room's code.
    pub code: String,
    /// Which game.
    pub game: GameKind,
    /// Its number in the room (1 for the first).
    pub game_no: i64,
    /// `playing` or `finished`.
    pub status: Status,
    /// The rules it is played under.
    pub rules: GameRules,
    /// The seats (names, CPU levels, camps or colours).
    pub seats: Vec<SeatView>,
    /// The seat that moved first.
    pub first_seat: usize,
    /// The position before the first move.
    pub start: Board,
    /// Every entry of the game log, in order.
    pub log: Vec<Entry>,
    /// The position now (after the last entry).
    pub board: Board,
    /// The result once over.
    pub outcome: Option<Outcome>,
    /// When the game ended (Unix ms).
    pub finished_at: Option<i64>,
    /// Chinese checkers: the crossing puzzle (« Défi solitaire »), one seat.
    pub solitaire: bool,
}

/// One entry of a game's log.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Entry {
    /// A move, as in a `MoveRecord`, with its notation.
    Move {
        /// Who played it.
        seat: usize,
        /// The move.
        #[serde(rename = "move")]
        mv: LegalMove,
        /// Seats whose turn was then passed.
        passes: Vec<usize>,
        /// Seats that finished with it.
        finished: Vec<usize>,
        /// Readable notation (see the module documentation).
        notation: String,
        /// When (Unix ms).
        at: i64,
    },
    /// A seat resigned.
    Resign {
        /// Who.
        seat: usize,
        /// When.
        at: i64,
    },
    /// A seat lost by abandonment: away on its turn, the other player claimed the win.
    Forfeit {
        /// Who lost.
        seat: usize,
        /// When.
        at: i64,
    },
    /// A seat's flag fell and it lost, or took the last place (crate::clock).
    Flag {
        /// Whose.
        seat: usize,
        /// When.
        at: i64,
    },
    /// The players agreed to a draw.
    Draw {
        /// When.
        at: i64,
    },
    /// The game ended with no result (45 days without a move).
    Abandon {
        /// When.
        at: i64,
    },
    /// The game was stopped: no person was left in play.
    Stop {
        /// When.
        at: i64,
    },
}

/// The number (1–121) of a hole of the star.
pub fn hole_number(c: Cube) -> Option<u8> {
    chinese_checkers::Cell::from_cube(i32::from(c[0]), i32::from(c[1]), i32::from(c[2]))
        .map(|cell| cell.index() + 1)
}

/// The readable notation of a move (see the module documentation).
pub fn notation(mv: &LegalMove) -> String {
    match mv {
        LegalMove::Draughts(m) => m.notation.clone(),
        LegalMove::Cc(m) => {
            let path: &[Cube] = if m.path.len() >= 2 {
                &m.path
            } else {
                &[m.from, m.to]
            };
            path.iter()
                .map(|&c| hole_number(c).map_or_else(|| "?".to_owned(), |n| n.to_string()))
                .collect::<Vec<_>>()
                .join("-")
        }
    }
}

/// Rebuilds game `row` of room `code` from its stored log through the rules engine: its record
/// and the engine's state after it. `room_seats` gives the seats for a game stored before seats
/// were kept with each game (they cannot change once a room's first game has started); their
/// camps and colours are those of this game.
///
/// # Errors
/// A message if the stored game does not replay (corruption, or an engine that changed its
/// rules).
pub fn build(
    code: &str,
    kind: GameKind,
    row: &GameRow,
    actions: &[ActionRow],
    room_seats: impl FnOnce() -> Vec<SeatView>,
) -> Result<(GameRecord, GameState), String> {
    let settings_json: Value = serde_json::from_str(&row.settings).map_err(|e| e.to_string())?;
    let (settings, _) = Settings::from_json(kind, &settings_json)?;
    let rules = settings.rules;
    let first_seat = usize::try_from(row.first_seat).map_err(|e| e.to_string())?;
    let mut state =
        GameState::new(&rules, first_seat, row.start_fen.as_deref()).map_err(|e| e.to_string())?;
    let start = state.board();
    let mut log = Vec::with_capacity(actions.len());
    for action in actions {
        log.push(replay_entry(kind, &mut state, action)?);
    }
    let seats = match row.seats.as_deref() {
        Some(json) => serde_json::from_str(json).map_err(|e| e.to_string())?,
        None => {
            let white = state.white_seat().unwrap_or(first_seat);
            let mut seats = room_seats();
            for v in &mut seats {
                let info = rules.seat_info(v.seat, white);
                (v.camps, v.color) = (info.camps, info.color);
                (v.online, v.ready) = (false, false);
            }
            seats
        }
    };
    let outcome = state.outcome();
    let record = GameRecord {
        code: code.to_owned(),
        game: kind,
        game_no: row.game_no,
        status: if outcome.is_some() {
            Status::Finished
        } else {
            Status::Playing
        },
        rules,
        seats,
        first_seat,
        start,
        log,
        board: state.board(),
        outcome,
        finished_at: row.finished_at,
        solitaire: kind == GameKind::Cc
            && row.start_fen.as_deref() == Some(crate::game::SOLITAIRE_START),
    };
    Ok((record, state))
}

/// Plays one stored log entry on `state` and returns it as a record entry.
fn replay_entry(kind: GameKind, state: &mut GameState, row: &ActionRow) -> Result<Entry, String> {
    let seat = row.seat.and_then(|s| usize::try_from(s).ok());
    let at = row.at;
    Ok(match (row.kind.as_str(), seat) {
        ("move", Some(seat)) => {
            let input: Value = serde_json::from_str(row.data.as_deref().unwrap_or("null"))
                .map_err(|e| e.to_string())?;
            let played = kind
                .parse_move(&input)
                .and_then(|input| state.play(&input))
                .map_err(|e| format!("record: move {}: {e}", row.seq))?;
            Entry::Move {
                seat,
                notation: notation(&played.mv),
                mv: played.mv,
                passes: played.passes,
                finished: played.finished,
                at,
            }
        }
        ("resign", Some(seat)) if crate::snapshot::is_forfeit(row) => {
            state.forfeit(seat).map_err(|e| e.to_string())?;
            Entry::Forfeit { seat, at }
        }
        ("resign", Some(seat)) if crate::snapshot::is_flag(row) => {
            state.flag(seat).map_err(|e| e.to_string())?;
            Entry::Flag { seat, at }
        }
        ("resign", Some(seat)) => {
            state.resign(seat).map_err(|e| e.to_string())?;
            Entry::Resign { seat, at }
        }
        ("draw", _) => {
            state.agree_draw().map_err(|e| e.to_string())?;
            Entry::Draw { at }
        }
        ("abandon", _) => {
            state.abandon();
            Entry::Abandon { at }
        }
        ("stop", _) => {
            state.stop();
            Entry::Stop { at }
        }
        (kind, _) => return Err(format!("record: bad action {kind}")),
    })
}

/// A seat's name for a file: the person's name, or « CPU (level) ».
fn player_name(seat: &SeatView) -> String {
    match seat.kind {
        SeatKind::Cpu => format!("CPU ({})", seat.level.map_or("normal", |l| l.name())),
        _ => seat.name.clone().unwrap_or_else(|| "?".into()),
    }
}

/// `YYYY.MM.DD` (UTC) of a Unix time in ms, as PDN writes dates.
pub fn pdn_date(ms: i64) -> String {
    // Days to civil date (H. Hinnant's algorithm), proleptic Gregorian.
    let z = ms.div_euclid(86_400_000) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// When the game was played: its first log entry, else its end, else `now`.
fn game_date(record: &GameRecord, now: i64) -> String {
    let first = record.log.first().map(|e| match e {
        Entry::Move { at, .. }
        | Entry::Resign { at, .. }
        | Entry::Forfeit { at, .. }
        | Entry::Flag { at, .. }
        | Entry::Draw { at }
        | Entry::Abandon { at }
        | Entry::Stop { at } => *at,
    });
    pdn_date(first.or(record.finished_at).unwrap_or(now))
}

/// The common tags of both files.
fn tags(record: &GameRecord, site: &str, now: i64) -> Vec<(String, String)> {
    vec![
        ("Event".into(), format!("Dames {}", record.code)),
        ("Site".into(), format!("{site}/r/{}", record.code)),
        ("Date".into(), game_date(record, now)),
        ("Round".into(), record.game_no.to_string()),
    ]
}

/// The game as standard PDN with the FMJD tags (Event, Site, Date, Round, White, Black, Result,
/// GameType, and FEN when it did not start from the usual position); `None` for Chinese
/// checkers. `site` is the site's origin (`https://…`).
pub fn pdn(record: &GameRecord, state: &GameState, site: &str, now: i64) -> Option<String> {
    pdn_analysed(record, state, site, now, None)
}

/// [`pdn`] with the game's analysis, when there is one: an `Annotator` tag, and after each move
/// its mark as the move's suffix (`?!`, `?`, `??`) and `{eval …, best …}`
/// (crate::analysis::GameAnalysis::annotations).
pub fn pdn_analysed(
    record: &GameRecord,
    state: &GameState,
    site: &str,
    now: i64,
    analysis: Option<&crate::analysis::GameAnalysis>,
) -> Option<String> {
    let GameState::Draughts(game) = state else {
        return None;
    };
    let mut tags = tags(record, site, now);
    let white = game.white_seat();
    for (tag, seat) in [("White", white), ("Black", 1 - white)] {
        let name = record
            .seats
            .get(seat)
            .map_or_else(|| "?".into(), player_name);
        tags.push((tag.into(), name));
    }
    let Some(analysis) = analysis else {
        return Some(game.game().to_pdn(&tags));
    };
    tags.push(("Annotator".into(), analysis.annotator()));
    Some(game.game().to_pdn_annotated(&tags, &analysis.annotations()))
}

/// Escapes a tag value.
fn quote(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The game in the project's Chinese checkers text format (docs/notation.md); `None` for
/// draughts.
pub fn cc_text(record: &GameRecord, site: &str, now: i64) -> Option<String> {
    let GameRules::Cc(rules) = &record.rules else {
        return None;
    };
    let mut out = String::from("[Game \"Chinese checkers\"]\n");
    for (k, v) in tags(record, site, now) {
        out.push_str(&format!("[{k} \"{}\"]\n", quote(&v)));
    }
    let rules_json = serde_json::to_string(rules).unwrap_or_default();
    out.push_str(&format!("[Rules \"{}\"]\n", quote(&rules_json)));
    if record.solitaire {
        out.push_str("[Challenge \"solitaire\"]\n");
    }
    for seat in &record.seats {
        let p = seat.seat + 1;
        out.push_str(&format!("[P{p} \"{}\"]\n", quote(&player_name(seat))));
        let camps: Vec<String> = seat
            .camps
            .iter()
            .flatten()
            .map(ToString::to_string)
            .collect();
        out.push_str(&format!("[P{p}Camps \"{}\"]\n", camps.join(",")));
    }
    out.push_str(&format!("[First \"P{}\"]\n", record.first_seat + 1));
    let result = match &record.outcome {
        Some(o) if o.places.iter().all(Option::is_some) => o
            .places
            .iter()
            .map(|p| p.map_or_else(|| "?".into(), |p| p.to_string()))
            .collect::<Vec<_>>()
            .join("-"),
        _ => "*".into(),
    };
    out.push_str(&format!("[Result \"{result}\"]\n"));
    if let Some(o) = &record.outcome {
        let reason = serde_json::to_value(o.reason).unwrap_or_default();
        out.push_str(&format!(
            "[Termination \"{}\"]\n",
            reason.as_str().unwrap_or("")
        ));
    }
    out.push('\n');
    let mut n = 0;
    for entry in &record.log {
        n += 1;
        match entry {
            Entry::Move {
                seat,
                notation,
                passes,
                finished,
                ..
            } => {
                out.push_str(&format!("{n}. P{} {notation}", seat + 1));
                for s in finished {
                    out.push_str(&format!(" {{P{} finished}}", s + 1));
                }
                for s in passes {
                    out.push_str(&format!(" {{P{} passes}}", s + 1));
                }
            }
            Entry::Resign { seat, .. } => out.push_str(&format!("{n}. P{} resigns", seat + 1)),
            Entry::Forfeit { seat, .. } => {
                out.push_str(&format!("{n}. P{} loses by abandonment", seat + 1));
            }
            Entry::Flag { seat, .. } => {
                out.push_str(&format!("{n}. P{} runs out of time", seat + 1));
            }
            Entry::Draw { .. } => out.push_str(&format!("{n}. draw")),
            Entry::Abandon { .. } => out.push_str(&format!("{n}. abandoned")),
            Entry::Stop { .. } => out.push_str(&format!("{n}. stopped")),
        }
        out.push('\n');
    }
    out.push_str(&result);
    out.push('\n');
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holes_are_numbered_row_by_row_from_the_tip_of_camp_0() {
        assert_eq!(hole_number([4, 4, -8]), Some(1));
        assert_eq!(hole_number([3, 4, -7]), Some(2));
        assert_eq!(hole_number([4, 3, -7]), Some(3));
        // The first row of the hexagon's side starts at x = -4 … the last hole is camp 3's tip.
        assert_eq!(hole_number([-4, -4, 8]), Some(121));
        assert_eq!(hole_number([0, 0, 0]), Some(61));
        assert_eq!(hole_number([5, 5, -10]), None);
    }

    #[test]
    fn dates_are_written_as_pdn_dates() {
        assert_eq!(pdn_date(0), "1970.01.01");
        assert_eq!(pdn_date(951_782_400_000), "2000.02.29");
        assert_eq!(pdn_date(1_764_547_200_000), "2025.12.01");
    }
}
