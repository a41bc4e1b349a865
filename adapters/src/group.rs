//! Stopping an adapter process together with everything it started.
//!
//! Each adapter is spawned as the leader of its own process group
//! ([`spawn_in_group`]); stopping it signals the whole group, so a
//! grandchild that holds the adapter's stdout is not left running. The
//! leader is only reaped after the group got SIGKILL: until then it is at
//! worst a zombie, so its process-group id cannot be reused by another
//! process and the signal cannot reach a stranger.
//!
//! This module must never signal anything but the groups it created.

use std::os::unix::process::CommandExt;
use std::process::{Child, Command};
use std::thread;
use std::time::{Duration, Instant};

use rustix::process::{
    Pid, Signal, WaitId, WaitIdOptions, kill_process_group, waitid,
};

/// Spawns `command` as the leader of a new process group.
pub fn spawn_in_group(command: &mut Command) -> std::io::Result<Child> {
    command.process_group(0).spawn()
}

/// Whether the leader has exited (without reaping it).
fn exited(pid: Pid) -> bool {
    let options =
        WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT;
    // An error (e.g. already reaped) means there is nothing to wait for.
    !matches!(waitid(WaitId::Pid(pid), options), Ok(None))
}

/// Waits up to `limit` for the leader to exit (without reaping it).
pub fn wait_exit(child: &Child, limit: Duration) -> bool {
    let pid = Pid::from_child(child);
    let until = Instant::now() + limit;
    loop {
        if exited(pid) {
            return true;
        }
        if Instant::now() >= until {
            return false;
        }
        thread::sleep(Duration::from_millis(5));
    }
}

/// SIGTERM to the group, SIGKILL to the group after `grace` (or as soon
/// as the leader is gone, for what it left behind), then reaps the
/// leader.
pub fn stop(mut child: Child, grace: Duration) {
    let pid = Pid::from_child(&child);
    let _ = kill_process_group(pid, Signal::TERM);
    wait_exit(&child, grace);
    let _ = kill_process_group(pid, Signal::KILL);
    let _ = child.wait();
}

/// For a leader that has exited (see [`wait_exit`]): SIGKILL to what it
/// left running in its group, then reaps it; its exit status.
///
/// # Errors
///
/// When the leader cannot be waited for.
pub fn reap(mut child: Child) -> std::io::Result<std::process::ExitStatus> {
    let pid = Pid::from_child(&child);
    let _ = kill_process_group(pid, Signal::KILL);
    child.wait()
}
