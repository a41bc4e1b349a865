//! `playground`: writes the browser playground, one self-contained
//! `index.html` that works from `file://` or any static host.
//!
//! The page's markup, style and script are the static assets of
//! `bindings/wasm/playground/`, embedded here; the oracle is the
//! WebAssembly build of `bindings/wasm/build.sh` (its `pkg/`), read at run
//! time and inlined (base64, since `file://` pages cannot fetch). This
//! command only assembles: it decides nothing and never edits the assets.

use std::path::{Path, PathBuf};

use anyhow::Context;
use base64::Engine;
use robots_runner::output;

const TEMPLATE: &str =
    include_str!("../../../bindings/wasm/playground/index.html");
const STYLE: &str =
    include_str!("../../../bindings/wasm/playground/style.css");
const APP: &str = include_str!("../../../bindings/wasm/playground/app.js");

/// The classic-script glue and the module `build.sh` writes, under `pkg/`.
const GLUE: &str = "inline/robots_oracle_wasm.js";
const WASM: &str = "inline/robots_oracle_wasm_bg.wasm";

/// The largest module accepted (the build is about 320 KB).
const MAX_WASM_BYTES: u64 = 16 << 20;

/// Write the browser playground (a single index.html, usable from file://).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The folder to write index.html into (created if missing)
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// The WebAssembly build (bindings/wasm/build.sh writes it) [default:
    /// bindings/wasm/pkg of the project]
    #[arg(long, value_name = "DIR")]
    wasm: Option<PathBuf>,
}

/// `bindings/wasm/pkg` of the project: the working directory when it is
/// the project root, else the root this binary was built in.
fn default_pkg() -> PathBuf {
    let relative = Path::new("bindings/wasm/pkg");
    if Path::new("spec-cases").is_dir() {
        return relative.to_path_buf();
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(relative)
}

fn read_capped(path: &Path, cap: u64) -> anyhow::Result<Vec<u8>> {
    let len = std::fs::metadata(path)
        .with_context(|| {
            format!(
                "no WebAssembly build at {}: run bindings/wasm/build.sh first \
                 (or pass --wasm)",
                path.display()
            )
        })?
        .len();
    anyhow::ensure!(
        len <= cap,
        "{}: {len} bytes, more than the {cap} a playground inlines",
        path.display()
    );
    std::fs::read(path).with_context(|| format!("reading {}", path.display()))
}

/// The page: the template with its four placeholders filled. A `</script`
/// in an inlined script would end its element early, so none may hold one.
fn page(glue: &str, wasm: &[u8]) -> anyhow::Result<String> {
    for (name, text) in [("glue", glue), ("app.js", APP)] {
        anyhow::ensure!(
            !text.to_ascii_lowercase().contains("</script"),
            "{name} contains `</script`: it cannot be inlined"
        );
    }
    let b64 = base64::engine::general_purpose::STANDARD.encode(wasm);
    let mut out = TEMPLATE.to_string();
    for (slot, value) in [
        ("/*STYLE*/", STYLE),
        ("/*WASM_BASE64*/", b64.as_str()),
        ("/*GLUE*/", glue),
        ("/*APP*/", APP),
    ] {
        anyhow::ensure!(
            out.matches(slot).count() == 1,
            "the playground template must hold {slot} once"
        );
        out = out.replacen(slot, value, 1);
    }
    Ok(out)
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    let pkg = a.wasm.unwrap_or_else(default_pkg);
    let wasm = read_capped(&pkg.join(WASM), MAX_WASM_BYTES)?;
    let glue =
        String::from_utf8(read_capped(&pkg.join(GLUE), MAX_WASM_BYTES)?)
            .with_context(|| {
                format!("{} is not UTF-8", pkg.join(GLUE).display())
            })?;
    let html = page(&glue, &wasm)?;
    std::fs::create_dir_all(&a.out)
        .with_context(|| format!("creating {}", a.out.display()))?;
    let index = a.out.join("index.html");
    output::atomic_write(&index, html.as_bytes())?;
    println!(
        "playground: {} ({} bytes, the oracle {} bytes of WebAssembly)",
        index.display(),
        html.len(),
        wasm.len()
    );
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_slot_is_filled_once() {
        let html = page("var wasm_bindgen = 1;", b"\0asm").unwrap();
        for slot in ["/*STYLE*/", "/*WASM_BASE64*/", "/*GLUE*/", "/*APP*/"] {
            assert!(!html.contains(slot), "{slot} left in the page");
        }
        assert!(
            html.contains(">AGFzbQ==</script>"),
            "the module inlined as base64"
        );
        assert!(html.contains("var wasm_bindgen = 1;"));
        assert!(html.contains(APP) && html.contains(STYLE));
    }

    #[test]
    fn a_glue_that_would_end_its_script_is_refused() {
        let e = page("x = '</SCRIPT>'", b"").unwrap_err();
        assert!(e.to_string().contains("</script"), "{e}");
    }
}
