//! The evaluation after material and piece squares, in the stages the full evaluation
//! ([`Evaluator::evaluate_board`] and the cached path) and the bounded one
//! ([`Evaluator::evaluate_bounded`]) share: the pawn-and-king terms (from a cache when it has
//! them), the pieces' pass (mobility and the attack maps), then the rest and the blend
//! ([`Evaluator::finish`]). The bounded evaluation runs the pawn-and-king stage first and may
//! stop there; the full one runs the pieces' pass first, to give the cache's prefetch time to
//! land. The order changes no value: every stage adds integers to the same sums, and the
//! pawn-and-king terms read pawns and kings only, which the pieces' pass does not change.

use shakmaty::{Bitboard, Board, Color};

use super::acc::Acc;
use super::base::{self, TEMPO};
use super::bounded::LAZY_MARGIN;
use super::combine::EVAL_LIMIT;
use super::combine::{Pair, Parts, combine};
use super::endgame::{self, Endgame, Verdict};
use super::info::Info;
use super::pawn_king::PawnKingCache;
use super::score::{MAX_PHASE, S};
use super::to_move::SideToMove;
use super::tracer::Tracer;
use super::{
    Evaluator, Value, king, king_attack, passers, pawns, piece_lines, pieces, scale, targets,
    threats,
};

impl Evaluator {
    /// [`Evaluator::evaluate_rest`] compiled with the `popcnt` instruction enabled.
    #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
    #[target_feature(enable = "popcnt")]
    pub(super) fn evaluate_rest_popcnt(
        &self,
        board: &Board,
        turn: Color,
        material_psqt: S,
        cache: Option<&mut PawnKingCache>,
        window: Option<(i32, i32)>,
    ) -> Value {
        self.evaluate_rest(board, turn, material_psqt, &mut (), cache, window)
    }

    /// Everything but material and piece squares (given as `material_psqt`), then the blend.
    /// With a `cache`, the pawn-and-king terms come from it when it has them (only for
    /// evaluations that trace nothing: a hit reports no weights; the caller has bound it to this
    /// evaluator's stamp). With a `window` `(alpha, beta)` (the bounded evaluation), the
    /// estimate without threats and piece placement is returned instead where it lies more than
    /// [`LAZY_MARGIN`] outside it.
    #[inline(always)]
    pub(super) fn evaluate_rest<T: Tracer>(
        &self,
        board: &Board,
        turn: Color,
        material_psqt: S,
        tracer: &mut T,
        cache: Option<&mut PawnKingCache>,
        window: Option<(i32, i32)>,
    ) -> Value {
        let mut info = Info::new(board);
        if let Some(cache) = cache.as_deref() {
            cache.prefetch(&info);
        }
        let mut acc = Acc::new(&self.weights, tracer);
        let mut phase = 0;
        for color in Color::ALL {
            phase += base::pieces(board, color, &mut info, &mut acc);
        }
        let phase = phase.min(MAX_PHASE);
        acc.tracer().phase(phase);
        let passed = pawn_king_stage(&info, &mut acc, cache);
        let known = Known::new(board, turn, material_psqt, phase, passed, &info, &mut acc);
        self.attack_stage(&known, &info, &mut acc);
        // The bounded evaluation's early answer: everything but threats and piece placement,
        // where it lies far enough outside the window.
        if let (Some((alpha, beta)), None) = (window, known.endgame) {
            let estimate = self.estimate(&known, &acc);
            if estimate.0 - LAZY_MARGIN >= beta || estimate.0 + LAZY_MARGIN <= alpha {
                return estimate;
            }
        }
        self.finish(&known, &info, acc)
    }

    /// The terms that need the pieces' attack maps and are cheap once they are known: king
    /// danger and passed pawns (the bounded evaluation's second estimate has them).
    #[inline(always)]
    fn attack_stage<T: Tracer>(&self, known: &Known<'_>, info: &Info, acc: &mut Acc<'_, T>) {
        for color in Color::ALL {
            king::danger(known.board, info, color, acc);
        }
        king_attack::evaluate(known.board, info, acc);
        let to_move = SideToMove::new(known.turn);
        passers::evaluate(known.board, info, known.passed, to_move, acc);
    }

    /// The last stages: threats and piece placement, then the endgame knowledge or the
    /// drawishness stage's scaling, and the blend.
    #[inline(always)]
    fn finish<T: Tracer>(&self, known: &Known<'_>, info: &Info, mut acc: Acc<'_, T>) -> Value {
        let (board, turn, w) = (known.board, known.turn, &self.weights);
        let to_move = SideToMove::new(turn);
        threats::evaluate(board, info, to_move, &mut acc);
        targets::evaluate(board, info, &mut acc);
        let closed = pieces::closedness(board);
        for color in Color::ALL {
            pieces::evaluate(board, info, color, closed, &mut acc);
            piece_lines::evaluate(board, info, color, &mut acc);
        }
        let mut linear = known.material_psqt + acc.linear();
        let ([white_danger, black_danger], complexity) = (acc.danger_units(), acc.complexity_sum());
        let tracer = acc.tracer();
        let mut replaced = None;
        if let Some((eg, strong)) = known.endgame {
            // The verdict's weights go to the tracer as `verdict_weight`s.
            let verdict = (eg.evaluate)(board, to_move, strong, w, tracer);
            tracer.endgame(eg.code, strong, verdict);
            let sign = if strong == Color::White { 1 } else { -1 };
            match verdict {
                Verdict::Replace(s) => replaced = Some(Pair::from(s * sign)),
                Verdict::Adjust(s) => linear += s * sign,
            }
        }
        if replaced.is_none() {
            tracer.tempo(turn);
        }
        let parts = Parts {
            linear: linear.into(),
            danger: [white_danger.into(), black_danger.into()],
            complexity,
            scale: known.scale,
            replaced,
            tempo: self.tempo(turn),
            phase: known.phase,
        };
        to_move_view(combine(&parts).white, turn)
    }

    /// The value of the terms `acc` holds so far (no endgame knowledge applies: see
    /// [`Known::scale`]), blended as the whole evaluation is: what the bounded evaluation
    /// compares with its window.
    #[inline(always)]
    fn estimate<T: Tracer>(&self, known: &Known<'_>, acc: &Acc<'_, T>) -> Value {
        let [white_danger, black_danger] = acc.danger_units();
        let parts = Parts {
            linear: (known.material_psqt + acc.linear()).into(),
            danger: [white_danger.into(), black_danger.into()],
            complexity: acc.complexity_sum(),
            scale: known.scale,
            replaced: None,
            tempo: self.tempo(known.turn),
            phase: known.phase,
        };
        to_move_view(combine(&parts).white, known.turn)
    }

    /// The tempo bonus, signed for the side to move (`+tempo` with White to move).
    #[inline(always)]
    fn tempo(&self, turn: Color) -> Pair<i32> {
        let tempo = self.weights[TEMPO];
        (if turn == Color::White { tempo } else { -tempo }).into()
    }
}

/// What the stages share about one position: its pieces and side to move, and what the first
/// stages found.
struct Known<'b> {
    board: &'b Board,
    turn: Color,
    /// Material and piece squares, White's point of view.
    material_psqt: S,
    /// The game phase, clamped.
    phase: i32,
    /// Both sides' passed pawns (from the pawn-and-king stage).
    passed: Bitboard,
    /// The specialised endgame evaluator that applies, with its strong side.
    endgame: Option<(&'static Endgame, Color)>,
    /// Where none applies, the drawishness stage's scale factors (its complexity terms are
    /// in the accumulator): they read only the pieces and pawns, so they come first.
    scale: Option<[i32; 2]>,
}

impl<'b> Known<'b> {
    /// The endgame lookup and, where no endgame applies, the drawishness stage (its
    /// complexity terms into `acc`).
    #[inline(always)]
    fn new<T: Tracer>(
        board: &'b Board,
        turn: Color,
        material_psqt: S,
        phase: i32,
        passed: Bitboard,
        info: &Info,
        acc: &mut Acc<'_, T>,
    ) -> Known<'b> {
        let endgame = endgame::lookup(board);
        // Specialised endgames replace or adjust the sum; where none applies, the endgame half
        // is moved toward zero where the material edge does not win (the drawishness stage).
        let scale = match endgame {
            None => Some(scale::drawishness(board, info, acc)),
            Some(_) => None,
        };
        Known {
            board,
            turn,
            material_psqt,
            phase,
            passed,
            endgame,
            scale,
        }
    }
}

/// White's value seen by the side to move, clamped to ±[`EVAL_LIMIT`].
#[inline(always)]
fn to_move_view(white: i32, turn: Color) -> Value {
    let value = if turn == Color::White { white } else { -white };
    Value(value.clamp(-EVAL_LIMIT, EVAL_LIMIT))
}

/// The pawn-and-king terms into `acc`, from `cache` when it has them (and stored in it when
/// not); returns the passed pawns of both sides.
#[inline(always)]
fn pawn_king_stage<T: Tracer>(
    info: &Info,
    acc: &mut Acc<'_, T>,
    cache: Option<&mut PawnKingCache>,
) -> Bitboard {
    let Some(cache) = cache else {
        return pawn_king_terms(info, acc);
    };
    if let Some((score, passed)) = cache.probe(info) {
        acc.add_cached(score);
        return passed;
    }
    let mut silent = ();
    let mut local = Acc::new(acc.weights(), &mut silent);
    let passed = pawn_king_terms(info, &mut local);
    cache.store(info, local.linear(), passed);
    acc.add_cached(local.linear());
    passed
}

/// The terms that depend on pawns and kings only (what [`PawnKingCache`] keeps): both sides'
/// pawn structure, king shelter and storm; returns the passed pawns of both sides. They get
/// the pawns-and-kings view, not [`Info`]: nothing else can enter a cached sum.
fn pawn_king_terms<T: Tracer>(info: &Info, acc: &mut Acc<'_, T>) -> Bitboard {
    let info = &info.pawns_and_kings();
    let mut passed = Bitboard::EMPTY;
    for color in Color::ALL {
        passed |= pawns::structure(info, color, acc);
        king::shelter(info, color, acc);
    }
    passed
}
