//! The evaluator handle: weights plus a pawn-king cache that lives from call to call, for a host
//! that evaluates in its search (one handle per search thread).

use minkowski_core::eval::Evaluator;
use minkowski_core::eval::eval_cache::EvalCache;
use minkowski_core::eval::pawn_king::PawnKingCache;
use minkowski_core::shakmaty::{Board, Color, Position};

use crate::errors::{MK_ERR_NULL, boundary, status};
use crate::position::{MkPosition, read};
use crate::weights::{MkWeights, evaluator};

/// An evaluator for one thread (opaque): a copy of the weights, a pawn-king cache that keeps
/// the pawn and king terms of the positions it has seen (512 KiB) and, once the cached calls
/// are used, an evaluation cache (MK_EVAL_CACHE_DEFAULT_KIB, see mk_evaluator_set_cache_size).
/// Make one per search thread with mk_evaluator_new, evaluate with mk_evaluator_evaluate (any
/// input), mk_evaluator_evaluate_trusted (legal positions), mk_evaluator_evaluate_cached or
/// _keyed (legal positions, through the evaluation cache) or mk_evaluator_evaluate_bounded
/// (legal positions, exact only inside a window), release it with mk_evaluator_free.
pub struct MkEvaluator {
    pub(crate) evaluator: Evaluator,
    pub(crate) cache: PawnKingCache,
    /// The evaluation cache of mk_evaluator_evaluate_cached and _keyed, made on their first
    /// call (a handle that never makes one never pays its memory); None until then, and while
    /// its size is 0.
    pub(crate) values: Option<EvalCache>,
    /// The evaluation cache's size in KiB (0: none).
    pub(crate) values_kib: usize,
}

impl MkEvaluator {
    /// The evaluation of the pieces of `board` with `turn` to move: the engine's cached path
    /// (the same value as Evaluator::evaluate_board, with the pawn-king terms read from the
    /// cache when it has them).
    pub(crate) fn evaluate(&mut self, board: &Board, turn: Color) -> i32 {
        let sum = self.evaluator.material_psqt(board);
        self.evaluator
            .evaluate_cached(board, turn, sum, &mut self.cache)
            .0
    }
}

/// A new evaluator with a copy of weights (NULL: the built-in weights) and an empty pawn-king
/// cache; NULL only if the library fails internally. The weights handle may be freed or changed
/// afterwards: the evaluator keeps its own copy. Free it with mk_evaluator_free. The first
/// call of a process also builds the tables the evaluation would otherwise build on first use
/// (as mk_init: the KPK bitbase, about 50 ms), so that no evaluation in a search pauses.
///
/// Thread safety: safe to call from any number of threads at once. The evaluator it returns is
/// for one thread at a time: give each search thread its own.
///
/// Safety: weights is NULL or a live weights handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mk_evaluator_new(weights: *const MkWeights) -> *mut MkEvaluator {
    boundary(std::ptr::null_mut(), || {
        // SAFETY: the caller's contract above.
        let evaluator = unsafe { evaluator(weights) }.clone();
        minkowski_core::prepare_tables();
        Box::into_raw(Box::new(MkEvaluator {
            evaluator,
            cache: PawnKingCache::default(),
            values: None,
            values_kib: EvalCache::DEFAULT_KIB,
        }))
    })
}

/// Releases an evaluator. NULL is allowed (nothing happens); an evaluator must be freed once
/// only.
///
/// Thread safety: not while any other call uses the same evaluator.
///
/// Safety: evaluator is NULL or an evaluator from mk_evaluator_new not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mk_evaluator_free(evaluator: *mut MkEvaluator) {
    boundary((), || {
        if !evaluator.is_null() {
            // SAFETY: made by Box::into_raw in mk_evaluator_new and not freed yet (caller's
            // contract).
            drop(unsafe { Box::from_raw(evaluator) });
        }
    });
}

/// The checked call, for any input: evaluates *pos exactly as mk_evaluate does (the same
/// checks, codes and value: centipawns from the side to move's point of view into *cp), with
/// the evaluator's weights and its pawn-king cache. Returns MK_OK; MK_ERR_NULL (evaluator, pos
/// or cp), MK_ERR_BITBOARDS, MK_ERR_SQUARE (en passant above 63), MK_ERR_POSITION. On error
/// *cp is left unchanged. The checks are those of mk_position_check: consistent bitboards,
/// then a legal chess position (one king each, no pawn on a first or last rank, the side not
/// to move not in check, no impossible check, no more material than a game can reach, castling
/// bits within the four flags).
///
/// Thread safety: one thread at a time per evaluator (it writes its cache); different
/// evaluators may be used by different threads at once.
///
/// Safety: evaluator is NULL or a live evaluator used by no other thread during the call;
/// pos is NULL or readable; cp is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mk_evaluator_evaluate(
    evaluator: *mut MkEvaluator,
    pos: *const MkPosition,
    cp: *mut i32,
) -> i32 {
    // SAFETY: the caller's contract above, passed on unchanged.
    unsafe {
        evaluate_with(evaluator, pos, cp, |ev, p| {
            let pos = p.to_chess()?;
            Ok(ev.evaluate(pos.board(), pos.turn()))
        })
    }
}

/// The trusted call, for a host that guarantees a legal position (its own move generator made
/// it): the same value as mk_evaluator_evaluate on every position that call accepts, with less
/// checking and no position built. What it reads: the eight bitboards and white_to_move;
/// castling, ep and rule50 are not read at all (any values, also out of range). What it checks:
/// consistent bitboards (else MK_ERR_BITBOARDS), exactly one king of each colour and no pawn on
/// a first or last rank (else MK_ERR_POSITION). Anything else a legal position would not have
/// (the side not to move in check, kings in contact, impossible checks, more material than a
/// game can reach) is evaluated, not refused: the value is defined but means nothing. Never
/// undefined behaviour: a wrong board gives one of these codes or a defined value; NULL
/// pointers give MK_ERR_NULL. On error *cp is left unchanged.
///
/// Thread safety: as mk_evaluator_evaluate (one thread at a time per evaluator).
///
/// Safety: as mk_evaluator_evaluate.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mk_evaluator_evaluate_trusted(
    evaluator: *mut MkEvaluator,
    pos: *const MkPosition,
    cp: *mut i32,
) -> i32 {
    // SAFETY: the caller's contract above, passed on unchanged.
    unsafe {
        evaluate_with(evaluator, pos, cp, |ev, p| {
            let (board, turn) = p.to_board_trusted()?;
            Ok(ev.evaluate(&board, turn))
        })
    }
}

/// The body both evaluator calls share, behind the panic boundary; they differ only in how the
/// position is checked and read (`body`: the value or an MK_ERR_* code).
///
/// Safety: as mk_evaluator_evaluate.
pub(crate) unsafe fn evaluate_with(
    evaluator: *mut MkEvaluator,
    pos: *const MkPosition,
    cp: *mut i32,
    body: impl FnOnce(&mut MkEvaluator, &MkPosition) -> Result<i32, i32>,
) -> i32 {
    status(|| {
        // SAFETY: the caller's contract (the evaluator is this thread's alone).
        let (ev, pos, cp) = unsafe {
            (
                evaluator.as_mut().ok_or(MK_ERR_NULL)?,
                read(pos)?,
                cp.as_mut().ok_or(MK_ERR_NULL)?,
            )
        };
        *cp = body(ev, pos)?;
        Ok(())
    })
}

/// Empties the evaluator's caches, the pawn-king cache and the evaluation cache (e.g. on a new
/// game; never needed for correctness: an entry is only used for the position it was made
/// from), and their counts (mk_evaluator_cache_stats). NULL is allowed.
///
/// Thread safety: as mk_evaluator_evaluate.
///
/// Safety: evaluator is NULL or a live evaluator used by no other thread during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mk_evaluator_clear(evaluator: *mut MkEvaluator) {
    boundary((), || {
        // SAFETY: the caller's contract above.
        if let Some(ev) = unsafe { evaluator.as_mut() } {
            ev.cache.clear();
            if let Some(values) = &mut ev.values {
                values.clear();
            }
        }
    });
}
