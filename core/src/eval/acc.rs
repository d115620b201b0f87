//! The accumulator: the one way a weight enters the evaluation. [`Acc::add`] adds a weight
//! `count` times to one side's score *and* tells the tracer, so the score, the printed trace
//! and the tuner's coefficients come from one expression and cannot disagree.
//!
//! Beside the linear sum it keeps the non-linear channels' inputs: each side's king-danger units
//! ([`Acc::danger`]), summed over every danger term and then sent through one curve
//! (`combine::danger_curve`), as strong hand-crafted evaluations do (a few attackers
//! are worth far more together than apart), and the complexity ([`Acc::complexity`]). The
//! tracer sees the inputs; the combine (`combine.rs`, above the terms) turns them into the value.

use shakmaty::{ByColor, Color};

use super::score::S;
use super::tracer::Tracer;
use super::weights::channel::{Complexity, Danger, Linear};
use super::weights::{Slot, Weights};

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

    /// `color` scores `slot`, `count` times: `acc.add(color, PAWN_STACKED.at(1), 1)`, or
    /// `acc.add(color, BISHOP_PAIR, 1)` for a single pair. Only linear weights fit here.
    #[inline(always)]
    pub fn add(&mut self, color: Color, slot: impl Into<Slot<Linear>>, count: i32) {
        let slot = slot.into();
        *self.score.get_mut(color) += self.weights[slot] * count;
        self.tracer.weight(color, slot, count);
    }

    /// `color`'s attack on the enemy king gains `slot`, `count` times, in king-danger units
    /// (see `combine::danger_curve`). Only danger weights fit here.
    #[inline(always)]
    pub fn danger(&mut self, color: Color, slot: impl Into<Slot<Danger>>, count: i32) {
        let slot = slot.into();
        *self.danger.get_mut(color) += self.weights[slot] * count;
        self.tracer.danger(color, slot, count);
    }

    /// The position's complexity gains the endgame half of `slot`, `count` times (see
    /// `scale.rs`: it moves the endgame half away from zero or toward it, never past it). Only
    /// complexity weights fit here.
    #[inline(always)]
    pub fn complexity(&mut self, slot: impl Into<Slot<Complexity>>, count: i32) {
        let slot = slot.into();
        self.complexity += self.weights[slot].eg() * count;
        self.tracer.complexity(slot, count);
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
