//! `site`: the results site from matrix reports, histories and the bug
//! register (`robots_site::build`), with a badge per parser.

use std::path::PathBuf;

/// Static results site: ranking, a page per parser and per clause, the
/// matrix by clause, badges.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Write the site here (index.html, matrix.html, parsers/, clauses/,
    /// badges/, style.css)
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// The bug register's folder [default: the project's bugs/]
    #[arg(long, value_name = "DIR")]
    bugs: Option<PathBuf>,
    /// report.json (of `matrix`), history.json (of `history`), or folders
    /// holding them (searched recursively)
    #[arg(required = true, value_name = "INPUT")]
    inputs: Vec<PathBuf>,
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    let built = robots_site::build(&a.inputs, a.bugs.as_deref(), &a.out)?;
    for n in &built.notes {
        eprintln!("note: {n}");
    }
    println!(
        "site: {} parsers ranked ({} pages of parsers), {} clause pages, {} files, {} bytes",
        built.ranked,
        built.parsers,
        built.clauses,
        built.files.len(),
        built.total()
    );
    if let Some((path, bytes)) = built.largest() {
        println!("largest file: {path} ({bytes} bytes)");
    }
    println!("open {}", a.out.join("index.html").display());
    Ok(0)
}
