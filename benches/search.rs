//! Search throughput on the bench positions (nodes per second), and a single fixed-depth search
//! of the start position. Short runs: `cargo bench --bench search`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use minkowski::search::bench::{BENCH_POSITIONS, run_bench};
use minkowski::search::{Limits, SearchControl, Searcher};
use shakmaty::Chess;

fn bench_positions(c: &mut Criterion) {
    let depth = 6;
    let nodes = run_bench(depth).nodes;
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));
    group.throughput(Throughput::Elements(nodes));
    group.bench_function(
        format!(
            "bench depth {depth} ({} positions, nodes/s)",
            BENCH_POSITIONS.len()
        ),
        |b| b.iter(|| black_box(run_bench(depth))),
    );
    group.finish();

    let mut group = c.benchmark_group("search-startpos");
    group.sample_size(10);
    group.bench_function("depth 8", |b| {
        let limits = Limits {
            depth: Some(8),
            ..Default::default()
        };
        b.iter(|| {
            let mut searcher = Searcher::new(16);
            black_box(searcher.search(
                &Chess::default(),
                &[],
                &limits,
                &SearchControl::default(),
                &mut (),
            ))
        });
    });
    group.finish();
}

criterion_group!(benches, bench_positions);
criterion_main!(benches);
