//! Nanoseconds per evaluation of the same positions through every call, in one process, rounds
//! interleaved so that a busy machine slows all alike: the Rust calls `Evaluator::evaluate` (no
//! cache) and `Evaluator::evaluate_cached` (the engine's own path, with a pawn-king cache: the
//! reference of the ratios); the one-shot C call `mk_evaluate` (NULL weights); an evaluator
//! handle's checked call (`mk_evaluator_evaluate`), trusted call
//! (`mk_evaluator_evaluate_trusted`), cached calls (`mk_evaluator_evaluate_cached` and
//! `_keyed`: every position found in the evaluation cache after the first round; and `_keyed`
//! with a new key each time, every lookup a miss), and bounded call
//! (`mk_evaluator_evaluate_bounded`: a window around the exact value, so the exact value; and a
//! window 2,000 cp below it, answered by a bound wherever no endgame knowledge applies); and the
//! checks alone (`mk_position_check`). Reports the fastest round of each (the least disturbed
//! by other processes) and its time relative to the engine's cached path.
//! Positions: the first 1,000 FENs of the EPD files given, in order.
//!
//!     cargo run --release -p minkowski-chess-capi --example bench -- epd/*.epd
//!     cargo run --release -p minkowski-chess-capi --example bench -- --rounds 50 epd/wac.epd

use std::ffi::CString;
use std::hint::black_box;
use std::ptr::null;
use std::time::{Duration, Instant};

use minkowski_capi::{
    MK_LAZY_MARGIN, MK_OK, MkPosition, mk_evaluate, mk_evaluator_evaluate,
    mk_evaluator_evaluate_bounded, mk_evaluator_evaluate_cached, mk_evaluator_evaluate_keyed,
    mk_evaluator_evaluate_trusted, mk_evaluator_free, mk_evaluator_new, mk_position_check,
    mk_position_from_fen,
};
use minkowski_core::eval::Evaluator;
use minkowski_core::eval::pawn_king::PawnKingCache;
use minkowski_core::shakmaty::fen::Fen;
use minkowski_core::shakmaty::{CastlingMode, Chess, Position};

const POSITIONS: usize = 1_000;

/// A bad argument or an unreadable file: the message and exit code 2, not a panic.
fn fail(message: &str) -> ! {
    eprintln!("bench: {message}");
    std::process::exit(2)
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut rounds = 100;
    if args.first().map(String::as_str) == Some("--rounds") && args.len() > 1 {
        rounds = match args[1].parse() {
            Ok(n) if n > 0 => n,
            _ => fail("--rounds takes a count above 0"),
        };
        args.drain(..2);
    }
    let mut positions: Vec<(Chess, MkPosition)> = Vec::new();
    'files: for path in &args {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
        for line in text.lines() {
            if positions.len() == POSITIONS {
                break 'files;
            }
            let fen = line
                .split_whitespace()
                .take(4)
                .collect::<Vec<_>>()
                .join(" ");
            let Ok(parsed) = fen.parse::<Fen>() else {
                continue;
            };
            let Ok(pos) = parsed.into_position::<Chess>(CastlingMode::Chess960) else {
                continue;
            };
            let mut mk = MkPosition::default();
            let text = CString::new(fen).unwrap();
            assert_eq!(
                unsafe { mk_position_from_fen(text.as_ptr(), &mut mk) },
                MK_OK
            );
            positions.push((pos, mk));
        }
    }
    let evaluator = Evaluator::default();
    let exact: Vec<i32> = positions
        .iter()
        .map(|(p, _)| evaluator.evaluate(p).0)
        .collect();
    let handle = unsafe { mk_evaluator_new(null()) };
    // The misses get a handle of their own: their new entries would push the others' out.
    let missing = unsafe { mk_evaluator_new(null()) };
    assert!(!handle.is_null() && !missing.is_null());
    let mut cache = PawnKingCache::default();
    let names = [
        "Rust Evaluator::evaluate (no cache)",
        "Rust evaluate_cached (engine's path)",
        "C one-shot mk_evaluate",
        "C handle, checked",
        "C handle, trusted",
        "C handle, cached (hits)",
        "C handle, keyed (hits)",
        "C handle, keyed (misses)",
        "C handle, bounded (exact)",
        "C handle, bounded (bound)",
        "mk_position_check alone",
    ];
    const ENGINE: usize = 1;
    const BOUND: usize = 9;
    const CHECK: usize = 10;
    let mut best = [Duration::MAX; 11];
    let mut sums = [0i64; 11];
    let mut fresh_key = 0u64;
    for _ in 0..rounds {
        for (call, (best, sum)) in best.iter_mut().zip(sums.iter_mut()).enumerate() {
            let t = Instant::now();
            let mut total = 0i64;
            for (i, (pos, mk)) in positions.iter().enumerate() {
                let cp = match call {
                    0 => evaluator.evaluate(black_box(pos)).0,
                    ENGINE => {
                        let (board, turn) = (black_box(pos).board(), pos.turn());
                        let sum = evaluator.material_psqt(board);
                        evaluator.evaluate_cached(board, turn, sum, &mut cache).0
                    }
                    // The checks and conversion of the checked calls, without the evaluation.
                    CHECK => unsafe { mk_position_check(black_box(mk)) },
                    _ => {
                        let mut cp = 0;
                        let mk = black_box(mk);
                        // The host's key: the position's index (the same each round), or a new
                        // number every time (never found).
                        let key = (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                        let window = match call {
                            BOUND => (exact[i] + 2_000, exact[i] + 2_001),
                            _ => (exact[i] - 1, exact[i] + 1),
                        };
                        let status = unsafe {
                            match call {
                                2 => mk_evaluate(null(), mk, &mut cp),
                                3 => mk_evaluator_evaluate(handle, mk, &mut cp),
                                4 => mk_evaluator_evaluate_trusted(handle, mk, &mut cp),
                                5 => mk_evaluator_evaluate_cached(handle, mk, &mut cp),
                                6 => mk_evaluator_evaluate_keyed(handle, mk, key, &mut cp),
                                7 => {
                                    fresh_key += 1;
                                    let key = fresh_key.wrapping_mul(0xbf58_476d_1ce4_e5b9);
                                    mk_evaluator_evaluate_keyed(missing, mk, key, &mut cp)
                                }
                                _ => {
                                    let (alpha, beta) = window;
                                    mk_evaluator_evaluate_bounded(handle, mk, alpha, beta, &mut cp)
                                }
                            }
                        };
                        assert_eq!(status, MK_OK);
                        cp
                    }
                };
                total += i64::from(black_box(cp));
            }
            *best = (*best).min(t.elapsed());
            *sum = total;
        }
    }
    unsafe {
        mk_evaluator_free(handle);
        mk_evaluator_free(missing);
    }
    let want: i64 = exact.iter().map(|&v| i64::from(v)).sum();
    assert!(
        sums[..BOUND].iter().all(|&s| s == want),
        "the exact calls disagree"
    );
    let bounds = positions
        .iter()
        .zip(&exact)
        .filter(|((pos, _), v)| {
            let (board, turn) = (pos.board(), pos.turn());
            let sum = evaluator.material_psqt(board);
            let mut cache = PawnKingCache::default();
            evaluator
                .lazy_estimate(board, turn, sum, &mut cache)
                .is_some_and(|e| e.0 + MK_LAZY_MARGIN <= **v + 2_000)
        })
        .count();
    println!(
        "positions {} x {rounds} rounds, fastest round of each; bounded (bound): {bounds} of them answered by a bound",
        positions.len()
    );
    let engine = best[ENGINE].as_secs_f64();
    for (name, time) in names.iter().zip(best) {
        let t = time.as_secs_f64();
        println!(
            "{name:<38} {:>7.1} ns/eval  time / engine's path {:.2}",
            t * 1e9 / positions.len() as f64,
            t / engine
        );
    }
}
