//! Benchmarks of the geometry library against naive implementations: knight distance by table,
//! by fill and by breadth-first search over all 4,096 square pairs, and fork squares set-wise
//! against a per-square loop.
//!
//! `cargo bench --bench geometry`; measurement times are kept short in code.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use minkowski::geometry::{
    knight_distance, knight_distance_by_fill, knight_distance_by_rank_file, knight_fork_squares,
};
use shakmaty::{Bitboard, Square, attacks};

/// The eight knight moves as (file, rank) steps.
const KNIGHT_STEPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// Knight distance by breadth-first search over coordinate steps, stopping at the target: what a
/// program without tables or bitboards would do.
fn knight_distance_by_bfs(from: Square, to: Square) -> u32 {
    let mut distance = [u8::MAX; 64];
    let mut queue = [0u8; 64];
    let (mut head, mut tail) = (0, 1);
    distance[from.to_usize()] = 0;
    queue[0] = from.to_usize() as u8;
    while head < tail {
        let square = queue[head] as usize;
        head += 1;
        if square == to.to_usize() {
            return u32::from(distance[square]);
        }
        let (file, rank) = ((square % 8) as i32, (square / 8) as i32);
        for (df, dr) in KNIGHT_STEPS {
            let (f, r) = (file + df, rank + dr);
            if (0..8).contains(&f) && (0..8).contains(&r) {
                let next = (r * 8 + f) as usize;
                if distance[next] == u8::MAX {
                    distance[next] = distance[square] + 1;
                    queue[tail] = next as u8;
                    tail += 1;
                }
            }
        }
    }
    unreachable!("the knight graph of the empty board is connected")
}

/// Fork squares by looping over the board and counting targets in each square's knight attacks.
fn fork_squares_by_loop(targets: Bitboard) -> Bitboard {
    let mut forks = Bitboard::EMPTY;
    for square in Square::ALL {
        if (attacks::knight_attacks(square) & targets).more_than_one() {
            forks.add(square);
        }
    }
    forks
}

/// Sum of `distance` over all 4,096 square pairs (the sum keeps the work from being optimised
/// away).
fn sum_over_all_pairs(distance: impl Fn(Square, Square) -> u32) -> u32 {
    let mut sum = 0;
    for a in Square::ALL {
        for b in Square::ALL {
            sum += distance(black_box(a), black_box(b));
        }
    }
    sum
}

fn knight_distance_all_pairs(c: &mut Criterion) {
    let mut group = c.benchmark_group("knight distance, 4096 pairs");
    group.bench_function("table", |b| b.iter(|| sum_over_all_pairs(knight_distance)));
    group.bench_function("rank/file table", |b| {
        b.iter(|| sum_over_all_pairs(knight_distance_by_rank_file))
    });
    group.bench_function("fill", |b| {
        b.iter(|| sum_over_all_pairs(knight_distance_by_fill))
    });
    group.bench_function("bfs", |b| {
        b.iter(|| sum_over_all_pairs(knight_distance_by_bfs))
    });
    group.finish();
}

fn fork_squares(c: &mut Criterion) {
    // 256 target sets of a few pieces each, from a fixed xorshift sequence.
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let target_sets: Vec<Bitboard> = (0..256)
        .map(|_| {
            let mut next = || {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state
            };
            Bitboard(next() & next() & next())
        })
        .collect();
    let mut group = c.benchmark_group("fork squares, 256 target sets");
    group.bench_function("set-wise", |b| {
        b.iter(|| {
            target_sets
                .iter()
                .fold(0, |acc, &t| acc ^ knight_fork_squares(black_box(t)).0)
        })
    });
    group.bench_function("per-square loop", |b| {
        b.iter(|| {
            target_sets
                .iter()
                .fold(0, |acc, &t| acc ^ fork_squares_by_loop(black_box(t)).0)
        })
    });
    group.finish();
}

fn short_runs() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(30)
}

criterion_group! {
    name = benches;
    config = short_runs();
    targets = knight_distance_all_pairs, fork_squares
}
criterion_main!(benches);
