//! `serve_reader`: any bytes as the stdin of `robots-conformance serve`,
//! fed to `robots_adapters::serve::serve` (the loop the command runs)
//! with the oracle (`Reference`, rfc9309 for an even-length input,
//! google for an odd one) and a line limit of `MAX_LINE` bytes, so that
//! the too-long path is reached with small inputs.
//!
//! - Nothing may panic, and the session never ends early: every input
//!   line (`\n`-terminated, or a last line without one) gets exactly one
//!   answer line.
//! - Every answer is one line of valid JSON: an object whose `id` is the
//!   request's `id` (`null` when the line is not a JSON object with one,
//!   or is too long), with exactly one of `results`, `value`, `error`,
//!   `unsupported`, or else only hello fields.
//! - `results` answer a request whose `urls` is a list, one result per
//!   URL, each `{"verdict": "allowed"|"disallowed"}` or
//!   `{"error": text}`.

#![no_main]

use libfuzzer_sys::fuzz_target;
use robots_adapters::reference::Reference;
use serde_json::Value;

/// The line limit the target serves with (`serve` uses 128 MiB).
const MAX_LINE: usize = 2048;

const HELLO_FIELDS: [&str; 5] =
    ["id", "name", "version", "language", "profile"];
const ANSWERS: [&str; 4] = ["results", "value", "error", "unsupported"];

/// The input's lines as `serve` reads them: split at `\n`, a last line
/// without one counts, a `\r` before the `\n` is not part of the line.
/// `None` for a line over `MAX_LINE` bytes.
fn lines(data: &[u8]) -> Vec<Option<&[u8]>> {
    let mut out: Vec<&[u8]> = data.split(|&b| b == b'\n').collect();
    if out.last().is_some_and(|l| l.is_empty()) {
        out.pop();
    }
    let ended = |i: usize| i + 1 < out.len() || data.ends_with(b"\n");
    (0..out.len())
        .map(|i| {
            let l = out[i];
            // The limit is checked before the `\r` is dropped.
            if l.len() > MAX_LINE {
                return None;
            }
            Some(match l.strip_suffix(b"\r") {
                Some(s) if ended(i) => s,
                _ => l,
            })
        })
        .collect()
}

fn check(request: Option<&[u8]>, answer: &str) {
    let v: Value = serde_json::from_str(answer)
        .unwrap_or_else(|e| panic!("answer is not JSON ({e}): {answer:?}"));
    let Value::Object(m) = &v else {
        panic!("answer is not an object: {answer}")
    };
    let req: Option<Value> = request
        .and_then(|r| serde_json::from_str(&String::from_utf8_lossy(r)).ok());
    let id =
        req.as_ref().and_then(|r| r.get("id").cloned()).unwrap_or(Value::Null);
    assert_eq!(m.get("id"), Some(&id), "answer id: {answer}");
    let kinds: Vec<&&str> =
        ANSWERS.iter().filter(|k| m.contains_key(**k)).collect();
    match kinds.as_slice() {
        [] => assert!(
            m.keys().all(|k| HELLO_FIELDS.contains(&k.as_str())),
            "neither an answer nor a hello: {answer}"
        ),
        [_] => assert_eq!(m.len(), 2, "extra fields: {answer}"),
        _ => panic!("two kinds of answer: {answer}"),
    }
    if let Some(results) = m.get("results") {
        let Some(Value::Array(urls)) =
            req.as_ref().and_then(|r| r.get("urls"))
        else {
            // A missing `urls` is an empty list.
            assert_eq!(results, &Value::Array(vec![]), "{answer}");
            return;
        };
        let Value::Array(results) = results else {
            panic!("results is not a list: {answer}")
        };
        assert_eq!(results.len(), urls.len(), "one result per URL: {answer}");
        for r in results {
            let ok = match r.as_object() {
                Some(o) if o.len() == 1 => match o.iter().next() {
                    Some((k, Value::String(s))) if k == "verdict" => {
                        s == "allowed" || s == "disallowed"
                    }
                    Some((k, Value::String(_))) => k == "error",
                    _ => false,
                },
                _ => false,
            };
            assert!(ok, "bad result {r}: {answer}");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let profile =
        if data.len().is_multiple_of(2) { "rfc9309" } else { "google" };
    let mut oracle =
        Reference::for_profile(profile).expect("a built-in profile");
    let mut out = Vec::new();
    let mut input = data;
    robots_adapters::serve::serve(&mut oracle, &mut input, &mut out, MAX_LINE)
        .expect("reading a slice and writing a Vec cannot fail");
    let out = std::str::from_utf8(&out).expect("answers are UTF-8");
    let requests = lines(data);
    let answers: Vec<&str> = out.split_inclusive('\n').collect();
    assert_eq!(
        answers.len(),
        requests.len(),
        "{} answers to {} lines",
        answers.len(),
        requests.len()
    );
    for (request, answer) in requests.iter().zip(&answers) {
        let line = answer
            .strip_suffix('\n')
            .unwrap_or_else(|| panic!("no newline: {answer:?}"));
        assert!(!line.contains(['\n', '\r']), "two lines: {answer:?}");
        check(*request, line);
    }
});
