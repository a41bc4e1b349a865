//! Room a parsed file keeps, per group, for what a faster way of deciding
//! builds about that group (today: `fast::index`'s rule index).
//!
//! The reading allocates one [`GroupMemo`] per group with the parse and
//! never looks inside: it holds a value of a type the reading does not
//! name (`dyn Any`), so that the reading depends on no fast path while a
//! parsed file still carries its own memo from decision to decision.
//! What is kept must be a function of the group alone (the same group
//! always gives the same value), so a memo never changes an answer.
//!
//! Never panics; `Sync`, since decisions may run on many threads. A
//! consultation costs one atomic add; a kept value one type check.

use std::any::Any;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, OnceLock};

/// One group's memo: how often it was consulted, and what was kept.
#[derive(Debug, Default)]
pub(crate) struct GroupMemo {
    consulted: AtomicU32,
    kept: OnceLock<Arc<dyn Any + Send + Sync>>,
}

impl Clone for GroupMemo {
    fn clone(&self) -> GroupMemo {
        GroupMemo {
            consulted: AtomicU32::new(self.consulted.load(Ordering::Relaxed)),
            kept: self.kept.clone(),
        }
    }
}

impl GroupMemo {
    /// Counts one more consultation; the count, this one included.
    pub(crate) fn consult(&self) -> u32 {
        self.consulted.fetch_add(1, Ordering::Relaxed).saturating_add(1)
    }

    /// What was kept, if it is a `T`.
    pub(crate) fn kept<T: Any>(&self) -> Option<&T> {
        self.kept.get()?.downcast_ref()
    }

    /// What was kept, made by `make` if nothing was; `None` only when
    /// something other than a `T` was kept first.
    pub(crate) fn keep<T: Any + Send + Sync>(
        &self,
        make: impl FnOnce() -> T,
    ) -> Option<&T> {
        let kept = self.kept.get_or_init(|| Arc::new(make()));
        kept.downcast_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_first_value_and_counts_consultations() {
        let memo = GroupMemo::default();
        assert_eq!(memo.kept::<u32>(), None);
        assert_eq!((memo.consult(), memo.consult()), (1, 2));
        assert_eq!(memo.keep(|| 7u32), Some(&7));
        assert_eq!(memo.keep(|| 8u32), Some(&7));
        assert_eq!(memo.kept::<u32>(), Some(&7));
        assert_eq!(memo.kept::<u64>(), None);
        assert_eq!(memo.keep(|| 9u64), None);
        let copy = memo.clone();
        assert_eq!((copy.consult(), copy.kept::<u32>()), (3, Some(&7)));
    }
}
