//! `robots-conformance`: the command-line face of the suite.

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
