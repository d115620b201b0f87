//! Evaluations per second of the same positions through four calls, in one process, rounds
//! interleaved so that a busy machine slows all alike: the Rust call `Evaluator::evaluate`, the
//! one-shot C call `mk_evaluate` (NULL weights), and an evaluator handle's checked call
//! (`mk_evaluator_evaluate`) and trusted call (`mk_evaluator_evaluate_trusted`); and, to show
//! where the time goes, the engine's own cached path (`Evaluator::evaluate_cached`, what a
//! handle runs after its checks) and the checks alone (`mk_position_check`). Reports the
//! fastest round of each (the least disturbed by other processes) and its ratio to the Rust call.
//! Positions: the first 1,000 FENs of the EPD files given, in order.
//!
//!     cargo run --release -p minkowski-chess-capi --example bench -- epd/*.epd
//!     cargo run --release -p minkowski-chess-capi --example bench -- --rounds 50 epd/wac.epd

use std::ffi::CString;
use std::hint::black_box;
use std::ptr::null;
use std::time::{Duration, Instant};

use minkowski_capi::{
    MK_OK, MkPosition, mk_evaluate, mk_evaluator_evaluate, mk_evaluator_evaluate_trusted,
    mk_evaluator_free, mk_evaluator_new, mk_position_check, mk_position_from_fen,
};
use minkowski_core::eval::Evaluator;
use minkowski_core::eval::pawn_king::PawnKingCache;
use minkowski_core::shakmaty::fen::Fen;
use minkowski_core::shakmaty::{CastlingMode, Chess, Position};

const POSITIONS: usize = 1_000;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut rounds = 100;
    if args.first().map(String::as_str) == Some("--rounds") && args.len() > 1 {
        rounds = args[1].parse().expect("--rounds N");
        args.drain(..2);
    }
    let mut positions: Vec<(Chess, MkPosition)> = Vec::new();
    'files: for path in &args {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
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
    let handle = unsafe { mk_evaluator_new(null()) };
    assert!(!handle.is_null());
    let mut cache = PawnKingCache::default();
    let names = [
        "Rust Evaluator::evaluate",
        "C one-shot mk_evaluate",
        "C handle, checked call",
        "C handle, trusted call",
        "Rust evaluate_cached",
        "mk_position_check alone",
    ];
    let mut best = [Duration::MAX; 6];
    let mut sums = [0i64; 6];
    for _ in 0..rounds {
        for (call, (best, sum)) in best.iter_mut().zip(sums.iter_mut()).enumerate() {
            let t = Instant::now();
            let mut total = 0i64;
            for (pos, mk) in &positions {
                let cp = match call {
                    0 => evaluator.evaluate(black_box(pos)).0,
                    4 => {
                        let (board, turn) = (black_box(pos).board(), pos.turn());
                        let sum = evaluator.material_psqt(board);
                        evaluator.evaluate_cached(board, turn, sum, &mut cache).0
                    }
                    // The checks and conversion of the checked calls, without the evaluation.
                    5 => unsafe { mk_position_check(black_box(mk)) },
                    _ => {
                        let mut cp = 0;
                        let status = unsafe {
                            match call {
                                1 => mk_evaluate(null(), black_box(mk), &mut cp),
                                2 => mk_evaluator_evaluate(handle, black_box(mk), &mut cp),
                                _ => mk_evaluator_evaluate_trusted(handle, black_box(mk), &mut cp),
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
    unsafe { mk_evaluator_free(handle) };
    assert!(
        sums[..5].iter().all(|&s| s == sums[0]),
        "the calls disagree"
    );
    println!(
        "positions {} x {rounds} rounds, fastest round of each",
        positions.len()
    );
    let rust = best[0].as_secs_f64();
    for (name, time) in names.iter().zip(best) {
        let t = time.as_secs_f64();
        println!(
            "{name:<26} {:>9.0} evals/s  {:>6.1} ns/eval  ratio to Rust {:.3}",
            positions.len() as f64 / t,
            t * 1e9 / positions.len() as f64,
            rust / t
        );
    }
}
