//! Build-time fingerprints of the code whose answers the matrix's answer
//! cache (`src/cache.rs`) stores: the oracle (`../src`, the root
//! manifest) and the adapters crate (`../adapters/src`, its manifest and
//! the lock file, which pins every in-process parser crate). An edit to
//! any of those files changes the fingerprint, and with it every key the
//! cache files its answers under.
//!
//! It only reads files; a path that is missing (a packaged build) hashes
//! as absent, never fails the build.

use std::path::{Path, PathBuf};

/// FNV-1a, 128 bits: stable across builds and toolchains.
fn fnv(state: &mut u128, bytes: &[u8]) {
    const PRIME: u128 = 0x0000000001000000000000000000013B;
    for &b in bytes {
        *state ^= u128::from(b);
        *state = state.wrapping_mul(PRIME);
    }
}

const OFFSET: u128 = 0x6c62272e07bb014262b821756295c58d;

/// Every file under `path` (or `path` itself), sorted.
fn files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_file() {
        out.push(path.to_path_buf());
        return;
    }
    let Ok(dir) = std::fs::read_dir(path) else { return };
    let mut entries: Vec<PathBuf> =
        dir.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for e in entries {
        files(&e, out);
    }
}

fn fingerprint(root: &Path, parts: &[&str]) -> String {
    let mut state = OFFSET;
    for part in parts {
        let path = root.join(part);
        println!("cargo:rerun-if-changed={}", path.display());
        let mut list = Vec::new();
        files(&path, &mut list);
        if list.is_empty() {
            fnv(&mut state, b"absent:");
            fnv(&mut state, part.as_bytes());
        }
        for f in list {
            let rel = f.strip_prefix(root).unwrap_or(&f);
            fnv(&mut state, rel.to_string_lossy().as_bytes());
            fnv(&mut state, &[0]);
            let body = std::fs::read(&f).unwrap_or_default();
            fnv(&mut state, &(body.len() as u64).to_le_bytes());
            fnv(&mut state, &body);
        }
    }
    format!("{state:032x}")
}

fn main() {
    let here = PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default(),
    );
    let root = here.join("..");
    let oracle = fingerprint(&root, &["src", "Cargo.toml"]);
    let adapters = fingerprint(
        &root,
        &["adapters/src", "adapters/Cargo.toml", "Cargo.lock"],
    );
    println!("cargo:rustc-env=ROBOTS_ORACLE_FINGERPRINT={oracle}");
    println!("cargo:rustc-env=ROBOTS_ADAPTERS_FINGERPRINT={adapters}");
}
