//! What a parse says it holds (`RobotsTxt::heap_bytes`, what a cache that
//! weighs its entries charges for it, the switch-space search's among
//! them) against what it holds: the heap this thread allocated and did
//! not free while parsing a case's body and asking it every decide check
//! of the case, five times each, so that every index the adaptive path
//! builds is built. The figure must not be less than that (a cache cap
//! that undercounts is no cap), nor more than a bounded multiple of it
//! (a figure that says nothing).
//!
//! The binary's allocator counts, per thread, what it hands out and
//! takes back ([`Counting`]); a trial runs on one thread, and what it
//! measures is only what that thread did between two readings.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use robots_adapters::Request;
use robots_oracle::{Profile, RobotsTxt};
use robots_runner::case::Case;

thread_local! {
    /// Octets this thread holds from the allocator (allocated less freed;
    /// negative when it frees what another thread allocated).
    static LIVE: Cell<isize> = const { Cell::new(0) };
}

fn count(delta: isize) {
    // After the thread's storage is gone (its exit), nothing is counted.
    let _ = LIVE.try_with(|c| c.set(c.get().wrapping_add(delta)));
}

fn live() -> isize {
    LIVE.with(Cell::get)
}

/// The system allocator, counting per thread.
pub struct Counting;

// SAFETY: every call is forwarded to `System` unchanged; the count is a
// thread-local `Cell` with a constant initialiser and no destructor, so
// counting never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as `System.alloc`, with the caller's layout.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            count(layout.size() as isize);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as `System.alloc_zeroed`, with the caller's layout.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            count(layout.size() as isize);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's pointer and layout, from this allocator.
        unsafe { System.dealloc(ptr, layout) };
        count(-(layout.size() as isize));
    }

    unsafe fn realloc(
        &self,
        ptr: *mut u8,
        layout: Layout,
        new_size: usize,
    ) -> *mut u8 {
        // SAFETY: the caller's pointer, layout and size, from this
        // allocator.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            count(new_size as isize - layout.size() as isize);
        }
        p
    }
}

/// How much more than it holds a parse may say it holds, and a constant
/// allowance for the smallest parses.
const AT_MOST: usize = 64;
const SLACK: usize = 64 * 1024;

/// How `heap_bytes` departs from what the parse of `case`'s body under
/// `profile` holds once asked the case's decide checks, if it does.
pub fn heap_differs(case: &Case, profile: &Profile) -> Option<String> {
    let before = live();
    let robots = RobotsTxt::parse(&case.robots, profile);
    for check in &case.checks {
        if let Request::Decide { agent, url, .. } = &check.request {
            for _ in 0..5 {
                let _ = robots.decide(agent, url);
            }
            let _ = robots.decide_indexed(agent, url);
        }
    }
    let held = usize::try_from(live() - before).unwrap_or(0);
    let said = robots.heap_bytes();
    drop(robots);
    if said < held {
        return Some(format!(
            "heap_bytes ({}) says {said} octets; the parse holds {held}",
            profile.name
        ));
    }
    (said > AT_MOST * held + SLACK).then(|| {
        format!(
            "heap_bytes ({}) says {said} octets, more than {AT_MOST} times \
             the {held} the parse holds",
            profile.name
        )
    })
}
