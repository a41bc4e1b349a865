//! `audit merge`: shard folders (each `shard-I-of-N` with its
//! `shard.json`) into the files one run over all inputs writes. Checks
//! that the shards are finished, agree on agents, parsers and options,
//! and cover every index of N exactly once; rows are ordered as a
//! single run orders them.

use std::path::{Path, PathBuf};

use crate::aggregate::{Audit, aggregate};
use crate::error::Error;
use crate::output::{ensure_dir, write_atomic};
use crate::row::{Row, to_jsonl};
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

fn read_rows(path: &Path) -> Result<Vec<Row>, Error> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::merge(path, e.to_string()))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).map_err(|e| {
                Error::merge(path, format!("line {}: {e}", i + 1))
            })
        })
        .collect()
}

/// Merges `dirs` into `out`.
pub fn merge(dirs: &[PathBuf], out: &Path) -> Result<Audit, Error> {
    let shards = shard_dirs(dirs)?;
    let mut first: Option<(PathBuf, Fingerprint)> = None;
    let mut seen: Vec<usize> = Vec::new();
    let mut rows = Vec::new();
    for d in &shards {
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
            {
                return Err(Error::merge(
                    d,
                    format!(
                        "ran with other shards, agents, parsers or options than {}",
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
        rows.extend(read_rows(&d.join("rows.jsonl"))?);
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
    rows.sort_by_key(|r| r.key());
    let audit = aggregate(&f.setup, &rows);
    ensure_dir(out)?;
    write_atomic(&out.join("rows.jsonl"), &to_jsonl(&rows))?;
    write_reports(out, &audit)?;
    Ok(audit)
}
