//! The cost table of a matrix (what each ready adapter's column cost, the
//! costliest by wall time first), as plain cells for `markdown` and
//! `html` to lay out alike.
//!
//! It only reads [`Matrix::adapters`]' costs; it never measures anything.

use crate::matrix::Matrix;

/// The columns of the table.
pub const HEADERS: [&str; 13] = [
    "adapter",
    "wall s",
    "CPU s",
    "runner CPU s",
    "waited s",
    "instances",
    "processes",
    "asked",
    "cached",
    "confirmed",
    "timeouts",
    "crashes",
    "protocol errors",
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
pub fn rows(m: &Matrix) -> Vec<[String; 13]> {
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
                c.confirmations.to_string(),
                c.timeouts.to_string(),
                c.crashes.to_string(),
                c.protocol_errors.to_string(),
            ]
        })
        .collect()
}
