//! The evaluation is colour-blind: a position and its colour-flipped twin (board mirrored
//! vertically, colours and side to move swapped) evaluate the same from the side to move's point
//! of view. The twin is built by shakmaty (`Setup::into_mirrored`), independently of the library.
//! Checked over the bench positions and up to 150 positions of every suite in `epd/` (mate
//! problems, endgames and Chess960 starts included, for unusual material). Over the same
//! positions, the search's null-move shortcut (`Evaluator::after_null_move`) is checked against
//! evaluating the board with the other side to move (built by shakmaty's `swap_turn`).

use crate::common::{every_suite, suite_positions};
use minkowski::eval::Evaluator;
use minkowski::eval::tactics::knight_fork_moves;
use minkowski::search::bench::BENCH_POSITIONS;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, FromSetup, Position};

fn position(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .expect("test FEN")
        .into_position(CastlingMode::Chess960)
        .expect("legal test position")
}

/// The colour-flipped twin, built by shakmaty; `None` where shakmaty refuses it (a few suite
/// positions have a check its validation calls impossible once mirrored).
fn mirrored(pos: &Chess) -> Option<Chess> {
    let setup = pos.to_setup(EnPassantMode::Legal).into_mirrored();
    Chess::from_setup(setup, CastlingMode::Chess960).ok()
}

/// The bench positions, then up to 150 positions of every suite in `epd/`.
fn positions() -> impl Iterator<Item = Chess> {
    let fixed = BENCH_POSITIONS.iter().map(|fen| position(fen));
    let files = every_suite();
    assert!(files.len() >= 30, "only {} suites in epd/", files.len());
    fixed.chain(
        files
            .into_iter()
            .flat_map(|file| suite_positions(&file, 150)),
    )
}

#[test]
fn the_colour_flipped_position_evaluates_the_same() {
    let eval = Evaluator::default();
    let (mut checked, mut refused) = (0, 0);
    for pos in positions() {
        let Some(twin) = mirrored(&pos) else {
            refused += 1;
            continue;
        };
        assert_ne!(pos.turn(), twin.turn());
        assert_eq!(
            eval.evaluate(&pos),
            eval.evaluate(&twin),
            "{}",
            Fen::from_position(&pos, EnPassantMode::Legal)
        );
        checked += 1;
    }
    assert!(checked >= 1_000, "only {checked} positions");
    assert!(
        refused * 100 <= checked,
        "{refused} positions could not be mirrored"
    );
}

/// The shortcut leaves the knight-fork bonus as it was (a fork the side to move can play now
/// scores more than one it only threatens), so positions with a fork for either side are left
/// out; where it declines (specialised endgames, a side with king and pawns only) the search
/// evaluates, so those are only counted.
#[test]
fn the_null_move_shortcut_is_the_evaluation_with_the_other_side_to_move() {
    let eval = Evaluator::default();
    let (mut exact, mut declined) = (0, 0);
    for pos in positions() {
        let board = pos.board();
        if Color::ALL
            .iter()
            .any(|&c| knight_fork_moves(board, c).any())
        {
            continue;
        }
        // In check there is no null move (and shakmaty refuses the swapped position).
        let Ok(passed) = pos.clone().swap_turn() else {
            continue;
        };
        match eval.after_null_move(board, eval.evaluate(&pos)) {
            Some(shortcut) => {
                assert_eq!(
                    shortcut,
                    eval.evaluate(&passed),
                    "{}",
                    Fen::from_position(&pos, EnPassantMode::Legal)
                );
                exact += 1;
            }
            None => declined += 1,
        }
    }
    assert!(
        exact >= 1_000,
        "only {exact} positions ({declined} declined)"
    );
}
