//! The real-world corpus: robots.txt files read from a `.tar.gz` archive
//! into memory, each as its name and its raw bytes.
//!
//! The archive is read at run time and never unpacked to disk or
//! committed (see `shared/corpus/README.md`). Callers take its path as an
//! argument, defaulting to [`default_path`], and skip with a clear message
//! when [`Error::is_not_found`]. Knows nothing of robots.txt: bodies are
//! bytes, handed on as they are.
//!
//! ```no_run
//! use robots_diff::corpus;
//! match corpus::read(&corpus::default_path()) {
//!     Ok(files) => println!("{} files", files.len()),
//!     Err(e) if e.is_not_found() => eprintln!("skipped: {e}"),
//!     Err(e) => return Err(e.into()),
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// One file of the corpus.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Its path inside the archive without the top folder
    /// (`real-robots/go.com` → `go.com`), `/`-separated.
    pub name: String,
    /// Its bytes, exactly as stored.
    pub body: Vec<u8>,
}

/// The archive could not be read.
#[derive(Debug)]
pub struct Error {
    path: PathBuf,
    source: io::Error,
}

impl Error {
    /// The archive does not exist: callers skip rather than fail.
    pub fn is_not_found(&self) -> bool {
        self.source.kind() == io::ErrorKind::NotFound
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_not_found() {
            write!(
                f,
                "no corpus at {}: pass the path of real-robots.tar.gz \
                 (see shared/corpus/README.md)",
                self.path.display()
            )
        } else {
            write!(
                f,
                "reading corpus {}: {}",
                self.path.display(),
                self.source
            )
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

/// `../shared/corpus/real-robots.tar.gz` relative to the project root:
/// the working directory when it is the project root, else the root this
/// crate was built in.
pub fn default_path() -> PathBuf {
    let relative = Path::new("../shared/corpus/real-robots.tar.gz");
    if Path::new("spec-cases").is_dir() {
        return relative.to_path_buf();
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(relative)
}

/// Reads every regular file of the `.tar.gz` archive at `path`, in
/// archive order.
///
/// # Errors
///
/// When the file cannot be opened or is not a gzip-compressed tar
/// archive; [`Error::is_not_found`] tells a missing file apart.
pub fn read(path: &Path) -> Result<Vec<Entry>, Error> {
    let wrap = |source| Error { path: path.to_path_buf(), source };
    let file = std::fs::File::open(path).map_err(wrap)?;
    from_reader(io::BufReader::new(file)).map_err(wrap)
}

/// Reads every regular file of a `.tar.gz` stream, in archive order.
///
/// # Errors
///
/// When the stream is not a gzip-compressed tar archive.
pub fn from_reader(reader: impl Read) -> io::Result<Vec<Entry>> {
    let gz = flate2::read::GzDecoder::new(reader);
    let mut archive = tar::Archive::new(gz);
    let mut entries = Vec::new();
    for entry in archive.entries()? {
        let mut entry = entry?;
        if !entry.header().entry_type().is_file() {
            continue;
        }
        let name = entry_name(&entry.path()?);
        let mut body =
            Vec::with_capacity(entry.size().try_into().unwrap_or(0));
        entry.read_to_end(&mut body)?;
        entries.push(Entry { name, body });
    }
    Ok(entries)
}

/// The path without its first component when it has more than one.
fn entry_name(path: &Path) -> String {
    let parts: Vec<_> =
        path.components().map(|c| c.as_os_str().to_string_lossy()).collect();
    let kept = if parts.len() > 1 { &parts[1..] } else { &parts[..] };
    kept.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn archive(files: &[(&str, &[u8])]) -> Vec<u8> {
        let gz = flate2::write::GzEncoder::new(
            Vec::new(),
            flate2::Compression::fast(),
        );
        let mut builder = tar::Builder::new(gz);
        for (name, body) in files {
            let mut header = tar::Header::new_gnu();
            header.set_size(body.len() as u64);
            header.set_mode(0o644);
            header.set_cksum();
            builder.append_data(&mut header, name, *body).unwrap();
        }
        builder.into_inner().unwrap().finish().unwrap()
    }

    #[test]
    fn reads_names_and_bytes_in_order() {
        let bytes = archive(&[
            ("real-robots/b.example", b"User-agent: *\r\n\xff"),
            ("real-robots/a.example", b""),
        ]);
        let got = from_reader(&bytes[..]).unwrap();
        assert_eq!(
            got,
            [
                Entry {
                    name: "b.example".into(),
                    body: b"User-agent: *\r\n\xff".to_vec()
                },
                Entry { name: "a.example".into(), body: vec![] },
            ]
        );
    }

    #[test]
    fn a_missing_archive_is_not_found() {
        let err = read(Path::new("no/such/corpus.tar.gz")).unwrap_err();
        assert!(err.is_not_found(), "{err}");
        assert!(err.to_string().contains("no/such/corpus.tar.gz"));
    }

    #[test]
    fn a_file_that_is_not_gzip_is_an_error() {
        assert!(from_reader(&b"plain text"[..]).is_err());
    }
}
