//! The suite: every case file under a `spec-cases/` folder, the clause
//! index beside them, and the filters that pick checks by name.
//!
//! It finds and loads files and keeps what loaded next to what did not; it
//! never stops at the first bad file and never runs a check.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::case::load::{line_of, read_text};
use crate::case::{Case, CaseError, CaseErrorKind, Known, load_file};

/// One entry of the clause index (`spec-cases/clauses.toml`).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Clause {
    /// Stable id (`R2.2.2-5`, `G-MATCH-4`, `GRT-7`).
    pub id: String,
    /// Section of the source.
    pub section: String,
    /// MUST, SHOULD, ..., DEF, ABNF, EXAMPLE, INFO, GOOGLE.
    pub level: String,
    /// Category.
    pub category: String,
    /// The quoted text.
    pub text: String,
    /// Whether any parser can be tested on it.
    pub testable: bool,
    /// Why not, when not.
    pub why_untestable: Option<String>,
    /// `rfc9309`, `google-doc` or `google-parser`.
    pub source: String,
    /// `parse` or `fetch`.
    pub layer: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClausesToml {
    clause: Vec<Clause>,
}

/// A loaded suite.
#[derive(Debug, Default)]
pub struct Suite {
    /// The folder the cases came from.
    pub root: PathBuf,
    /// The clause index.
    pub clauses: Vec<Clause>,
    /// Every case that loaded, in file then source order.
    pub cases: Vec<Case>,
    /// Every mistake found while loading.
    pub errors: Vec<CaseError>,
}

/// The case files under `root`, recursively, sorted.
pub fn case_files(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "toml")
                && path.parent() != Some(root)
            {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Loads the clause index at `root/clauses.toml`.
///
/// # Errors
///
/// When it cannot be read, is not UTF-8 or TOML of the index's schema, or
/// repeats an id: the error names the file and, when known, the line.
pub fn load_clauses(root: &Path) -> Result<Vec<Clause>, CaseError> {
    let file = root.join("clauses.toml");
    let err =
        |line, kind| CaseError { file: file.clone(), line, case: None, kind };
    let text = read_text(&file)?;
    let parsed: ClausesToml = toml::from_str(&text).map_err(|e| {
        let line = e.span().map(|s| line_of(&text, s.start));
        err(line, CaseErrorKind::Schema(e.message().to_string()))
    })?;
    let mut seen = HashSet::new();
    for c in &parsed.clause {
        if !seen.insert(c.id.as_str()) {
            return Err(err(
                None,
                CaseErrorKind::DuplicateClause(c.id.clone()),
            ));
        }
    }
    Ok(parsed.clause)
}

impl Suite {
    /// Loads the clause index and every case file under `root`.
    pub fn load(root: &Path) -> Suite {
        Suite::load_only(root, |_| true)
    }

    /// Loads the clause index and the case files for which `want(file)`.
    /// A broken index is one error, and the cases are then loaded without
    /// checking their clause ids (rather than one error per case).
    pub fn load_only(root: &Path, want: impl Fn(&Path) -> bool) -> Suite {
        Suite::load_with_index(root, root, want)
    }

    /// Loads the case files under `root` for which `want(file)`, against
    /// the clause index at `index/clauses.toml` (for a folder of cases
    /// without its own index, such as a `diff --out` findings folder).
    pub fn load_with_index(
        root: &Path,
        index: &Path,
        want: impl Fn(&Path) -> bool,
    ) -> Suite {
        let mut suite = Suite { root: root.to_path_buf(), ..Suite::default() };
        let index_ok = match load_clauses(index) {
            Ok(c) => {
                suite.clauses = c;
                true
            }
            Err(e) => {
                suite.errors.push(e);
                false
            }
        };
        let ids: HashSet<String> =
            suite.clauses.iter().map(|c| c.id.clone()).collect();
        let known = Known { clauses: index_ok.then_some(&ids) };
        for file in case_files(root).iter().filter(|f| want(f)) {
            let (cases, errors) = load_file(root, file, &known);
            suite.cases.extend(cases);
            suite.errors.extend(errors);
        }
        suite
    }

    /// The clause with this id.
    pub fn clause(&self, id: &str) -> Option<&Clause> {
        self.clauses.iter().find(|c| c.id == id)
    }

    /// The highest requirement level among a case's clauses (MUST before
    /// SHOULD before MAY before GOOGLE before the rest), for scoring; a
    /// case citing only silences (`S-…`, level SILENT) is `SILENT`, not a
    /// definition.
    pub fn level_of(&self, case: &Case) -> &'static str {
        let levels: Vec<&str> = case
            .clauses
            .iter()
            .filter_map(|id| self.clause(id))
            .map(|c| c.level.as_str())
            .collect();
        for (want, name) in [
            ("MUST", "MUST"),
            ("MUST NOT", "MUST"),
            ("SHOULD", "SHOULD"),
            ("SHOULD NOT", "SHOULD"),
            ("MAY", "MAY"),
            ("GOOGLE", "GOOGLE"),
        ] {
            if levels.contains(&want) {
                return name;
            }
        }
        if !levels.is_empty() && levels.iter().all(|l| *l == "SILENT") {
            return "SILENT";
        }
        "DEF"
    }
}

/// The default `spec-cases/` folder: `$ROBOTS_CONFORMANCE_CASES`, else
/// `./spec-cases` if it exists, else the one this binary was built from.
pub fn default_root() -> PathBuf {
    if let Some(dir) = std::env::var_os("ROBOTS_CONFORMANCE_CASES") {
        return PathBuf::from(dir);
    }
    let here = PathBuf::from("spec-cases");
    if here.join("clauses.toml").is_file() {
        return here;
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("spec-cases")
}

/// Name filters as libtest has them: a check is selected when any filter
/// is a substring of its name (or equals it, with `exact`), and no `skip`
/// is a substring of it.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    /// Substrings (or exact names) to select; empty selects everything.
    pub include: Vec<String>,
    /// Substrings to leave out.
    pub skip: Vec<String>,
    /// Compare whole names.
    pub exact: bool,
}

impl Filter {
    /// Whether `name` is selected.
    pub fn selects(&self, name: &str) -> bool {
        let hit = |f: &String| {
            if self.exact { name == f } else { name.contains(f.as_str()) }
        };
        (self.include.is_empty() || self.include.iter().any(hit))
            && !self.skip.iter().any(|s| name.contains(s.as_str()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder with `clauses.toml` = `index` and two case files citing R1.
    fn suite_with_index(name: &str, index: &[u8]) -> Suite {
        let root = std::env::temp_dir()
            .join(format!("rc-suite-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("grouping")).unwrap();
        std::fs::write(root.join("clauses.toml"), index).unwrap();
        for stem in ["a", "b"] {
            std::fs::write(
                root.join("grouping").join(format!("{stem}.toml")),
                "[[case]]\nid = \"x\"\nclauses = [\"R1\"]\nsource = \"rfc9309\"\nrobots = \"\"\n\
                 check = [{ agent = \"A\", url = \"/\", expect = \"allowed\" }]\n",
            )
            .unwrap();
        }
        let suite = Suite::load(&root);
        std::fs::remove_dir_all(&root).unwrap();
        suite
    }

    #[test]
    fn a_case_citing_only_silences_is_silent_not_a_definition() {
        let clause = |id: &str, level: &str| {
            format!(
                "[[clause]]\nid = \"{id}\"\nsection = \"1\"\nlevel = \"{level}\"\n\
                 category = \"grouping\"\ntext = \"t\"\ntestable = true\n\
                 source = \"rfc9309\"\nlayer = \"parse\"\n"
            )
        };
        let suite =
            suite_with_index("silent", clause("R1", "SILENT").as_bytes());
        assert!(suite.errors.is_empty(), "{:?}", suite.errors);
        assert_eq!(suite.level_of(&suite.cases[0]), "SILENT");
        let suite = suite_with_index("def", clause("R1", "ABNF").as_bytes());
        assert_eq!(suite.level_of(&suite.cases[0]), "DEF");
        let suite = suite_with_index("must", clause("R1", "MUST").as_bytes());
        assert_eq!(suite.level_of(&suite.cases[0]), "MUST");
    }

    #[test]
    fn a_broken_clause_index_is_one_error_not_one_per_case() {
        let suite = suite_with_index(
            "broken",
            b"[[clause]]\nid = \"R1\"\nsection = \n",
        );
        assert_eq!(suite.errors.len(), 1, "{:?}", suite.errors);
        let e = &suite.errors[0];
        assert!(e.file.ends_with("clauses.toml"), "{e}");
        assert_eq!(e.line, Some(3), "{e}");
        assert_eq!(suite.cases.len(), 2);
        let suite =
            suite_with_index("binary", b"[[clause]]\nid = \"R\xff1\"\n");
        assert_eq!(suite.errors.len(), 1, "{:?}", suite.errors);
        assert_eq!(suite.errors[0].line, Some(2));
        assert!(matches!(
            suite.errors[0].kind,
            CaseErrorKind::NotUtf8 { byte: 0xFF, .. }
        ));
    }

    #[test]
    fn cases_without_an_index_load_against_another_folders_index() {
        let base = std::env::temp_dir()
            .join(format!("rc-suite-no-index-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let (project, out) = (base.join("project"), base.join("out"));
        std::fs::create_dir_all(&project).unwrap();
        std::fs::create_dir_all(out.join("findings")).unwrap();
        std::fs::write(
            project.join("clauses.toml"),
            "[[clause]]\nid = \"R1\"\nsection = \"s\"\nlevel = \"MUST\"\n\
             category = \"c\"\ntext = \"t\"\ntestable = true\n\
             source = \"rfc9309\"\nlayer = \"parse\"\n",
        )
        .unwrap();
        std::fs::write(
            out.join("findings/f.toml"),
            "[[case]]\nid = \"x\"\nclauses = [\"R1\"]\nsource = \"rfc9309\"\n\
             robots = \"\"\ncheck = [{ agent = \"A\", url = \"/\", expect = \"allowed\" }]\n",
        )
        .unwrap();
        let alone = Suite::load(&out);
        assert!(
            alone.errors.iter().any(|e| e.file.ends_with("clauses.toml")),
            "{:?}",
            alone.errors
        );
        let s = Suite::load_with_index(&out, &project, |_| true);
        assert!(s.errors.is_empty(), "{:?}", s.errors);
        assert_eq!((s.cases.len(), s.clauses.len()), (1, 1));
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn with_a_good_index_unknown_clauses_are_reported() {
        let index = b"[[clause]]\nid = \"R2\"\nsection = \"s\"\nlevel = \"MUST\"\ncategory = \"c\"\n\
                      text = \"t\"\ntestable = true\nsource = \"rfc9309\"\nlayer = \"parse\"\n";
        let suite = suite_with_index("good", index);
        assert_eq!(suite.errors.len(), 2, "{:?}", suite.errors);
        assert!(
            suite
                .errors
                .iter()
                .all(|e| matches!(e.kind, CaseErrorKind::UnknownClauses(_)))
        );
    }
}
