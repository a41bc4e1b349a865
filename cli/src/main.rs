//! `robots-conformance`: the command-line face of the suite.
//!
//! Thin: it wires the crates (runner, diff, bench, adapters) and maps
//! errors to exit code 2. `anyhow` lives here and nowhere else.

mod commands;

use clap::Parser;

fn main() {
    let args = commands::Cli::parse();
    // A program that escapes its adapter's process group (`setsid`) is
    // adopted by this process and killed before it exits.
    robots_adapters::strays::adopt();
    let code = match commands::run(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("robots-conformance: {e:#}");
            2
        }
    };
    robots_adapters::strays::kill_all();
    std::process::exit(code);
}
