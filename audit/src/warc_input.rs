//! Reading WARC and WARC.gz files (the `warc` crate; gzip members through
//! `flate2`): every record becomes one [`Event`](crate::capture::Event).
//! `response` records are captures (the HTTP status, headers and body of
//! a fetch); other types are skipped and counted; a record whose WARC
//! header is invalid, whose payload is not HTTP or is larger than the
//! limit is a bad record; a stream cut short (truncated gzip, a record
//! shorter than its `Content-Length`, `truncated-record`) stops the
//! input with its reason.
//! A body over the limit is skipped unread, never buffered.
//!
//! A `response` record marked `WARC-Truncated` (the archiver stopped
//! capturing: `length`, `time`, `disconnect`) is counted by reason and
//! its body is used as captured ([`http::Capture::Truncated`]): what the
//! crawler that made the archive received. The oracle's fetch model then
//! treats it as any other response: a 2xx body is parsed as far as it
//! goes (a rule line cut mid-way is read as what it says), and a cut
//! `Content-Encoding` stream is a corrupt coding, i.e. an invalid
//! response, unreachable (R2.3.1.4-1 / G-STATUS-7).

use std::io::{BufReader, Read};
use std::path::Path;

use warc::{RecordType, WarcHeader, WarcReader};

use crate::capture::Input;
use crate::http;
use crate::input::Limits;

/// Bytes allowed beyond the body limit for the HTTP header block.
const HEAD_ALLOWANCE: u64 = 64 * 1024;

/// Reads the WARC file at `path` (gzip-compressed when `gz`).
pub fn read(path: &Path, gz: bool, limits: Limits) -> Input {
    let format = if gz { "warc.gz" } else { "warc" };
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) => return Input::new(format).stop("unreadable", e.to_string()),
    };
    if gz {
        let decoder = flate2::read::MultiGzDecoder::new(BufReader::new(file));
        records(BufReader::new(decoder), Input::new(format), limits, true)
    } else {
        records(BufReader::new(file), Input::new(format), limits, false)
    }
}

/// Reads every record of a WARC stream into `input`.
pub fn records(
    reader: impl std::io::BufRead,
    mut input: Input,
    limits: Limits,
    gz: bool,
) -> Input {
    let mut reader = WarcReader::new(reader);
    let mut stream = reader.stream_records();
    let cut = "truncated-record";
    let read_error = if gz { "truncated-gzip" } else { "read-error" };
    while let Some(item) = stream.next_item() {
        let mut record = match item {
            Ok(r) => r,
            Err(warc::Error::MissingHeader(h)) => {
                input.bad(
                    "bad-warc-header",
                    format!("missing WARC header {h}"),
                );
                continue;
            }
            Err(warc::Error::MalformedHeader(h, why)) => {
                input.bad(
                    "bad-warc-header",
                    format!("malformed WARC header {h}: {why}"),
                );
                continue;
            }
            Err(warc::Error::ReadData(e)) => {
                return input.stop(read_error, e.to_string());
            }
            Err(warc::Error::UnexpectedEOB) => {
                return input.stop(cut, "the stream ends inside a record");
            }
            Err(e) => return input.stop("bad-warc", e.to_string()),
        };
        if *record.warc_type() != RecordType::Response {
            input.skip(record.warc_type().to_string());
            continue;
        }
        let Some(url) =
            record.header(WarcHeader::TargetURI).map(|u| u.into_owned())
        else {
            input.bad(
                "bad-warc-header",
                "a response record without WARC-Target-URI",
            );
            continue;
        };
        let truncated =
            record.header(WarcHeader::Truncated).map(|r| r.into_owned());
        if let Some(reason) = &truncated {
            input.mark_truncated(reason);
        }
        let how = match truncated {
            Some(_) => http::Capture::Truncated,
            None => http::Capture::Whole,
        };
        let length = record.content_length();
        if length > limits.max_body as u64 + HEAD_ALLOWANCE {
            input.bad(
                "body-over-limit",
                format!(
                    "{url}: a {length}-byte record, over the {}-byte limit",
                    limits.max_body
                ),
            );
            continue;
        }
        let mut bytes = Vec::with_capacity(length as usize);
        if let Err(e) = (&mut record).take(length).read_to_end(&mut bytes) {
            return input.stop(read_error, e.to_string());
        }
        if (bytes.len() as u64) < length {
            return input.stop(
                cut,
                format!(
                    "{url}: the record has {} of its {length} bytes",
                    bytes.len()
                ),
            );
        }
        match http::parse_captured(&bytes, how) {
            Ok(answer) => {
                if let robots_oracle::fetch::Answer::Response(r) = &answer
                    && r.body.len() > limits.max_body
                {
                    input.bad(
                        "body-over-limit",
                        format!(
                            "{url}: a {}-byte body, over the {}-byte limit",
                            r.body.len(),
                            limits.max_body
                        ),
                    );
                    continue;
                }
                input.capture(url, answer);
            }
            Err(http::NotHttp(why)) => {
                input.bad("not-http", format!("{url}: {why}"))
            }
        }
    }
    input
}
