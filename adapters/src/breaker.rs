//! A circuit breaker for an adapter that cannot be started: after
//! [`MAX_FAILED_STARTS`] failed starts in a row it opens, and the adapter
//! is unavailable for the rest of the run.
//!
//! One breaker is shared by every instance of an adapter in a run (the
//! matrix runs two side by side), so the count is the adapter's, not an
//! instance's (an instance that began a start before the breaker opened
//! still makes it: at most one start per other instance more). It only
//! counts; it never starts or stops a process.

use std::sync::{Arc, Mutex};

/// Failed starts in a row after which an adapter is unavailable for the
/// rest of the run.
pub const MAX_FAILED_STARTS: usize = 3;

#[derive(Debug, Default)]
struct State {
    failed_in_a_row: usize,
    open: Option<String>,
}

/// Counts an adapter's failed starts; cloning shares the count.
#[derive(Clone, Debug, Default)]
pub struct Breaker(Arc<Mutex<State>>);

impl Breaker {
    /// Why the adapter is unavailable, once the breaker is open.
    pub fn open(&self) -> Option<String> {
        self.0.lock().ok().and_then(|s| s.open.clone())
    }

    /// A start succeeded: the failures in a row start again from 0.
    pub fn started(&self) {
        if let Ok(mut s) = self.0.lock() {
            s.failed_in_a_row = 0;
        }
    }

    /// A start failed because of `why`.
    pub fn failed(&self, why: &str) {
        if let Ok(mut s) = self.0.lock() {
            s.failed_in_a_row += 1;
            if s.failed_in_a_row >= MAX_FAILED_STARTS && s.open.is_none() {
                s.open = Some(format!(
                    "unavailable for the rest of the run: {MAX_FAILED_STARTS} \
                     starts in a row failed; the last: {why}"
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opens_after_failures_in_a_row_shared_by_clones() {
        let a = Breaker::default();
        let b = a.clone();
        a.failed("x");
        b.failed("x");
        a.started();
        a.failed("x");
        b.failed("x");
        assert_eq!(a.open(), None);
        b.failed("no hello");
        let why = a.open().unwrap();
        assert!(why.contains("3 starts in a row failed; the last: no hello"));
        a.started();
        assert!(b.open().is_some(), "an open breaker stays open");
    }
}
