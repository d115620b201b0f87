//! The training data in the form the tuner fits: every position converted once into its
//! coefficients ([`Coefficients::all`]), its phase and its target, in compact flat arrays, and
//! split into a training and a validation set by a hash of a group key (the game, when known).

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Position};

use super::dual::Aggregate;
use crate::eval::Evaluator;
use crate::eval::base::TEMPO;
use crate::eval::combine::{Number, Pair, Parts, combine};
use crate::eval::score::MAX_PHASE;
use crate::eval::trace::Coefficients;
use crate::eval::weights::Weights;

/// Labelled positions as linear forms in the weights: position `i` is the evaluation
/// `Σ count × (mg × phase + eg × (24 − phase)) / 24` over its terms (White's point of view, in
/// real numbers: see [`Coefficients::white_real`]) and a target, White's expected score.
///
/// About 4 bytes per term and 20 per position: a million middlegame positions take some
/// 200 MB.
///
/// ```
/// use minkowski::eval::{Evaluator, base::TEMPO};
/// use minkowski::tune::{Dataset, params_of};
/// let (e, pos) = (Evaluator::default(), shakmaty::Chess::default());
/// let mut data = Dataset::default();
/// data.push(&e.coefficients(&pos), 0.5);
/// assert_eq!(data.len(), 1);
/// // The start position: level, plus White's tempo (its middlegame half at phase 24).
/// assert_eq!(data.white_real(0, &params_of(e.weights())), f64::from(e.weights()[TEMPO].mg()));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// Position `i`'s terms are `terms[starts[i]..starts[i + 1]]`.
    starts: Vec<usize>,
    /// `(flat index, count)` of every position, one after the other.
    terms: Vec<(u16, i16)>,
    /// King-danger terms: White's attack of position `i` is
    /// `danger[danger_starts[2i]..danger_starts[2i + 1]]`, Black's runs on to
    /// `danger_starts[2i + 2]` ([`Coefficients::danger`]).
    danger_starts: Vec<usize>,
    /// `(flat index, count)` of every position's king-danger units, one after the other.
    danger: Vec<(u16, i16)>,
    /// Position `i`'s complexity terms are
    /// `complexity[complexity_starts[i]..complexity_starts[i + 1]]`
    /// ([`Coefficients::complexity`]).
    complexity_starts: Vec<usize>,
    /// `(flat index, count)` of every position's complexity, one after the other.
    complexity: Vec<(u16, i16)>,
    /// The endgame scale factors of each position ([`Coefficients::scale`]).
    scale: Vec<Option<[u8; 2]>>,
    /// The phase of each position, 0 ..= [`MAX_PHASE`].
    phase: Vec<u8>,
    /// White's expected score, 0 ..= 1: the game result, or any soft label.
    target: Vec<f32>,
}

impl Dataset {
    /// How many positions it holds.
    #[must_use]
    pub fn len(&self) -> usize {
        self.phase.len()
    }

    /// Whether it holds none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.phase.is_empty()
    }

    /// How many `(index, count)` terms all positions have together.
    #[must_use]
    pub fn term_count(&self) -> usize {
        self.terms.len()
    }

    /// Add a position by its coefficients and target (White's expected score, clamped to
    /// 0 ..= 1). The coefficients are taken as they are: see [`Builder`] for what to leave
    /// out.
    pub fn push(&mut self, c: &Coefficients, target: f64) {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        for (index, count) in c.all() {
            // Flat indices fit u16 (checked at compile time by the trace); counts are bounded
            // by the board.
            if let (Ok(index), Ok(count)) = (u16::try_from(index), i16::try_from(count)) {
                self.terms.push((index, count));
            }
        }
        self.starts.push(self.terms.len());
        if self.danger_starts.is_empty() {
            self.danger_starts.push(0);
        }
        for side in &c.danger {
            self.danger.extend_from_slice(side);
            self.danger_starts.push(self.danger.len());
        }
        if self.complexity_starts.is_empty() {
            self.complexity_starts.push(0);
        }
        self.complexity.extend_from_slice(&c.complexity);
        self.complexity_starts.push(self.complexity.len());
        self.scale.push(c.scale);
        let phase = c.phase.clamp(0, MAX_PHASE);
        self.phase.push(u8::try_from(phase).unwrap_or(0));
        self.target.push(target.clamp(0.0, 1.0) as f32);
    }

    /// The terms of position `i`.
    #[must_use]
    pub fn terms(&self, i: usize) -> &[(u16, i16)] {
        &self.terms[self.starts[i]..self.starts[i + 1]]
    }

    /// The king-danger terms of position `i` by attacking side (`[white, black]`).
    #[must_use]
    pub fn danger(&self, i: usize) -> [&[(u16, i16)]; 2] {
        let s = &self.danger_starts[2 * i..2 * i + 3];
        [&self.danger[s[0]..s[1]], &self.danger[s[1]..s[2]]]
    }

    /// The complexity terms of position `i`.
    #[must_use]
    pub fn complexity(&self, i: usize) -> &[(u16, i16)] {
        &self.complexity[self.complexity_starts[i]..self.complexity_starts[i + 1]]
    }

    /// The middlegame share of position `i`: `phase / 24`.
    #[must_use]
    pub fn mg_share(&self, i: usize) -> f64 {
        f64::from(self.phase[i]) / f64::from(MAX_PHASE)
    }

    /// The target of position `i`.
    #[must_use]
    pub fn target(&self, i: usize) -> f64 {
        f64::from(self.target[i])
    }

    /// The evaluation of position `i` from White's point of view with the flat parameters
    /// `params` (see [`super::params_of`]), in real numbers: what
    /// [`Coefficients::white_real`] gives for the same position.
    #[must_use]
    pub fn white_real(&self, i: usize, params: &[[f64; 2]]) -> f64 {
        combine(&self.parts(i, params, |x, _| x)).white
    }

    /// The parts of position `i`'s evaluation ([`Parts`], what
    /// [`combine`](crate::eval::combine::combine) reads) with the flat parameters `params`:
    /// each [`Aggregate`] summed in real numbers, then made a number of type `N` by
    /// `aggregate(sum, which)` (the tuner makes each a [`super::dual::Dual`] variable, so that
    /// the combine gives the evaluation's derivative by each).
    ///
    /// ```
    /// use minkowski::eval::{Evaluator, combine::combine};
    /// use minkowski::tune::{Dataset, dual::{Aggregate, Dual}, params_of};
    /// let (e, pos) = (Evaluator::default(), shakmaty::Chess::default());
    /// let mut data = Dataset::default();
    /// data.push(&e.coefficients(&pos), 0.5);
    /// let value = combine(&data.parts(0, &params_of(e.weights()), Dual::variable)).white;
    /// // Phase 24: the evaluation moves with the middlegame halves only.
    /// assert_eq!((value.by(Aggregate::TempoMg), value.by(Aggregate::TempoEg)), (1.0, 0.0));
    /// ```
    pub fn parts<N: Number>(
        &self,
        i: usize,
        params: &[[f64; 2]],
        aggregate: impl Fn(f64, Aggregate) -> N,
    ) -> Parts<N> {
        let sum = |terms: &[(u16, i16)]| {
            terms.iter().fold([0.0, 0.0], |[m, e], &(index, count)| {
                let [pm, pe] = params.get(usize::from(index)).copied().unwrap_or([0.0; 2]);
                [m + f64::from(count) * pm, e + f64::from(count) * pe]
            })
        };
        let tempo_index = TEMPO.at(0).index();
        let (mut linear, mut tempo) = ([0.0; 2], [0.0; 2]);
        for &(index, count) in self.terms(i) {
            let [m, e] = params.get(usize::from(index)).copied().unwrap_or([0.0; 2]);
            // The tempo bonus is blended apart, after the drawishness stage.
            let to = if usize::from(index) == tempo_index {
                &mut tempo
            } else {
                &mut linear
            };
            to[0] += f64::from(count) * m;
            to[1] += f64::from(count) * e;
        }
        let pair = |[mg, eg]: [f64; 2], [a, b]: [Aggregate; 2]| Pair {
            mg: aggregate(mg, a),
            eg: aggregate(eg, b),
        };
        let [white, black] = self.danger(i);
        Parts {
            linear: pair(linear, [Aggregate::LinearMg, Aggregate::LinearEg]),
            danger: [
                pair(sum(white), Aggregate::danger(0)),
                pair(sum(black), Aggregate::danger(1)),
            ],
            complexity: aggregate(sum(self.complexity(i))[1], Aggregate::Complexity),
            scale: self.scale[i].map(|factors| factors.map(i32::from)),
            replaced: None,
            tempo: pair(tempo, [Aggregate::TempoMg, Aggregate::TempoEg]),
            phase: i32::from(self.phase[i]),
        }
    }

    /// How much the data use each flat index: the sum of its coefficients' sizes over all
    /// positions (0: the data say nothing about that weight).
    #[must_use]
    pub fn usage(&self) -> Vec<f64> {
        let mut usage = vec![0.0; Weights::COUNT];
        for &(index, count) in self
            .terms
            .iter()
            .chain(&self.danger)
            .chain(&self.complexity)
        {
            if let Some(u) = usage.get_mut(usize::from(index)) {
                *u += f64::from(count.unsigned_abs());
            }
        }
        usage
    }

    /// Append the positions of `other`, in order.
    pub fn append(&mut self, other: Dataset) {
        if other.is_empty() {
            return;
        }
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        let base = self.terms.len();
        self.starts
            .extend(other.starts.iter().skip(1).map(|&s| base + s));
        self.terms.extend(other.terms);
        if self.danger_starts.is_empty() {
            self.danger_starts.push(0);
        }
        let base = self.danger.len();
        self.danger_starts
            .extend(other.danger_starts.iter().skip(1).map(|&s| base + s));
        self.danger.extend(other.danger);
        if self.complexity_starts.is_empty() {
            self.complexity_starts.push(0);
        }
        let base = self.complexity.len();
        self.complexity_starts
            .extend(other.complexity_starts.iter().skip(1).map(|&s| base + s));
        self.complexity.extend(other.complexity);
        self.scale.extend(other.scale);
        self.phase.extend(other.phase);
        self.target.extend(other.target);
    }

    /// The same positions in an order drawn from `seed` (the same seed, the same order): data
    /// files hold games in order, and a mini-batch of one game's positions would pull the
    /// weights one way and the next batch another.
    #[must_use]
    pub fn shuffled(&self, seed: u64) -> Dataset {
        let mut order: Vec<usize> = (0..self.len()).collect();
        shuffle(&mut order, seed);
        self.subset(&order)
    }

    /// At most an even share of the positions at each phase (the set's size over the 25 phases
    /// 0 ..= 24, rounded up), the ones kept drawn from `seed`, in their original order.
    ///
    /// Self-play data are mostly openings and early middlegames (a fifth of them at the full
    /// phase 24), so a fit on them spends its steps where the evaluation changes least and
    /// learns the endgame halves of the weights from few positions; the phases that fall short
    /// of the share keep every position.
    ///
    /// ```
    /// use minkowski::eval::Evaluator;
    /// use minkowski::tune::Dataset;
    /// let mut data = Dataset::default();
    /// let e = Evaluator::default();
    /// for _ in 0..30 {
    ///     data.push(&e.coefficients(&shakmaty::Chess::default()), 0.5); // phase 24
    /// }
    /// let bare: shakmaty::Chess = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    ///     .parse::<shakmaty::fen::Fen>().unwrap()
    ///     .into_position(shakmaty::CastlingMode::Standard).unwrap();
    /// data.push(&e.coefficients(&bare), 1.0); // phase 0
    /// let balanced = data.phase_balanced(7);
    /// // 31 positions over 25 phases: at most 2 a phase.
    /// assert_eq!(balanced.len(), 3);
    /// assert_eq!(balanced.phase_counts()[0], 1);
    /// ```
    #[must_use]
    pub fn phase_balanced(&self, seed: u64) -> Dataset {
        let phases = PHASES;
        let share = self.len().div_ceil(phases);
        let mut order: Vec<usize> = (0..self.len()).collect();
        shuffle(&mut order, seed);
        let mut taken = vec![0; phases];
        let mut kept: Vec<usize> = order
            .into_iter()
            .filter(|&i| {
                let t = &mut taken[usize::from(self.phase[i]).min(phases - 1)];
                *t += 1;
                *t <= share
            })
            .collect();
        kept.sort_unstable();
        self.subset(&kept)
    }

    /// How many positions there are at each phase, 0 ..= 24.
    #[must_use]
    pub fn phase_counts(&self) -> Vec<usize> {
        let mut counts = vec![0; PHASES];
        for &p in &self.phase {
            if let Some(c) = counts.get_mut(usize::from(p)) {
                *c += 1;
            }
        }
        counts
    }

    /// How many positions each flat index enters (any channel, any count other than 0): the
    /// number of examples the fit has for that weight. A weight with none keeps its value;
    /// one with a few hundred is fitted to those few.
    #[must_use]
    pub fn coverage(&self) -> Vec<usize> {
        let mut positions = vec![0; Weights::COUNT];
        let mut seen = vec![usize::MAX; Weights::COUNT];
        for i in 0..self.len() {
            let [white, black] = self.danger(i);
            for &(index, count) in self
                .terms(i)
                .iter()
                .chain(white)
                .chain(black)
                .chain(self.complexity(i))
            {
                let index = usize::from(index);
                if count != 0 && index < positions.len() && seen[index] != i {
                    seen[index] = i;
                    positions[index] += 1;
                }
            }
        }
        positions
    }

    /// The positions `order` names, in that order.
    fn subset(&self, order: &[usize]) -> Dataset {
        let mut out = Dataset {
            starts: Vec::with_capacity(order.len() + 1),
            terms: Vec::with_capacity(self.terms.len()),
            danger_starts: Vec::with_capacity(2 * order.len() + 1),
            danger: Vec::with_capacity(self.danger.len()),
            complexity_starts: Vec::with_capacity(order.len() + 1),
            complexity: Vec::with_capacity(self.complexity.len()),
            scale: Vec::with_capacity(order.len()),
            phase: Vec::with_capacity(order.len()),
            target: Vec::with_capacity(order.len()),
        };
        out.starts.push(0);
        out.danger_starts.push(0);
        out.complexity_starts.push(0);
        for &i in order {
            out.terms.extend_from_slice(self.terms(i));
            out.starts.push(out.terms.len());
            for side in self.danger(i) {
                out.danger.extend_from_slice(side);
                out.danger_starts.push(out.danger.len());
            }
            out.complexity.extend_from_slice(self.complexity(i));
            out.complexity_starts.push(out.complexity.len());
            out.scale.push(self.scale[i]);
            out.phase.push(self.phase[i]);
            out.target.push(self.target[i]);
        }
        out
    }
}

/// The phases a position can have, 0 ..= [`MAX_PHASE`].
const PHASES: usize = MAX_PHASE as usize + 1;

/// Fisher-Yates over `order` with [`splitmix`] from `seed`.
fn shuffle(order: &mut [usize], seed: u64) {
    let mut state = seed;
    for i in (1..order.len()).rev() {
        let j = (splitmix(&mut state) % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
}

/// SplitMix64: a small, well-mixed generator for the shuffle and the split.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Where [`Builder::add`] put a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kept {
    /// In the training set.
    Training,
    /// In the validation set.
    Validation,
    /// Left out: an endgame verdict replaces its evaluation (see [`Builder`]).
    Dropped,
}

/// Converts labelled positions into a training and a validation [`Dataset`].
///
/// **Positions whose evaluation an endgame verdict replaces are dropped** (counted in
/// [`Builder::dropped`]): a draw verdict is the constant 0, and a win verdict adds
/// the `known_win` weight (10 000) so that the search converts: at that size `sigmoid` is flat,
/// the position says nothing about the weights, and Adam, which scales steps by the gradient's
/// own size, would push the verdict's weights (mop-up, KBNK, KPK) by full steps on the strength
/// of rounding noise. Weights that only such verdicts use therefore keep their values. Verdicts
/// that adjust the evaluation (knight against passers) are linear and kept.
///
/// The split is by a hash of a group key, so it is the same on every run and does not depend
/// on the order or the number of threads; positions with the same key land on the same side.
/// [`Builder::add`] keys by the position itself (Zobrist): a position that occurs many times
/// (an opening) is on one side only. [`Builder::add_grouped`] takes the key from the caller:
/// the positions of one game share its result and are close to one another, so a validation
/// set that holds some positions of a game whose other positions are trained on measures
/// memory, not evaluation; keyed by game, it holds whole games.
///
/// ```
/// use minkowski::eval::Evaluator;
/// use minkowski::tune::{Builder, Kept};
/// use shakmaty::{CastlingMode, Chess, fen::Fen};
/// let krk: Chess = "8/8/8/4k3/8/8/8/KR6 w - - 0 1".parse::<Fen>().unwrap()
///     .into_position(CastlingMode::Standard).unwrap();
/// let mut b = Builder::new(Evaluator::default(), 10.0);
/// assert_eq!(b.add(&krk, 1.0), Kept::Dropped);
/// assert_ne!(b.add(&Chess::default(), 0.5), Kept::Dropped);
/// assert_eq!((b.dropped, b.training.len() + b.validation.len()), (1, 1));
/// ```
#[derive(Clone, Debug)]
pub struct Builder {
    evaluator: Evaluator,
    /// Positions per 10 000 that go to the validation set.
    validation_share: u64,
    /// The training positions so far.
    pub training: Dataset,
    /// The validation positions so far.
    pub validation: Dataset,
    /// Positions left out so far.
    pub dropped: usize,
}

/// The hash split's resolution: validation shares are counted in parts per this.
const SPLIT_PARTS: u64 = 10_000;

impl Builder {
    /// A builder whose coefficients come from `evaluator` (they do not depend on its weights,
    /// only on the position), putting `validation_percent` (0 ..= 100) of the positions in the
    /// validation set.
    #[must_use]
    pub fn new(evaluator: Evaluator, validation_percent: f64) -> Builder {
        let share = (validation_percent.clamp(0.0, 100.0) / 100.0 * SPLIT_PARTS as f64).round();
        Builder {
            evaluator,
            validation_share: share as u64,
            training: Dataset::default(),
            validation: Dataset::default(),
            dropped: 0,
        }
    }

    /// An empty builder with the same evaluator and split, for another thread's share of the
    /// data ([`Builder::merge`] puts them together).
    #[must_use]
    pub fn fork(&self) -> Builder {
        Builder {
            evaluator: self.evaluator.clone(),
            validation_share: self.validation_share,
            training: Dataset::default(),
            validation: Dataset::default(),
            dropped: 0,
        }
    }

    /// Convert `pos` with its target (White's expected score: 1, ½, 0 or in between) and put
    /// it where it belongs, keyed by the position itself.
    pub fn add(&mut self, pos: &Chess, target: f64) -> Kept {
        let key = pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
        self.add_grouped(pos, target, key)
    }

    /// [`Builder::add`], with the split keyed by `group` (e.g. a number per game): positions of
    /// one group are all on one side.
    ///
    /// ```
    /// use minkowski::eval::Evaluator;
    /// use minkowski::tune::Builder;
    /// use shakmaty::{Chess, Position};
    /// let mut b = Builder::new(Evaluator::default(), 50.0);
    /// for (game, m) in Chess::default().legal_moves().into_iter().enumerate() {
    ///     let after = Chess::default().play(m).unwrap();
    ///     let (one, two) = (b.add_grouped(&Chess::default(), 0.5, game as u64),
    ///                       b.add_grouped(&after, 0.5, game as u64));
    ///     assert_eq!(one, two);
    /// }
    /// assert!(b.training.len() > 0 && b.validation.len() > 0);
    /// ```
    pub fn add_grouped(&mut self, pos: &Chess, target: f64, group: u64) -> Kept {
        let c = self.evaluator.coefficients(pos);
        if c.replaced() {
            self.dropped += 1;
            return Kept::Dropped;
        }
        let mut state = group;
        if splitmix(&mut state) % SPLIT_PARTS < self.validation_share {
            self.validation.push(&c, target);
            Kept::Validation
        } else {
            self.training.push(&c, target);
            Kept::Training
        }
    }

    /// Append what `other` holds (after this builder's own positions).
    pub fn merge(&mut self, other: Builder) {
        self.training.append(other.training);
        self.validation.append(other.validation);
        self.dropped += other.dropped;
    }
}
