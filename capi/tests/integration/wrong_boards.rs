//! Every kind of wrong board, through the three evaluating calls and the core crate's board
//! entry point: the checked calls (one-shot and handle) refuse each with its documented code;
//! the trusted call refuses what it promises to check (inconsistent bitboards, not one king of
//! each colour, a pawn on a back rank) and evaluates the rest to a defined value within the
//! score bounds, the same as the core crate's `Evaluator::evaluate_board` gives that board. No
//! call panics (a caught panic would be MK_ERR_INTERNAL).

use std::ptr::null;

use minkowski_capi::*;
use minkowski_core::eval::Evaluator;
use minkowski_core::shakmaty::{Bitboard, Board, ByColor, ByRole, Color};

/// The bitboards of a board written as 64 characters, rank 8 first, a8..h8 then a7..h7 and so
/// on: `KQRBNP` White's pieces, `kqrbnp` Black's, anything else empty. White to move.
fn board(ranks: &str) -> MkPosition {
    let cells: Vec<char> = ranks.chars().filter(|c| !c.is_whitespace()).collect();
    assert_eq!(cells.len(), 64, "{ranks}");
    let mut pos = MkPosition {
        white_to_move: 1,
        ..MkPosition::default()
    };
    for (i, c) in cells.into_iter().enumerate() {
        let square = (7 - i / 8) * 8 + i % 8;
        let bit = 1u64 << square;
        let kind = match c.to_ascii_lowercase() {
            'k' => &mut pos.kings,
            'q' => &mut pos.queens,
            'r' => &mut pos.rooks,
            'b' => &mut pos.bishops,
            'n' => &mut pos.knights,
            'p' => &mut pos.pawns,
            _ => continue,
        };
        *kind |= bit;
        if c.is_ascii_uppercase() {
            pos.white |= bit;
        } else {
            pos.black |= bit;
        }
    }
    pos
}

/// (one-shot, checked handle, trusted handle): each a value or a code.
fn calls(pos: &MkPosition) -> [i32; 3] {
    let handle = unsafe { mk_evaluator_new(null()) };
    assert!(!handle.is_null());
    let result = |status: i32, cp: i32| if status == MK_OK { cp } else { status };
    let (mut one_shot, mut checked, mut trusted) = (i32::MIN, i32::MIN, i32::MIN);
    let results = unsafe {
        [
            result(mk_evaluate(null(), pos, &mut one_shot), one_shot),
            result(mk_evaluator_evaluate(handle, pos, &mut checked), checked),
            result(
                mk_evaluator_evaluate_trusted(handle, pos, &mut trusted),
                trusted,
            ),
        ]
    };
    unsafe { mk_evaluator_free(handle) };
    results
}

/// The core crate's board evaluation of `pos` (whose bitboards must be consistent).
fn rust(pos: &MkPosition) -> i32 {
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
    .expect("consistent bitboards");
    let turn = if pos.white_to_move != 0 {
        Color::White
    } else {
        Color::Black
    };
    Evaluator::default().evaluate_board(&board, turn).0
}

/// Refused by every call with `code`.
fn refused(pos: &MkPosition, code: i32) {
    assert_eq!(calls(pos), [code; 3], "{pos:?}");
}

/// Refused by the checked calls with MK_ERR_POSITION, evaluated by the trusted call to the core
/// crate's value of the board, within the bounds.
fn evaluated_only_when_trusted(pos: &MkPosition) -> i32 {
    let [one_shot, checked, trusted] = calls(pos);
    assert_eq!(
        (one_shot, checked),
        (MK_ERR_POSITION, MK_ERR_POSITION),
        "{pos:?}"
    );
    assert!(trusted.abs() <= MK_EVAL_LIMIT, "{pos:?}: {trusted}");
    assert_eq!(trusted, rust(pos), "{pos:?}");
    trusted
}

const START: &str = "rnbqkbnr pppppppp ........ ........ ........ ........ PPPPPPPP RNBQKBNR";

#[test]
fn a_legal_board_gets_one_value_from_every_call() {
    let pos = board(START);
    let [one_shot, checked, trusted] = calls(&pos);
    assert_eq!(
        (one_shot, checked, trusted),
        (rust(&pos), rust(&pos), rust(&pos))
    );
}

#[test]
fn a_square_in_two_piece_sets_is_refused_by_every_call() {
    let mut pos = board(START);
    pos.queens |= 1 << 4; // e1: king and queen
    refused(&pos, MK_ERR_BITBOARDS);
}

#[test]
fn a_square_of_both_colours_is_refused_by_every_call() {
    let mut pos = board(START);
    pos.black |= 1 << 4; // e1: White's king, also Black's
    refused(&pos, MK_ERR_BITBOARDS);
}

#[test]
fn a_piece_without_a_colour_or_a_colour_without_a_piece_is_refused_by_every_call() {
    let mut pos = board(START);
    pos.white &= !(1 << 3); // d1: a queen of no colour
    refused(&pos, MK_ERR_BITBOARDS);
    let mut pos = board(START);
    pos.white |= 1 << 30; // g4: White's, but no piece
    refused(&pos, MK_ERR_BITBOARDS);
}

#[test]
fn two_kings_of_a_colour_are_refused_by_every_call() {
    refused(
        &board("....k... ........ ........ ........ ...K.... ........ ........ ....K..."),
        MK_ERR_POSITION,
    );
}

#[test]
fn a_missing_king_is_refused_by_every_call() {
    refused(
        &board("........ ........ ........ ........ ........ ........ ........ ....K..Q"),
        MK_ERR_POSITION,
    );
    refused(&MkPosition::default(), MK_ERR_POSITION); // the empty board
}

#[test]
fn a_pawn_on_a_back_rank_is_refused_by_every_call() {
    refused(
        &board("P...k... ........ ........ ........ ........ ........ ........ ....K..."),
        MK_ERR_POSITION,
    );
    refused(
        &board("....k... ........ ........ ........ ........ ........ ........ ....K..p"),
        MK_ERR_POSITION,
    );
}

#[test]
fn thirty_three_pieces_are_evaluated_only_when_trusted() {
    // The start position plus a ninth white pawn... on e4: 33 pieces.
    let pos = board("rnbqkbnr pppppppp ........ ........ ....P... ........ PPPPPPPP RNBQKBNR");
    assert_eq!((pos.white | pos.black).count_ones(), 33);
    let value = evaluated_only_when_trusted(&pos);
    assert!(value > 0, "a pawn up: {value}");
}

#[test]
fn a_board_full_of_pieces_is_evaluated_only_when_trusted() {
    // 64 pieces: 31 white queens and a king against 31 black knights and a king; a king's
    // every neighbour is attacked; nothing a game reaches, still a defined value.
    let pos = board("knnnnnnn nnnnnnnn nnnnnnnn nnnnnnnn QQQQQQQQ QQQQQQQQ QQQQQQQQ QQQQQQQK");
    assert_eq!((pos.white | pos.black).count_ones(), 64);
    evaluated_only_when_trusted(&pos);
}

#[test]
fn the_side_not_to_move_in_check_is_evaluated_only_when_trusted() {
    // Black's king on e8 in check from the rook on e2, White to move.
    evaluated_only_when_trusted(&board(
        "....k... ........ ........ ........ ........ ........ ....R... ....K...",
    ));
    // Kings in contact: each side in check.
    evaluated_only_when_trusted(&board(
        "........ ........ ........ ...kK... ........ ........ ........ ........",
    ));
}

#[test]
fn an_impossible_double_check_is_evaluated_only_when_trusted() {
    // White to move, in check from two rooks at once (no move made this).
    evaluated_only_when_trusted(&board(
        "....k... ........ ........ ........ ........ ........ ........ r...K..r",
    ));
}

#[test]
fn a_wrong_board_in_a_specialised_endgame_is_defined_when_trusted() {
    // KPK with the lone king in contact with the strong king (outside the bitbase's legal set).
    evaluated_only_when_trusted(&board(
        "........ ........ ........ ........ ...kK... ....P... ........ ........",
    ));
    // KQK, the lone king not to move but in check: the stalemate test reads no legal moves.
    evaluated_only_when_trusted(&board(
        "k....... ........ ........ ........ ........ ........ ........ Q...K...",
    ));
}

#[test]
fn a_handle_gives_the_rust_value_of_wrong_boards_cache_warm() {
    // The same wrong boards twice through one handle: the pawn-king cache's second answers are
    // the first ones.
    let boards = [
        board("rnbqkbnr pppppppp ........ ........ ....P... ........ PPPPPPPP RNBQKBNR"),
        board("....k... ........ ........ ........ ........ ........ ....R... ....K..."),
        board("knnnnnnn nnnnnnnn nnnnnnnn nnnnnnnn QQQQQQQQ QQQQQQQQ QQQQQQQQ QQQQQQQK"),
    ];
    let handle = unsafe { mk_evaluator_new(null()) };
    for _ in 0..2 {
        for pos in &boards {
            let mut cp = i32::MIN;
            let status = unsafe { mk_evaluator_evaluate_trusted(handle, pos, &mut cp) };
            assert_eq!((status, cp), (MK_OK, rust(pos)));
        }
    }
    unsafe { mk_evaluator_free(handle) };
}
