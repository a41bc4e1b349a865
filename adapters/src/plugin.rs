//! Adapters that live outside this repository: a parser's own repository
//! holds its `adapter.toml` and script, and the command line names them
//! with `--adapter-dir DIR` (a folder of adapter folders, or one adapter
//! folder) or by the manifest's path wherever an adapter name is taken
//! (`--adapter ../mylib/ci/adapter.toml`).
//!
//! What is plugged in is remembered for the rest of the process, so that
//! the registry lists and opens such adapters by name like the ones
//! under `adapters/ext/` (they shadow a built-in one of the same name:
//! the parser's own repository knows its adapter best). Their state goes
//! under the usual state root ([`crate::manifest::state_root`]).
//!
//! It only loads manifests; it never runs their commands, and a broken
//! manifest given on purpose is an error naming the file, never skipped.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use crate::manifest::{Manifest, ManifestError};

/// Why an adapter folder or manifest cannot be plugged in.
#[derive(Debug, thiserror::Error)]
pub enum PluginError {
    /// The manifest cannot be loaded.
    #[error(transparent)]
    Manifest(#[from] ManifestError),
    /// The folder cannot be read.
    #[error("{}: {source}", dir.display())]
    ReadDir {
        /// The folder.
        dir: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The folder holds no `adapter.toml`, nor folders that do.
    #[error(
        "{}: no adapter.toml in it nor in any folder directly under it",
        dir.display()
    )]
    NoManifest {
        /// The folder.
        dir: PathBuf,
    },
    /// Two different folders give an adapter of the same name.
    #[error("adapter `{name}` is given twice: by {} and by {}", first.display(), second.display())]
    Twice {
        /// The adapter's name.
        name: String,
        /// The folder plugged in first.
        first: PathBuf,
        /// The other one.
        second: PathBuf,
    },
    /// The name is that of the oracle or a Rust crate.
    #[error("{}: the name `{name}` is taken by a built-in adapter", file.display())]
    Reserved {
        /// The adapter's name.
        name: String,
        /// Its manifest.
        file: PathBuf,
    },
}

static PLUGGED: Mutex<Vec<Manifest>> = Mutex::new(Vec::new());

fn plugged() -> MutexGuard<'static, Vec<Manifest>> {
    // A poisoned lock only means another thread panicked while pushing
    // a whole manifest: the list itself is still whole.
    PLUGGED.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Whether an adapter name is a manifest's path instead (it names a
/// `.toml` file or contains a `/`).
pub fn is_path(spec: &str) -> bool {
    spec.ends_with(".toml") || spec.contains('/')
}

/// Plugs in the manifest at `path` (an `adapter.toml`, or a folder
/// holding one); the adapter's name. `reserved` tells the names of
/// built-in adapters it may not take.
///
/// # Errors
///
/// When the manifest cannot be loaded, its name is built in, or another
/// folder already gave that name.
pub fn add_manifest(
    path: &Path,
    reserved: &dyn Fn(&str) -> bool,
) -> Result<String, PluginError> {
    let m = if path.is_dir() {
        Manifest::load(path)?
    } else {
        Manifest::load_file(path)?
    };
    if reserved(&m.name) {
        return Err(PluginError::Reserved {
            name: m.name,
            file: m.dir.join("adapter.toml"),
        });
    }
    let mut list = plugged();
    if let Some(old) = list.iter().find(|o| o.name == m.name) {
        if old.dir == m.dir {
            return Ok(m.name);
        }
        return Err(PluginError::Twice {
            name: m.name,
            first: old.dir.clone(),
            second: m.dir,
        });
    }
    let name = m.name.clone();
    list.push(m);
    Ok(name)
}

/// Plugs in `dir`: the adapter in it if it holds an `adapter.toml`, else
/// every folder directly under it that holds one; their names.
///
/// # Errors
///
/// When the folder cannot be read, holds no manifest, or one of them
/// cannot be plugged in ([`add_manifest`]).
pub fn add_dir(
    dir: &Path,
    reserved: &dyn Fn(&str) -> bool,
) -> Result<Vec<String>, PluginError> {
    if dir.join("adapter.toml").is_file() {
        return Ok(vec![add_manifest(dir, reserved)?]);
    }
    let entries = std::fs::read_dir(dir).map_err(|source| {
        PluginError::ReadDir { dir: dir.to_path_buf(), source }
    })?;
    let mut dirs: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("adapter.toml").is_file())
        .collect();
    if dirs.is_empty() {
        return Err(PluginError::NoManifest { dir: dir.to_path_buf() });
    }
    dirs.sort();
    dirs.iter().map(|d| add_manifest(d, reserved)).collect()
}

/// The adapters plugged in so far, in the order given.
pub fn manifests() -> Vec<Manifest> {
    plugged().clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest(dir: &Path, name: &str) {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(
            dir.join("adapter.toml"),
            format!(
                "name = \"{name}\"\nlanguage = \"sh\"\npackage = \"p\"\n\
                 version = \"1\"\nprofile = \"rfc9309\"\nrun = [\"{{dir}}/a.sh\"]\n"
            ),
        )
        .unwrap();
    }

    #[test]
    fn folders_and_manifests_plug_in_once_and_clashes_are_errors() {
        let root = std::env::temp_dir()
            .join(format!("rc-plugin-unit-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        manifest(&root.join("set/sh-one"), "sh-unit-one");
        manifest(&root.join("set/sh-two"), "sh-unit-two");
        manifest(&root.join("other/sh-one"), "sh-unit-one");
        manifest(&root.join("builtin"), "rust-robotxt");
        std::fs::create_dir_all(root.join("empty")).unwrap();
        let reserved = |n: &str| n.starts_with("rust-");

        let names = add_dir(&root.join("set"), &reserved).unwrap();
        assert_eq!(names, ["sh-unit-one", "sh-unit-two"]);
        // The same folder again, by its manifest's path: no change.
        let again = root.join("set/sh-one/adapter.toml");
        assert_eq!(add_manifest(&again, &reserved).unwrap(), "sh-unit-one");
        let list = manifests();
        let ours: Vec<_> =
            list.iter().filter(|m| m.name.starts_with("sh-unit")).collect();
        assert_eq!(ours.len(), 2);
        assert!(ours[0].state.ends_with("sh-unit-one"));

        let twice = add_dir(&root.join("other"), &reserved).unwrap_err();
        assert!(matches!(twice, PluginError::Twice { .. }), "{twice}");
        let built_in = add_dir(&root.join("builtin"), &reserved).unwrap_err();
        assert!(built_in.to_string().contains("rust-robotxt"), "{built_in}");
        let empty = add_dir(&root.join("empty"), &reserved).unwrap_err();
        assert!(empty.to_string().contains("no adapter.toml"), "{empty}");
        let missing = add_manifest(&root.join("nope.toml"), &reserved);
        assert!(missing.unwrap_err().to_string().contains("nope.toml"));
        let _ = std::fs::remove_dir_all(&root);
    }
}
