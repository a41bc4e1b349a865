//! The matrix's budget of busy adapters: at most so many adapter
//! instances are asking at once across the whole run (by default
//! [`PER_CORE`] per core, [`Budget::for_cores`]), so that thirty adapters
//! with two instances each do not thrash two cores and miss their
//! deadlines for want of a core rather than because they hang.
//!
//! An instance holds a [`Permit`] while it asks one case (its process's
//! start included) and gives it back before taking the next. When a
//! permit is free, the waiting instance with the highest priority gets it
//! (ties: the one that waited longest), and the matrix gives each adapter
//! as priority its estimated remaining cost, so the long poles run first.
//!
//! It only counts permits; it never starts, asks or stops an adapter. It
//! records the most permits ever held at once ([`Budget::peak`]), which
//! never exceeds its size.

use std::collections::BTreeSet;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Permits per core by default: an instance holding one is often not on
/// a core (its answer crossing a pipe, a live fetch waiting on the
/// network, a JVM starting on other threads), so one per core leaves the
/// cores idle; many more lets starts and deadlines thrash (measured on
/// the full matrix: see ARCHITECTURE.md).
pub const PER_CORE: usize = 4;

#[derive(Debug, Default)]
struct State {
    held: usize,
    peak: usize,
    /// Waiting instances: (reverse priority, ticket), first = next.
    waiting: BTreeSet<(std::cmp::Reverse<u64>, u64)>,
    next_ticket: u64,
}

/// A budget of permits shared by every instance of every adapter in a
/// run.
#[derive(Debug)]
pub struct Budget {
    size: usize,
    state: Mutex<State>,
    freed: Condvar,
}

/// One held permit; dropping it gives it back.
#[derive(Debug)]
pub struct Permit<'a> {
    budget: &'a Budget,
    /// How long the holder waited for it.
    pub waited: Duration,
}

impl Budget {
    /// A budget of `size` permits; 0: no limit (the peak is still
    /// counted).
    pub fn new(size: usize) -> Budget {
        Budget {
            size: if size == 0 { usize::MAX } else { size },
            state: Mutex::new(State::default()),
            freed: Condvar::new(),
        }
    }

    /// [`PER_CORE`] permits per core (`available_parallelism`).
    pub fn for_cores() -> Budget {
        let cores =
            std::thread::available_parallelism().map_or(1, |n| n.get());
        Budget::new(cores * PER_CORE)
    }

    /// How many permits there are (0: no limit).
    pub fn size(&self) -> usize {
        if self.size == usize::MAX { 0 } else { self.size }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A holder that panicked left the counts right (the permit's drop
        // still ran): the state is usable.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits for a permit; among waiters the highest `priority` goes
    /// first.
    pub fn acquire(&self, priority: u64) -> Permit<'_> {
        let started = Instant::now();
        let mut s = self.lock();
        let ticket = s.next_ticket;
        s.next_ticket += 1;
        let me = (std::cmp::Reverse(priority), ticket);
        s.waiting.insert(me);
        while !(s.held < self.size && s.waiting.first() == Some(&me)) {
            s = self.freed.wait(s).unwrap_or_else(|e| e.into_inner());
        }
        s.waiting.remove(&me);
        s.held += 1;
        s.peak = s.peak.max(s.held);
        // The next waiter may fit too.
        self.freed.notify_all();
        Permit { budget: self, waited: started.elapsed() }
    }

    /// The most permits held at once so far.
    pub fn peak(&self) -> usize {
        self.lock().peak
    }
}

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        let mut s = self.budget.lock();
        s.held -= 1;
        drop(s);
        self.budget.freed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn never_more_holders_than_permits() {
        let budget = Budget::new(3);
        let inside = AtomicUsize::new(0);
        let most = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for t in 0..12u64 {
                let (budget, inside, most) = (&budget, &inside, &most);
                s.spawn(move || {
                    for _ in 0..200 {
                        let _p = budget.acquire(t % 4);
                        let now = inside.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        std::thread::yield_now();
                        inside.fetch_sub(1, Ordering::SeqCst);
                    }
                });
            }
        });
        assert!(most.load(Ordering::SeqCst) <= 3);
        assert_eq!(budget.peak(), most.load(Ordering::SeqCst).max(1));
        assert!(budget.peak() <= budget.size());
        let free = Budget::new(0);
        let held: Vec<_> = (0..50).map(|_| free.acquire(0)).collect();
        assert_eq!((free.size(), free.peak()), (0, 50));
        drop(held);
    }

    #[test]
    fn the_highest_priority_waiter_goes_first() {
        let budget = Budget::new(1);
        let order = Mutex::new(Vec::new());
        let held = budget.acquire(0);
        std::thread::scope(|s| {
            for p in [1u64, 5, 3] {
                let (budget, order) = (&budget, &order);
                s.spawn(move || {
                    let _p = budget.acquire(p);
                    order.lock().unwrap().push(p);
                });
            }
            // Every waiter queued (counted, not timed) before the permit
            // is given back.
            while budget.lock().waiting.len() < 3 {
                std::thread::yield_now();
            }
            drop(held);
        });
        assert_eq!(*order.lock().unwrap(), vec![5, 3, 1]);
    }
}
