//! CPU time of the processes taking part (the server, Redis, the generator itself) and of the
//! whole machine during a measured phase, read from Linux's `/proc`.
//!
//! On a small machine the generator, the server and Redis share the cores, and other work may
//! run beside them: the server's CPU time per request says what the throughput figures cannot,
//! and the machine's busy time minus ours shows how much else was running.

use std::time::Duration;

/// Clock ticks per second of `/proc` (`USER_HZ`, 100 on every Linux architecture Rust targets
/// here).
const TICKS_PER_SEC: u64 = 100;

/// A process to watch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Watched {
    /// Its name in the output.
    pub name: String,
    /// Its process id.
    pub pid: u32,
}

/// CPU time used so far by process `pid` (user and system, every thread), or `None` when it
/// cannot be read (no such process, not Linux).
pub fn process_time(pid: u32) -> Option<Duration> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    parse_stat(&text)
}

/// `utime + stime` of a `/proc/PID/stat` line. The command name (field 2) is in parentheses
/// and may hold spaces, so fields are counted after the last `)`.
fn parse_stat(text: &str) -> Option<Duration> {
    let rest = text.get(text.rfind(')')? + 1..)?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // `rest` starts with field 3 (state); utime and stime are fields 14 and 15.
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(ticks(utime + stime))
}

/// CPU time the whole machine spent busy so far (all cores, everything but idle and I/O
/// wait), and the number of cores.
pub fn machine_busy() -> Option<(Duration, usize)> {
    let text = std::fs::read_to_string("/proc/stat").ok()?;
    parse_proc_stat(&text)
}

fn parse_proc_stat(text: &str) -> Option<(Duration, usize)> {
    let mut lines = text.lines();
    let total = lines.next()?.strip_prefix("cpu ")?;
    let values: Vec<u64> = total
        .split_whitespace()
        .map(str::parse)
        .collect::<Result<_, _>>()
        .ok()?;
    // user nice system idle iowait irq softirq steal [guest guest_nice, already in user]
    let busy: u64 = values
        .iter()
        .take(8)
        .sum::<u64>()
        .saturating_sub(values.get(3).copied().unwrap_or(0))
        .saturating_sub(values.get(4).copied().unwrap_or(0));
    let cores = lines
        .filter(|l| l.starts_with("cpu") && l.as_bytes().get(3).is_some_and(u8::is_ascii_digit))
        .count();
    Some((ticks(busy), cores))
}

fn ticks(n: u64) -> Duration {
    Duration::from_millis(n * 1000 / TICKS_PER_SEC)
}

/// A reading of every watched process and of the machine.
#[derive(Clone, Debug)]
pub struct Sample {
    processes: Vec<(String, Option<Duration>)>,
    machine: Option<(Duration, usize)>,
}

/// Reads the CPU times now.
pub fn sample(watched: &[Watched]) -> Sample {
    Sample {
        processes: watched
            .iter()
            .map(|w| (w.name.clone(), process_time(w.pid)))
            .collect(),
        machine: machine_busy(),
    }
}

/// CPU use of one process (or of the rest of the machine) over a measured phase.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct CpuUse {
    /// The process, `others` (the rest of the machine) or `machine`.
    pub name: String,
    /// CPU seconds used.
    pub cpu_s: f64,
    /// Mean number of cores kept busy.
    pub cores: f64,
}

/// The CPU use between two samples taken `elapsed` apart: one entry per watched process, then
/// `others` (machine busy time not used by them) and `machine`, when `/proc/stat` is readable.
pub fn usage(before: &Sample, after: &Sample, elapsed: Duration) -> Vec<CpuUse> {
    let secs = elapsed.as_secs_f64().max(1e-9);
    let entry = |name: &str, d: Duration| CpuUse {
        name: name.to_owned(),
        cpu_s: d.as_secs_f64(),
        cores: d.as_secs_f64() / secs,
    };
    let mut out: Vec<CpuUse> = before
        .processes
        .iter()
        .zip(&after.processes)
        .filter_map(|((name, b), (_, a))| {
            Some(entry(name, a.as_ref()?.saturating_sub(*b.as_ref()?)))
        })
        .collect();
    if let (Some((b, _)), Some((a, _))) = (before.machine, after.machine) {
        let machine = a.saturating_sub(b);
        let ours: f64 = out.iter().map(|u| u.cpu_s).sum();
        let others = Duration::from_secs_f64((machine.as_secs_f64() - ours).max(0.0));
        out.push(entry("others", others));
        out.push(entry("machine", machine));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_proc_stat_lines() {
        let line = "1234 (halma server) S 1 2 3 4 5 6 7 8 9 10 250 50 0 0 20 0 4 0 100";
        assert_eq!(parse_stat(line), Some(Duration::from_secs(3)));
        assert_eq!(parse_stat("garbage"), None);
        let stat = "cpu  100 0 50 1000 10 5 5 0 0 0\ncpu0 50 0 25 500 5 2 3 0 0 0\ncpu1 50 0 25 500 5 3 2 0 0 0\nintr 1\n";
        assert_eq!(
            parse_proc_stat(stat),
            Some((Duration::from_millis(1600), 2))
        );
    }

    #[test]
    fn usage_adds_the_rest_of_the_machine() {
        let before = Sample {
            processes: vec![("server".into(), Some(Duration::from_secs(1)))],
            machine: Some((Duration::from_secs(10), 2)),
        };
        let after = Sample {
            processes: vec![("server".into(), Some(Duration::from_secs(3)))],
            machine: Some((Duration::from_secs(14), 2)),
        };
        let u = usage(&before, &after, Duration::from_secs(2));
        assert_eq!(u.len(), 3);
        assert_eq!((u[0].name.as_str(), u[0].cores), ("server", 1.0));
        assert_eq!((u[1].name.as_str(), u[1].cpu_s), ("others", 2.0));
        assert_eq!((u[2].name.as_str(), u[2].cores), ("machine", 2.0));
    }

    #[test]
    fn this_process_has_a_cpu_time() {
        assert!(process_time(std::process::id()).is_some());
    }
}
