//! The evaluation as coefficients of the weights: for one position, how many times each weight
//! enters the score, and the phase that blends them. With the same integer rounding as
//! [`Evaluator::evaluate`](crate::eval::Evaluator::evaluate), [`Coefficients::evaluate`] gives
//! the evaluation back from any [`Weights`]: what a tuner needs to fit them without evaluating.

use shakmaty::Color;

use crate::eval::base::TEMPO;
use crate::eval::combine::{EVAL_LIMIT, Number, Pair, Parts, combine};
use crate::eval::score::S;
use crate::eval::tracer::{Tracer, Verdict};
use crate::eval::weights::channel::{self, Complexity, Danger, Linear};
use crate::eval::weights::{Slot, Weights};
use crate::value::Value;

/// Index of `color` in the `[white, black]` pairs of the traces.
pub(in crate::eval) const fn side(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// The evaluation of one position as a linear form in the weights.
///
/// Every term of the evaluation is a weight (an `S(mg, eg)` pair, named by its flat index, see
/// [`Weights::COUNT`]) times a count that depends on the position only. Both halves of a pair
/// share the count. With `sum = Σ count × weight` over [`Coefficients::linear`] (White's point of
/// view), the evaluation from the side to move's point of view is exactly
///
/// ```text
/// white = sum.taper(phase) + tempo × weights.tempo.taper(phase)
/// value = clamp(±white, -EVAL_LIMIT, EVAL_LIMIT)   (+ for White to move)
/// ```
///
/// where [`S::taper`] is `(mg × phase + eg × (24 − phase)) / 24`, rounded towards zero. What is
/// not linear in the weights is kept apart: the tempo bonus is blended on its own (its own
/// rounding); an endgame verdict that replaces the evaluation (a draw, a mop-up) leaves in
/// `linear` only the verdict's own weights (signed for White) and sets `tempo` to 0; the final
/// clamp. Which endgame evaluator answered, and how, is in [`Coefficients::endgame`]. A tuner
/// working in real numbers can drop the rounding: [`Coefficients::all`] and
/// [`Coefficients::white_real`].
///
/// ```
/// use minkowski_core::eval::Evaluator;
/// use minkowski_core::eval::{base::MATERIAL, weights::Weights};
/// use shakmaty::{Chess, Position, uci::UciMove};
/// let pos = Chess::default();
/// let m = "e2e4".parse::<UciMove>().unwrap().to_move(&pos).unwrap();
/// let pos = pos.play(m).unwrap();
/// let e = Evaluator::default();
/// let c = e.coefficients(&pos);
/// assert_eq!(c.evaluate(e.weights()), e.evaluate(&pos));
/// // White's pawn left e2 for e4; Black's pawn on e7 (e2 from Black's side) still counts -1.
/// assert_eq!(c.count(Weights::index_of("psqt.pawn.e4").unwrap()), 1);
/// assert_eq!(c.count(Weights::index_of("psqt.pawn.e2").unwrap()), -1);
/// assert_eq!(c.count(MATERIAL.at(0).index()), 0); // eight pawns each
/// assert_eq!((c.phase, c.tempo), (24, -1)); // Black to move
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Coefficients {
    /// `(flat index, White's count minus Black's)`, by increasing index, counts other than 0
    /// only. Compact, as a tuner keeps millions of these.
    pub linear: Vec<(u16, i16)>,
    /// [`TEMPO`](crate::eval::base::TEMPO)'s coefficient: 1 with White to move, -1 with Black, 0 when an
    /// endgame verdict replaced the evaluation.
    pub tempo: i8,
    /// King-danger unit counts by attacking side (`[white, black]`), as `(flat index, count)`
    /// by increasing index: each side's units, `Σ count × weight`, go through
    /// [`danger_curve`](crate::eval::combine::danger_curve) before they join the sum. Empty when a verdict replaced the evaluation.
    pub danger: [Vec<(u16, i16)>; 2],
    /// Complexity counts, as `(flat index, count)` by increasing index: `Σ count × weight.eg`
    /// moves the endgame half of the sum ([`scale_endgame`](crate::eval::combine::scale_endgame)). Empty when an endgame evaluator
    /// answered.
    pub complexity: Vec<(u16, i16)>,
    /// The endgame scale factors `[if White is ahead, if Black is]`, out of
    /// [`SCALE_NORMAL`](crate::eval::scale::SCALE_NORMAL), applied with the complexity to the
    /// endgame half of the sum; `None` when an endgame evaluator answered (nothing is scaled).
    pub scale: Option<[u8; 2]>,
    /// The game phase, 0 ..= [`MAX_PHASE`](crate::eval::score::MAX_PHASE).
    pub phase: i32,
    /// The side to move: the evaluation is White's value for White, its negation for Black.
    pub side_to_move: Color,
    /// The endgame evaluator used, its strong side and its verdict (with the default weights'
    /// value: the verdict's weights are in `linear`).
    pub endgame: Option<(&'static str, Color, Verdict)>,
}

impl Coefficients {
    /// The coefficient of flat index `index` in [`Coefficients::linear`] (0 if absent).
    ///
    /// ```
    /// use minkowski_core::eval::{Evaluator, weights::Weights};
    /// use shakmaty::{CastlingMode, Chess, fen::Fen};
    /// // 1. Nf3: the mobility area takes in own pawns that can move (not the king): the knight on
    /// // f3 reaches d2 d4 e5 g5 h4 g1 h2, the one on b1 a3 c3 d2, Black's three each.
    /// let pos: Chess = "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1"
    ///     .parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
    /// let c = Evaluator::default().coefficients(&pos);
    /// // Mobility is a table by count: White's 7 and 3, Black's 3 and 3.
    /// assert_eq!(c.count(Weights::index_of("mobility_knight.n7").unwrap()), 1);
    /// assert_eq!(c.count(Weights::index_of("mobility_knight.n3").unwrap()), 1 - 2);
    /// assert_eq!(c.count(Weights::index_of("psqt.knight.g1").unwrap()), -1); // Black's g8
    /// assert_eq!(c.count(Weights::index_of("psqt.knight.f3").unwrap()), 1);
    /// ```
    #[must_use]
    pub fn count(&self, index: usize) -> i32 {
        self.linear
            .binary_search_by_key(&index, |&(i, _)| usize::from(i))
            .map_or(0, |at| i32::from(self.linear[at].1))
    }

    /// Whether an endgame verdict replaced the evaluation.
    ///
    /// ```
    /// use minkowski_core::eval::Evaluator;
    /// use shakmaty::{Chess, CastlingMode, fen::Fen};
    /// let krk: Chess = "8/8/8/4k3/8/8/8/KR6 w - - 0 1".parse::<Fen>().unwrap()
    ///     .into_position(CastlingMode::Standard).unwrap();
    /// assert!(Evaluator::default().coefficients(&krk).replaced());
    /// assert!(!Evaluator::default().coefficients(&Chess::default()).replaced());
    /// ```
    #[must_use]
    pub fn replaced(&self) -> bool {
        matches!(self.endgame, Some((_, _, Verdict::Replace(_))))
    }

    /// The parts of the evaluation ([`Parts`], the input of [`combine`]) with the weights given
    /// by `weight` (flat index to pair), in any [`Number`] type.
    ///
    /// ```
    /// use minkowski_core::eval::{Evaluator, combine::{Pair, combine}};
    /// let (e, pos) = (Evaluator::default(), shakmaty::Chess::default());
    /// let c = e.coefficients(&pos);
    /// let parts = c.parts(|i| e.weights().slot(i).map_or(Pair::zero(), Pair::from));
    /// assert_eq!(combine(&parts).white, e.evaluate(&pos).0);
    /// ```
    pub fn parts<N: Number>(&self, weight: impl Fn(usize) -> Pair<N>) -> Parts<N> {
        let weighted = |terms: &[(u16, i16)]| {
            terms.iter().fold(Pair::zero(), |sum, &(index, count)| {
                sum + weight(usize::from(index)).times(i32::from(count))
            })
        };
        let linear = weighted(&self.linear);
        let replaced = self.replaced();
        Parts {
            linear: if replaced { Pair::zero() } else { linear },
            danger: [weighted(&self.danger[0]), weighted(&self.danger[1])],
            complexity: weighted(&self.complexity).eg,
            scale: self.scale.map(|factors| factors.map(i32::from)),
            replaced: replaced.then_some(linear),
            tempo: weight(TEMPO.at(0).index()).times(i32::from(self.tempo)),
            phase: self.phase,
        }
    }

    /// `Σ count × weight` over [`Coefficients::linear`], plus each side's king danger through
    /// its curve, the endgame half then moved by the complexity and scaled
    /// ([`crate::eval::combine::scale_endgame`]): White's point of view, not blended.
    ///
    /// ```
    /// use minkowski_core::eval::{Evaluator, score::S};
    /// let e = Evaluator::default();
    /// assert_eq!(e.coefficients(&shakmaty::Chess::default()).sum(e.weights()), S::ZERO);
    /// ```
    #[must_use]
    pub fn sum(&self, w: &Weights) -> S {
        combine(&self.parts(|index| weight_pair(w, index)))
            .sum
            .into()
    }

    /// The evaluation from White's point of view before the clamp: the blended sum plus the
    /// blended tempo bonus.
    ///
    /// ```
    /// use minkowski_core::eval::{Evaluator, base::TEMPO};
    /// let e = Evaluator::default();
    /// // The start position: level, plus White's tempo at phase 24 (its middlegame half).
    /// let start = e.coefficients(&shakmaty::Chess::default());
    /// assert_eq!(start.white_value(e.weights()), e.weights()[TEMPO].mg());
    /// ```
    #[must_use]
    pub fn white_value(&self, w: &Weights) -> i32 {
        combine(&self.parts(|index| weight_pair(w, index))).white
    }

    /// Every coefficient as `(flat index, count)`, the tempo weight's included (last, when
    /// not 0): the linear form a tuner fits, from White's point of view.
    ///
    /// ```
    /// use minkowski_core::eval::{Evaluator, base::TEMPO};
    /// let c = Evaluator::default().coefficients(&shakmaty::Chess::default());
    /// let all: Vec<(usize, i32)> = c.all().collect();
    /// assert_eq!(all.last(), Some(&(TEMPO.at(0).index(), 1)));
    /// assert_eq!(all.len(), c.linear.len() + 1);
    /// ```
    pub fn all(&self) -> impl Iterator<Item = (usize, i32)> + '_ {
        let tempo = (self.tempo != 0).then(|| (TEMPO.at(0).index(), i32::from(self.tempo)));
        self.linear
            .iter()
            .map(|&(index, count)| (usize::from(index), i32::from(count)))
            .chain(tempo)
    }

    /// The evaluation from White's point of view in real numbers, for weights given as flat
    /// `[mg, eg]` pairs (a tuner's parameters, indexed like [`Weights::slot`]): `Σ count × (mg ×
    /// phase + eg × (24 − phase)) / 24` over [`Coefficients::all`], without rounding or clamp.
    /// Its derivative by a weight's mg half is `count × phase / 24`, by its eg half
    /// `count × (24 − phase) / 24`.
    ///
    /// ```
    /// use minkowski_core::eval::{Evaluator, weights::Weights};
    /// use shakmaty::{CastlingMode, Chess, fen::Fen};
    /// let pos: Chess = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    ///     .parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
    /// let e = Evaluator::default();
    /// let c = e.coefficients(&pos);
    /// let params: Vec<[f64; 2]> = (0..Weights::COUNT)
    ///     .map(|i| e.weights().slot(i).map_or([0.0; 2], |s| [s.mg().into(), s.eg().into()]))
    ///     .collect();
    /// // Two roundings apart from the engine's value, at most.
    /// assert!((c.white_real(&params) - f64::from(c.white_value(e.weights()))).abs() < 2.0);
    /// ```
    #[must_use]
    pub fn white_real(&self, params: &[[f64; 2]]) -> f64 {
        let weight = |index: usize| {
            params
                .get(index)
                .map_or(Pair::zero(), |&[mg, eg]| Pair { mg, eg })
        };
        combine(&self.parts(weight)).white
    }

    /// The evaluation these coefficients give with the weights `w`: exactly
    /// [`Evaluator::evaluate`](crate::eval::Evaluator::evaluate) with `w`, without evaluating.
    ///
    /// ```
    /// use minkowski_core::eval::{Evaluator, score::S, weights::Weights};
    /// let pos = shakmaty::Chess::default();
    /// let c = Evaluator::default().coefficients(&pos);
    /// let mut w = Weights::default();
    /// w.set("tempo", S(30, 10)).unwrap();
    /// assert_eq!(c.evaluate(&w), Evaluator::new(w).evaluate(&pos));
    /// ```
    #[must_use]
    pub fn evaluate(&self, w: &Weights) -> Value {
        let white = self.white_value(w);
        let value = if self.side_to_move == Color::White {
            white
        } else {
            -white
        };
        Value(value.clamp(-EVAL_LIMIT, EVAL_LIMIT))
    }
}

/// The counts other than 0 of a dense vector, compact.
fn sparse(dense: &[i32]) -> Vec<(u16, i16)> {
    dense
        .iter()
        .enumerate()
        .filter_map(|(index, &count)| {
            let count = i16::try_from(count).ok().filter(|&c| c != 0)?;
            Some((u16::try_from(index).ok()?, count))
        })
        .collect()
}

/// Weight `index` of `w` as a [`Pair`] (zero past the end).
fn weight_pair(w: &Weights, index: usize) -> Pair<i32> {
    w.slot(index).map_or(Pair::zero(), Pair::from)
}

/// The tracer behind [`Coefficients`] and [`super::EvalTrace`]: every weight's count per
/// colour, dense over the flat index.
#[derive(Clone, Debug)]
pub(in crate::eval) struct CountingTracer {
    /// Main-sum counts per colour (`[white, black]`).
    pub(in crate::eval) main: [Vec<i32>; 2],
    /// King-danger unit counts per attacking colour (`[white, black]`).
    pub(in crate::eval) danger: [Vec<i32>; 2],
    /// The endgame verdict's counts, from the strong side's point of view.
    pub(super) verdict: Vec<i32>,
    /// Complexity counts.
    pub(super) complexity: Vec<i32>,
    /// The endgame scale factors, `[if White is ahead, if Black is]`.
    pub(super) scale: Option<[i32; 2]>,
    /// Who got the tempo bonus.
    pub(super) tempo: Option<Color>,
    /// The game phase.
    pub(super) phase: i32,
    /// The endgame evaluator, strong side and verdict.
    pub(super) endgame: Option<(&'static str, Color, Verdict)>,
}

impl Default for CountingTracer {
    fn default() -> CountingTracer {
        CountingTracer {
            main: [vec![0; Weights::COUNT], vec![0; Weights::COUNT]],
            danger: [vec![0; Weights::COUNT], vec![0; Weights::COUNT]],
            verdict: vec![0; Weights::COUNT],
            complexity: vec![0; Weights::COUNT],
            scale: None,
            tempo: None,
            phase: 0,
            endgame: None,
        }
    }
}

impl Tracer for CountingTracer {
    fn weight(&mut self, color: Color, slot: Slot<Linear>, count: i32) {
        self.main[side(color)][slot.index()] += count;
    }
    fn danger(&mut self, color: Color, slot: Slot<Danger>, count: i32) {
        self.danger[side(color)][slot.index()] += count;
    }
    fn tempo(&mut self, color: Color) {
        self.tempo = Some(color);
    }
    fn complexity(&mut self, slot: Slot<Complexity>, count: i32) {
        self.complexity[slot.index()] += count;
    }
    fn scale(&mut self, factors: [i32; 2]) {
        self.scale = Some(factors);
    }
    fn verdict_weight(&mut self, slot: Slot<channel::Verdict>, count: i32) {
        self.verdict[slot.index()] += count;
    }
    fn phase(&mut self, phase: i32) {
        self.phase = phase;
    }
    fn endgame(&mut self, code: &'static str, strong: Color, verdict: Verdict) {
        self.endgame = Some((code, strong, verdict));
    }
}

impl CountingTracer {
    /// The net, compact coefficients of the evaluation traced, with `side_to_move` to move.
    pub(in crate::eval) fn coefficients(&self, side_to_move: Color) -> Coefficients {
        let sign = |color: Color| if color == Color::White { 1 } else { -1 };
        let (replaced, verdict_sign) = match self.endgame {
            Some((_, strong, Verdict::Replace(_))) => (true, sign(strong)),
            Some((_, strong, Verdict::Adjust(_))) => (false, sign(strong)),
            None => (false, 0),
        };
        let danger = [0, 1].map(|s| {
            if replaced {
                return Vec::new();
            }
            (0..Weights::COUNT)
                .filter_map(|index| {
                    let count = i16::try_from(self.danger[s][index])
                        .ok()
                        .filter(|&c| c != 0)?;
                    Some((u16::try_from(index).ok()?, count))
                })
                .collect()
        });
        let linear = (0..Weights::COUNT)
            .filter_map(|index| {
                let main = if replaced {
                    0
                } else {
                    self.main[0][index] - self.main[1][index]
                };
                let count = main + verdict_sign * self.verdict[index];
                // Counts are bounded by the board (a few hundred at most): they fit.
                let count = i16::try_from(count).ok().filter(|&c| c != 0)?;
                Some((u16::try_from(index).ok()?, count))
            })
            .collect();
        let (complexity, scale) = match self.scale {
            Some(factors) if !replaced => (
                sparse(&self.complexity),
                Some(factors.map(|f| u8::try_from(f.clamp(0, 255)).unwrap_or(u8::MAX))),
            ),
            _ => (Vec::new(), None),
        };
        Coefficients {
            linear,
            complexity,
            scale,
            tempo: match self.tempo {
                Some(Color::White) if !replaced => 1,
                Some(Color::Black) if !replaced => -1,
                _ => 0,
            },
            danger,
            phase: self.phase,
            side_to_move,
            endgame: self.endgame,
        }
    }
}
