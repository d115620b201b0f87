//! Texel tuning: fitting the evaluation's weights to game results.
//!
//! Each labelled position is converted once into its coefficient form ([`Dataset`], built by
//! [`Builder`]): the evaluation is then a linear function of the flat weight vector, so a pass
//! over a million positions is a few hundred million multiply-adds over compact arrays, with no
//! board and no evaluator in the loop. The model is `p = sigmoid(K · eval / 400)`, White's
//! expected score, and the loss the mean of `(p − result)²` ([`loss`]).
//!
//! A run ([`Tuner`]):
//!
//! 1. fits K with the starting weights ([`loss::fit_k`]): K turns centipawns into a winning
//!    chance and is not itself a weight, so it is fixed first and the weights fitted on its
//!    scale;
//! 2. optimises the selected weights ([`Selection`]: all, or names matching `--only` globs),
//!    middlegame and endgame halves separately, with Adam over shuffled mini-batches; each
//!    batch's gradient is computed on several threads (`std::thread::scope` over contiguous
//!    chunks, each with its own gradient vector, summed after); after each step every weight is
//!    clamped to its declared range ([`crate::eval::weights::WeightSpec::range`]);
//! 3. holds the material / piece-square split where it was (see [`Tuner::epoch`]);
//! 4. reports the training and the validation loss after each epoch, and keeps the weights of
//!    the epoch with the lowest validation loss ([`Tuner::best_weights`]).
//!
//! The weights stay real numbers during the run; [`Tuner::weights`] rounds them. What the
//! model leaves out: the evaluation's integer rounding (under two centipawns), its final clamp
//! at ±20 000 (only decided positions come near), and the positions an endgame verdict
//! replaces (see [`Builder`]).
//!
//! The library prints nothing: `minkowski tune` reads the data files, prints the losses and
//! writes the results (an engine.toml `[eval]` table: `crate::config::eval_table` with the
//! engine feature; the defaults in the Rust source: [`rewrite_defaults`]).
//!
//! ```
//! use minkowski::eval::{Evaluator, weights::Weights};
//! use minkowski::tune::{Builder, Selection, TuneOptions, Tuner};
//! use shakmaty::{Chess, Position};
//! // Every position after one move from the start, each labelled a white win.
//! let mut builder = Builder::new(Evaluator::default(), 0.0);
//! for m in Chess::default().legal_moves() {
//!     builder.add(&Chess::default().play(m).unwrap(), 1.0);
//! }
//! let options = TuneOptions { k: Some(1.0), ..TuneOptions::default() };
//! let mut tuner = Tuner::new(builder.training, builder.validation, &Weights::default(),
//!                            Selection::all(), &options);
//! let before = tuner.losses().training;
//! for _ in 0..20 {
//!     tuner.epoch();
//! }
//! assert!(tuner.losses().training < before);
//! ```

mod data;
pub mod dual;
pub mod loss;
mod rust;
mod select;

pub use data::{Builder, Dataset, Kept};
pub use rust::{DefaultsError, read_defaults, rewrite_defaults};
pub use select::{RULE_WEIGHTS, Selection, glob_match};

use crate::eval::base::{MATERIAL, PSQT};
use crate::eval::score::S;
use crate::eval::weights::{Weights, role_index};
use shakmaty::Role;

/// The flat parameter vector of `weights`: `[mg, eg]` of every flat index ([`Weights::slot`]),
/// as real numbers.
///
/// ```
/// use minkowski::eval::weights::Weights;
/// let p = minkowski::tune::params_of(&Weights::default());
/// assert_eq!(p.len(), Weights::COUNT);
/// let tempo = Weights::default().get("tempo").unwrap();
/// assert_eq!(p[Weights::index_of("tempo").unwrap()], [f64::from(tempo.mg()), f64::from(tempo.eg())]);
/// ```
#[must_use]
pub fn params_of(weights: &Weights) -> Vec<[f64; 2]> {
    (0..Weights::COUNT)
        .map(|i| {
            weights
                .slot(i)
                .map_or([0.0; 2], |s| [f64::from(s.mg()), f64::from(s.eg())])
        })
        .collect()
}

/// `base` with the flat indices of `selection` set from `params`, rounded to whole centipawns
/// and clamped to each weight's range.
///
/// ```
/// use minkowski::eval::{score::S, weights::Weights};
/// use minkowski::tune::{Selection, params_of, weights_from};
/// let mut p = params_of(&Weights::default());
/// let tempo = Weights::index_of("tempo").unwrap();
/// p[tempo] = [20.4, 500.0]; // tempo's range is -100..=100
/// let w = weights_from(&p, &Weights::default(), &Selection::matching(&["tempo"]).unwrap());
/// assert_eq!(w.get("tempo"), Some(S(20, 100)));
/// ```
#[must_use]
pub fn weights_from(params: &[[f64; 2]], base: &Weights, selection: &Selection) -> Weights {
    let mut weights = base.clone();
    for (index, &[mg, eg]) in params.iter().enumerate() {
        if !selection.contains(index) {
            continue;
        }
        let Some((spec, _)) = Weights::locate(index) else {
            continue;
        };
        let range = &spec.range;
        let round = |v: f64| (v.round() as i32).clamp(*range.start(), *range.end());
        if let Some(slot) = weights.slot_mut(index) {
            *slot = S(round(mg), round(eg));
        }
    }
    weights
}

/// How a run optimises.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneOptions {
    /// The sigmoid's constant; `None`: fitted to the training set with the starting weights.
    pub k: Option<f64>,
    /// Adam's step size, in centipawns: about how far a weight moves per step while its
    /// gradient keeps its sign.
    pub learning_rate: f64,
    /// Positions per gradient step (the last batch of an epoch may be smaller); 0: the whole
    /// training set.
    pub batch_size: usize,
    /// Threads computing each gradient and loss.
    pub threads: usize,
    /// The seed of the training set's order.
    pub seed: u64,
    /// The strength of a pull of each selected weight toward its starting value: the steps
    /// follow the loss plus `l2 × (w − start)²` for each half of each weight (the losses
    /// reported stay the data's alone). It keeps weights the data hardly use — a rare bucket of
    /// a table, one that shares a degree of freedom with the material — near where they
    /// started instead of letting them run to the ends of their range. 0: no pull.
    pub l2: f64,
}

impl Default for TuneOptions {
    fn default() -> TuneOptions {
        TuneOptions {
            k: None,
            learning_rate: 1.0,
            batch_size: 16_384,
            threads: 1,
            seed: 1,
            l2: 0.0,
        }
    }
}

/// Adam's exponential decay of the gradient's mean...
const BETA1: f64 = 0.9;
/// ...and of its square.
const BETA2: f64 = 0.999;
/// Keeps Adam's step finite where the gradient has always been 0.
const EPSILON: f64 = 1e-12;

/// The training and validation loss at one point of a run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Losses {
    /// Mean loss over the training set.
    pub training: f64,
    /// Mean loss over the validation set (0 if it is empty).
    pub validation: f64,
}

/// A tuning run over a training and a validation set (see the [module](self) documentation).
#[derive(Clone, Debug)]
pub struct Tuner {
    training: Dataset,
    validation: Dataset,
    start: Weights,
    selection: Selection,
    options: TuneOptions,
    k: f64,
    params: Vec<[f64; 2]>,
    /// Adam's running mean of the gradient, and of its square.
    mean: Vec<[f64; 2]>,
    square: Vec<[f64; 2]>,
    steps: i32,
    epochs: usize,
    /// How much the training data use each flat index ([`Dataset::usage`]).
    usage: Vec<f64>,
    /// The starting parameters.
    origin: Vec<[f64; 2]>,
    /// The epoch with the lowest validation loss so far (0: the start), its loss and
    /// parameters.
    best: (usize, f64, Vec<[f64; 2]>),
}

impl Tuner {
    /// A run from `start` over the two sets, changing only the weights in `selection`. The
    /// training set is shuffled (with `options.seed`); K is fitted now, on the training set,
    /// unless `options.k` gives it.
    #[must_use]
    pub fn new(
        training: Dataset,
        validation: Dataset,
        start: &Weights,
        selection: Selection,
        options: &TuneOptions,
    ) -> Tuner {
        let params = params_of(start);
        let threads = options.threads.max(1);
        let k = options
            .k
            .unwrap_or_else(|| loss::fit_k(&training, &params, threads));
        let usage = training.usage();
        let start_validation = loss::loss(&validation, &params, k, threads);
        Tuner {
            best: (0, start_validation, params.clone()),
            usage,
            origin: params.clone(),
            training: training.shuffled(options.seed),
            validation,
            start: start.clone(),
            selection,
            options: TuneOptions {
                threads,
                ..options.clone()
            },
            k,
            params,
            mean: vec![[0.0; 2]; Weights::COUNT],
            square: vec![[0.0; 2]; Weights::COUNT],
            steps: 0,
            epochs: 0,
        }
    }

    /// The sigmoid's constant K of this run.
    #[must_use]
    pub fn k(&self) -> f64 {
        self.k
    }

    /// Epochs run so far.
    #[must_use]
    pub fn epochs(&self) -> usize {
        self.epochs
    }

    /// The current parameters, flat `[mg, eg]` pairs, not rounded.
    #[must_use]
    pub fn params(&self) -> &[[f64; 2]] {
        &self.params
    }

    /// The training and validation loss of the current parameters.
    #[must_use]
    pub fn losses(&self) -> Losses {
        self.losses_of(&self.params)
    }

    /// The training and validation loss of `weights` (e.g. the starting ones, or the rounded
    /// result), with this run's K.
    #[must_use]
    pub fn losses_of_weights(&self, weights: &Weights) -> Losses {
        self.losses_of(&params_of(weights))
    }

    fn losses_of(&self, params: &[[f64; 2]]) -> Losses {
        let threads = self.options.threads;
        Losses {
            training: loss::loss(&self.training, params, self.k, threads),
            validation: loss::loss(&self.validation, params, self.k, threads),
        }
    }

    /// The selected weights that no training position has a coefficient for: the data say
    /// nothing about them and they keep their starting values.
    #[must_use]
    pub fn unused(&self) -> Vec<usize> {
        (0..Weights::COUNT)
            .filter(|&i| self.selection.contains(i) && self.usage[i] == 0.0)
            .collect()
    }

    /// One pass over the training set, a gradient step per mini-batch; returns the losses
    /// after it.
    ///
    /// Material and piece squares are one quantity split in two: a knight on e4 is worth
    /// `material.knight + psqt.knight.e4`, so adding 10 to the one and taking 10 from every
    /// knight square changes no evaluation (nor does adding 10 to every king square, as each
    /// side has one king). The loss cannot see such a shift, but Adam, which scales each
    /// coordinate's step by its own gradient's size, drifts along it, and squares the data
    /// hardly use drift further still. After each step, the mean of each piece kind's table,
    /// weighted by how much the data use each square ([`Dataset::usage`]), is therefore put
    /// back to its starting value and the difference moved into the material (when the
    /// material and all those squares are tuned): every evaluation of the data stays as
    /// fitted, and the split stays where the starting weights had it.
    pub fn epoch(&mut self) -> Losses {
        let n = self.training.len();
        let batch = match self.options.batch_size {
            0 => n.max(1),
            b => b,
        };
        let mut start = 0;
        while start < n {
            let end = (start + batch).min(n);
            let g = loss::gradient(
                &self.training,
                start..end,
                &self.params,
                self.k,
                self.options.threads,
            );
            self.step(&g.by_param);
            start = end;
        }
        self.epochs += 1;
        let losses = self.losses();
        if losses.validation < self.best.1 {
            self.best = (self.epochs, losses.validation, self.params.clone());
        }
        losses
    }

    /// The epoch whose parameters had the lowest validation loss so far (0 if none improved on
    /// the starting weights, or without a validation set), and that loss: where to stop before
    /// the fit learns the training set's noise.
    #[must_use]
    pub fn best_epoch(&self) -> (usize, f64) {
        (self.best.0, self.best.1)
    }

    /// The weights of [`Tuner::best_epoch`], rounded and clamped like [`Tuner::weights`].
    #[must_use]
    pub fn best_weights(&self) -> Weights {
        weights_from(&self.best.2, &self.start, &self.selection)
    }

    /// One Adam step on the selected parameters, then the clamp to each weight's range.
    fn step(&mut self, gradient: &[[f64; 2]]) {
        self.steps += 1;
        let correct1 = 1.0 - BETA1.powi(self.steps);
        let correct2 = 1.0 - BETA2.powi(self.steps);
        let slots = self
            .params
            .iter_mut()
            .zip(self.mean.iter_mut().zip(self.square.iter_mut()))
            .zip(gradient);
        for (index, ((param, (mean, square)), grad)) in slots.enumerate() {
            if !self.selection.contains(index) {
                continue;
            }
            let Some((spec, _)) = Weights::locate(index) else {
                continue;
            };
            let range = &spec.range;
            let (lo, hi) = (f64::from(*range.start()), f64::from(*range.end()));
            let origin = self.origin[index];
            for half in 0..2 {
                let g = grad[half] + 2.0 * self.options.l2 * (param[half] - origin[half]);
                mean[half] = BETA1 * mean[half] + (1.0 - BETA1) * g;
                square[half] = BETA2 * square[half] + (1.0 - BETA2) * g * g;
                let step = self.options.learning_rate * (mean[half] / correct1)
                    / ((square[half] / correct2).sqrt() + EPSILON);
                param[half] = (param[half] - step).clamp(lo, hi);
            }
        }
        self.hold_psqt_means();
    }

    /// Put each piece kind's mean piece-square value (weighted by the data's use of each
    /// square) back to its starting value, the difference into the material: see
    /// [`Tuner::epoch`].
    fn hold_psqt_means(&mut self) {
        for role in Role::ALL {
            let r = role_index(role);
            let squares: Vec<usize> = (0..64)
                .map(|sq| PSQT.at(r * 64 + sq).index())
                .filter(|&i| self.usage[i] > 0.0)
                .collect();
            let material = MATERIAL.at(r).index();
            let free = role == Role::King || self.selection.contains(material);
            if squares.is_empty() || !free || !squares.iter().all(|&i| self.selection.contains(i)) {
                continue;
            }
            let range = &PSQT.spec().range;
            let (lo, hi) = (f64::from(*range.start()), f64::from(*range.end()));
            for half in 0..2 {
                let total: f64 = squares.iter().map(|&i| self.usage[i]).sum();
                let shift = squares
                    .iter()
                    .map(|&i| (self.params[i][half] - self.origin[i][half]) * self.usage[i])
                    .sum::<f64>()
                    / total;
                for &i in &squares {
                    self.params[i][half] = (self.params[i][half] - shift).clamp(lo, hi);
                }
                if role != Role::King {
                    let range = &MATERIAL.spec().range;
                    let (lo, hi) = (f64::from(*range.start()), f64::from(*range.end()));
                    let m = &mut self.params[material][half];
                    *m = (*m + shift).clamp(lo, hi);
                }
            }
        }
    }

    /// The weights of the run so far: the starting weights with the selected ones replaced by
    /// the current parameters, rounded and clamped ([`weights_from`]).
    #[must_use]
    pub fn weights(&self) -> Weights {
        weights_from(&self.params, &self.start, &self.selection)
    }
}
