//! The tuner (`minkowski::tune`): its gradient is the loss's derivative, it finds a known K, it
//! recovers weights that made synthetic labels, a selection leaves every other weight alone,
//! and its outputs read back as the weights it fitted. The command line:
//! tests/integration/tune_cli.rs.

use std::path::Path;

use crate::common::{self, XorShift64};
use minkowski::config::{Config, eval_table};
use minkowski::eval::Evaluator;
use minkowski::eval::base::MATERIAL;
use minkowski::eval::combine::Pair;
use minkowski::eval::king::{DANGER_BASE, DANGER_SAFE_CHECK, DANGER_WEAK_SQUARE};
use minkowski::eval::mobility::{MOBILITY_BISHOP, MOBILITY_KNIGHT, MOBILITY_QUEEN, MOBILITY_ROOK};
use minkowski::eval::score::S;
use minkowski::eval::weights::Weights;
use minkowski::tune::loss::{expected_score, fit_k, gradient, loss};
use minkowski::tune::{
    Builder, Dataset, RULE_WEIGHTS, Selection, TuneOptions, Tuner, params_of, read_defaults,
    rewrite_defaults, weights_from,
};
use shakmaty::Chess;

/// Suites and how many of their positions to take.
const SUITES: &[(&str, usize)] = &[
    ("wac.epd", 300),
    ("sts1.epd", 100),
    ("sts2.epd", 100),
    ("sts3.epd", 100),
    ("sts4.epd", 100),
    ("sts5.epd", 100),
    ("bk.epd", 100),
    ("eet.epd", 100),
    ("kaufman.epd", 100),
    ("lct2.epd", 100),
    ("sbd.epd", 200),
    ("fischer.epd", 200),
    ("minkowski_knight_vs_passer.epd", 100),
    ("endgame-dm-5.epd", 100),
];

/// The suite positions and the positions one move later (captures and the other side to
/// move included): some 20 000 varied positions.
fn positions() -> Vec<Chess> {
    let mut all = Vec::new();
    for &(file, limit) in SUITES {
        for pos in common::suite_positions(file, limit) {
            common::push_children(&pos, &mut all);
            all.push(pos);
        }
    }
    all
}

/// The default weights with every named weight moved by up to `span`, less for the weights
/// counted per square (king zone) so that evaluations stay in the range where the
/// sigmoid still has a slope, and the material moved by `big` more (up or down) on top.
fn perturbed(rng: &mut XorShift64, span: i32, big: i32) -> Weights {
    let seed = rng.next();
    let mut w = Weights::default();
    w.for_each_mut(|name, s| {
        // Each weight's shift comes from its name and the seed only, so the truth does not
        // change when the declarations are reordered (FNV-1a of the name, then xorshift).
        let mut rng = XorShift64(
            name.bytes().fold(seed ^ 0xcbf2_9ce4_8422_2325, |h, b| {
                (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
            }) | 1,
        );
        rng.next();
        let (span, extra) = if name.starts_with("material.") {
            (span, big)
        } else if name.starts_with("king_zone_attack.") {
            (span / 5, 0)
        } else {
            (span, 0)
        };
        let mut shift = |v: i32| {
            let d = rng.around(span);
            v + d + extra * d.signum()
        };
        *s = S(shift(s.mg()), shift(s.eg()));
    });
    w
}

/// Every position labelled with the expected score that `truth` gives it at constant `k`:
/// what a perfect fit reproduces exactly.
fn synthetic(positions: &[Chess], truth: &Weights, k: f64, validation: f64) -> Builder {
    let e = Evaluator::default();
    let params = params_of(truth);
    let mut b = Builder::new(e.clone(), validation);
    for pos in positions {
        let c = e.coefficients(pos);
        b.add(pos, expected_score(k, c.white_real(&params)));
    }
    b
}

fn options(k: Option<f64>) -> TuneOptions {
    TuneOptions {
        k,
        learning_rate: 2.0,
        batch_size: 2048,
        threads: 2,
        seed: 7,
        l2: 0.0,
    }
}

#[test]
fn the_dataset_is_the_coefficient_form_and_the_split_is_stable() {
    let positions = positions();
    assert!(positions.len() > 15_000, "{}", positions.len());
    let e = Evaluator::default();
    let params = params_of(&perturbed(&mut XorShift64(3), 30, 0));
    let mut b = Builder::new(e.clone(), 0.0);
    for pos in &positions {
        let c = e.coefficients(pos);
        if !c.replaced() {
            let i = b.training.len();
            b.add(pos, 0.5);
            let (mine, theirs) = (b.training.white_real(i, &params), c.white_real(&params));
            assert!((mine - theirs).abs() < 1e-9, "{mine} {theirs}");
        }
    }
    // The split depends on the position only: in halves and merged, or whole, the same sets.
    let whole = synthetic(&positions, &Weights::default(), 1.0, 25.0);
    let (front, back) = positions.split_at(positions.len() / 3);
    let mut halves = synthetic(front, &Weights::default(), 1.0, 25.0);
    halves.merge(synthetic(back, &Weights::default(), 1.0, 25.0));
    let p = params_of(&Weights::default());
    for (a, b) in [
        (&whole.training, &halves.training),
        (&whole.validation, &halves.validation),
    ] {
        assert_eq!(a.len(), b.len());
        assert!((loss(a, &p, 1.3, 2) - loss(b, &p, 1.3, 1)).abs() < 1e-12);
    }
    let share =
        whole.validation.len() as f64 / (whole.training.len() + whole.validation.len()) as f64;
    assert!((0.22..0.28).contains(&share), "validation share {share}");
    assert!(whole.dropped > 0, "endgame-dm-5 has mop-up positions");
}

/// Whether the drawishness stage of `pos` is smooth near `params`: its endgame half (before the
/// stage) is not near zero, where its sign flips the complexity's push (a jump), nor near the
/// complexity's floor (a kink). A difference quotient straddling either says nothing.
fn away_from_the_drawishness_kinks(pos: &Chess, params: &[[f64; 2]]) -> bool {
    let c = Evaluator::default().coefficients(pos);
    if c.scale.is_none() {
        return true;
    }
    let mut raw = c.clone();
    (raw.scale, raw.phase, raw.tempo) = (None, 0, 0);
    let eg = raw.white_real(params);
    let weight = |i: usize| {
        params
            .get(i)
            .map_or(Pair::zero(), |&[mg, eg]| Pair { mg, eg })
    };
    let complexity = c.parts(weight).complexity;
    eg.abs() > 5.0 && (complexity + eg.abs()).abs() > 5.0
}

#[test]
fn the_gradient_is_the_derivative_of_the_loss() {
    let mut rng = XorShift64(11);
    let truth = perturbed(&mut rng, 40, 0);
    // Off the integers: with whole-centipawn weights a side's king-danger units are often exactly
    // 0, where the curve has a kink (no derivative) that a difference quotient would straddle.
    let params: Vec<[f64; 2]> = params_of(&perturbed(&mut rng, 20, 0))
        .into_iter()
        .map(|[mg, eg]| [mg + 0.173, eg + 0.291])
        .collect();
    let positions: Vec<Chess> = positions()
        .into_iter()
        .step_by(40)
        .filter(|pos| away_from_the_drawishness_kinks(pos, &params))
        .collect();
    let data = synthetic(&positions, &truth, 2.0, 0.0).training;
    let k = 1.7;
    let g = gradient(&data, 0..data.len(), &params, k, 2);
    assert!((g.loss - loss(&data, &params, k, 1)).abs() < 1e-12);
    let mut checked = 0;
    for index in (0..Weights::COUNT).filter(|&i| Weights::name_of(i).is_some()) {
        for half in 0..2 {
            let analytic = g.by_param[index][half];
            if analytic.abs() < 1e-9 {
                continue;
            }
            // Near the king-danger curve's kink, a small step, so as not to straddle it.
            let is_danger = Weights::locate(index)
                .is_some_and(|(spec, _)| spec.term == minkowski::eval::trace::Term::KingDanger);
            let h = if is_danger { 1e-5 } else { 0.01 };
            let mut up = params.clone();
            up[index][half] += h;
            let mut down = params.clone();
            down[index][half] -= h;
            let numeric = (loss(&data, &up, k, 1) - loss(&data, &down, k, 1)) / (2.0 * h);
            let error = (numeric - analytic).abs();
            let tolerance = if is_danger { 1e-3 } else { 1e-6 };
            assert!(
                error <= tolerance * analytic.abs() + 1e-12,
                "{:?} half {half}: analytic {analytic}, numeric {numeric}",
                Weights::name_of(index)
            );
            checked += 1;
        }
    }
    assert!(checked > 300, "only {checked} partial derivatives checked");
}

#[test]
fn k_is_found_where_the_labels_were_made() {
    let positions: Vec<Chess> = positions().into_iter().step_by(5).collect();
    for k in [0.6, 2.0, 3.3] {
        let data = synthetic(&positions, &Weights::default(), k, 0.0).training;
        let fitted = fit_k(&data, &params_of(&Weights::default()), 2);
        assert!((fitted - k).abs() < 1e-4, "made with {k}, fitted {fitted}");
    }
}

/// Cosine of the angle between two change vectors over the flat indices in `used`.
fn cosine(a: &[[f64; 2]], b: &[[f64; 2]], base: &[[f64; 2]], used: &[bool]) -> f64 {
    let (mut dot, mut na, mut nb) = (0.0, 0.0, 0.0);
    for i in (0..Weights::COUNT).filter(|&i| used[i]) {
        for h in 0..2 {
            let (x, y) = (a[i][h] - base[i][h], b[i][h] - base[i][h]);
            dot += x * y;
            na += x * x;
            nb += y * y;
        }
    }
    dot / (na.sqrt() * nb.sqrt())
}

/// Mean distance between the evaluations of `a` and `b` over the positions of `data` that
/// `b` does not see as decided (within ±600: where the labels still have a slope).
fn eval_distance(data: &Dataset, a: &[[f64; 2]], b: &[[f64; 2]]) -> f64 {
    let live: Vec<usize> = (0..data.len())
        .filter(|&i| data.white_real(i, b).abs() < 600.0)
        .collect();
    assert!(live.len() > 1000, "{} live positions", live.len());
    live.iter()
        .map(|&i| (data.white_real(i, a) - data.white_real(i, b)).abs())
        .sum::<f64>()
        / live.len() as f64
}

#[test]
fn tuning_recovers_the_weights_that_made_the_labels() {
    let positions = positions();
    let mut rng = XorShift64(0x9e37_79b9_7f4a_7c15);
    let truth = perturbed(&mut rng, 20, 40);
    let b = synthetic(&positions, &truth, 2.0, 10.0);
    let usage = b.training.usage();
    // The closedness tables are left out of the direction: each knight and rook is in exactly
    // one bucket, so a shift common to a table and the piece's material changes no evaluation
    // and the fit need not find the truth's split.
    let closedness = |i: usize| {
        Weights::locate(i)
            .is_some_and(|(spec, _)| matches!(spec.name, "closedness_knight" | "closedness_rook"))
    };
    let used: Vec<bool> = usage
        .iter()
        .enumerate()
        .map(|(i, &u)| u > 0.0 && !closedness(i))
        .collect();
    let held_out = b.validation.clone();
    let hand = Weights::default();
    // K as the labels were made: the weights are fitted on K's scale (with K fitted to the
    // hand weights first, they come out scaled by the ratio of the two).
    // Every weight, the rule weights (left out of `Selection::all`) by name: the truth moved
    // them too.
    let mut every = vec!["*"];
    every.extend_from_slice(RULE_WEIGHTS);
    let mut tuner = Tuner::new(
        b.training,
        b.validation,
        &hand,
        Selection::matching(&every).expect("patterns match"),
        // Half the other tests' step: the fit must come within 1 % of the truth's evaluations,
        // and a larger step jitters around the optimum at about 2 %.
        &TuneOptions {
            learning_rate: 1.0,
            ..options(Some(2.0))
        },
    );
    let start = tuner.losses();
    for _ in 0..40 {
        tuner.epoch();
    }
    let end = tuner.losses();
    assert!(
        end.validation < 0.001 * start.validation && end.training < 0.001 * start.training,
        "{start:?} -> {end:?}"
    );
    let (base, target) = (params_of(&hand), params_of(&truth));
    // The held-out positions are evaluated as the weights that made the labels evaluate them.
    let (before, after) = (
        eval_distance(&held_out, &base, &target),
        eval_distance(&held_out, tuner.params(), &target),
    );
    assert!(after < 0.01 * before, "{before} -> {after} centipawns");
    // The weights themselves move the way the truth lies (not all the way: squares that only
    // decided positions use stay open), and the material, moved by 40 to 60, is found.
    let direction = cosine(tuner.params(), &target, &base, &used);
    assert!(direction > 0.9, "cosine {direction}");
    // Nothing to overfit: the validation loss falls through most of the run (near zero, Adam's
    // steps then jitter around the optimum, so the best epoch need not be the last).
    assert!(tuner.best_epoch().0 >= 25, "{:?}", tuner.best_epoch());
    // A piece's material and its mobility table are one degree of freedom too many (each
    // piece uses exactly one entry of its table: a constant moved from the table to the
    // material changes no evaluation), so what is found is material plus table entry, here
    // the entry the data use most; the pawn has no table. Knights and rooks also share their
    // material with the closedness tables (see above): the pawn, bishop and queen are checked.
    let fitted = tuner.weights();
    let with_mobility = |w: &Weights, role: usize| {
        let table = [
            None,
            Some(MOBILITY_KNIGHT.indices()),
            Some(MOBILITY_BISHOP.indices()),
            Some(MOBILITY_ROOK.indices()),
            Some(MOBILITY_QUEEN.indices()),
        ][role]
            .clone();
        let material = w[MATERIAL.at(role)];
        table.map_or(material, |table| {
            let most = table
                .max_by(|&a, &b| usage[a].total_cmp(&usage[b]))
                .expect("a table");
            material + w.slot(most).expect("a weight")
        })
    };
    for role in [0, 2, 4] {
        let (f, t) = (with_mobility(&fitted, role), with_mobility(&truth, role));
        let off = (f.mg() - t.mg()).abs().max((f.eg() - t.eg()).abs());
        assert!(
            off <= 10,
            "material {role} with mobility: fitted {f:?}, truth {t:?}"
        );
    }
}

/// The default weights, a truth with every material value moved by tens of centipawns, and
/// labels made by that truth on every second position.
fn moved_material() -> (Weights, Weights, Builder) {
    let positions: Vec<Chess> = positions().into_iter().step_by(2).collect();
    let hand = Weights::default();
    let mut truth = hand.clone();
    let moved = [S(60, 20), S(-45, 40), S(50, -50), S(-40, -60), S(90, -80)];
    for (role, d) in moved.into_iter().enumerate() {
        truth[MATERIAL.at(role)] += d;
    }
    let b = synthetic(&positions, &truth, 2.0, 0.0);
    (hand, truth, b)
}

#[test]
fn tuning_only_the_material_finds_it() {
    let (hand, truth, b) = moved_material();
    let selection = Selection::matching(&["material.*"]).expect("patterns match");
    let options = TuneOptions {
        learning_rate: 1.0,
        ..options(Some(2.0))
    };
    let mut tuner = Tuner::new(b.training, b.validation, &hand, selection, &options);
    for _ in 0..150 {
        tuner.epoch();
    }
    let fitted = tuner.weights();
    for role in 0..5 {
        let (f, t) = (fitted[MATERIAL.at(role)], truth[MATERIAL.at(role)]);
        let off = (f.mg() - t.mg()).abs().max((f.eg() - t.eg()).abs());
        assert!(off <= 2, "role {role}: fitted {f:?}, truth {t:?}");
    }
}

/// The L2 pull holds the weights toward where they started: the material found with a
/// moderate pull lies between the start and what the data say, and a strong pull keeps it at
/// the start.
#[test]
fn the_l2_pull_holds_the_weights_toward_their_start() {
    let (hand, _, b) = moved_material();
    // The summed distance of the fitted material from the starting one, in centipawns.
    let distance = |l2: f64| {
        let selection = Selection::matching(&["material.*"]).expect("patterns match");
        let options = TuneOptions {
            learning_rate: 1.0,
            l2,
            ..options(Some(2.0))
        };
        let (training, validation) = (b.training.clone(), b.validation.clone());
        let mut tuner = Tuner::new(training, validation, &hand, selection, &options);
        for _ in 0..60 {
            tuner.epoch();
        }
        let fitted = tuner.weights();
        let per_weight: Vec<i32> = (0..5)
            .map(|role| {
                let (f, h) = (fitted[MATERIAL.at(role)], hand[MATERIAL.at(role)]);
                (f.mg() - h.mg()).abs() + (f.eg() - h.eg()).abs()
            })
            .collect();
        (per_weight.iter().sum::<i32>(), per_weight)
    };
    let (free, _) = distance(0.0);
    let (pulled, _) = distance(1e-6);
    let (held, per_weight) = distance(1.0);
    assert!(
        free > 300,
        "without a pull the material moves toward the truth: {free}"
    );
    assert!(
        pulled < free && pulled > held,
        "free {free}, pulled {pulled}, held {held}"
    );
    assert!(
        per_weight.iter().all(|&d| d <= 2),
        "a strong pull keeps the start: {per_weight:?}"
    );
}

/// The non-linear channel: king-danger weights enter through the squared curve, and tuning
/// them alone (through the chain rule) moves them to the weights that made the labels.
#[test]
fn tuning_the_king_danger_through_its_curve_finds_it() {
    let positions: Vec<Chess> = positions().into_iter().step_by(2).collect();
    let hand = Weights::default();
    let mut truth = hand.clone();
    truth[DANGER_WEAK_SQUARE] += S(40, 30);
    truth[DANGER_SAFE_CHECK.at(1)] += S(-50, 40);
    truth[DANGER_BASE] += S(60, -20);
    let b = synthetic(&positions, &truth, 2.0, 0.0);
    let in_danger = (0..b.training.len())
        .filter(|&i| b.training.danger(i).iter().any(|side| !side.is_empty()))
        .count();
    assert!(
        in_danger > 1_000,
        "only {in_danger} positions with a king attack"
    );
    let selection = Selection::matching(&[
        "danger_weak_square",
        "danger_safe_check.knight",
        "danger_base",
    ])
    .expect("patterns match");
    let options = TuneOptions {
        learning_rate: 1.0,
        ..options(Some(2.0))
    };
    let mut tuner = Tuner::new(b.training, b.validation, &hand, selection, &options);
    let start = tuner.losses().training;
    for _ in 0..60 {
        tuner.epoch();
    }
    assert!(
        tuner.losses().training < start / 10.0,
        "{start} -> {:?}",
        tuner.losses()
    );
    let fitted = tuner.weights();
    for (name, f, t, h) in [
        (
            "weak square",
            fitted[DANGER_WEAK_SQUARE],
            truth[DANGER_WEAK_SQUARE],
            hand[DANGER_WEAK_SQUARE],
        ),
        (
            "knight check",
            fitted[DANGER_SAFE_CHECK.at(1)],
            truth[DANGER_SAFE_CHECK.at(1)],
            hand[DANGER_SAFE_CHECK.at(1)],
        ),
        (
            "base",
            fitted[DANGER_BASE],
            truth[DANGER_BASE],
            hand[DANGER_BASE],
        ),
    ] {
        // The middlegame half is the squared one: it must come most of the way to the truth.
        let (now, before) = ((f.mg() - t.mg()).abs(), (h.mg() - t.mg()).abs());
        assert!(
            now * 4 <= before,
            "{name}: fitted {f:?}, truth {t:?}, hand {h:?}"
        );
    }
}

#[test]
fn only_the_selected_weights_move() {
    let positions: Vec<Chess> = positions().into_iter().step_by(2).collect();
    let truth = perturbed(&mut XorShift64(5), 30, 0);
    let b = synthetic(&positions, &truth, 2.0, 10.0);
    let hand = Weights::default();
    let selection = Selection::matching(&["psqt.knight.*", "mop_up_*"]).expect("patterns match");
    let mut tuner = Tuner::new(
        b.training,
        b.validation,
        &hand,
        selection,
        &options(Some(2.0)),
    );
    let start = tuner.losses().training;
    for _ in 0..5 {
        tuner.epoch();
    }
    assert!(tuner.losses().training < start);
    let fitted = tuner.weights();
    let mut moved = 0;
    for index in 0..Weights::COUNT {
        let name = Weights::name_of(index).unwrap_or_default();
        if name.starts_with("psqt.knight.") {
            moved += usize::from(fitted.slot(index) != hand.slot(index));
        } else {
            assert_eq!(fitted.slot(index), hand.slot(index), "{name} moved");
        }
    }
    assert!(moved > 40, "only {moved} knight squares moved");
    // Mop-up is selected but used only by verdicts that replace the evaluation: no data.
    let unused: Vec<String> = tuner
        .unused()
        .into_iter()
        .filter_map(Weights::name_of)
        .collect();
    assert!(unused.iter().any(|n| n == "mop_up_edge"), "{unused:?}");
}

#[test]
fn the_outputs_read_back_as_the_fitted_weights() {
    let mut p = params_of(&Weights::default());
    let mut rng = XorShift64(9);
    for pair in &mut p {
        pair[0] += rng.around(3000) as f64 / 7.0;
        pair[1] -= rng.around(3000) as f64 / 7.0;
    }
    // Rounded, and clamped into each weight's range (some of these are far outside).
    let fitted = weights_from(&p, &Weights::default(), &Selection::all());
    assert_ne!(fitted, Weights::default());
    let text = eval_table(&fitted, "a test\nof two lines");
    let config = Config::from_toml(&text, Path::new("tuned.toml")).expect("loads");
    assert_eq!(config.weights(), fitted);
    // The defaults in the Rust source: the files as they are hold the built-in weights
    // (rewriting them to the defaults changes no character), and every declaration rewritten to
    // the fit reads back as the fit, each weight declared once.
    let mut declared = Vec::new();
    for path in common::eval_source_files() {
        let source = std::fs::read_to_string(&path).expect("read the source");
        let (same, names) = rewrite_defaults(&source, &Weights::default()).expect("rewrites");
        assert_eq!(same, source, "{}", path.display());
        let (text, _) = rewrite_defaults(&source, &fitted).expect("rewrites");
        for (name, pairs) in read_defaults(&text).expect("reads back") {
            let (offset, spec) = Weights::fields().find(|(_, s)| s.name == name).unwrap();
            let fit: Vec<S> = (offset..offset + spec.len())
                .map(|i| fitted.slot(i).unwrap())
                .collect();
            assert_eq!(pairs, fit, "{name}");
        }
        declared.extend(names);
    }
    declared.sort();
    let mut all: Vec<String> = Weights::fields().map(|(_, s)| s.name.to_owned()).collect();
    all.sort();
    assert_eq!(declared, all);
}
