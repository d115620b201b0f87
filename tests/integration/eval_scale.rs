//! The drawishness stage (complexity and the endgame scale factor, `minkowski::eval::scale`)
//! never flips the sign of the endgame half: over the positions of every suite in `epd/` and
//! the positions one move later, with the built-in weights and with every weight moved at
//! random (so that the endgame half and the complexity take every sign), the endgame half after
//! the stage has the sign it had before it, or is zero. The trace's Drawishness row is exactly
//! what the stage changed.

use crate::common::{self, XorShift64};
use minkowski::eval::Evaluator;
use minkowski::eval::score::S;
use minkowski::eval::trace::{Coefficients, Term};
use minkowski::eval::weights::Weights;
use shakmaty::{Chess, EnPassantMode, fen::Fen};

/// The endgame half of the sum before and after the drawishness stage.
fn endgame_halves(c: &Coefficients, w: &Weights) -> (i32, i32) {
    let mut raw = c.clone();
    raw.scale = None;
    (raw.sum(w).eg(), c.sum(w).eg())
}

fn fen(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

#[test]
fn drawishness_never_flips_the_sign_of_the_endgame_half() {
    let mut rng = XorShift64(0x51_7cc1_b727_220a);
    let evaluators: Vec<Evaluator> = std::iter::once(Evaluator::default())
        .chain((0..4).map(|_| {
            let mut w = Weights::default();
            w.for_each_mut(|_, s| *s = S(s.mg() + rng.around(60), s.eg() + rng.around(60)));
            Evaluator::new(w)
        }))
        .collect();
    let (mut checked, mut scaled, mut toward, mut away) = (0, 0, 0, 0);
    for file in common::every_suite() {
        for root in common::suite_positions(&file, 60) {
            let mut positions = Vec::new();
            common::push_children(&root, &mut positions);
            positions.push(root);
            for pos in positions {
                let c = Evaluator::default().coefficients(&pos);
                let Some(factors) = c.scale else {
                    continue; // a specialised endgame answered
                };
                for e in &evaluators {
                    let (before, after) = endgame_halves(&c, e.weights());
                    assert!(
                        after == 0 || after.signum() == before.signum(),
                        "{before} -> {after}: {}",
                        fen(&pos)
                    );
                    checked += 1;
                    scaled += usize::from(factors != [128, 128]);
                    toward += usize::from(after.abs() < before.abs());
                    away += usize::from(after.abs() > before.abs());
                }
                let e = &evaluators[0];
                let (before, after) = endgame_halves(&c, e.weights());
                let row = e.trace(&pos).terms[Term::Drawishness as usize];
                assert_eq!(row[0] - row[1], S(0, after - before), "{}", fen(&pos));
            }
        }
    }
    assert!(checked >= 50_000, "only {checked} checked");
    assert!(scaled >= 500, "only {scaled} scaled");
    assert!(
        toward >= 1_000 && away >= 1_000,
        "{toward} toward, {away} away"
    );
}
