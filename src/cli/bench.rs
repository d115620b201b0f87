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
    print_lazy(stats.lazy());
}

/// The lazy evaluation's measured error at the quiescence stand pats: for each estimate, the
/// distribution of `|exact − estimate|`, then by candidate margin how often it would answer
/// and how often (and how far) the exact value lay on the other side of the bound.
#[cfg(feature = "search-stats")]
fn print_lazy(lazy: &minkowski::search::stats::lazy::LazyErrors) {
    use minkowski::search::stats::lazy::{LAZY_ERROR_BUCKETS, LAZY_MARGINS};
    let percent = |a: u64, b: u64| a as f64 * 100.0 / b.max(1) as f64;
    println!("lazy evaluation: {} stand pats measured", lazy.stand_pats);
    for (name, stage) in [("cheap", &lazy.cheap), ("late", &lazy.late)] {
        println!(
            "{name} estimate: {} stand pats, max |exact - estimate| {}",
            stage.samples, stage.max_error
        );
        let mut below = 0;
        for (bucket, &count) in LAZY_ERROR_BUCKETS.iter().zip(&stage.errors) {
            below += count;
            if count > 0 {
                println!(
                    "  |error| <= {bucket:>10}: {count:>10} ({:>6.2} % cumulative {:>7.3} %)",
                    percent(count, stage.samples),
                    percent(below, stage.samples)
                );
            }
        }
        println!(
            "  {:>6} {:>10} {:>8} {:>8} {:>9} {:>8} {:>8}",
            "margin", "answers", "ans %", "wrong", "wrong %", "mean cp", "max cp"
        );
        for (i, margin) in LAZY_MARGINS.iter().enumerate() {
            let (fired, wrong) = (stage.fired[i], stage.wrong[i]);
            println!(
                "  {margin:>6} {fired:>10} {:>7.2}% {wrong:>8} {:>8.4}% {:>8.0} {:>8}",
                percent(fired, stage.samples),
                percent(wrong, fired),
                stage.wrong_sum[i] as f64 / wrong.max(1) as f64,
                stage.wrong_max[i]
            );
        }
    }
}
