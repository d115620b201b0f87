//! The tuner's view of its data: how many positions move each weight (`Dataset::coverage`,
//! `minkowski tune --coverage`) and the phase-balanced draw (`Dataset::phase_balanced`,
//! `--phase-balance`), each checked against a plain count over the positions' coefficients.

use std::collections::HashSet;

use crate::common;
use minkowski::eval::Evaluator;
use minkowski::eval::weights::Weights;
use minkowski::tune::{Dataset, params_of};
use shakmaty::Chess;

/// Suite positions and their children: every phase from bare kings to the opening.
fn positions() -> Vec<Chess> {
    let mut all = Vec::new();
    for file in ["wac.epd", "sts1.epd", "endgame-dm-5.epd", "fischer.epd"] {
        for pos in common::suite_positions(file, 150) {
            common::push_children(&pos, &mut all);
            all.push(pos);
        }
    }
    all
}

/// The positions as a data set (verdict positions left out, as the tuner does), with a target
/// that tells them apart, and the coefficients they were made from.
fn dataset(positions: &[Chess]) -> (Dataset, Vec<minkowski::eval::trace::Coefficients>) {
    let e = Evaluator::default();
    let mut data = Dataset::default();
    let mut kept = Vec::new();
    for pos in positions {
        let c = e.coefficients(pos);
        if !c.replaced() {
            data.push(&c, (kept.len() % 1000) as f64 / 1000.0);
            kept.push(c);
        }
    }
    (data, kept)
}

#[test]
fn coverage_counts_the_positions_each_weight_enters() {
    let (data, coefficients) = dataset(&positions());
    assert!(data.len() > 5_000, "{}", data.len());
    // The oracle: per position, the set of indices with a count other than 0 in any channel.
    let mut naive = vec![0usize; Weights::COUNT];
    for c in &coefficients {
        let indices: HashSet<usize> = c
            .all()
            .chain(
                c.danger[0]
                    .iter()
                    .chain(&c.danger[1])
                    .chain(&c.complexity)
                    .map(|&(index, count)| (usize::from(index), i32::from(count))),
            )
            .filter(|&(_, count)| count != 0)
            .map(|(index, _)| index)
            .collect();
        for i in indices {
            naive[i] += 1;
        }
    }
    let coverage = data.coverage();
    assert_eq!(coverage, naive);
    // Not a vacuous match: the tempo is in every position, a danger weight in some.
    let tempo = Weights::index_of("tempo").expect("tempo");
    assert_eq!(coverage[tempo], data.len());
    let danger = Weights::index_of("danger_base").expect("danger_base");
    assert!(coverage[danger] > 0 && coverage[danger] < data.len());
    // A weight the data use has coverage, and one they never use has none.
    let usage = data.usage();
    for (i, (&n, &u)) in coverage.iter().zip(&usage).enumerate() {
        assert_eq!(n == 0, u == 0.0, "index {i}: {n} positions, usage {u}");
    }
}

#[test]
fn the_phase_balanced_draw_caps_every_phase_at_an_even_share() {
    let (data, _) = dataset(&positions());
    let before = data.phase_counts();
    assert_eq!(before.len(), 25);
    assert_eq!(before.iter().sum::<usize>(), data.len());
    let share = data.len().div_ceil(25);
    assert!(
        before.iter().any(|&n| n > share) && before.iter().any(|&n| n < share),
        "the suites must be unbalanced for this test to say anything: {before:?}"
    );
    let balanced = data.phase_balanced(11);
    let after = balanced.phase_counts();
    for (phase, (&b, &a)) in before.iter().zip(&after).enumerate() {
        assert_eq!(a, b.min(share), "phase {phase}: {b} before, {a} kept");
    }
    // The kept positions are positions of the set, each once, with their own evaluation and
    // target (targets tell the positions apart, see `dataset`).
    let params = params_of(&Weights::default());
    let originals: HashSet<(u64, u64)> = (0..data.len())
        .map(|i| {
            (
                data.target(i).to_bits(),
                data.white_real(i, &params).to_bits(),
            )
        })
        .collect();
    let kept: HashSet<(u64, u64)> = (0..balanced.len())
        .map(|i| {
            (
                balanced.target(i).to_bits(),
                balanced.white_real(i, &params).to_bits(),
            )
        })
        .collect();
    assert!(kept.is_subset(&originals));
    // The same seed draws the same positions; another seed others.
    let again = data.phase_balanced(11);
    let other = data.phase_balanced(12);
    let key = |d: &Dataset| -> Vec<u64> { (0..d.len()).map(|i| d.target(i).to_bits()).collect() };
    assert_eq!(key(&again), key(&balanced));
    assert_ne!(key(&other), key(&balanced));
}
