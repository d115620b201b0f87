//! The evaluator handle against independent oracles: the Rust evaluation (Evaluator::evaluate,
//! no cache) and the one-shot C call, on every position of two suites, each evaluated twice so
//! that the second pass reads the pawn-king cache; and the trusted call's contract.

use std::ffi::CString;
use std::path::Path;
use std::ptr::{null, null_mut};

use minkowski_capi::*;
use minkowski_core::eval::Evaluator;
use minkowski_core::shakmaty::fen::Fen;
use minkowski_core::shakmaty::{CastlingMode, Chess};

/// The FENs (first four fields) of an EPD file of the repository.
fn suite(name: &str) -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../epd");
    let text = std::fs::read_to_string(dir.join(name)).unwrap();
    text.lines()
        .map(|l| l.split_whitespace().take(4).collect::<Vec<_>>().join(" "))
        .filter(|fen| fen.split(' ').count() == 4)
        .collect()
}

fn position(fen: &str) -> MkPosition {
    let text = CString::new(fen).unwrap();
    let mut pos = MkPosition::default();
    assert_eq!(
        unsafe { mk_position_from_fen(text.as_ptr(), &mut pos) },
        MK_OK
    );
    pos
}

#[test]
fn both_calls_of_a_handle_equal_the_rust_evaluation_cache_cold_and_warm() {
    let rust = Evaluator::default();
    let handle = unsafe { mk_evaluator_new(null()) };
    assert!(!handle.is_null());
    let fens: Vec<String> = ["wac.epd", "sts1.epd", "kbnk.epd"]
        .iter()
        .flat_map(|name| suite(name))
        .collect();
    assert!(fens.len() > 400);
    for pass in 0..2 {
        for fen in &fens {
            let chess: Chess = fen
                .parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Chess960)
                .unwrap();
            let want = rust.evaluate(&chess).0;
            let pos = position(fen);
            let (mut checked, mut trusted, mut one_shot) = (i32::MIN, i32::MIN, i32::MIN);
            unsafe {
                assert_eq!(mk_evaluator_evaluate(handle, &pos, &mut checked), MK_OK);
                assert_eq!(
                    mk_evaluator_evaluate_trusted(handle, &pos, &mut trusted),
                    MK_OK
                );
                assert_eq!(mk_evaluate(null(), &pos, &mut one_shot), MK_OK);
            }
            assert_eq!(
                (checked, trusted, one_shot),
                (want, want, want),
                "pass {pass}: {fen}"
            );
        }
    }
    unsafe { mk_evaluator_clear(handle) };
    unsafe { mk_evaluator_free(handle) };
}

#[test]
fn a_handle_keeps_its_own_copy_of_the_weights() {
    let pos = position("r1bqkb1r/pppp1ppp/8/4p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R w KQkq - 0 5");
    let weights = mk_weights_new();
    unsafe {
        assert_eq!(
            mk_weights_set(weights, c"material.knight".as_ptr(), 500, 600),
            MK_OK
        )
    };
    let handle = unsafe { mk_evaluator_new(weights) };
    let (mut want, mut got) = (0, 1);
    unsafe {
        assert_eq!(mk_evaluate(weights, &pos, &mut want), MK_OK);
        mk_weights_free(weights); // the handle's copy outlives it
        assert_eq!(mk_evaluator_evaluate(handle, &pos, &mut got), MK_OK);
        let mut default = 0;
        assert_eq!(mk_evaluate(null(), &pos, &mut default), MK_OK);
        assert_ne!(default, want, "the weight changes the score");
        mk_evaluator_free(handle);
    }
    assert_eq!(got, want);
}

#[test]
fn the_trusted_call_reads_only_bitboards_and_side_to_move() {
    let handle = unsafe { mk_evaluator_new(null()) };
    let start = position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    let eval = |pos: &MkPosition, trusted: bool| {
        let mut cp = i32::MIN;
        let status = unsafe {
            if trusted {
                mk_evaluator_evaluate_trusted(handle, pos, &mut cp)
            } else {
                mk_evaluator_evaluate(handle, pos, &mut cp)
            }
        };
        if status == MK_OK { cp } else { status }
    };
    let level = eval(&start, true);
    // Fields it does not read: any value, even out of range, gives the same score.
    let garbage = MkPosition {
        castling: u32::MAX,
        ep: 1000,
        rule50: u32::MAX,
        ..start
    };
    assert_eq!(eval(&garbage, true), level);
    // The checked call refuses the same fields.
    assert_eq!(eval(&garbage, false), MK_ERR_POSITION);
    assert_eq!(
        eval(&MkPosition { ep: 1000, ..start }, false),
        MK_ERR_SQUARE
    );
    // What it still checks.
    let mut overlap = start;
    overlap.black |= 1 << 4;
    assert_eq!(eval(&overlap, true), MK_ERR_BITBOARDS);
    assert_eq!(eval(&MkPosition::default(), true), MK_ERR_POSITION);
    let mut back_rank_pawn = start;
    back_rank_pawn.knights &= !2;
    back_rank_pawn.pawns |= 2;
    assert_eq!(eval(&back_rank_pawn, true), MK_ERR_POSITION);
    // What it does not check: the side not to move in check is refused by the checked call
    // only; the trusted call gives a value (tests/integration/wrong_boards.rs has every kind).
    let mut in_check = position("4k3/8/8/8/8/8/4R3/4K3 b - - 0 1");
    assert!(eval(&in_check, true) > i32::MIN);
    in_check.white_to_move = 1; // now Black, not to move, is in check
    assert_eq!(eval(&in_check, false), MK_ERR_POSITION);
    assert!(eval(&in_check, true).abs() <= MK_EVAL_LIMIT);
    // NULL pointers.
    let mut cp = 0;
    unsafe {
        assert_eq!(
            mk_evaluator_evaluate_trusted(null_mut(), &start, &mut cp),
            MK_ERR_NULL
        );
        assert_eq!(
            mk_evaluator_evaluate_trusted(handle, null(), &mut cp),
            MK_ERR_NULL
        );
        assert_eq!(
            mk_evaluator_evaluate(handle, &start, null_mut()),
            MK_ERR_NULL
        );
        mk_evaluator_free(handle);
        mk_evaluator_free(null_mut());
        mk_evaluator_clear(null_mut());
    }
}

#[test]
fn scores_stay_within_the_bounds_and_known_wins_reach_the_band() {
    let mut bounds = MkScoreBounds::default();
    assert_eq!(unsafe { mk_score_bounds(null(), &mut bounds) }, MK_OK);
    assert_eq!(unsafe { mk_score_bounds(null(), null_mut()) }, MK_ERR_NULL);
    assert_eq!((bounds.limit, bounds.known_win), (20_000, 10_000));
    let mut cp = 0;
    for fen in suite("kbnk.epd") {
        let text = CString::new(fen.as_str()).unwrap();
        assert_eq!(
            unsafe { mk_evaluate_fen(null(), text.as_ptr(), &mut cp) },
            MK_OK
        );
        assert!(
            cp.abs() >= bounds.known_win && cp.abs() <= bounds.limit,
            "{fen}: {cp}"
        );
    }
}
