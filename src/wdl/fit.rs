//! Fitting a [`WdlModel`] to game results: maximum likelihood over the eight coefficients, and
//! the figures that judge a fit (its loss, and a calibration table of predicted against
//! observed results by score band). No I/O: `minkowski wdl-fit` reads the data and prints.
//!
//! The data are positions with a score (the side to move's view, in centipawns), the material
//! on the board ([`super::material`]) and how the game ended for the side to move. Equal
//! positions are counted, not stored: a cell per (material, score) with its wins, draws and
//! losses, so a fit over a million positions touches some tens of thousands of cells.
//!
//! The fit minimises the mean negative log-likelihood of the outcomes (the log loss, in nats)
//! by Fisher scoring: Newton's method with the expected Hessian, which is never indefinite, and
//! a step halved until the loss falls. It starts flat (`a` and `b` constants, fitted first on
//! their own) and then frees all eight coefficients; every step keeps `a(m) >= 0` and
//! `b(m) > 1` over the whole material range, where the model is defined.
//!
//! ```
//! use minkowski::wdl::fit::{Outcome, Samples, fit};
//! let mut samples = Samples::default();
//! // Ahead by 200 cp: mostly wins; level: mostly draws.
//! for _ in 0..8 { samples.add(200, 40, Outcome::Win); samples.add(0, 40, Outcome::Draw); }
//! for _ in 0..2 { samples.add(200, 40, Outcome::Draw); samples.add(0, 40, Outcome::Win); }
//! samples.add(0, 40, Outcome::Loss);
//! let result = fit(&samples).unwrap();
//! let (a, _) = result.model.params(40);
//! assert!(a > 0.0 && a < 200.0); // a 50 % win chance somewhere between the two
//! assert!(result.loss < samples.baseline_loss());
//! ```

use std::collections::BTreeMap;

use super::{MATERIAL_ANCHOR, MATERIAL_MAX, MATERIAL_MIN, MIN_SPREAD, WdlModel, logistic};

/// How a game ended for the side to move in the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The side to move won.
    Win,
    /// A draw.
    Draw,
    /// The side to move lost.
    Loss,
}

/// Why a fit could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FitError {
    /// No positions to fit.
    NoSamples,
    /// The likelihood could not be evaluated at the start (no valid model to improve on).
    Degenerate,
}

impl std::fmt::Display for FitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            FitError::NoSamples => "no positions to fit",
            FitError::Degenerate => "the data give no finite likelihood at the start",
        })
    }
}

impl std::error::Error for FitError {}

/// Positions counted by (material, score): wins, draws and losses of each cell.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Samples {
    /// `(material, score)` → `[wins, draws, losses]`. Material is clamped into the model's
    /// range when added: outside it the model is the same as at its ends.
    cells: BTreeMap<(u32, i32), [u64; 3]>,
    total: u64,
}

impl Samples {
    /// Count one position: its score (side to move, centipawns), its material and how its game
    /// ended for the side to move.
    pub fn add(&mut self, score: i32, material: u32, outcome: Outcome) {
        let material = material.clamp(MATERIAL_MIN, MATERIAL_MAX);
        let counts = self.cells.entry((material, score)).or_default();
        counts[outcome as usize] += 1;
        self.total += 1;
    }

    /// Add every position of `other`.
    pub fn merge(&mut self, other: &Samples) {
        for (&key, counts) in &other.cells {
            let mine = self.cells.entry(key).or_default();
            for (m, c) in mine.iter_mut().zip(counts) {
                *m += c;
            }
        }
        self.total += other.total;
    }

    /// How many positions were added.
    #[must_use]
    pub fn len(&self) -> u64 {
        self.total
    }

    /// Whether none were.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// Wins, draws and losses over all positions.
    #[must_use]
    pub fn outcomes(&self) -> [u64; 3] {
        let mut sum = [0; 3];
        for counts in self.cells.values() {
            for (s, c) in sum.iter_mut().zip(counts) {
                *s += c;
            }
        }
        sum
    }

    /// The log loss of knowing nothing but the overall frequencies of wins, draws and losses
    /// (the same chances for every position): what a model must beat.
    #[must_use]
    pub fn baseline_loss(&self) -> f64 {
        let counts = self.outcomes();
        let n = self.total.max(1) as f64;
        -counts
            .iter()
            .filter(|&&c| c > 0)
            .map(|&c| c as f64 / n * (c as f64 / n).ln())
            .sum::<f64>()
    }
}

/// Smallest chance a log is taken of: an outcome the model calls impossible costs this much,
/// not infinity.
const MIN_CHANCE: f64 = 1e-12;

/// The mean log loss (negative log-likelihood per position, in nats) of `model` on `samples`;
/// 0 for no samples.
///
/// ```
/// use minkowski::wdl::WdlModel;
/// use minkowski::wdl::fit::{Outcome, Samples, log_loss};
/// let mut s = Samples::default();
/// s.add(0, 78, Outcome::Draw);
/// let loss = log_loss(&WdlModel::FITTED, &s);
/// let draw = WdlModel::FITTED.wdl(minkowski::value::Value(0), 78).draw;
/// assert!((loss + (f64::from(draw) / 1000.0).ln()).abs() < 0.01);
/// ```
#[must_use]
pub fn log_loss(model: &WdlModel, samples: &Samples) -> f64 {
    let theta = to_theta(model);
    likelihood(&theta, samples, false).map_or(f64::INFINITY, |l| l.loss)
}

/// A fitted model and how well it fits.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// The coefficients.
    pub model: WdlModel,
    /// Its mean log loss on the data it was fitted to, in nats.
    pub loss: f64,
    /// Newton steps taken (both stages).
    pub steps: usize,
}

/// Most Newton steps per stage; a fit converges in a few dozen.
const MAX_STEPS: usize = 200;
/// A step that lowers the loss by less than this ends the stage.
const TOLERANCE: f64 = 1e-12;
/// Where the fit starts: a win is even at 100 cp, and 50 cp move the odds by a factor of e
/// (the size of a pawn, whatever the engine's scale; the flat stage corrects both).
const START: WdlModel = WdlModel {
    a: [0.0, 0.0, 0.0, 100.0],
    b: [0.0, 0.0, 0.0, 50.0],
};

/// Fit the model to `samples` by maximum likelihood (see the module's documentation).
///
/// # Errors
///
/// [`FitError::NoSamples`] without positions, [`FitError::Degenerate`] if the start already
/// has no finite likelihood (not with real data).
pub fn fit(samples: &Samples) -> Result<Fit, FitError> {
    fit_stages(samples, true)
}

/// The best model with `a` and `b` constant, blind to the material: the first stage of
/// [`fit`], and what its material terms must improve on.
///
/// ```
/// use minkowski::wdl::fit::{Outcome, Samples, fit_flat};
/// let mut s = Samples::default();
/// s.add(150, 20, Outcome::Win);
/// s.add(150, 70, Outcome::Draw);
/// s.add(-10, 50, Outcome::Loss);
/// let flat = fit_flat(&s).unwrap().model;
/// assert_eq!(flat.params(20), flat.params(70));
/// ```
///
/// # Errors
///
/// As [`fit`].
pub fn fit_flat(samples: &Samples) -> Result<Fit, FitError> {
    fit_stages(samples, false)
}

fn fit_stages(samples: &Samples, cubic: bool) -> Result<Fit, FitError> {
    if samples.is_empty() {
        return Err(FitError::NoSamples);
    }
    let mut theta = to_theta(&START);
    // The constants alone first, then every coefficient.
    let flat = [false, false, false, true, false, false, false, true];
    let mut steps = newton(&mut theta, &flat, samples)?;
    if cubic {
        steps += newton(&mut theta, &[true; 8], samples)?;
    }
    let loss = likelihood(&theta, samples, false).map_or(f64::INFINITY, |l| l.loss);
    Ok(Fit {
        model: from_theta(&theta),
        loss,
        steps,
    })
}

/// One row of a calibration table: the positions whose score lies in `low..high`, with the
/// results they had and the model's mean prediction for them (fractions 0..=1).
#[derive(Clone, Debug, PartialEq)]
pub struct Band {
    /// Lowest score in the band (`i32::MIN` for the open end).
    pub low: i32,
    /// One past the highest score (`i32::MAX` for the open end).
    pub high: i32,
    /// Positions in the band.
    pub count: u64,
    /// Observed win, draw and loss fractions.
    pub observed: [f64; 3],
    /// The model's mean win, draw and loss chances over the same positions.
    pub predicted: [f64; 3],
}

/// Predicted against observed results in score bands cut at `edges` (ascending): the bands are
/// `..edges[0]`, `edges[0]..edges[1]`, ..., `edges[last]..`; empty bands are left out.
///
/// ```
/// use minkowski::wdl::WdlModel;
/// use minkowski::wdl::fit::{Outcome, Samples, calibration};
/// let mut s = Samples::default();
/// s.add(-300, 40, Outcome::Loss);
/// s.add(10, 40, Outcome::Draw);
/// s.add(20, 40, Outcome::Win);
/// let rows = calibration(&WdlModel::FITTED, &s, &[-100, 100]);
/// assert_eq!(rows.len(), 2); // nothing above 100
/// assert_eq!(rows[1].count, 2);
/// assert_eq!(rows[1].observed, [0.5, 0.5, 0.0]);
/// ```
#[must_use]
pub fn calibration(model: &WdlModel, samples: &Samples, edges: &[i32]) -> Vec<Band> {
    let mut bounds = vec![i32::MIN];
    bounds.extend_from_slice(edges);
    bounds.push(i32::MAX);
    let mut bands: Vec<Band> = bounds
        .windows(2)
        .map(|w| Band {
            low: w[0],
            high: w[1],
            count: 0,
            observed: [0.0; 3],
            predicted: [0.0; 3],
        })
        .collect();
    for (&(material, score), counts) in &samples.cells {
        // The band whose range holds the score: the last band starting at or below it.
        let i = bands.partition_point(|b| b.low <= score).saturating_sub(1);
        let band = &mut bands[i];
        let n: u64 = counts.iter().sum();
        let win = model.win_chance(f64::from(score), material);
        let loss = model.win_chance(-f64::from(score), material);
        let chances = [win, 1.0 - win - loss, loss];
        for k in 0..3 {
            band.observed[k] += counts[k] as f64;
            band.predicted[k] += n as f64 * chances[k];
        }
        band.count += n;
    }
    bands.retain(|b| b.count > 0);
    for band in &mut bands {
        let n = band.count as f64;
        for k in 0..3 {
            band.observed[k] /= n;
            band.predicted[k] /= n;
        }
    }
    bands
}

/// The coefficients as one vector: `a` then `b`.
fn to_theta(model: &WdlModel) -> [f64; 8] {
    let mut theta = [0.0; 8];
    theta[..4].copy_from_slice(&model.a);
    theta[4..].copy_from_slice(&model.b);
    theta
}

fn from_theta(theta: &[f64; 8]) -> WdlModel {
    let mut model = WdlModel {
        a: [0.0; 4],
        b: [0.0; 4],
    };
    model.a.copy_from_slice(&theta[..4]);
    model.b.copy_from_slice(&theta[4..]);
    model
}

/// Powers of `x = material / 58` in the order of the coefficients: `[x³, x², x, 1]`.
fn powers(material: u32) -> [f64; 4] {
    let x = f64::from(material) / MATERIAL_ANCHOR;
    [x * x * x, x * x, x, 1.0]
}

fn dot(c: &[f64], p: &[f64; 4]) -> f64 {
    c.iter().zip(p).map(|(c, p)| c * p).sum()
}

/// Whether `theta` is a model the engine would use as it is: `a >= 0` and `b > 1` at every
/// material count (where [`WdlModel::params`] would otherwise clamp).
fn valid(theta: &[f64; 8]) -> bool {
    (MATERIAL_MIN..=MATERIAL_MAX).all(|m| {
        let p = powers(m);
        dot(&theta[..4], &p) >= 0.0 && dot(&theta[4..], &p) > MIN_SPREAD
    })
}

/// The loss, and with `derivatives` its gradient and expected Hessian (Fisher information),
/// all per position; `None` for a `theta` outside the valid models.
struct Likelihood {
    loss: f64,
    gradient: [f64; 8],
    fisher: [[f64; 8]; 8],
}

fn likelihood(theta: &[f64; 8], samples: &Samples, derivatives: bool) -> Option<Likelihood> {
    if !valid(theta) || theta.iter().any(|t| !t.is_finite()) {
        return None;
    }
    let mut out = Likelihood {
        loss: 0.0,
        gradient: [0.0; 8],
        fisher: [[0.0; 8]; 8],
    };
    for (&(material, score), counts) in &samples.cells {
        let p = powers(material);
        let (a, b) = (dot(&theta[..4], &p), dot(&theta[4..], &p));
        let s = f64::from(score);
        let (u, v) = ((s - a) / b, (-s - a) / b);
        let (win, loss) = (logistic(u), logistic(v));
        let chances = [win, (1.0 - win - loss).max(0.0), loss];
        for (k, &n) in counts.iter().enumerate() {
            if n > 0 {
                out.loss -= n as f64 * chances[k].max(MIN_CHANCE).ln();
            }
        }
        if !derivatives {
            continue;
        }
        // d(win)/d(a, b) and d(loss)/d(a, b); the draw takes the rest.
        let (dw, dl) = (win * (1.0 - win) / b, loss * (1.0 - loss) / b);
        let d_win = [-dw, -dw * u];
        let d_loss = [-dl, -dl * v];
        let d_draw = [-d_win[0] - d_loss[0], -d_win[1] - d_loss[1]];
        let n_all: u64 = counts.iter().sum();
        for (k, d) in [d_win, d_draw, d_loss].iter().enumerate() {
            let chance = chances[k].max(MIN_CHANCE);
            // The chance's gradient over the eight coefficients.
            let mut g = [0.0; 8];
            for i in 0..4 {
                g[i] = d[0] * p[i];
                g[4 + i] = d[1] * p[i];
            }
            let observed = counts[k] as f64;
            for i in 0..8 {
                out.gradient[i] -= observed * g[i] / chance;
                for j in 0..8 {
                    out.fisher[i][j] += n_all as f64 * g[i] * g[j] / chance;
                }
            }
        }
    }
    let n = samples.total.max(1) as f64;
    out.loss /= n;
    for i in 0..8 {
        out.gradient[i] /= n;
        for j in 0..8 {
            out.fisher[i][j] /= n;
        }
    }
    Some(out)
}

/// Fisher scoring on the coefficients `free` marks, from `theta`; returns the steps taken.
fn newton(theta: &mut [f64; 8], free: &[bool; 8], samples: &Samples) -> Result<usize, FitError> {
    let mut current = likelihood(theta, samples, true).ok_or(FitError::Degenerate)?;
    let index: Vec<usize> = (0..8).filter(|&i| free[i]).collect();
    for step in 0..MAX_STEPS {
        let g: Vec<f64> = index.iter().map(|&i| current.gradient[i]).collect();
        let h: Vec<Vec<f64>> = index
            .iter()
            .map(|&i| index.iter().map(|&j| current.fisher[i][j]).collect())
            .collect();
        let Some(direction) = solve(&h, &g) else {
            return Ok(step);
        };
        // Halve the step until the loss falls (and the model stays valid).
        let mut scale = 1.0;
        let mut accepted = None;
        for _ in 0..40 {
            let mut trial = *theta;
            for (k, &i) in index.iter().enumerate() {
                trial[i] -= scale * direction[k];
            }
            if let Some(l) = likelihood(&trial, samples, false)
                && l.loss < current.loss
            {
                accepted = Some((trial, l.loss));
                break;
            }
            scale /= 2.0;
        }
        let Some((trial, loss)) = accepted else {
            return Ok(step);
        };
        let gain = current.loss - loss;
        *theta = trial;
        current = likelihood(theta, samples, true).ok_or(FitError::Degenerate)?;
        if gain < TOLERANCE {
            return Ok(step + 1);
        }
    }
    Ok(MAX_STEPS)
}

/// Solve `h x = g` for a symmetric positive (semi-)definite `h` by Cholesky, with a little
/// ridge added when `h` is singular; `None` if even that fails.
fn solve(h: &[Vec<f64>], g: &[f64]) -> Option<Vec<f64>> {
    let n = g.len();
    let scale = (0..n)
        .map(|i| h[i][i].abs())
        .fold(0.0, f64::max)
        .max(1e-300);
    for ridge in [0.0, 1e-12, 1e-9, 1e-6, 1e-3] {
        let mut l = vec![vec![0.0; n]; n];
        let mut ok = true;
        'rows: for i in 0..n {
            for j in 0..=i {
                let ridged = h[i][j] + if i == j { ridge * scale } else { 0.0 };
                let sum = ridged - (0..j).map(|k| l[i][k] * l[j][k]).sum::<f64>();
                if i == j {
                    if sum <= 0.0 || !sum.is_finite() {
                        ok = false;
                        break 'rows;
                    }
                    l[i][i] = sum.sqrt();
                } else {
                    l[i][j] = sum / l[j][j];
                }
            }
        }
        if !ok {
            continue;
        }
        // Forward, then back substitution.
        let mut y = vec![0.0; n];
        for i in 0..n {
            y[i] = (g[i] - (0..i).map(|k| l[i][k] * y[k]).sum::<f64>()) / l[i][i];
        }
        let mut x = vec![0.0; n];
        for i in (0..n).rev() {
            x[i] = (y[i] - (i + 1..n).map(|k| l[k][i] * x[k]).sum::<f64>()) / l[i][i];
        }
        return Some(x);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions drawn from a known model (by counts, not at random: each cell gets its
    /// expected wins, draws and losses out of 1000), which the fit must give back.
    fn drawn_from(model: &WdlModel) -> Samples {
        let mut s = Samples::default();
        for material in (MATERIAL_MIN..=MATERIAL_MAX).step_by(3) {
            for score in (-600..=600).step_by(20) {
                let w = model.wdl(crate::value::Value(score), material);
                for (outcome, n) in [
                    (Outcome::Win, w.win),
                    (Outcome::Draw, w.draw),
                    (Outcome::Loss, w.loss),
                ] {
                    for _ in 0..n {
                        s.add(score, material, outcome);
                    }
                }
            }
        }
        s
    }

    #[test]
    fn recovers_the_model_the_data_came_from() {
        let truth = WdlModel {
            a: [-40.0, 120.0, -90.0, 180.0],
            b: [10.0, -20.0, 30.0, 55.0],
        };
        let samples = drawn_from(&truth);
        let result = fit(&samples).unwrap();
        for material in [MATERIAL_MIN, 30, 45, 58, 70, MATERIAL_MAX] {
            let (a, b) = result.model.params(material);
            let (ta, tb) = truth.params(material);
            assert!((a - ta).abs() < 2.0, "a({material}) = {a}, truth {ta}");
            assert!((b - tb).abs() < 2.0, "b({material}) = {b}, truth {tb}");
        }
        // The truth is (up to rounding to per mille) the best fit: nothing fits much better.
        assert!(result.loss <= log_loss(&truth, &samples) + 1e-6);
        assert!(result.loss < samples.baseline_loss());
    }

    #[test]
    fn calibration_of_the_true_model_matches_the_data() {
        let truth = WdlModel {
            a: [0.0, 0.0, 0.0, 150.0],
            b: [0.0, 0.0, 0.0, 70.0],
        };
        let samples = drawn_from(&truth);
        for band in calibration(&truth, &samples, &[-300, -100, 0, 100, 300]) {
            for k in 0..3 {
                assert!(
                    (band.observed[k] - band.predicted[k]).abs() < 0.002,
                    "{band:?}"
                );
            }
        }
    }

    #[test]
    fn empty_data_is_an_error_not_a_panic() {
        assert_eq!(fit(&Samples::default()), Err(FitError::NoSamples));
        assert!(calibration(&WdlModel::FITTED, &Samples::default(), &[0]).is_empty());
        assert_eq!(log_loss(&WdlModel::FITTED, &Samples::default()), 0.0);
    }

    #[test]
    fn one_sided_data_still_fit_to_a_valid_model() {
        // Only wins, whatever the score: the fit pushes towards "always wins" but stays a
        // model the engine can use.
        let mut s = Samples::default();
        for score in -50..50 {
            s.add(score, 40, Outcome::Win);
        }
        let result = fit(&s).unwrap();
        assert!(valid(&to_theta(&result.model)));
        assert!(result.loss < log_loss(&START, &s));
    }

    #[test]
    fn samples_merge_and_clamp_material() {
        let mut a = Samples::default();
        a.add(10, 5, Outcome::Win); // below the range: counted at MATERIAL_MIN
        let mut b = Samples::default();
        b.add(10, MATERIAL_MIN, Outcome::Loss);
        a.merge(&b);
        assert_eq!(a.len(), 2);
        assert_eq!(a.cells.len(), 1);
        assert_eq!(a.outcomes(), [1, 0, 1]);
    }
}
