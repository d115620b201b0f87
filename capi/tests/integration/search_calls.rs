//! The handle's calls for a search: the cached and keyed calls against the trusted call (the
//! cache cold and warm, collisions of host keys, sizes and counts), and the bounded call's
//! contract on every position of the suites in epd/: exact inside its window, bit for bit, and
//! on the right side of it outside.

use std::ffi::CString;
use std::path::Path;
use std::ptr::{null, null_mut};

use minkowski_capi::*;
use minkowski_core::eval::Evaluator;
use minkowski_core::eval::pawn_king::PawnKingCache;
use minkowski_core::shakmaty::fen::Fen;
use minkowski_core::shakmaty::{CastlingMode, Chess, Position};

/// The FENs (first four fields) of every EPD file of the repository.
fn all_suites() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../epd");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "epd"))
        .collect();
    files.sort();
    files
        .iter()
        .flat_map(|path| {
            let text = std::fs::read_to_string(path).unwrap();
            text.lines()
                .map(|l| l.split_whitespace().take(4).collect::<Vec<_>>().join(" "))
                .collect::<Vec<_>>()
        })
        .filter(|fen| position(fen).is_some())
        .collect()
}

/// The bitboards of a FEN, if the library accepts it.
fn position(fen: &str) -> Option<MkPosition> {
    let text = CString::new(fen).ok()?;
    let mut pos = MkPosition::default();
    (unsafe { mk_position_from_fen(text.as_ptr(), &mut pos) } == MK_OK).then_some(pos)
}

/// A call's value or its status.
fn value(call: impl FnOnce(&mut i32) -> i32) -> i32 {
    let mut cp = i32::MIN;
    let status = call(&mut cp);
    if status == MK_OK { cp } else { status }
}

fn stats(handle: *mut MkEvaluator) -> MkCacheStats {
    let mut stats = MkCacheStats::default();
    assert_eq!(
        unsafe { mk_evaluator_cache_stats(handle, &mut stats) },
        MK_OK
    );
    stats
}

#[test]
fn cached_and_keyed_calls_give_the_trusted_value_cold_and_warm() {
    let fens = all_suites();
    assert!(fens.len() > 10_000, "{} positions", fens.len());
    let positions: Vec<MkPosition> = fens.iter().filter_map(|f| position(f)).collect();
    let (plain, cached, keyed) = unsafe {
        (
            mk_evaluator_new(null()),
            mk_evaluator_new(null()),
            mk_evaluator_new(null()),
        )
    };
    assert_eq!(stats(cached).eval_entries, 0, "allocated on first use");
    for handle in [cached, keyed] {
        assert_eq!(unsafe { mk_evaluator_set_cache_size(handle, 1024) }, MK_OK);
    }
    for pass in 0..2 {
        for (i, pos) in positions.iter().enumerate() {
            let want = value(|cp| unsafe { mk_evaluator_evaluate_trusted(plain, pos, cp) });
            let got = value(|cp| unsafe { mk_evaluator_evaluate_cached(cached, pos, cp) });
            // A host key: the index of the FEN (two FENs of one position get two entries).
            let key = (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            let by_key = value(|cp| unsafe { mk_evaluator_evaluate_keyed(keyed, pos, key, cp) });
            assert_eq!((got, by_key), (want, want), "pass {pass}: {}", fens[i]);
        }
    }
    let n = positions.len() as u64;
    for handle in [cached, keyed] {
        let s = stats(handle);
        eprintln!("{s:?}");
        assert_eq!(s.eval_probes, 2 * n);
        assert_eq!(s.eval_entries, 1024 * 1024 / 16);
        // The second pass finds almost every position (some slots were taken by another).
        assert!(
            s.eval_hits > n * 8 / 10,
            "{} hits of {}",
            s.eval_hits,
            s.eval_probes
        );
    }
    unsafe {
        mk_evaluator_clear(cached);
        assert_eq!(stats(cached).eval_probes, 0);
        for handle in [plain, cached, keyed] {
            mk_evaluator_free(handle);
        }
    }
}

#[test]
fn a_host_key_collision_does_not_return_another_positions_value() {
    let handle = unsafe { mk_evaluator_new(null()) };
    let a = position("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3").unwrap();
    let b = position("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
    let exact = |pos: &MkPosition| value(|cp| unsafe { mk_evaluator_evaluate(handle, pos, cp) });
    let keyed =
        |pos: &MkPosition| value(|cp| unsafe { mk_evaluator_evaluate_keyed(handle, pos, 42, cp) });
    assert_ne!(exact(&a), exact(&b));
    // One key for two positions, as a broken host key would give: each gets its own value.
    for _ in 0..2 {
        assert_eq!(keyed(&a), exact(&a));
        assert_eq!(keyed(&b), exact(&b));
    }
    // The side to move is part of the position.
    let a_black = MkPosition {
        white_to_move: 0,
        ..a
    };
    let cached =
        |pos: &MkPosition| value(|cp| unsafe { mk_evaluator_evaluate_cached(handle, pos, cp) });
    assert_eq!(cached(&a), exact(&a));
    assert_eq!(cached(&a_black), exact(&a_black));
    assert_eq!(cached(&a), exact(&a));
    unsafe { mk_evaluator_free(handle) };
}

#[test]
fn cache_sizes_counts_and_bad_input() {
    let handle = unsafe { mk_evaluator_new(null()) };
    let start = position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
    let cached = || value(|cp| unsafe { mk_evaluator_evaluate_cached(handle, &start, cp) });
    let want = value(|cp| unsafe { mk_evaluator_evaluate_trusted(handle, &start, cp) });
    unsafe {
        assert_eq!(stats(handle).eval_entries, 0);
        assert_eq!(cached(), want);
        let default_entries = u64::from(MK_EVAL_CACHE_DEFAULT_KIB) * 1024 / 16;
        assert_eq!(stats(handle).eval_entries, default_entries);
        assert_eq!(mk_evaluator_set_cache_size(handle, 64), MK_OK);
        assert_eq!(stats(handle).eval_entries, 4096);
        assert_eq!((cached(), cached()), (want, want));
        let s = stats(handle);
        assert_eq!((s.eval_probes, s.eval_hits), (2, 1));
        // Off: every call evaluates, nothing is counted.
        assert_eq!(mk_evaluator_set_cache_size(handle, 0), MK_OK);
        assert_eq!(cached(), want);
        assert_eq!(stats(handle).eval_probes, 0);
        assert_eq!(
            mk_evaluator_set_cache_size(handle, MK_EVAL_CACHE_MAX_KIB + 1),
            MK_ERR_ARGUMENT
        );
        assert_eq!(mk_evaluator_set_cache_size(null_mut(), 64), MK_ERR_NULL);
        assert_eq!(mk_evaluator_cache_stats(handle, null_mut()), MK_ERR_NULL);
        assert_eq!(
            mk_evaluator_cache_stats(null(), &mut MkCacheStats::default()),
            MK_ERR_NULL
        );
        // The trusted call's checks, on a position the cache does not hold.
        assert_eq!(mk_evaluator_set_cache_size(handle, 16), MK_OK);
        let mut overlap = start;
        overlap.black |= 1 << 4;
        let mut cp = 7;
        assert_eq!(
            mk_evaluator_evaluate_cached(handle, &overlap, &mut cp),
            MK_ERR_BITBOARDS
        );
        assert_eq!(
            mk_evaluator_evaluate_keyed(handle, &MkPosition::default(), 1, &mut cp),
            MK_ERR_POSITION
        );
        assert_eq!(cp, 7, "untouched on error");
        assert_eq!(
            mk_evaluator_evaluate_cached(null_mut(), &start, &mut cp),
            MK_ERR_NULL
        );
        assert_eq!(
            mk_evaluator_evaluate_keyed(handle, null(), 1, &mut cp),
            MK_ERR_NULL
        );
        assert_eq!(
            mk_evaluator_evaluate_bounded(handle, &start, 0, 0, &mut cp),
            MK_ERR_ARGUMENT
        );
        assert_eq!(
            mk_evaluator_evaluate_bounded(handle, &overlap, -10, 10, &mut cp),
            MK_ERR_BITBOARDS
        );
        assert_eq!(
            mk_evaluator_evaluate_bounded(handle, &start, -10, 10, null_mut()),
            MK_ERR_NULL
        );
        mk_evaluator_free(handle);
    }
}

/// The bounded call on every suite position, for windows around and away from the exact
/// value: inside, the exact value bit for bit; outside, a result on the exact value's side.
/// And the reason it holds: on every suite position the estimate lies within the margin of the
/// exact value.
#[test]
fn the_bounded_call_is_exact_inside_and_on_the_right_side_outside() {
    let evaluator = Evaluator::default();
    let mut cache = PawnKingCache::default();
    let handle = unsafe { mk_evaluator_new(null()) };
    let (mut bounds, mut calls) = (0, 0);
    for fen in all_suites() {
        let pos = position(&fen).unwrap();
        let chess: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Chess960)
            .unwrap();
        let exact = evaluator.evaluate(&chess).0;
        let (board, turn) = (chess.board(), chess.turn());
        let sum = evaluator.material_psqt(board);
        if let Some(estimate) = evaluator.lazy_estimate(board, turn, sum, &mut cache) {
            assert!((estimate.0 - exact).abs() <= MK_LAZY_MARGIN, "{fen}");
        }
        let bounded = |alpha: i32, beta: i32| {
            value(|cp| unsafe { mk_evaluator_evaluate_bounded(handle, &pos, alpha, beta, cp) })
        };
        for (below, above) in [(1, 1), (0, 1), (1, 0), (300, 7), (7, 300), (2_000, 2_000)] {
            let alpha = exact - below;
            let beta = exact + above;
            if alpha < exact && exact < beta {
                assert_eq!(bounded(alpha, beta), exact, "{fen} ({alpha}, {beta})");
            }
        }
        for distance in [0, 1, 100, 499, 500, 501, 1_000, 5_000] {
            for width in [1, 50, 1_000] {
                // The exact value at or above beta: a fail high.
                let beta = exact - distance;
                let high = bounded(beta - width, beta);
                assert!(high >= beta, "{fen}: {high} for ({}, {beta})", beta - width);
                // At or below alpha: a fail low.
                let alpha = exact + distance;
                let low = bounded(alpha, alpha + width);
                assert!(
                    low <= alpha,
                    "{fen}: {low} for ({alpha}, {})",
                    alpha + width
                );
                calls += 2;
                bounds += i32::from(high != exact) + i32::from(low != exact);
            }
        }
    }
    unsafe { mk_evaluator_free(handle) };
    assert!(
        bounds * 4 > calls,
        "{bounds} bounds of {calls}: the early answer is used"
    );
}
