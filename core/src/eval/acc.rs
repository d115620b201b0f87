//! The accumulator: the one way a weight enters the evaluation. [`Acc::add`] adds a weight
//! `count` times to one side's score *and* tells the tracer, so the score, the printed trace
//! and the tuner's coefficients come from one expression and cannot disagree.
//!
//! Beside the linear sum it keeps one non-linear channel: each side's king-danger units
//! ([`Acc::danger`]), summed over every danger term and then sent through one curve,
//! [`danger_score`], as strong hand-crafted evaluations do (a few attackers are worth far more
//! together than apart). The tracer sees the units, so the tuner can apply the chain rule.

use shakmaty::{ByColor, Color};

use super::score::S;
use super::trace::Tracer;
use super::weights::{Field, Weights};

/// The middlegame half of the king-danger curve: `units² / DANGER_MG_DIVISOR` for positive
/// units. 720 puts 300 units (two pieces on the king with a safe check) near a pawn and a
/// half.
pub const DANGER_MG_DIVISOR: i32 = 720;

/// The endgame half of the king-danger curve: `units / DANGER_EG_DIVISOR`, linear, since
/// without queens a king attack rarely decides on its own.
pub const DANGER_EG_DIVISOR: i32 = 20;

/// What `units` of king danger are worth to the attacker: `(mg², eg)` scaled by the two
/// divisors, nothing for negative units (a defended king is not a bonus to the attacker).
///
/// ```
/// use minkowski_core::eval::acc::danger_score;
/// use minkowski_core::eval::score::S;
/// assert_eq!(danger_score(S(360, 200)), S(180, 10));
/// assert_eq!(danger_score(S(-50, -50)), S(0, 0));
/// ```
#[must_use]
pub const fn danger_score(units: S) -> S {
    let mg = if units.0 > 0 { units.0 } else { 0 };
    let eg = if units.1 > 0 { units.1 } else { 0 };
    S(mg * mg / DANGER_MG_DIVISOR, eg / DANGER_EG_DIVISOR)
}

/// One evaluation's running sums: each side's linear score and king-danger units.
pub struct Acc<'a, T: Tracer> {
    weights: &'a Weights,
    tracer: &'a mut T,
    score: ByColor<S>,
    danger: ByColor<S>,
    complexity: i32,
}

impl<'a, T: Tracer> Acc<'a, T> {
    /// Empty sums over `weights`, reporting to `tracer`.
    pub fn new(weights: &'a Weights, tracer: &'a mut T) -> Acc<'a, T> {
        Acc {
            weights,
            tracer,
            score: ByColor::new_with(|_| S::ZERO),
            danger: ByColor::new_with(|_| S::ZERO),
            complexity: 0,
        }
    }

    /// The weights the sums use.
    #[inline(always)]
    pub fn weights(&self) -> &'a Weights {
        self.weights
    }

    /// The tracer.
    #[inline(always)]
    pub fn tracer(&mut self) -> &mut T {
        self.tracer
    }

    /// `color` scores element `index` of `field`, `count` times.
    #[inline(always)]
    pub fn add(&mut self, color: Color, field: Field, index: usize, count: i32) {
        *self.score.get_mut(color) += self.weights.slots(field)[index] * count;
        self.tracer.weight(color, field, index, count);
    }

    /// `color`'s attack on the enemy king gains element `index` of `field`, `count` times, in
    /// king-danger units (see [`danger_score`]).
    #[inline(always)]
    pub fn danger(&mut self, color: Color, field: Field, index: usize, count: i32) {
        *self.danger.get_mut(color) += self.weights.slots(field)[index] * count;
        self.tracer.danger(color, field, index, count);
    }

    /// The position's complexity gains the endgame half of element `index` of `field`,
    /// `count` times (see [`super::scale`]: it moves the endgame half away from zero or toward
    /// it, never past it).
    #[inline(always)]
    pub fn complexity(&mut self, field: Field, index: usize, count: i32) {
        self.complexity += self.weights.slots(field)[index].eg() * count;
        self.tracer.complexity(field, index, count);
    }

    /// The complexity so far.
    #[inline(always)]
    pub fn complexity_sum(&self) -> i32 {
        self.complexity
    }

    /// Adds a sum computed earlier by the same terms with the same weights (a cache hit),
    /// White's point of view. It bypasses the tracer: only for evaluations that trace nothing.
    #[inline(always)]
    pub fn add_cached(&mut self, white: S) {
        self.score.white += white;
    }

    /// White's linear score minus Black's, without king danger: what a cache keeps.
    #[inline(always)]
    pub fn linear(&self) -> S {
        self.score.white - self.score.black
    }

    /// The whole sum from White's point of view: the linear scores and each side's king
    /// danger through the curve.
    #[inline(always)]
    pub fn finish(&self) -> S {
        self.linear() + danger_score(self.danger.white) - danger_score(self.danger.black)
    }
}
