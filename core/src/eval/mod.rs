//! The evaluation: material, piece-square tables, mobility, pawn structure, passed pawns, king
//! safety, threats and knight forks ([`threats`]), piece placement ([`pieces`]), blended by game
//! phase, with specialised endgame knowledge looked up by material signature ([`endgame`]) and,
//! where none applies, the endgame half moved toward zero where a material edge does not win
//! ([`scale`]) — all from the side to move's point of view.
//!
//! All numbers live in [`weights::Weights`], each declared once (settable by name, fitted to
//! self-play games by `minkowski tune`); the pair type and the one phase blend are in
//! [`score`]. The evaluation is generic over a [`trace::Tracer`], told every weight it uses and
//! how many times:
//! [`Evaluator::evaluate_board`] traces nothing (at no cost), [`Evaluator::trace`] records every
//! term and [`Evaluator::coefficients`] the evaluation as a linear form in the weights (for a
//! tuner). The evaluation reads the pieces and the side to move only: its entry points take a
//! [`Board`] and a [`Color`], and the `Chess` ones are conveniences over them.

pub mod acc;
pub mod base;
pub mod bounded;
pub mod combine;
pub mod cost;
mod cpu;
pub mod endgame;
pub mod eval_cache;
pub mod info;
pub mod king;
pub mod king_attack;
mod layout;
mod material;
pub mod mobility;
pub mod passers;
pub mod pawn_king;
pub mod pawns;
pub mod piece_lines;
pub mod pieces;
pub mod scale;
pub mod score;
mod stages;
pub mod stamp;
pub mod tactics;
pub mod targets;
pub mod term;
#[cfg(test)]
mod test_support;
pub mod threats;
pub mod to_move;
pub mod trace;
pub mod tracer;
pub mod weights;

use shakmaty::{Board, Chess, Color, Position};

/// The evaluation's result type (defined in the bottom layer [`crate::value`], shared with the
/// search, which adds mate scores), re-exported so an engine that only evaluates finds it here.
pub use crate::value::Value;
use base::TEMPO;
pub use combine::EVAL_LIMIT;
use eval_cache::PositionHash;
use pawn_king::{PawnKingCache, WeightsStamp};
use score::S;
use trace::{Coefficients, CountingTracer, EvalTrace};
use tracer::Tracer;
use weights::{Weights, declare_families};

// The weight table: every family's weights, in table order, each family starting where the one
// before it ends. A new family is one entry here (and the call of its terms in `stages.rs`); its
// own file never names another family to find its place.
declare_families! {
    base::Base,
    pawns::Pawns,
    passers::Passers,
    king::King,
    mobility::Mobility,
    threats::Threats,
    targets::Targets,
    king_attack::KingAttack,
    pieces::Pieces,
    piece_lines::PieceLines,
    scale::Drawishness,
    endgame::Endgames,
}

/// The evaluation function with its weights.
///
/// The weights are read with [`Evaluator::weights`] and changed only through
/// [`Evaluator::weights_mut`], which gives the evaluator a new [`WeightsStamp`]: a
/// [`PawnKingCache`] records the stamp of the evaluator that filled it and forgets its entries
/// when an evaluator with another stamp uses it, so a cache can never hand one set of weights the
/// sums of another (clones share a stamp: their weights are equal until one of them changes).
///
/// ```
/// use minkowski_core::eval::{Evaluator, base::TEMPO};
/// use shakmaty::Chess;
/// let e = Evaluator::default();
/// // The start position is level but for the side to move's tempo bonus (phase 24 of 24: its
/// // middlegame half).
/// assert_eq!(e.evaluate(&Chess::default()).0, e.weights()[TEMPO].taper(24));
/// ```
#[derive(Clone, Debug)]
pub struct Evaluator {
    /// The weights in use.
    weights: Weights,
    /// Which weights these are, for the pawn-king caches this evaluator fills.
    stamp: WeightsStamp,
}

impl Default for Evaluator {
    /// The built-in weights.
    fn default() -> Evaluator {
        Evaluator::new(Weights::default())
    }
}

/// Two evaluators are equal when their weights are (whatever their stamps).
impl PartialEq for Evaluator {
    fn eq(&self, other: &Evaluator) -> bool {
        self.weights == other.weights
    }
}

impl Eq for Evaluator {}

impl Evaluator {
    /// An evaluator with the given weights.
    ///
    /// ```
    /// use minkowski_core::eval::{Evaluator, weights::Weights};
    /// let e = Evaluator::new(Weights::default());
    /// assert_eq!(e, Evaluator::default());
    /// ```
    #[must_use]
    pub fn new(weights: Weights) -> Evaluator {
        Evaluator {
            weights,
            stamp: WeightsStamp::new(),
        }
    }

    /// The weights in use.
    ///
    /// ```
    /// use minkowski_core::eval::{Evaluator, weights::Weights};
    /// assert_eq!(Evaluator::default().weights(), &Weights::default());
    /// ```
    #[must_use]
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The weights, to change them. The evaluator takes a new [`WeightsStamp`] first, so every
    /// [`PawnKingCache`] filled with the weights as they were is emptied when this evaluator
    /// next uses it.
    ///
    /// ```
    /// use minkowski_core::eval::{Evaluator, pawn_king::PawnKingCache, score::S};
    /// use shakmaty::{Chess, Position};
    /// let (mut e, pos) = (Evaluator::default(), Chess::default());
    /// let mut cache = PawnKingCache::default();
    /// let _ = e.evaluate_cached(pos.board(), pos.turn(), e.material_psqt(pos.board()), &mut cache);
    /// e.weights_mut().set("pawn_isolated", S(-90, -90)).unwrap();
    /// // The cache's entry was made with the old weights: it is not used.
    /// let sum = e.material_psqt(pos.board());
    /// assert_eq!(e.evaluate_cached(pos.board(), pos.turn(), sum, &mut cache), e.evaluate(&pos));
    /// assert_eq!(cache.hits(), 0);
    /// ```
    pub fn weights_mut(&mut self) -> &mut Weights {
        self.stamp = WeightsStamp::new();
        &mut self.weights
    }

    /// Which weights this evaluator has: equal for clones, new after
    /// [`Evaluator::weights_mut`].
    ///
    /// ```
    /// use minkowski_core::eval::Evaluator;
    /// let mut e = Evaluator::default();
    /// let copy = e.clone();
    /// assert_eq!(copy.stamp(), e.stamp());
    /// let _ = e.weights_mut();
    /// assert_ne!(copy.stamp(), e.stamp());
    /// ```
    #[must_use]
    pub fn stamp(&self) -> WeightsStamp {
        self.stamp
    }

    /// Static evaluation of the pieces on `board` with `turn` to move, in centipawns from the
    /// side to move's point of view: the evaluation's entry point. It reads nothing else
    /// (castling rights, en passant, move counters), so it needs no [`Chess`] position and does
    /// no legality check. Symmetric: the colour-flipped board gets the same value.
    ///
    /// On a board that is no legal position (two kings of a colour, none, a pawn on a back
    /// rank, the side not to move in check, more than 32 pieces) the value is defined (no
    /// panic, no undefined behaviour: the terms skip a missing king, and the KPK bitbase
    /// answers "no win" outside its table) but means nothing: check the board first where it
    /// can be wrong.
    ///
    /// ```
    /// use minkowski_core::eval::Evaluator;
    /// use shakmaty::{Board, Color};
    /// // King and queen against king: a known win, far above any material count.
    /// let board: Board = "8/8/8/3k4/8/8/8/KQ6".parse().unwrap();
    /// assert!(Evaluator::default().evaluate_board(&board, Color::White).0 > 5_000);
    /// ```
    #[must_use]
    pub fn evaluate_board(&self, board: &Board, turn: Color) -> Value {
        self.evaluate_with(board, turn, &mut ())
    }

    /// [`Evaluator::evaluate_board`] of a position: its pieces and side to move. Symmetric:
    /// the colour-flipped position gets the same value.
    ///
    /// ```
    /// use minkowski_core::eval::Evaluator;
    /// use shakmaty::{Chess, CastlingMode, fen::Fen};
    /// // King and queen against king: a known win, far above any material count.
    /// let pos: Chess = "8/8/8/3k4/8/8/8/KQ6 w - - 0 1".parse::<Fen>().unwrap()
    ///     .into_position(CastlingMode::Standard).unwrap();
    /// assert!(Evaluator::default().evaluate(&pos).0 > 5_000);
    /// ```
    #[must_use]
    pub fn evaluate(&self, pos: &Chess) -> Value {
        self.evaluate_board(pos.board(), pos.turn())
    }

    /// The evaluation with every term recorded, for `minkowski eval` and the UCI `eval` command.
    ///
    /// ```
    /// use minkowski_core::eval::Evaluator;
    /// use shakmaty::Chess;
    /// let e = Evaluator::default();
    /// let trace = e.trace(&Chess::default());
    /// assert_eq!(trace.total, e.evaluate(&Chess::default()));
    /// assert!(trace.to_string().contains("Material"));
    /// ```
    #[must_use]
    pub fn trace(&self, pos: &Chess) -> EvalTrace {
        let mut counts = CountingTracer::default();
        let total = self.evaluate_with(pos.board(), pos.turn(), &mut counts);
        EvalTrace::from_counts(&counts, &self.weights, total, pos.turn())
    }

    /// The evaluation of `pos` as coefficients of the weights: how many times each weight
    /// enters it, the phase, and what is not linear kept apart (see [`Coefficients`]), so that
    /// a tuner can re-evaluate with other weights without evaluating.
    ///
    /// ```
    /// use minkowski_core::eval::{Evaluator, score::S, weights::Weights};
    /// use shakmaty::{CastlingMode, Chess, fen::Fen};
    /// // After 1. Nf3.
    /// let pos: Chess = "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1"
    ///     .parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
    /// let c = Evaluator::default().coefficients(&pos);
    /// let mut w = Weights::default();
    /// w.set("psqt.knight.f3", S(50, 0)).unwrap();
    /// assert_ne!(c.evaluate(&w), Evaluator::default().evaluate(&pos));
    /// assert_eq!(c.evaluate(&w), Evaluator::new(w).evaluate(&pos));
    /// ```
    #[must_use]
    pub fn coefficients(&self, pos: &Chess) -> Coefficients {
        let mut counts = CountingTracer::default();
        let _ = self.evaluate_with(pos.board(), pos.turn(), &mut counts);
        counts.coefficients(pos.turn())
    }

    /// The evaluation, reporting each weight it uses to `tracer`.
    ///
    /// ```
    /// use minkowski_core::eval::Evaluator;
    /// use minkowski_core::eval::score::S;
    /// use minkowski_core::eval::trace::Tracer;
    /// use minkowski_core::eval::base::MATERIAL;
    /// use minkowski_core::eval::weights::{Slot, Weights, channel::Linear};
    /// use shakmaty::{Chess, Color, Position};
    /// /// Adds up White's material as the evaluation reports it.
    /// struct WhiteMaterial(S, Weights);
    /// impl Tracer for WhiteMaterial {
    ///     fn weight(&mut self, color: Color, slot: Slot<Linear>, count: i32) {
    ///         if MATERIAL.indices().contains(&slot.index()) && color == Color::White {
    ///             self.0 += self.1[slot] * count;
    ///         }
    ///     }
    /// }
    /// let mut t = WhiteMaterial(S::ZERO, Weights::default());
    /// let (e, pos) = (Evaluator::default(), Chess::default());
    /// assert_eq!(e.evaluate_with(pos.board(), pos.turn(), &mut t), e.evaluate(&pos));
    /// let m = Weights::default().pairs(MATERIAL).to_vec();
    /// assert_eq!(t.0, m[0] * 8 + m[1] * 2 + m[2] * 2 + m[3] * 2 + m[4]);
    /// ```
    pub fn evaluate_with<T: Tracer>(&self, board: &Board, turn: Color, tracer: &mut T) -> Value {
        let material_psqt = self.material_psqt_with(board, tracer);
        self.evaluate_rest(board, turn, material_psqt, tracer, None, None)
    }

    /// The evaluation given the material and piece-square sum of `board` (as
    /// [`Evaluator::material_psqt`] computes it, or kept up to date move by move with
    /// [`Evaluator::material_psqt_after`]): the same value as [`Evaluator::evaluate_board`],
    /// without visiting every piece for its material and square.
    ///
    /// ```
    /// use minkowski_core::eval::Evaluator;
    /// use shakmaty::{Chess, Position};
    /// let (e, pos) = (Evaluator::default(), Chess::default());
    /// let sum = e.material_psqt(pos.board());
    /// assert_eq!(e.evaluate_from(pos.board(), pos.turn(), sum), e.evaluate(&pos));
    /// ```
    #[must_use]
    pub fn evaluate_from(&self, board: &Board, turn: Color, material_psqt: S) -> Value {
        // The portable build has no `popcnt` instruction (x86-64 baseline): mobility and king
        // zone counts then cost a dozen instructions each. Most CPUs have it; use it when this
        // one does (a cached CPUID bit, checked in a few instructions).
        #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
        if cpu::has_bit_manipulation() {
            // SAFETY: `evaluate_rest_bmi` only differs from `evaluate_rest` in that it may use
            // `popcnt`, BMI1 and BMI2 instructions, and the CPU has just been found to have them.
            return unsafe { self.evaluate_rest_bmi(board, turn, material_psqt, None) };
        }
        #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: `evaluate_rest_popcnt` only differs from `evaluate_rest` in that it may
            // use the `popcnt` instruction, and the CPU has just been found to support it.
            return unsafe { self.evaluate_rest_popcnt(board, turn, material_psqt, None) };
        }
        self.evaluate_rest(board, turn, material_psqt, &mut (), None, None)
    }

    /// [`Evaluator::evaluate_from`] with a [`PawnKingCache`]: the same value, read whole from
    /// the cache's table of values when it holds this position (`board` and `turn`, matched by
    /// a 64-bit key and a 47-bit check), else evaluated with the terms that depend only on
    /// pawns and kings read from `cache` when it has them; both are stored in it. A searcher
    /// keeps one cache per thread. A cache last filled by an evaluator with other weights
    /// (another [`WeightsStamp`]) is emptied first.
    ///
    /// ```
    /// use minkowski_core::eval::{Evaluator, pawn_king::PawnKingCache};
    /// use shakmaty::{Chess, Position};
    /// let (e, pos) = (Evaluator::default(), Chess::default());
    /// let mut cache = PawnKingCache::default();
    /// let (board, turn, sum) = (pos.board(), pos.turn(), e.material_psqt(pos.board()));
    /// assert_eq!(e.evaluate_cached(board, turn, sum, &mut cache), e.evaluate_from(board, turn, sum));
    /// ```
    #[must_use]
    pub fn evaluate_cached(
        &self,
        board: &Board,
        turn: Color,
        material_psqt: S,
        cache: &mut PawnKingCache,
    ) -> Value {
        // A search meets many positions again: their whole value first (exact: the entry's
        // key and check are the position's, see `eval_cache`).
        let hash = PositionHash::of_board(board, turn);
        if let Some(value) = cache.probe_value(self.stamp, hash) {
            return value;
        }
        let value = self.evaluate_uncached(board, turn, material_psqt, cache);
        cache.store_value(self.stamp, hash, value);
        value
    }

    /// [`Evaluator::evaluate_cached`] where the table of whole values did not have `board`: the
    /// evaluation, with the pawn-and-king terms from `cache`.
    #[inline]
    fn evaluate_uncached(
        &self,
        board: &Board,
        turn: Color,
        material_psqt: S,
        cache: &mut PawnKingCache,
    ) -> Value {
        cache.bind(self.stamp);
        #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
        if cpu::has_bit_manipulation() {
            // SAFETY: as in `evaluate_from`: the CPU has just been found to have the features.
            return unsafe { self.evaluate_rest_bmi(board, turn, material_psqt, Some(cache)) };
        }
        #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: as in `evaluate_from`: the CPU has just been found to support `popcnt`.
            return unsafe { self.evaluate_rest_popcnt(board, turn, material_psqt, Some(cache)) };
        }
        self.evaluate_rest(board, turn, material_psqt, &mut (), Some(cache), None)
    }

    /// The static evaluation after a null move in a position whose evaluation (side to move's
    /// view) was `parent`: the same board with the other side to move, so every term keeps its
    /// size and changes sign except the tempo bonus, which changes sides (`−parent + 2·tempo`).
    /// `None` wherever a term that reads the side to move ([`to_move::SideToMove`]) can fire —
    /// a knight fork on the board, a side with only king and pawns (the passer race) — and in a
    /// specialised endgame (its verdict carries no tempo): evaluate then. Where it answers, it
    /// equals the full evaluation (`tests/integration/null_move_shortcut.rs`).
    ///
    /// ```
    /// use minkowski_core::eval::Evaluator;
    /// use shakmaty::{Chess, Position};
    /// let (e, pos) = (Evaluator::default(), Chess::default());
    /// let passed = pos.clone().swap_turn().unwrap();
    /// // No knight fork in the start position: the shortcut is exact.
    /// assert_eq!(e.after_null_move(pos.board(), e.evaluate(&pos)), Some(e.evaluate(&passed)));
    /// ```
    #[must_use]
    pub fn after_null_move(&self, board: &Board, parent: Value) -> Option<Value> {
        // Every family that takes a `SideToMove` is asked here.
        if passers::reads_side_to_move(board)
            || threats::reads_side_to_move(board)
            || endgame::reads_side_to_move(board)
        {
            return None;
        }
        let tempo = self.weights[TEMPO].taper(base::phase_of(board));
        Some(Value((2 * tempo - parent.0).clamp(-EVAL_LIMIT, EVAL_LIMIT)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::test_support::position;

    /// One cache used in turn by evaluators of different weights (and by a clone, which shares
    /// its original's stamp) gives each evaluator its own uncached values: a cache never hands
    /// one set of weights the sums of another, also after `weights_mut` changed them in place.
    #[test]
    fn a_cache_never_serves_other_weights() {
        let fens = [
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 0 1",
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        ];
        let positions: Vec<Chess> = fens.iter().map(|fen| position(fen)).collect();
        let mut changed = Evaluator::default();
        changed
            .weights_mut()
            .set("king_pawn_distance.d1", S(-80, -150))
            .unwrap();
        changed
            .weights_mut()
            .set("pawn_isolated", S(-90, -90))
            .unwrap();
        let plain = Evaluator::default();
        let clone = plain.clone();
        let mut in_place = Evaluator::default();
        let mut cache = PawnKingCache::new(64);
        let mut cached = |e: &Evaluator, pos: &Chess| {
            let (board, turn) = (pos.board(), pos.turn());
            e.evaluate_cached(board, turn, e.material_psqt(board), &mut cache)
        };
        for _ in 0..2 {
            for pos in &positions {
                for e in [&plain, &changed, &clone] {
                    assert_eq!(cached(e, pos), e.evaluate(pos));
                }
                assert_eq!(cached(&in_place, pos), in_place.evaluate(pos));
            }
            // In place: the same evaluator, other weights from now on.
            *in_place.weights_mut() = changed.weights().clone();
        }
        assert_ne!(
            plain.evaluate(&positions[1]),
            changed.evaluate(&positions[1]),
            "the changed weights matter"
        );
        assert_eq!(plain.stamp(), clone.stamp());
        assert_ne!(plain.stamp(), changed.stamp());
    }

    /// The table of whole values answers a position met again with its evaluation, and only
    /// that position: the second pass over positions that differ by the side to move or one
    /// piece is all hits, each equal to the full evaluation.
    #[test]
    fn the_value_table_answers_only_the_same_position() {
        let fens = [
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 4 4",
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPPQPPP/RNB1K2R b KQkq - 4 4",
            "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 0 1",
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        ];
        let positions: Vec<Chess> = fens.iter().map(|fen| position(fen)).collect();
        let e = Evaluator::default();
        let mut cache = PawnKingCache::default();
        for pass in 0..2 {
            for pos in &positions {
                let (board, turn) = (pos.board(), pos.turn());
                let value = e.evaluate_cached(board, turn, e.material_psqt(board), &mut cache);
                assert_eq!(value, e.evaluate(pos), "pass {pass}");
            }
            let hits = if pass == 0 { 0 } else { positions.len() as u64 };
            assert_eq!(cache.value_hits(), hits, "pass {pass}");
        }
        assert_eq!(cache.value_probes(), 2 * positions.len() as u64);
        cache.clear();
        assert_eq!((cache.value_probes(), cache.value_hits()), (0, 0));
    }
}
