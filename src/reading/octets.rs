//! [`Octets`]: a run of octets of a parsed file, sharing the file's one
//! copy instead of owning an allocation of its own (a real file has
//! thousands of rules; one allocation each was the parser's largest
//! cost). Dereferences to `[u8]`. Data only.

use std::fmt;
use std::ops::{Deref, Range};
use std::sync::Arc;

/// Octets of a parsed robots.txt file, such as a rule's value as written.
/// Cloning is cheap; comparison, hashing and `Debug` go by the octets.
#[derive(Clone)]
pub struct Octets {
    file: Arc<[u8]>,
    range: Range<usize>,
}

impl Octets {
    /// `part`, which must lie inside `file`, as a shared run of octets;
    /// a `part` from elsewhere is copied.
    pub(crate) fn within(file: &Arc<[u8]>, part: &[u8]) -> Octets {
        let start = part.as_ptr().addr().wrapping_sub(file.as_ptr().addr());
        let range = start..start.wrapping_add(part.len());
        match file.get(range.clone()) {
            Some(inside) if inside.as_ptr() == part.as_ptr() => {
                Octets { file: Arc::clone(file), range }
            }
            _ => Octets::from(part),
        }
    }
}

impl From<&[u8]> for Octets {
    fn from(octets: &[u8]) -> Octets {
        Octets { file: octets.into(), range: 0..octets.len() }
    }
}

impl Deref for Octets {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.file[self.range.clone()]
    }
}

impl AsRef<[u8]> for Octets {
    fn as_ref(&self) -> &[u8] {
        self
    }
}

impl PartialEq for Octets {
    fn eq(&self, other: &Octets) -> bool {
        **self == **other
    }
}

impl Eq for Octets {}

impl PartialEq<[u8]> for Octets {
    fn eq(&self, other: &[u8]) -> bool {
        **self == *other
    }
}

impl std::hash::Hash for Octets {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (**self).hash(state);
    }
}

impl fmt::Debug for Octets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "b\"{}\"", self.escape_ascii())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_part_of_the_file_is_shared_and_others_are_copied() {
        let file: Arc<[u8]> = Arc::from(&b"Disallow: /x\n"[..]);
        let part = Octets::within(&file, &file[10..12]);
        assert_eq!(&*part, b"/x");
        assert!(Arc::ptr_eq(&part.file, &file));
        let elsewhere = Octets::within(&file, b"/x");
        assert_eq!(elsewhere, part);
        assert!(!Arc::ptr_eq(&elsewhere.file, &file));
        assert_eq!(format!("{part:?}"), r#"b"/x""#);
    }
}
