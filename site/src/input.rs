//! The site's inputs: `report.json` files (a `matrix` run) and
//! `history.json` files (a `history` run), named one by one or found in
//! folders.
//!
//! A folder is searched recursively for files named exactly
//! `report.json` and `history.json`, within bounds ([`MAX_DEPTH`] levels,
//! [`MAX_ENTRIES`] entries, [`MAX_INPUTS`] inputs, each at most
//! [`MAX_BYTES`]); dot-folders and symbolic links to folders are not
//! entered, and a folder deeper than the bound is an error, not skipped. A file named on the command line is read whatever its name.
//! Past a bound, or on a file that does not read, it fails naming the
//! path: it never skips an input silently and never reads without a cap.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

use robots_fingerprint::history::History;
use robots_runner::matrix::Matrix;

use crate::error::SiteError;

/// Folder levels searched below a folder input.
pub const MAX_DEPTH: usize = 8;
/// Folder entries looked at, over all folder inputs.
pub const MAX_ENTRIES: usize = 50_000;
/// Inputs found, over all folder inputs.
pub const MAX_INPUTS: usize = 1_000;
/// The largest input file read (a full matrix's report.json is tens of MB).
pub const MAX_BYTES: u64 = 512 * 1024 * 1024;

/// A matrix read from its report.json.
#[derive(Debug)]
pub struct Report {
    /// Where it was read.
    pub path: PathBuf,
    /// How the site names it: see [`shown`].
    pub shown: String,
    /// The run.
    pub matrix: Matrix,
}

/// Everything read.
#[derive(Debug, Default)]
pub struct Inputs {
    /// The matrices, sorted by path.
    pub reports: Vec<Report>,
    /// The histories with their names as the site shows them (see
    /// [`shown`]), sorted by path.
    pub histories: Vec<(String, History)>,
}

/// What a file is taken for.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Kind {
    Report,
    History,
    /// Named on the command line: a report, else a history.
    Either,
}

fn bad(path: &Path, why: impl Into<String>) -> SiteError {
    SiteError::Input { path: path.to_path_buf(), why: why.into() }
}

/// Reads every input; folders are searched (see the module doc).
///
/// # Errors
///
/// An input that is missing or unreadable, a file that is neither kind
/// (naming why as either), a bound passed, or no input at all.
pub fn read(paths: &[PathBuf]) -> Result<Inputs, SiteError> {
    let mut files: Vec<(PathBuf, Kind, String)> = Vec::new();
    let mut entries = 0usize;
    for p in paths {
        let meta = std::fs::metadata(p).map_err(|e| bad(p, e.to_string()))?;
        if meta.is_dir() {
            let mut found = Vec::new();
            walk(p, p, 0, &mut entries, &mut found)?;
            files.extend(found.into_iter().map(|(f, k)| {
                let name = shown(p, &f);
                (f, k, name)
            }));
        } else {
            files.push((p.clone(), Kind::Either, shown(p, p)));
        }
        if files.len() > MAX_INPUTS {
            return Err(bad(
                p,
                format!("more than {MAX_INPUTS} inputs; name fewer folders"),
            ));
        }
    }
    files.sort();
    files.dedup_by(|a, b| a.0 == b.0);
    let mut inputs = Inputs::default();
    for (path, kind, shown) in files {
        match kind {
            Kind::Report => {
                let matrix = parse(&path)?.map_err(|e| bad(&path, e))?;
                inputs.reports.push(Report { path, shown, matrix });
            }
            Kind::History => {
                let h = parse(&path)?.map_err(|e| bad(&path, e))?;
                inputs.histories.push((shown, h));
            }
            Kind::Either => match parse::<Matrix>(&path)? {
                Ok(matrix) => {
                    inputs.reports.push(Report { path, shown, matrix });
                }
                Err(matrix) => match parse::<History>(&path)? {
                    Ok(h) => inputs.histories.push((shown, h)),
                    Err(history) => {
                        return Err(SiteError::Format {
                            path,
                            matrix,
                            history,
                        });
                    }
                },
            },
        }
    }
    if inputs.reports.is_empty() && inputs.histories.is_empty() {
        let named: Vec<String> =
            paths.iter().map(|p| p.display().to_string()).collect();
        return Err(SiteError::Empty(named.join(", ")));
    }
    Ok(inputs)
}

/// How the site names `file`, found under the input `named`: from the
/// input's own folder name down (`history/python-protego/history.json`
/// for the input `/home/me/results/history`), or, for a file named itself,
/// its folder and name (`matrix/report.json`). Never the builder's absolute
/// path: a published site must not show where it was built, and a long
/// one would not fit a phone's width.
fn shown(named: &Path, file: &Path) -> String {
    let base = if named == file { named.parent() } else { Some(named) };
    let from =
        base.and_then(Path::parent).filter(|p| !p.as_os_str().is_empty());
    let rel = from.and_then(|f| file.strip_prefix(f).ok()).unwrap_or(file);
    rel.display().to_string()
}

/// Collects `report.json` and `history.json` below `dir`.
fn walk(
    top: &Path,
    dir: &Path,
    depth: usize,
    entries: &mut usize,
    files: &mut Vec<(PathBuf, Kind)>,
) -> Result<(), SiteError> {
    let read = std::fs::read_dir(dir).map_err(|e| bad(dir, e.to_string()))?;
    let mut subdirs = Vec::new();
    for entry in read {
        let entry = entry.map_err(|e| bad(dir, e.to_string()))?;
        *entries += 1;
        if *entries > MAX_ENTRIES {
            return Err(bad(
                top,
                format!(
                    "more than {MAX_ENTRIES} entries searched; name the report folders themselves"
                ),
            ));
        }
        let name = entry.file_name().to_string_lossy().into_owned();
        // The entry itself, not a link's target: links are not followed.
        let Ok(kind) = entry.file_type() else { continue };
        if kind.is_dir() && !name.starts_with('.') {
            subdirs.push(entry.path());
        } else if kind.is_file() && name == "report.json" {
            files.push((entry.path(), Kind::Report));
        } else if kind.is_file() && name == "history.json" {
            files.push((entry.path(), Kind::History));
        }
    }
    if let Some(deep) = subdirs.first()
        && depth >= MAX_DEPTH
    {
        return Err(bad(
            deep,
            format!(
                "more than {MAX_DEPTH} folder levels below {}; name a folder nearer the reports",
                top.display()
            ),
        ));
    }
    for sub in subdirs {
        walk(top, &sub, depth + 1, entries, files)?;
    }
    Ok(())
}

/// `path` parsed as `T`: the outer error when it cannot be read at all,
/// the inner one (the parser's message, with line and column) when it is
/// not a `T`.
fn parse<T: serde::de::DeserializeOwned>(
    path: &Path,
) -> Result<Result<T, String>, SiteError> {
    let file = File::open(path).map_err(|e| bad(path, e.to_string()))?;
    let len = file.metadata().map_err(|e| bad(path, e.to_string()))?.len();
    if len > MAX_BYTES {
        return Err(bad(
            path,
            format!("{len} bytes, more than the {MAX_BYTES} read"),
        ));
    }
    let reader = BufReader::new(file.take(MAX_BYTES));
    Ok(serde_json::from_reader(reader).map_err(|e| e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(tag: &str) -> PathBuf {
        let d = std::env::temp_dir()
            .join(format!("rc-site-input-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn inputs_are_shown_from_the_named_folder_down_never_absolute() {
        let p = |s: &str| PathBuf::from(s);
        let h = p("/home/me/results/history/python-protego/history.json");
        assert_eq!(
            shown(&p("/home/me/results/history"), &h),
            "history/python-protego/history.json"
        );
        assert_eq!(
            shown(&p("/home/me/results/history/"), &h),
            "history/python-protego/history.json"
        );
        let r = p("/tmp/x/matrix/report.json");
        assert_eq!(shown(&r, &r), "matrix/report.json");
        assert_eq!(
            shown(&p("results"), &p("results/m/report.json")),
            "results/m/report.json"
        );
        assert_eq!(shown(&p("report.json"), &p("report.json")), "report.json");
        assert_eq!(shown(&p("/"), &p("/m/report.json")), "/m/report.json");
    }

    #[test]
    fn a_folder_deeper_than_the_bound_is_named_not_skipped() {
        let d = scratch("deep");
        let mut deep = d.clone();
        for i in 0..=MAX_DEPTH {
            deep = deep.join(format!("l{i}"));
        }
        std::fs::create_dir_all(&deep).unwrap();
        let err = read(std::slice::from_ref(&d)).unwrap_err().to_string();
        assert!(err.contains("folder levels below"), "{err}");
        assert!(err.contains(&format!("l{MAX_DEPTH}")), "{err}");
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn dot_folders_are_not_searched_and_a_folder_without_inputs_says_so() {
        let d = scratch("dot");
        std::fs::create_dir_all(d.join(".cache")).unwrap();
        std::fs::write(d.join(".cache/report.json"), "not json").unwrap();
        let err = read(std::slice::from_ref(&d)).unwrap_err().to_string();
        assert!(err.starts_with("no report.json or history.json in"), "{err}");
        std::fs::remove_dir_all(&d).unwrap();
    }
}
