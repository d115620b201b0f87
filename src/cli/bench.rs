//! `minkowski bench [--depth N]`: search the fixed bench positions; the last line printed is
//! `<N> nodes <M> nps` (the OpenBench convention).

use std::process::ExitCode;

use minkowski::search::bench::{DEFAULT_BENCH_DEPTH, run_bench_threads};

/// Arguments of `minkowski bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Search depth per position.
    #[arg(long, default_value_t = DEFAULT_BENCH_DEPTH)]
    pub depth: u32,
    /// Search threads (1: the deterministic node count; more: time to depth and nps over all
    /// threads).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

/// Run the subcommand. engine.toml is not read: the node count is the signature of the built-in
/// search and evaluation, the same on every machine.
pub fn run(args: &BenchArgs) -> ExitCode {
    let report = run_bench_threads(args.depth, args.threads);
    println!(
        "depth {} time {} ms",
        args.depth,
        report.elapsed.as_millis()
    );
    let (probes, hits) = report.pawn_king;
    println!(
        "pawn-king cache {hits} hits of {probes} lookups ({:.1} %)",
        hits as f64 * 100.0 / probes.max(1) as f64
    );
    println!("{} nodes {} nps", report.nodes, report.nps);
    ExitCode::SUCCESS
}
