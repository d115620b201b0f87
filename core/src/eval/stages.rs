//! The evaluation after material and piece squares ([`Evaluator::evaluate_rest`]), shared by
//! the full evaluation ([`Evaluator::evaluate_board`] and the cached path) and the bounded one
//! ([`Evaluator::evaluate_bounded`]): the pieces' pass (mobility and the attack maps), the
//! pawn-and-king terms (from a cache when it has them; the bounded evaluation takes them first
//! and may answer there), passed pawns, king danger and the king attack; there the bounded
//! evaluation may answer again; then threats, targets and piece placement, the endgame
//! knowledge or the drawishness stage, and the blend.

use shakmaty::{Bitboard, Board, Color};

use super::acc::Acc;
use super::base::{self, TEMPO};
use super::bounded::{BoundedValue, LazyWindow};
use super::combine::EVAL_LIMIT;
use super::combine::{Pair, Parts, combine};
use super::endgame::{self, Verdict};
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
    /// [`Evaluator::evaluate_rest`] compiled with the `popcnt` instruction enabled (no window:
    /// the full evaluation's own copy, with no trace of the bounded one's early answer).
    #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
    #[target_feature(enable = "popcnt")]
    pub(super) fn evaluate_rest_popcnt(
        &self,
        board: &Board,
        turn: Color,
        material_psqt: S,
        cache: Option<&mut PawnKingCache>,
    ) -> Value {
        self.evaluate_rest(board, turn, material_psqt, &mut (), cache, None)
    }

    /// The bounded evaluation's [`Evaluator::evaluate_stages`] with `window`, compiled with
    /// the `popcnt` instruction enabled.
    #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
    #[target_feature(enable = "popcnt")]
    pub(super) fn bounded_rest_popcnt(
        &self,
        board: &Board,
        turn: Color,
        material_psqt: S,
        cache: &mut PawnKingCache,
        window: LazyWindow,
    ) -> BoundedValue {
        self.evaluate_stages(
            board,
            turn,
            material_psqt,
            &mut (),
            Some(cache),
            Some(window),
        )
    }

    /// [`Evaluator::evaluate_rest`] compiled with `popcnt` and the bit-manipulation
    /// instructions (BMI1, BMI2) enabled: the bit loops' "lowest square, then clear it" take one
    /// instruction each (`tzcnt`, `blsr`), `a & !b` one (`andn`), shifts no flag copies. The
    /// same code as [`Evaluator::evaluate_rest_popcnt`], so the same value, bit for bit.
    #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
    #[target_feature(enable = "popcnt,bmi1,bmi2")]
    pub(super) fn evaluate_rest_bmi(
        &self,
        board: &Board,
        turn: Color,
        material_psqt: S,
        cache: Option<&mut PawnKingCache>,
    ) -> Value {
        self.evaluate_rest(board, turn, material_psqt, &mut (), cache, None)
    }

    /// [`Evaluator::bounded_rest_popcnt`] with the bit-manipulation instructions enabled too
    /// (see [`Evaluator::evaluate_rest_bmi`]).
    #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
    #[target_feature(enable = "popcnt,bmi1,bmi2")]
    pub(super) fn bounded_rest_bmi(
        &self,
        board: &Board,
        turn: Color,
        material_psqt: S,
        cache: &mut PawnKingCache,
        window: LazyWindow,
    ) -> BoundedValue {
        self.evaluate_stages(
            board,
            turn,
            material_psqt,
            &mut (),
            Some(cache),
            Some(window),
        )
    }

    /// [`Evaluator::evaluate_stages`]' value (the exact evaluation when there is no window).
    #[inline(always)]
    pub(super) fn evaluate_rest<T: Tracer>(
        &self,
        board: &Board,
        turn: Color,
        material_psqt: S,
        tracer: &mut T,
        cache: Option<&mut PawnKingCache>,
        window: Option<LazyWindow>,
    ) -> Value {
        self.evaluate_stages(board, turn, material_psqt, tracer, cache, window)
            .value
    }

    /// Everything but material and piece squares (given as `material_psqt`), then the blend.
    /// With a `cache`, the pawn-and-king terms come from it when it has them (only for
    /// evaluations that trace nothing: a hit reports no weights; the caller has bound it to this
    /// evaluator's stamp). With a `window` (the bounded evaluation), an estimate may be returned
    /// instead of the exact value at two points, each where it lies more than that point's
    /// margin outside the window ([`LazyWindow`]): after the pawn-and-king terms (the cheap
    /// estimate) and before threats and piece placement (the late estimate).
    #[inline(always)]
    pub(super) fn evaluate_stages<T: Tracer>(
        &self,
        board: &Board,
        turn: Color,
        material_psqt: S,
        tracer: &mut T,
        mut cache: Option<&mut PawnKingCache>,
        window: Option<LazyWindow>,
    ) -> BoundedValue {
        let w = &self.weights;
        let mut info = Info::new(board);
        if let Some(cache) = cache.as_deref() {
            cache.prefetch(&info);
        }
        let mut acc = Acc::new(w, tracer);

        // The bounded evaluation's first early answer: material, piece squares and the
        // pawn-and-king terms (from the cache), blended by the material's phase, where that
        // lies far enough outside the window. Never where specialised endgame knowledge
        // applies. The exact evaluation (no window) keeps its own order of the stages.
        let mut early_passed = None;
        let mut settled_endgame = None;
        if let Some(window) = window {
            let endgame = endgame::lookup(board);
            if endgame.is_none() && window.early_margin > 0 {
                let passed = pawn_king_stage(&info, &mut acc, cache.take());
                let linear = material_psqt + acc.linear();
                let estimate = self.estimate(linear, &acc, None, turn, base::phase_of(board));
                if window.excludes(estimate, window.early_margin) {
                    return BoundedValue::estimate(estimate, window.early_margin);
                }
                early_passed = Some(passed);
            }
            settled_endgame = Some(endgame);
        }

        // Each side by a call of its own (here and below, where a family runs once per side):
        // each is compiled for its colour, without a test of the colour inside.
        let phase = base::pieces(board, Color::White, &mut info, &mut acc)
            + base::pieces(board, Color::Black, &mut info, &mut acc);
        let phase = phase.min(MAX_PHASE);
        acc.tracer().phase(phase);
        let passed = match early_passed {
            Some(passed) => passed,
            None => pawn_king_stage(&info, &mut acc, cache),
        };
        let to_move = SideToMove::new(turn);
        passers::evaluate(board, &info, passed, to_move, &mut acc);
        // Each side's threat against the enemy king, read by king danger and the king attack.
        let threats = [
            info.king_threat(board, Color::White),
            info.king_threat(board, Color::Black),
        ];
        if let Some(threat) = &threats[0] {
            king::danger_from(board, &info, Color::White, threat, &mut acc);
        }
        if let Some(threat) = &threats[1] {
            king::danger_from(board, &info, Color::Black, threat, &mut acc);
        }
        king_attack::evaluate_with(board, &info, threats, &mut acc);

        // The bounded evaluation's late early answer: everything but threats and piece
        // placement, where it lies far enough outside the window. It needs the drawishness
        // stage now (which reads the pieces and pawns only, and adds no linear term), and keeps
        // it for the end.
        let mut settled = None;
        if let (Some(window), Some(endgame)) = (window, settled_endgame) {
            let scale = match endgame {
                None => Some(scale::drawishness(board, &info, &mut acc)),
                Some(_) => None,
            };
            if scale.is_some() && window.late_margin > 0 {
                let linear = material_psqt + acc.linear();
                let estimate = self.estimate(linear, &acc, scale, turn, phase);
                if window.excludes(estimate, window.late_margin) {
                    return BoundedValue::estimate(estimate, window.late_margin);
                }
            }
            settled = Some((endgame, scale));
        }

        threats::evaluate(board, &info, to_move, &mut acc);
        targets::evaluate(board, &info, &mut acc);
        let closed = pieces::closedness(board);
        pieces::evaluate(board, &info, Color::White, closed, &mut acc);
        piece_lines::evaluate(board, &info, Color::White, &mut acc);
        pieces::evaluate(board, &info, Color::Black, closed, &mut acc);
        piece_lines::evaluate(board, &info, Color::Black, &mut acc);
        let mut linear = material_psqt + acc.linear();

        // Specialised endgames replace or adjust the sum; where none applies, the endgame half
        // is moved toward zero where the material edge does not win (the drawishness stage).
        let (endgame, mut scale) = match settled {
            Some(settled) => settled,
            None => {
                let endgame = endgame::lookup(board);
                let scale = match endgame {
                    None => Some(scale::drawishness(board, &info, &mut acc)),
                    Some(_) => None,
                };
                (endgame, scale)
            }
        };
        let ([white_danger, black_danger], complexity) = (acc.danger_units(), acc.complexity_sum());
        let tracer = acc.tracer();
        let mut replaced = None;
        if let Some((eg, strong)) = endgame {
            // The verdict's weights go to the tracer as `verdict_weight`s.
            let verdict = (eg.evaluate)(board, to_move, strong, w, tracer);
            tracer.endgame(eg.code, strong, verdict);
            let sign = if strong == Color::White { 1 } else { -1 };
            match verdict {
                Verdict::Replace(s) => replaced = Some(Pair::from(s * sign)),
                Verdict::Adjust(s) => {
                    linear += s * sign;
                    // A lone minor piece cannot win, whatever the verdict adds.
                    if let Some(caps) = scale::lone_minor_caps(board) {
                        tracer.scale(caps);
                        scale = Some(caps);
                    }
                }
            }
        }
        if replaced.is_none() {
            tracer.tempo(turn);
        }
        let parts = Parts {
            linear: linear.into(),
            danger: [white_danger.into(), black_danger.into()],
            complexity,
            scale,
            replaced,
            tempo: self.tempo(turn),
            phase,
        };
        BoundedValue::exact(to_move_view(combine(&parts).white, turn))
    }

    /// The evaluation of the terms `acc` holds so far (with `linear`, their linear sum plus
    /// material and piece squares, and the drawishness stage's `factors` when it has run: no
    /// endgame knowledge applies), blended as the whole evaluation is by `phase`: what the
    /// bounded evaluation compares with its window.
    #[inline(always)]
    fn estimate<T: Tracer>(
        &self,
        linear: S,
        acc: &Acc<'_, T>,
        factors: Option<[i32; 2]>,
        turn: Color,
        phase: i32,
    ) -> Value {
        let [white_danger, black_danger] = acc.danger_units();
        let parts = Parts {
            linear: linear.into(),
            danger: [white_danger.into(), black_danger.into()],
            complexity: acc.complexity_sum(),
            scale: factors,
            replaced: None,
            tempo: self.tempo(turn),
            phase,
        };
        to_move_view(combine(&parts).white, turn)
    }

    /// The tempo bonus, signed for the side to move (`+tempo` with White to move).
    #[inline(always)]
    fn tempo(&self, turn: Color) -> Pair<i32> {
        let tempo = self.weights[TEMPO];
        (if turn == Color::White { tempo } else { -tempo }).into()
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
// Inlined into the evaluation: there it runs with `popcnt` where the CPU has it (see
// `Evaluator::evaluate_from`); a separate function would count bits the slow way.
#[inline(always)]
pub(super) fn pawn_king_terms<T: Tracer>(info: &Info, acc: &mut Acc<'_, T>) -> Bitboard {
    let info = &info.pawns_and_kings();
    // One call per side, each compiled for its colour (in the order a loop over the colours
    // would make them).
    let white = pawns::structure(info, Color::White, acc);
    king::shelter(info, Color::White, acc);
    let black = pawns::structure(info, Color::Black, acc);
    king::shelter(info, Color::Black, acc);
    white | black
}
