//! The cost table of a matrix (what each ready adapter's column cost, the
//! costliest by wall time first), as plain cells for `markdown` and
//! `html` to lay out alike, with a legend saying what each column counts
//! ([`LEGEND`], printed under the table in both).
//!
//! It only reads [`Matrix::adapters`]' costs; it never measures anything.

use crate::matrix::Matrix;

/// The columns of the table.
pub const HEADERS: [&str; 14] = [
    "adapter",
    "wall s",
    "CPU s",
    "runner CPU s",
    "waited s",
    "instances",
    "processes",
    "asked",
    "cached",
    "late",
    "confirmed",
    "timeouts",
    "crashes",
    "protocol errors",
];

/// What each column of [`HEADERS`] counts, in the same order (the names
/// of `report.json`'s `adapters[].cost` fields in parentheses).
pub const LEGEND: [(&str, &str); 14] = [
    ("adapter", "the adapter; the costliest by wall time first"),
    (
        "wall s",
        "seconds from the column's start to its last answer (wall_seconds)",
    ),
    (
        "CPU s",
        "CPU seconds (user + system) of the adapter's processes, or of its \
         worker threads when it runs in this process (cpu_seconds)",
    ),
    (
        "runner CPU s",
        "CPU seconds of the runner threads that asked it: encoding, \
         reading, judging; the oracle's own work for the reference \
         adapters (runner_cpu_seconds)",
    ),
    (
        "waited s",
        "seconds its instances waited, added up, for a permit of the run's \
         budget of adapters asking at once, --jobs (waited_seconds)",
    ),
    ("instances", "instances run side by side (instances)"),
    (
        "processes",
        "processes started, restarts included; 0 when it runs in this \
         process (processes)",
    ),
    ("asked", "checks asked this run (asked)"),
    (
        "cached",
        "checks answered from the answer cache, .cache/matrix/, without \
         asking (cached)",
    ),
    (
        "late",
        "requests answered after their --timeout, in the extra wait that \
         confirms a timeout: the parser is slow or the machine busy (late)",
    ),
    (
        "confirmed",
        "live-fetch checks whose first answer was an error, asked once \
         more to confirm it; an error is kept only when it repeats \
         (confirmations). These are not timeouts",
    ),
    (
        "timeouts",
        "answers `timeout`: no answer within twice --timeout, then none \
         when asked again alone (timeouts)",
    ),
    ("crashes", "answers `crashed`: the adapter's process died (crashes)"),
    (
        "protocol errors",
        "answers that broke the adapter protocol (protocol_errors)",
    ),
];

/// The line above the table: the run's wall time, the explanations'
/// time and how many adapter instances asked at once.
pub fn summary(m: &Matrix) -> String {
    format!(
        "Wall {:.1} s; oracle explanations {:.1} s alongside; at most {} \
         adapter instances asking at once (limit: {}).",
        m.seconds,
        m.explain_seconds,
        m.busy_peak,
        match m.busy_limit {
            0 => "none".to_string(),
            n => n.to_string(),
        }
    )
}

/// One row of cells per ready adapter, the costliest first.
pub fn rows(m: &Matrix) -> Vec<[String; 14]> {
    let mut cols: Vec<_> =
        m.adapters.iter().filter(|c| c.status == "ready").collect();
    cols.sort_by(|a, b| b.cost.wall_seconds.total_cmp(&a.cost.wall_seconds));
    cols.into_iter()
        .map(|col| {
            let c = &col.cost;
            [
                col.info.name.clone(),
                format!("{:.1}", c.wall_seconds),
                format!("{:.1}", c.cpu_seconds),
                format!("{:.1}", c.runner_cpu_seconds),
                format!("{:.1}", c.waited_seconds),
                c.instances.to_string(),
                c.processes.to_string(),
                c.asked.to_string(),
                c.cached.to_string(),
                c.late.to_string(),
                c.confirmations.to_string(),
                c.timeouts.to_string(),
                c.crashes.to_string(),
                c.protocol_errors.to_string(),
            ]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_column_has_its_legend_in_order() {
        let named: Vec<&str> = LEGEND.iter().map(|(h, _)| *h).collect();
        assert_eq!(named, HEADERS);
        assert!(LEGEND.iter().all(|(_, about)| !about.is_empty()));
    }
}
