//! The access policy end to end, one test per clause family.

use std::sync::Arc;

use super::*;
use crate::profile::FIVE_HUNDRED_KIB;
use crate::{Profile, Verdict};

fn run(s: &Scenario, google: bool) -> Access {
    let p =
        if google { FetchProfile::google() } else { FetchProfile::rfc9309() };
    access(s, &p)
}

fn policy(s: &Scenario, google: bool) -> Policy {
    run(s, google).policy
}

#[test]
fn statuses() {
    for (status, rfc, g) in [
        (200, Policy::ParseBody, Policy::ParseBody),
        (204, Policy::ParseBody, Policy::ParseBody),
        (404, Policy::AllowAll, Policy::AllowAll),
        (403, Policy::AllowAll, Policy::AllowAll),
        (429, Policy::AllowAll, Policy::DisallowAll),
        (503, Policy::DisallowAll, Policy::DisallowAll),
        (199, Policy::DisallowAll, Policy::DisallowAll),
        (301, Policy::DisallowAll, Policy::DisallowAll),
    ] {
        let s = Scenario::single(Answer::status(status));
        assert_eq!(policy(&s, false), rfc, "{status} rfc");
        assert_eq!(policy(&s, true), g, "{status} google");
    }
}

#[test]
fn auth_errors_disallow_all_changes_401_and_403_only() {
    for google in [false, true] {
        let mut p = if google {
            FetchProfile::google()
        } else {
            FetchProfile::rfc9309()
        };
        let before: Vec<Policy> = (100..600)
            .map(|s| access(&Scenario::single(Answer::status(s)), &p).policy)
            .collect();
        p.auth_errors_disallow_all = true;
        for (i, status) in (100..600).enumerate() {
            let a = access(&Scenario::single(Answer::status(status)), &p);
            match status {
                401 | 403 => {
                    assert_eq!(before[i], Policy::AllowAll, "{status}");
                    assert_eq!(a.policy, Policy::DisallowAll, "{status}");
                }
                _ => assert_eq!(a.policy, before[i], "{status}"),
            }
        }
    }
}

fn chain(hops: usize) -> Scenario {
    let mut s = Scenario::single(Answer::redirect(301, "/r1"));
    for i in 1..hops {
        s.routes.push(Route {
            url: format!("http://example.com/r{i}"),
            answer: Answer::redirect(302, &format!("/r{}", i + 1)),
        });
    }
    s.routes.push(Route {
        url: format!("http://example.com/r{hops}"),
        answer: Answer::ok(b"User-agent: *\nDisallow: /\n"),
    });
    s
}

#[test]
fn redirects() {
    let a = run(&chain(5), false);
    assert_eq!(a.policy, Policy::ParseBody);
    assert_eq!(a.clause, "R2.3.1.2-3");
    assert_eq!(a.steps.len(), 6);
    let d = a.decide("x", "/p", &Profile::rfc9309()).unwrap();
    assert_eq!(d.verdict, Verdict::Disallowed);
    let a = run(&chain(6), true);
    assert_eq!((a.policy, a.clause), (Policy::AllowAll, "G-STATUS-2"));
    // A loop ends at the limit.
    let mut s = Scenario::single(Answer::redirect(301, "/b"));
    s.routes.push(Route {
        url: "http://example.com/b".into(),
        answer: Answer::redirect(301, "/robots.txt"),
    });
    assert_eq!(run(&s, false).steps.len(), 6);
}

#[test]
fn outages() {
    let mut s = Scenario::single(Answer::status(500));
    s.unreachable_for = 13 * HOUR;
    assert_eq!(policy(&s, true), Policy::AllowAll);
    assert_eq!(policy(&s, false), Policy::DisallowAll);
    s.cached = Some(Cached {
        body: Arc::from(&b"User-agent: *\nDisallow: /a\n"[..]),
        age: 2 * DAY,
        cache_control: None,
    });
    assert_eq!(policy(&s, true), Policy::UseCache);
    assert_eq!(policy(&s, false), Policy::UseCache);
    s.unreachable_for = 31 * DAY;
    assert_eq!(policy(&s, true), Policy::AllowAll);
    s.site_available = false;
    assert_eq!(policy(&s, true), Policy::DisallowAll);
    s.unreachable_for = HOUR;
    assert_eq!(policy(&s, true), Policy::DisallowAll);
}

#[test]
fn caching_and_max_age() {
    let mut s = Scenario::single(Answer::ok(b""));
    let cached = |age, cc: Option<&str>| Cached {
        body: Arc::from(&b""[..]),
        age,
        cache_control: cc.map(str::to_string),
    };
    s.cached = Some(cached(23 * HOUR, None));
    assert_eq!(policy(&s, false), Policy::UseCache);
    s.cached = Some(cached(DAY + 1, None));
    assert_eq!(policy(&s, false), Policy::ParseBody);
    s.cached = Some(cached(2 * HOUR, Some("max-age=3600")));
    assert_eq!(policy(&s, true), Policy::ParseBody);
    s.cached = Some(cached(30 * HOUR, Some("public, max-age=172800")));
    assert_eq!(policy(&s, true), Policy::UseCache);
    assert_eq!(policy(&s, false), Policy::ParseBody);
    s.cached = Some(cached(1, Some("no-store")));
    assert_eq!(policy(&s, true), Policy::ParseBody);
    s.cached = Some(cached(1, Some("max-age=99999999999999999999999")));
    assert_eq!(policy(&s, true), Policy::UseCache);
}

#[test]
fn body_limit_cuts() {
    let mut body = b"User-agent: *\n".to_vec();
    body.resize(FIVE_HUNDRED_KIB + 10, b'#');
    body.extend_from_slice(b"\nDisallow: /late\n");
    let a = run(&Scenario::single(Answer::ok(&body)), true);
    assert_eq!(a.body.as_ref().map(|b| b.len()), Some(FIVE_HUNDRED_KIB));
    assert_eq!(a.cut_from, Some(body.len()));
    let d = a.decide("x", "/late", &Profile::google()).unwrap();
    assert_eq!(d.verdict, Verdict::Allowed);
}

#[test]
fn unknown_routes_answer_404() {
    let mut s = Scenario::single(Answer::redirect(
        301,
        "http://other.example:8080/robots.txt",
    ));
    s.routes.push(Route {
        url: "http://other.example:8080/robots.txt".into(),
        answer: Answer::ok(b"User-agent: *\nDisallow: /\n"),
    });
    assert_eq!(s.answer("http://example.com/nope"), Answer::status(404));
    assert_eq!(policy(&s, false), Policy::ParseBody);
}

#[test]
fn citation_changes_the_clause_never_the_policy() {
    let mut cached_outage = Scenario::single(Answer::status(500));
    cached_outage.unreachable_for = 13 * HOUR;
    cached_outage.cached = Some(Cached {
        body: Arc::from(&b""[..]),
        age: 2 * DAY,
        cache_control: None,
    });
    let scenarios = [
        Scenario::single(Answer::status(404)),
        Scenario::single(Answer::status(503)),
        Scenario::single(Answer::ok(b"User-agent: *\n")),
        Scenario::single(Answer::Network(NetworkError::Timeout)),
        chain(5),
        chain(6),
        cached_outage,
    ];
    for base in [FetchProfile::rfc9309(), FetchProfile::google()] {
        for s in &scenarios {
            let mut rfc = base.clone();
            rfc.cites = Citation::Rfc9309;
            let mut google = base.clone();
            google.cites = Citation::Google;
            let (a, b) = (access(s, &rfc), access(s, &google));
            assert_eq!(a.policy, b.policy, "{s:?}");
            assert!(a.clause.starts_with('R'), "{}", a.clause);
            assert!(b.clause.starts_with('G'), "{}", b.clause);
        }
    }
}

fn gzipped(answer_body: &[u8]) -> Answer {
    use std::io::Write;
    let mut e = flate2::write::GzEncoder::new(
        Vec::new(),
        flate2::Compression::default(),
    );
    let _ = e.write_all(answer_body);
    let mut a = Answer::ok(&e.finish().unwrap_or_default());
    if let Answer::Response(r) = &mut a {
        r.headers.push(("Content-Encoding".into(), "gzip".into()));
    }
    a
}

#[test]
fn gzip_body_is_decoded_and_the_limit_counts_decoded_bytes() {
    let a = run(
        &Scenario::single(gzipped(b"User-agent: *\nDisallow: /x\n")),
        false,
    );
    assert_eq!(a.policy, Policy::ParseBody);
    assert!(a.reason.contains("gzip decoded"), "{}", a.reason);
    let d = a.decide("x", "/x", &Profile::rfc9309()).unwrap();
    assert_eq!(d.verdict, Verdict::Disallowed);
    let mut body = b"User-agent: *\n".to_vec();
    body.resize(FIVE_HUNDRED_KIB + 10, b'#');
    body.extend_from_slice(b"\nDisallow: /late\n");
    let a = run(&Scenario::single(gzipped(&body)), true);
    assert_eq!(a.body.as_ref().map(|b| b.len()), Some(FIVE_HUNDRED_KIB));
    assert_eq!(a.cut_from, Some(FIVE_HUNDRED_KIB + 1));
    let d = a.decide("x", "/late", &Profile::google()).unwrap();
    assert_eq!(d.verdict, Verdict::Allowed);
}

#[test]
fn an_undecodable_body_is_an_invalid_response() {
    let mut a = Answer::ok(b"User-agent: *\nAllow: /\n");
    if let Answer::Response(r) = &mut a {
        r.headers.push(("Content-Encoding".into(), "gzip".into()));
    }
    for google in [false, true] {
        let got = run(&Scenario::single(a.clone()), google);
        assert_eq!(got.policy, Policy::DisallowAll, "{got}");
        assert!(got.reason.contains("corrupt gzip"), "{}", got.reason);
    }
}
