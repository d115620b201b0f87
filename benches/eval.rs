//! `evaluate()` time per position over real suite positions (WAC and STS middlegames, and the
//! KBNK/KRK/KQKP endgame suites where the endgame registry answers), with three baselines measured
//! in the same run: a material-only sum (the cheapest possible evaluation), the traced evaluation
//! (to show what tracing costs when on, and that `evaluate` pays nothing for it), and
//! `legal_moves()` (what a search spends per node anyway). `cargo bench --bench eval`.

use std::hint::black_box;
use std::time::Duration;

// The suite loader the integration tests use (tests/integration/common), so both read the same
// positions.
#[path = "../tests/integration/common/mod.rs"]
mod common;

use common::suite_positions as suite;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use minkowski::eval::Evaluator;
use shakmaty::{Chess, Color, Position, Role};

/// The cheapest evaluation there is: a material count from the side to move's view.
fn material_only(pos: &Chess) -> i32 {
    const VALUE: [i32; 6] = [100, 300, 300, 500, 900, 0];
    let board = pos.board();
    let mut sum = 0;
    for role in Role::ALL {
        let white = board.by_piece(role.of(Color::White)).count() as i32;
        let black = board.by_piece(role.of(Color::Black)).count() as i32;
        sum += VALUE[role as usize - 1] * (white - black);
    }
    if pos.turn().is_white() { sum } else { -sum }
}

fn bench_eval(c: &mut Criterion) {
    let evaluator = Evaluator::default();
    let sets = [
        (
            "middlegames (WAC + STS1)",
            [suite("wac.epd", 300), suite("sts1.epd", 100)].concat(),
        ),
        (
            "endgames (KBNK + KRK + KQKP)",
            [
                suite("kbnk.epd", 100),
                suite("krk.epd", 100),
                suite("kqkp.epd", 100),
            ]
            .concat(),
        ),
    ];
    for (name, positions) in sets {
        let mut group = c.benchmark_group(format!("eval {name}"));
        group.sample_size(20);
        group.measurement_time(Duration::from_secs(3));
        group.throughput(Throughput::Elements(positions.len() as u64));
        group.bench_function("evaluate", |b| {
            b.iter(|| {
                positions
                    .iter()
                    .map(|p| evaluator.evaluate(black_box(p)).0)
                    .sum::<i32>()
            })
        });
        group.bench_function("baseline: material only", |b| {
            b.iter(|| {
                positions
                    .iter()
                    .map(|p| material_only(black_box(p)))
                    .sum::<i32>()
            })
        });
        group.bench_function("trace (tracing on)", |b| {
            b.iter(|| {
                positions
                    .iter()
                    .map(|p| evaluator.trace(black_box(p)).total.0)
                    .sum::<i32>()
            })
        });
        group.bench_function("baseline: legal_moves", |b| {
            b.iter(|| {
                positions
                    .iter()
                    .map(|p| black_box(p).legal_moves().len())
                    .sum::<usize>()
            })
        });
        group.finish();
    }
}

criterion_group!(benches, bench_eval);
criterion_main!(benches);
