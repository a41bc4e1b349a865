//! Output files that are never half-written, and output folders that two
//! runs never share.
//!
//! Every file the runner leaves behind (reports, baselines, certificates,
//! findings) is written to a temporary file in the same folder, synced,
//! and renamed over the target: a reader sees the old file or the new one,
//! never a mix, and a failed write (a full disk, a killed process) leaves
//! the old file as it was. An [`OutDir`] is claimed before a run starts:
//! it is created, probed for writability and locked, so a busy or
//! unwritable folder is refused before any adapter is asked anything.
//!
//! Files are written with mode 0644 (less the process's umask), as any
//! file a program creates, not the temporary file's private 0600; the
//! lock file is removed when the run ends. An [`OutDir`] names the files
//! an earlier run left in it ([`OutDir::earlier`]), so a command can say
//! it replaces them.
//!
//! It never interprets what it writes, and never leaves a temporary file
//! behind on an error.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Why an output could not be written. Every variant names its path.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// Reading, writing, syncing or renaming failed.
    #[error("{}: {source}", .path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Another run holds the folder's lock.
    #[error(
        "{} is in use by another run (it holds {}); wait for it or choose another --out",
        .dir.display(),
        .lock.display()
    )]
    Busy {
        /// The folder.
        dir: PathBuf,
        /// Its lock file.
        lock: PathBuf,
    },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> OutputError + '_ {
    move |source| OutputError::Io {
        path: path.to_path_buf(),
        source: without_path(source),
    }
}

/// `tempfile` wraps its errors with the temp file's path ("Not a
/// directory (os error 20) at path \"/d/.x.tmp\""), and its wrapper
/// gives no access to the error inside. The error names its own path
/// already, so the wrapper's tail is cut off; the kind is kept.
fn without_path(e: std::io::Error) -> std::io::Error {
    let Some(wrapper) = e.get_ref() else { return e };
    let text = wrapper.to_string();
    match text.rsplit_once(" at path ") {
        Some((os, _)) => std::io::Error::new(e.kind(), os.to_string()),
        None => e,
    }
}

/// The folder a target file lives in (`.` for a bare name).
fn parent_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Writes `bytes` to `path` atomically: temp file in the same folder,
/// fsync, rename.
///
/// # Errors
///
/// On any I/O error, naming the path; the old file is then untouched.
pub fn atomic_write(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    atomic_write_with(path, |w| w.write_all(bytes))
}

/// Like [`atomic_write`], with the content streamed by `fill` (for large
/// reports, which are then never held in memory twice).
///
/// # Errors
///
/// When `fill` fails or on any I/O error, naming the path; the old file
/// is then untouched and the temporary file removed.
pub fn atomic_write_with(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), OutputError> {
    let dir = parent_of(path);
    let name = path
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
    // A dot-name so that globs over the folder skip it; removed on drop.
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(FILE_MODE));
    }
    let temp = builder.tempfile_in(dir).map_err(io(dir))?;
    let mut w = BufWriter::new(temp);
    fill(&mut w).map_err(io(path))?;
    let temp = w.into_inner().map_err(|e| io(path)(e.into_error()))?;
    temp.as_file().sync_all().map_err(io(path))?;
    temp.persist(path).map_err(|e| io(path)(e.error))?;
    // The rename itself is durable once the folder is synced; a folder
    // that cannot be opened for syncing (some file systems) is no error.
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Fails unless a file can be created in `dir` (which must exist).
///
/// # Errors
///
/// When it cannot, naming the folder.
pub fn probe_writable(dir: &Path) -> Result<(), OutputError> {
    tempfile::Builder::new()
        .prefix(".robots-conformance-probe.")
        .tempfile_in(dir)
        .map(drop)
        .map_err(io(dir))
}

/// The mode output files are created with (the umask applies).
pub const FILE_MODE: u32 = 0o644;

/// The lock file's name inside a claimed folder.
pub const LOCK_NAME: &str = ".robots-conformance.lock";

/// A claimed output folder: exists, writable, and locked against other
/// runs until dropped (the lock is the operating system's, so a killed
/// run never leaves a stale one); the lock file is removed on drop.
#[derive(Debug)]
pub struct OutDir {
    dir: PathBuf,
    lock: File,
    lock_path: PathBuf,
    earlier: Vec<String>,
}

/// Whether `file` is still the file at `path` (not removed, or replaced,
/// by a run that released it between our open and our lock).
#[cfg(unix)]
fn same_file(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn same_file(_: &File, path: &Path) -> bool {
    path.exists()
}

/// The visible regular files in `dir` (not dot-files), sorted.
fn visible_files(dir: &Path) -> Vec<String> {
    let Ok(read) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut names: Vec<String> = read
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .collect();
    names.sort();
    names
}

impl OutDir {
    /// Creates `dir` if needed, checks a file can be written in it, and
    /// takes its lock.
    ///
    /// # Errors
    ///
    /// [`OutputError::Busy`] when another run holds it, [`OutputError::Io`]
    /// (naming the path) when it cannot be created, written or locked.
    pub fn claim(dir: &Path) -> Result<OutDir, OutputError> {
        std::fs::create_dir_all(dir).map_err(io(dir))?;
        probe_writable(dir)?;
        let lock_path = dir.join(LOCK_NAME);
        // A run that ends removes its lock file: a lock taken on a file
        // it just removed is no lock, so it is taken again on the new one
        // (a few times at most: each retry means another run finished).
        for _ in 0..8 {
            let lock = std::fs::OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(&lock_path)
                .map_err(io(&lock_path))?;
            match lock.try_lock() {
                Ok(()) if same_file(&lock, &lock_path) => {
                    return Ok(OutDir {
                        dir: dir.to_path_buf(),
                        lock,
                        lock_path,
                        earlier: visible_files(dir),
                    });
                }
                Ok(()) => continue,
                Err(std::fs::TryLockError::WouldBlock) => {
                    return Err(OutputError::Busy {
                        dir: dir.to_path_buf(),
                        lock: lock_path,
                    });
                }
                Err(std::fs::TryLockError::Error(e)) => {
                    return Err(io(&lock_path)(e));
                }
            }
        }
        Err(OutputError::Busy { dir: dir.to_path_buf(), lock: lock_path })
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// The visible files an earlier run left in the folder when it was
    /// claimed (sorted names; dot-files left out): what this run's
    /// reports of the same names replace.
    pub fn earlier(&self) -> &[String] {
        &self.earlier
    }
}

impl Drop for OutDir {
    /// Removes the lock file while the lock is still held (a run waiting
    /// to claim the folder then takes it on a new file).
    fn drop(&mut self) {
        if same_file(&self.lock, &self.lock_path) {
            let _ = std::fs::remove_file(&self.lock_path);
        }
    }
}

/// A lock on a folder itself (no file is created in it), held until
/// dropped: runs that read, change and rewrite a file in the folder (a
/// baseline merge) take it so that one never overwrites another's merge.
#[derive(Debug)]
pub struct FolderLock {
    _dir: File,
}

impl FolderLock {
    /// Waits for the lock on `dir`.
    ///
    /// # Errors
    ///
    /// When the folder cannot be opened or locked, naming it.
    pub fn wait(dir: &Path) -> Result<FolderLock, OutputError> {
        let handle = File::open(dir).map_err(io(dir))?;
        handle.lock().map_err(io(dir))?;
        Ok(FolderLock { _dir: handle })
    }

    /// The folder of `file`, locked.
    ///
    /// # Errors
    ///
    /// As [`FolderLock::wait`].
    pub fn of_file(file: &Path) -> Result<FolderLock, OutputError> {
        FolderLock::wait(parent_of(file))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(tag: &str) -> PathBuf {
        let d = std::env::temp_dir()
            .join(format!("rc-output-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_write_replaces_the_whole_file() {
        let d = scratch("replace");
        let f = d.join("b.json");
        atomic_write(&f, b"old old old old").unwrap();
        atomic_write(&f, b"new").unwrap();
        assert_eq!(std::fs::read(&f).unwrap(), b"new");
        assert_eq!(names(&d), ["b.json"]);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temp_file() {
        let d = scratch("fail");
        let f = d.join("baseline.json");
        std::fs::write(&f, "{\"old\": true}\n").unwrap();
        // A disk that fills up half-way through.
        let err = atomic_write_with(&f, |w| {
            w.write_all(&[b'x'; 100_000])?;
            Err(std::io::Error::other("No space left on device"))
        })
        .unwrap_err();
        assert!(err.to_string().contains("baseline.json"), "{err}");
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "{\"old\": true}\n");
        assert_eq!(names(&d), ["baseline.json"]);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_write_into_a_missing_folder_names_it() {
        let d = scratch("missing");
        let f = d.join("no/such/dir/report.json");
        let err = atomic_write(&f, b"x").unwrap_err();
        assert!(err.to_string().contains("no/such/dir"), "{err}");
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_failed_temp_file_names_the_folder_once() {
        let d = scratch("twice");
        std::fs::create_dir_all(&d).unwrap();
        let file = d.join("plain-file");
        std::fs::write(&file, b"x").unwrap();
        let err = atomic_write(&file.join("report.json"), b"x").unwrap_err();
        let text = err.to_string();
        assert_eq!(text.matches("plain-file").count(), 1, "{text}");
        assert!(!text.contains(".tmp"), "{text}");
        assert!(text.contains("os error"), "{text}");
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_claimed_folder_is_refused_to_a_second_claim_until_released() {
        let d = scratch("lock").join("out");
        let first = OutDir::claim(&d).unwrap();
        let err = OutDir::claim(&d).unwrap_err();
        assert!(matches!(err, OutputError::Busy { .. }), "{err}");
        assert!(err.to_string().contains("in use"), "{err}");
        drop(first);
        let again = OutDir::claim(&d).unwrap();
        assert_eq!(again.path(), d);
        drop(again);
        std::fs::remove_dir_all(d.parent().unwrap()).unwrap();
    }

    #[test]
    fn the_lock_file_is_removed_when_the_run_ends() {
        let d = scratch("lock-gone").join("out");
        let held = OutDir::claim(&d).unwrap();
        assert!(d.join(LOCK_NAME).exists());
        drop(held);
        assert!(names(&d).is_empty(), "{:?}", names(&d));
        std::fs::remove_dir_all(d.parent().unwrap()).unwrap();
    }

    #[test]
    fn a_claim_names_the_files_an_earlier_run_left() {
        let d = scratch("earlier").join("out");
        assert!(OutDir::claim(&d).unwrap().earlier().is_empty());
        atomic_write(&d.join("report.json"), b"{}").unwrap();
        atomic_write(&d.join(".hidden"), b"x").unwrap();
        let again = OutDir::claim(&d).unwrap();
        assert_eq!(again.earlier(), ["report.json"]);
        drop(again);
        std::fs::remove_dir_all(d.parent().unwrap()).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn files_are_written_readable_by_all_as_the_umask_allows() {
        use std::os::unix::fs::PermissionsExt;
        let d = scratch("mode");
        let f = d.join("report.json");
        atomic_write(&f, b"{}").unwrap();
        let mode = std::fs::metadata(&f).unwrap().permissions().mode() & 0o777;
        // 0644 less a umask: readable by all unless the umask says not.
        let umask_mode = {
            let probe = d.join("probe");
            File::create(&probe).unwrap();
            std::fs::metadata(&probe).unwrap().permissions().mode() & 0o644
        };
        assert_eq!(mode, umask_mode, "{mode:o}");
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_folder_lock_excludes_another_until_dropped() {
        let d = scratch("folder-lock");
        let held = FolderLock::of_file(&d.join("baseline.json")).unwrap();
        let other = File::open(&d).unwrap();
        assert!(matches!(
            other.try_lock(),
            Err(std::fs::TryLockError::WouldBlock)
        ));
        drop(held);
        other.try_lock().unwrap();
        assert!(names(&d).is_empty(), "no file is created");
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_folder_under_a_file_cannot_be_claimed() {
        let d = scratch("under-file");
        let file = d.join("plain");
        std::fs::write(&file, "x").unwrap();
        let err = OutDir::claim(&file.join("out")).unwrap_err();
        assert!(matches!(err, OutputError::Io { .. }), "{err}");
        assert!(err.to_string().contains("plain"), "{err}");
        std::fs::remove_dir_all(&d).unwrap();
    }
}
