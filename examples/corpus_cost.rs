//! Parse + decide over a folder of robots.txt files (for callgrind):
//! `corpus_cost DIR [N]`, the first N files in name order; prints a
//! checksum of the verdicts so two builds can be shown to agree. Every
//! decision path is taken: `is_allowed`, `decide` (explained),
//! `parse_for` and `check_once` (one pass, nothing kept).
use robots_oracle::{Profile, RobotsTxt};
fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args.next().expect("DIR");
    let n: usize =
        args.next().and_then(|s| s.parse().ok()).unwrap_or(usize::MAX);
    let mut files: Vec<_> = walk(std::path::Path::new(&dir));
    files.sort();
    files.truncate(n);
    let bodies: Vec<Vec<u8>> =
        files.iter().map(|f| std::fs::read(f).unwrap()).collect();
    let urls = ["/", "/search?q=1", "/wp-admin/x", "/a/b/c.html", "/private/"];
    let mut sum = 0u64;
    for body in &bodies {
        for p in [Profile::rfc9309(), Profile::google()] {
            let r = RobotsTxt::parse(body, &p);
            for (i, u) in urls.iter().enumerate() {
                for agent in ["Googlebot", "GPTBot"] {
                    if r.is_allowed(agent, u) {
                        sum = sum.wrapping_mul(31).wrapping_add(i as u64 + 1);
                    }
                }
                if let Ok(d) = r.decide("Googlebot", u) {
                    sum = sum.wrapping_add(d.candidates.len() as u64);
                }
                if RobotsTxt::check_once(body, &p, "Bingbot", u) {
                    sum = sum.wrapping_mul(7).wrapping_add(i as u64 + 1);
                }
            }
            let mine = RobotsTxt::parse_for(body, &p, "GPTBot");
            for (i, u) in urls.iter().enumerate() {
                if mine.is_allowed(u) {
                    sum = sum.wrapping_mul(13).wrapping_add(i as u64 + 1);
                }
            }
        }
    }
    println!("{} files, checksum {sum}", bodies.len());
}
fn walk(d: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(d).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}
