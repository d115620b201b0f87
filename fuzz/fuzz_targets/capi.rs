//! The C entry points (minkowski-chess-capi) driven with arbitrary bytes, as a C host could call
//! them: any eight bitboards and state, any FEN bytes, any squares and flags. None may panic
//! (each is behind catch_unwind, so a panic would show as MK_ERR_INTERNAL) and every result is
//! a value or a documented code. The trusted call, which builds no position, gives exactly its
//! documented codes (checked here against plain bit arithmetic) and otherwise the value the
//! core crate's board entry point gives the same board, within the score bounds; the cached,
//! keyed and bounded calls give the trusted call's codes and value (the bounded call: or an
//! estimate beyond its window by more than the margin).
#![no_main]

use std::ffi::CString;
use std::ptr::null;

use libfuzzer_sys::fuzz_target;
use minkowski::eval::Evaluator;
use minkowski_capi::*;
use shakmaty::{Bitboard, Board, ByColor, ByRole, Color};

/// The trusted call's documented result for `pos`, from the bitboards alone: MK_ERR_BITBOARDS
/// (colours overlap, kinds overlap, or their unions differ), MK_ERR_POSITION (not exactly one
/// king of each colour, or a pawn on the first or last rank), else the board and side to move.
fn trusted_contract(pos: &MkPosition) -> Result<(Board, Color), i32> {
    let kinds = [
        pos.pawns,
        pos.knights,
        pos.bishops,
        pos.rooks,
        pos.queens,
        pos.kings,
    ];
    let mut union = 0u64;
    for kind in kinds {
        if union & kind != 0 {
            return Err(MK_ERR_BITBOARDS);
        }
        union |= kind;
    }
    if pos.white & pos.black != 0 || union != pos.white | pos.black {
        return Err(MK_ERR_BITBOARDS);
    }
    let back_ranks = 0xFF00_0000_0000_00FF;
    let one_king = |side: u64| (pos.kings & side).count_ones() == 1;
    if !one_king(pos.white) || !one_king(pos.black) || pos.pawns & back_ranks != 0 {
        return Err(MK_ERR_POSITION);
    }
    let board = Board::try_from_bitboards(
        ByRole {
            pawn: Bitboard(pos.pawns),
            knight: Bitboard(pos.knights),
            bishop: Bitboard(pos.bishops),
            rook: Bitboard(pos.rooks),
            queen: Bitboard(pos.queens),
            king: Bitboard(pos.kings),
        },
        ByColor {
            white: Bitboard(pos.white),
            black: Bitboard(pos.black),
        },
    )
    .expect("bitboards the contract found consistent");
    let turn = if pos.white_to_move != 0 {
        Color::White
    } else {
        Color::Black
    };
    Ok((board, turn))
}

/// The calls for a search on `pos`, against the trusted call's `status` and `value` on it: the
/// cached and keyed calls give the same (the host keys are drawn from eight, so that positions
/// share keys and only the library's check keeps them apart); the bounded call refuses an empty
/// window, else gives the same code and either the value or an estimate more than the margin
/// beyond its window (which side the value is on is the margin's measured property, not
/// asserted on boards no game reaches).
///
/// Safety: `handle` is this thread's live evaluator.
unsafe fn search_calls(
    handle: *mut MkEvaluator,
    pos: &MkPosition,
    (status, value): (i32, i32),
    key: u64,
    (alpha, beta): (i32, i32),
) {
    let (mut cached, mut keyed, mut bounded) = (i32::MIN, i32::MIN, i32::MIN);
    // SAFETY: the caller's contract; the other pointers are live locals.
    let (by_library, by_host, bounded_status) = unsafe {
        (
            mk_evaluator_evaluate_cached(handle, pos, &mut cached),
            mk_evaluator_evaluate_keyed(handle, pos, key % 8, &mut keyed),
            mk_evaluator_evaluate_bounded(handle, pos, alpha, beta, &mut bounded),
        )
    };
    assert_eq!((by_library, by_host), (status, status), "{pos:?}");
    if alpha >= beta {
        assert_eq!(bounded_status, MK_ERR_ARGUMENT);
        return;
    }
    assert_eq!(bounded_status, status, "{pos:?}");
    if status == MK_OK {
        assert_eq!((cached, keyed), (value, value), "{pos:?}");
        let early = bounded >= beta.saturating_add(MK_LAZY_MARGIN)
            || bounded <= alpha.saturating_sub(MK_LAZY_MARGIN);
        assert!(bounded == value || early, "{pos:?} ({alpha}, {beta})");
        assert!(bounded.abs() <= MK_EVAL_LIMIT);
    }
}

fn word(data: &[u8], at: usize) -> u64 {
    let mut bytes = [0u8; 8];
    for (i, b) in bytes.iter_mut().enumerate() {
        *b = data.get(at + i).copied().unwrap_or(0);
    }
    u64::from_le_bytes(bytes)
}

/// One evaluator per fuzzing thread, kept across inputs as a host keeps it across a search
/// (so its pawn-king cache fills with earlier inputs' entries).
struct Handle(*mut MkEvaluator);

impl Drop for Handle {
    fn drop(&mut self) {
        // SAFETY: made by mk_evaluator_new below, freed once, here.
        unsafe { mk_evaluator_free(self.0) };
    }
}

thread_local! {
    // SAFETY: NULL weights are allowed.
    static HANDLE: Handle = Handle(unsafe { mk_evaluator_new(null()) });
    /// The core crate's evaluation, uncached: the oracle of the trusted call.
    static RUST: Evaluator = Evaluator::default();
}

fuzz_target!(|data: &[u8]| {
    let w = |i: usize| word(data, 8 * i);
    let pos = MkPosition {
        white: w(0),
        black: w(1),
        kings: w(2),
        queens: w(3),
        rooks: w(4),
        bishops: w(5),
        knights: w(6),
        pawns: w(7),
        castling: w(8) as u32 % 32,
        ep: (w(8) >> 32) as u32 % 80,
        rule50: w(9) as u32,
        white_to_move: (w(9) >> 32) as u8,
    };
    let documented = |code: i32| (-9..=0).contains(&code);
    // The bounded call's window: any alpha, a width from -100 (empty) to 6,250.
    let alpha = i32::from((w(9) >> 41) as i16);
    let window = (alpha, alpha + ((w(9) >> 57) as i32) * 50 - 100);
    let mut cp = 0;
    let count = mk_trace_row_count();
    let mut rows = vec![MkTraceRow::default(); count as usize];
    let mut summary = std::mem::MaybeUninit::<MkTraceSummary>::zeroed();
    unsafe {
        assert!(documented(mk_evaluate(null(), &pos, &mut cp)));
        let traced = mk_trace(null(), &pos, rows.as_mut_ptr(), count, summary.as_mut_ptr());
        assert!(documented(traced));
        assert!(documented(mk_position_check(&pos)));
        // The evaluator handle: the checked call is the one-shot call; the trusted call reads
        // any castling/ep/rule50 bytes (not reduced here) and gives a code or the same value.
        let raw = MkPosition {
            castling: w(8) as u32,
            ep: (w(8) >> 32) as u32,
            ..pos
        };
        let (mut one_shot, mut checked, mut trusted) = (i32::MIN, i32::MIN, i32::MIN);
        let status = mk_evaluate(null(), &pos, &mut one_shot);
        let handle = HANDLE.with(|h| h.0);
        assert_eq!(mk_evaluator_evaluate(handle, &pos, &mut checked), status);
        let trusted_status = mk_evaluator_evaluate_trusted(handle, &raw, &mut trusted);
        assert!(documented(trusted_status));
        if status == MK_OK {
            assert_eq!(
                (checked, trusted_status, trusted),
                (one_shot, MK_OK, one_shot)
            );
        }
        search_calls(handle, &raw, (trusted_status, trusted), w(8), window);
        // The trusted call on any board: its documented codes exactly, else the core crate's
        // board evaluation (no cache) of the same pieces, within the bounds.
        match trusted_contract(&raw) {
            Err(code) => assert_eq!(trusted_status, code, "{raw:?}"),
            Ok((board, turn)) => {
                assert_eq!(trusted_status, MK_OK, "{raw:?}");
                let want = RUST.with(|e| e.evaluate_board(&board, turn).0);
                assert_eq!(trusted, want, "{raw:?}");
                assert!(trusted.abs() <= MK_EVAL_LIMIT);
            }
        }
    }
    // The same bytes made into consistent bitboards with one king each and no pawn on a back
    // rank (random bytes alone almost never are): boards a legal game cannot reach (the side not
    // to move in check, kings in contact, ten queens) reach the evaluation through the trusted
    // call; it must give the core crate's value, and the checked call a code or the same value.
    let sparse = |x: u64| x & x.rotate_left(17) & x.rotate_left(41);
    let (white_king, black_king) = (w(2) % 64, (w(2) >> 8) % 64);
    if white_king != black_king {
        let kings = (1u64 << white_king) | (1u64 << black_king);
        let mut taken = kings;
        let mut role = |x: u64| {
            let mine = x & !taken;
            taken |= mine;
            mine
        };
        let pawns = role(sparse(w(7)) & 0x00FF_FFFF_FFFF_FF00);
        let (knights, bishops) = (role(sparse(w(6))), role(sparse(w(5))));
        let (rooks, queens) = (role(sparse(w(4))), role(sparse(w(3))));
        let white = ((taken & w(0)) | (1u64 << white_king)) & !(1u64 << black_king);
        let board = MkPosition {
            white,
            black: taken & !white,
            kings,
            queens,
            rooks,
            bishops,
            knights,
            pawns,
            white_to_move: (w(9) >> 40) as u8 & 1,
            ..MkPosition::default()
        };
        let (mut trusted, mut checked) = (i32::MIN, i32::MIN);
        let handle = HANDLE.with(|h| h.0);
        let (board_status, checked_status) = unsafe {
            (
                mk_evaluator_evaluate_trusted(handle, &board, &mut trusted),
                mk_evaluator_evaluate(handle, &board, &mut checked),
            )
        };
        let (b, turn) = trusted_contract(&board).expect("a board made to pass the checks");
        assert_eq!(board_status, MK_OK, "{board:?}");
        assert_eq!(
            trusted,
            RUST.with(|e| e.evaluate_board(&b, turn).0),
            "{board:?}"
        );
        assert!(trusted.abs() <= MK_EVAL_LIMIT);
        // SAFETY: this thread's evaluator.
        unsafe { search_calls(handle, &board, (MK_OK, trusted), w(8) >> 3, window) };
        assert!(checked_status == MK_OK || checked_status == MK_ERR_POSITION);
        if checked_status == MK_OK {
            assert_eq!(checked, trusted, "{board:?}");
        }
    }

    // The bytes after the position as a FEN (cut at the first NUL).
    let tail: Vec<u8> = data
        .iter()
        .skip(80)
        .copied()
        .take_while(|&b| b != 0)
        .collect();
    let fen = CString::new(tail).unwrap_or_default();
    let mut back = MkPosition::default();
    unsafe {
        let status = mk_position_from_fen(fen.as_ptr(), &mut back);
        assert!(documented(status));
        if status == MK_OK {
            // A position the library gave out evaluates, by FEN and by bitboards, alike.
            let (mut by_fen, mut by_bits) = (0, 1);
            assert_eq!(mk_evaluate_fen(null(), fen.as_ptr(), &mut by_fen), MK_OK);
            assert_eq!(mk_evaluate(null(), &back, &mut by_bits), MK_OK);
            assert_eq!(by_fen, by_bits);
        }
        let mut score = MkScore::default();
        let (a, b, c, d) = (
            w(0) as u32 % 70,
            (w(0) >> 32) as u32 % 70,
            w(1) as u32 % 70,
            (w(1) >> 32) as u32 % 70,
        );
        assert!(documented(mk_mop_up(null(), a, b, &mut score)));
        assert!(documented(mk_kbnk_score(
            null(),
            a,
            b,
            c,
            d,
            w(2) as i32,
            &mut score
        )));
    }
    let (a, b, c) = (w(0) as u32 % 70, (w(0) >> 32) as u32 % 70, w(1) as u32 % 70);
    for result in [
        mk_kpk(a, b, c, w(2) as i32, w(3) as i32),
        mk_knights_catch_passer(a, w(2) as i32, w(3) as i32, w(4)),
        mk_passer_unstoppable(a, w(2) as i32, w(3) as i32, b, w(4)),
        mk_king_distance(a, b),
        mk_manhattan_distance(a, b),
        mk_knight_distance(a, b),
    ] {
        assert!(documented(result) || (0..=14).contains(&result));
    }
    let _ = (
        mk_knight_fill(w(5)),
        mk_knight_fork_squares(w(6)),
        mk_knight_fork_jumps(w(5), w(6), w(7)),
    );
});
