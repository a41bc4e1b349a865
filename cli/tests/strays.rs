//! No orphan process: a program that escapes its process group with
//! `setsid` (so the group's SIGKILL misses it) and outlives the check is
//! still killed before the binary exits.

mod common;

use common::{bin, scratch, text};

/// The pids of running processes whose command line holds `marker`.
fn running_with(marker: &str) -> Vec<u32> {
    let Ok(dir) = std::fs::read_dir("/proc") else { return Vec::new() };
    dir.filter_map(|e| {
        let e = e.ok()?;
        let pid: u32 = e.file_name().to_str()?.parse().ok()?;
        let cmdline = std::fs::read(e.path().join("cmdline")).ok()?;
        let state = std::fs::read_to_string(e.path().join("stat")).ok()?;
        // A zombie has exited already; only a live process counts.
        let zombie = state.rsplit_once(')')?.1.trim_start().starts_with('Z');
        let words = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        (words.contains(marker) && !zombie).then_some(pid)
    })
    .collect()
}

#[test]
fn a_program_that_calls_setsid_leaves_nothing_running() {
    let dir = scratch("strays");
    let file = dir.join("robots.txt");
    std::fs::write(&file, "User-agent: *\nDisallow: /private\n").unwrap();
    // The sleep's duration is this test's marker; it keeps the check's
    // stderr open too, so the binary must not wait for it either.
    let marker = format!("{}.25", 600 + std::process::id() % 300);
    let template = format!(
        "sh -c 'setsid sleep {marker} </dev/null >/dev/null & exit 1' \
         {{robots}} {{agent}} {{url}}"
    );
    let run = bin()
        .args(["check", "--robots"])
        .arg(&file)
        .args(["--agent", "FooBot", "--command", &template, "/private/x"])
        .output()
        .unwrap();
    let left = running_with(&format!("sleep {marker}"));
    for pid in &left {
        let _ = std::process::Command::new("kill")
            .args(["-9", &pid.to_string()])
            .status();
    }
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    assert_eq!(text(&run.stdout), "disallowed /private/x\n");
    assert!(left.is_empty(), "left running: {left:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
