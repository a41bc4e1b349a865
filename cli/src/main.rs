//! `robots-conformance`: the command-line face of the suite.
//!
//! Thin: it wires the crates (runner, diff, bench, adapters) and maps
//! errors to exit code 2. `anyhow` lives here and nowhere else.

mod commands;

use clap::Parser;

fn main() {
    let args = commands::Cli::parse();
    match commands::run(args) {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("robots-conformance: {e:#}");
            std::process::exit(2);
        }
    }
}
