//! Evaluations per second through the C entry point `mk_evaluate` (bitboards in, checked and
//! converted on every call) against the Rust call `Evaluator::evaluate` on the same positions,
//! in one process, rounds interleaved so that a busy machine slows both alike. Reports the total
//! and the fastest round of each (the fastest round is the least disturbed by other processes).
//!
//!     cargo run --release -p minkowski-chess-capi --example bench -- epd/wac.epd epd/sts1.epd

use std::ffi::CString;
use std::hint::black_box;
use std::ptr::null;
use std::time::{Duration, Instant};

use minkowski::eval::Evaluator;
use minkowski::shakmaty::fen::Fen;
use minkowski::shakmaty::{CastlingMode, Chess};
use minkowski_capi::{MK_OK, MkPosition, mk_evaluate, mk_position_from_fen};

fn main() {
    let mut positions: Vec<(Chess, MkPosition)> = Vec::new();
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        for line in text.lines() {
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
    let (mut rust, mut capi) = (Duration::ZERO, Duration::ZERO);
    let (mut rust_best, mut capi_best) = (Duration::MAX, Duration::MAX);
    let rounds = 200;
    for _ in 0..rounds {
        let t = Instant::now();
        for (pos, _) in &positions {
            black_box(evaluator.evaluate(black_box(pos)));
        }
        rust += t.elapsed();
        rust_best = rust_best.min(t.elapsed());
        let t = Instant::now();
        for (_, mk) in &positions {
            let mut cp = 0;
            black_box(unsafe { mk_evaluate(null(), black_box(mk), &mut cp) });
            black_box(cp);
        }
        capi += t.elapsed();
        capi_best = capi_best.min(t.elapsed());
    }
    let evals = (positions.len() * rounds) as f64;
    let (rust_rate, capi_rate) = (evals / rust.as_secs_f64(), evals / capi.as_secs_f64());
    println!("positions {} x {rounds} rounds", positions.len());
    println!("Rust Evaluator::evaluate: {rust_rate:.0} evals/s");
    println!("C API mk_evaluate:        {capi_rate:.0} evals/s");
    println!("C API / Rust: {:.3}", capi_rate / rust_rate);
    let per_round = positions.len() as f64;
    let (rust_fast, capi_fast) = (
        per_round / rust_best.as_secs_f64(),
        per_round / capi_best.as_secs_f64(),
    );
    println!(
        "fastest round: Rust {rust_fast:.0}/s, C API {capi_fast:.0}/s, ratio {:.3}",
        capi_fast / rust_fast
    );
}
