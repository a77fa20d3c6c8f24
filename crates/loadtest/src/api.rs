//! The HTTP side of docs/protocol.md that the runs need: create a room, join it, start it, and
//! read a game's move list back (the crash check).

use std::time::Duration;

use serde::Deserialize;
use serde_json::{json, Value};

use crate::error::{Error, Result};
use crate::protocol::LegalMove;

/// The two kinds of game, as the API names them.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum GameKind {
    /// Chinese checkers, 2 players.
    #[serde(rename = "cc")]
    Cc,
    /// International draughts.
    #[serde(rename = "draughts")]
    Draughts,
}

impl GameKind {
    /// `cc` or `draughts`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameKind::Cc => "cc",
            GameKind::Draughts => "draughts",
        }
    }

    /// Reads `cc` or `draughts`.
    ///
    /// # Errors
    /// Any other name.
    pub fn from_name(name: &str) -> Result<GameKind> {
        match name {
            "cc" => Ok(GameKind::Cc),
            "draughts" => Ok(GameKind::Draughts),
            _ => Err(Error::Usage(format!(
                "unknown game {name:?}: cc or draughts"
            ))),
        }
    }
}

/// A seat of a room: the room's code, the seat number and its token.
#[derive(Clone, Debug)]
pub struct SeatKey {
    /// The room code.
    pub code: String,
    /// The seat number.
    pub seat: usize,
    /// The seat token (sent as `Authorization: Bearer`).
    pub token: String,
}

/// A game's record as read back over HTTP.
#[derive(Clone, Debug, Default)]
pub struct GameRecord {
    /// `lobby`, `playing` or `finished`.
    pub status: String,
    /// The game number.
    pub game_no: u64,
    /// The room version.
    pub version: i64,
    /// The moves of the current (or last) game, in order: (seat, move).
    pub moves: Vec<(usize, LegalMove)>,
}

/// An HTTP client for one server.
#[derive(Clone)]
pub struct Api {
    http: reqwest::Client,
    base: String,
}

impl Api {
    /// A client for the server at `base` (`http://127.0.0.1:port`).
    ///
    /// # Errors
    /// The HTTP client could not be built.
    pub fn new(base: &str) -> Result<Api> {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(30))
            .tcp_nodelay(true)
            .build()?;
        Ok(Api {
            http,
            base: base.trim_end_matches('/').to_owned(),
        })
    }

    /// The server's base URL.
    pub fn base(&self) -> &str {
        &self.base
    }

    async fn call(&self, req: reqwest::RequestBuilder, what: &str) -> Result<Value> {
        let res = req.send().await?;
        let status = res.status();
        let body: Value = res.json().await.unwrap_or(Value::Null);
        if status.is_success() {
            return Ok(body);
        }
        let code = body["error"]["code"].as_str().unwrap_or("?");
        let hint = if code == "rate_limited" {
            " (start the server with `dames serve --no-rate-limits`)"
        } else {
            ""
        };
        Err(Error::Api(format!(
            "{what}: {status} {code}: {}{hint}",
            body["error"]["message"].as_str().unwrap_or("")
        )))
    }

    fn post(&self, path: &str, token: Option<&str>, body: Value) -> reqwest::RequestBuilder {
        let req = self.http.post(format!("{}{path}", self.base)).json(&body);
        match token {
            Some(t) => req.bearer_auth(t),
            None => req,
        }
    }

    /// Creates a room of `kind` (default settings, live) and takes seat 0.
    ///
    /// # Errors
    /// The server refused (e.g. `rate_limited`) or did not answer.
    pub async fn create(&self, kind: GameKind, name: &str) -> Result<SeatKey> {
        let body = json!({"game": kind.as_str(), "name": name});
        let answer = self
            .call(self.post("/api/rooms", None, body), "create a room")
            .await?;
        seat_key(&answer)
    }

    /// Takes the first free seat of room `code`.
    ///
    /// # Errors
    /// The server refused or did not answer.
    pub async fn join(&self, code: &str, name: &str) -> Result<SeatKey> {
        let path = format!("/api/rooms/{code}/join");
        let answer = self
            .call(self.post(&path, None, json!({"name": name})), "join")
            .await?;
        seat_key(&answer)
    }

    /// Starts the game (as the host).
    ///
    /// # Errors
    /// The server refused or did not answer.
    pub async fn start(&self, host: &SeatKey) -> Result<()> {
        let path = format!("/api/rooms/{}/start", host.code);
        self.call(self.post(&path, Some(&host.token), json!({})), "start")
            .await
            .map(drop)
    }

    /// A new 2-player room of `kind` with both seats taken and the game started.
    ///
    /// # Errors
    /// The server refused or did not answer.
    pub async fn new_game(&self, kind: GameKind) -> Result<[SeatKey; 2]> {
        let ana = self.create(kind, "Ana").await?;
        let bo = self.join(&ana.code, "Bo").await?;
        self.start(&ana).await?;
        Ok([ana, bo])
    }

    /// The current game of `key`'s room as the server has it.
    ///
    /// # Errors
    /// The server refused or did not answer.
    pub async fn record(&self, key: &SeatKey) -> Result<GameRecord> {
        let req = self
            .http
            .get(format!("{}/api/rooms/{}", self.base, key.code))
            .bearer_auth(&key.token);
        let room: RawRoom = serde_json::from_value(self.call(req, "read a room").await?)
            .map_err(|e| Error::Api(format!("read a room: unexpected answer: {e}")))?;
        Ok(GameRecord {
            status: room.status,
            game_no: room.game_no,
            version: room.version,
            moves: room
                .play
                .map(|p| p.moves.into_iter().map(|m| (m.seat, m.mv)).collect())
                .unwrap_or_default(),
        })
    }
}

fn seat_key(answer: &Value) -> Result<SeatKey> {
    let field = |v: &Value| v.as_str().map(str::to_owned);
    match (
        field(&answer["room"]["code"]),
        answer["seat"].as_u64(),
        field(&answer["token"]),
    ) {
        (Some(code), Some(seat), Some(token)) => Ok(SeatKey {
            code,
            seat: seat as usize,
            token,
        }),
        _ => Err(Error::Api(format!("no seat in the answer: {answer}"))),
    }
}

#[derive(Deserialize)]
struct RawRoom {
    status: String,
    #[serde(default)]
    game_no: u64,
    version: i64,
    play: Option<RawPlay>,
}

#[derive(Deserialize)]
struct RawPlay {
    moves: Vec<RawRecord>,
}

#[derive(Deserialize)]
struct RawRecord {
    seat: usize,
    #[serde(rename = "move")]
    mv: LegalMove,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_is_read_from_a_create_or_join_answer() {
        let key = seat_key(
            &json!({"code": "K7M2QX", "seat": 1, "token": "ab", "room": {"code": "K7M2QX"}}),
        )
        .unwrap();
        assert_eq!(
            (key.code.as_str(), key.seat, key.token.as_str()),
            ("K7M2QX", 1, "ab")
        );
        assert!(seat_key(&json!({"error": {"code": "room_full"}})).is_err());
        assert_eq!(GameKind::from_name("cc").unwrap(), GameKind::Cc);
        assert!(GameKind::from_name("chess").is_err());
    }
}
