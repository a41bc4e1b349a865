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
/// The oracle's side of the page, run in a Web Worker (app.js starts it
/// from a Blob of this text and the glue, both inlined as text).
const WORKER: &str =
    include_str!("../../../bindings/wasm/playground/worker.js");

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
    /// The parsers' fitted readings, for "How other parsers read it": the
    /// fits.json that `matrix --fingerprint --out DIR` writes
    #[arg(long, value_name = "FILE")]
    fits: Option<PathBuf>,
}

/// The largest fits file accepted.
const MAX_FITS_BYTES: u64 = 64 << 20;

/// The fields of each fit the page shows (the file also lists every
/// residual check, which the page does not need).
const FIT_FIELDS: [&str; 6] =
    ["adapter", "claimed", "base", "changes", "scored", "agree"];

/// The fits of `path` cut to [`FIT_FIELDS`], as JSON safe inside a
/// `<script>` element.
fn fits_json(path: &Path) -> anyhow::Result<String> {
    let bytes = read_capped(path, MAX_FITS_BYTES)?;
    let all: Vec<serde_json::Map<String, serde_json::Value>> =
        serde_json::from_slice(&bytes).with_context(|| {
            format!(
                "{}: not a fits.json (an array of fits, as `matrix \
                 --fingerprint --out DIR` writes)",
                path.display()
            )
        })?;
    let mut kept = Vec::with_capacity(all.len());
    for (i, fit) in all.into_iter().enumerate() {
        let mut one = serde_json::Map::new();
        for field in FIT_FIELDS {
            let value = fit.get(field).with_context(|| {
                format!("{}: fit {i} has no `{field}`", path.display())
            })?;
            one.insert(field.to_string(), value.clone());
        }
        kept.push(serde_json::Value::Object(one));
    }
    Ok(serde_json::to_string(&kept)?.replace("</", "<\\/"))
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
        .with_context(|| format!("reading {}", path.display()))?
        .len();
    anyhow::ensure!(
        len <= cap,
        "{}: {len} bytes, more than the {cap} a playground inlines",
        path.display()
    );
    std::fs::read(path).with_context(|| format!("reading {}", path.display()))
}

/// The page: the template with its six placeholders filled. A `</script`
/// in an inlined script would end its element early, so none may hold one.
fn page(glue: &str, wasm: &[u8], fits: &str) -> anyhow::Result<String> {
    for (name, text) in
        [("glue", glue), ("app.js", APP), ("worker.js", WORKER)]
    {
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
        ("/*WORKER*/", WORKER),
        ("/*FITS*/", fits),
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
    anyhow::ensure!(
        pkg.join(WASM).is_file(),
        "no WebAssembly build at {}: run bindings/wasm/build.sh first (or \
         pass --wasm)",
        pkg.display()
    );
    let wasm = read_capped(&pkg.join(WASM), MAX_WASM_BYTES)?;
    let fits = match &a.fits {
        Some(path) => fits_json(path)?,
        None => "[]".to_string(),
    };
    let glue =
        String::from_utf8(read_capped(&pkg.join(GLUE), MAX_WASM_BYTES)?)
            .with_context(|| {
                format!("{} is not UTF-8", pkg.join(GLUE).display())
            })?;
    let html = page(&glue, &wasm, &fits)?;
    std::fs::create_dir_all(&a.out)
        .with_context(|| format!("creating {}", a.out.display()))?;
    let index = a.out.join("index.html");
    output::atomic_write(&index, html.as_bytes())?;
    // Readable by a static web server running as another user (the
    // temporary file it was renamed from was private).
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(
            &index,
            std::fs::Permissions::from_mode(0o644),
        )
        .with_context(|| format!("making {} readable", index.display()))?;
    }
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
        let html = page("var wasm_bindgen = 1;", b"\0asm", "[]").unwrap();
        for slot in [
            "/*STYLE*/",
            "/*WASM_BASE64*/",
            "/*GLUE*/",
            "/*APP*/",
            "/*WORKER*/",
            "/*FITS*/",
        ] {
            assert!(!html.contains(slot), "{slot} left in the page");
        }
        assert!(
            html.contains(">AGFzbQ==</script>"),
            "the module inlined as base64"
        );
        assert!(html.contains("var wasm_bindgen = 1;"));
        assert!(html.contains(APP) && html.contains(STYLE));
        assert!(html.contains(WORKER));
    }

    #[test]
    fn a_glue_that_would_end_its_script_is_refused() {
        let e = page("x = '</SCRIPT>'", b"", "[]").unwrap_err();
        assert!(e.to_string().contains("</script"), "{e}");
    }

    #[test]
    fn fits_are_cut_to_what_the_page_shows_and_cannot_end_the_script() {
        let dir = std::env::temp_dir()
            .join(format!("playground-fits-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("fits.json");
        std::fs::write(
            &file,
            r#"[{"adapter":"a</script>","claimed":"rfc9309","base":"rfc9309",
                "changes":["precedence=first-match"],"scored":10,"agree":9,
                "claimed_agree":8,"unanswered":0,"residual":[{"check":"x"}]}]"#,
        )
        .unwrap();
        let json = fits_json(&file).unwrap();
        assert!(!json.contains("</"), "{json}");
        let back: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(back[0]["adapter"], "a</script>");
        assert_eq!(back[0]["changes"][0], "precedence=first-match");
        assert!(back[0].get("residual").is_none());
        std::fs::write(&file, r#"[{"adapter":"a"}]"#).unwrap();
        let e = fits_json(&file).unwrap_err().to_string();
        assert!(e.contains("fit 0 has no `claimed`"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
