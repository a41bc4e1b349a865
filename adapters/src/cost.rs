//! What asking an adapter cost: how many processes it started and the
//! CPU time (user + system) they used, so a matrix can show which adapter
//! costs the time.
//!
//! A process's CPU time is read from `/proc/<pid>/stat` (its own time and
//! that of the children it waited for) just before it is stopped, and
//! while it still runs when [`crate::Adapter::cost`] is asked; a
//! grandchild killed with the process group is not counted. The calling
//! thread's CPU time ([`thread_cpu`]) is what an adapter that answers on
//! the caller's thread (the oracle) costs.
//!
//! It only reads clocks and `/proc`; it never signals, starts or waits for
//! a process. Where `/proc` cannot be read, the time is zero (never a
//! guess).

use std::ops::AddAssign;
use std::time::Duration;

/// The processes an adapter started and the CPU time they used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cost {
    /// Processes started (restarts included).
    pub starts: usize,
    /// CPU time, user + system, of those processes (and of the children
    /// they waited for); for an in-process parser on a worker thread,
    /// that thread's.
    pub cpu: Duration,
    /// Requests answered after their deadline, within the wait that
    /// confirms a timeout (`process::Limits::confirm`).
    pub late: usize,
}

impl AddAssign for Cost {
    fn add_assign(&mut self, other: Cost) {
        self.starts += other.starts;
        self.cpu += other.cpu;
        self.late += other.late;
    }
}

/// The CPU time of process `pid` so far (user + system, plus its waited-for
/// children's), or `None` when `/proc/<pid>/stat` cannot be read or parsed.
pub fn process_cpu(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let ticks = stat_ticks(&stat)?;
    let hz = rustix::param::clock_ticks_per_second().max(1);
    Some(Duration::from_nanos(
        ticks.saturating_mul(1_000_000_000 / hz.min(1_000_000_000)),
    ))
}

/// utime + stime + cutime + cstime (fields 14 to 17 of
/// `/proc/<pid>/stat`), in clock ticks. The command name (field 2) is in
/// parentheses and may hold spaces and parentheses itself, so fields are
/// counted from the last `)`.
fn stat_ticks(stat: &str) -> Option<u64> {
    let rest = &stat[stat.rfind(')')? + 1..];
    // After the name: field 3 (state) is index 0, so field 14 is index 11.
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let mut sum = 0u64;
    for i in 11..=14 {
        // cutime and cstime are signed in the kernel's format.
        let v: i64 = fields.get(i)?.parse().ok()?;
        sum = sum.saturating_add(v.max(0) as u64);
    }
    Some(sum)
}

/// The CPU time the calling thread has used so far.
pub fn thread_cpu() -> Duration {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::new(
        u64::try_from(t.tv_sec).unwrap_or(0),
        u32::try_from(t.tv_nsec).unwrap_or(0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_fields_are_counted_after_the_last_parenthesis() {
        // A name with a space and a parenthesis, as a process may set.
        let stat = "4242 (ja va) x) S 1 4242 4242 0 -1 4194304 100 0 0 0 \
                    7 3 2 1 20 0 1 0 100 1000 10";
        assert_eq!(stat_ticks(stat), Some(13));
        assert_eq!(stat_ticks("12 (short) S 1"), None);
        assert_eq!(stat_ticks("no parenthesis"), None);
    }

    #[test]
    fn this_process_and_thread_have_used_cpu() {
        // Burn CPU until the thread's clock moved by a few clock ticks, so
        // that /proc (in ticks) shows it too.
        let before = thread_cpu();
        let mut x = 0u64;
        while thread_cpu() - before < Duration::from_millis(50) {
            for i in 0..100_000u64 {
                x = x.wrapping_mul(31).wrapping_add(i);
            }
            std::hint::black_box(x);
        }
        let me = process_cpu(std::process::id()).expect("own /proc stat");
        assert!(me > Duration::ZERO);
        assert_eq!(process_cpu(u32::MAX), None);
    }
}
