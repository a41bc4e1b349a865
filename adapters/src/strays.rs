//! Processes that escaped their adapter's process group.
//!
//! [`crate::group`] stops an adapter with everything in its process
//! group. A program that calls `setsid` (or moves itself to another
//! group) and outlives its parent escapes those signals, and without
//! help it would be adopted by init and run on after the suite. The
//! command-line binary therefore makes itself a *child subreaper*
//! ([`adopt`]): a process whose parent dies is re-parented to the binary
//! instead of init. Before the binary exits, [`kill_all`] sends SIGKILL
//! to every child it still has and reaps them, strays included.
//!
//! Only the binary calls these, once each, after every adapter it
//! started has been stopped: a library, or a test process running many
//! tests, must never kill children it did not start itself. Cost:
//! [`kill_all`] reads `/proc/*/stat` once per round, at most
//! [`ROUNDS`] rounds. Linux only; elsewhere both do nothing.

use std::time::Duration;

use rustix::process::{Pid, Signal, WaitId, WaitIdOptions};

/// Rounds of "find children, kill them, reap them" before giving up (a
/// child may start another one while it is being killed).
pub const ROUNDS: usize = 20;

/// Makes this process the subreaper of everything it starts.
///
/// Harmless when refused (the strays are then init's, as before).
pub fn adopt() {
    #[cfg(target_os = "linux")]
    let _ =
        rustix::process::set_child_subreaper(Some(rustix::process::getpid()));
}

/// The pids whose parent is `parent`, from `/proc/*/stat`.
pub fn children_of(parent: u32) -> Vec<u32> {
    let Ok(dir) = std::fs::read_dir("/proc") else { return Vec::new() };
    dir.filter_map(|e| {
        let e = e.ok()?;
        let pid: u32 = e.file_name().to_str()?.parse().ok()?;
        let stat = std::fs::read_to_string(e.path().join("stat")).ok()?;
        (parent_in_stat(&stat)? == parent).then_some(pid)
    })
    .collect()
}

/// The parent pid in a `/proc/PID/stat` line: `pid (comm) state ppid …`,
/// where `comm` may hold spaces and parentheses (so the last `)` ends it).
fn parent_in_stat(stat: &str) -> Option<u32> {
    let (_, rest) = stat.rsplit_once(')')?;
    rest.split_whitespace().nth(1)?.parse().ok()
}

/// SIGKILL to every child of this process, then reaps them all; the
/// number of children killed.
pub fn kill_all() -> usize {
    let me = std::process::id();
    let mut killed = 0;
    for _ in 0..ROUNDS {
        let children = children_of(me);
        if children.is_empty() {
            break;
        }
        for pid in children {
            let Some(pid) = i32::try_from(pid).ok().and_then(Pid::from_raw)
            else {
                continue;
            };
            if rustix::process::kill_process(pid, Signal::KILL).is_ok() {
                killed += 1;
            }
        }
        reap_exited();
        std::thread::sleep(Duration::from_millis(5));
        reap_exited();
    }
    killed
}

/// Reaps every child that has exited, without waiting for the others.
fn reap_exited() {
    let options = WaitIdOptions::EXITED | WaitIdOptions::NOHANG;
    while let Ok(Some(_)) = rustix::process::waitid(WaitId::All, options) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parent_is_read_past_a_command_name_with_parentheses() {
        let stat = "4242 (sh (x) y) S 17 4242 4242 0 -1 4194560 112 0";
        assert_eq!(parent_in_stat(stat), Some(17));
        assert_eq!(parent_in_stat("garbage"), None);
        assert_eq!(parent_in_stat("1 (init) S x"), None);
    }

    #[test]
    fn a_started_child_is_listed_as_ours() {
        let mut child =
            std::process::Command::new("sleep").arg("5").spawn().unwrap();
        let listed = children_of(std::process::id()).contains(&child.id());
        let _ = child.kill();
        let _ = child.wait();
        assert!(listed);
    }
}
