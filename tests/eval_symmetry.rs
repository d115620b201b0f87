//! The evaluation is colour-blind: a position and its colour-flipped twin (board mirrored
//! vertically, colours and side to move swapped) evaluate the same from the side to move's point
//! of view. The twin is built by shakmaty (`Setup::into_mirrored`), independently of the library.
//! One test, over the bench positions and up to 150 positions of every suite in `epd/` (mate
//! problems, endgames and Chess960 starts included, for unusual material).

mod common;

use common::suite_positions;
use minkowski::eval::Evaluator;
use minkowski::search::bench::BENCH_POSITIONS;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, FromSetup, Position};

/// Every suite in `epd/`, so a suite added later is checked too.
fn every_suite() -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("epd");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("epd/ in the repo")
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".epd"))
        .collect();
    names.sort();
    names
}

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

#[test]
fn the_colour_flipped_position_evaluates_the_same() {
    let eval = Evaluator::default();
    let fixed = BENCH_POSITIONS.iter().map(|fen| position(fen));
    let files = every_suite();
    assert!(files.len() >= 30, "only {} suites in epd/", files.len());
    let suites = files.iter().flat_map(|file| suite_positions(file, 150));
    let (mut checked, mut refused) = (0, 0);
    for pos in fixed.chain(suites) {
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
