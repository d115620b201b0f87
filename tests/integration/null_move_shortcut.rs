//! The null-move shortcut (`Evaluator::after_null_move`) against a full evaluation: wherever it
//! answers, it is the evaluation of the same board with the other side to move, exactly. A term
//! that reads the side to move (`SideToMove`) without its family saying where
//! (`reads_side_to_move`) makes this fail.

use crate::common::{every_suite, push_children, suite_positions};
use minkowski::eval::{EVAL_LIMIT, Evaluator, base::TEMPO, threats};
use shakmaty::{Chess, Position};

#[test]
fn the_null_move_shortcut_equals_a_full_evaluation_wherever_it_answers() {
    let e = Evaluator::default();
    let mut all = Vec::new();
    for suite in every_suite() {
        for pos in suite_positions(&suite, usize::MAX) {
            push_children(&pos, &mut all);
            all.push(pos);
        }
    }
    let (mut answered, mut forks, mut wrong) = (0, 0, 0);
    for pos in &all {
        let Ok(passed) = pos.clone().swap_turn() else {
            continue; // in check: no null move
        };
        let parent = e.evaluate(pos);
        if parent.0.abs() == EVAL_LIMIT {
            continue; // clamped: the shortcut's arithmetic does not hold there
        }
        let full = e.evaluate(&passed);
        match e.after_null_move(pos.board(), parent) {
            Some(shortcut) => {
                answered += 1;
                assert_eq!(shortcut, full, "{}", fen(pos));
            }
            // Where a fork stands, passing the move changes more than the tempo: the guard
            // matters (the tempo-only arithmetic would be wrong there).
            None if threats::reads_side_to_move(pos.board()) => {
                forks += 1;
                let tempo = e.weights()[TEMPO].taper(e.trace(pos).phase);
                wrong += usize::from(2 * tempo - parent.0 != full.0);
            }
            None => {}
        }
    }
    println!(
        "{} positions: shortcut answered {answered}, declined at {forks} forks (tempo alone wrong at {wrong})",
        all.len()
    );
    assert!(
        answered > 100_000,
        "the shortcut answered only {answered} times"
    );
    assert!(forks > 1_000, "only {forks} positions with a knight fork");
    assert!(
        wrong * 10 > forks,
        "the tempo alone was wrong at {wrong} of {forks} forks"
    );
}

fn fen(pos: &Chess) -> String {
    shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string()
}
