//! Hostile inputs from the issue that filed them (#14), each as the
//! command a user ran: case bombs and a non-UTF-8 case file are case
//! errors with file, line and case id (never a panic or an abort), a
//! broken clause index is one error, an unwritable `diff --out` is named
//! before anything runs, and `serve` reads a flood on stdin, or serves a
//! flooding adapter, in bounded memory (peak RSS read from `/proc`).

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::{bin, case_files, run_watching_peak, scratch, text};

/// A cases folder with the project's clause index and `t/x.toml` holding
/// `case` (its bytes as given).
fn cases_file(tag: &str, case: &[u8]) -> PathBuf {
    case_files(&format!("hostile-{tag}"), &[("x", case)])
}

fn bomb(parts: &str) -> Vec<u8> {
    format!(
        "[[case]]\nid = \"ok\"\nclauses = [\"R2.2.2-9\"]\nsource = \"regression\"\n\
         robots = \"\"\ncheck = [{{ agent = \"a\", url = \"/\", expect = \"allowed\" }}]\n\n\
         [[case]]\nid = \"bomb\"\nclauses = [\"R2.2.2-9\"]\nsource = \"regression\"\n\
         robots_parts = [{parts}]\n\
         check = [{{ agent = \"a\", url = \"/\", expect = \"allowed\" }}]\n"
    )
    .into_bytes()
}

#[test]
fn case_bombs_are_case_errors_in_validate_run_and_matrix() {
    let bombs = [
        ("max", "{ repeat = \"aaaa\", times = 9223372036854775807 }"),
        ("huge", "{ repeat = \"aaaa\", times = 100000000000 }"),
        ("pad", "{ pad = \"a\", to = 100000000000 }"),
    ];
    for (tag, parts) in bombs {
        let cases = cases_file(&format!("bomb-{tag}"), &bomb(parts));
        for argv in [
            vec!["validate", cases.to_str().unwrap()],
            vec!["run", "--cases", cases.to_str().unwrap()],
            vec![
                "matrix",
                "--threads",
                "--adapters",
                "rust-robotxt",
                "--cases",
                cases.to_str().unwrap(),
            ],
        ] {
            let (run, peak_kib, _) = {
                let mut c = bin();
                c.args(&argv);
                run_watching_peak(c)
            };
            let what = format!("{tag}: {}", argv[0]);
            // Not 101 (panic) nor 134 (abort): a case error.
            assert!(
                matches!(run.status.code(), Some(1 | 2)),
                "{what}: {:?}",
                run.status
            );
            let all = text(&run.stdout) + &text(&run.stderr);
            assert!(all.contains("x.toml:8: case `bomb`"), "{what}: {all}");
            assert!(all.contains("64 MiB"), "{what}: {all}");
            assert!(!all.contains("panicked"), "{what}: {all}");
            eprintln!("peak RSS {peak_kib} KiB");
            assert!(peak_kib < 256 * 1024, "{what}: peak RSS {peak_kib} KiB");
        }
    }
}

#[test]
fn a_non_utf8_case_file_names_its_line() {
    let mut case = bomb("{ text = \"x\" }");
    case.extend_from_slice(b"# caf\xe9\n");
    let cases = cases_file("non-utf8", &case);
    let run = bin().arg("validate").arg(&cases).output().unwrap();
    assert_eq!(run.status.code(), Some(1), "{}", text(&run.stderr));
    let all = text(&run.stdout) + &text(&run.stderr);
    assert!(all.contains("x.toml:14: case `bomb`"), "{all}");
    assert!(all.contains("UTF-8"), "{all}");
}

#[test]
fn a_broken_clause_index_is_one_error() {
    let cases = cases_file("clauses", &bomb("{ text = \"x\" }"));
    std::fs::write(cases.join("clauses.toml"), "[[clause]\nid = ").unwrap();
    let run = bin().arg("validate").arg(&cases).output().unwrap();
    assert_eq!(run.status.code(), Some(1), "{}", text(&run.stderr));
    let all = text(&run.stdout) + &text(&run.stderr);
    assert!(all.contains("clauses.toml"), "{all}");
    assert!(
        all.contains(": 1 error(s)"),
        "one error, not one per case: {all}"
    );
}

#[test]
fn an_unwritable_diff_out_is_named_before_anything_runs() {
    let dir = scratch("hostile-diff-out");
    let file = dir.join("a-file");
    std::fs::write(&file, "not a folder").unwrap();
    let run = bin()
        .args(["diff", "--adapters", "rust-robotxt", "--cases", "5", "--out"])
        .arg(file.join("out"))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2), "{}", text(&run.stderr));
    assert!(text(&run.stderr).contains("a-file"), "{}", text(&run.stderr));
}

/// `serve` with `args`, fed `input` by a writer thread, its peak RSS read
/// from `/proc`; the answer lines.
fn serve_watching_peak(
    args: &[&str],
    env: Option<(&str, &Path)>,
    input: impl FnOnce(&mut dyn Write) + Send + 'static,
) -> (Vec<serde_json::Value>, u64) {
    let mut c = bin();
    c.arg("serve").args(args).stdin(Stdio::piped());
    if let Some((k, v)) = env {
        c.env(k, v);
    }
    let (c, stdin) = with_stdin(c);
    let writer = std::thread::spawn(move || {
        let mut stdin = stdin.recv().unwrap();
        input(&mut stdin);
    });
    let (out, peak) = run_watching_peak_spawned(c);
    writer.join().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let answers = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (answers, peak)
}

/// Hands the spawned child's stdin to a receiver (the child is spawned
/// by [`run_watching_peak_spawned`]).
fn with_stdin(
    c: Command,
) -> (
    (Command, std::sync::mpsc::Sender<std::process::ChildStdin>),
    std::sync::mpsc::Receiver<std::process::ChildStdin>,
) {
    let (tx, rx) = std::sync::mpsc::channel();
    ((c, tx), rx)
}

fn run_watching_peak_spawned(
    (mut c, tx): (Command, std::sync::mpsc::Sender<std::process::ChildStdin>),
) -> (std::process::Output, u64) {
    let mut child =
        c.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    tx.send(child.stdin.take().unwrap()).unwrap();
    common::watch_peak(child)
}

#[test]
fn serve_reads_a_stdin_flood_in_bounded_memory_and_goes_on() {
    let (answers, peak_kib) = serve_watching_peak(&[], None, |w| {
        // 300 MiB without a newline (over the 128 MiB line cap), then a
        // good line.
        let chunk = vec![b'x'; 1 << 20];
        for _ in 0..300 {
            if w.write_all(&chunk).is_err() {
                return;
            }
        }
        let _ = w.write_all(
            b"\n{\"id\":2,\"op\":\"decide\",\"robots\":\"\",\"agent\":\"a\",\"urls\":[\"/x\"]}\n",
        );
    });
    assert_eq!(answers.len(), 2, "{answers:?}");
    assert!(
        answers[0]["error"].as_str().unwrap().contains("longer"),
        "{}",
        answers[0]
    );
    assert_eq!(answers[1]["results"][0]["verdict"], "allowed");
    // The line cap is 128 MiB: without it the whole flood is held.
    eprintln!("peak RSS {peak_kib} KiB");
    assert!(peak_kib < 200 * 1024, "peak RSS {peak_kib} KiB");
}

#[test]
fn serve_of_a_flooding_adapter_answers_in_bounded_memory() {
    if Command::new("python3").arg("-c").arg("1").output().is_err() {
        return;
    }
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/misbehaving");
    let (answers, peak_kib) = serve_watching_peak(
        &["--adapter", "fake-flood"],
        Some(("ROBOTS_CONFORMANCE_ADAPTERS", &fixtures)),
        |w| {
            let _ = w.write_all(
                b"{\"id\":1,\"op\":\"decide\",\"robots\":\"\",\"agent\":\"a\",\"urls\":[\"/ok\",\"/flood\"]}\n",
            );
        },
    );
    assert_eq!(answers.len(), 1, "{answers:?}");
    let results = answers[0]["results"].as_array().unwrap();
    assert_eq!(results[0]["verdict"], "allowed", "{results:?}");
    assert!(results[1]["error"].is_string(), "{results:?}");
    // The adapter's line cap is 16 MiB; the flood is unbounded.
    eprintln!("peak RSS {peak_kib} KiB");
    assert!(peak_kib < 200 * 1024, "peak RSS {peak_kib} KiB");
}

/// A small tmpfs mounted on a fresh folder, unmounted when dropped; `None`
/// where this process may not mount (not root, or no mount namespace
/// rights).
struct SmallDisk(PathBuf);

impl SmallDisk {
    fn mount(tag: &str, size: &str) -> Option<SmallDisk> {
        let dir = scratch(tag);
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(&dir)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        ok.then_some(SmallDisk(dir))
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

#[test]
fn a_full_disk_never_destroys_the_old_baseline() {
    let Some(disk) = SmallDisk::mount("hostile-full-disk", "256k") else {
        eprintln!("skipped: cannot mount a tmpfs here (needs root)");
        return;
    };
    let checks = [
        common::Check { url: "/yes", expect: "allowed" },
        common::Check { url: "/no", expect: "disallowed" },
    ];
    let cases = common::cases(
        "full-disk",
        "User-agent: *\\nDisallow: /no\\n",
        &checks,
    );
    let baseline = disk.0.join("baseline.json");
    let matrix = |adapters: &str| {
        bin()
            .args(["matrix", "--threads", "--adapters", adapters, "--cases"])
            .arg(&cases)
            .arg("--baseline")
            .arg(&baseline)
            .arg("--update-baseline")
            .output()
            .unwrap()
    };
    let run = matrix("rust-robotxt");
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let before = std::fs::read(&baseline).unwrap();
    // Fill the disk to the last byte.
    let mut filler = std::fs::File::create(disk.0.join("filler")).unwrap();
    let chunk = [0u8; 1024];
    while filler.write_all(&chunk).is_ok() {}
    let _ = filler.sync_all();
    let run = matrix("rust-robotxt,rust-robots_txt");
    assert_eq!(run.status.code(), Some(2), "{}", text(&run.stdout));
    let err = text(&run.stderr);
    eprintln!("{err}");
    assert!(
        err.contains(&disk.0.display().to_string()),
        "names the path: {err}"
    );
    assert_eq!(
        std::fs::read(&baseline).unwrap(),
        before,
        "old baseline intact"
    );
    let mut names: Vec<String> = std::fs::read_dir(&disk.0)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names.retain(|n| !n.ends_with(".lock"));
    assert_eq!(names, ["baseline.json", "filler"], "no temp file left");
}
