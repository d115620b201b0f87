//! The endgame family's weights (the verdicts' own: known win, mop-up, KBNK, KPK, the passer
//! race) and the sum through which every verdict adds them and tells the tracer.

use crate::eval::score::S;
use crate::eval::tracer::Tracer;
use crate::eval::weights::channel::InVerdict;
use crate::eval::weights::{Slot, Weights, declare_weights};

declare_weights! {
    /// The family of weights of the endgame verdicts (mop-up, KBNK, KPK, the passer race); where it
    /// starts in the table is set where the evaluation lists its families (`eval/mod.rs`).
    family Endgames;

    channel Verdict, row Endgame, range -500..=1000;
    /// Added for the strong side when it has mating material against a lone king, so that the
    /// search converts instead of trading down into a draw or shuffling.
    KNOWN_WIN = S(10000, 10000), range 0..=15_000;
    /// King and pawn against king, when the bitbase says it wins (added to `known_win` and the
    /// pawn): per rank the pawn has advanced (1 on its second rank ..= 6 on its seventh), so that
    /// the search pushes it once the win is safe.
    KPK_PAWN_ADVANCE = S(20, 20), range -200..=500;
    /// Mop-up: per unit of the lone king's Manhattan distance from the centre (0..=6).
    MOP_UP_EDGE = S(20, 20);
    /// Mop-up: per unit of closeness of the kings, `14 - manhattan(kings)` (0..=13).
    MOP_UP_CLOSE = S(16, 16);
    /// Mop-up: per unit of king-distance closeness of the kings, `7 - king_distance` (0..=6). Twice
    /// the old 12: at 12 the KBNK mate drills (40k nodes a move) missed about one start in a
    /// hundred, the lone king shuffling on an edge next to a wrong corner while the strong king
    /// stayed away; at 24 every drill mates, with and without the issue 16 candidates.
    MOP_UP_KING_CLOSE = S(24, 24);
    /// KBNK: per unit of closeness of the lone king to a corner of the bishop's colour, `14 -
    /// manhattan(king, nearest such corner)` (0..=14); dominates the edge term so that a wrong
    /// corner looks worse than the right one.
    KBNK_CORNER = S(100, 100);
    /// KBNK: per unit of the knight's closeness to the lone king, `6 - knight_distance` (0..=5):
    /// the knight covers the squares of the other colour near the mating corner.
    KBNK_KNIGHT_CLOSE = S(6, 6);
    /// Mop-up with bishop and knight: per square next to the lone king that it may still step to
    /// (negative: squeezing it is progress).
    MOP_UP_KING_FREEDOM = S(-15, -15);
    /// A passed pawn that neither the defending king (rule of the square) nor the defending knights
    /// (knight fill against its path) can catch: worth nearly a piece.
    PASSER_UNSTOPPABLE = S(9, 259), range -1000..=1000;
    /// A passed pawn that the defence catches in time, in a knights-against-pawns ending.
    PASSER_CAUGHT = S(16, -7), range -1000..=1000;
}

/// A sum of weights that tells the tracer of each as it adds it: an endgame verdict's score, and
/// its coefficients, from one expression that cannot disagree with itself.
pub(super) struct WeightSum<'a> {
    weights: &'a Weights,
    tracer: &'a mut dyn Tracer,
    /// The sum so far.
    pub(super) sum: S,
}

impl<'a> WeightSum<'a> {
    pub(super) fn new(weights: &'a Weights, tracer: &'a mut dyn Tracer) -> WeightSum<'a> {
        WeightSum {
            weights,
            tracer,
            sum: S::ZERO,
        }
    }

    /// Adds `slot` (one of the verdicts' own weights, or a linear one such as material),
    /// `count` times.
    pub(super) fn add<C: InVerdict>(
        &mut self,
        slot: impl Into<Slot<C>>,
        count: i32,
    ) -> &mut WeightSum<'a> {
        let slot = slot.into().in_verdict();
        self.sum += self.weights[slot] * count;
        self.tracer.verdict_weight(slot, count);
        self
    }
}
