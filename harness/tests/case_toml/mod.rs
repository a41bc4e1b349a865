//! The case files as TOML tables, for the tests that hold the cases to a
//! rule of `spec-cases/PROFILES.md` by reading what authors wrote (not
//! through the harness's case model). Reads only; never edits a case.

use std::path::{Path, PathBuf};

use toml::{Table, Value};

/// The `spec-cases/` folder.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec-cases")
}

/// One TOML file as a table; a file that cannot be read or parsed fails
/// the test, naming the file.
pub fn read_table(path: &Path) -> Table {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.parse::<Table>().unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every case file under `dir`, sorted (the files at the root of
/// `spec-cases/`, `clauses.toml` and the divergence list, are not cases).
pub fn case_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            case_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "toml")
            && p.parent() != Some(root().as_path())
        {
            out.push(p);
        }
    }
}

/// Every case of every case file, in file order, with the file it is in.
pub fn cases() -> Vec<(PathBuf, Table)> {
    let mut files = Vec::new();
    case_files(&root(), &mut files);
    let mut out = Vec::new();
    for file in files {
        let mut t = read_table(&file);
        let Some(Value::Array(list)) = t.remove("case") else { continue };
        for case in list {
            if let Value::Table(case) = case {
                out.push((file.clone(), case));
            }
        }
    }
    out
}
