//! What the evaluation tells about itself as it runs: [`Tracer`], told every weight it uses and
//! how many times, and [`Verdict`], what an endgame evaluator says. At the bottom of the
//! evaluation's layers: every term reports to a tracer.

use shakmaty::Color;

use super::score::S;
use super::weights::Slot;
use super::weights::channel::{Complexity, Danger, Linear, Verdict as VerdictChannel};

/// What an endgame evaluator says, from the strong side's point of view.
///
/// ```
/// use minkowski_core::eval::endgame::{Verdict, lookup};
/// use minkowski_core::eval::weights::Weights;
/// use shakmaty::{Chess, Position, CastlingMode, fen::Fen};
/// let pos: Chess = "8/8/8/4k3/8/8/8/KN6 w - - 0 1".parse::<Fen>().unwrap()
///     .into_position(CastlingMode::Standard).unwrap();
/// let (endgame, strong) = lookup(pos.board()).unwrap();
/// // King and knight cannot mate: the evaluation is replaced by a draw.
/// assert!(matches!(endgame.verdict(&pos, strong, &Weights::default()), Verdict::Replace(s) if s.eg() == 0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Use this score instead of the normal evaluation.
    Replace(S),
    /// Add this to the normal evaluation.
    Adjust(S),
}

/// Receives each weight as the evaluation uses it. Every method defaults to doing nothing; the
/// unit type `()` implements none of them, so [`super::Evaluator::evaluate_board`] pays
/// nothing.
///
/// A weight is reported by its [`Slot`] (its flat index and trace row, typed by its channel); a
/// term that scores a weight `count` times (mobility: once per square) reports it once with that
/// count. Everything the evaluation adds up is reported, so that the counts times the weights
/// give the evaluation back ([`Coefficients`](super::trace::Coefficients)).
///
/// ```
/// use minkowski_core::eval::Evaluator;
/// use minkowski_core::eval::trace::Tracer;
/// /// Remembers only the game phase.
/// #[derive(Default)]
/// struct Phase(i32);
/// impl Tracer for Phase {
///     fn phase(&mut self, phase: i32) {
///         self.0 = phase;
///     }
/// }
/// let mut phase = Phase::default();
/// let board = shakmaty::Board::default();
/// let _ = Evaluator::default().evaluate_with(&board, shakmaty::Color::White, &mut phase);
/// assert_eq!(phase.0, 24);
/// ```
pub trait Tracer {
    /// `color` scores `slot`, `count` times, in the main sum (White's terms minus Black's,
    /// blended by phase as one sum).
    #[inline(always)]
    fn weight(&mut self, color: Color, slot: Slot<Linear>, count: i32) {
        let _ = (color, slot, count);
    }
    /// `color`'s attack on the enemy king gains `slot`, `count` times, in king-danger units:
    /// each side's units add up and go through the danger curve (`combine::danger_curve`; not
    /// linear in the weights).
    #[inline(always)]
    fn danger(&mut self, color: Color, slot: Slot<Danger>, count: i32) {
        let _ = (color, slot, count);
    }
    /// `color`, the side to move, gets the `tempo` weight: blended by phase on its own and
    /// added after the main sum (not reported when an endgame verdict replaces the evaluation).
    #[inline(always)]
    fn tempo(&mut self, color: Color) {
        let _ = color;
    }
    /// The position's complexity (the drawishness stage, `scale.rs`) gains the endgame half of
    /// `slot`, `count` times.
    #[inline(always)]
    fn complexity(&mut self, slot: Slot<Complexity>, count: i32) {
        let _ = (slot, count);
    }
    /// The endgame scale factors, out of `scale::SCALE_NORMAL`: `[if White is ahead
    /// in the endgame half, if Black is]` (not reported when an endgame evaluator answered).
    #[inline(always)]
    fn scale(&mut self, factors: [i32; 2]) {
        let _ = factors;
    }
    /// The endgame evaluator about to give its verdict scores `slot` (one of its own weights,
    /// or a linear one such as material: [`Slot::in_verdict`]), `count` times, from the strong
    /// side's point of view.
    #[inline(always)]
    fn verdict_weight(&mut self, slot: Slot<VerdictChannel>, count: i32) {
        let _ = (slot, count);
    }
    /// The game phase (0 = bare kings .. [`MAX_PHASE`](super::score::MAX_PHASE) = all pieces).
    #[inline(always)]
    fn phase(&mut self, phase: i32) {
        let _ = phase;
    }
    /// A specialised endgame evaluator was used: its verdict is made of the weights reported
    /// by [`Tracer::verdict_weight`] since the last call.
    #[inline(always)]
    fn endgame(&mut self, code: &'static str, strong: Color, verdict: Verdict) {
        let _ = (code, strong, verdict);
    }
}

/// Traces nothing: the engine's evaluation.
impl Tracer for () {}
