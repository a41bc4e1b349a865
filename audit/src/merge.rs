//! `audit merge`: shard folders (each `shard-I-of-N` with its
//! `shard.json`) into the files one run over all inputs writes. Checks
//! that the shards are finished, agree on inputs, agents, parsers and
//! options, and cover every index of N exactly once; rows are ordered as
//! a single run orders them. Streams: memory holds one row per shard
//! and the aggregates, never the rows.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::aggregate::{Aggregator, Audit};
use crate::error::Error;
use crate::output::ensure_dir;
use crate::parquet_out::{HOSTS_PARQUET, HostSink};
use crate::row::Row;
use crate::run::{DONE, Fingerprint, write_reports};

/// The shard folders named by `dirs`: a folder with a `shard.json`, or
/// the `shard-*` folders inside one.
fn shard_dirs(dirs: &[PathBuf]) -> Result<Vec<PathBuf>, Error> {
    let mut out = Vec::new();
    for d in dirs {
        if d.join(DONE).is_file() {
            out.push(d.clone());
            continue;
        }
        let mut inner: Vec<PathBuf> = std::fs::read_dir(d)
            .map_err(|e| Error::merge(d, e.to_string()))?
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                p.is_dir()
                    && p.file_name().is_some_and(|n| {
                        n.to_string_lossy().starts_with("shard-")
                    })
            })
            .collect();
        inner.sort();
        if inner.is_empty() {
            return Err(Error::merge(
                d,
                "neither a finished shard (shard.json) nor a folder of shards",
            ));
        }
        for p in inner {
            if !p.join(DONE).is_file() {
                return Err(Error::merge(
                    &p,
                    "this shard has not finished (no shard.json): rerun it",
                ));
            }
            out.push(p);
        }
    }
    Ok(out)
}

/// One shard's `rows.jsonl`, read a line at a time.
struct Stream {
    path: PathBuf,
    lines: std::io::Lines<BufReader<File>>,
    line: usize,
}

/// A row's sort key.
type Key = (String, u8, usize);

/// A row, its sort key and its line as the shard wrote it.
type Head = (Key, String, Row);

impl Stream {
    fn open(path: PathBuf) -> Result<Stream, Error> {
        let f = File::open(&path)
            .map_err(|e| Error::merge(&path, e.to_string()))?;
        Ok(Stream { path, lines: BufReader::new(f).lines(), line: 0 })
    }

    /// The next row, `None` at the end.
    fn next(&mut self) -> Result<Option<Head>, Error> {
        for l in self.lines.by_ref() {
            self.line += 1;
            let l = l.map_err(|e| {
                Error::merge(&self.path, format!("line {}: {e}", self.line))
            })?;
            if l.trim().is_empty() {
                continue;
            }
            let row: Row = serde_json::from_str(&l).map_err(|e| {
                Error::merge(&self.path, format!("line {}: {e}", self.line))
            })?;
            return Ok(Some((row.key(), l, row)));
        }
        Ok(None)
    }
}

/// Checks the shard markers of `shards` and returns the common one.
fn check(shards: &[PathBuf], out: &Path) -> Result<Fingerprint, Error> {
    let mut first: Option<(PathBuf, Fingerprint)> = None;
    let mut seen: Vec<usize> = Vec::new();
    for d in shards {
        let f: Fingerprint = std::fs::read(d.join(DONE))
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .ok_or_else(|| {
                Error::merge(d.join(DONE), "unreadable shard marker")
            })?;
        if let Some((p, g)) = &first {
            if g.shard[1] != f.shard[1]
                || g.setup != f.setup
                || g.options != f.options
                || g.inputs != f.inputs
            {
                return Err(Error::merge(
                    d,
                    format!(
                        "ran with other shards, inputs, agents, parsers or options than {}",
                        p.display()
                    ),
                ));
            }
        } else {
            first = Some((d.clone(), f.clone()));
        }
        if seen.contains(&f.shard[0]) {
            return Err(Error::merge(
                d,
                format!("shard {} given twice", f.shard[0]),
            ));
        }
        seen.push(f.shard[0]);
    }
    let Some((_, f)) = first else {
        return Err(Error::Usage("no shard to merge".into()));
    };
    let missing: Vec<String> = (0..f.shard[1])
        .filter(|i| !seen.contains(i))
        .map(|i| i.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(Error::merge(
            out,
            format!(
                "shards missing: {} of {}",
                missing.join(", "),
                f.shard[1]
            ),
        ));
    }
    Ok(f)
}

/// Merges `dirs` into `out`, streaming: each shard's rows are already in
/// run order (input path, then record), so a k-way merge on the row key
/// yields one run's order while holding one row per shard; the
/// aggregates are summed as rows pass. With `parquet`, the host rows go
/// to `hosts.parquet` too.
pub fn merge(
    dirs: &[PathBuf],
    out: &Path,
    parquet: bool,
) -> Result<Audit, Error> {
    let shards = shard_dirs(dirs)?;
    let f = check(&shards, out)?;
    ensure_dir(out)?;
    let mut streams = shards
        .iter()
        .map(|d| Stream::open(d.join("rows.jsonl")))
        .collect::<Result<Vec<_>, _>>()?;
    // The heap orders (key, stream); `pending[i]` holds stream i's row.
    let mut heads: BinaryHeap<Reverse<(Key, usize)>> = BinaryHeap::new();
    let mut pending: Vec<Option<(String, Row)>> = Vec::new();
    for (i, s) in streams.iter_mut().enumerate() {
        pending.push(None);
        if let Some((key, line, row)) = s.next()? {
            heads.push(Reverse((key, i)));
            pending[i] = Some((line, row));
        }
    }
    let rows_path = out.join("rows.jsonl");
    let tmp = out.join("rows.jsonl.tmp");
    let mut sink =
        BufWriter::new(File::create(&tmp).map_err(|e| Error::write(&tmp, e))?);
    let mut hosts = match parquet {
        true => Some(HostSink::create(&out.join(HOSTS_PARQUET))?),
        false => None,
    };
    let mut agg = Aggregator::new(&f.setup);
    let mut last: Option<Key> = None;
    while let Some(Reverse((key, i))) = heads.pop() {
        let Some((line, row)) = pending[i].take() else { continue };
        if last.as_ref().is_some_and(|l| *l >= key) {
            return Err(Error::merge(
                &streams[i].path,
                format!(
                    "line {}: a row out of order or in two shards ({} record {})",
                    streams[i].line, key.0, key.2
                ),
            ));
        }
        agg.add(&row);
        if let (Some(p), Row::Host(h)) = (&mut hosts, &row) {
            p.add(h)?;
        }
        sink.write_all(line.as_bytes())
            .and_then(|()| sink.write_all(b"\n"))
            .map_err(|e| Error::write(&tmp, e))?;
        last = Some(key);
        if let Some((key, line, row)) = streams[i].next()? {
            heads.push(Reverse((key, i)));
            pending[i] = Some((line, row));
        }
    }
    sink.flush().map_err(|e| Error::write(&tmp, e))?;
    drop(sink);
    std::fs::rename(&tmp, &rows_path)
        .map_err(|e| Error::write(&rows_path, e))?;
    if let Some(p) = hosts {
        p.finish()?;
    }
    let audit = agg.finish();
    write_reports(out, &audit)?;
    Ok(audit)
}
