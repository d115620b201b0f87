//! How good a bound the bounded call gives. Three sets of positions: those of the EPD files
//! given, every position one legal move after each of them, and random playouts from them
//! (16 random legal moves from each, every position on the way: hanging pieces and forks
//! everywhere, the threats family at its largest). For each position, the difference between
//! the exact evaluation and the late estimate (`Evaluator::lazy_estimate`, what
//! `mk_evaluator_evaluate_bounded` compares with its window second) against the margin
//! `MK_LAZY_MARGIN`, and the cheap estimate's (`Evaluator::cheap_estimate`, compared first,
//! against `MK_LAZY_MARGIN_EARLY`); then for random windows around the exact value what the C call returns:
//! the exact value inside the window (checked), how often a bound outside it, how far that lies
//! from the exact value, and whether it is ever on the wrong side of the window (a fail).
//! Deterministic: no timing.
//!
//!     cargo run --release -p minkowski-chess-capi --example bounded_error -- epd/*.epd

use std::ffi::CString;
use std::ptr::null;

use minkowski_capi::{
    MK_LAZY_MARGIN, MK_LAZY_MARGIN_EARLY, MK_OK, MkPosition, mk_evaluator_evaluate_bounded,
    mk_evaluator_free, mk_evaluator_new, mk_position_from_fen,
};
use minkowski_core::eval::Evaluator;
use minkowski_core::eval::pawn_king::PawnKingCache;
use minkowski_core::shakmaty::fen::Fen;
use minkowski_core::shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

/// Random windows per position.
const WINDOWS: usize = 8;
/// Plies of each random playout.
const PLAYOUT: usize = 16;

/// A xorshift generator: `next(n)` is uniform in `0..n`.
struct Random(u64);

impl Random {
    fn next(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }

    /// Uniform in `-span..=span`.
    fn centred(&mut self, span: i32) -> i32 {
        self.next(2 * span as u64 + 1) as i32 - span
    }
}

/// An unreadable file: the message and exit code 2, not a panic.
fn fail(message: &str) -> ! {
    eprintln!("bounded_error: {message}");
    std::process::exit(2)
}

fn main() {
    let mut suite: Vec<Chess> = Vec::new();
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
        for line in text.lines() {
            let fen = line.split_whitespace().take(4).collect::<Vec<_>>();
            let parsed = fen.join(" ").parse::<Fen>().ok();
            if let Some(pos) = parsed.and_then(|f| f.into_position(CastlingMode::Chess960).ok()) {
                suite.push(pos);
            }
        }
    }
    let mut random = Random(0x2545_f491_4f6c_dd1d);
    let mut children = Vec::new();
    let mut playouts = Vec::new();
    for pos in &suite {
        for m in pos.legal_moves() {
            children.push(pos.clone().play(m).unwrap());
        }
        let mut pos = pos.clone();
        for _ in 0..PLAYOUT {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[random.next(moves.len() as u64) as usize]);
            playouts.push(pos.clone());
        }
    }
    println!(
        "margins MK_LAZY_MARGIN = {MK_LAZY_MARGIN} cp, MK_LAZY_MARGIN_EARLY = {MK_LAZY_MARGIN_EARLY} cp"
    );
    let evaluator = Evaluator::default();
    let mut cache = PawnKingCache::default();
    let handle = unsafe { mk_evaluator_new(null()) };
    let sets = [
        ("suites", &suite),
        ("one move on", &children),
        ("random playouts", &playouts),
    ];
    for (name, set) in sets {
        // exact - estimate, for the positions that have an estimate (no endgame knowledge).
        let mut errors: Vec<i32> = Vec::new();
        // The same for the cheap estimate (what the call compares first, MK_LAZY_MARGIN_EARLY).
        let mut cheap_errors: Vec<i32> = Vec::new();
        let mut worst: Vec<(i32, String)> = Vec::new();
        let (mut calls, mut inside, mut bounds, mut fails) = (0u64, 0u64, 0u64, 0u64);
        let (mut gap_sum, mut gap_max) = (0i64, 0i32);
        for pos in set {
            let (board, turn) = (pos.board(), pos.turn());
            let sum = evaluator.material_psqt(board);
            let exact = evaluator.evaluate(pos).0;
            let fen = Fen::from_position(pos, EnPassantMode::Legal).to_string();
            if let Some(estimate) = evaluator.cheap_estimate(board, turn, sum, &mut cache) {
                cheap_errors.push((exact - estimate.0).abs());
            }
            if let Some(estimate) = evaluator.lazy_estimate(board, turn, sum, &mut cache) {
                let error = exact - estimate.0;
                errors.push(error);
                worst.push((
                    error.abs(),
                    format!("{fen}: exact {exact}, estimate {}", estimate.0),
                ));
                worst.sort_unstable_by_key(|(e, _)| -e);
                worst.truncate(3);
            }
            let mut mk = MkPosition::default();
            let text = CString::new(fen).unwrap();
            assert_eq!(
                unsafe { mk_position_from_fen(text.as_ptr(), &mut mk) },
                MK_OK
            );
            for _ in 0..WINDOWS {
                // A window of 1 to 401 cp whose centre lies within 2,000 cp of the exact value.
                let width = 1 + random.centred(200).abs() * 2;
                let alpha = exact + random.centred(2_000) - width / 2;
                let beta = alpha + width;
                let mut cp = i32::MIN;
                let status =
                    unsafe { mk_evaluator_evaluate_bounded(handle, &mk, alpha, beta, &mut cp) };
                assert_eq!(status, MK_OK);
                calls += 1;
                let wrong_side = (exact > alpha && cp <= alpha) || (exact < beta && cp >= beta);
                fails += u64::from(wrong_side);
                if alpha < exact && exact < beta {
                    inside += 1;
                    assert!(cp == exact || wrong_side, "inside: the exact value");
                } else if cp != exact {
                    bounds += 1;
                    let gap = (cp - exact).abs();
                    gap_sum += i64::from(gap);
                    gap_max = gap_max.max(gap);
                }
            }
        }
        errors.sort_unstable();
        let mut magnitudes: Vec<i32> = errors.iter().map(|e| e.abs()).collect();
        magnitudes.sort_unstable();
        let at = |v: &[i32], q: f64| v[((v.len() - 1) as f64 * q) as usize];
        let beyond = magnitudes.iter().filter(|&&e| e > MK_LAZY_MARGIN).count();
        println!(
            "{name}: {} positions, {} with an estimate (no endgame knowledge)",
            set.len(),
            errors.len()
        );
        println!(
            "  exact - estimate: min {}, median {}, max {}; |difference| p99 {}, p99.9 {}, p99.99 {}, max {}; beyond the margin: {beyond}",
            errors[0],
            at(&errors, 0.5),
            errors[errors.len() - 1],
            at(&magnitudes, 0.99),
            at(&magnitudes, 0.999),
            at(&magnitudes, 0.9999),
            magnitudes[magnitudes.len() - 1],
        );
        cheap_errors.sort_unstable();
        let cheap_beyond = cheap_errors
            .iter()
            .filter(|&&e| e > MK_LAZY_MARGIN_EARLY)
            .count();
        println!(
            "  |exact - cheap estimate|: median {}, p99 {}, p99.9 {}, p99.99 {}, max {}; beyond MK_LAZY_MARGIN_EARLY: {cheap_beyond}",
            at(&cheap_errors, 0.5),
            at(&cheap_errors, 0.99),
            at(&cheap_errors, 0.999),
            at(&cheap_errors, 0.9999),
            cheap_errors[cheap_errors.len() - 1],
        );
        for (_, line) in &worst {
            println!("    largest: {line}");
        }
        println!(
            "  {calls} random windows (width 1-401 cp, centre within 2,000 cp of the exact value): {inside} with the exact value inside, all answered exactly; {bounds} answered by a bound ({:.1} % of all), |bound - exact| mean {:.0} cp, max {gap_max}; on the wrong side of the window: {fails}",
            bounds as f64 * 100.0 / calls as f64,
            gap_sum as f64 / bounds.max(1) as f64
        );
    }
    unsafe { mk_evaluator_free(handle) };
}
