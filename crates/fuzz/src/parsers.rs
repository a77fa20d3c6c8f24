//! The fuzz targets that call the parsers directly, many inputs a second: move inputs of both
//! games played on live positions, settings and rules (then a game started and played under
//! them), names and texts, request headers (origin, client address behind proxies, cookies,
//! tokens, content type), push endpoints, the engines' text formats (draughts FEN and PDN,
//! Chinese checkers position files) and the server's draughts position import. Each calls the same function the server calls, and some
//! check a property of what they accept (a name or a FEN read back the same).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use axum::http::{HeaderMap, HeaderName, HeaderValue};
use serde_json::{json, Value};

use crate::mutate::{mutate_bytes, mutate_string, mutate_text, mutated_json, Rng};
use crate::target::Target;
use dames_room::game::{GameKind, GameRules, GameState};
use dames_room::protocol::LegalMove;
use dames_room::room::{Settings, SettingsInput};

/// A game advanced by random moves, with its legal moves.
struct Live {
    kind: GameKind,
    rules: GameRules,
    state: GameState,
    legal: Vec<LegalMove>,
}

impl Live {
    fn new(rules: GameRules, first: usize) -> Self {
        let state = GameState::new(&rules, first.min(rules.seats() - 1), None)
            .expect("the first seat is a seat of the rules");
        let legal = state.legal_moves();
        Self {
            kind: rules.kind(),
            rules,
            state,
            legal,
        }
    }

    /// Plays a random legal move, or starts again when the game is over or long.
    fn advance(&mut self, rng: &mut Rng) {
        let long = match &self.state {
            GameState::Draughts(g) => g.game().ply() > 300,
            GameState::Cc(_) => rng.one_in(400),
        };
        if self.legal.is_empty() || long {
            *self = Self::new(self.rules, rng.below(self.rules.seats()));
            return;
        }
        let mv = rng.pick(&self.legal).to_input();
        self.state
            .play(&mv)
            .expect("a listed legal move is accepted");
        self.legal = self.state.legal_moves();
    }
}

fn rules(kind: GameKind, value: Value) -> GameRules {
    GameRules::parse(kind, &value).expect("valid fuzz rules")
}

/// The positions the move inputs are played on: Chinese checkers for 2 to 6 players with most
/// options of RULES.md 1.5 and 1.6, draughts on the three boards.
fn live_games(rng: &mut Rng) -> Vec<Live> {
    [
        rules(GameKind::Cc, json!({"players": 2})),
        rules(
            GameKind::Cc,
            json!({"players": 2, "sets": 3, "long_jumps": true}),
        ),
        rules(
            GameKind::Cc,
            json!({"players": 3, "rule_set": "japanese", "pieces": 15}),
        ),
        rules(
            GameKind::Cc,
            json!({"players": 4, "unused_camps": "filled", "swap_rule": true,
                   "anti_blocking": false}),
        ),
        rules(
            GameKind::Cc,
            json!({"players": 6, "forced_exit": true, "no_leaving_destination": true,
                   "no_resting_in_foreign_camps": true}),
        ),
        rules(GameKind::Draughts, json!({"variant": "international"})),
        rules(GameKind::Draughts, json!({"variant": "brazilian"})),
        rules(GameKind::Draughts, json!({"variant": "canadian"})),
    ]
    .into_iter()
    .map(|r| Live::new(r, rng.below(6)))
    .collect()
}

/// Move inputs (`MoveInput` of HTTP `move` and WebSocket `move` messages): a legal move of a
/// live position in one of the forms clients send (the listed `LegalMove`, `{"notation"}`,
/// `{"from","to"}`), mutated, decoded as the server decodes the body, read by
/// [`GameKind::parse_move`] (sometimes of the other game), and played by [`GameState::play`].
/// An accepted input may become the new position, so play goes deep.
pub struct Moves {
    games: Vec<Live>,
    last: Vec<u8>,
}

impl Moves {
    pub(crate) fn new(rng: &mut Rng) -> Self {
        Self {
            games: live_games(rng),
            last: Vec::new(),
        }
    }
}

impl Target for Moves {
    fn name(&self) -> &'static str {
        "move input"
    }

    fn one(&mut self, rng: &mut Rng) {
        let g = rng.below(self.games.len());
        let live = &mut self.games[g];
        let template = match live.legal.is_empty() {
            true => json!({"notation": "32-28"}),
            false => {
                let mv = rng.pick(&live.legal);
                let full = serde_json::to_value(mv).unwrap_or_default();
                match (rng.below(3), mv) {
                    (0, _) => full,
                    (_, LegalMove::Draughts(d)) => json!({"notation": d.notation}),
                    (_, LegalMove::Cc(c)) => json!({"from": c.from, "to": c.to}),
                }
            }
        };
        self.last = mutated_json(rng, &template, 3);
        if let Ok(value) = serde_json::from_slice::<Value>(&self.last) {
            let kind = match rng.one_in(12) {
                true if live.kind == GameKind::Cc => GameKind::Draughts,
                true => GameKind::Cc,
                false => live.kind,
            };
            if let Ok(input) = kind.parse_move(&value) {
                let mut state = live.state.clone();
                if state.play(&input).is_ok() && rng.one_in(4) {
                    live.legal = state.legal_moves();
                    live.state = state;
                }
            }
        }
        if rng.one_in(8) {
            live.advance(rng);
        }
    }

    fn last_input(&self) -> String {
        String::from_utf8_lossy(&self.last).into_owned()
    }
}

/// Settings and rules (room creation and `settings`): valid settings of both games mutated,
/// decoded into [`SettingsInput`], applied by [`Settings::new`] and [`Settings::with`]; settings
/// accepted must read back from their stored JSON ([`Settings::from_json`], how rooms are
/// restored), and a game is started under them (any first seat) and played a few moves.
pub struct Rules {
    templates: Vec<(GameKind, Value)>,
    last: Vec<u8>,
}

impl Rules {
    pub(crate) fn new() -> Self {
        let mut templates = Vec::new();
        for kind in [GameKind::Cc, GameKind::Draughts] {
            let full = serde_json::to_value(GameRules::default_for(kind)).unwrap_or_default();
            templates.push((kind, json!({"rules": full})));
        }
        for rules in [
            json!({"players": 2, "sets": 2}),
            json!({"players": 3, "rule_set": "japanese", "pieces": 15}),
            json!({"players": 3, "sets": 2, "play_to_the_end": false, "move_limit": 0}),
            json!({"players": 4, "unused_camps": "filled", "stagnation_rounds": 1}),
            json!({"players": 5, "allow_five_players": true, "rotate_first_player": false}),
            json!({"players": 6, "long_jumps": true, "swap_rule": true, "anti_blocking": false,
                   "forced_exit": true}),
        ] {
            templates.push((
                GameKind::Cc,
                json!({"rules": rules, "show_legal_moves": false, "rotate_first": false,
                       "random_first": true, "cpu_ms": 200, "rhythm": "turn", "hints": false}),
            ));
        }
        for variant in ["international", "brazilian", "canadian"] {
            templates.push((
                GameKind::Draughts,
                json!({"rules": {"variant": variant, "three_vs_king_moves": 10},
                       "confirm_move": true, "cpu_ms": 0, "rhythm": "live"}),
            ));
        }
        templates.push((GameKind::Cc, json!({})));
        Self {
            templates,
            last: Vec::new(),
        }
    }
}

impl Target for Rules {
    fn name(&self) -> &'static str {
        "settings and rules"
    }

    fn one(&mut self, rng: &mut Rng) {
        let (kind, template) = rng.pick(&self.templates).clone();
        self.last = mutated_json(rng, &template, 4);
        let Ok(input) = serde_json::from_slice::<SettingsInput>(&self.last) else {
            return;
        };
        let base = Settings::new(kind, &SettingsInput::default()).expect("default settings");
        let _ = base.0.with(kind, &input);
        let Ok((settings, seats)) = Settings::new(kind, &input) else {
            return;
        };
        let (back, back_seats) = Settings::from_json(kind, &settings.to_json())
            .expect("accepted settings read back from their stored form");
        assert_eq!((&back, back_seats), (&settings, seats), "settings stored");
        if let Ok(mut game) = GameState::new(&settings.rules, rng.below(seats + 1), None) {
            for _ in 0..rng.below(4) {
                let legal = game.legal_moves();
                if legal.is_empty() {
                    break;
                }
                game.play(&rng.pick(&legal).to_input())
                    .expect("a listed legal move is accepted");
            }
        }
    }

    fn last_input(&self) -> String {
        String::from_utf8_lossy(&self.last).into_owned()
    }
}

/// Player names and free texts ([`dames_room::names::name`], [`dames_room::names::text`]): real names of
/// several scripts mutated with invisible, bidi, combining and control characters. An accepted
/// name must be accepted again unchanged (its stored form is final).
pub struct Names {
    last: String,
}

const NAMES: &[&str] = &[
    "Ana",
    "Ren\u{e9}",
    "Rene\u{301}",
    "Zo\u{eb} Ana",
    "\u{674e}\u{5c0f}\u{9f99}",
    "\u{1f469}\u{200d}\u{1f4bb} Dev",
    "\u{645}\u{6cc}\u{200c}\u{62e}\u{648}\u{627}\u{647}\u{645}",
    "\u{915}\u{94d}\u{937}",
    "O'Brien-Smith",
    "A",
    "Joueur 2",
];

impl Target for Names {
    fn name(&self) -> &'static str {
        "names and texts"
    }

    fn one(&mut self, rng: &mut Rng) {
        let mut text = (*rng.pick(NAMES)).to_owned();
        for _ in 0..1 + rng.below(3) {
            text = mutate_string(rng, &text);
        }
        if let Ok(name) = dames_room::names::name(&text) {
            assert_eq!(
                dames_room::names::name(&name).as_deref(),
                Ok(name.as_str()),
                "a stored name is accepted as it is"
            );
        }
        if let Ok(text) = dames_room::names::text(&text) {
            assert_eq!(
                dames_room::names::text(&text).as_deref(),
                Ok(text.as_str()),
                "a stored text is accepted as it is"
            );
        }
        let _ = dames_room::room::valid_name(&text);
        self.last = text;
    }

    fn last_input(&self) -> String {
        format!("{:?}", self.last)
    }
}

impl Names {
    pub(crate) fn new() -> Self {
        Self {
            last: String::new(),
        }
    }
}

/// What request headers look like, mutated.
const HEADERS: &[(&str, &[&str])] = &[
    (
        "origin",
        &[
            "http://127.0.0.1:8080",
            "https://dames.example",
            "http://[::1]:8080",
            "null",
            "https://a.dames.example",
            "http://dames.example:80",
        ],
    ),
    (
        "host",
        &[
            "127.0.0.1:8080",
            "dames.example",
            "[::1]:8080",
            "DAMES.example:443",
        ],
    ),
    (
        "sec-fetch-site",
        &["same-origin", "none", "same-site", "cross-site"],
    ),
    (
        "x-forwarded-for",
        &[
            "203.0.113.5",
            "203.0.113.5, 10.0.0.1",
            "2001:db8::1, 127.0.0.1",
            "unknown, 198.51.100.7",
        ],
    ),
    (
        "forwarded",
        &[
            "for=192.0.2.60;proto=http;by=203.0.113.43",
            "for=\"[2001:db8:cafe::17]:4711\"",
            "for=192.0.2.43, for=198.51.100.17",
            "for=_hidden, for=\"_secret\"",
        ],
    ),
    (
        "cookie",
        &[
            "dames_client=0123456789abcdef0123456789abcdef",
            "dames_seat_K7M2QX=0123456789abcdef0123456789abcdef; dames_client=x",
            "a=b; dames_seat_K7M2QX=; c",
        ],
    ),
    (
        "authorization",
        &[
            "Bearer 0123456789abcdef0123456789abcdef",
            "Basic YTpi",
            "Bearer ",
        ],
    ),
    (
        "content-type",
        &[
            "application/json",
            "application/json; charset=utf-8",
            "text/plain",
            "APPLICATION/JSON",
            "multipart/form-data; boundary=x",
        ],
    ),
];

/// Push endpoints as browsers send them, and addresses in disguise.
const ENDPOINTS: &[&str] = &[
    "https://fcm.googleapis.com/fcm/send/abc:def",
    "https://updates.push.services.mozilla.com/wpush/v2/gAAAA",
    "https://web.push.apple.com/QGuQyav",
    "https://push.example.com:8443/x?y=z#w",
    "https://[::ffff:127.0.0.1]:9/x",
    "https://[64:ff9b::a9fe:a9fe]/x",
    "https://0x7f000001/x",
    "https://127.1/x",
    "https://localhost./x",
    "https://user:pass@push.example.com/x",
    "http://127.0.0.1:9/x",
    "https://xn--nxasmq6b.example/x",
];

/// Request headers and URLs (every request): the cross-site check ([`dames_server::net::origin`]),
/// the client's address behind proxies ([`dames_server::net::client_ip`]), cookies, seat tokens and
/// room codes ([`dames_server::http::Caller`], [`dames_room::token`]), the JSON content type, and push
/// endpoints ([`dames_server::push::check_endpoint`], no DNS involved).
pub struct Headers {
    trusted: Vec<dames_server::net::client_ip::Cidr>,
    push: [dames_server::config::Push; 2],
    last: String,
}

impl Headers {
    pub(crate) fn new() -> Self {
        let known = dames_server::config::Push {
            allowed_hosts: vec!["known".into(), "push.example.com".into()],
            ..dames_server::config::Push::default()
        };
        Self {
            trusted: ["127.0.0.1", "10.0.0.0/8", "2001:db8::/32"]
                .iter()
                .filter_map(|c| c.parse().ok())
                .collect(),
            push: [dames_server::config::Push::default(), known],
            last: String::new(),
        }
    }
}

fn header_value(rng: &mut Rng, examples: &[&str]) -> Option<HeaderValue> {
    let text = *rng.pick(examples);
    if rng.one_in(4) {
        return HeaderValue::from_str(text).ok();
    }
    if rng.one_in(3) {
        let mut bytes = text.as_bytes().to_vec();
        mutate_bytes(rng, &mut bytes);
        return HeaderValue::from_bytes(&bytes).ok();
    }
    HeaderValue::from_str(&mutate_string(rng, text)).ok()
}

impl Target for Headers {
    fn name(&self) -> &'static str {
        "headers, codes, endpoints"
    }

    fn one(&mut self, rng: &mut Rng) {
        let mut headers = HeaderMap::new();
        for (name, examples) in HEADERS {
            if rng.one_in(2) {
                if let Some(value) = header_value(rng, examples) {
                    headers.append(HeaderName::from_static(name), value);
                }
            }
        }
        let peer = match rng.below(4) {
            0 => IpAddr::V4(Ipv4Addr::LOCALHOST),
            1 => IpAddr::V4(Ipv4Addr::new(10, 1, 2, 3)),
            2 => IpAddr::V6(Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 1)),
            _ => IpAddr::V6(Ipv4Addr::new(127, 0, 0, 1).to_ipv6_mapped()),
        };
        let public_url = *rng.pick(&[None, Some("https://dames.example"), Some("http://x")]);
        let _ = dames_server::net::origin::check(public_url, &headers);
        let ip = dames_server::net::client_ip::resolve(peer, &headers, &self.trusted);
        let _ = dames_server::net::client_ip::limit_key(ip);
        let _ = dames_server::http::is_json(&headers);
        let code = mutate_string(rng, "K7M2QX");
        if let Some(code) = dames_room::token::normalize_code(&code) {
            let caller = dames_server::http::Caller::new(ip, String::new(), headers.clone());
            let _ = caller.seat_token(&code);
        }
        let mut endpoint = (*rng.pick(ENDPOINTS)).to_owned();
        for _ in 0..rng.below(3) {
            endpoint = mutate_string(rng, &endpoint);
        }
        for push in &self.push {
            let _ = dames_server::push::check_endpoint(&endpoint, push);
        }
        let _ = dames_server::push::ssrf::host_of(&endpoint);
        self.last = format!("{headers:?} {endpoint:?} {code:?}");
    }

    fn last_input(&self) -> String {
        self.last.clone()
    }
}

/// Draughts FEN: positions of random games on the three boards, mutated, read by
/// [`draughts::Game::from_fen`] on every board; an accepted position gives its legal moves and
/// its FEN, which must read back.
pub struct Fen {
    games: Vec<draughts::Game>,
    last: String,
}

fn draughts_games() -> Vec<draughts::Game> {
    [
        draughts::Variant::International,
        draughts::Variant::Brazilian,
        draughts::Variant::Canadian,
    ]
    .into_iter()
    .map(|v| draughts::Game::new(draughts::Rules::new(v)))
    .collect()
}

/// Plays a random move of `game`, or starts it again.
fn advance_draughts(rng: &mut Rng, game: &mut draughts::Game) {
    let legal = game.legal_moves();
    if legal.is_empty() || game.ply() > 250 {
        *game = draughts::Game::new(game.rules());
        return;
    }
    let notation = &rng.pick(&legal).notation;
    game.play_notation(notation)
        .expect("a listed legal move is accepted");
}

impl Fen {
    pub(crate) fn new() -> Self {
        Self {
            games: draughts_games(),
            last: String::new(),
        }
    }
}

impl Target for Fen {
    fn name(&self) -> &'static str {
        "draughts FEN"
    }

    fn one(&mut self, rng: &mut Rng) {
        let g = rng.below(self.games.len());
        let rounds = 1 + rng.below(3);
        let fen = mutate_text(rng, self.games[g].fen(), rounds, 4);
        for game in &self.games {
            if let Ok(parsed) = draughts::Game::from_fen(game.rules(), &fen) {
                let _ = parsed.legal_moves();
                let again = parsed.fen();
                let back = draughts::Game::from_fen(game.rules(), &again)
                    .expect("the FEN of an accepted position reads back");
                assert_eq!(back.fen(), again, "FEN round trip");
            }
        }
        if rng.one_in(2) {
            advance_draughts(rng, &mut self.games[g]);
        }
        self.last = fen;
    }

    fn last_input(&self) -> String {
        format!("{:?}", self.last)
    }
}

/// Draughts PDN: random games written with tags, mutated line by line and byte by byte, read
/// by [`draughts::read_pdn`] and replayed by [`draughts::Game::from_pdn`].
pub struct Pdn {
    games: Vec<draughts::Game>,
    last: String,
}

impl Pdn {
    pub(crate) fn new() -> Self {
        Self {
            games: draughts_games(),
            last: String::new(),
        }
    }
}

impl Target for Pdn {
    fn name(&self) -> &'static str {
        "draughts PDN"
    }

    fn one(&mut self, rng: &mut Rng) {
        let g = rng.below(self.games.len());
        let tags = [
            ("Event".to_owned(), "F\u{ea}te \"1\"".to_owned()),
            ("White".to_owned(), "Ana".to_owned()),
            ("Black".to_owned(), "Bo".to_owned()),
        ];
        let mut text = self.games[g].to_pdn(&tags);
        if rng.one_in(4) {
            text.push_str("{a comment} 1. 32-28 (1. 33-28 19-23) 18-23 $1 2. 38-32 ; rest\n 1-1\n");
        }
        let rounds = 1 + rng.below(3);
        text = mutate_text(rng, text, rounds, 3);
        if let Ok(games) = draughts::read_pdn(&text) {
            for pdn in games.iter().take(4) {
                if let Ok(game) = draughts::Game::from_pdn(pdn, self.games[g].rules()) {
                    let _ = game.to_pdn(&[]);
                }
            }
        }
        if rng.one_in(3) {
            advance_draughts(rng, &mut self.games[g]);
        }
        self.last = text;
    }

    fn last_input(&self) -> String {
        format!("{:?}", self.last)
    }
}

/// Draughts positions imported from PDN or FEN ([`dames_room::position::import`], as `POST
/// /api/draughts/position` and room creation with `start` call it): FENs and PDN games (with
/// `GameType` and `FEN` tags, comments, variations, results) of random games on the three boards,
/// mutated, read on a random board. A refusal must be a typed `invalid_position` with its
/// reason; an accepted position must serialize as the handler answers it, read back as a FEN to
/// the same position, and start a room's game on its board.
pub struct Position {
    games: Vec<draughts::Game>,
    last: (String, draughts::Variant),
    accepted: u64,
}

impl Position {
    pub(crate) fn new() -> Self {
        Self {
            games: draughts_games(),
            last: (String::new(), draughts::Variant::International),
            accepted: 0,
        }
    }

    /// A text a player could paste: the game's FEN, or its PDN with some of the tags and
    /// annotations the import reads or skips.
    fn text(&self, rng: &mut Rng, g: usize) -> String {
        let game = &self.games[g];
        match rng.below(4) {
            0 => game.fen(),
            1 => format!("\"{}\"", game.fen()),
            _ => {
                let tags = [("Event".to_owned(), "Tournoi".to_owned())];
                let mut text = game.to_pdn(&tags);
                if rng.one_in(2) {
                    // Without its GameType, the game is read on the board asked for.
                    text = text
                        .lines()
                        .filter(|l| !l.starts_with("[GameType"))
                        .collect::<Vec<_>>()
                        .join("\n");
                }
                if rng.one_in(4) {
                    let fen = self.games[rng.below(self.games.len())].fen();
                    text = format!("[FEN \"{fen}\"]\n{text}");
                }
                if rng.one_in(4) {
                    text.push_str("\n{fin} (1. 32-28) $2 2-0\n");
                }
                text
            }
        }
    }
}

impl Target for Position {
    fn name(&self) -> &'static str {
        "draughts position import"
    }

    fn one(&mut self, rng: &mut Rng) {
        let g = rng.below(self.games.len());
        let text = self.text(rng, g);
        let rounds = rng.below(4);
        let text = mutate_text(rng, text, rounds, 3);
        let variant = self.games[rng.below(self.games.len())].rules().variant;
        match dames_room::position::import(&text, variant) {
            Ok(imported) => {
                self.accepted += 1;
                serde_json::to_value(&imported).expect("an imported position serializes");
                let again = dames_room::position::import(&imported.fen, imported.variant)
                    .expect("the FEN of an imported position imports again");
                assert_eq!(again.fen, imported.fen, "imported FEN round trip");
                let rules = GameRules::Draughts(draughts::Rules::new(imported.variant));
                let game = GameState::new(&rules, 0, Some(&imported.fen))
                    .expect("an imported position starts a room's game");
                assert!(
                    !game.legal_moves().is_empty(),
                    "an imported position has a move"
                );
            }
            Err(err) => {
                let json = dames_server::error::AppError::InvalidPosition(err).to_json();
                assert_eq!(json["code"], "invalid_position");
                assert!(
                    json["detail"]["reason"].is_string(),
                    "a refusal has its reason: {json}"
                );
            }
        }
        if rng.one_in(2) {
            advance_draughts(rng, &mut self.games[g]);
        }
        self.last = (text, variant);
    }

    fn last_input(&self) -> String {
        format!("{:?} on the {:?} board", self.last.0, self.last.1)
    }

    fn depth(&self) -> String {
        format!("{} positions accepted", self.accepted)
    }
}

/// Chinese checkers position files: positions of random games for 2 to 6 players, as JSON,
/// mutated, read by [`chinese_checkers::Game::from_position_json`]; an accepted position gives
/// its legal moves and its file, which must read back.
pub struct CcPosition {
    games: Vec<chinese_checkers::Game>,
    last: Vec<u8>,
}

fn cc_game(players: u8) -> chinese_checkers::Game {
    let rules: chinese_checkers::Rules =
        serde_json::from_value(json!({ "players": players })).expect("valid rules");
    chinese_checkers::Game::new(rules, chinese_checkers::Seat(0)).expect("seat 0 exists")
}

impl CcPosition {
    pub(crate) fn new() -> Self {
        Self {
            games: [2, 3, 4, 6].into_iter().map(cc_game).collect(),
            last: Vec::new(),
        }
    }
}

impl Target for CcPosition {
    fn name(&self) -> &'static str {
        "Chinese checkers positions"
    }

    fn one(&mut self, rng: &mut Rng) {
        let g = rng.below(self.games.len());
        let template: Value =
            serde_json::from_str(&self.games[g].to_position_json()).unwrap_or_default();
        self.last = mutated_json(rng, &template, 4);
        let text = String::from_utf8_lossy(&self.last);
        if let Ok(game) = chinese_checkers::Game::from_position_json(&text) {
            let _ = game.legal_moves_vec();
            let again = game.to_position_json();
            chinese_checkers::Game::from_position_json(&again)
                .expect("the file of an accepted position reads back");
        }
        let game = &mut self.games[g];
        let legal = game.legal_moves_vec();
        if legal.is_empty() || game.is_over() || rng.one_in(300) {
            *game = cc_game(game.rules().players);
        } else if rng.one_in(2) {
            game.play(*rng.pick(&legal))
                .expect("a listed legal move is accepted");
        }
    }

    fn last_input(&self) -> String {
        String::from_utf8_lossy(&self.last).into_owned()
    }
}
