//! The coefficient trace is the evaluation: over thousands of suite positions (middlegames,
//! studies, Chess960 starts, mop-up and knight-against-passer endgames, fork drills) and the
//! positions one move later, Σ coefficient × weight, blended as `evaluate()` blends (same integer
//! rounding), gives `evaluate()` back exactly, with the built-in weights and with every weight
//! changed at random; and changing one weight changes `evaluate()` by exactly its coefficient
//! times the change, blended.

use crate::common::{self, XorShift64};
use minkowski::eval::score::S;
use std::collections::HashMap;

use minkowski::eval::base::TEMPO;
use minkowski::eval::combine::{Pair, combine};
use minkowski::eval::trace::{Coefficients, Term};
use minkowski::eval::weights::Weights;
use minkowski::eval::{EVAL_LIMIT, Evaluator};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position};

/// Suites and how many of their positions to take.
const SUITES: &[(&str, usize)] = &[
    ("wac.epd", 300),
    ("sts1.epd", 100),
    ("sts2.epd", 100),
    ("sts3.epd", 100),
    ("sts4.epd", 100),
    ("sts5.epd", 100),
    ("sts6.epd", 100),
    ("sts7.epd", 100),
    ("bk.epd", 100),
    ("eet.epd", 100),
    ("pet.epd", 100),
    ("kaufman.epd", 100),
    ("lct2.epd", 100),
    ("sbd.epd", 200),
    ("fischer.epd", 200),
    ("forks.epd", 100),
    ("forks_mating.epd", 100),
    ("minkowski_forks.epd", 100),
    ("minkowski_knight_vs_passer.epd", 100),
    ("minkowski_mopup.epd", 100),
    ("endgame-dm-4.epd", 100),
    ("endgame-dm-5.epd", 100),
    ("kbnk.epd", 150),
    ("krk.epd", 150),
    ("kqkp.epd", 150),
    ("kbbk.epd", 150),
    ("mate_in_2.epd", 150),
];

/// King and pawn against king (won and drawn, either colour), and bare kings: material the
/// suites above hardly have.
const EXTRA: &[&str] = &[
    "8/8/8/8/8/4k3/4P3/4K3 w - - 0 1",
    "8/8/8/4k3/8/8/4P3/4K3 b - - 0 1",
    "8/8/4P3/4K3/8/8/8/k7 w - - 0 1",
    "8/3P4/8/8/8/2K5/8/6k1 b - - 0 1",
    "4k3/4p3/8/8/8/8/8/3K4 b - - 0 1",
    "8/8/8/2k5/8/8/1p6/4K3 w - - 0 1",
    "6k1/8/8/1P6/8/8/8/K7 w - - 0 1",
    "8/8/8/3k4/8/8/8/3K4 w - - 0 1",
];

/// The suite positions and [`EXTRA`], and the positions after each legal move of every fourth
/// suite position and of every extra one (the other side to move, captures and promotions on
/// the board).
fn positions() -> Vec<Chess> {
    let extra = EXTRA.iter().map(|f| {
        f.parse::<Fen>()
            .expect("test FEN")
            .into_position(CastlingMode::Standard)
            .expect("legal test position")
    });
    let suites = SUITES
        .iter()
        .flat_map(|&(file, limit)| common::suite_positions(file, limit).into_iter().enumerate());
    let mut all = Vec::new();
    for (i, pos) in suites.chain(extra.map(|pos| (0, pos))) {
        if i % 4 == 0 {
            common::push_children(&pos, &mut all);
        }
        all.push(pos);
    }
    all
}

fn fen(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

/// Every slot (named or structure) moved by up to `span` in each half.
fn shaken(rng: &mut XorShift64, span: i32) -> Weights {
    let mut w = Weights::default();
    for index in 0..Weights::COUNT {
        let s = w.slot_mut(index).expect("index below COUNT");
        *s = S(s.mg() + rng.around(span), s.eg() + rng.around(span));
    }
    w
}

#[test]
fn coefficients_times_weights_give_evaluate_back_exactly() {
    let e = Evaluator::default();
    let mut rng = XorShift64(0x2545_f491_4f6c_dd1d);
    let others: Vec<Evaluator> = (0..3)
        .map(|_| Evaluator::new(shaken(&mut rng, 40)))
        .collect();
    let params: Vec<[f64; 2]> = (0..Weights::COUNT)
        .map(|i| {
            let s = e.weights().slot(i).expect("index below COUNT");
            [f64::from(s.mg()), f64::from(s.eg())]
        })
        .collect();
    let mut endgames = std::collections::BTreeSet::new();
    let (mut checked, mut replaced, mut adjusted, mut black) = (0, 0, 0, 0);
    for pos in positions() {
        let c = e.coefficients(&pos);
        assert_eq!(c.evaluate(e.weights()), e.evaluate(&pos), "{}", fen(&pos));
        // The trace does not depend on the weights that made it: any weights give their
        // evaluation back through it.
        for other in &others {
            assert_eq!(
                c.evaluate(other.weights()),
                other.evaluate(&pos),
                "{}",
                fen(&pos)
            );
            let again = other.coefficients(&pos);
            assert_eq!(
                (again.linear, again.danger),
                (c.linear.clone(), c.danger.clone()),
                "{}",
                fen(&pos)
            );
        }
        // In real numbers (a tuner's view) the same, but for the two roundings of the blend
        // and one of each side's king-danger curve (in either half).
        // Where the endgame half before the drawishness stage is within those roundings of
        // zero, its sign (and so the way the complexity pushes) may differ between the two.
        let mut raw = c.clone();
        raw.scale = None;
        if c.scale.is_none() || raw.sum(e.weights()).eg().abs() > 6 {
            let real = c.white_real(&params) - f64::from(c.white_value(e.weights()));
            assert!(real.abs() < 6.0, "{real} {}", fen(&pos));
        }
        // The table for people adds up to the same total.
        assert_eq!(e.trace(&pos).total, e.evaluate(&pos));
        if let Some((code, _, _)) = c.endgame {
            endgames.insert(code);
        }
        replaced += usize::from(c.replaced());
        adjusted += usize::from(c.endgame.is_some() && !c.replaced());
        black += usize::from(pos.turn() == Color::Black);
        checked += 1;
    }
    assert!(checked >= 20_000, "only {checked} positions");
    assert!(
        replaced >= 500 && adjusted >= 20,
        "{replaced} replaced, {adjusted} adjusted"
    );
    assert!(black >= 1_000, "only {black} with Black to move");
    for code in ["KBNK", "KXK", "KPK", "KNvP", "KNK", "KK"] {
        assert!(
            endgames.contains(code),
            "no {code} position in {endgames:?}"
        );
    }
}

/// `evaluate()` with `w` changed by `delta` at flat index `index`, minus `evaluate()`, as the
/// coefficients predict it: the blended sum (and the separately blended tempo bonus) with and
/// without the change, by the evaluation's own integer rounding.
fn predicted_change(c: &Coefficients, w: &Weights, index: usize, delta: S) -> i32 {
    let mut changed = w.clone();
    let slot = changed.slot_mut(index).expect("index below COUNT");
    *slot += delta;
    c.white_value(&changed) - c.white_value(w)
}

/// Whether the stages after the linear sum (the drawishness stage and any other in `combine`)
/// pass a change of up to 24 × `count` in the endgame half through as it is: asked of the
/// combine itself in real numbers, not of a model of its stages. Every stage is piecewise
/// linear, so a half moved by exactly ±24 × `count` at both ends of the range has no kink in it.
fn passes_through(c: &Coefficients, w: &Weights, count: i32) -> bool {
    if c.replaced() {
        return true; // a replacing verdict is blended alone: no stage after it
    }
    let parts = c.parts(|index| {
        w.slot(index).map_or(Pair::zero(), |s| Pair {
            mg: f64::from(s.mg()),
            eg: f64::from(s.eg()),
        })
    });
    let eg_after = |shift: f64| {
        let mut moved = parts;
        moved.linear.eg += shift;
        combine(&moved).sum.eg
    };
    let (middle, reach) = (eg_after(0.0), f64::from(24 * count.abs()));
    // Equal up to the reals' rounding (the danger curve's endgame half is a fraction).
    let exact = |moved: f64| (moved - reach).abs() < 1e-6;
    exact(eg_after(reach) - middle) && exact(middle - eg_after(-reach))
}

#[test]
fn one_weight_changes_evaluate_by_its_coefficient_times_the_change() {
    let e = Evaluator::default();
    let traced: Vec<(Chess, Coefficients, i32)> = positions()
        .into_iter()
        .map(|pos| {
            let c = e.coefficients(&pos);
            let value = e.evaluate(&pos).0;
            (pos, c, value)
        })
        .collect();
    // Every weight but the piece-square entries (three stand for them), from the declaration
    // table: a new weight is checked without being listed here.
    let mut names: Vec<String> = Weights::names()
        .into_iter()
        .filter(|n| {
            !n.starts_with("psqt.")
                || ["psqt.knight.f3", "psqt.pawn.e4", "psqt.king.g1"].contains(&n.as_str())
        })
        .collect();
    names.sort();
    // How many positions each field's most used element enters.
    let mut field_moved: HashMap<&str, usize> = HashMap::new();
    for name in &names {
        let index = Weights::index_of(name).expect("a weight");
        let is_tempo = index == TEMPO.at(0).index();
        let (spec, _) = Weights::locate(index).expect("a weight");
        // King-danger and complexity weights enter through a curve: only the predicted change
        // is exact.
        let term = spec.term;
        let is_danger = term == Term::KingDanger;
        let is_curved = is_danger || term == Term::Drawishness;
        // Equal halves: the blend of `count × delta` is `count × 7` exactly, whatever the phase.
        let (equal, uneven) = (S(7, 7), S(24, -12));
        let changed = [equal, uneven].map(|delta| {
            let mut w = e.weights().clone();
            w.set(name, w.get(name).expect("a weight") + delta)
                .expect("a weight");
            Evaluator::new(w)
        });
        let mut moved = 0;
        for (pos, c, before) in &traced {
            let (c, before) = (c, *before);
            let count = if is_tempo {
                i32::from(c.tempo)
            } else {
                c.count(index)
            };
            let stm = if pos.turn() == Color::White { 1 } else { -1 };
            for (delta, changed) in [equal, uneven].into_iter().zip(&changed) {
                let after = changed.evaluate(pos).0;
                if before.abs() == EVAL_LIMIT || after.abs() == EVAL_LIMIT {
                    continue; // clamped: not linear there
                }
                let change = after - before;
                let at = || format!("{name} {delta:?} count {count}: {}", fen(pos));
                assert_eq!(
                    change,
                    stm * predicted_change(c, e.weights(), index, delta),
                    "{}",
                    at()
                );
                if is_curved {
                    continue;
                }
                if count == 0 {
                    assert_eq!(change, 0, "{}", at());
                    continue;
                }
                if !passes_through(c, e.weights(), count) {
                    continue; // scaled, or near the complexity's floor: not linear there
                }
                // Before rounding the change is `count × delta` blended; each of the two
                // roundings is off by less than one.
                let exact = count * (delta.mg() * c.phase + delta.eg() * (24 - c.phase));
                assert!((24 * stm * change - exact).abs() < 48, "{}", at());
                // With equal halves nothing is rounded unless the sum crosses zero.
                let sum = if is_tempo {
                    e.weights()[TEMPO] * count
                } else {
                    c.sum(e.weights())
                };
                let numerator = sum.mg() * c.phase + sum.eg() * (24 - c.phase);
                if delta == equal && numerator.signum() * (numerator + 24 * 7 * count).signum() >= 0
                {
                    assert_eq!(change, stm * count * 7, "{}", at());
                }
            }
            let enters = if is_danger {
                c.danger
                    .iter()
                    .flatten()
                    .any(|&(i, _)| usize::from(i) == index)
            } else if is_curved {
                c.complexity.iter().any(|&(i, _)| usize::from(i) == index)
            } else {
                count != 0
            };
            moved += usize::from(enters);
        }
        let best = field_moved.entry(spec.name).or_default();
        *best = (*best).max(moved);
    }
    // Every weight field is exercised by the suites (rare elements, such as a backward pawn
    // on the seventh rank, may not be).
    for (field, moved) in &field_moved {
        assert!(*moved >= 5, "{field:?} enters only {moved} positions");
    }
    assert_eq!(
        field_moved.len(),
        Weights::fields().count(),
        "every field was checked"
    );
}

/// `minkowski eval`'s table lines up: the first column bar stands at one place in the header,
/// in every term row and in the rules, whatever the longest term name.
#[test]
fn the_trace_table_lines_up() {
    for pos in positions().into_iter().take(20) {
        let text = Evaluator::default().trace(&pos).to_string();
        let lines: Vec<&str> = text.lines().collect();
        let bar = lines[0].find('|').expect("a header with columns");
        let rows = &lines[..3 + Term::ALL.len() + 1];
        for line in rows {
            if line.starts_with('-') {
                assert_eq!(line.len(), lines[2].len(), "rules of one length");
            } else {
                assert_eq!(line.find('|'), Some(bar), "misaligned: {line:?}");
            }
        }
        assert!(lines[2].len() > bar, "the rule spans the bars");
        for term in Term::ALL {
            assert!(
                rows.iter().any(|line| line.starts_with(term.name())),
                "{} has a row",
                term.name()
            );
        }
    }
}
