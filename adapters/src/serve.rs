//! The server side of the adapter protocol (adapters/PROTOCOL.md): request
//! lines in, one answer line out per request line, from any [`Adapter`]
//! (the oracle for `robots-conformance serve`).
//!
//! [`serve`] is the whole loop (what the `serve` command runs on stdin and
//! stdout, and what the `serve_reader` fuzz target runs on its bytes);
//! [`answer_line`] answers one line. A bad line (not UTF-8, too long, not
//! JSON, malformed fields) gets an error answer, never the end of the
//! session; a URL that is neither absolute nor a path from `/` is answered
//! an error in its own result slot.
//!
//! This module must never end a session on a bad line, never answer a
//! line with anything but one line of JSON, and never hold more than one
//! request line (at most `max_line` bytes) in memory.

use std::io::{BufRead, Write};

use serde_json::Value;

use crate::pipes::{self, TooLong};
use crate::wire::{self, Call, Hello, WireError};
use crate::{Adapter, Live, Reply, Request};

/// The requests a call stands for (one per URL for decide and fetch).
fn requests(call: Call) -> Vec<Request> {
    match call {
        Call::Hello => Vec::new(),
        Call::Decide { robots, agent, urls } => urls
            .into_iter()
            .map(|url| Request::Decide {
                robots: robots.clone(),
                agent: agent.clone(),
                url,
            })
            .collect(),
        Call::Fetch { robots_url, agent, urls, timeout } => urls
            .into_iter()
            .map(|url| {
                let live =
                    Live { robots_url: robots_url.clone(), url, timeout };
                Request::live_fetch(live, agent.clone())
            })
            .collect(),
        Call::Sitemaps { robots } => vec![Request::Sitemaps { robots }],
        Call::CrawlDelay { robots, agent } => {
            vec![Request::CrawlDelay { robots, agent }]
        }
        Call::Usage { robots, agent, url } => {
            vec![Request::Usage { robots, agent, url }]
        }
        Call::ContentSignal { robots, agent } => {
            vec![Request::ContentSignal { robots, agent }]
        }
        Call::ValidToken { token } => vec![Request::ValidToken { token }],
        Call::RobotsUrl { url } => vec![Request::RobotsUrl { url }],
        Call::Governs { robots_url, url } => {
            vec![Request::Governs { robots_url, url }]
        }
    }
}

/// The answer line to a line that cannot be read as text: the error,
/// with the line's id if one can be made out.
fn refuse(line: &[u8], e: &WireError) -> String {
    let (id, _) = Call::decode(&String::from_utf8_lossy(line));
    wire::encode_failure(&id, e)
}

/// The replies to a decide or fetch call whose URLs include some the
/// protocol does not carry: those are errors, the others are asked.
fn answer_some(
    adapter: &mut dyn Adapter,
    call: &Call,
    errors: Vec<Option<String>>,
) -> Vec<Reply> {
    let good: Vec<usize> =
        (0..errors.len()).filter(|&i| errors[i].is_none()).collect();
    let asked: Vec<Request> =
        good.iter().flat_map(|&i| requests(call.only(i))).collect();
    let mut answers = adapter.answer_batch(&asked).into_iter();
    errors
        .into_iter()
        .map(|e| match e {
            Some(message) => Reply::Error { message },
            None => answers.next().unwrap_or(Reply::ProtocolError {
                message: "no answer".into(),
            }),
        })
        .collect()
}

/// The answer line to one text request line.
fn answer(adapter: &mut dyn Adapter, line: &str) -> String {
    let (id, call) = Call::decode(line);
    let call = match call {
        Ok(c) => c,
        Err(e) => return wire::encode_failure(&id, &e),
    };
    let op = call.op();
    if call == Call::Hello {
        let info = adapter.info();
        let hello = Hello {
            name: Some(info.name),
            version: Some(info.version),
            language: Some(info.language),
            profile: Some(info.profile),
        };
        return hello.encode(&id);
    }
    let library_urls = adapter.info().capabilities.library_urls;
    let errors: Vec<Option<String>> = call
        .urls()
        .iter()
        .map(|u| wire::url_error_for(u, library_urls))
        .collect();
    let replies = if errors.iter().any(Option::is_some) {
        answer_some(adapter, &call, errors)
    } else {
        adapter.answer_batch(&requests(call))
    };
    wire::encode_answer(&id, op, &replies)
}

/// The answer line (with its newline) to one request line as
/// [`pipes::next_line`] hands it over: its bytes (line end removed), or
/// [`TooLong`] for a line over `max_line` bytes.
pub fn answer_line(
    adapter: &mut dyn Adapter,
    line: Result<&[u8], TooLong>,
    max_line: usize,
) -> String {
    match line {
        Ok(bytes) => match std::str::from_utf8(bytes) {
            Ok(text) => answer(adapter, text),
            Err(_) => refuse(bytes, &WireError::NotUtf8),
        },
        Err(TooLong) => {
            wire::encode_failure(&Value::Null, &WireError::TooLong(max_line))
        }
    }
}

/// Answers every request line of `input` on `out` (flushed after each
/// answer), until the end of `input`. A line over `max_line` bytes is
/// skipped unread and answered an error. Only I/O errors end it early.
pub fn serve<R: BufRead, W: Write>(
    adapter: &mut dyn Adapter,
    input: &mut R,
    out: &mut W,
    max_line: usize,
) -> std::io::Result<()> {
    while let Some(line) = pipes::next_line(input, max_line)? {
        if line.is_err() {
            pipes::skip_line(input)?;
        }
        let line = line.as_deref().map_err(|TooLong| TooLong);
        let answer = answer_line(adapter, line, max_line);
        out.write_all(answer.as_bytes())?;
        out.flush()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::Reference;

    fn session(input: &[u8], max_line: usize) -> Vec<Value> {
        let mut oracle = Reference::for_profile("rfc9309").unwrap();
        let mut out = Vec::new();
        serve(&mut oracle, &mut &input[..], &mut out, max_line).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    /// Every line gets one answer: a good one, a non-UTF-8 one (its id
    /// still found), a too-long one (id unknown), and a last line without
    /// newline.
    #[test]
    fn one_answer_per_line_whatever_the_line() {
        let mut input =
            b"{\"id\":1,\"op\":\"valid-token\",\"token\":\"a\"}\n".to_vec();
        input.extend_from_slice(b"{\"id\":2,\"op\":\"x\xff\"}\n");
        input.extend_from_slice(&[b'a'; 100]);
        input.extend_from_slice(b"\n{\"id\":4,\"op\":\"hello\"}");
        let answers = session(&input, 64);
        assert_eq!(answers.len(), 4, "{answers:?}");
        assert_eq!(answers[0]["value"], Value::Bool(true));
        assert_eq!(answers[1]["id"], 2);
        assert!(answers[1]["error"].is_string());
        assert_eq!(answers[2]["id"], Value::Null);
        assert!(answers[2]["error"].as_str().unwrap().contains("64"));
        assert_eq!(answers[3]["id"], 4);
        assert!(answers[3]["name"].is_string());
    }

    /// Regression (serve_reader fuzz target): the id 118446744073709551616
    /// (past u64, read as a float) came back as 1.1844674407370955e20, a
    /// different number; the id must be echoed as the number it is.
    #[test]
    fn an_id_past_u64_or_with_a_fraction_is_echoed_as_the_same_number() {
        for id in ["118446744073709551616", "0.30000000000000004", "-7.5e-300"]
        {
            let line = format!(
                "{{\"id\":{id},\"op\":\"sitemaps\",\"robots\":\"\"}}\n"
            );
            let answers = session(line.as_bytes(), 1024);
            let sent: f64 = id.parse().unwrap();
            assert_eq!(answers[0]["id"].as_f64(), Some(sent), "{id}");
        }
    }
}
