//! The side to move, as the few terms whose value depends on it receive it.

use shakmaty::Color;

/// The side to move, handed only to the terms whose value depends on who moves: the passer race
/// against a bare king (`passers.rs`) and the knight forks (`threats.rs`); the tempo bonus is
/// the combine's own. The terms see a `Board`, not the position, so a term that reads the side
/// to move must ask for this in its signature, and each such family says where its value can
/// depend on it (`reads_side_to_move`). [`Evaluator::after_null_move`], which assumes that
/// passing the move changes nothing but the tempo, declines wherever one of them says so;
/// `tests/integration/null_move_shortcut.rs` checks the shortcut against a full evaluation.
///
/// [`Evaluator::after_null_move`]: super::Evaluator::after_null_move
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideToMove(Color);

impl SideToMove {
    /// `color` to move: made by the evaluation (and the terms' own unit tests) only.
    #[must_use]
    pub(in crate::eval) const fn new(color: Color) -> SideToMove {
        SideToMove(color)
    }

    /// The side to move.
    #[must_use]
    pub const fn color(self) -> Color {
        self.0
    }
}
