//! The accumulator: the one way a weight enters the evaluation. [`Acc::add`] adds a weight
//! `count` times to one side's score *and* tells the tracer, so the score, the printed trace
//! and the tuner's coefficients come from one expression and cannot disagree.
//!
//! Beside the linear sum it keeps the non-linear channels' inputs: each side's king-danger units
//! ([`Acc::danger`]), summed over every danger term and then sent through one curve
//! ([`super::combine::danger_curve`]), as strong hand-crafted evaluations do (a few attackers
//! are worth far more together than apart), and the complexity ([`Acc::complexity`]). The
//! tracer sees the inputs; [`super::combine`](mod@super::combine) turns them into the value.

use shakmaty::{ByColor, Color};

use super::score::S;
use super::trace::Tracer;
use super::weights::{Field, Weights};

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
    /// king-danger units (see [`super::combine::danger_curve`]).
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

    /// Each side's king-danger units, `[white, black]`.
    #[inline(always)]
    pub fn danger_units(&self) -> [S; 2] {
        [self.danger.white, self.danger.black]
    }
}
