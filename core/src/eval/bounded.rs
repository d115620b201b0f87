//! The bounded evaluation (lazy evaluation) for a search that only asks which side of a window
//! `(alpha, beta)` a position's value lies on: [`Evaluator::evaluate_bounded`] computes the
//! evaluation up to its most expensive families, threats (hanging pieces, knight forks, threat
//! targets) and piece placement (with the piece lines), and returns that [`Evaluator::lazy_estimate`] without them when it lies
//! more than [`LAZY_MARGIN`] outside the window. Otherwise it finishes the evaluation: the
//! exact value, bit for bit.
//!
//! Why the estimate has the pieces' pass, king danger and passed pawns, and not only material,
//! piece squares and the pawn-and-king terms: those alone miss the exact value by up to 4,095
//! centipawns on the measured positions (a king hunt's danger, unstoppable passers), so a
//! margin that is never wrong there would never be used in a search; with them the estimate
//! is within 552 (see [`LAZY_MARGIN`]).

use shakmaty::{Board, Color};

use super::endgame;
use super::pawn_king::PawnKingCache;
use super::score::S;
use super::{Evaluator, Value};

/// How far the exact value may lie from the [`Evaluator::lazy_estimate`], in centipawns, as
/// the bounded evaluation assumes: it returns the estimate instead of the exact value only
/// where the estimate lies more than this outside the window. What the estimate lacks,
/// threats and piece placement, added up to at most 552 centipawns on the measured positions
/// (`cargo run --release -p minkowski-chess-capi --example bounded_error -- epd/*.epd`,
/// built-in weights: the suites of `epd/`, every position one move after them and random
/// playouts from them; docs/embedding.md has the numbers). Since issue 55's threat targets and
/// piece lines joined them, one of the 314,334 positions one move on (by 552) and one of the
/// 189,944 playout positions (by 506) lie beyond the margin, and none of 4,130,640 random
/// windows got a bound on the wrong side. Not a proof: a position where they add more than the
/// margin can.
pub const LAZY_MARGIN: i32 = 500;

impl Evaluator {
    /// The evaluation of `board` with `turn` to move (given its material and piece-square sum
    /// `material_psqt`, as [`Evaluator::evaluate_cached`]), exact where it matters to a search
    /// with the window `(alpha, beta)`: if the exact value `v` lies inside (`alpha < v <
    /// beta`), the result is `v`, bit for bit. Otherwise the result may be the
    /// [`Evaluator::lazy_estimate`], returned only when it lies more than [`LAZY_MARGIN`]
    /// outside the window: above `beta + LAZY_MARGIN` (then `v >= beta` as far as the margin
    /// holds) or below `alpha - LAZY_MARGIN` (then `v <= alpha`). A position with specialised
    /// endgame knowledge is always evaluated exactly. With `alpha >= beta` no value is inside:
    /// the result is the estimate where it is more than the margin beyond either bound, else
    /// the exact value.
    ///
    /// ```
    /// use minkowski_core::eval::{Evaluator, Value, pawn_king::PawnKingCache};
    /// use shakmaty::{Chess, Position, fen::Fen, CastlingMode};
    /// let e = Evaluator::default();
    /// let mut cache = PawnKingCache::default();
    /// // White has an extra queen and rook: far above a window around zero.
    /// let pos: Chess = "4k3/pppppppp/8/8/8/8/PPPPPPPP/RQ2K2R w - - 0 1".parse::<Fen>().unwrap()
    ///     .into_position(CastlingMode::Standard).unwrap();
    /// let (board, turn, sum) = (pos.board(), pos.turn(), e.material_psqt(pos.board()));
    /// let exact = e.evaluate(&pos);
    /// let bound = e.evaluate_bounded(board, turn, sum, Value(-50), Value(50), &mut cache);
    /// assert!(bound.0 >= 50 && exact.0 >= 50);
    /// // A window around the exact value: the exact value.
    /// let (alpha, beta) = (Value(exact.0 - 1), Value(exact.0 + 1));
    /// assert_eq!(e.evaluate_bounded(board, turn, sum, alpha, beta, &mut cache), exact);
    /// ```
    #[must_use]
    pub fn evaluate_bounded(
        &self,
        board: &Board,
        turn: Color,
        material_psqt: S,
        alpha: Value,
        beta: Value,
        cache: &mut PawnKingCache,
    ) -> Value {
        cache.bind(self.stamp);
        let window = (alpha.0, beta.0);
        #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: as in `evaluate_from`: the CPU has just been found to support `popcnt`.
            return unsafe { self.bounded_rest_popcnt(board, turn, material_psqt, cache, window) };
        }
        let cache = Some(cache);
        self.evaluate_rest(board, turn, material_psqt, &mut (), cache, Some(window))
    }

    /// The part of the evaluation [`Evaluator::evaluate_bounded`] compares with its window,
    /// from the side to move's point of view: everything but threats, targets and piece placement —
    /// material, piece squares, the pawn-and-king terms, the pieces' pass (mobility, king-zone
    /// attacks, rook files, bishop pair, pawn shield), king danger and the king attack, passed
    /// pawns, the drawishness stage and the tempo bonus, blended by phase. `None` where specialised
    /// endgame knowledge applies (the bounded evaluation is exact there). `cache` as in
    /// [`Evaluator::evaluate_cached`].
    ///
    /// ```
    /// use minkowski_core::eval::{Evaluator, bounded::LAZY_MARGIN, pawn_king::PawnKingCache};
    /// use shakmaty::{Chess, Position};
    /// let (e, pos) = (Evaluator::default(), Chess::default());
    /// let mut cache = PawnKingCache::default();
    /// let sum = e.material_psqt(pos.board());
    /// let estimate = e.lazy_estimate(pos.board(), pos.turn(), sum, &mut cache).unwrap();
    /// assert!((estimate.0 - e.evaluate(&pos).0).abs() <= LAZY_MARGIN);
    /// ```
    #[must_use]
    pub fn lazy_estimate(
        &self,
        board: &Board,
        turn: Color,
        material_psqt: S,
        cache: &mut PawnKingCache,
    ) -> Option<Value> {
        if endgame::lookup(board).is_some() {
            return None;
        }
        // A window above every estimate: the estimate is always more than the margin below it.
        let above = Value(i32::MAX);
        Some(self.evaluate_bounded(board, turn, material_psqt, above, above, cache))
    }
}
