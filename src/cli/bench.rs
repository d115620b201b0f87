//! `minkowski bench [--depth N]`: search the fixed bench positions; the last line printed is
//! `<N> nodes <M> nps` (the OpenBench convention). In a build with the `search-stats` feature,
//! `--stats` first prints the search's per-rule counters (docs/selectivity-measured.md).

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
    /// Print how often each pruning, reduction and extension rule was tried and fired, and the
    /// nodes by remaining depth (main thread only).
    #[cfg(feature = "search-stats")]
    #[arg(long)]
    pub stats: bool,
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
    #[cfg(feature = "search-stats")]
    if args.stats {
        print_stats(&report.stats);
    }
    let (probes, hits) = report.pawn_king;
    println!(
        "pawn-king cache {hits} hits of {probes} lookups ({:.1} %)",
        hits as f64 * 100.0 / probes.max(1) as f64
    );
    let (probes, hits) = report.values;
    println!(
        "evaluation cache {hits} hits of {probes} lookups ({:.1} %)",
        hits as f64 * 100.0 / probes.max(1) as f64
    );
    println!("{} nodes {} nps", report.nodes, report.nps);
    ExitCode::SUCCESS
}

/// The per-rule table, then the nodes, move loops and mean moves searched by remaining depth.
#[cfg(feature = "search-stats")]
fn print_stats(stats: &minkowski::search::stats::SearchStats) {
    use minkowski::search::stats::Rule;
    let percent = |a: u64, b: u64| a as f64 * 100.0 / b.max(1) as f64;
    println!(
        "{:<20} {:>12} {:>12} {:>7}",
        "rule", "tried", "fired", "fired%"
    );
    for rule in Rule::ALL {
        let c = stats.rule(rule);
        let rate = percent(c.fired, c.tried);
        println!(
            "{:<20} {:>12} {:>12} {rate:>6.1}%",
            rule.name(),
            c.tried,
            c.fired
        );
    }
    println!("LMR mean reduction {:.2} plies", stats.mean_reduction());
    let main: u64 = stats.nodes_by_depth().iter().sum();
    println!(
        "nodes {} = main {main} + quiescence {} ({:.1} %)",
        stats.nodes(),
        stats.qnodes(),
        percent(stats.qnodes(), stats.nodes())
    );
    println!(
        "{:>5} {:>12} {:>7} {:>12} {:>11}",
        "depth", "nodes", "share%", "move loops", "moves/loop"
    );
    let by_depth = stats.nodes_by_depth().iter().zip(stats.loops_by_depth());
    for (depth, ((&nodes, &loops), &moves)) in by_depth.zip(stats.moves_by_depth()).enumerate() {
        if nodes + loops > 0 {
            let width = moves as f64 / loops.max(1) as f64;
            let share = percent(nodes, main);
            println!("{depth:>5} {nodes:>12} {share:>6.2}% {loops:>12} {width:>11.2}");
        }
    }
    for problem in stats.check() {
        println!("inconsistent counters: {problem}");
    }
}
