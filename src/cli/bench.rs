//! `minkowski bench [--depth N]`: search the fixed bench positions; the last line printed is
//! `<N> nodes <M> nps` (the OpenBench convention).

use std::process::ExitCode;

use minkowski::search::bench::{DEFAULT_BENCH_DEPTH, run_bench};

/// Arguments of `minkowski bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Search depth per position.
    #[arg(long, default_value_t = DEFAULT_BENCH_DEPTH)]
    pub depth: u32,
}

/// Run the subcommand. engine.toml is not read: the node count is the signature of the built-in
/// search and evaluation, the same on every machine.
pub fn run(args: &BenchArgs) -> ExitCode {
    let report = run_bench(args.depth);
    println!(
        "depth {} time {} ms",
        args.depth,
        report.elapsed.as_millis()
    );
    println!("{} nodes {} nps", report.nodes, report.nps);
    ExitCode::SUCCESS
}
