//! Who is paired with whom: a pure function of the seeks waiting and the time
//! ([`picks`]), the same on one node and in a cluster (where Redis then makes each pick
//! atomic, `shared`).
//!
//! In each pool, oldest seek first: a group is the first `players` seeks, from the oldest on,
//! of which no two avoid each other (a block either way) and each is past its waiting penalty
//! (`ready_at`). If no full group forms, the oldest seek that opted into the CPU fill and has
//! waited its time plays now: with the other seeks of the pool it may play with (oldest first,
//! whether they opted in or not: they were waiting for company, and it came), and CPUs in the
//! seats left (one person is enough: they asked for it). A seek in several pools goes to the
//! first group formed; the pools are visited in the order of [`super::spec::POOLS`].

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use super::spec::{PoolSpec, POOLS};

/// « Compléter avec des CPU après N s ».
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CpuFill {
    /// The CPUs' level (`dames_ai::Level` name).
    pub level: String,
    /// Seconds waited before the CPUs come.
    pub after_s: u64,
}

/// One browser seeking a game in one or several pools.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seek {
    /// The seek's id (128 random bits; server-side only).
    pub id: String,
    /// The browser (server-side only, never sent to another browser).
    pub client: String,
    /// The chosen name (what others see).
    pub name: String,
    /// The pools' ids.
    pub pools: Vec<String>,
    /// SHA-256 of the seat token the seeker will hold, in hex.
    pub token_hash: String,
    /// When the seek began (ms).
    pub since: i64,
    /// When it may be paired (after the leaver's penalty).
    pub ready_at: i64,
    /// The CPU fill, if chosen.
    pub cpu: Option<CpuFill>,
    /// The browsers this one must not be paired with.
    pub avoid: Vec<String>,
    /// The keyed hash of the seeker's address (server-side only), that a CPU fill it asked
    /// for counts against (`Room::cpu_by`, the caps on games against CPUs).
    #[serde(default)]
    pub by: Option<String>,
}

impl Seek {
    fn avoids(&self, other: &Seek) -> bool {
        self.client == other.client
            || self.avoid.contains(&other.client)
            || other.avoid.contains(&self.client)
    }

    /// Whether this seek's CPU fill is due at `now`.
    fn fill_due(&self, now: i64) -> bool {
        let after = |c: &CpuFill| i64::try_from(c.after_s).unwrap_or(i64::MAX / 2) * 1000;
        self.cpu
            .as_ref()
            .is_some_and(|c| now - self.since >= after(c))
    }
}

/// A group to seat in a room of `pool`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pick {
    /// The pool.
    pub pool: &'static PoolSpec,
    /// The seeks' ids, oldest first.
    pub seeks: Vec<String>,
    /// Seats given to CPUs, and their level.
    pub cpus: Option<(usize, String)>,
}

/// Every group that can be formed now, no seek in two.
pub fn picks(seeks: &[Seek], now: i64) -> Vec<Pick> {
    let mut ordered: Vec<&Seek> = seeks.iter().filter(|s| s.ready_at <= now).collect();
    ordered.sort_by(|a, b| (a.since, &a.id).cmp(&(b.since, &b.id)));
    let mut used: HashSet<&str> = HashSet::new();
    let mut out = Vec::new();
    for pool in POOLS {
        loop {
            let waiting: Vec<&Seek> = (ordered.iter().copied())
                .filter(|s| !used.contains(s.id.as_str()) && s.pools.iter().any(|p| p == pool.id))
                .collect();
            let Some(pick) = pick(pool, &waiting, now) else {
                break;
            };
            let taken = (waiting.iter().copied())
                .map(|s| s.id.as_str())
                .filter(|id| pick.seeks.iter().any(|p| p == id));
            used.extend(taken);
            out.push(pick);
        }
    }
    out
}

/// The first group of `pool` among `waiting` (oldest first).
fn pick(pool: &'static PoolSpec, waiting: &[&Seek], now: i64) -> Option<Pick> {
    let players = pool.players();
    for start in 0..waiting.len() {
        let group = greedy(waiting[start..].iter().copied(), players);
        if group.len() == players {
            return Some(Pick {
                pool,
                seeks: group.iter().map(|s| s.id.clone()).collect(),
                cpus: None,
            });
        }
    }
    // No full group: the CPU fill of the oldest seek that opted into it and has waited its
    // time, with every other seek of the pool it may play with, oldest first (whoever else
    // waits there is the company that seek was waiting for).
    if !pool.cpu_fill() {
        return None;
    }
    let due = waiting.iter().position(|s| s.fill_due(now))?;
    let fill = waiting[due].cpu.as_ref()?;
    let others = (waiting.iter().enumerate())
        .filter(|&(i, _)| i != due)
        .map(|(_, s)| *s);
    let group = greedy(std::iter::once(waiting[due]).chain(others), players);
    Some(Pick {
        pool,
        seeks: group.iter().map(|s| s.id.clone()).collect(),
        cpus: Some((players - group.len(), fill.level.clone())),
    })
}

/// From the first seek on, each seek that avoids none of those taken, up to `players`.
fn greedy<'a>(waiting: impl Iterator<Item = &'a Seek>, players: usize) -> Vec<&'a Seek> {
    let mut group: Vec<&Seek> = Vec::with_capacity(players);
    for seek in waiting {
        if group.len() == players {
            break;
        }
        if group.iter().all(|g| !g.avoids(seek)) {
            group.push(seek);
        }
    }
    group
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seek(id: &str, pools: &[&str], since: i64) -> Seek {
        Seek {
            id: id.into(),
            client: format!("client-{id}"),
            name: id.into(),
            pools: pools.iter().map(|p| (*p).to_owned()).collect(),
            token_hash: String::new(),
            since,
            ready_at: since,
            cpu: None,
            avoid: Vec::new(),
            by: None,
        }
    }

    fn ids(p: &Pick) -> Vec<&str> {
        p.seeks.iter().map(String::as_str).collect()
    }

    #[test]
    fn two_seekers_of_one_pool_are_paired_oldest_first() {
        let seeks = [
            seek("c", &["draughts10-live"], 3),
            seek("a", &["draughts10-live"], 1),
            seek("b", &["draughts10-live"], 2),
        ];
        let p = picks(&seeks, 10);
        assert_eq!(p.len(), 1);
        assert_eq!(ids(&p[0]), ["a", "b"]);
        assert_eq!(p[0].cpus, None);
    }

    #[test]
    fn a_seek_in_several_pools_goes_to_one_group_only() {
        let seeks = [
            seek("a", &["draughts10-live", "draughts8-live"], 1),
            seek("b", &["draughts10-live"], 2),
            seek("c", &["draughts8-live"], 3),
        ];
        let p = picks(&seeks, 10);
        assert_eq!(p.len(), 1);
        assert_eq!(ids(&p[0]), ["a", "b"]);
    }

    #[test]
    fn a_block_either_way_keeps_two_apart_but_not_the_others() {
        let mut a = seek("a", &["draughts10-live"], 1);
        a.avoid = vec!["client-b".into()];
        let b = seek("b", &["draughts10-live"], 2);
        assert!(picks(&[a.clone(), b.clone()], 10).is_empty());
        let mut b2 = b.clone();
        b2.avoid = vec!["client-a".into()];
        a.avoid.clear();
        assert!(picks(&[a.clone(), b2.clone()], 10).is_empty());
        let c = seek("c", &["draughts10-live"], 3);
        let p = picks(&[a, b2, c], 10);
        assert_eq!(ids(&p[0]), ["a", "c"]);
    }

    #[test]
    fn two_seeks_of_one_browser_are_never_paired_together() {
        let a = seek("a", &["draughts10-live"], 1);
        let mut b = seek("b", &["draughts10-live"], 2);
        b.client = a.client.clone();
        assert!(picks(&[a, b], 10).is_empty());
    }

    #[test]
    fn the_penalty_delays_a_seek() {
        let a = seek("a", &["draughts10-live"], 1);
        let mut b = seek("b", &["draughts10-live"], 2);
        b.ready_at = 15_002;
        assert!(picks(&[a.clone(), b.clone()], 15_001).is_empty());
        assert_eq!(picks(&[a, b], 15_002).len(), 1);
    }

    #[test]
    fn cpus_fill_a_pool_of_three_or_more_once_the_oldest_opted_in_has_waited() {
        let mut a = seek("a", &["cc4-intl-live"], 0);
        a.cpu = Some(CpuFill {
            level: "normal".into(),
            after_s: 30,
        });
        let b = seek("b", &["cc4-intl-live"], 1_000);
        let c = seek("c", &["cc4-intl-live"], 2_000);
        let all = [a.clone(), b, c];
        assert!(picks(&all, 29_999).is_empty());
        let p = picks(&all, 30_000);
        assert_eq!(ids(&p[0]), ["a", "b", "c"]);
        assert_eq!(p[0].cpus, Some((1, "normal".into())));
        // Alone, after the wait: three CPUs.
        let p = picks(&[a.clone()], 30_000);
        assert_eq!(p[0].cpus, Some((3, "normal".into())));
        // Never for two players.
        let mut d = a.clone();
        d.pools = vec!["draughts10-live".into()];
        assert!(picks(&[d], 1_000_000).is_empty());
        // A younger seek that opted in gets its CPUs at its own time, with the older one that
        // did not opt in; the one whose fill it is comes first (it holds the host's seat).
        let mut e = seek("e", &["cc4-intl-live"], 5_000);
        e.cpu = a.cpu.clone();
        let f = seek("f", &["cc4-intl-live"], 0);
        assert!(picks(&[e.clone(), f.clone()], 34_999).is_empty());
        let p = picks(&[e, f], 35_000);
        assert_eq!(ids(&p[0]), ["e", "f"]);
        assert_eq!(p[0].cpus, Some((2, "normal".into())));
    }

    #[test]
    fn a_cpu_fill_keeps_apart_those_who_blocked_each_other() {
        let mut a = seek("a", &["cc3-intl-live"], 0);
        a.cpu = Some(CpuFill {
            level: "facile".into(),
            after_s: 10,
        });
        let mut b = seek("b", &["cc3-intl-live"], 1);
        b.avoid = vec!["client-a".into()];
        let c = seek("c", &["cc3-intl-live"], 2);
        let p = picks(&[a, b, c], 10_000);
        assert_eq!(p.len(), 1);
        assert_eq!(ids(&p[0]), ["a", "c"]);
        assert_eq!(p[0].cpus, Some((1, "facile".into())));
    }

    #[test]
    fn a_full_group_needs_no_cpu() {
        let seeks: Vec<Seek> = (0..7)
            .map(|i| seek(&format!("s{i}"), &["cc3-intl-turn"], i))
            .collect();
        let p = picks(&seeks, 100);
        assert_eq!(p.len(), 2);
        assert_eq!(ids(&p[0]), ["s0", "s1", "s2"]);
        assert_eq!(ids(&p[1]), ["s3", "s4", "s5"]);
    }
}
