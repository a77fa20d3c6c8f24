//! `pair`: `seekers` browsers come over `over` (evenly spread, on the nodes in turn), each
//! opening `/ws/pools` and seeking in one or two random pools of quick pairing (docs/protocol.md
//! "Pools"); some cancel after a moment. Measures the time to pair, from the moment the group's
//! last seeker was in the pools (when a partner existed) to the `matched` message, and checks
//! the pairing: nobody paired twice (every person's seat of every room made is held by exactly
//! one seeker), nobody lost (at the end, each pool lists every seeker still waiting in it, and
//! none holds enough seekers for a game).

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tokio::task::JoinSet;
use tokio::time::timeout;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use crate::error::{Error, Result};
use crate::protocol::{Message, Ws};
use crate::rng::Rng;
use crate::server::{raise_fd_limit, Target};
use crate::stats::{tally_text, write_latency, Percentiles, Samples, Tally};

/// The pools of the run and their number of seats (the server's `GET /api/pools`, without the
/// CPU fill: every game here is between persons).
const POOLS: &[(&str, usize)] = &[
    ("draughts10-live", 2),
    ("draughts10-turn", 2),
    ("draughts8-live", 2),
    ("draughts12-live", 2),
    ("cc2-intl-live", 2),
    ("cc3-intl-live", 3),
    ("cc4-intl-turn", 4),
    ("cc2-jp-turn", 2),
];

/// What to run.
#[derive(Clone, Debug)]
pub struct Config {
    /// The server, or the nodes (seekers go to each in turn).
    pub target: Target,
    /// Browsers seeking.
    pub seekers: usize,
    /// Over how long they come.
    pub over: Duration,
    /// Of every 100, how many cancel a moment after seeking.
    pub cancel_percent: u32,
    /// How long to wait after the last seeker for the last matches.
    pub settle: Duration,
    /// Seed of the pools chosen.
    pub seed: u64,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            target: Target::Running {
                base: "http://127.0.0.1:8080".into(),
                pid: None,
            },
            seekers: 1000,
            over: Duration::from_secs(10),
            cancel_percent: 10,
            settle: Duration::from_secs(3),
            seed: 20,
        }
    }
}

/// What a `pair` run measured.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Report {
    /// Seekers started.
    pub seekers: usize,
    /// Nodes.
    pub nodes: usize,
    /// Over how long, seconds.
    pub over_s: f64,
    /// Seekers told their room.
    pub matched: usize,
    /// Seekers that cancelled (and were not matched before).
    pub cancelled: usize,
    /// Seekers still waiting at the end, each listed in its pools (too few for a game).
    pub waiting: usize,
    /// Rooms made.
    pub rooms: usize,
    /// Seekers seated twice: a person's seat of a room that no seeker was told of, or a seat
    /// told to two.
    pub paired_twice: u64,
    /// Seekers lost: still waiting but missing from their pool's list, or left waiting in a
    /// pool that holds enough of them for a game.
    pub lost: u64,
    /// The group's last seeker in the pools → `matched`, per seeker.
    pub time_to_pair: Option<Percentiles>,
    /// Failures by kind (sockets, errors answered).
    pub failures: BTreeMap<String, u64>,
}

impl Report {
    /// Double pairings, lost seekers and failures: 0 for a clean run.
    pub fn failures(&self) -> u64 {
        self.paired_twice + self.lost + self.failures.values().sum::<u64>()
    }
}

/// One seeker's story.
#[derive(Clone, Debug, Default)]
struct Story {
    pools: Vec<&'static str>,
    /// When its `seeking` came.
    in_pools: Option<Instant>,
    matched: Option<(Instant, String, u64)>,
    cancelled: bool,
}

async fn open(base: &str) -> Result<Ws> {
    let host = base
        .strip_prefix("http://")
        .ok_or_else(|| Error::Usage(format!("not an http:// URL: {base}")))?;
    let request = format!("ws://{host}/ws/pools").into_client_request()?;
    let (ws, _) = tokio_tungstenite::connect_async(request).await?;
    Ok(ws)
}

/// The next JSON message that is not a waiting list (or, `waiting`, the next one that is).
async fn next(ws: &mut Ws, waiting: bool) -> Result<Value, String> {
    loop {
        match ws.next().await {
            Some(Ok(Message::Text(t))) => {
                let v: Value = serde_json::from_str(&t).map_err(|e| e.to_string())?;
                if (v["type"] == "waiting") == waiting {
                    return Ok(v);
                }
            }
            Some(Ok(_)) => {}
            Some(Err(e)) => return Err(crate::protocol::short_error(&e)),
            None => return Err("closed".into()),
        }
    }
}

/// One seeker: comes at `at`, seeks, maybe cancels, waits for its room until `until`, and
/// holds its socket (still seeking) until `release`.
async fn seek(
    base: String,
    i: usize,
    story: Story,
    cancel_after: Option<Duration>,
    (start, until): (Instant, Instant),
    failures: Arc<Tally>,
    mut release: tokio::sync::watch::Receiver<bool>,
) -> Story {
    let mut story = story;
    tokio::time::sleep_until(start.into()).await;
    let mut ws = match timeout(Duration::from_secs(15), open(&base)).await {
        Ok(Ok(ws)) => ws,
        Ok(Err(e)) => {
            failures.add(&format!("open: {e}"));
            return story;
        }
        Err(_) => {
            failures.add("open: timed out");
            return story;
        }
    };
    let msg = json!({"type": "seek", "name": format!("P{i}"), "pools": story.pools});
    if ws.send(Message::text(msg.to_string())).await.is_err() {
        failures.add("send");
        return story;
    }
    match timeout(Duration::from_secs(15), next(&mut ws, false)).await {
        Ok(Ok(v)) if v["type"] == "seeking" => story.in_pools = Some(Instant::now()),
        Ok(Ok(v)) if v["type"] == "matched" => {
            failures.add("matched before seeking was answered");
            return story;
        }
        Ok(Ok(v)) => {
            failures.add(&format!(
                "seek answered {}",
                v["code"].as_str().unwrap_or("?")
            ));
            return story;
        }
        _ => {
            failures.add("no answer to seek");
            return story;
        }
    }
    let cancel_at = cancel_after.map(|d| Instant::now() + d);
    loop {
        let wake = cancel_at.filter(|_| !story.cancelled).unwrap_or(until);
        tokio::select! {
            msg = next(&mut ws, false) => match msg {
                Ok(v) if v["type"] == "matched" => {
                    let code = v["code"].as_str().unwrap_or_default().to_owned();
                    story.matched = Some((Instant::now(), code, v["seat"].as_u64().unwrap_or(99)));
                    story.cancelled = false;
                    break;
                }
                Ok(v) if v["type"] == "cancelled" => break,
                Ok(v) => failures.add(&format!("message {}", v["type"])),
                Err(e) => {
                    failures.add(&format!("socket: {e}"));
                    return story;
                }
            },
            () = tokio::time::sleep_until(wake.into()) => {
                if wake == until {
                    // Still waiting: the socket stays open until the pools are checked.
                    let _ = release.wait_for(|r| *r).await;
                    break;
                }
                story.cancelled = true;
                let _ = ws.send(Message::text(json!({"type": "cancel"}).to_string())).await;
            }
        }
    }
    let _ = timeout(Duration::from_secs(2), ws.close(None)).await;
    story
}

/// A number below `n`.
fn pick(rng: &mut Rng, n: usize) -> usize {
    usize::try_from(rng.below(n as u64)).unwrap_or(0)
}

/// Runs `pair`.
///
/// # Errors
/// The server could not be started.
pub async fn run(config: &Config) -> Result<Report> {
    if config.seekers == 0 {
        return Err(Error::Usage("seekers must be at least 1".into()));
    }
    let _ = raise_fd_limit();
    let live = config.target.start()?;
    let mut rng = Rng::new(config.seed);
    let failures = Arc::new(Tally::default());
    let (release, released) = tokio::sync::watch::channel(false);
    let begin = Instant::now() + Duration::from_millis(200);
    let end = begin + config.over + config.settle;
    let step = config.over / u32::try_from(config.seekers).unwrap_or(u32::MAX);
    let mut tasks = JoinSet::new();
    for i in 0..config.seekers {
        let mut pools = vec![POOLS[pick(&mut rng, POOLS.len())].0];
        if pick(&mut rng, 4) == 0 {
            let other = POOLS[pick(&mut rng, POOLS.len())].0;
            if other != pools[0] {
                pools.push(other);
            }
        }
        let cancel = (rng.below(100) < u64::from(config.cancel_percent))
            .then(|| Duration::from_millis(rng.below(500)));
        let story = Story {
            pools,
            ..Story::default()
        };
        let at = begin + step * u32::try_from(i).unwrap_or(u32::MAX);
        let base = live.bases[i % live.bases.len()].clone();
        tasks.spawn(seek(
            base,
            i,
            story,
            cancel,
            (at, end),
            failures.clone(),
            released.clone(),
        ));
    }
    tokio::time::sleep_until(end.into()).await;
    // The pools as a fresh socket sees them, while the seekers still waiting hold theirs.
    let listed = pools_listed(&live.bases[0]).await;
    let _ = release.send(true);
    let mut stories = Vec::with_capacity(config.seekers);
    while let Some(done) = tasks.join_next().await {
        match done {
            Ok(story) => stories.push(story),
            Err(e) => failures.add(&format!("task: {e}")),
        }
    }
    let report = judge(
        config,
        live.bases.len(),
        &stories,
        listed,
        &live.base,
        &failures,
    )
    .await;
    live.finish()?;
    Ok(report)
}

/// Each pool's count of seekers, from the first waiting list a new socket gets.
async fn pools_listed(base: &str) -> Option<HashMap<String, u64>> {
    let mut ws = open(base).await.ok()?;
    // A list made at the last tick: wait for one more tick's list if the first is older.
    tokio::time::sleep(Duration::from_millis(600)).await;
    let v = timeout(Duration::from_secs(5), next(&mut ws, true))
        .await
        .ok()?
        .ok()?;
    let _ = ws.close(None).await;
    Some(
        v["pools"]
            .as_array()?
            .iter()
            .map(|p| {
                (
                    p["pool"].as_str().unwrap_or("").to_owned(),
                    p["count"].as_u64().unwrap_or(0),
                )
            })
            .collect(),
    )
}

async fn judge(
    config: &Config,
    nodes: usize,
    stories: &[Story],
    listed: Option<HashMap<String, u64>>,
    base: &str,
    failures: &Tally,
) -> Report {
    let mut rooms: HashMap<&str, Vec<&Story>> = HashMap::new();
    let mut paired_twice = 0u64;
    let mut seats_told: HashMap<(&str, u64), usize> = HashMap::new();
    for s in stories {
        if let Some((_, code, seat)) = &s.matched {
            rooms.entry(code.as_str()).or_default().push(s);
            *seats_told.entry((code.as_str(), *seat)).or_default() += 1;
        }
    }
    paired_twice += seats_told
        .values()
        .filter(|&&n| n > 1)
        .map(|&n| n as u64 - 1)
        .sum::<u64>();
    let mut ttp = Samples::default();
    let http = reqwest::Client::new();
    for (code, members) in &rooms {
        let exists = members.iter().filter_map(|s| s.in_pools).max();
        for s in members {
            if let (Some(exists), Some((at, _, _))) = (exists, &s.matched) {
                ttp.push(at.saturating_duration_since(exists));
            }
        }
        // Every person's seat of the room is one of these seekers'.
        let url = format!("{base}/api/rooms/{code}");
        match http.get(&url).send().await {
            Ok(res) => match res.json::<Value>().await {
                Ok(room) => {
                    let persons = room["seats"]
                        .as_array()
                        .map_or(0, |s| s.iter().filter(|s| s["kind"] == "human").count());
                    paired_twice += persons.saturating_sub(members.len()) as u64;
                }
                Err(_) => failures.add("room unreadable"),
            },
            Err(_) => failures.add("room unreadable"),
        }
    }
    let waiting: Vec<&Story> = stories
        .iter()
        .filter(|s| s.in_pools.is_some() && s.matched.is_none() && !s.cancelled)
        .collect();
    let mut lost = 0u64;
    match listed {
        Some(listed) => {
            for &(pool, seats) in POOLS {
                let here = waiting.iter().filter(|s| s.pools.contains(&pool)).count() as u64;
                let shown = listed.get(pool).copied().unwrap_or(0);
                lost += here.saturating_sub(shown);
                if here >= seats as u64 {
                    lost += here;
                }
            }
        }
        None => failures.add("no waiting list at the end"),
    }
    Report {
        seekers: config.seekers,
        nodes,
        over_s: config.over.as_secs_f64(),
        matched: stories.iter().filter(|s| s.matched.is_some()).count(),
        cancelled: stories
            .iter()
            .filter(|s| s.cancelled && s.matched.is_none())
            .count(),
        waiting: waiting.len(),
        rooms: rooms.len(),
        paired_twice,
        lost,
        time_to_pair: ttp.percentiles(),
        failures: failures.snapshot(),
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "pair: {} seekers over {:.1} s on {} node(s)",
            self.seekers, self.over_s, self.nodes
        )?;
        writeln!(
            f,
            "  matched {} in {} rooms, cancelled {}, still waiting {}",
            self.matched, self.rooms, self.cancelled, self.waiting
        )?;
        writeln!(
            f,
            "  paired twice: {}, lost: {}",
            self.paired_twice, self.lost
        )?;
        write_latency(
            f,
            "time to pair (partner there → told)",
            self.time_to_pair.as_ref(),
        )?;
        writeln!(f, "  failures: {}", tally_text(&self.failures))
    }
}
