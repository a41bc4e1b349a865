//! `robots-conformance`: the command-line face of the suite.
//!
//! Thin: it wires the crates (runner, diff, bench, adapters) and maps
//! errors to exit code 2. `anyhow` lives here and nowhere else.

mod commands;

use clap::Parser;

/// Output piped into a program that stops reading (`check … | head`)
/// ends the run quietly, exit 141 as a shell reports SIGPIPE, instead of
/// a panic in `println!`. SIGPIPE itself stays ignored (Rust's default),
/// so that writing to an adapter that died is an error for its checks,
/// never the end of the run.
fn quiet_on_closed_stdout() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let msg = info.payload_as_str().unwrap_or_default();
        if msg.starts_with("failed printing to stdout")
            && msg.contains("Broken pipe")
        {
            robots_adapters::strays::kill_all();
            std::process::exit(141);
        }
        default(info);
    }));
}

fn main() {
    quiet_on_closed_stdout();
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
