//! What classifying a disagreement costs, by body size: every generated
//! check of a seed (as `diff` draws them), every URL, both built-in
//! profiles, classified against the verdict the oracle does *not* give
//! (what a disagreeing parser answers; most are explained by no switch,
//! the dearest case). Prints one line per size bucket.
//!
//! A measuring tool (wall time, so run it on a quiet machine), not a
//! test: `cargo run --release -p robots-gen --example classify_cost -- 3000`.

use std::time::Instant;

use robots_gen::{classify, from_seed};
use robots_oracle::{Profile, RobotsTxt};

fn main() {
    let n: u64 =
        std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(3000);
    let names = ["< 1 KiB", "1 KiB - 20 KB", "20 - 400 KB", "> 400 KB"];
    // (classifications, seconds, unexplained) per bucket.
    let mut buckets = [(0usize, 0f64, 0usize); 4];
    for i in 0..n {
        let c = from_seed(9309, i);
        let b = match c.robots.len() {
            0..=1023 => 0,
            1024..=20_000 => 1,
            20_001..=400_000 => 2,
            _ => 3,
        };
        for base in [Profile::rfc9309(), Profile::google()] {
            let r = RobotsTxt::parse(&c.robots, &base);
            for url in &c.urls {
                let Ok(d) = r.decide(&c.agent, url) else { continue };
                let theirs = !d.verdict;
                let t = Instant::now();
                let e = classify(&c.robots, &c.agent, url, &base, theirs);
                let bucket = &mut buckets[b];
                bucket.1 += t.elapsed().as_secs_f64();
                bucket.0 += 1;
                bucket.2 += usize::from(e.name() == "unexplained");
            }
        }
    }
    for (name, (k, s, u)) in names.iter().zip(buckets) {
        let each = 1e6 * s / k.max(1) as f64;
        println!(
            "{name:>14}: {k} classifications, {s:.3} s, {each:.1} µs each, {u} unexplained"
        );
    }
}
