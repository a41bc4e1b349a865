//! What one adapter's column of a matrix cost: wall time, CPU time (its
//! processes' and the runner threads' that asked it), processes started,
//! checks asked and answered from the cache, and the answers that cost a
//! deadline or a restart (timeouts, crashes, protocol errors). Shown as
//! the "cost" table of `matrix.md` and `report.json`, so a user sees
//! which adapter costs the time.
//!
//! It only counts; it never asks an adapter and never judges an answer.

use std::time::Duration;

use robots_adapters::Reply;
use robots_adapters::cost::Cost;
use serde::Serialize;

/// One column's cost.
#[derive(Clone, Debug, Default, PartialEq, Serialize, serde::Deserialize)]
#[serde(default)]
pub struct ColumnCost {
    /// Wall time from the column's start to its last answer, seconds.
    pub wall_seconds: f64,
    /// CPU time (user + system) of the adapter's processes, or of its
    /// worker threads when it runs in this process, seconds.
    pub cpu_seconds: f64,
    /// CPU time of the runner threads that asked it (encoding, reading,
    /// judging; the oracle's own work for the reference adapters), seconds.
    pub runner_cpu_seconds: f64,
    /// Seconds the column's instances waited, added up, for the run's
    /// budget of busy adapters ([`crate::budget`]).
    pub waited_seconds: f64,
    /// Instances run side by side.
    pub instances: usize,
    /// Processes started, restarts included (0 in this process).
    pub processes: usize,
    /// Checks asked.
    pub asked: usize,
    /// Checks answered from the answer cache without asking.
    pub cached: usize,
    /// Requests answered after their deadline, in the wait that confirms
    /// a timeout (the parser is slow, or the machine busy).
    pub late: usize,
    /// Live-fetch errors asked again to confirm them ([`crate::column`]).
    pub confirmations: usize,
    /// Answers `timeout` (asked or replayed from the cache).
    pub timeouts: usize,
    /// Answers `crashed`.
    pub crashes: usize,
    /// Answers that broke the protocol.
    pub protocol_errors: usize,
}

impl ColumnCost {
    /// Counts `reply` among the answers.
    pub fn count(&mut self, reply: &Reply) {
        match reply {
            Reply::TimedOut => self.timeouts += 1,
            Reply::Crashed { .. } => self.crashes += 1,
            Reply::ProtocolError { .. } => self.protocol_errors += 1,
            _ => {}
        }
    }

    /// Adds what one instance's adapter reported and its thread's CPU time.
    pub fn add_instance(&mut self, adapter: Cost, runner_cpu: Duration) {
        self.instances += 1;
        self.processes += adapter.starts;
        self.late += adapter.late;
        self.cpu_seconds += adapter.cpu.as_secs_f64();
        self.runner_cpu_seconds += runner_cpu.as_secs_f64();
    }

    /// CPU seconds in all (adapter and runner).
    pub fn total_cpu(&self) -> f64 {
        self.cpu_seconds + self.runner_cpu_seconds
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_the_answers_that_cost_a_deadline_or_a_restart() {
        let mut c = ColumnCost::default();
        for r in [
            Reply::TimedOut,
            Reply::TimedOut,
            Reply::Crashed { message: "x".into() },
            Reply::ProtocolError { message: "y".into() },
            Reply::Value { value: serde_json::json!(1) },
        ] {
            c.count(&r);
        }
        assert_eq!((c.timeouts, c.crashes, c.protocol_errors), (2, 1, 1));
        c.add_instance(
            Cost { starts: 3, cpu: Duration::from_millis(1500), late: 1 },
            Duration::from_millis(500),
        );
        c.add_instance(Cost::default(), Duration::ZERO);
        assert_eq!((c.instances, c.processes, c.late), (2, 3, 1));
        assert!((c.total_cpu() - 2.0).abs() < 1e-9);
    }
}
