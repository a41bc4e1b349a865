//! Out-of-process adapter manifests: `adapters/ext/<name>/adapter.toml`,
//! or one in a parser's own repository ([`crate::plugin`]), format in
//! `adapters/PROTOCOL.md`, with the placeholders `{dir}`, `{state}`,
//! `{lib}` and `{python}` expanded.
//!
//! It only reads and expands manifests; it never runs their commands
//! (the registry runs the ready check, `adapters setup` the set-up).

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::Capabilities;
use crate::release::{self, ReleaseError, ReleaseToml, Releases};

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ManifestToml {
    name: String,
    language: String,
    package: String,
    version: String,
    profile: String,
    note: Option<String>,
    #[serde(default)]
    setup: Vec<Vec<String>>,
    ready: Option<Vec<String>>,
    run: Vec<String>,
    #[serde(default)]
    requires: Vec<String>,
    fix: Option<String>,
    #[serde(default)]
    /// Missing keys default to "decide only" (`Capabilities::default`).
    capabilities: Capabilities,
    /// How other releases than the pin are installed ([`crate::release`]).
    release: Option<ReleaseToml>,
}

/// A loaded manifest, placeholders expanded.
#[derive(Clone, Debug)]
pub struct Manifest {
    /// `<language>-<package>`.
    pub name: String,
    /// The parser's language.
    pub language: String,
    /// Package and pinned version, e.g. `protego 0.7.0`.
    pub version: String,
    /// The profile it claims.
    pub profile: String,
    /// One line for listings.
    pub note: String,
    /// Install commands, in order.
    pub setup: Vec<Vec<String>>,
    /// A command that exits 0 when the parser is installed.
    pub ready: Option<Vec<String>>,
    /// The command that speaks the protocol.
    pub run: Vec<String>,
    /// Programs that must be on PATH.
    pub requires: Vec<String>,
    /// What to run when one of them is missing.
    pub fix: Option<String>,
    /// What it can be asked.
    pub capabilities: Capabilities,
    /// Its folder.
    pub dir: PathBuf,
    /// Its git-ignored state folder.
    pub state: PathBuf,
    /// The manifest file it was loaded from.
    pub file: PathBuf,
    /// The version the manifest pins (e.g. `0.7.0`).
    pub pinned: String,
    /// The release this manifest installs when it is not the pin
    /// (`name` is then `NAME@VERSION`, `state` its own folder).
    pub release: Option<String>,
    /// How its parser's releases are listed, if other releases than the
    /// pin can be installed.
    pub releases: Option<Releases>,
}

/// The folder holding `ext/`: `$ROBOTS_CONFORMANCE_ADAPTERS`, else the
/// one this crate was built from.
pub fn ext_root() -> PathBuf {
    std::env::var_os("ROBOTS_CONFORMANCE_ADAPTERS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("ext"))
}

/// Where adapters install into: `$ROBOTS_CONFORMANCE_STATE`, else
/// `.adapters/` at the project root (git-ignored).
pub fn state_root() -> PathBuf {
    std::env::var_os("ROBOTS_CONFORMANCE_STATE")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(".adapters")
        })
}

/// The protocol helpers for Python and Node (`adapters/ext/lib/`), which
/// an adapter outside this repository reaches as `{lib}`.
pub fn lib_dir() -> PathBuf {
    ext_root().join("lib")
}

fn expand(s: &str, dir: &Path, state: &Path, version: &str) -> String {
    s.replace("{version}", version)
        .replace("{dir}", &dir.to_string_lossy())
        .replace("{state}", &state.to_string_lossy())
        .replace("{lib}", &lib_dir().to_string_lossy())
        .replace("{python}", "python3")
}

/// Why an `adapter.toml` cannot be loaded.
#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    /// The file cannot be read.
    #[error("{}: {source}", file.display())]
    Read {
        /// The file.
        file: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file does not follow the format.
    #[error("{}: {source}", file.display())]
    Format {
        /// The file.
        file: PathBuf,
        /// What is wrong, with its line.
        source: toml::de::Error,
    },
    /// The manifest installs only its pin.
    #[error(transparent)]
    Release(#[from] ReleaseError),
}

impl Manifest {
    /// Loads `dir/adapter.toml`.
    ///
    /// # Errors
    ///
    /// When the file cannot be read or does not follow the format.
    pub fn load(dir: &Path) -> Result<Manifest, ManifestError> {
        Manifest::load_file(&dir.join("adapter.toml"))
    }

    /// Loads the manifest `file` (any name); `{dir}` is its folder.
    ///
    /// # Errors
    ///
    /// When the file cannot be read or does not follow the format.
    pub fn load_file(file: &Path) -> Result<Manifest, ManifestError> {
        Manifest::load_release(file, None)
    }

    /// This manifest at another release of its parser: named
    /// `NAME@VERSION`, installed into `.adapters/NAME@VERSION/` by its
    /// `[release]` set-up. The pinned version gives the manifest itself.
    ///
    /// # Errors
    ///
    /// When the manifest has no `[release]` table (it installs only its
    /// pin), or it can no longer be read.
    pub fn at_release(
        &self,
        version: &str,
    ) -> Result<Manifest, ManifestError> {
        let version = release::normalise(version);
        if version == self.pinned {
            return Manifest::load_file(&self.file);
        }
        Manifest::load_release(&self.file, Some(version))
    }

    fn load_release(
        file: &Path,
        version: Option<&str>,
    ) -> Result<Manifest, ManifestError> {
        let dir = match file.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let file = file.canonicalize().unwrap_or_else(|_| file.to_path_buf());
        let text = std::fs::read_to_string(&file).map_err(|source| {
            ManifestError::Read { file: file.clone(), source }
        })?;
        let m: ManifestToml = toml::from_str(&text).map_err(|source| {
            ManifestError::Format { file: file.clone(), source }
        })?;
        let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
        let (name, setup, at) = match (version, &m.release) {
            (None, _) => (m.name.clone(), m.setup.clone(), m.version.clone()),
            (Some(v), Some(r)) => {
                (format!("{}@{v}", m.name), r.setup.clone(), v.to_string())
            }
            (Some(v), None) => {
                return Err(ReleaseError::PinnedOnly {
                    name: m.name.clone(),
                    pinned: m.version.clone(),
                    asked: v.into(),
                    why: format!(
                        "{} has no [release] table saying how to install another",
                        file.display()
                    ),
                }
                .into());
            }
        };
        let state = state_root().join(&name);
        let argv = |v: &Vec<String>| {
            v.iter().map(|s| expand(s, &dir, &state, &at)).collect::<Vec<_>>()
        };
        let releases = m.release.as_ref().map(|r| Releases {
            registry: r.registry,
            package: r.package.clone(),
            versions: r.versions.as_ref().map(argv),
        });
        Ok(Manifest {
            version: format!("{} {at}", m.package),
            note: m.note.unwrap_or_default(),
            setup: setup.iter().map(argv).collect(),
            ready: m.ready.as_ref().map(argv),
            run: argv(&m.run),
            requires: m.requires,
            fix: m.fix,
            capabilities: m.capabilities,
            name,
            language: m.language,
            profile: m.profile,
            dir,
            state,
            file,
            pinned: m.version,
            release: version.map(str::to_string),
            releases,
        })
    }

    /// Every manifest under [`ext_root`], sorted by name; broken ones as
    /// errors.
    pub fn discover() -> Vec<Result<Manifest, ManifestError>> {
        let Ok(entries) = std::fs::read_dir(ext_root()) else { return vec![] };
        let mut dirs: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.join("adapter.toml").is_file())
            .collect();
        dirs.sort();
        dirs.iter().map(|d| Manifest::load(d)).collect()
    }

    /// The required programs missing from PATH.
    pub fn missing_programs(&self) -> Vec<String> {
        self.requires.iter().filter(|p| !on_path(p)).cloned().collect()
    }
}

/// Whether `program` is an executable on PATH (or a path that exists).
pub fn on_path(program: &str) -> bool {
    if program.contains('/') {
        return Path::new(program).exists();
    }
    std::env::var_os("PATH").is_some_and(|paths| {
        std::env::split_paths(&paths).any(|d| d.join(program).is_file())
    })
}
