//! The search's per-rule counters (`search-stats` feature): consistent with each other and with
//! the node count, and every rule that the bench exercises fires; without the feature they are
//! zero-sized (the default build's search cannot pay for them).

use minkowski::search::stats::SearchStats;

#[cfg(not(feature = "search-stats"))]
#[test]
fn counters_are_zero_sized_without_the_feature() {
    assert_eq!(std::mem::size_of::<SearchStats>(), 0);
}

#[cfg(feature = "search-stats")]
#[test]
fn bench_counters_are_consistent() {
    use minkowski::search::bench::run_bench;
    use minkowski::search::stats::Rule;

    let report = run_bench(10);
    let stats: SearchStats = report.stats;
    assert_eq!(stats.check(), Vec::<String>::new());
    // One thread: the counters saw every node the bench counted.
    assert_eq!(stats.nodes(), report.nodes);
    let main: u64 = stats.nodes_by_depth().iter().sum();
    assert_eq!(main + stats.qnodes(), report.nodes);
    // Depth 10 is deep enough for every rule to fire somewhere in the bench, and for none to
    // fire every time (at depth 8 the larger reductions leave two singular verifications).
    for rule in Rule::ALL {
        let c = stats.rule(rule);
        assert!(c.fired > 0, "{} never fired ({c:?})", rule.name());
        assert!(
            c.fired < c.tried || rule == Rule::LmrResearchHeld,
            "{} always fired",
            rule.name()
        );
    }
    let mean = stats.mean_reduction();
    assert!((1.0..6.0).contains(&mean), "mean reduction {mean}");
    // The counters of two runs add up.
    let mut twice = stats;
    twice.merge(&stats);
    assert_eq!(twice.nodes(), 2 * report.nodes);
    assert_eq!(
        twice.rule(Rule::NullMove).tried,
        2 * stats.rule(Rule::NullMove).tried
    );
    assert_eq!(twice.check(), Vec::<String>::new());
}
