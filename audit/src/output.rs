//! Writing output files atomically: every file is written to a temporary
//! sibling and renamed into place, so a reader (or a rerun) never sees a
//! half-written file. Must never write in place.

use std::io::Write;
use std::path::Path;

use crate::error::Error;

/// Writes `bytes` to `path` through `path.tmp` and a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = std::path::PathBuf::from(tmp);
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Error::write(path, e)
    })
}

/// Creates `dir` and its parents.
pub fn ensure_dir(dir: &Path) -> Result<(), Error> {
    std::fs::create_dir_all(dir).map_err(|e| Error::write(dir, e))
}
