//! Writing WARC records (the `warc` crate's writer), for `audit
//! make-warc` (a WARC.gz from a corpus, as Common Crawl publishes
//! robots.txt captures: one gzip member per record) and for tests that
//! build archives with synthetic records. Never writes the corpus
//! anywhere but the path it is given.

use std::collections::HashMap;
use std::io::Write;

use warc::{RawRecordHeader, WarcHeader, WarcWriter};

use crate::capture::Event;
use crate::error::Error;
use crate::input::{self, Limits};

/// Record dates are fixed, so a WARC made twice from one corpus says the
/// same.
pub const DATE: &str = "2026-01-01T00:00:00Z";

/// The bytes of an HTTP/1.1 response with `status`, `headers` and `body`
/// (a `Content-Length` is added unless `headers` has one).
pub fn http_response(
    status: u16,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Vec<u8> {
    let mut out = format!("HTTP/1.1 {status} X\r\n").into_bytes();
    for (k, v) in headers {
        out.extend_from_slice(format!("{k}: {v}\r\n").as_bytes());
    }
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("content-length")) {
        out.extend_from_slice(
            format!("Content-Length: {}\r\n", body.len()).as_bytes(),
        );
    }
    out.extend_from_slice(b"\r\n");
    out.extend_from_slice(body);
    out
}

/// One uncompressed WARC record of type `kind` (`response`, `request`,
/// `warcinfo`, ...) about `url`, numbered `n` (for its record id).
pub fn record(kind: &str, url: &str, n: usize, payload: &[u8]) -> Vec<u8> {
    record_with(kind, url, n, payload, &[])
}

/// [`record`] with `extra` WARC headers (`WARC-Truncated: length`).
pub fn record_with(
    kind: &str,
    url: &str,
    n: usize,
    payload: &[u8],
    extra: &[(&str, &str)],
) -> Vec<u8> {
    let mut headers: HashMap<WarcHeader, Vec<u8>> = HashMap::new();
    for (k, v) in extra {
        headers.insert(WarcHeader::from(*k), v.as_bytes().to_vec());
    }
    headers.insert(WarcHeader::WarcType, kind.into());
    headers.insert(
        WarcHeader::RecordID,
        format!("<urn:uuid:00000000-0000-4000-8000-{n:012}>").into(),
    );
    headers.insert(WarcHeader::Date, DATE.into());
    headers.insert(WarcHeader::TargetURI, url.into());
    let content_type = match kind {
        "response" => "application/http; msgtype=response",
        "request" => "application/http; msgtype=request",
        _ => "application/warc-fields",
    };
    headers.insert(WarcHeader::ContentType, content_type.into());
    headers
        .insert(WarcHeader::ContentLength, payload.len().to_string().into());
    let mut out = Vec::new();
    // OK: writing to a Vec cannot fail.
    WarcWriter::new(&mut out)
        .write_raw(
            RawRecordHeader { version: "1.0".into(), headers },
            &payload,
        )
        .expect("write to memory");
    out
}

/// `bytes` as one gzip member.
pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(
        Vec::new(),
        flate2::Compression::default(),
    );
    // OK: writing to a Vec cannot fail.
    gz.write_all(bytes).expect("write to memory");
    gz.finish().expect("write to memory")
}

/// Writes the captures of `corpus` (any input form) as WARC.gz: into
/// `out`, or into `split` files `STEM-00000.warc.gz`... beside it; with
/// `ai_lines` > 0, every `ai_lines`-th 200 response carries synthetic AI
/// preference lines ([`crate::ai_synth`]). Returns the files written and
/// the records in them.
pub fn make(
    corpus: &str,
    out: &std::path::Path,
    split: usize,
    ai_lines: usize,
) -> Result<(Vec<std::path::PathBuf>, usize), Error> {
    let read = input::read(corpus, Limits { max_body: usize::MAX / 4 });
    if let Some((kind, detail)) = &read.stopped {
        return Err(Error::Usage(format!("{corpus}: {kind}: {detail}")));
    }
    make_from(&read, out, split, ai_lines)
}

/// [`make`] from captures already read (see
/// [`crate::corpus_input::files`] for files in memory).
pub fn make_from(
    read: &crate::capture::Input,
    out: &std::path::Path,
    split: usize,
    ai_lines: usize,
) -> Result<(Vec<std::path::PathBuf>, usize), Error> {
    let split = split.max(1);
    let mut files: Vec<Vec<u8>> = vec![Vec::new(); split];
    let mut records = 0;
    let mut oks = 0;
    for e in &read.events {
        let Event::Capture {
            url,
            answer: robots_oracle::fetch::Answer::Response(r),
            ..
        } = e
        else {
            continue;
        };
        let mut headers: Vec<(&str, &str)> =
            r.headers.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        let coded = headers
            .iter()
            .any(|(k, _)| k.eq_ignore_ascii_case("content-encoding"));
        let added = match r.status {
            200 if !coded => {
                oks += 1;
                crate::ai_synth::add(&r.body, oks - 1, ai_lines)
            }
            _ => None,
        };
        if added.is_some() {
            headers.retain(|(k, _)| !k.eq_ignore_ascii_case("content-length"));
        }
        let body = added.as_deref().unwrap_or(&r.body);
        let http = http_response(r.status, &headers, body);
        files[records % split]
            .extend(gzip(&record("response", url, records, &http)));
        records += 1;
    }
    let paths: Vec<std::path::PathBuf> = if split == 1 {
        vec![out.to_path_buf()]
    } else {
        let name = out
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let stem = name.strip_suffix(".warc.gz").unwrap_or(&name).to_string();
        (0..split)
            .map(|i| out.with_file_name(format!("{stem}-{i:05}.warc.gz")))
            .collect()
    };
    for (p, bytes) in paths.iter().zip(&files) {
        if let Some(dir) = p.parent().filter(|d| !d.as_os_str().is_empty()) {
            crate::output::ensure_dir(dir)?;
        }
        crate::output::write_atomic(p, bytes)?;
    }
    Ok((paths, records))
}
