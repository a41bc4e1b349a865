//! Any release of an external adapter's parser: `NAME@VERSION`.
//!
//! A manifest that can install other releases than its pin has a
//! `[release]` table: the registry the parser comes from (`pypi`, `npm`,
//! `go`, `maven`), the package's name there, and the set-up commands with
//! a `{version}` placeholder (format in `adapters/ext/README.md`). The
//! release is installed into its own state folder, `.adapters/NAME@VERSION/`,
//! and named `NAME@VERSION` everywhere an adapter name is taken
//! ([`crate::registry::lookup`]).
//!
//! This module splits and checks such names, and lists a package's
//! released versions through the registry's ordinary client (`pip index
//! versions`, `npm view … versions`, `go list -m -versions`, Maven
//! Central's `maven-metadata.xml` through `curl`), or through the
//! manifest's own `versions` command. It never installs anything (`adapters
//! setup` runs the commands) and never guesses a version: what the
//! registry does not list is reported, not tried under another name.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::Deserialize;

/// Where a parser's releases are published.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Registry {
    /// The Python Package Index (`pip`).
    Pypi,
    /// The npm registry (`npm`).
    Npm,
    /// The Go module proxy (`go`).
    Go,
    /// Maven Central (`group:artifact`).
    Maven,
}

impl Registry {
    /// The registry's name, for messages.
    pub fn label(self) -> &'static str {
        match self {
            Registry::Pypi => "PyPI",
            Registry::Npm => "npm",
            Registry::Go => "the Go module proxy",
            Registry::Maven => "Maven Central",
        }
    }
}

/// A manifest's `[release]` table, as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReleaseToml {
    /// Where the releases are published.
    pub registry: Option<Registry>,
    /// The package's name in that registry (Go: the module path; Maven:
    /// `group:artifact`).
    pub package: String,
    /// The set-up commands for `{version}` (replacing the manifest's
    /// `setup`; `ready` and `run` stay, with `{state}` the release's own
    /// folder).
    pub setup: Vec<Vec<String>>,
    /// A command printing the released versions, one a line (instead of
    /// the registry's listing).
    pub versions: Option<Vec<String>>,
}

/// How a manifest lists its parser's releases (placeholders expanded).
#[derive(Clone, Debug)]
pub struct Releases {
    /// Where they are published (none: only `versions` lists them).
    pub registry: Option<Registry>,
    /// The package's name there.
    pub package: String,
    /// The manifest's own listing command, if any.
    pub versions: Option<Vec<String>>,
}

/// Why a release cannot be named, listed or found.
#[derive(Debug, thiserror::Error)]
pub enum ReleaseError {
    /// The version holds characters no registry uses.
    #[error(
        "`{spec}`: the version `{version}` may hold only letters, digits and . _ + -"
    )]
    BadVersion {
        /// What was asked for.
        spec: String,
        /// The version part.
        version: String,
    },
    /// The adapter installs only its pinned version.
    #[error(
        "{name} runs only its pinned release, {pinned}: {why}; `{name}@{asked}` is not available"
    )]
    PinnedOnly {
        /// The adapter.
        name: String,
        /// The version it runs.
        pinned: String,
        /// The version asked for.
        asked: String,
        /// Why no other release.
        why: String,
    },
    /// The registry does not list that version.
    #[error(
        "{package} {version} is not a released version on {registry} (releases: {known})"
    )]
    NotReleased {
        /// The package.
        package: String,
        /// The version asked for.
        version: String,
        /// The registry's name.
        registry: String,
        /// What it does list (the last few).
        known: String,
    },
    /// The listing command failed or printed nothing usable.
    #[error("listing the releases of {package} with `{command}`: {why}")]
    Listing {
        /// The package.
        package: String,
        /// The command run.
        command: String,
        /// What went wrong.
        why: String,
    },
    /// `last:N` or a version list that is malformed.
    #[error("--versions `{spec}`: {why}")]
    BadList {
        /// What was given.
        spec: String,
        /// What is wrong.
        why: String,
    },
}

/// How long a listing command may take before it is killed.
pub const LISTING_DEADLINE: Duration = Duration::from_secs(90);
/// The most a listing command's output is read (the rest is discarded).
pub const LISTING_CAP: usize = 1 << 20;

/// `NAME@VERSION` split into the name and the version (none without an
/// `@`). The version is checked to be a plain release string.
///
/// # Errors
///
/// When the version is empty or holds other characters than letters,
/// digits and `. _ + -`.
pub fn split(spec: &str) -> Result<(&str, Option<&str>), ReleaseError> {
    let Some((name, version)) = spec.split_once('@') else {
        return Ok((spec, None));
    };
    let plain = |c: char| c.is_ascii_alphanumeric() || "._+-".contains(c);
    if version.is_empty()
        || version.len() > 64
        || !version.chars().all(plain)
        || version.starts_with(['-', '.'])
    {
        return Err(ReleaseError::BadVersion {
            spec: spec.into(),
            version: version.into(),
        });
    }
    Ok((name, Some(version)))
}

/// A version as the manifests write it: Go's leading `v` dropped.
pub fn normalise(version: &str) -> &str {
    match version.strip_prefix('v') {
        Some(rest) if rest.starts_with(|c: char| c.is_ascii_digit()) => rest,
        _ => version,
    }
}

/// Whether `version` is a final release: dot-separated numbers only (no
/// `rc`, `beta`, `-SNAPSHOT`, pseudo-version).
pub fn is_final(version: &str) -> bool {
    !version.is_empty()
        && version
            .split('.')
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
}

/// Orders versions by their numeric parts (`0.10` after `0.9`), then as
/// text.
pub fn compare(a: &str, b: &str) -> std::cmp::Ordering {
    let parts = |v: &str| -> Vec<u64> {
        v.split(['.', '-', '+'])
            .map(|p| {
                let digits: String =
                    p.chars().take_while(char::is_ascii_digit).collect();
                digits.parse().unwrap_or(0)
            })
            .collect()
    };
    parts(a).cmp(&parts(b)).then_with(|| a.cmp(b))
}

/// The versions a listing printed, final releases only, oldest first,
/// without duplicates.
pub fn tidy(mut versions: Vec<String>) -> Vec<String> {
    versions = versions
        .into_iter()
        .map(|v| normalise(v.trim()).to_string())
        .filter(|v| is_final(v))
        .collect();
    versions.sort_by(|a, b| compare(a, b));
    versions.dedup();
    versions
}

/// The versions in `pip index versions` output ("Available versions: a,
/// b, …").
pub fn parse_pip(out: &str) -> Vec<String> {
    out.lines()
        .find_map(|l| l.trim().strip_prefix("Available versions:"))
        .map(|rest| rest.split(',').map(|v| v.trim().to_string()).collect())
        .unwrap_or_default()
}

/// The versions in `npm view PACKAGE versions --json` output (an array,
/// or a single string when there is one release).
pub fn parse_npm(out: &str) -> Vec<String> {
    match serde_json::from_str::<serde_json::Value>(out.trim()) {
        Ok(serde_json::Value::Array(a)) => a
            .into_iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect(),
        Ok(serde_json::Value::String(s)) => vec![s],
        _ => Vec::new(),
    }
}

/// The versions in `go list -m -versions MODULE` output ("MODULE v1 v2").
pub fn parse_go(out: &str) -> Vec<String> {
    out.lines()
        .next()
        .map(|l| l.split_whitespace().skip(1).map(str::to_string).collect())
        .unwrap_or_default()
}

/// The versions in a Maven `maven-metadata.xml` (its `<version>`
/// elements).
pub fn parse_maven(out: &str) -> Vec<String> {
    let mut versions = Vec::new();
    let mut rest = out;
    while let Some(start) = rest.find("<version>") {
        rest = &rest[start + "<version>".len()..];
        let Some(end) = rest.find("</version>") else { break };
        versions.push(rest[..end].trim().to_string());
        rest = &rest[end..];
    }
    versions
}

/// The versions one line each (a manifest's own `versions` command).
pub fn parse_lines(out: &str) -> Vec<String> {
    out.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

/// Reads the versions out of a listing command's output.
type Parse = fn(&str) -> Vec<String>;

/// The command that lists the releases, and how to read its output.
fn listing(r: &Releases) -> Option<(Vec<String>, Parse)> {
    if let Some(cmd) = &r.versions {
        return Some((cmd.clone(), parse_lines));
    }
    let p = r.package.clone();
    let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect();
    Some(match r.registry? {
        Registry::Pypi => (
            words(&[
                "python3",
                "-m",
                "pip",
                "index",
                "versions",
                "--disable-pip-version-check",
                &p,
            ]),
            parse_pip,
        ),
        Registry::Npm => {
            (words(&["npm", "view", &p, "versions", "--json"]), parse_npm)
        }
        Registry::Go => (
            words(&[
                "env",
                "GO111MODULE=on",
                "GOFLAGS=-mod=mod",
                "GOTOOLCHAIN=local",
                "go",
                "list",
                "-m",
                "-versions",
                &p,
            ]),
            parse_go,
        ),
        Registry::Maven => {
            let (group, artifact) = p.split_once(':')?;
            let url = format!(
                "https://repo.maven.apache.org/maven2/{}/{artifact}/maven-metadata.xml",
                group.replace('.', "/")
            );
            (words(&["curl", "-fsSL", "--max-time", "60", &url]), parse_maven)
        }
    })
}

/// The final releases of the package, oldest first.
///
/// # Errors
///
/// When the manifest names no way to list them, or the listing command
/// fails, times out or prints no version.
pub fn list(r: &Releases, cwd: &Path) -> Result<Vec<String>, ReleaseError> {
    let Some((argv, parse)) = listing(r) else {
        return Err(ReleaseError::Listing {
            package: r.package.clone(),
            command: String::new(),
            why: "the manifest's [release] names no registry (nor a `versions` command)"
                .into(),
        });
    };
    let failed = |why: String| ReleaseError::Listing {
        package: r.package.clone(),
        command: argv.join(" "),
        why,
    };
    let out = run_capped(&argv, cwd, LISTING_DEADLINE).map_err(failed)?;
    let versions = tidy(parse(&out));
    if versions.is_empty() {
        let first: String = out.chars().take(200).collect();
        return Err(failed(format!("no release in its output: {first:?}")));
    }
    Ok(versions)
}

/// Checks that `version` is among `known` (normalised).
///
/// # Errors
///
/// [`ReleaseError::NotReleased`], with the last releases listed.
pub fn ensure_listed(
    r: &Releases,
    version: &str,
    known: &[String],
) -> Result<(), ReleaseError> {
    if known.iter().any(|k| k == normalise(version)) {
        return Ok(());
    }
    let tail: Vec<&str> =
        known.iter().rev().take(8).rev().map(String::as_str).collect();
    Err(ReleaseError::NotReleased {
        package: r.package.clone(),
        version: version.into(),
        registry: r.registry.map_or("its listing", Registry::label).into(),
        known: if known.len() > 8 {
            format!("… {}", tail.join(", "))
        } else {
            tail.join(", ")
        },
    })
}

/// `--versions`: a comma list, or `last:N` (the N newest of `known`);
/// oldest first either way.
///
/// # Errors
///
/// When the list is empty or `N` is not a positive number.
pub fn choose(
    spec: &str,
    known: impl FnOnce() -> Result<Vec<String>, ReleaseError>,
) -> Result<Vec<String>, ReleaseError> {
    let bad = |why: &str| ReleaseError::BadList {
        spec: spec.into(),
        why: why.into(),
    };
    if let Some(n) = spec.strip_prefix("last:") {
        let n: usize = n
            .parse()
            .ok()
            .filter(|n| *n > 0)
            .ok_or_else(|| bad("N in last:N must be a positive number"))?;
        let known = known()?;
        return Ok(known[known.len().saturating_sub(n)..].to_vec());
    }
    let mut out: Vec<String> = Vec::new();
    for v in spec.split(',').map(str::trim) {
        if v.is_empty() {
            return Err(bad("an empty version"));
        }
        if split(&format!("x@{v}")).is_err() {
            return Err(bad(&format!(
                "`{v}` is not a plain version (letters, digits, . _ + -)"
            )));
        }
        let v = normalise(v).to_string();
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out.sort_by(|a, b| compare(a, b));
    Ok(out)
}

/// Runs `argv` in `cwd` with stdin closed, keeping at most
/// [`LISTING_CAP`] bytes of its stdout, killing it after `deadline`.
fn run_capped(
    argv: &[String],
    cwd: &Path,
    deadline: Duration,
) -> Result<String, String> {
    let mut child = Command::new(&argv[0])
        .args(&argv[1..])
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", argv[0]))?;
    let capped = |pipe: Option<Box<dyn Read + Send>>, cap: usize| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.by_ref().take(cap as u64).read_to_end(&mut buf);
                // Drain the rest so the child never blocks on a full pipe.
                let _ = std::io::copy(&mut p, &mut std::io::sink());
            }
            buf
        })
    };
    let out = capped(
        child.stdout.take().map(|p| Box::new(p) as Box<dyn Read + Send>),
        LISTING_CAP,
    );
    let err = capped(
        child.stderr.take().map(|p| Box::new(p) as Box<dyn Read + Send>),
        4096,
    );
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if started.elapsed() < deadline => {
                std::thread::sleep(Duration::from_millis(50));
            }
            Ok(None) | Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "no answer within {} s",
                    deadline.as_secs()
                ));
            }
        }
    };
    let out = out.join().unwrap_or_default();
    let err = err.join().unwrap_or_default();
    if !status.success() {
        let err = String::from_utf8_lossy(&err);
        let last = err.lines().rev().find(|l| !l.trim().is_empty());
        return Err(format!(
            "{status}: {}",
            last.unwrap_or("(nothing on stderr)").trim()
        ));
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_split_at_the_at_sign_and_versions_are_plain() {
        assert_eq!(split("python-protego").unwrap(), ("python-protego", None));
        assert_eq!(
            split("python-protego@0.3.1").unwrap(),
            ("python-protego", Some("0.3.1"))
        );
        for bad in ["a@", "a@1 2", "a@$(x)", "a@-1", "a@1/2", "a@1@2"] {
            let e = split(bad).unwrap_err();
            assert!(
                matches!(e, ReleaseError::BadVersion { .. }),
                "{bad}: {e}"
            );
            assert!(e.to_string().contains(bad), "{e}");
        }
    }

    #[test]
    fn registry_outputs_are_read_and_tidied_oldest_first() {
        let pip = "WARNING: experimental\nprotego (0.7.0)\nAvailable versions: 0.7.0, 0.10.1, 0.3.1, 0.1.16\n";
        assert_eq!(
            tidy(parse_pip(pip)),
            ["0.1.16", "0.3.1", "0.7.0", "0.10.1"]
        );
        let npm = "[\n  \"2.0.0\",\n  \"3.0.0-beta.1\",\n  \"3.0.1\"\n]\n";
        assert_eq!(tidy(parse_npm(npm)), ["2.0.0", "3.0.1"]);
        assert_eq!(tidy(parse_npm("\"1.0.0\"")), ["1.0.0"]);
        let go = "github.com/temoto/robotstxt v1.1.1 v1.1.2\n";
        assert_eq!(tidy(parse_go(go)), ["1.1.1", "1.1.2"]);
        let mvn = "<metadata><versioning><latest>1.6</latest><versions>\
                   <version>0.10</version><version>0.9</version>\
                   <version>1.6-SNAPSHOT</version></versions></versioning></metadata>";
        assert_eq!(tidy(parse_maven(mvn)), ["0.9", "0.10"]);
        assert!(tidy(parse_pip("ERROR: No matching distribution")).is_empty());
    }

    #[test]
    fn version_lists_and_last_n_are_chosen_oldest_first() {
        let known = || Ok(vec!["1".into(), "2".into(), "3".into()]);
        assert_eq!(choose("last:2", known).unwrap(), ["2", "3"]);
        assert_eq!(choose("last:9", known).unwrap(), ["1", "2", "3"]);
        assert_eq!(choose("v1.2, 0.9,1.2", known).unwrap(), ["0.9", "1.2"]);
        for bad in ["last:0", "last:x", "1,,2", "1;rm"] {
            assert!(choose(bad, known).is_err(), "{bad}");
        }
    }

    #[test]
    fn an_unlisted_version_is_an_error_naming_it() {
        let r = Releases {
            registry: Some(Registry::Pypi),
            package: "protego".into(),
            versions: None,
        };
        let known: Vec<String> = (0..10).map(|i| format!("0.{i}")).collect();
        assert!(ensure_listed(&r, "0.3", &known).is_ok());
        let e = ensure_listed(&r, "9.9", &known).unwrap_err().to_string();
        assert!(e.contains("protego 9.9") && e.contains("PyPI"), "{e}");
        assert!(e.contains("0.9") && !e.contains("0.1,"), "{e}");
    }

    #[test]
    fn a_listing_command_that_fails_or_hangs_is_an_error_not_a_wait() {
        let r = |cmd: &[&str]| Releases {
            registry: None,
            package: "p".into(),
            versions: Some(cmd.iter().map(|s| s.to_string()).collect()),
        };
        let dir = std::env::temp_dir();
        let ok = list(&r(&["sh", "-c", "printf '1.0\\n0.9\\n'"]), &dir);
        assert_eq!(ok.unwrap(), ["0.9", "1.0"]);
        let fail = list(&r(&["sh", "-c", "echo gone >&2; exit 3"]), &dir);
        let e = fail.unwrap_err().to_string();
        assert!(e.contains("gone") && e.contains("listing"), "{e}");
        let empty = list(&r(&["true"]), &dir).unwrap_err().to_string();
        assert!(empty.contains("no release"), "{empty}");
        let hung = run_capped(
            &["sleep".into(), "5".into()],
            &dir,
            Duration::from_millis(200),
        );
        assert!(hung.unwrap_err().contains("no answer"));
    }
}
