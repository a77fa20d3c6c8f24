//! Room settings (docs/protocol.md `Settings`, RULES.md): their defaults, the one table of what
//! each field accepts ([`COMMON`], [`CC_RULES`], [`DRAUGHTS_RULES`]), the checks of a client's
//! input against it — each refusal names its field and why ([`Detail`]) — and the same table
//! served to clients by `GET /api/settings` ([`schema_json`]) so that the browser checks input with
//! the server's own limits before sending it.

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use dames_ai::Level;

use crate::clock::{ClockSettings, OnFlag};
use crate::error::{Detail, Error};
use crate::game::{GameKind, GameRules, RulesError};
use crate::names::MAX_NAME as NAME_MAX_CHARS;

/// The room settings (docs/protocol.md `Settings`), sent as they are.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// The engine's rules, every field present.
    pub rules: GameRules,
    /// « Montrer les coups légaux ».
    pub show_legal_moves: bool,
    /// « Changer qui commence ».
    pub rotate_first: bool,
    /// Random first player.
    pub random_first: bool,
    /// Ask before sending a move.
    pub confirm_move: bool,
    /// CPU think time in milliseconds.
    pub cpu_ms: u64,
    /// Live, or turn by turn with notifications (RULES.md part 3).
    pub rhythm: Rhythm,
    /// « Conseils autorisés »: players may ask the AI for a hint on their turn.
    pub hints: bool,
    /// Live games: seconds the seat to move may stay without an open connection before the
    /// others may hand it to a CPU (and, in a 2-player game, claim the win after three times
    /// as long: crate::room, "Away players").
    #[serde(default = "default_away_after")]
    pub away_after: u64,
    /// « Pendule » (crate::clock): none, Fischer or per move. Live games only.
    #[serde(default)]
    pub clock: ClockSettings,
    /// Chinese checkers with 3 or more players and a clock: what becomes of a seat whose flag
    /// fell.
    #[serde(default)]
    pub on_flag: OnFlag,
    /// « Partie publique »: the room is listed on « Jouer en ligne » (open tables while seats
    /// are free, games to watch once started); private rooms (the default) are listed nowhere.
    #[serde(default)]
    pub public: bool,
}

fn default_away_after() -> u64 {
    DEFAULT_AWAY_AFTER
}

/// The rhythm of a room (docs/protocol.md `Settings.rhythm`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rhythm {
    /// Everyone present.
    #[default]
    Live,
    /// Play when you want; told when it is your turn.
    Turn,
}

impl Rhythm {
    /// The protocol name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Live => "live",
            Self::Turn => "turn",
        }
    }
}

/// Longest CPU think time a room may ask for.
pub const MAX_CPU_MS: u64 = 30_000;

/// Shortest and longest `away_after` (seconds), and its default.
pub const MIN_AWAY_AFTER: u64 = 5;
/// See [`MIN_AWAY_AFTER`].
pub const MAX_AWAY_AFTER: u64 = 3600;
/// See [`MIN_AWAY_AFTER`].
pub const DEFAULT_AWAY_AFTER: u64 = 60;

/// What one settings field accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Accepts {
    /// `true` or `false`.
    Bool,
    /// An integer in `min..=max`.
    Int {
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// One of these integers.
    Ints(&'static [i64]),
    /// One of these words.
    Words(&'static [&'static str]),
    /// A clock setting (`crate::clock::ClockSettings`).
    Clock,
}

/// One field of the settings and what it accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// Its name in the JSON object.
    pub name: &'static str,
    /// What it accepts.
    pub accepts: Accepts,
}

const fn field(name: &'static str, accepts: Accepts) -> Field {
    Field { name, accepts }
}

/// The fields of every room, beside `rules`.
pub const COMMON: &[Field] = &[
    field("show_legal_moves", Accepts::Bool),
    field("rotate_first", Accepts::Bool),
    field("random_first", Accepts::Bool),
    field("confirm_move", Accepts::Bool),
    field(
        "cpu_ms",
        Accepts::Int {
            min: 0,
            max: MAX_CPU_MS as i64,
        },
    ),
    field("rhythm", Accepts::Words(&["live", "turn"])),
    field("hints", Accepts::Bool),
    field(
        "away_after",
        Accepts::Int {
            min: MIN_AWAY_AFTER as i64,
            max: MAX_AWAY_AFTER as i64,
        },
    ),
    field("clock", Accepts::Clock),
    field("on_flag", Accepts::Words(&["cpu", "last"])),
    field("public", Accepts::Bool),
];

/// The fields of Chinese checkers' `rules` (the serde form of `chinese_checkers::Rules`; a test
/// checks that this table lists exactly the engine's fields). The ranges of `move_limit` and
/// `stagnation_rounds` are the platform's (0 means none): beyond them a game would never end in
/// practice.
pub const CC_RULES: &[Field] = &[
    field("players", Accepts::Int { min: 2, max: 6 }),
    field("sets", Accepts::Int { min: 1, max: 3 }),
    field("pieces", Accepts::Ints(&[10, 15])),
    field("rule_set", Accepts::Words(&["international", "japanese"])),
    field("unused_camps", Accepts::Words(&["empty", "filled"])),
    field("anti_blocking", Accepts::Bool),
    field("play_to_the_end", Accepts::Bool),
    field("move_limit", Accepts::Int { min: 0, max: 1000 }),
    field("stagnation_rounds", Accepts::Int { min: 0, max: 500 }),
    field("allow_five_players", Accepts::Bool),
    field("rotate_first_player", Accepts::Bool),
    field("random_first_player", Accepts::Bool),
    field("no_resting_in_foreign_camps", Accepts::Bool),
    field("forced_exit", Accepts::Bool),
    field("no_leaving_destination", Accepts::Bool),
    field("swap_rule", Accepts::Bool),
    field("long_jumps", Accepts::Bool),
];

/// The fields of draughts' `rules`.
pub const DRAUGHTS_RULES: &[Field] = &[
    field(
        "variant",
        Accepts::Words(&["international", "brazilian", "canadian"]),
    ),
    field("three_vs_king_moves", Accepts::Ints(&[16, 10])),
];

/// The rules fields of `kind`.
pub fn rules_fields(kind: GameKind) -> &'static [Field] {
    match kind {
        GameKind::Cc => CC_RULES,
        GameKind::Draughts => DRAUGHTS_RULES,
    }
}

impl Accepts {
    /// Whether `value` is acceptable, else the detail of the refusal of field `path`.
    fn check(self, path: &str, value: &Value) -> Result<(), Detail> {
        let wrong_type = |expected: &str| {
            Detail::field(path, "wrong_type", format!("{path} must be {expected}"))
                .with("expected", expected)
        };
        match self {
            Self::Bool => value
                .as_bool()
                .map(drop)
                .ok_or_else(|| wrong_type("boolean")),
            Self::Int { min, max } => {
                let n = value.as_i64().ok_or_else(|| wrong_type("integer"))?;
                if (min..=max).contains(&n) {
                    Ok(())
                } else {
                    let mut detail = out_of_range(path, min, max);
                    detail.message = format!("{}, not {n}", detail.message);
                    Err(detail)
                }
            }
            Self::Ints(allowed) => {
                let n = value.as_i64().ok_or_else(|| wrong_type("integer"))?;
                one_of(path, allowed.contains(&n), json!(allowed))
            }
            Self::Words(allowed) => {
                let w = value.as_str().ok_or_else(|| wrong_type("string"))?;
                one_of(path, allowed.contains(&w), json!(allowed))
            }
            Self::Clock => ClockSettings::parse(path, value).map(drop),
        }
    }

    /// The protocol's description (`GET /api/settings`).
    fn to_json(self) -> Value {
        match self {
            Self::Bool => json!({"type": "bool"}),
            Self::Int { min, max } => json!({"type": "int", "min": min, "max": max}),
            Self::Ints(allowed) => json!({"type": "one_of", "allowed": allowed}),
            Self::Words(allowed) => json!({"type": "one_of", "allowed": allowed}),
            Self::Clock => ClockSettings::schema(),
        }
    }
}

/// `path` must be between `min` and `max`.
pub fn out_of_range(path: &str, min: i64, max: i64) -> Detail {
    Detail::field(
        path,
        "out_of_range",
        format!("{path} must be between {min} and {max}"),
    )
    .with("min", min)
    .with("max", max)
}

fn one_of(path: &str, ok: bool, allowed: Value) -> Result<(), Detail> {
    if ok {
        return Ok(());
    }
    Err(Detail::field(
        path,
        "not_allowed",
        format!("{path} must be one of {allowed}"),
    )
    .with("allowed", allowed))
}

/// Checks every field of the object `value` (at `prefix`) against `fields`; `null` values mean
/// "unchanged" and pass.
fn check_object(prefix: &str, value: &Value, fields: &[Field]) -> Result<(), Detail> {
    let path = |name: &str| {
        if prefix.is_empty() {
            name.to_owned()
        } else {
            format!("{prefix}.{name}")
        }
    };
    let Some(obj) = value.as_object() else {
        let what = if prefix.is_empty() {
            "settings"
        } else {
            prefix
        };
        return Err(
            Detail::field(what, "wrong_type", format!("{what} must be an object"))
                .with("expected", "object"),
        );
    };
    for (name, v) in obj {
        if v.is_null() || (prefix.is_empty() && name == "rules") {
            continue;
        }
        let spec = fields.iter().find(|f| f.name == name).ok_or_else(|| {
            Detail::field(path(name), "unknown_field", format!("no setting {name:?}"))
        })?;
        spec.accepts.check(&path(name), v)?;
    }
    Ok(())
}

/// `Settings` as received: every field optional.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SettingsInput {
    /// Replaces the rules (missing fields take the engine's defaults).
    pub rules: Option<Value>,
    pub show_legal_moves: Option<bool>,
    pub rotate_first: Option<bool>,
    pub random_first: Option<bool>,
    pub confirm_move: Option<bool>,
    pub cpu_ms: Option<u64>,
    pub rhythm: Option<Rhythm>,
    pub hints: Option<bool>,
    pub away_after: Option<u64>,
    pub clock: Option<ClockSettings>,
    pub on_flag: Option<OnFlag>,
    pub public: Option<bool>,
}

impl SettingsInput {
    /// A client's settings for a room of `kind`, each field checked against the table.
    ///
    /// # Errors
    /// `invalid_settings` naming the first field refused and why.
    pub fn parse(kind: GameKind, value: &Value) -> Result<Self, Error> {
        if value.is_null() {
            return Ok(Self::default());
        }
        check_object("", value, COMMON).map_err(Error::InvalidSettings)?;
        if let Some(rules) = value.get("rules").filter(|r| !r.is_null()) {
            check_object("rules", rules, rules_fields(kind)).map_err(Error::InvalidSettings)?;
        }
        serde_json::from_value(value.clone()).map_err(|e| Error::BadJson(e.to_string()))
    }
}

impl Settings {
    /// The defaults of RULES.md for `kind`, changed by `input`.
    ///
    /// # Errors
    /// `invalid_settings` naming the field refused.
    pub fn new(kind: GameKind, input: &SettingsInput) -> Result<(Self, usize), Error> {
        let defaults = Self {
            rules: GameRules::default_for(kind),
            show_legal_moves: true,
            rotate_first: true,
            random_first: false,
            confirm_move: false,
            cpu_ms: 1000,
            rhythm: Rhythm::Live,
            hints: true,
            away_after: DEFAULT_AWAY_AFTER,
            clock: ClockSettings::None,
            on_flag: OnFlag::Cpu,
            public: false,
        };
        defaults.with(kind, input)
    }

    /// These settings changed by `input`, and the number of seats of the new rules.
    ///
    /// # Errors
    /// `invalid_settings` naming the field refused (the rules that cannot be played together).
    pub fn with(&self, kind: GameKind, input: &SettingsInput) -> Result<(Self, usize), Error> {
        let mut s = self.clone();
        s.show_legal_moves = input.show_legal_moves.unwrap_or(s.show_legal_moves);
        s.rotate_first = input.rotate_first.unwrap_or(s.rotate_first);
        s.random_first = input.random_first.unwrap_or(s.random_first);
        s.hints = input.hints.unwrap_or(s.hints);
        s.public = input.public.unwrap_or(s.public);
        if let Some(rhythm) = input.rhythm {
            // « Confirmer le coup » is on by default for turn-by-turn games.
            if rhythm != s.rhythm && input.confirm_move.is_none() {
                s.confirm_move = rhythm == Rhythm::Turn;
            }
            s.rhythm = rhythm;
        }
        s.confirm_move = input.confirm_move.unwrap_or(s.confirm_move);
        s.with_clock(input)?;
        s.away_after = input.away_after.unwrap_or(s.away_after);
        if !(MIN_AWAY_AFTER..=MAX_AWAY_AFTER).contains(&s.away_after) {
            let detail = out_of_range("away_after", MIN_AWAY_AFTER as i64, MAX_AWAY_AFTER as i64);
            return Err(Error::InvalidSettings(detail));
        }
        s.cpu_ms = input.cpu_ms.unwrap_or(s.cpu_ms);
        if s.cpu_ms > MAX_CPU_MS {
            let detail = out_of_range("cpu_ms", 0, MAX_CPU_MS as i64);
            return Err(Error::InvalidSettings(detail));
        }
        if let Some(rules) = &input.rules {
            s.rules = GameRules::parse(kind, rules)
                .map_err(|e| Error::InvalidSettings(rules_detail(e)))?;
        }
        if let GameRules::Cc(rules) = &mut s.rules {
            // The engine's rules carry the first-player options too: the room-level flags and
            // the rules' fields are kept equal (the rules' fields win when both are given).
            let given = input.rules.as_ref().and_then(Value::as_object);
            let has = |key: &str| given.is_some_and(|g| g.contains_key(key));
            if has("rotate_first_player") {
                s.rotate_first = rules.rotate_first_player;
            }
            if has("random_first_player") {
                s.random_first = rules.random_first_player;
            }
            rules.rotate_first_player = s.rotate_first;
            rules.random_first_player = s.random_first;
        }
        let seats = s.rules.seats();
        Ok((s, seats))
    }

    /// Takes the clock of `input` (checked again: a Rust caller may build one by hand). A clock
    /// is for live games: going turn by turn drops it unless `input` sets one too, which is
    /// refused.
    fn with_clock(&mut self, input: &SettingsInput) -> Result<(), Error> {
        if let Some(clock) = input.clock {
            ClockSettings::parse("clock", &serde_json::to_value(clock).unwrap_or(Value::Null))
                .map_err(Error::InvalidSettings)?;
            self.clock = clock;
        } else if input.rhythm == Some(Rhythm::Turn) {
            self.clock = ClockSettings::None;
        }
        self.on_flag = input.on_flag.unwrap_or(self.on_flag);
        if self.rhythm == Rhythm::Turn && !self.clock.is_none() {
            return Err(Error::InvalidSettings(
                Detail::field(
                    "clock",
                    "conflict",
                    "a clock is for live games, not turn by turn",
                )
                .with("with", "rhythm"),
            ));
        }
        Ok(())
    }

    /// The protocol's JSON (what is stored).
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// Reads back [`Settings::to_json`] (stored rooms: not checked against today's table, so
    /// that a room stored under older limits still loads).
    pub fn from_json(kind: GameKind, value: &Value) -> Result<(Self, usize), String> {
        let input: SettingsInput =
            serde_json::from_value(value.clone()).map_err(|e| e.to_string())?;
        Self::new(kind, &input).map_err(|e| e.to_string())
    }
}

/// The field and reason of rules the engine refuses (docs/protocol.md, "Errors"); the table's
/// checks come first, so these are the rules that cannot be played together.
fn rules_detail(err: RulesError) -> Detail {
    use chinese_checkers::RulesError as Cc;
    let message = err.to_string();
    let err = match err {
        RulesError::Cc(e) => e,
        RulesError::Draughts(::draughts::RulesError::ThreeVsKingMoves(_)) => {
            return Detail::field("rules.three_vs_king_moves", "not_allowed", message)
                .with("allowed", json!([16, 10]))
        }
        RulesError::Json(_) => return Detail::field("rules", "other", message),
        RulesError::Start(_) => return Detail::field("start", "other", message),
    };
    match err {
        Cc::PlayerCount(_) => out_of_range("rules.players", 2, 6),
        Cc::FivePlayersForbidden => Detail::field("rules.players", "five_forbidden", message),
        Cc::TooManySets { players, .. } => {
            let max = match players {
                2 => 3,
                3 => 2,
                _ => 1,
            };
            Detail::field("rules.sets", "too_many_sets", message)
                .with("max", max)
                .with("players", players)
        }
        Cc::PieceCount(_) => {
            Detail::field("rules.pieces", "not_allowed", message).with("allowed", json!([10, 15]))
        }
        Cc::FifteenPiecesNeedTwoOrThreePlayers => {
            Detail::field("rules.pieces", "fifteen_pieces", message)
        }
        Cc::JapaneseNeedsTwoOrThreePlayers => {
            Detail::field("rules.rule_set", "japanese_players", message).with("max", 3)
        }
        Cc::JapaneseNeedsFifteenPieces => Detail::field("rules.pieces", "japanese_pieces", message),
        Cc::SwapRuleWithAntiBlocking => Detail::field("rules.swap_rule", "conflict", message)
            .with("with", "rules.anti_blocking"),
        Cc::NoSuchSeat(_) => Detail::from(message),
    }
}

/// The settings table as `GET /api/settings` serves it: for each game its default settings and
/// what each field accepts (by dotted path), the name length and the CPU levels.
pub fn schema_json() -> Value {
    let mut games = Map::new();
    for kind in [GameKind::Cc, GameKind::Draughts] {
        let mut fields = Map::new();
        for f in COMMON {
            fields.insert(f.name.into(), f.accepts.to_json());
        }
        for f in rules_fields(kind) {
            fields.insert(format!("rules.{}", f.name), f.accepts.to_json());
        }
        let defaults = Settings::new(kind, &SettingsInput::default())
            .map(|(s, _)| s.to_json())
            .unwrap_or(Value::Null);
        games.insert(
            kind.as_str().into(),
            json!({"defaults": defaults, "fields": fields}),
        );
    }
    json!({
        "games": games,
        "name": {"min": 1, "max": NAME_MAX_CHARS},
        "levels": Level::ALL.map(Level::name),
    })
}

/// The CPU level named `name`, for the request field `field`.
///
/// # Errors
/// `invalid_settings` with the allowed names.
pub fn level(field: &str, name: &str) -> Result<Level, Error> {
    Level::from_name(name).ok_or_else(|| {
        Error::InvalidSettings(
            Detail::field(field, "not_allowed", format!("unknown CPU level {name:?}"))
                .with("allowed", json!(Level::ALL.map(Level::name))),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(kind: GameKind, value: Value) -> Detail {
        match SettingsInput::parse(kind, &value)
            .and_then(|input| Settings::new(kind, &input).map(drop))
        {
            Err(Error::InvalidSettings(d)) => d,
            other => panic!("{value} was not refused as invalid settings: {other:?}"),
        }
    }

    #[test]
    fn the_table_lists_exactly_the_fields_of_each_engine() {
        for kind in [GameKind::Cc, GameKind::Draughts] {
            let defaults = serde_json::to_value(GameRules::default_for(kind)).unwrap();
            let mut engine: Vec<&str> = defaults
                .as_object()
                .unwrap()
                .keys()
                .map(String::as_str)
                .collect();
            let mut table: Vec<&str> = rules_fields(kind).iter().map(|f| f.name).collect();
            engine.sort_unstable();
            table.sort_unstable();
            assert_eq!(engine, table, "{kind:?}");
            // Every default is acceptable by the table.
            for f in rules_fields(kind) {
                f.accepts.check(f.name, &defaults[f.name]).unwrap();
            }
        }
        let top = Settings::new(GameKind::Cc, &SettingsInput::default())
            .unwrap()
            .0
            .to_json();
        let mut keys: Vec<&str> = top
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut table: Vec<&str> = COMMON.iter().map(|f| f.name).chain(["rules"]).collect();
        keys.sort_unstable();
        table.sort_unstable();
        assert_eq!(keys, table);
    }

    #[test]
    fn a_number_out_of_its_range_names_the_field_and_the_range() {
        let d = refused(GameKind::Cc, json!({"rules": {"move_limit": -5}}));
        assert_eq!(
            (d.field.as_deref(), d.reason),
            (Some("rules.move_limit"), "out_of_range")
        );
        assert_eq!(
            (d.params["min"].clone(), d.params["max"].clone()),
            (json!(0), json!(1000))
        );
        let d = refused(GameKind::Cc, json!({"rules": {"move_limit": 1001}}));
        assert_eq!(d.reason, "out_of_range");
        let d = refused(GameKind::Draughts, json!({"cpu_ms": 30_001}));
        assert_eq!(
            (d.field.as_deref(), d.params["max"].clone()),
            (Some("cpu_ms"), json!(30_000))
        );
        for ok in [0, 1000] {
            let input = SettingsInput::parse(GameKind::Cc, &json!({"rules": {"move_limit": ok}}));
            assert!(Settings::new(GameKind::Cc, &input.unwrap()).is_ok());
        }
    }

    #[test]
    fn wrong_types_unknown_fields_and_values_name_the_field() {
        let d = refused(GameKind::Cc, json!({"show_legal_moves": "yes"}));
        assert_eq!(
            (d.field.as_deref(), d.reason, d.params["expected"].clone()),
            (Some("show_legal_moves"), "wrong_type", json!("boolean"))
        );
        let d = refused(GameKind::Cc, json!({"rules": {"colour": "red"}}));
        assert_eq!(
            (d.field.as_deref(), d.reason),
            (Some("rules.colour"), "unknown_field")
        );
        let d = refused(GameKind::Cc, json!({"volume": 3}));
        assert_eq!(
            (d.field.as_deref(), d.reason),
            (Some("volume"), "unknown_field")
        );
        let d = refused(GameKind::Draughts, json!({"rules": {"variant": "russian"}}));
        assert_eq!(
            (d.field.as_deref(), d.reason, d.params["allowed"][0].clone()),
            (Some("rules.variant"), "not_allowed", json!("international"))
        );
        let d = refused(
            GameKind::Draughts,
            json!({"rules": {"three_vs_king_moves": 12}}),
        );
        assert_eq!(d.params["allowed"], json!([16, 10]));
        let d = refused(GameKind::Cc, json!({"rules": 3}));
        assert_eq!(
            (d.field.as_deref(), d.reason),
            (Some("rules"), "wrong_type")
        );
    }

    #[test]
    fn rules_that_cannot_be_played_together_name_the_field_and_its_partner() {
        let d = refused(GameKind::Cc, json!({"rules": {"swap_rule": true}}));
        assert_eq!(
            (d.field.as_deref(), d.reason, d.params["with"].clone()),
            (
                Some("rules.swap_rule"),
                "conflict",
                json!("rules.anti_blocking")
            )
        );
        let d = refused(
            GameKind::Cc,
            json!({"rules": {"players": 4, "rule_set": "japanese", "pieces": 15}}),
        );
        assert_eq!(
            (d.field.as_deref(), d.reason),
            (Some("rules.rule_set"), "japanese_players")
        );
        let d = refused(GameKind::Cc, json!({"rules": {"players": 3, "sets": 3}}));
        assert_eq!(
            (d.field.as_deref(), d.reason, d.params["max"].clone()),
            (Some("rules.sets"), "too_many_sets", json!(2))
        );
        let d = refused(
            GameKind::Cc,
            json!({"rules": {"players": 5, "allow_five_players": false}}),
        );
        assert_eq!(
            (d.field.as_deref(), d.reason),
            (Some("rules.players"), "five_forbidden")
        );
        let d = refused(GameKind::Cc, json!({"rules": {"players": 4, "pieces": 15}}));
        assert_eq!(
            (d.field.as_deref(), d.reason),
            (Some("rules.pieces"), "fifteen_pieces")
        );
    }

    #[test]
    fn nulls_leave_fields_unchanged_and_the_schema_has_the_defaults() {
        let input = SettingsInput::parse(GameKind::Cc, &json!({"rules": null, "cpu_ms": null}));
        assert!(input.is_ok());
        let schema = schema_json();
        assert_eq!(
            schema["games"]["cc"]["defaults"]["rules"]["move_limit"],
            200
        );
        assert_eq!(
            schema["games"]["cc"]["fields"]["rules.move_limit"],
            json!({"type": "int", "min": 0, "max": 1000})
        );
        assert_eq!(
            schema["games"]["draughts"]["fields"]["cpu_ms"]["max"],
            30_000
        );
        assert_eq!(schema["name"]["max"], 24);
        assert_eq!(schema["levels"][3], "expert");
    }
}
