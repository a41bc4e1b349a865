//! Which inputs an audit reads and in which form: each path is a WARC or
//! WARC.gz file, a `.tar.gz` corpus of robots.txt files, a folder of
//! them, or JSON lines; `-` stands for a list of such paths on standard
//! input, one a line. The form is told from the bytes (gzip magic,
//! `WARC/`, a tar header, `{`), not from the name. Reading never fails:
//! what cannot be read is the input's `stopped` reason.

use std::io::{BufRead, Read};
use std::path::Path;

use crate::capture::Input;
use crate::error::Error;
use crate::{corpus_input, warc_input};

/// Limits that keep reading bounded.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// A response body (or corpus file) larger than this is a bad record
    /// (`body-over-limit`) and is never held in memory.
    pub max_body: usize,
}

/// Expands `-` into the paths listed on `stdin`; other arguments are kept
/// as given, after [`check_named`] (a path that cannot be read is a usage
/// error before stdin is read). Blank lines are ignored.
pub fn expand(
    args: &[String],
    stdin: impl BufRead,
) -> Result<Vec<String>, Error> {
    let mut out = Vec::new();
    let mut stdin = Some(stdin);
    for a in args.iter().filter(|a| *a != "-") {
        check_named(a)?;
    }
    for a in args {
        if a == "-" {
            let Some(reader) = stdin.take() else {
                return Err(Error::Usage("`-` may be given once".into()));
            };
            for line in reader.lines() {
                let line = line.map_err(Error::Stdin)?;
                let line = line.trim();
                if !line.is_empty() {
                    out.push(line.to_string());
                }
            }
        } else {
            out.push(a.clone());
        }
    }
    Ok(out)
}

/// Checks that a path named on the command line can be read (a file
/// opened, a folder listed) before anything runs: a missing or unreadable
/// one is a usage error naming it. Paths listed on stdin (`-`) are not
/// checked here: what cannot be read among them is a counted error row,
/// as is every bad record inside a readable input.
pub fn check_named(path: &str) -> Result<(), Error> {
    let p = Path::new(path);
    let result = std::fs::metadata(p).and_then(|m| {
        if m.is_dir() {
            std::fs::read_dir(p).map(drop)
        } else {
            std::fs::File::open(p).map(drop)
        }
    });
    result.map_err(|e| {
        let glob = if path.contains(['*', '?', '[']) {
            " (a shell pattern that matched no file is passed on as written)"
        } else {
            ""
        };
        Error::Usage(format!("INPUT {path}: {e}{glob}"))
    })
}

/// Reads one input in whichever form it is.
pub fn read(path: &str, limits: Limits) -> Input {
    let p = Path::new(path);
    if p.is_dir() {
        return corpus_input::folder(p, limits);
    }
    let mut head = [0u8; 512];
    let got = match std::fs::File::open(p)
        .and_then(|mut f| read_up_to(&mut f, &mut head))
    {
        Ok(n) => n,
        Err(e) => {
            return Input::new("unknown").stop("unreadable", e.to_string());
        }
    };
    let head = &head[..got];
    if head.starts_with(&[0x1f, 0x8b]) {
        let mut inner = [0u8; 512];
        let inner_got = std::fs::File::open(p)
            .map(|f| {
                flate2::read::MultiGzDecoder::new(std::io::BufReader::new(f))
            })
            .and_then(|mut d| read_up_to(&mut d, &mut inner))
            .unwrap_or(0);
        let inner = &inner[..inner_got];
        if inner.starts_with(b"WARC/") {
            warc_input::read(p, true, limits)
        } else if inner.len() >= 262 && &inner[257..262] == b"ustar" {
            corpus_input::tar_gz(p, limits)
        } else {
            Input::new("unknown").stop(
                "unknown-format",
                "gzip data that is neither a WARC nor a tar archive",
            )
        }
    } else if head.starts_with(b"WARC/") {
        warc_input::read(p, false, limits)
    } else if head.trim_ascii_start().starts_with(b"{") || head.is_empty() {
        corpus_input::json_lines(p, limits)
    } else {
        Input::new("unknown").stop(
            "unknown-format",
            "not a WARC, WARC.gz, tar.gz, folder or JSON-lines file",
        )
    }
}

/// Reads until `buf` is full or the stream ends; errors only when
/// nothing at all could be read.
fn read_up_to(r: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if n == 0 => return Err(e),
            Err(_) => break,
        }
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dash_reads_paths_from_stdin() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.warc");
        std::fs::write(&a, b"").unwrap();
        let a = a.to_string_lossy().into_owned();
        let args = vec![a.clone(), "-".to_string()];
        // Paths listed on stdin are not checked: a missing one is a
        // counted error row of the run.
        let got = expand(&args, &b"b.warc.gz\n\n  c \n"[..]).unwrap();
        assert_eq!(got, [a.as_str(), "b.warc.gz", "c"]);
        let twice = vec!["-".to_string(), "-".to_string()];
        assert!(expand(&twice, &b""[..]).is_err());
    }

    #[test]
    fn a_named_input_that_does_not_exist_is_a_usage_error_naming_it() {
        let args =
            vec!["-".to_string(), "target/no-such/*.warc.gz".to_string()];
        let err = expand(&args, &b"never read\n"[..]).unwrap_err();
        assert!(matches!(err, Error::Usage(_)), "{err}");
        let text = err.to_string();
        assert!(text.contains("target/no-such/*.warc.gz"), "{text}");
        assert!(text.contains("shell pattern"), "{text}");
    }

    #[test]
    fn a_named_folder_is_accepted() {
        let dir = tempfile::tempdir().unwrap();
        let name = dir.path().to_string_lossy().into_owned();
        assert!(check_named(&name).is_ok());
        assert!(check_named(&format!("{name}/missing")).is_err());
    }

    #[test]
    fn a_missing_file_is_a_stopped_input() {
        let i = read("no/such/file.warc", Limits { max_body: 10 });
        assert_eq!(i.stopped.map(|s| s.0), Some("unreadable"));
    }
}
