//! Reading a case file: bytes (bounded) → UTF-8 → TOML → one [`Case`]
//! per `[[case]]`, every mistake a [`CaseError`] with file, line and case
//! id. Positions (byte offset → line, the case a line is in) live here.
//!
//! It never stops at the first bad case (each is reported and the rest
//! still load), never reads more than [`MAX_FILE_BYTES`] and never keeps
//! more than [`MAX_FILE_BODIES_BYTES`] of bodies built from one file.

use std::collections::HashSet;
use std::io::Read;
use std::path::Path;

use super::build::{Known, Place, build_case};
use super::error::{CaseError, CaseErrorKind};
use super::model::Case;
use super::schema::FileToml;

/// The largest case file read (64 MiB).
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// The most body bytes the cases of one file may build together
/// (256 MiB, four times a case's own bound): without it a short file of
/// many `pad … to = 67108864` cases would hold 64 MiB per case.
pub const MAX_FILE_BODIES_BYTES: u64 = 256 << 20;

/// The `<folder>::<stem>` prefix of the names of the cases in `file`.
pub fn name_prefix(root: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(root).unwrap_or(file).with_extension("");
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("::")
}

/// Loads one case file. Returns the good cases and one error per
/// mistake; a file that is not valid TOML yields just the error.
pub fn load_file(
    root: &Path,
    file: &Path,
    known: &Known<'_>,
) -> (Vec<Case>, Vec<CaseError>) {
    match read_text(file) {
        Ok(text) => load_text(root, file, &text, known),
        Err(e) => (vec![], vec![e]),
    }
}

/// Loads `bytes` as if they were the contents of case file `file` (which
/// is not read): what [`load_file`] does after reading, for callers that
/// hold the bytes (the `case_loader` fuzz target).
pub fn load_bytes(
    root: &Path,
    file: &Path,
    bytes: Vec<u8>,
    known: &Known<'_>,
) -> (Vec<Case>, Vec<CaseError>) {
    match text_of(file, bytes) {
        Ok(text) => load_text(root, file, &text, known),
        Err(e) => (vec![], vec![e]),
    }
}

/// Loads the text of case file `file`.
fn load_text(
    root: &Path,
    file: &Path,
    text: &str,
    known: &Known<'_>,
) -> (Vec<Case>, Vec<CaseError>) {
    let parsed: FileToml = match toml::from_str(text) {
        Ok(p) => p,
        Err(e) => {
            let line = e.span().map(|s| line_of(text, s.start));
            // Name the case the error sits in, if the id is findable.
            let case = line.and_then(|l| enclosing_case_id(text, l));
            let kind = CaseErrorKind::Schema(e.message().to_string());
            return (vec![], vec![error(file, line, case, kind)]);
        }
    };
    let prefix = name_prefix(root, file);
    let category = prefix.split("::").next().unwrap_or_default();
    let place = Place { prefix: &prefix, category };
    let mut cases = Vec::new();
    let mut errors = Vec::new();
    let mut seen = HashSet::new();
    let mut bodies: u64 = 0;
    for spanned in &parsed.case {
        let line = line_of(text, spanned.span().start);
        let c = spanned.get_ref();
        let at = |kind| error(file, Some(line), Some(c.id.clone()), kind);
        if !seen.insert(c.id.clone()) {
            errors.push(at(CaseErrorKind::DuplicateId));
            continue;
        }
        match build_case(c, &place, known) {
            Ok(case)
                if bodies + case.robots.len() as u64
                    > MAX_FILE_BODIES_BYTES =>
            {
                let limit = MAX_FILE_BODIES_BYTES;
                errors.push(at(CaseErrorKind::FileBodiesTooLarge { limit }));
            }
            Ok(mut case) => {
                bodies += case.robots.len() as u64;
                case.file = file.to_path_buf();
                case.line = line;
                cases.push(case);
            }
            Err(kind) => errors.push(at(kind)),
        }
    }
    (cases, errors)
}

fn error(
    file: &Path,
    line: Option<usize>,
    case: Option<String>,
    kind: CaseErrorKind,
) -> CaseError {
    CaseError { file: file.to_path_buf(), line, case, kind }
}

/// The file's text: at most [`MAX_FILE_BYTES`], UTF-8, or an error that
/// says where the first bad byte is.
pub(crate) fn read_text(file: &Path) -> Result<String, CaseError> {
    let unreadable = |e: std::io::Error| {
        error(file, None, None, CaseErrorKind::Unreadable(e.to_string()))
    };
    let mut bytes = Vec::new();
    std::fs::File::open(file)
        .and_then(|f| f.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes))
        .map_err(unreadable)?;
    text_of(file, bytes)
}

/// The bytes of case file `file` as text: at most [`MAX_FILE_BYTES`],
/// UTF-8, or an error that says where the first bad byte is.
fn text_of(file: &Path, bytes: Vec<u8>) -> Result<String, CaseError> {
    if bytes.len() as u64 > MAX_FILE_BYTES {
        let kind = CaseErrorKind::FileTooLarge { limit: MAX_FILE_BYTES };
        return Err(error(file, None, None, kind));
    }
    String::from_utf8(bytes).map_err(|e| {
        let bytes = e.as_bytes();
        let at = e.utf8_error().valid_up_to();
        // OK: everything before `valid_up_to` is UTF-8.
        let good = std::str::from_utf8(&bytes[..at]).unwrap_or_default();
        let line = line_of(good, at);
        let column = at - good.rfind('\n').map_or(0, |n| n + 1) + 1;
        let kind = CaseErrorKind::NotUtf8 { byte: bytes[at], column };
        error(file, Some(line), enclosing_case_id(good, line), kind)
    })
}

/// The 1-based line of byte `offset` of `text`.
pub(crate) fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// The id of the `[[case]]` whose text contains `line`, found textually.
fn enclosing_case_id(text: &str, line: usize) -> Option<String> {
    text.lines()
        .take(line)
        .filter_map(|l| {
            let l = l.trim();
            let rest = l.strip_prefix("id")?.trim_start().strip_prefix('=')?;
            Some(rest.trim().trim_matches('"').to_string())
        })
        .last()
}

#[cfg(test)]
mod tests {
    use super::super::body::BodyError;
    use super::super::error::At;
    use super::super::model::{Check, Expected};
    use super::*;

    fn load_bytes(text: &[u8]) -> (Vec<Case>, Vec<CaseError>) {
        static N: std::sync::atomic::AtomicUsize =
            std::sync::atomic::AtomicUsize::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir()
            .join(format!("rc-case-{}-{n}", std::process::id()));
        let file = dir.join("grouping").join("t.toml");
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, text).unwrap();
        let clauses: HashSet<String> = ["R1".to_string()].into();
        let got = load_file(&dir, &file, &Known { clauses: Some(&clauses) });
        std::fs::remove_dir_all(&dir).unwrap();
        got
    }

    fn load(text: &str) -> (Vec<Case>, Vec<CaseError>) {
        load_bytes(text.as_bytes())
    }

    /// A case `id` on lines 2.. after a comment line, with `body` keys.
    fn case_with(id: &str, body: &str, url: &str) -> String {
        format!(
            "# c\n[[case]]\nid = \"{id}\"\nclauses = [\"R1\"]\nsource = \"rfc9309\"\n{body}\n\
             check = [{{ agent = \"A\", url = \"{url}\", expect = \"allowed\" }}]\n"
        )
    }

    #[test]
    fn also_asks_decide_tokens_and_is_refused_in_a_fetch_case() {
        let (cases, errors) = load(
            "[[case]]\nid = \"a\"\nclauses = [\"R1\"]\nsource = \"rfc9309\"\n\
             robots = \"x\"\ncheck = [{ agent = \"A\", also = [\"B\"], url = \"/\", expect = \"allowed\" }]\n",
        );
        assert!(errors.is_empty(), "{errors:?}");
        assert!(matches!(
            &cases[0].checks[0].request,
            robots_adapters::Request::DecideTokens { agents, url, .. }
                if agents == &["A", "B"] && url == "/"
        ));
        let (_, errors) = load(
            "[[case]]\nid = \"f\"\nclauses = [\"R1\"]\nsource = \"rfc9309\"\n\
             robots = \"x\"\ncheck = [{ agent = \"A\", also = [\"B\"], url = \"/\", expect = \"allowed\" }]\n\
             [case.fetch]\nstatus = 200\n",
        );
        let text: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        assert!(
            text.join("\n").contains("several product tokens"),
            "{text:?}"
        );
        assert!(text.join("\n").contains("t.toml:1: case `f`"), "{text:?}");
    }

    #[test]
    fn explains_phrases_load_per_profile_and_bad_ones_name_the_check() {
        let (cases, errors) = load(
            "[[case]]\nid = \"a\"\nclauses = [\"R1\"]\nsource = \"rfc9309\"\n\
             robots = \"x\"\ncheck = [{ agent = \"A\", url = \"/\", expect = \"allowed\", \
             explains = { google = [\"G-1\"] }, explains_not = [\"cut\"] }]\n",
        );
        assert!(errors.is_empty(), "{errors:?}");
        let check = &cases[0].checks[0];
        let google: Vec<_> = check.phrases_for("google").collect();
        let rfc: Vec<_> = check.phrases_for("rfc9309").collect();
        assert_eq!(google.len(), 2);
        assert_eq!(rfc.len(), 1);
        assert!(!rfc[0].present && rfc[0].text == "cut");
        assert!(google[0].holds_in("says G-1.") && !google[0].holds_in("G-2"));
        assert!(rfc[0].holds_in("whole") && !rfc[0].holds_in("body cut"));
        for bad in ["{ bing = [\"x\"] }", "[\" \"]"] {
            let (_, errors) = load(&format!(
                "[[case]]\nid = \"b\"\nclauses = [\"R1\"]\nsource = \"rfc9309\"\n\
                 robots = \"x\"\ncheck = [{{ agent = \"A\", url = \"/\", expect = \"allowed\", \
                 explains = {bad} }}]\n"
            ));
            let text: Vec<String> =
                errors.iter().map(|e| e.to_string()).collect();
            assert!(text.join("\n").contains("check 1: explains"), "{text:?}");
        }
    }

    #[test]
    fn readings_take_a_verdict_per_switch_and_name_the_check_when_bad() {
        let with = |r: &str| {
            load(&format!(
                "[[case]]\nid = \"r\"\nclauses = [\"R1\"]\nsource = \"rfc9309\"\n\
                 robots = \"x\"\ncheck = [{{ agent = \"A\", url = \"/\", expect = \"allowed\", \
                 readings = {r} }}]\n"
            ))
        };
        let (cases, errors) =
            with("{ \"a=b\" = \"disallowed\", \"google+c=d\" = \"allowed\" }");
        assert!(errors.is_empty(), "{errors:?}");
        let r = &cases[0].checks[0].readings;
        assert_eq!(r.get("a=b"), Some(&Expected::Disallowed));
        assert_eq!(r.get("google+c=d"), Some(&Expected::Allowed));
        for bad in [
            "{ \"a=b\" = \"implementation-defined\" }",
            "{ \"bing+a=b\" = \"allowed\" }",
            "{ \"google+\" = \"allowed\" }",
        ] {
            let (_, errors) = with(bad);
            let text: Vec<String> =
                errors.iter().map(|e| e.to_string()).collect();
            assert!(text.join("\n").contains("check 1: readings"), "{text:?}");
        }
        // A fetch check takes readings too (fetch-level switches such as
        // `auth_errors_disallow_all=true`); a check with several tokens
        // does not.
        let (cases, errors) = load(
            "[[case]]\nid = \"f\"\nclauses = [\"R1\"]\nsource = \"rfc9309\"\n\
             robots = \"x\"\ncheck = [{ agent = \"A\", url = \"/\", expect = \"allowed\", \
             readings = { \"a=b\" = \"disallowed\" } }]\n[case.fetch]\nstatus = 401\n",
        );
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(
            cases[0].checks[0].readings.get("a=b"),
            Some(&Expected::Disallowed)
        );
        let (_, errors) = load(
            "[[case]]\nid = \"t\"\nclauses = [\"R1\"]\nsource = \"rfc9309\"\n\
             robots = \"x\"\ncheck = [{ agent = \"A\", also = [\"B\"], url = \"/\", \
             expect = \"allowed\", readings = { \"a=b\" = \"disallowed\" } }]\n",
        );
        let text: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        assert!(text.join("\n").contains("check 1: readings"), "{text:?}");
    }

    #[test]
    fn usage_and_signal_readings_take_their_checks_words() {
        let with = |usage: &str, signal: &str| {
            load(&format!(
                "[[case]]\nid = \"u\"\nclauses = [\"R1\"]\nsource = \"rfc9309\"\n\
                 robots = \"x\"\ncheck = [{{ agent = \"A\", url = \"/\", expect = \"allowed\" }}]\n\
                 usage = [{{ agent = \"A\", url = \"/\", expect = \"disallowed\", readings = {usage} }}]\n\
                 content_signal = [{{ agent = \"A\", expect = \"none\", readings = {signal} }}]\n"
            ))
        };
        let (cases, errors) = with(
            "{ \"aipref+v=6\" = \"train-ai=n, search=y\" }",
            "{ \"s=file\" = \"ai-train=no\" }",
        );
        assert!(errors.is_empty(), "{errors:?}");
        let checks = &cases[0].checks;
        let usage = checks.iter().find(|c| c.name.ends_with("usage-1"));
        let signal =
            checks.iter().find(|c| c.name.ends_with("content-signal-1"));
        let want = |c: Option<&Check>, name: &str| {
            c.and_then(|c| c.readings.get(name)).map(Expected::describe)
        };
        assert_eq!(
            want(usage, "aipref+v=6").as_deref(),
            Some(
                r#"{"crawlable":true,"usage":{"search":"y","train-ai":"n"}}"#
            )
        );
        assert_eq!(
            want(signal, "s=file").as_deref(),
            Some(
                r#"{"ai-input":null,"ai-train":"no","search":null,"use":null}"#
            )
        );
        // Each in its own words, one answer each, under a profile that is.
        for (usage, signal, at) in [
            ("{ \"a=b\" = \"ai-train=no\" }", "{}", "usage 1: readings"),
            (
                "{}",
                "{ \"a=b\" = \"train-ai=n, search=y\" }",
                "content_signal 1",
            ),
            (
                "{ \"a=b\" = \"implementation-defined\" }",
                "{}",
                "usage 1: readings",
            ),
            ("{}", "{ \"bing+a=b\" = \"none\" }", "content_signal 1"),
        ] {
            let (_, errors) = with(usage, signal);
            let text: Vec<String> =
                errors.iter().map(|e| e.to_string()).collect();
            assert!(text.join("\n").contains(at), "{at}: {text:?}");
        }
    }

    #[test]
    fn a_good_case_loads_with_names_and_expectations() {
        let (cases, errors) = load(
            "[[case]]\nid = \"a\"\nclauses = [\"R1\"]\nsource = \"rfc9309\"\n\
             robots = \"x\"\ncheck = [{ agent = \"A\", url = \"/\", expect = { rfc9309 = \"allowed\", google = \"disallowed\" } }]\n",
        );
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(cases[0].checks[0].name, "grouping::t::a::1");
        assert_eq!(
            cases[0].checks[0].expected("google"),
            &Expected::Disallowed
        );
        assert_eq!(cases[0].categories, ["grouping"]);
        assert!(matches!(
            &cases[0].checks[0].request,
            robots_adapters::Request::Decide { agent, url, robots }
                if agent == "A" && url == "/" && &**robots == b"x"
        ));
    }

    #[test]
    fn unknown_clause_names_file_line_and_case() {
        let (_, errors) = load(
            "# c\n[[case]]\nid = \"b\"\nclauses = [\"R9\"]\nsource = \"rfc9309\"\nrobots = \"\"\n\
             check = [{ agent = \"A\", url = \"/\", expect = \"allowed\" }]\n",
        );
        let e = &errors[0];
        assert_eq!((e.line, e.case.as_deref()), (Some(2), Some("b")));
        assert_eq!(e.kind, CaseErrorKind::UnknownClauses(vec!["R9".into()]));
        assert!(e.to_string().ends_with(
            "t.toml:2: case `b`: cites unknown clause id(s) R9 (see spec-cases/clauses.toml)"
        ), "{e}");
    }

    #[test]
    fn duplicates_and_bad_toml_are_errors() {
        let case = "[[case]]\nid = \"c\"\nclauses = [\"R1\"]\nsource = \"rfc9309\"\nrobots = \"\"\n\
                    check = [{ agent = \"A\", url = \"/\", expect = \"allowed\" }]\n";
        let (_, errors) = load(&format!("{case}{case}"));
        assert_eq!(errors[0].message(), "duplicate case id in this file");
        let (_, errors) = load("[[case]]\nid = \"d\"\nrobots = \n");
        assert_eq!(errors[0].line, Some(3));
        assert_eq!(errors[0].case.as_deref(), Some("d"));
    }

    #[test]
    fn implementation_defined_needs_why() {
        let (_, errors) = load(
            "[[case]]\nid = \"e\"\nclauses = [\"R1\"]\nsource = \"rfc9309\"\nrobots = \"\"\n\
             check = [{ agent = \"A\", url = \"/\", expect = \"implementation-defined\" }]\n",
        );
        assert_eq!(errors[0].kind, CaseErrorKind::NeedsWhy(At::Check(1)));
    }

    #[test]
    fn robots_parts_pad_to_an_exact_length() {
        let (cases, errors) = load(
            "[[case]]\nid = \"f\"\nclauses = [\"R1\"]\nsource = \"rfc9309\"\n\
             robots_parts = [{ text = \"ab\" }, { pad = \"xyz\", to = 7 }, { hex = \"0A\" }]\n\
             check = [{ agent = \"A\", url = \"/\", expect = \"allowed\" }]\n",
        );
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(&*cases[0].robots, b"abxyzxy\n");
    }

    #[test]
    fn case_bombs_are_case_errors_with_file_line_and_id() {
        for (id, parts) in [
            (
                "max",
                "robots_parts = [{ repeat = \"aaaa\", times = 9223372036854775807 }]",
            ),
            (
                "big",
                "robots_parts = [{ repeat = \"a\", times = 100000000000 }]",
            ),
            (
                "pad",
                "robots_parts = [{ text = \"x\" }, { pad = \"x\", to = 1099511627776 }]",
            ),
        ] {
            let (cases, errors) = load(&case_with(id, parts, "/"));
            assert!(cases.is_empty());
            let e = &errors[0];
            assert_eq!((e.line, e.case.as_deref()), (Some(2), Some(id)));
            assert!(
                matches!(
                    e.kind,
                    CaseErrorKind::Body(BodyError::TooLarge { .. })
                ),
                "{e}"
            );
            assert!(
                e.to_string().contains("larger than 67108864 bytes"),
                "{e}"
            );
        }
    }

    /// Each case's body is within its own bound, but five of them would
    /// hold 300 MiB: the fifth is an error naming its line and id, and a
    /// small case after it still loads.
    #[test]
    fn many_big_cases_are_bounded_per_file() {
        let big = "robots_parts = [{ pad = \"a\", to = 62914560 }]";
        let mut text = String::new();
        for i in 1..=5 {
            text += &case_with(&format!("big-{i}"), big, "/");
        }
        text += &case_with("small", "robots = \"x\"", "/");
        let (cases, errors) = load(&text);
        let ids: Vec<&str> = cases.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["big-1", "big-2", "big-3", "big-4", "small"]);
        assert_eq!(errors.len(), 1, "{errors:?}");
        let e = &errors[0];
        assert_eq!((e.line, e.case.as_deref()), (Some(30), Some("big-5")));
        assert_eq!(
            e.kind,
            CaseErrorKind::FileBodiesTooLarge { limit: MAX_FILE_BODIES_BYTES }
        );
    }

    /// `load_bytes` (no file read) loads what `load_file` loads, errors
    /// included.
    #[test]
    fn bytes_load_like_the_file() {
        let mut text = case_with("g", "robots = \"ok\"", "/").into_bytes();
        let dir = Path::new("/nowhere");
        let file = dir.join("grouping").join("t.toml");
        let clauses: HashSet<String> = ["R1".to_string()].into();
        let known = Known { clauses: Some(&clauses) };
        let (cases, errors) =
            super::load_bytes(dir, &file, text.clone(), &known);
        assert!(errors.is_empty(), "{errors:?}");
        let (on_disk, _) = load_bytes(&text);
        assert_eq!(cases[0].robots, on_disk[0].robots);
        assert_eq!(cases[0].name, "grouping::t::g");
        text.extend_from_slice(b"note = \"caf\xe9\"\n");
        let (cases, errors) = super::load_bytes(dir, &file, text, &known);
        assert!(cases.is_empty());
        assert_eq!(errors[0].file, file);
        assert_eq!(errors[0].line, Some(8), "{}", errors[0]);
    }

    #[test]
    fn a_non_utf8_file_names_the_line_and_case() {
        let mut text = case_with("g", "robots = \"ok\"", "/").into_bytes();
        text.extend_from_slice(b"note = \"caf\xe9\"\n");
        let (cases, errors) = load_bytes(&text);
        assert!(cases.is_empty());
        let e = &errors[0];
        assert_eq!((e.line, e.case.as_deref()), (Some(8), Some("g")));
        assert_eq!(e.kind, CaseErrorKind::NotUtf8 { byte: 0xE9, column: 12 });
    }

    #[test]
    fn case_urls_are_absolute_or_one_slash_paths() {
        // The three shapes Google's library takes (``, `?q`, `#x`) are let
        // through for adapters that declare `library_urls`.
        for good in [
            "/",
            "/a?b#c",
            "https://example.com",
            "http://h:8/x?q",
            "",
            "?q",
            "#x",
        ] {
            let (_, errors) = load(&case_with("h", "robots = \"\"", good));
            assert!(errors.is_empty(), "{good}: {errors:?}");
        }
        for bad in
            ["//", "//example.com/x", "x", "http:/x", "http://", "1a://h/"]
        {
            let (_, errors) = load(&case_with("h", "robots = \"\"", bad));
            let e = &errors[0];
            assert_eq!(
                (e.line, e.case.as_deref()),
                (Some(2), Some("h")),
                "{bad}"
            );
            assert!(
                e.to_string()
                    .contains(&format!("check 1: url `{bad}` is neither")),
                "{e}"
            );
        }
    }

    #[test]
    fn library_urls_are_refused_in_a_fetch_case() {
        for url in ["", "?q", "#x"] {
            let text = format!(
                "{}[case.fetch]\nstatus = 200\n",
                case_with("f", "robots = \"\"", url)
            );
            let (cases, errors) = load(&text);
            assert!(cases.is_empty(), "{url:?}");
            let e = errors[0].to_string();
            assert!(e.contains("is neither"), "{url:?}: {e}");
        }
    }

    #[test]
    fn robots_url_and_governs_urls_must_be_absolute() {
        let head = "[[case]]\nid = \"j\"\nclauses = [\"R1\"]\nsource = \"rfc9309\"\nrobots = \"\"\n";
        let (_, errors) = load(&format!(
            "{head}robots_url = [{{ url = \"https://a.example/x\", expect = \"https://a.example/robots.txt\" }}, \
             {{ url = \"/x\", expect = \"\" }}]\n"
        ));
        assert_eq!(
            errors[0].message(),
            "robots_url 2: url `/x` is not an absolute URL (`scheme://authority…`)"
        );
        let (_, errors) = load(&format!(
            "{head}governs = [{{ robots = \"//h/robots.txt\", url = \"https://h/\", expect = true }}]\n"
        ));
        assert_eq!(
            errors[0].kind,
            CaseErrorKind::NotAbsolute {
                at: At::Governs(1),
                url: "//h/robots.txt".into()
            }
        );
    }

    #[test]
    fn without_a_clause_index_clause_ids_are_not_checked() {
        let dir = std::env::temp_dir()
            .join(format!("rc-case-noindex-{}", std::process::id()));
        let file = dir.join("grouping").join("t.toml");
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, case_with("i", "robots = \"\"", "/")).unwrap();
        let (cases, errors) = load_file(&dir, &file, &Known { clauses: None });
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(cases.len(), 1);
    }
}
