//! The differential loop's classifications, computed once per distinct
//! question and ahead of the sequential pass.
//!
//! Classifying a disagreement ([`crate::classifier::why`]) re-decides the
//! check under every switch of the oracle (and pairs of them): it is by
//! far the loop's most expensive step, and several adapters often give
//! the same wrong answer to the same check. A classification depends only
//! on (body, agent, URL, claimed profile, answer word), so it is
//! memoised under that key, and a batch's missing ones are computed on
//! one thread per core before the loop walks the batch in order. The
//! result is exactly what calling `why` in the loop would give, so a
//! run's outputs do not change.
//!
//! Bounded: the memo holds keys of at most [`MAX_KEY_BYTES`] in all and
//! is emptied when full. It never decides or asks anything itself.

use std::collections::HashMap;

use robots_adapters::Reply;

use crate::classifier::why;
use crate::minimise::Subject;

/// Total size of the keys the memo holds before it is emptied.
pub const MAX_KEY_BYTES: usize = 64 * 1024 * 1024;

/// What the loop uses of a classification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Class {
    /// The switch names or the failure word.
    pub name: String,
    /// The axis or the failure word.
    pub axis: String,
    /// The clauses the switches concern.
    pub clauses: Vec<String>,
}

/// The key of a classification.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Key {
    robots: Vec<u8>,
    agent: String,
    url: String,
    profile: String,
    /// The answer's word (a verdict, or a failure word).
    answer: &'static str,
}

impl Key {
    fn of(s: &Subject, profile: &str, reply: &Reply) -> Key {
        Key {
            robots: s.robots.clone(),
            agent: s.agent.clone(),
            url: s.url.clone(),
            profile: profile.to_string(),
            answer: reply.word(),
        }
    }

    fn size(&self) -> usize {
        self.robots.len() + self.agent.len() + self.url.len() + 64
    }
}

fn classify(s: &Subject, profile: &str, reply: &Reply) -> Class {
    let e = why(s, profile, reply);
    Class { name: e.name(), axis: e.axis(), clauses: e.clauses() }
}

/// Memoised classifications.
#[derive(Default)]
pub struct Classes {
    memo: HashMap<Key, Class>,
    bytes: usize,
}

impl Classes {
    fn insert(&mut self, key: Key, class: Class) {
        if self.bytes + key.size() > MAX_KEY_BYTES {
            self.memo.clear();
            self.bytes = 0;
        }
        self.bytes += key.size();
        self.memo.insert(key, class);
    }

    /// The classification of `reply` to `s` under `profile`.
    pub fn get(&mut self, s: &Subject, profile: &str, reply: &Reply) -> Class {
        let key = Key::of(s, profile, reply);
        if let Some(c) = self.memo.get(&key) {
            return c.clone();
        }
        let c = classify(s, profile, reply);
        self.insert(key, c.clone());
        c
    }

    /// Computes the classifications of `wanted` not memoised yet, on one
    /// thread per core, so that [`Classes::get`] finds them.
    pub fn prepare(&mut self, wanted: &[(Subject, String, Reply)]) {
        let mut missing: Vec<(Key, usize)> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for (i, (s, p, r)) in wanted.iter().enumerate() {
            let key = Key::of(s, p, r);
            if !self.memo.contains_key(&key) && seen.insert(key.clone()) {
                missing.push((key, i));
            }
        }
        if missing.is_empty() {
            return;
        }
        let cores =
            std::thread::available_parallelism().map_or(1, |n| n.get());
        let per = missing.len().div_ceil(cores.max(1));
        let done: Vec<Vec<Class>> = std::thread::scope(|sc| {
            let handles: Vec<_> = missing
                .chunks(per)
                .map(|chunk| {
                    sc.spawn(move || {
                        chunk
                            .iter()
                            .map(|(_, i)| {
                                let (s, p, r) = &wanted[*i];
                                classify(s, p, r)
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("classifier thread panicked"))
                .collect()
        });
        for ((key, _), class) in
            missing.into_iter().zip(done.into_iter().flatten())
        {
            self.insert(key, class);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use robots_adapters::Verdict;

    #[test]
    fn prepared_and_memoised_classes_are_what_why_says() {
        let s = Subject {
            robots: b"User-agent: *\nDisalow: /a\n".to_vec(),
            agent: "FooBot".into(),
            url: "/a".into(),
        };
        let reply =
            Reply::Verdict { verdict: Verdict::Disallowed, explanation: None };
        let direct = classify(&s, "rfc9309", &reply);
        let mut classes = Classes::default();
        classes.prepare(&[(s.clone(), "rfc9309".into(), reply.clone())]);
        assert_eq!(classes.memo.len(), 1);
        assert_eq!(classes.get(&s, "rfc9309", &reply), direct);
        let timeout = classes.get(&s, "rfc9309", &Reply::TimedOut);
        assert_eq!(timeout.name, "timeout");
        assert_eq!(classes.memo.len(), 2);
    }
}
