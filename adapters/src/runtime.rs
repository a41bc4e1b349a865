//! The runtimes out-of-process adapters need (Python with venv, Node and
//! npm, Go, Java and Maven, Perl, Ruby, a C++ compiler), whether each is
//! here, and the exact command that installs a missing one on the
//! project's kind of machine (Debian 12).
//!
//! The commands are the ones that work there: Node 20 from NodeSource
//! ships its own npm and Debian's `npm` package conflicts with it, so
//! `apt-get install npm` is suggested only beside Debian's own `nodejs`;
//! Debian 12's Go is 1.19, which go-colly's `fix` line says is too old
//! for it.
//!
//! It only looks (PATH, a Python import, the installed `nodejs`
//! package) and tells; it never installs anything.

use std::process::{Command, Stdio};

use crate::manifest::{Manifest, on_path};

/// How a missing runtime is installed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fix {
    /// These Debian packages.
    Apt(Vec<&'static str>),
    /// Something apt cannot do here, said in words.
    Manual(String),
}

/// A runtime that is missing or incomplete.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Missing {
    /// What is missing (`npm`, `python3 venv`, …).
    pub what: String,
    /// How to install it.
    pub fix: Fix,
}

/// `sudo ` unless this process runs as root.
fn sudo() -> &'static str {
    if rustix::process::getuid().is_root() { "" } else { "sudo " }
}

impl Fix {
    /// The exact command.
    pub fn command(&self) -> String {
        match self {
            Fix::Apt(packages) => {
                format!("{}apt-get install -y {}", sudo(), packages.join(" "))
            }
            Fix::Manual(words) => words.clone(),
        }
    }
}

/// Whether `program args…` runs and exits 0 (its output discarded).
fn succeeds(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Whether the installed `nodejs` package is NodeSource's (its npm is
/// part of it).
fn nodejs_from_nodesource() -> bool {
    Command::new("dpkg-query")
        .args(["-W", "-f=${Version}", "nodejs"])
        .stderr(Stdio::null())
        .output()
        .is_ok_and(|o| {
            String::from_utf8_lossy(&o.stdout).contains("nodesource")
        })
}

/// What installs `program` when it is not on PATH (`None`: nothing known;
/// the manifest's own `fix` then says).
pub fn fix_for(program: &str) -> Option<Fix> {
    let apt = |p: &[&'static str]| Some(Fix::Apt(p.to_vec()));
    match program {
        "python3" => apt(&["python3", "python3-venv"]),
        // Debian's nodejs (18) with Debian's npm; never npm beside a
        // NodeSource nodejs.
        "node" | "nodejs" => apt(&["nodejs", "npm"]),
        "npm" if nodejs_from_nodesource() => Some(Fix::Manual(
            "npm is part of NodeSource's nodejs package installed here \
             (Debian's npm conflicts with it): reinstall nodejs from \
             NodeSource"
                .into(),
        )),
        "npm" => apt(&["npm"]),
        "go" => apt(&["golang-go"]),
        "java" => apt(&["openjdk-17-jdk-headless"]),
        "mvn" => apt(&["maven"]),
        "perl" => apt(&["perl"]),
        "ruby" => apt(&["ruby"]),
        "g++" => apt(&["g++"]),
        "tar" => apt(&["tar"]),
        "sh" => apt(&["dash"]),
        "env" | "rm" => apt(&["coreutils"]),
        // Builds bindings/python; the oracle's rust-version is newer than
        // Debian's cargo.
        "cargo" => Some(Fix::Manual(
            "Rust 1.95 or newer, installed with rustup".into(),
        )),
        _ => None,
    }
}

/// Whether `m` sets itself up with `python3 -m venv`.
fn uses_venv(m: &Manifest) -> bool {
    m.setup.iter().any(|argv| argv.windows(2).any(|w| w == ["-m", "venv"]))
}

/// What `m` needs and this machine lacks: its required programs not on
/// PATH, and Python's venv module where its set-up makes a venv.
pub fn missing(m: &Manifest) -> Vec<Missing> {
    let mut out: Vec<Missing> = m
        .missing_programs()
        .into_iter()
        .map(|p| {
            let fix = fix_for(&p).unwrap_or_else(|| {
                Fix::Manual(m.fix.clone().unwrap_or(format!("install {p}")))
            });
            Missing { what: p, fix }
        })
        .collect();
    if uses_venv(m)
        && on_path("python3")
        && !succeeds("python3", &["-c", "import venv, ensurepip"])
    {
        out.push(Missing {
            what: "python3 venv".into(),
            fix: Fix::Apt(vec!["python3-venv"]),
        });
    }
    out
}

/// The fix for `missing`, as one command where apt does it all: the apt
/// packages in one `apt-get install`, then what apt cannot do.
pub fn fix_line(missing: &[Missing]) -> String {
    let mut packages: Vec<&'static str> = Vec::new();
    let mut manual: Vec<String> = Vec::new();
    for m in missing {
        match &m.fix {
            Fix::Apt(p) => {
                for p in p {
                    if !packages.contains(p) {
                        packages.push(p);
                    }
                }
            }
            Fix::Manual(words) => manual.push(words.clone()),
        }
    }
    let mut parts = Vec::new();
    if !packages.is_empty() {
        parts.push(Fix::Apt(packages).command());
    }
    parts.extend(manual);
    parts.join("; ")
}

/// One command installing every apt package in `missing` (after
/// `apt-get update`, which a fresh machine needs first), if there are
/// any.
pub fn apt_line(missing: &[Missing]) -> Option<String> {
    let mut packages: Vec<&str> = Vec::new();
    for m in missing {
        if let Fix::Apt(p) = &m.fix {
            for p in p {
                if !packages.contains(p) {
                    packages.push(p);
                }
            }
        }
    }
    (!packages.is_empty()).then(|| {
        let s = sudo();
        format!(
            "{s}apt-get update && {s}apt-get install -y {}",
            packages.join(" ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_program_the_adapters_require_has_a_fix_and_npm_comes_alone() {
        for m in Manifest::discover().into_iter().flatten() {
            for p in &m.requires {
                assert!(fix_for(p).is_some(), "{}: {p}", m.name);
            }
        }
        // The fix for a missing npm never pulls in Debian's nodejs, and
        // Debian's nodejs comes with Debian's npm.
        match fix_for("npm").unwrap() {
            Fix::Apt(p) => assert_eq!(p, ["npm"]),
            Fix::Manual(words) => assert!(words.contains("NodeSource")),
        }
        assert_eq!(fix_for("node"), Some(Fix::Apt(vec!["nodejs", "npm"])));
    }

    #[test]
    fn the_apt_line_installs_each_package_once() {
        let m = |what: &str, p: Vec<&'static str>| Missing {
            what: what.into(),
            fix: Fix::Apt(p),
        };
        let missing = [
            m("python3", vec!["python3", "python3-venv"]),
            m("python3 venv", vec!["python3-venv"]),
            Missing { what: "x".into(), fix: Fix::Manual("build x".into()) },
            m("ruby", vec!["ruby"]),
        ];
        let line = apt_line(&missing).unwrap().replace("sudo ", "");
        assert!(
            line.ends_with(
                "apt-get update && apt-get install -y python3 python3-venv ruby"
            ),
            "{line}"
        );
        assert_eq!(apt_line(&missing[2..3]), None);
    }
}
