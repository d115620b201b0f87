//! The fixed bench: varied positions searched to a fixed depth with a fresh [`Searcher`].
//! Its node count is a signature of the search (any functional change changes it), its speed a
//! throughput measure. Both `minkowski bench` and the UCI `bench` command call [`run_bench`].

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

use super::stats::SearchStats;
use super::{Limits, SearchControl, Searcher};

/// Depth `minkowski bench` uses when none is given (about 5–10 s in release on a 2-core
/// machine).
///
/// ```
/// use minkowski::search::bench::{DEFAULT_BENCH_DEPTH, run_bench};
/// assert_eq!(DEFAULT_BENCH_DEPTH, 16);
/// let _quick = run_bench(1); // `minkowski bench` runs run_bench(DEFAULT_BENCH_DEPTH)
/// ```
pub const DEFAULT_BENCH_DEPTH: u32 = 16;

/// Transposition table size of the bench in megabytes.
///
/// ```
/// assert_eq!(minkowski::search::bench::BENCH_HASH_MB, 16);
/// ```
pub const BENCH_HASH_MB: usize = 16;

/// The bench positions: openings, middlegames, tactical positions and endgames (many taken
/// from the Bratko-Kopec, WAC, Kaufman, STS, LCT II and perft test suites; FEN only).
///
/// ```
/// use minkowski::search::bench::BENCH_POSITIONS;
/// use shakmaty::{Chess, CastlingMode, fen::Fen};
/// for fen in BENCH_POSITIONS {
///     let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Chess960).unwrap();
///     let _ = pos;
/// }
/// ```
pub const BENCH_POSITIONS: &[&str] = &[
    // Openings and perft positions
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rnbqkb1r/pp1p1ppp/4pn2/2p5/2PP4/2N5/PP2PPPP/R1BQKBNR w KQkq - 0 4",
    "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
    "rnbqkb1r/ppp2ppp/4pn2/3p4/2PP4/2N5/PP2PPPP/R1BQKBNR w KQkq - 2 4",
    "r1bqk2r/ppp1nppp/4p3/n5N1/2BPp3/P1P5/2P2PPP/R1BQK2R w KQkq - 0 1",
    "r2qk2r/1bpnnpbp/p2pp1p1/4P3/Pp1P1P2/2NBBN2/1PP3PP/R2Q1RK1 w kq - 0 1",
    "r3kb1r/3n1pp1/p6p/2pPp2q/Pp2N3/3B2PP/1PQ2P2/R3K2R w KQkq - 0 1",
    // Middlegames
    "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
    "2r3k1/1p2q1pp/2b1pr2/p1pp4/6Q1/1P1PP1R1/P1PN2PP/5RK1 w - - 0 1",
    "2r2rk1/1bqnbpp1/1p1ppn1p/pP6/N1P1P3/P2B1N1P/1B2QPP1/R2R2K1 b - - 0 1",
    "r2q2k1/pp1rbppp/4pn2/2P5/1P3B2/6P1/P3QPBP/1R3RK1 w - - 0 1",
    "3r4/2p1rk2/1pQq1pp1/7p/1P1P4/P4P2/6PP/R1R3K1 b - - 0 1",
    "1rbq1rk1/p1b1nppp/1p2p3/8/1B1pN3/P2B4/1P3PPP/2RQ1R1K w - - 0 1",
    "1kr5/3n4/q3p2p/p2n2p1/PppB1P2/5BP1/1P2Q2P/3R2K1 w - - 0 1",
    "1r1b2k1/2r2ppp/p1qp4/3R1NPP/1pn1PQB1/8/PPP3R1/1K6 w - - 0 1",
    "1r4k1/1rq2pp1/3b1nn1/pBpPp3/P1N4p/2PP1Q1P/6PB/2R2RK1 w - - 0 1",
    "1rr3k1/1q3pp1/pnbQp2p/1p2P3/3B1P2/2PB4/P1P2RPP/R5K1 w - - 0 1",
    "r2qrnk1/pp3ppb/3b1n1p/1Pp1p3/2P1P2N/P5P1/1B1NQPBP/R4RK1 w - - 0 1",
    "1r4k1/1q2bp2/3p2p1/2pP4/p1N4R/2P2QP1/1P3PK1/8 w - - 0 1",
    "1k2r2r/1bq2p2/pn4p1/3pP3/pbpN1P1p/4QN1B/1P4PP/2RR3K b - - 0 1",
    "2r3k1/p1r1qpb1/1p2p1p1/nR2P3/P2B4/2P5/3NQPP1/R5K1 w - - 0 1",
    "4k2r/1r2np2/2q1p1p1/p2pP3/n1pP1PP1/1pP1NNK1/1P2Q3/R4R2 w k - 0 1",
    "8/1q6/3pn1k1/2p1p1p1/2P1P1Pp/1rBP1p1P/2Q2P2/R5K1 b - - 0 1",
    // Tactics
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "r4q1k/p2bR1rp/2p2Q1N/5p2/5p2/2P5/PP3PPP/R5K1 w - - 0 1",
    "r2q3k/p2P3p/1p3p2/3QP1r1/8/B7/P5PP/2R3K1 w - - 0 1",
    "k4r2/1R4pb/1pQp1n1p/3P4/5p1P/3P2P1/r1q1R2K/8 w - - 0 1",
    "r3q1kr/ppp5/3p2pQ/8/3PP1b1/5R2/PPP3P1/5RK1 w - - 0 1",
    "5r1k/6pp/1n2Q3/4p3/8/7P/PP4PK/R1B1q3 b - - 0 1",
    "r2q1r1k/pb3p1p/2n1p2Q/5p2/8/3B2N1/PP3PPP/R3R1K1 w - - 0 1",
    "2b1r1k1/r4ppp/p7/2pNP3/4Q3/q6P/2P2PP1/3RR1K1 w - - 0 1",
    // Endgames
    "4b3/p3kp2/6p1/3pP2p/2pP1P2/4K1P1/P3N2P/8 w - - 0 1",
    "1R6/1brk2p1/4p2p/p1P1Pp2/P7/6P1/1P4P1/2R3K1 w - - 0 1",
    "8/6pp/3q1p2/3n1k2/1P6/3NQ2P/5PP1/6K1 w - - 0 1",
    "1B1b4/7K/1p6/1k6/8/8/8/8 w - - 0 1",
    "8/8/1p1r1k2/p1pPN1p1/P3KnP1/1P6/8/3R4 b - - 0 1",
    "8/8/8/1B6/6p1/8/4KPpp/3N2kr w - - 0 1",
    "8/3k4/8/8/3PK3/8/8/8 w - - 0 1",
    "8/p7/1p6/p7/kq1Q4/8/K7/8 w - - 0 1",
    "8/1k1K4/8/8/6R1/8/8/8 w - - 0 1",
    "5Q2/7k/8/8/3K4/8/2p5/8 w - - 0 1",
    "8/5B2/1k1K4/8/8/1N6/8/8 w - - 0 1",
    "8/K7/8/8/5k2/4RPR1/8/8 w - - 0 1",
    "8/8/8/8/1p2P3/4P3/1k6/3K4 w - - 0 1",
    "8/8/p1p5/1p5p/1P5p/8/PPP2K1p/4R1rk w - - 0 1",
    "7k/5K2/5P1p/3p4/6P1/3p4/8/8 w - - 0 1",
];

/// The outcome of a bench run.
///
/// ```
/// let report = minkowski::search::bench::run_bench(1);
/// println!("{} nodes {} nps", report.nodes, report.nps); // the last line of `minkowski bench`
/// assert!(report.nodes >= minkowski::search::bench::BENCH_POSITIONS.len() as u64);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchReport {
    /// Total nodes over all positions (deterministic for a given build and depth).
    pub nodes: u64,
    /// Wall-clock time of the searches.
    pub elapsed: Duration,
    /// Nodes per second.
    pub nps: u64,
    /// The main thread's pawn-king cache: lookups and hits over the whole run (one cache,
    /// kept from position to position as in a game).
    pub pawn_king: (u64, u64),
    /// The same cache's table of whole evaluations: lookups and hits.
    pub values: (u64, u64),
    /// The main thread's per-rule counters over the run (zero-sized without the
    /// `search-stats` feature).
    pub stats: SearchStats,
}

/// Parse a bench FEN (they are all valid; tested).
fn position(fen: &str) -> Option<Chess> {
    fen.parse::<Fen>()
        .ok()?
        .into_position(CastlingMode::Chess960)
        .ok()
}

/// Search every bench position to `depth` with one fresh 16 MB [`Searcher`] and sum the nodes.
///
/// ```
/// let a = minkowski::search::bench::run_bench(2);
/// let b = minkowski::search::bench::run_bench(2);
/// assert_eq!(a.nodes, b.nodes); // deterministic
/// assert!(a.nodes > 0);
/// ```
#[must_use]
pub fn run_bench(depth: u32) -> BenchReport {
    run_bench_until(depth, &SearchControl::default())
}

/// [`run_bench`] that another thread can cut short: once `control.stop` is set, the position
/// being searched ends at once and the rest are skipped (the count is then partial).
///
/// ```
/// use minkowski::search::SearchControl;
/// use minkowski::search::bench::{run_bench, run_bench_until};
/// let control = SearchControl::default();
/// assert_eq!(run_bench_until(2, &control).nodes, run_bench(2).nodes);
/// control.stop.store(true, std::sync::atomic::Ordering::Relaxed);
/// assert_eq!(run_bench_until(2, &control).nodes, 0);
/// ```
#[must_use]
pub fn run_bench_until(depth: u32, control: &SearchControl) -> BenchReport {
    bench(depth, 1, control)
}

/// [`run_bench`] with `threads` search threads: the time it takes is the time to reach
/// `depth` on every position, and its nodes count every thread (not deterministic with more
/// than one thread).
///
/// ```
/// let report = minkowski::search::bench::run_bench_threads(3, 2);
/// assert!(report.nodes > 0);
/// ```
#[must_use]
pub fn run_bench_threads(depth: u32, threads: usize) -> BenchReport {
    bench(depth, threads, &SearchControl::default())
}

fn bench(depth: u32, threads: usize, control: &SearchControl) -> BenchReport {
    let mut searcher = Searcher::new(BENCH_HASH_MB);
    searcher.set_threads(threads);
    let limits = Limits {
        depth: Some(depth.max(1)),
        ..Default::default()
    };
    let start = Instant::now();
    let mut nodes = 0;
    for pos in BENCH_POSITIONS.iter().filter_map(|f| position(f)) {
        if control.stop.load(Ordering::Relaxed) {
            break;
        }
        nodes += searcher.search(&pos, &[], &limits, control, &mut ()).nodes;
    }
    let elapsed = start.elapsed();
    let nps = (u128::from(nodes) * 1000 / elapsed.as_millis().max(1)) as u64;
    BenchReport {
        nodes,
        elapsed,
        nps,
        pawn_king: searcher.pawn_king_stats(),
        values: searcher.value_stats(),
        stats: searcher.take_stats(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bench_position_parses() {
        for fen in BENCH_POSITIONS {
            assert!(position(fen).is_some(), "{fen}");
        }
        assert!(BENCH_POSITIONS.len() >= 45);
    }
}
