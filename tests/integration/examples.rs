//! The examples do what they say. `mopup_in_my_engine` — a tiny alpha-beta whose only evaluation
//! is Minkowski's plain-input mop-up terms — must mate with bishop and knight within the 50-move
//! rule, with either bishop colour and either colour as the strong side. The example's code is
//! compiled into this test as a module, so the test checks exactly what `cargo run --example`
//! runs.

#[allow(dead_code)] // the example's `main` and printing helpers are not used here
#[path = "../../examples/mopup_in_my_engine.rs"]
mod mopup_in_my_engine;

use mopup_in_my_engine::{BUILT_IN, NODES_PER_MOVE, Outcome, play_out};

/// Plays `fen` out and asserts a mate within the 50-move rule.
fn assert_mates(fen: &str) {
    let game = play_out(fen, NODES_PER_MOVE).expect("a KBNK position");
    match game.outcome {
        Outcome::Mate(n) => assert!(n <= 50, "{fen}: mate only after {n} moves"),
        Outcome::NoMate(why) => panic!("{fen}: no mate ({why}): {}", game.moves.join(" ")),
    }
}

#[test]
fn the_built_in_positions_are_mated() {
    for fen in BUILT_IN {
        assert_mates(fen);
    }
}

#[test]
fn a_light_squared_bishop_mates_from_a_30_move_tablebase_position() {
    // h3 is a light square: the mate is in a8 or h1. Optimal: mate in 30.
    assert_mates("1K6/8/8/7N/8/5k1B/8/8 w - - 0 1");
}

#[test]
fn a_dark_squared_bishop_mates_from_a_30_move_tablebase_position() {
    // b8 is a dark square: the mate is in a1 or h8. Optimal: mate in 30.
    assert_mates("1B6/8/8/8/4k3/8/N7/6K1 w - - 0 1");
}

#[test]
fn black_mates_from_the_wrong_corner() {
    // Black's bishop on c8 is light-squared; the white king starts in the dark corner a1.
    assert_mates("2b1kn2/8/8/8/8/8/8/K7 b - - 0 1");
}

#[test]
fn positions_that_are_not_mop_up_endings_are_refused() {
    assert!(play_out("8/8/8/4k3/8/8/8/KN6 w - - 0 1", NODES_PER_MOVE).is_err()); // KNK
    assert!(play_out(shakmaty::fen::Fen::default().to_string().as_str(), 1).is_err());
    assert!(play_out("not a fen", 1).is_err());
}
