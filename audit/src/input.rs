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
/// as given. Blank lines are ignored.
pub fn expand(
    args: &[String],
    stdin: impl BufRead,
) -> Result<Vec<String>, Error> {
    let mut out = Vec::new();
    let mut stdin = Some(stdin);
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
        let args = vec!["a.warc".to_string(), "-".to_string()];
        let got = expand(&args, &b"b.warc.gz\n\n  c \n"[..]).unwrap();
        assert_eq!(got, ["a.warc", "b.warc.gz", "c"]);
        let twice = vec!["-".to_string(), "-".to_string()];
        assert!(expand(&twice, &b""[..]).is_err());
    }

    #[test]
    fn a_missing_file_is_a_stopped_input() {
        let i = read("no/such/file.warc", Limits { max_body: 10 });
        assert_eq!(i.stopped.map(|s| s.0), Some("unreadable"));
    }
}
