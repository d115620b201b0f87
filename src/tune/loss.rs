//! Texel's loss and its gradient over a [`Dataset`], on several threads, and the fit of the
//! sigmoid's scaling constant K.
//!
//! The model: position `i` with evaluation `e` (White's point of view, real numbers) has White
//! expected to score `p = sigmoid(K · e / 400)`, with `sigmoid(x) = 1 / (1 + exp(−x))`; the
//! loss is the mean of `(p − target)²`.

use std::ops::Range;

use super::data::Dataset;
use super::dual::{Aggregate, Dual};
use crate::eval::base::TEMPO;
use crate::eval::combine::combine;
use crate::eval::weights::Weights;

/// The evaluation scale of the model: `p = sigmoid(K · eval / EVAL_SCALE)`. With it, K is near 1
/// for evaluations in centipawns (K = ln 10 would be the classic `10^(eval / 400)` form).
///
/// ```
/// use minkowski::tune::loss::{EVAL_SCALE, expected_score};
/// assert_eq!(EVAL_SCALE, 400.0);
/// assert_eq!(expected_score(1.0, 0.0), 0.5);
/// assert!((expected_score(1.0, 400.0) - 0.731).abs() < 1e-3);
/// ```
pub const EVAL_SCALE: f64 = 400.0;

/// Below this many positions per thread, the work is not worth a thread of its own.
const MIN_PER_THREAD: usize = 2048;

/// The logistic function, `1 / (1 + exp(−x))`.
#[must_use]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// White's expected score for an evaluation `eval` (White's point of view) with constant `k`.
#[must_use]
pub fn expected_score(k: f64, eval: f64) -> f64 {
    sigmoid(k * eval / EVAL_SCALE)
}

/// The constant that turns a search score into an expected score for [`blended_target`]:
/// `ln 10`, the classic `1 / (1 + 10^(−score / 400))`, so that 400 cp above level is an
/// expected 0.91 (a fitted K is close: 2.36 on the shipped weights' data).
pub const SCORE_LABEL_K: f64 = std::f64::consts::LN_10;

/// The label a position is fitted to: `lambda · result + (1 − lambda) · expected_score(k,
/// score)`, both White's point of view; the result alone when the position has no score or
/// `lambda` is 1. A game result says who won from here, but through a whole game's noise; the
/// search score of the position itself (datagen writes it) is far less noisy but carries the
/// search's own errors. The blend is the usual middle ground (`minkowski tune --lambda`).
///
/// ```
/// use minkowski::tune::loss::{SCORE_LABEL_K, blended_target};
/// assert_eq!(blended_target(1.0, Some(-300), 1.0, SCORE_LABEL_K), 1.0); // result only
/// assert_eq!(blended_target(1.0, None, 0.0, SCORE_LABEL_K), 1.0); // no score: the result
/// assert_eq!(blended_target(0.0, Some(0), 0.0, SCORE_LABEL_K), 0.5); // score only: level
/// assert_eq!(blended_target(1.0, Some(0), 0.5, SCORE_LABEL_K), 0.75);
/// ```
#[must_use]
pub fn blended_target(result: f64, score: Option<i32>, lambda: f64, k: f64) -> f64 {
    match score {
        Some(s) if lambda < 1.0 => {
            lambda * result + (1.0 - lambda) * expected_score(k, f64::from(s))
        }
        _ => result,
    }
}

/// Run `work` on contiguous parts of `range`, at most `threads` of them and each on its own
/// scoped thread (on this one when there is only one), returning the results in order.
fn split<T: Send>(
    range: Range<usize>,
    threads: usize,
    work: impl Fn(Range<usize>) -> T + Sync,
) -> Vec<T> {
    let len = range.len();
    let parts = threads.min(len / MIN_PER_THREAD).max(1);
    if parts == 1 {
        return vec![work(range)];
    }
    let size = len.div_ceil(parts);
    let work = &work;
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..parts)
            .map(|p| {
                let start = range.start + p * size;
                let end = (start + size).min(range.end);
                scope.spawn(move || work(start..end))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    })
}

/// The loss over every position of `data` with the flat parameters `params` and constant `k`:
/// the mean of `(sigmoid(k · eval / 400) − target)²`, 0 for no positions.
///
/// ```
/// use minkowski::eval::{Evaluator, base::TEMPO};
/// use minkowski::tune::{Dataset, loss::loss, params_of};
/// let (e, pos) = (Evaluator::default(), shakmaty::Chess::default());
/// let mut data = Dataset::default();
/// data.push(&e.coefficients(&pos), 1.0);
/// // The start position scores White's middlegame tempo.
/// let p = 1.0 / (1.0 + (-f64::from(e.weights()[TEMPO].mg()) / 400.0).exp());
/// assert!((loss(&data, &params_of(e.weights()), 1.0, 1) - (1.0 - p).powi(2)).abs() < 1e-12);
/// ```
#[must_use]
pub fn loss(data: &Dataset, params: &[[f64; 2]], k: f64, threads: usize) -> f64 {
    if data.is_empty() {
        return 0.0;
    }
    let sums = split(0..data.len(), threads, |part| {
        part.map(|i| {
            let p = expected_score(k, data.white_real(i, params));
            (p - data.target(i)).powi(2)
        })
        .sum::<f64>()
    });
    sums.iter().sum::<f64>() / data.len() as f64
}

/// The loss over some positions and its gradient by every flat parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Gradient {
    /// The mean loss over the positions.
    pub loss: f64,
    /// `∂ loss / ∂ [mg, eg]` of every flat index ([`Weights::COUNT`] pairs).
    pub by_param: Vec<[f64; 2]>,
}

/// The loss over the positions `range` of `data` and its gradient. With
/// `p = sigmoid(k · e / 400)`, `∂ loss / ∂ e = 2 (p − target) · p (1 − p) · k / 400` per
/// position; the evaluation's derivatives by its aggregates (the linear sum, each side's king
/// danger units, the complexity, the tempo bonus: [`Aggregate`]) come from running the one
/// combine on [`Dual`] numbers, and a weight's derivative is then the aggregate's times the
/// weight's count in it. No derivative of the danger curve, the drawishness stage or the blend
/// is written by hand.
///
/// ```
/// use minkowski::eval::Evaluator;
/// use minkowski::eval::weights::Weights;
/// use minkowski::tune::{Dataset, loss::gradient, params_of};
/// let (e, pos) = (Evaluator::default(), shakmaty::Chess::default());
/// let mut data = Dataset::default();
/// data.push(&e.coefficients(&pos), 1.0);
/// let g = gradient(&data, 0..1, &params_of(e.weights()), 1.0, 1);
/// let tempo = Weights::index_of("tempo").unwrap();
/// // White to move should score more: a larger tempo bonus lowers the loss (phase 24: mg only).
/// assert!(g.by_param[tempo][0] < 0.0 && g.by_param[tempo][1] == 0.0);
/// ```
#[must_use]
pub fn gradient(
    data: &Dataset,
    range: Range<usize>,
    params: &[[f64; 2]],
    k: f64,
    threads: usize,
) -> Gradient {
    let len = range.len();
    let parts = split(range, threads, |part| {
        let mut by_param = vec![[0.0; 2]; Weights::COUNT];
        let mut loss = 0.0;
        let tempo = TEMPO.at(0).index();
        for i in part {
            let value = combine(&data.parts(i, params, Dual::variable)).white;
            let p = expected_score(k, value.value);
            let error = p - data.target(i);
            loss += error * error;
            let slope = 2.0 * error * p * (1.0 - p) * k / EVAL_SCALE;
            let by = |mg: Aggregate, eg: Aggregate| [slope * value.by(mg), slope * value.by(eg)];
            let add = |by_param: &mut [[f64; 2]], terms: &[(u16, i16)], [mg, eg]: [f64; 2]| {
                for &(index, count) in terms {
                    let g = &mut by_param[usize::from(index)];
                    g[0] += mg * f64::from(count);
                    g[1] += eg * f64::from(count);
                }
            };
            let linear = by(Aggregate::LinearMg, Aggregate::LinearEg);
            let tempo_slope = by(Aggregate::TempoMg, Aggregate::TempoEg);
            for &(index, count) in data.terms(i) {
                let d = if usize::from(index) == tempo {
                    tempo_slope
                } else {
                    linear
                };
                let g = &mut by_param[usize::from(index)];
                g[0] += d[0] * f64::from(count);
                g[1] += d[1] * f64::from(count);
            }
            for (side, terms) in data.danger(i).into_iter().enumerate() {
                let [mg, eg] = Aggregate::danger(side);
                add(&mut by_param, terms, by(mg, eg));
            }
            let complexity = slope * value.by(Aggregate::Complexity);
            add(&mut by_param, data.complexity(i), [0.0, complexity]);
        }
        (loss, by_param)
    });
    let scale = if len == 0 { 0.0 } else { 1.0 / len as f64 };
    let mut total = Gradient {
        loss: 0.0,
        by_param: vec![[0.0; 2]; Weights::COUNT],
    };
    for (loss, by_param) in parts {
        total.loss += loss * scale;
        for (t, g) in total.by_param.iter_mut().zip(by_param) {
            t[0] += g[0] * scale;
            t[1] += g[1] * scale;
        }
    }
    total
}

/// The search range of [`fit_k`]: K from this...
const K_MIN: f64 = 0.01;
/// ...to this, scanned on a geometric grid of this ratio before the golden-section search.
const K_MAX: f64 = 100.0;
/// The grid's ratio.
const K_GRID_RATIO: f64 = 1.25;
/// The golden-section search stops when its bracket is this narrow, relative to K.
const K_TOLERANCE: f64 = 1e-7;

/// The K that minimises the loss of `data` with the parameters `params`: a scan of a
/// geometric grid from 0.01 to 100 finds the best neighbourhood, a golden-section search
/// narrows it. Evaluations do not depend on K, so they are computed once. 1 for no positions.
///
/// ```
/// use minkowski::eval::Evaluator;
/// use minkowski::tune::{Dataset, loss::{expected_score, fit_k}, params_of};
/// use shakmaty::{Chess, Position};
/// let e = Evaluator::default();
/// let params = params_of(e.weights());
/// let mut data = Dataset::default();
/// for m in Chess::default().legal_moves() {
///     let pos = Chess::default().play(m).unwrap();
///     let c = e.coefficients(&pos);
///     data.push(&c, expected_score(2.5, c.white_real(&params))); // labels made with K = 2.5
/// }
/// assert!((fit_k(&data, &params, 1) - 2.5).abs() < 1e-3);
/// ```
#[must_use]
pub fn fit_k(data: &Dataset, params: &[[f64; 2]], threads: usize) -> f64 {
    if data.is_empty() {
        return 1.0;
    }
    let evals: Vec<f64> = split(0..data.len(), threads, |part| {
        part.map(|i| data.white_real(i, params)).collect::<Vec<_>>()
    })
    .concat();
    let loss_at = |k: f64| -> f64 {
        split(0..evals.len(), threads, |part| {
            part.map(|i| (expected_score(k, evals[i]) - data.target(i)).powi(2))
                .sum::<f64>()
        })
        .iter()
        .sum()
    };
    let mut grid = vec![K_MIN];
    while let Some(&last) = grid.last().filter(|&&k| k < K_MAX) {
        grid.push(last * K_GRID_RATIO);
    }
    let losses: Vec<f64> = grid.iter().map(|&k| loss_at(k)).collect();
    let best = (0..grid.len())
        .min_by(|&a, &b| losses[a].total_cmp(&losses[b]))
        .unwrap_or(0);
    let (mut lo, mut hi) = (
        grid[best.saturating_sub(1)],
        grid[(best + 1).min(grid.len() - 1)],
    );
    // Golden-section search on [lo, hi].
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (hi - ratio * (hi - lo), lo + ratio * (hi - lo));
    let (mut fa, mut fb) = (loss_at(a), loss_at(b));
    while hi - lo > K_TOLERANCE * hi {
        if fa < fb {
            hi = b;
            (b, fb) = (a, fa);
            a = hi - ratio * (hi - lo);
            fa = loss_at(a);
        } else {
            lo = a;
            (a, fa) = (b, fb);
            b = lo + ratio * (hi - lo);
            fb = loss_at(b);
        }
    }
    (lo + hi) / 2.0
}
