//! The whole evaluation, and its trace as rows read at run time.

use std::ffi::{CString, c_char};
use std::sync::LazyLock;

use minkowski_core::eval::endgame::{KNOWN_WIN, Verdict};
use minkowski_core::eval::score::{MAX_PHASE, S};
use minkowski_core::eval::trace::EvalTrace;
use minkowski_core::eval::trace::Term;
use minkowski_core::shakmaty::{Chess, Color, Position};

use crate::errors::{MK_ERR_BUFFER, MK_ERR_NULL, boundary, status};
use crate::position::{MkPosition, parse_fen, read};
use crate::weights::{MkWeights, evaluator};

/// One row of the trace: a term's middlegame and endgame score for each side, in centipawns
/// (White's and Black's own points; the term's total is White minus Black).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MkTraceRow {
    /// White's middlegame score.
    pub white_mg: i32,
    /// White's endgame score.
    pub white_eg: i32,
    /// Black's middlegame score.
    pub black_mg: i32,
    /// Black's endgame score.
    pub black_eg: i32,
}

/// What the trace says besides its rows.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MkTraceSummary {
    /// The number of rows of the trace (also when the buffer was too small).
    pub rows: u32,
    /// The game phase, 0 (bare kings) .. max_phase (all pieces).
    pub phase: i32,
    /// The phase of the starting material.
    pub max_phase: i32,
    /// The evaluation in centipawns from the side to move's point of view (as mk_evaluate).
    pub total: i32,
    /// 1 if White is to move, else 0.
    pub white_to_move: i32,
    /// The code of the specialised endgame evaluator used (e.g. "KBNK", NUL-terminated), or ""
    /// for none.
    pub endgame: [c_char; 16],
    /// The endgame evaluator's strong side: 1 White, 0 Black, -1 none.
    pub endgame_strong_white: i32,
    /// 0 none, 1 its score replaced the evaluation, 2 its score was added to it.
    pub endgame_kind: i32,
    /// The endgame evaluator's score, middlegame half (strong side's point of view).
    pub endgame_mg: i32,
    /// The endgame evaluator's score, endgame half.
    pub endgame_eg: i32,
}

/// The trace's rows: names and numbers, in order. The one place that knows how the engine's
/// trace is laid out; everything on the C side is read from here at run time.
fn rows(trace: &EvalTrace) -> impl Iterator<Item = (&'static str, [S; 2])> + '_ {
    Term::ALL
        .iter()
        .map(|term| (term.name(), trace.terms[*term as usize]))
}

/// The row names as C strings, built once.
static ROW_NAMES: LazyLock<Vec<CString>> = LazyLock::new(|| {
    rows(&EvalTrace::default())
        .map(|(name, _)| CString::new(name).unwrap_or_default())
        .collect()
});

/// The number of rows mk_trace() writes (today's evaluation terms; it grows with the
/// evaluation, so size buffers from this, not from a constant).
///
/// Thread safety: safe to call from any thread at any time.
#[unsafe(no_mangle)]
pub extern "C" fn mk_trace_row_count() -> u32 {
    boundary(0, || u32::try_from(ROW_NAMES.len()).unwrap_or(0))
}

/// The name of trace row index (e.g. "Material"), a NUL-terminated string owned by the
/// library (never free it), or NULL if index >= mk_trace_row_count().
///
/// Thread safety: safe to call from any thread at any time.
#[unsafe(no_mangle)]
pub extern "C" fn mk_trace_row_name(index: u32) -> *const c_char {
    boundary(std::ptr::null(), || {
        usize::try_from(index)
            .ok()
            .and_then(|i| ROW_NAMES.get(i))
            .map_or(std::ptr::null(), |name| name.as_ptr())
    })
}

/// Evaluates a position: centipawns from the side to move's point of view into *cp, with
/// weights (NULL: the built-in weights). Returns MK_OK; MK_ERR_NULL (pos or cp),
/// MK_ERR_BITBOARDS, MK_ERR_SQUARE (en passant above 63), MK_ERR_POSITION. On error *cp
/// is left unchanged. Castling flags whose king or rook is not at home and an en passant
/// square with no capturable pawn are dropped, not refused (the score reads neither). For
/// calls in a search, an evaluator (mk_evaluator_new) is faster: it keeps a pawn-king cache.
///
/// Thread safety: safe to call from any number of threads at once (also with one handle).
///
/// Safety: weights is NULL or a live handle; pos is NULL or readable; cp is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mk_evaluate(
    weights: *const MkWeights,
    pos: *const MkPosition,
    cp: *mut i32,
) -> i32 {
    status(|| {
        // SAFETY: the caller's contract above.
        let (pos, cp) = unsafe { (read(pos)?, cp.as_mut().ok_or(MK_ERR_NULL)?) };
        let pos = pos.to_chess()?;
        // SAFETY: the caller's contract above.
        *cp = unsafe { evaluator(weights) }
            .evaluate_board(pos.board(), pos.turn())
            .0;
        Ok(())
    })
}

/// As mk_evaluate(), from a FEN (MK_ERR_FEN if it is not one, MK_ERR_POSITION if its
/// position is illegal).
///
/// Thread safety: safe to call from any number of threads at once (also with one handle).
///
/// Safety: weights is NULL or a live handle; fen is NULL or a NUL-terminated string; cp is NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mk_evaluate_fen(
    weights: *const MkWeights,
    fen: *const c_char,
    cp: *mut i32,
) -> i32 {
    status(|| {
        // SAFETY: the caller's contract above.
        let (pos, cp) = unsafe { (parse_fen(fen)?, cp.as_mut().ok_or(MK_ERR_NULL)?) };
        // SAFETY: the caller's contract above.
        *cp = unsafe { evaluator(weights) }.evaluate(&pos).0;
        Ok(())
    })
}

/// The evaluation term by term: row i of the trace (named by mk_trace_row_name(i)) into
/// rows + i for i < mk_trace_row_count(), and the rest into *summary. capacity is the
/// number of rows the caller's buffer holds. Returns MK_OK; MK_ERR_NULL (pos or summary, or
/// rows with a non-zero capacity); MK_ERR_BUFFER if capacity < mk_trace_row_count() (then
/// only summary->rows is written); the position's errors as mk_evaluate().
///
/// Thread safety: safe to call from any number of threads at once (also with one handle).
///
/// Safety: weights is NULL or a live handle; pos is NULL or readable; rows is NULL or points to
/// capacity writable rows; summary is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mk_trace(
    weights: *const MkWeights,
    pos: *const MkPosition,
    rows: *mut MkTraceRow,
    capacity: u32,
    summary: *mut MkTraceSummary,
) -> i32 {
    status(|| {
        // SAFETY: the caller's contract above.
        let pos = unsafe { read(pos) }?.to_chess()?;
        // SAFETY: the caller's contract above.
        unsafe { write_trace(weights, &pos, rows, capacity, summary) }
    })
}

/// As mk_trace(), from a FEN.
///
/// Thread safety: safe to call from any number of threads at once (also with one handle).
///
/// Safety: As mk_trace(), with fen NULL or a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mk_trace_fen(
    weights: *const MkWeights,
    fen: *const c_char,
    rows: *mut MkTraceRow,
    capacity: u32,
    summary: *mut MkTraceSummary,
) -> i32 {
    status(|| {
        // SAFETY: the caller's contract above.
        let pos = unsafe { parse_fen(fen) }?;
        // SAFETY: the caller's contract above.
        unsafe { write_trace(weights, &pos, rows, capacity, summary) }
    })
}

/// The body of mk_trace() and mk_trace_fen().
///
/// Safety: As mk_trace().
unsafe fn write_trace(
    weights: *const MkWeights,
    pos: &Chess,
    rows_out: *mut MkTraceRow,
    capacity: u32,
    summary: *mut MkTraceSummary,
) -> Result<(), i32> {
    // SAFETY: the caller's contract.
    let summary = unsafe { summary.as_mut() }.ok_or(MK_ERR_NULL)?;
    let needed = ROW_NAMES.len();
    summary.rows = u32::try_from(needed).unwrap_or(u32::MAX);
    // A NULL buffer that claims rows is the caller's pointer error whatever its size: checked
    // before the size, as the header promises (MK_ERR_NULL, not MK_ERR_BUFFER).
    if rows_out.is_null() && capacity > 0 {
        return Err(MK_ERR_NULL);
    }
    if (capacity as usize) < needed {
        return Err(MK_ERR_BUFFER);
    }
    // SAFETY: the caller's contract.
    let trace = unsafe { evaluator(weights) }.trace(pos);
    for (i, (_, [white, black])) in rows(&trace).enumerate().take(needed) {
        let row = MkTraceRow {
            white_mg: white.mg(),
            white_eg: white.eg(),
            black_mg: black.mg(),
            black_eg: black.eg(),
        };
        // SAFETY: i < needed <= capacity, and the buffer holds `capacity` rows.
        unsafe { rows_out.add(i).write(row) };
    }
    *summary = summary_of(&trace, summary.rows);
    Ok(())
}

/// The summary fields of a trace.
fn summary_of(trace: &EvalTrace, rows: u32) -> MkTraceSummary {
    let mut endgame = [0 as c_char; 16];
    let (mut strong, mut kind, mut score) = (-1, 0, S::ZERO);
    if let Some((code, color, verdict)) = trace.endgame {
        for (slot, byte) in endgame.iter_mut().zip(code.bytes().take(15)) {
            *slot = byte as c_char;
        }
        strong = i32::from(color == Color::White);
        (kind, score) = match verdict {
            Verdict::Replace(s) => (1, s),
            Verdict::Adjust(s) => (2, s),
        };
    }
    MkTraceSummary {
        rows,
        phase: trace.phase,
        max_phase: MAX_PHASE,
        total: trace.total.0,
        white_to_move: i32::from(trace.side_to_move == Some(Color::White)),
        endgame,
        endgame_strong_white: strong,
        endgame_kind: kind,
        endgame_mg: score.mg(),
        endgame_eg: score.eg(),
    }
}

/// Every score of the evaluation (mk_evaluate, mk_evaluator_evaluate, mk_trace's total) lies
/// in -MK_EVAL_LIMIT ..= MK_EVAL_LIMIT centipawns: the evaluation clamps to it. A host whose
/// mate scores start lower maps scores below them (see mk_score_bounds).
pub const MK_EVAL_LIMIT: i32 = 20_000;

// The header's number is the engine's.
const _: () = assert!(MK_EVAL_LIMIT == minkowski_core::eval::EVAL_LIMIT);

/// The score range of an evaluation and its band of known wins, for a host that must keep
/// evaluations below its own mate scores.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MkScoreBounds {
    /// Every score lies in -limit ..= limit (MK_EVAL_LIMIT, 20,000).
    pub limit: i32,
    /// The known-win bonus of these weights (built-in: 10,000): a specialised endgame that is a
    /// known win (KBNK, KQK, KRK, a won KPK, ... against a lone king) scores at least about
    /// this for the winning side, the rest of the evaluation stays well below it in real
    /// games. Scores from known_win up to limit are "winning, not yet mate".
    pub known_win: i32,
}

/// The score bounds of weights (NULL: the built-in weights) into *out. Returns MK_OK or
/// MK_ERR_NULL (out). A host with mate scores from M upwards maps a score s into its range
/// with, for example, s * (M - 1) / limit (order kept, never a mate), or clamps s to
/// +-(M - 1) if its own scale is in centipawns and M > known_win.
///
/// Thread safety: safe to call from any number of threads at once.
///
/// Safety: weights is NULL or a live handle; out is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mk_score_bounds(
    weights: *const MkWeights,
    out: *mut MkScoreBounds,
) -> i32 {
    status(|| {
        // SAFETY: the caller's contract above.
        let (w, out) = unsafe {
            (
                evaluator(weights).weights(),
                out.as_mut().ok_or(MK_ERR_NULL)?,
            )
        };
        *out = MkScoreBounds {
            limit: MK_EVAL_LIMIT,
            known_win: w[KNOWN_WIN].mg().min(w[KNOWN_WIN].eg()),
        };
        Ok(())
    })
}
