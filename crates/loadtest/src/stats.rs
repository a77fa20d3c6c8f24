//! Latency samples and their percentiles, counters shared by the scripted players, and what the
//! kernel says about a process (`/proc/<pid>/status` and `/proc/<pid>/stat`).

use std::collections::BTreeMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Durations measured during a run, in microseconds.
#[derive(Clone, Debug, Default)]
pub struct Samples(Vec<u64>);

impl Samples {
    /// Adds one measure.
    pub fn push(&mut self, d: Duration) {
        self.0.push(d.as_micros().min(u128::from(u64::MAX)) as u64);
    }

    /// How many measures.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// p50, p90, p99 and the maximum (nearest rank), or `None` without samples.
    pub fn percentiles(&self) -> Option<Percentiles> {
        let mut sorted = self.0.clone();
        sorted.sort_unstable();
        let rank = |q: f64| {
            let n = sorted.len();
            let i = ((q * n as f64).ceil() as usize).clamp(1, n) - 1;
            sorted[i] as f64 / 1000.0
        };
        (!sorted.is_empty()).then(|| Percentiles {
            count: sorted.len(),
            p50_ms: rank(0.50),
            p90_ms: rank(0.90),
            p99_ms: rank(0.99),
            max_ms: rank(1.0),
        })
    }
}

/// Latency percentiles in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Percentiles {
    /// Number of samples.
    pub count: usize,
    /// Median.
    pub p50_ms: f64,
    /// 90th percentile.
    pub p90_ms: f64,
    /// 99th percentile.
    pub p99_ms: f64,
    /// Largest sample.
    pub max_ms: f64,
}

impl fmt::Display for Percentiles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms ({} samples)",
            self.p50_ms, self.p90_ms, self.p99_ms, self.max_ms, self.count
        )
    }
}

/// Writes `label: percentiles` or `label: no samples`.
pub(crate) fn write_latency(
    f: &mut fmt::Formatter<'_>,
    label: &str,
    p: Option<&Percentiles>,
) -> fmt::Result {
    match p {
        Some(p) => writeln!(f, "  {label}: {p}"),
        None => writeln!(f, "  {label}: no samples"),
    }
}

/// The median of several runs' reports, figure by figure: numbers at the same place take their
/// median (the lower one for an even count, so that it is one of the measures), objects go key by
/// key, arrays of one length element by element, and anything else is the first run's.
pub fn median_json(values: &[Value]) -> Value {
    let Some(first) = values.first() else {
        return Value::Null;
    };
    if values.iter().all(Value::is_number) {
        let mut sorted = values.to_vec();
        sorted.sort_by(|a, b| {
            let (a, b) = (a.as_f64().unwrap_or(0.0), b.as_f64().unwrap_or(0.0));
            a.total_cmp(&b)
        });
        return sorted[(sorted.len() - 1) / 2].clone();
    }
    match first {
        Value::Object(map) if values.iter().all(Value::is_object) => {
            let merged = map
                .keys()
                .map(|key| {
                    let column: Vec<Value> = values.iter().map(|v| v[key].clone()).collect();
                    (key.clone(), median_json(&column))
                })
                .collect();
            Value::Object(merged)
        }
        Value::Array(items)
            if values
                .iter()
                .all(|v| v.as_array().is_some_and(|a| a.len() == items.len())) =>
        {
            let merged = (0..items.len())
                .map(|i| median_json(&values.iter().map(|v| v[i].clone()).collect::<Vec<_>>()))
                .collect();
            Value::Array(merged)
        }
        _ => first.clone(),
    }
}

/// `name ×count, …` or `none`.
pub(crate) fn tally_text(counts: &BTreeMap<String, u64>) -> String {
    if counts.is_empty() {
        return "none".to_owned();
    }
    let items: Vec<String> = counts.iter().map(|(k, n)| format!("{k} ×{n}")).collect();
    items.join(", ")
}

/// Counts by name (error codes, failure kinds), sorted for the report.
#[derive(Debug, Default)]
pub(crate) struct Tally(Mutex<BTreeMap<String, u64>>);

impl Tally {
    pub fn add(&self, name: &str) {
        let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        *map.entry(name.to_owned()).or_default() += 1;
    }

    pub fn snapshot(&self) -> BTreeMap<String, u64> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// What the scripted players of a run count, shared by all of them.
#[derive(Debug, Default)]
pub(crate) struct Recorder {
    /// Samples and counts are kept only while this is on (after the warm-up, before the end).
    pub measuring: AtomicBool,
    /// Moves acknowledged with `applied: true`, while measuring.
    pub moves: AtomicU64,
    /// Moves acknowledged (either way), whole run: the crash mode's kill moments.
    pub acked_total: AtomicU64,
    pub ack: Mutex<Samples>,
    pub opponent: Mutex<Samples>,
    /// Error messages from the server, by code.
    pub errors: Tally,
    /// Sockets that closed or failed under a player, by reason.
    pub drops: Tally,
    pub reconnections: AtomicU64,
    /// From a lost socket to the state on the next one (fault runs).
    pub reconnect: Mutex<Samples>,
    pub games_finished: AtomicU64,
    /// Moves resent after a reconnection and applied then (crash mode).
    pub resent_applied: AtomicU64,
    /// Moves resent after a reconnection that the server already had (crash mode).
    pub resent_known: AtomicU64,
    /// Acknowledgements that broke "at most once" (crash mode).
    pub violations: Mutex<Vec<String>>,
}

impl Recorder {
    pub fn measuring(&self) -> bool {
        self.measuring.load(Ordering::Relaxed)
    }

    pub fn sample(&self, which: &Mutex<Samples>, d: Duration) {
        if self.measuring() {
            which.lock().unwrap_or_else(|e| e.into_inner()).push(d);
        }
    }

    pub fn percentiles(which: &Mutex<Samples>) -> Option<Percentiles> {
        which
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .percentiles()
    }

    pub fn count(&self, counter: &AtomicU64) {
        if self.measuring() {
            counter.fetch_add(1, Ordering::Relaxed);
        }
    }

    pub fn violation(&self, what: String) {
        self.violations
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(what);
    }
}

/// Resident memory of process `pid` in KiB (`VmRSS`), `None` if it cannot be read.
pub fn rss_kib(pid: u32) -> Option<u64> {
    status_field(pid, "VmRSS:")
}

/// Peak resident memory of process `pid` in KiB (`VmHWM`).
pub fn peak_rss_kib(pid: u32) -> Option<u64> {
    status_field(pid, "VmHWM:")
}

fn status_field(pid: u32, name: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    parse_status_field(&status, name)
}

fn parse_status_field(status: &str, name: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with(name))?;
    line[name.len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

/// CPU time (user + system) used so far by process `pid`.
pub fn cpu_time(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    parse_cpu_ticks(&stat).map(|ticks| Duration::from_millis(ticks * 1000 / CLOCK_TICKS))
}

/// `sysconf(_SC_CLK_TCK)`: 100 on every Linux architecture we run on (reading it needs `unsafe`).
const CLOCK_TICKS: u64 = 100;

fn parse_cpu_ticks(stat: &str) -> Option<u64> {
    // The command name (field 2) may contain spaces: count fields after its closing parenthesis.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // After the name: state is field 3, utime field 14, stime field 15.
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(utime + stime)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_median_of_reports_goes_figure_by_figure() {
        let runs = [
            json!({"moves": 300, "rate": 15.0, "ack": {"p99_ms": 9.5}, "seed": 1, "kills": [1, 5], "x": null}),
            json!({"moves": 100, "rate": 35.0, "ack": {"p99_ms": 1.5}, "seed": 2, "kills": [2, 4], "x": 3}),
            json!({"moves": 200, "rate": 25.0, "ack": null, "seed": 3, "kills": [3], "x": 4}),
        ];
        let median = median_json(&runs);
        assert_eq!(
            median,
            json!({"moves": 200, "rate": 25.0, "ack": {"p99_ms": 9.5}, "seed": 2, "kills": [1, 5], "x": null})
        );
        // Even counts take the lower of the two middle measures.
        assert_eq!(
            median_json(&[json!(4), json!(1), json!(3), json!(2)]),
            json!(2)
        );
        assert_eq!(median_json(&[]), Value::Null);
    }

    #[test]
    fn tallies_are_listed_by_name() {
        let tally = Tally::default();
        assert_eq!(tally_text(&tally.snapshot()), "none");
        for name in ["not_your_turn", "bad_json", "not_your_turn"] {
            tally.add(name);
        }
        assert_eq!(
            tally_text(&tally.snapshot()),
            "bad_json ×1, not_your_turn ×2"
        );
    }

    #[test]
    fn percentiles_are_nearest_rank() {
        let mut s = Samples::default();
        assert!(s.percentiles().is_none());
        for ms in 1..=100 {
            s.push(Duration::from_millis(ms));
        }
        let p = s.percentiles().unwrap();
        assert_eq!(
            (p.count, p.p50_ms, p.p90_ms, p.p99_ms, p.max_ms),
            (100, 50.0, 90.0, 99.0, 100.0)
        );
        let mut one = Samples::default();
        one.push(Duration::from_micros(1500));
        assert_eq!(one.percentiles().unwrap().p50_ms, 1.5);
    }

    #[test]
    fn status_and_stat_fields_are_read_from_proc_text() {
        let status = "Name:\tdames\nVmHWM:\t  20480 kB\nVmRSS:\t   10240 kB\n";
        assert_eq!(parse_status_field(status, "VmRSS:"), Some(10240));
        assert_eq!(parse_status_field(status, "VmHWM:"), Some(20480));
        assert_eq!(parse_status_field(status, "VmSwap:"), None);
        let stat = "1234 (da mes) S 1 1234 1234 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 3 0";
        assert_eq!(parse_cpu_ticks(stat), Some(300));
    }

    #[test]
    fn this_process_has_a_resident_size_and_cpu_time() {
        let me = std::process::id();
        assert!(rss_kib(me).is_some_and(|kib| kib > 100));
        let rss = rss_kib(me);
        assert!(peak_rss_kib(me) >= rss);
        assert!(cpu_time(me).is_some());
    }
}
