//! The endgame family's weights (the verdicts' own: known win, mop-up, KBNK, KPK, the passer
//! race) and the sum through which every verdict adds them and tells the tracer.

use crate::eval::score::S;
use crate::eval::term::Term;
use crate::eval::tracer::Tracer;
use crate::eval::weights::channel::{self, InVerdict};
use crate::eval::weights::{Channel, Keys, Slot, Weight, WeightSpec, Weights, defaults};

/// The family of weights of the endgame verdicts (mop-up, KBNK, KPK, the passer race); where it
/// starts in the table is set where the evaluation lists its families (`eval/mod.rs`).
#[derive(Clone, Copy, Debug)]
pub enum Endgames {}

/// The weights of the endgame verdicts (mop-up, KBNK, KPK, the passer race), in table order: each
/// entry declares one weight (see [`WeightSpec`]); the handles below read them.
pub const WEIGHTS: &[WeightSpec] = &[
    WeightSpec {
        name: "known_win",
        doc: "Added for the strong side when it has mating material against a lone king, so \
              that the search converts instead of trading down into a draw or shuffling.",
        default: std::slice::from_ref(&defaults::KNOWN_WIN),
        keys: Keys::One,
        range: 0..=15_000,
        term: Term::Endgame,
        channel: Channel::Verdict,
    },
    WeightSpec {
        name: "kpk_pawn_advance",
        doc: "King and pawn against king, when the bitbase says it wins (added to \
              `known_win` and the pawn): per rank the pawn has advanced (1 on its \
              second rank ..= 6 on its seventh), so that the search pushes it once the win \
              is safe.",
        default: std::slice::from_ref(&defaults::KPK_PAWN_ADVANCE),
        keys: Keys::One,
        range: -200..=500,
        term: Term::Endgame,
        channel: Channel::Verdict,
    },
    WeightSpec {
        name: "mop_up_edge",
        doc: "Mop-up: per unit of the lone king's Manhattan distance from the centre \
              (0..=6).",
        default: std::slice::from_ref(&defaults::MOP_UP_EDGE),
        keys: Keys::One,
        range: -500..=1000,
        term: Term::Endgame,
        channel: Channel::Verdict,
    },
    WeightSpec {
        name: "mop_up_close",
        doc: "Mop-up: per unit of closeness of the kings, `14 - manhattan(kings)` (0..=13).",
        default: std::slice::from_ref(&defaults::MOP_UP_CLOSE),
        keys: Keys::One,
        range: -500..=1000,
        term: Term::Endgame,
        channel: Channel::Verdict,
    },
    WeightSpec {
        name: "mop_up_king_close",
        doc: "Mop-up: per unit of king-distance closeness of the kings, `7 - king_distance` \
              (0..=6). Twice the old 12: at 12 the KBNK mate drills (40k nodes a move) \
              missed about one start in a hundred, the lone king shuffling on an edge next \
              to a wrong corner while the strong king stayed away; at 24 every drill mates, \
              with and without the issue 16 candidates.",
        default: std::slice::from_ref(&defaults::MOP_UP_KING_CLOSE),
        keys: Keys::One,
        range: -500..=1000,
        term: Term::Endgame,
        channel: Channel::Verdict,
    },
    WeightSpec {
        name: "kbnk_corner",
        doc: "KBNK: per unit of closeness of the lone king to a corner of the bishop's \
              colour, `14 - manhattan(king, nearest such corner)` (0..=14); dominates the \
              edge term so that a wrong corner looks worse than the right one.",
        default: std::slice::from_ref(&defaults::KBNK_CORNER),
        keys: Keys::One,
        range: -500..=1000,
        term: Term::Endgame,
        channel: Channel::Verdict,
    },
    WeightSpec {
        name: "kbnk_knight_close",
        doc: "KBNK: per unit of the knight's closeness to the lone king, `6 - \
              knight_distance` (0..=5): the knight covers the squares of the other colour \
              near the mating corner.",
        default: std::slice::from_ref(&defaults::KBNK_KNIGHT_CLOSE),
        keys: Keys::One,
        range: -500..=1000,
        term: Term::Endgame,
        channel: Channel::Verdict,
    },
    WeightSpec {
        name: "mop_up_king_freedom",
        doc: "Mop-up with bishop and knight: per square next to the lone king that it may \
              still step to (negative: squeezing it is progress).",
        default: std::slice::from_ref(&defaults::MOP_UP_KING_FREEDOM),
        keys: Keys::One,
        range: -500..=1000,
        term: Term::Endgame,
        channel: Channel::Verdict,
    },
    WeightSpec {
        name: "passer_unstoppable",
        doc: "A passed pawn that neither the defending king (rule of the square) nor the \
              defending knights (knight fill against its path) can catch: worth nearly a \
              piece.",
        default: std::slice::from_ref(&defaults::PASSER_UNSTOPPABLE),
        keys: Keys::One,
        range: -1000..=1000,
        term: Term::Endgame,
        channel: Channel::Verdict,
    },
    WeightSpec {
        name: "passer_caught",
        doc: "A passed pawn that the defence catches in time, in a knights-against-pawns \
              ending.",
        default: std::slice::from_ref(&defaults::PASSER_CAUGHT),
        keys: Keys::One,
        range: -1000..=1000,
        term: Term::Endgame,
        channel: Channel::Verdict,
    },
];

/// Added for the strong side when it has mating material against a lone king, so that the
/// search converts instead of trading down into a draw or shuffling.
pub const KNOWN_WIN: Weight<channel::Verdict, 1, Endgames> = Weight::named(WEIGHTS, "known_win");

/// King and pawn against king, when the bitbase says it wins (added to [`KNOWN_WIN`]
/// and the pawn): per rank the pawn has advanced (1 on its second rank ..= 6 on its seventh),
/// so that the search pushes it once the win is safe.
pub const KPK_PAWN_ADVANCE: Weight<channel::Verdict, 1, Endgames> =
    Weight::named(WEIGHTS, "kpk_pawn_advance");

/// Mop-up: per unit of the lone king's Manhattan distance from the centre (0..=6).
pub const MOP_UP_EDGE: Weight<channel::Verdict, 1, Endgames> =
    Weight::named(WEIGHTS, "mop_up_edge");

/// Mop-up: per unit of closeness of the kings, `14 - manhattan(kings)` (0..=13).
pub const MOP_UP_CLOSE: Weight<channel::Verdict, 1, Endgames> =
    Weight::named(WEIGHTS, "mop_up_close");

/// Mop-up: per unit of king-distance closeness of the kings, `7 - king_distance` (0..=6).
pub const MOP_UP_KING_CLOSE: Weight<channel::Verdict, 1, Endgames> =
    Weight::named(WEIGHTS, "mop_up_king_close");

/// KBNK: per unit of closeness of the lone king to a corner of the bishop's colour, `14 -
/// manhattan(king, nearest such corner)` (0..=14); dominates the edge term so that a wrong
/// corner looks worse than the right one.
pub const KBNK_CORNER: Weight<channel::Verdict, 1, Endgames> =
    Weight::named(WEIGHTS, "kbnk_corner");

/// KBNK: per unit of the knight's closeness to the lone king, `6 - knight_distance` (0..=5):
/// the knight covers the squares of the other colour near the mating corner.
pub const KBNK_KNIGHT_CLOSE: Weight<channel::Verdict, 1, Endgames> =
    Weight::named(WEIGHTS, "kbnk_knight_close");

/// Mop-up with bishop and knight: per square next to the lone king that it may still step to
/// (negative: squeezing it is progress).
pub const MOP_UP_KING_FREEDOM: Weight<channel::Verdict, 1, Endgames> =
    Weight::named(WEIGHTS, "mop_up_king_freedom");

/// A passed pawn that neither the defending king (rule of the square) nor the defending knights
/// (knight fill against its path) can catch: worth nearly a piece.
pub const PASSER_UNSTOPPABLE: Weight<channel::Verdict, 1, Endgames> =
    Weight::named(WEIGHTS, "passer_unstoppable");

/// A passed pawn that the defence catches in time, in a knights-against-pawns ending.
pub const PASSER_CAUGHT: Weight<channel::Verdict, 1, Endgames> =
    Weight::named(WEIGHTS, "passer_caught");

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
