//! Matching stays polynomial on hostile input: no backtracking. The time
//! bound is deliberately generous (shared 2-core machines); the benchmark
//! `cargo bench --bench hostile` measures it properly.

use std::time::{Duration, Instant};

use robots_oracle::{Profile, RobotsTxt};

#[test]
fn a_500_kib_file_of_star_patterns_against_an_8_kib_path() {
    let mut body = String::from("User-agent: *\n");
    let mut i = 0;
    while body.len() < 500 * 1024 - 200 {
        body.push_str(&format!(
            "Disallow: /*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b{i}\n"
        ));
        i += 1;
    }
    let path = format!("/{}", "a".repeat(8 * 1024));
    for profile in [Profile::rfc9309(), Profile::google()] {
        let robots = RobotsTxt::parse(body.as_bytes(), &profile);
        let start = Instant::now();
        let d = robots.decide("FooBot", &path).unwrap();
        let took = start.elapsed();
        assert!(d.is_allowed());
        assert!(took < Duration::from_secs(5), "took {took:?}");
    }
}

#[test]
fn thousands_of_stars_in_one_pattern() {
    let body = format!("User-agent: *\nDisallow: /{}b\n", "*".repeat(20_000));
    let robots = RobotsTxt::parse(body.as_bytes(), &Profile::rfc9309());
    let start = Instant::now();
    assert!(robots.is_allowed("x", &format!("/{}", "a".repeat(20_000))));
    assert!(!robots.is_allowed("x", &format!("/{}b", "a".repeat(20_000))));
    assert!(start.elapsed() < Duration::from_secs(5));
}
