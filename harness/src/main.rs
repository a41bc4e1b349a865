//! `robots-conformance`: the command-line face of the suite.

mod cli;

use clap::Parser;

fn main() {
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("robots-conformance: {e:#}");
            std::process::exit(2);
        }
    }
}
