//! The tuner's gradient (`minkowski::tune::loss::gradient`, computed by running the evaluation's
//! one combine on dual numbers) against an independent oracle: central finite differences of
//! the loss, weight by weight, on real positions (suite positions and their children), for
//! every channel: linear weights, king-danger units, complexity, and linear endgame halves where
//! an endgame scale factor below normal acts on them.

use crate::common::{XorShift64, push_children, suite_positions};
use minkowski::eval::Evaluator;
use minkowski::eval::combine::Pair;
use minkowski::eval::trace::Coefficients;
use minkowski::eval::weights::{Channel, Weights};
use minkowski::tune::loss::{expected_score, gradient, loss};
use minkowski::tune::{Dataset, params_of};
use shakmaty::Chess;

/// The weights as a tuner would hold them mid-fit: the defaults moved by up to 20 and off the
/// integers (with whole-centipawn weights a side's danger units are often exactly at the curve's
/// kink).
fn params() -> Vec<[f64; 2]> {
    let mut rng = XorShift64(45);
    params_of(&Weights::default())
        .into_iter()
        .map(|[mg, eg]| {
            let (dm, de) = (rng.around(20), rng.around(20));
            [mg + f64::from(dm) + 0.173, eg + f64::from(de) + 0.291]
        })
        .collect()
}

fn positions() -> Vec<Chess> {
    let mut all = Vec::new();
    for (file, limit) in [
        ("wac.epd", 150),
        ("sts1.epd", 60),
        ("bk.epd", 24),
        ("kaufman.epd", 25),
        ("sbd.epd", 100),
        ("eet.epd", 60),
        ("minkowski_knight_vs_passer.epd", 60),
        ("endgame-dm-5.epd", 100),
    ] {
        for pos in suite_positions(file, limit) {
            push_children(&pos, &mut all);
            all.push(pos);
        }
    }
    all
}

/// Whether the loss is smooth in every weight at `params` for these coefficients: no side's
/// danger units near the curve's kink at 0, the endgame half not near zero (where its sign flips
/// the complexity's push) nor the complexity near its floor. A difference quotient straddling
/// a kink says nothing.
fn smooth(c: &Coefficients, params: &[[f64; 2]]) -> bool {
    let weight = |i: usize| {
        params
            .get(i)
            .map_or(Pair::zero(), |&[mg, eg]| Pair { mg, eg })
    };
    let parts = c.parts(weight);
    let off_kink = |x: f64| x.abs() > 1.0;
    if !parts
        .danger
        .iter()
        .all(|d| off_kink(d.mg) && off_kink(d.eg))
    {
        return false;
    }
    if c.scale.is_none() {
        return true;
    }
    let eg =
        parts.linear.eg + parts.danger[0].eg.max(0.0) / 20.0 - parts.danger[1].eg.max(0.0) / 20.0;
    eg.abs() > 5.0 && (parts.complexity + eg.abs()).abs() > 5.0
}

/// Which channel a weight belongs to.
fn channel(index: usize) -> &'static str {
    match Weights::locate(index) {
        Some((spec, _)) if spec.channel == Channel::Complexity => "complexity",
        Some((spec, _)) if spec.channel == Channel::Danger => "danger",
        _ => "linear",
    }
}

/// The largest relative error of the analytic gradient against central differences over every
/// weight half that `select` picks (and that moves the loss), and how many were checked.
fn worst(
    data: &Dataset,
    params: &[[f64; 2]],
    select: impl Fn(usize, usize) -> bool,
) -> (f64, usize) {
    let k = 1.7;
    let g = gradient(data, 0..data.len(), params, k, 2);
    let (mut worst, mut checked) = (0.0_f64, 0);
    for index in 0..Weights::COUNT {
        for half in 0..2 {
            let analytic = g.by_param[index][half];
            if !select(index, half) || analytic.abs() < 1e-9 {
                continue;
            }
            let h = 1e-4;
            let (mut up, mut down) = (params.to_vec(), params.to_vec());
            up[index][half] += h;
            down[index][half] -= h;
            let numeric = (loss(data, &up, k, 1) - loss(data, &down, k, 1)) / (2.0 * h);
            worst = worst.max((numeric - analytic).abs() / analytic.abs());
            checked += 1;
        }
    }
    (worst, checked)
}

#[test]
fn the_gradient_equals_finite_differences_in_every_channel() {
    let params = params();
    let e = Evaluator::default();
    // Labels from other weights than `params`, so the loss has a slope everywhere.
    let truth = params_of(&Weights::default());
    let (mut all, mut scaled) = (Dataset::default(), Dataset::default());
    for pos in positions() {
        let c = e.coefficients(&pos);
        if c.replaced() || !smooth(&c, &params) {
            continue;
        }
        let target = expected_score(2.0, c.white_real(&truth));
        if c.scale.is_some_and(|f| f != [128, 128]) {
            scaled.push(&c, target);
        }
        all.push(&c, target);
    }
    assert!(
        all.len() > 3000 && scaled.len() > 100,
        "{} {}",
        all.len(),
        scaled.len()
    );
    for name in ["linear", "danger", "complexity"] {
        let (error, checked) = worst(&all, &params, |index, _| channel(index) == name);
        println!("{name}: {checked} partial derivatives, largest relative error {error:.2e}");
        assert!(
            checked >= 3 && error < 1e-4,
            "{name}: {checked} checked, error {error}"
        );
    }
    // Linear endgame halves through a scale factor below normal.
    let (error, checked) = worst(&scaled, &params, |index, half| {
        half == 1 && channel(index) == "linear"
    });
    println!("scale: {checked} partial derivatives, largest relative error {error:.2e}");
    assert!(
        checked >= 3 && error < 1e-4,
        "scale: {checked} checked, error {error}"
    );
}
