//! The non-WARC forms: a `.tar.gz` corpus (the shared corpus's form; the
//! harness's `corpus` module reads the same, this reading is bounded and
//! counts bad entries instead of failing), a folder of files, and JSON
//! lines, and files already in memory ([`files`]). Each file is one
//! host's robots.txt as served with status 200;
//! the host is the file's name. Never fails: what cannot be read stops
//! the input with its reason.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use robots_oracle::fetch::Answer;
use serde::Deserialize;

use crate::capture::Input;
use crate::input::Limits;

/// The robots.txt URL of a host named `name`: its last `/`-separated
/// component is the host (a name that is already a URL is kept).
pub fn url_for(name: &str) -> String {
    if name.contains("://") {
        name.to_string()
    } else {
        let host =
            name.trim_end_matches('/').rsplit('/').next().unwrap_or(name);
        format!("http://{host}/robots.txt")
    }
}

fn add(
    input: &mut Input,
    name: &str,
    status: u16,
    body: Vec<u8>,
    limits: Limits,
) {
    if body.len() > limits.max_body {
        input.bad(
            "body-over-limit",
            format!(
                "{name}: a {}-byte body, over the {}-byte limit",
                body.len(),
                limits.max_body
            ),
        );
        return;
    }
    let answer = match status {
        200 => Answer::ok(&body),
        s => match Answer::status(s) {
            Answer::Response(mut r) => {
                r.body = body.into();
                Answer::Response(r)
            }
            other => other,
        },
    };
    input.capture(url_for(name), answer);
}

/// Reads one bounded entry body; `None` when it is over the limit (the
/// rest is not read).
fn bounded(r: impl Read, limits: Limits) -> std::io::Result<Option<Vec<u8>>> {
    let mut body = Vec::new();
    r.take(limits.max_body as u64 + 1).read_to_end(&mut body)?;
    Ok((body.len() <= limits.max_body).then_some(body))
}

/// A `.tar.gz` archive: the first path component is dropped
/// (`real-robots/go.com` → `go.com`).
pub fn tar_gz(path: &Path, limits: Limits) -> Input {
    let mut input = Input::new("tar.gz");
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) => return input.stop("unreadable", e.to_string()),
    };
    let mut archive =
        tar::Archive::new(flate2::read::GzDecoder::new(BufReader::new(file)));
    let entries = match archive.entries() {
        Ok(e) => e,
        Err(e) => return input.stop("truncated-gzip", e.to_string()),
    };
    for entry in entries {
        let mut entry = match entry {
            Ok(e) => e,
            Err(e) => return input.stop("truncated-gzip", e.to_string()),
        };
        if !entry.header().entry_type().is_file() {
            input.skip("tar-non-file");
            continue;
        }
        let name = entry
            .path()
            .map(|p| {
                let parts: Vec<_> = p
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                if parts.len() > 1 {
                    parts[1..].join("/")
                } else {
                    parts.join("/")
                }
            })
            .unwrap_or_default();
        match bounded(&mut entry, limits) {
            Ok(Some(body)) => add(&mut input, &name, 200, body, limits),
            Ok(None) => input.bad(
                "body-over-limit",
                format!("{name}: over the {}-byte limit", limits.max_body),
            ),
            Err(e) => return input.stop("truncated-gzip", e.to_string()),
        }
    }
    input
}

/// A folder: every regular file below it, in name order, named by its
/// path relative to the folder.
pub fn folder(dir: &Path, limits: Limits) -> Input {
    let mut input = Input::new("folder");
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(read) = std::fs::read_dir(&d) else {
            input.bad("unreadable", format!("{}: cannot list", d.display()));
            continue;
        };
        for e in read.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.is_file() {
                files.push(p);
            }
        }
    }
    files.sort();
    for f in files {
        let name = f
            .strip_prefix(dir)
            .map(|r| r.to_string_lossy().replace('\\', "/"))
            .unwrap_or_default();
        match std::fs::File::open(&f).and_then(|h| bounded(h, limits)) {
            Ok(Some(body)) => add(&mut input, &name, 200, body, limits),
            Ok(None) => input.bad(
                "body-over-limit",
                format!("{name}: over the {}-byte limit", limits.max_body),
            ),
            Err(e) => input.bad("unreadable", format!("{name}: {e}")),
        }
    }
    input
}

/// Files already in memory, each a host's name and its robots.txt as
/// served with status 200, in the order given (the embedded sample
/// corpus: `audit make-warc` without a corpus, and `bench`).
pub fn files(files: &[(String, Vec<u8>)], limits: Limits) -> Input {
    let mut input = Input::new("files");
    for (name, body) in files {
        add(&mut input, name, 200, body.clone(), limits);
    }
    input
}

/// One JSON line: `{"host": "example.com", "body": "User-agent: ...",
/// "status": 200}` (`url` may replace `host`; `status` defaults to 200).
#[derive(Deserialize)]
struct Line {
    host: Option<String>,
    url: Option<String>,
    #[serde(default)]
    body: String,
    status: Option<u16>,
}

/// A JSON-lines file, one host a line; a line that is not such an
/// object is a bad record.
pub fn json_lines(path: &Path, limits: Limits) -> Input {
    let mut input = Input::new("jsonl");
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) => return input.stop("unreadable", e.to_string()),
    };
    let mut reader = BufReader::new(file);
    let mut line = Vec::new();
    loop {
        line.clear();
        let got = (&mut reader)
            .take(limits.max_body as u64 * 2 + 4096)
            .read_until(b'\n', &mut line);
        match got {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => return input.stop("unreadable", e.to_string()),
        }
        if !line.ends_with(b"\n")
            && line.len() as u64 >= limits.max_body as u64 * 2 + 4096
        {
            return input
                .stop("body-over-limit", "a JSON line longer than the limit");
        }
        if line.trim_ascii().is_empty() {
            continue;
        }
        match serde_json::from_slice::<Line>(&line) {
            Ok(Line { host: Some(name), body, status, .. })
            | Ok(Line { url: Some(name), body, status, .. }) => add(
                &mut input,
                &name,
                status.unwrap_or(200),
                body.into_bytes(),
                limits,
            ),
            Ok(_) => {
                input.bad("bad-json-line", "a line with neither host nor url")
            }
            Err(e) => input.bad("bad-json-line", e.to_string()),
        }
    }
    input
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::Event;

    const LIMITS: Limits = Limits { max_body: 16 };

    fn summary(i: &Input) -> Vec<String> {
        i.events
            .iter()
            .map(|e| match e {
                Event::Capture { url, .. } => format!("capture {url}"),
                Event::Skipped { kind, .. } => format!("skipped {kind}"),
                Event::Bad { kind, .. } => format!("bad {kind}"),
            })
            .collect()
    }

    #[test]
    fn json_lines_count_bad_lines_and_big_bodies() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("in.jsonl");
        std::fs::write(
            &p,
            "{\"host\": \"a.example\", \"body\": \"Disallow: /\"}\n\nnot json\n\
             {\"url\": \"https://b.example/robots.txt\", \"status\": 404}\n\
             {\"host\": \"c.example\", \"body\": \"01234567890123456789\"}\n{}\n",
        )
        .unwrap();
        assert_eq!(
            summary(&json_lines(&p, LIMITS)),
            [
                "capture http://a.example/robots.txt",
                "bad bad-json-line",
                "capture https://b.example/robots.txt",
                "bad body-over-limit",
                "bad bad-json-line",
            ]
        );
    }

    #[test]
    fn folders_are_read_in_name_order() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("b.example"), "User-agent: *").unwrap();
        std::fs::write(dir.path().join("sub/a.example"), "").unwrap();
        std::fs::write(dir.path().join("big.example"), [b'#'; 17]).unwrap();
        assert_eq!(
            summary(&folder(dir.path(), LIMITS)),
            [
                "capture http://b.example/robots.txt",
                "bad body-over-limit",
                "capture http://a.example/robots.txt",
            ]
        );
    }
}
