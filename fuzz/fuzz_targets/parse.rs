//! `parse`: any bytes. The oracle must never panic, and no single call may
//! take long (a blow-up in the lexer, the pattern compiler or the matcher
//! shows up as a slow call long before it shows up as a hang). "Long" is
//! CPU time of this thread, not wall time: on a shared machine a niced
//! fuzzer waits for a core for more than a second (a false crash, seen:
//! "decide took 1.17 s" for a call of 20 ms).
//!
//! Input layout: `body [NUL agent NUL url]`. With at least two NUL bytes
//! the text after the last two is the agent and the URL (lossy UTF-8), so
//! the fuzzer can steer them; the body is parsed either way, under both
//! built-in profiles, and decided for a few fixed agents and URLs too.

#![no_main]

use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use robots_oracle::{
    Profile, RobotsTxt, is_valid_product_token, robots_txt_url,
};

/// Generous: one parse of a 4 KiB input or one decision takes
/// microseconds; a call this slow means super-linear behaviour.
const BOUND: Duration = Duration::from_secs(1);

/// The CPU time this thread has used.
fn thread_cpu() -> Duration {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a
    // constant Linux supports.
    let rc =
        unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

fn timed<T>(what: &str, input: &[u8], f: impl FnOnce() -> T) -> T {
    let start = thread_cpu();
    let out = f();
    let took = thread_cpu().saturating_sub(start);
    assert!(
        took < BOUND,
        "{what} took {took:?} of CPU on {} bytes",
        input.len()
    );
    out
}

/// The body, and the agent and URL when the input carries them.
fn split(data: &[u8]) -> (&[u8], Option<(String, String)>) {
    let mut parts = data.rsplitn(3, |&b| b == 0);
    let (Some(url), Some(agent), Some(body)) =
        (parts.next(), parts.next(), parts.next())
    else {
        return (data, None);
    };
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (body, Some((text(agent), text(url))))
}

const AGENTS: [&str; 3] = ["FooBot", "googlebot", ""];
const URLS: [&str; 4] =
    ["/", "/robots.txt", "https://example.com/a%2Fb?q=*$", "/ツ/%e3%83%84"];

fuzz_target!(|data: &[u8]| {
    let (body, steered) = split(data);
    for profile in [Profile::rfc9309(), Profile::google()] {
        let robots = timed("parse", data, || RobotsTxt::parse(body, &profile));
        // Everything derived from the parse must be usable.
        for d in robots.diagnostics() {
            std::hint::black_box(d.to_string());
        }
        let _ = robots.sitemaps().count();
        let _ = robots.crawl_delay("FooBot");
        let mut pairs: Vec<(&str, &str)> = Vec::new();
        for agent in AGENTS {
            for url in URLS {
                pairs.push((agent, url));
            }
        }
        if let Some((agent, url)) = &steered {
            pairs.extend([
                (agent.as_str(), url.as_str()),
                ("FooBot", url.as_str()),
                (agent.as_str(), "/"),
            ]);
        }
        for (agent, url) in pairs {
            let d = timed("decide", data, || robots.decide(agent, url));
            if let Ok(d) = d {
                // The explanation renders for every decision.
                let _ = d.to_string();
            }
        }
    }
    if let Some((agent, url)) = &steered {
        let _ = is_valid_product_token(agent);
        let _ = robots_txt_url(url);
    }
});
