//! Every search threshold, named and documented in one place.
//!
//! Vocabulary: `*_DEPTH` is the largest remaining depth a technique applies at, `*_MARGIN` a
//! score margin in centipawns (often per ply of depth), `*_BASE`/`*_DIVISOR` terms of a formula.

/// Half-width of the first aspiration window around the previous iteration's score.
pub const ASPIRATION_WINDOW: i32 = 15;
/// Aspiration windows: once the half-width passes this, the failing side opens fully.
pub const ASPIRATION_FULL_AFTER: i32 = 400;
/// Aspiration windows: after fail highs the re-search is at most this many plies shallower.
pub const ASPIRATION_MAX_SHALLOWER: i32 = 3;
/// Aspiration windows are used from this iteration depth on.
pub const ASPIRATION_MIN_DEPTH: i32 = 5;

/// Reverse futility pruning: applies at this remaining depth or less.
pub const RFP_DEPTH: i32 = 7;
/// Reverse futility pruning: the static eval must beat beta by this much per ply.
pub const RFP_MARGIN: i32 = 80;

/// Null-move pruning: needs at least this remaining depth.
pub const NMP_MIN_DEPTH: i32 = 3;
/// Null-move pruning: base depth reduction.
pub const NMP_BASE_REDUCTION: i32 = 3;
/// Null-move pruning: one more ply of reduction per this many plies of depth.
pub const NMP_DEPTH_DIVISOR: i32 = 4;
/// Null-move pruning: one more ply of reduction per this many centipawns eval exceeds beta.
pub const NMP_EVAL_DIVISOR: i32 = 200;
/// Null-move pruning: at most this many plies from the eval term.
pub const NMP_EVAL_MAX: i32 = 3;

/// ProbCut: tried at this remaining depth or more.
pub const PROBCUT_MIN_DEPTH: i32 = 5;
/// ProbCut: a capture must hold beta plus this much in the shallow search.
pub const PROBCUT_MARGIN: i32 = 180;
/// ProbCut: the shallow search is this many plies shallower than the node.
pub const PROBCUT_DEPTH_REDUCTION: i32 = 4;

/// Internal iterative reduction: a node without a TT move at this depth or more is searched
/// one ply shallower.
pub const IIR_MIN_DEPTH: i32 = 4;

/// Singular extensions: tried at this remaining depth or more.
pub const SE_MIN_DEPTH: i32 = 8;
/// Singular extensions: the TT entry may be at most this many plies shallower than the node.
pub const SE_TT_DEPTH_SLACK: i32 = 3;
/// Singular extensions: the alternatives must fail below the TT value minus this much per ply.
pub const SE_DEPTH_MARGIN: i32 = 2;

/// Singular extensions: a TT move whose alternatives fail this far below the singular bound is
/// extended two plies (not at PV nodes).
pub const SE_DOUBLE_MARGIN: i32 = 20;
/// Singular extensions: at most this many double extensions on one line.
pub const SE_DOUBLE_MAX: i32 = 6;

/// History pruning of quiet moves: applies at this remaining depth or less.
pub const HISTORY_PRUNE_DEPTH: i32 = 3;
/// History pruning: a quiet move whose history score is below minus this per ply is skipped.
pub const HISTORY_PRUNE_MARGIN: i32 = 2500;
/// Late move pruning: applies at this remaining depth or less.
pub const LMP_DEPTH: i32 = 8;
/// Late move pruning: quiet moves tried before the rest are skipped is
/// `LMP_BASE + depth * depth` (halved when the eval is not improving).
pub const LMP_BASE: i32 = 3;

/// Futility pruning of quiet moves: applies at this remaining depth or less.
pub const FUTILITY_DEPTH: i32 = 8;
/// Futility pruning: margin at depth 0.
pub const FUTILITY_BASE: i32 = 90;
/// Futility pruning: extra margin per ply.
pub const FUTILITY_MARGIN: i32 = 100;

/// SEE pruning in the main search: applies at this remaining depth or less.
pub const SEE_PRUNE_DEPTH: i32 = 6;
/// SEE pruning: captures losing more than this times depth² are skipped.
pub const SEE_CAPTURE_MARGIN: i32 = 20;
/// SEE pruning: quiet moves losing more than this times depth are skipped.
pub const SEE_QUIET_MARGIN: i32 = 60;

/// Late move reductions: need at least this remaining depth.
pub const LMR_MIN_DEPTH: i32 = 3;
/// Late move reductions: moves tried before reductions start (the first is never reduced).
pub const LMR_MIN_MOVES: usize = 2;
/// Late move reductions: `LMR_BASE + ln(depth) * ln(moves) / LMR_DIVISOR` plies (truncated to
/// whole plies in the table).
pub const LMR_BASE: f64 = 0.75;
/// Late move reductions: divisor of the logarithmic term.
pub const LMR_DIVISOR: f64 = 2.25;
/// Late move reductions: extra plies at a node expected to fail high (cut node).
pub const LMR_CUT_NODE: i32 = 2;
/// Late move reductions: one ply less per this much history score.
pub const LMR_HISTORY_DIVISOR: i32 = 8192;

/// Move ordering: added to the history score of a quiet knight fork that keeps its gain: above
/// any history score (butterfly, continuation and follow-up entries each stay within ±`HISTORY_MAX`), so
/// such forks are the first quiet moves after the killers and the counter-move.
pub const FORK_ORDER_BONUS: i32 = 1 << 20;

/// Move ordering: a capture's history counts this many times less than MVV-LVA (whose victims
/// lie 16 × their value apart).
pub const CAPTURE_HISTORY_ORDER_DIVISOR: i32 = 8;
/// Late move reductions: a capture is reduced one ply less per this much capture history.
pub const LMR_CAPTURE_HISTORY_DIVISOR: i32 = 6144;

/// Quiescence: delta pruning margin on top of the captured piece's value.
pub const DELTA_MARGIN: i32 = 200;
/// Quiescence: when the static eval is this far below alpha, captures that do not win
/// material (SEE < 1) are skipped.
pub const QSEARCH_SEE_MARGIN: i32 = 100;

/// History: entries are kept within ±this (gravity formula).
pub const HISTORY_MAX: i32 = 16_384;
/// History: the bonus (and malus) of a cutoff at depth `d` is
/// `clamp(HISTORY_BONUS_PER_PLY * d - HISTORY_BONUS_OFFSET, 0, HISTORY_BONUS_MAX)`: linear, so
/// the tables learn from a deep cutoff several times faster than from `16·d²`.
pub const HISTORY_BONUS_PER_PLY: i32 = 300;
/// History: subtracted from the linear bonus (a depth-1 cutoff says little).
pub const HISTORY_BONUS_OFFSET: i32 = 250;
/// History: cap of one update.
pub const HISTORY_BONUS_MAX: i32 = 2_400;

/// Correction history: entries are in centipawns times this.
pub const CORRECTION_GRAIN: i32 = 64;
/// Correction history: entries stay within ±this (grain units; 96 cp).
pub const CORRECTION_LIMIT: i32 = 96 * CORRECTION_GRAIN;
/// Correction history: an update moves an entry `min(depth + 1, this)`/256 of the way to the
/// node's error.
pub const CORRECTION_MAX_WEIGHT: i32 = 16;
/// Correction history: weight of the pawn-structure entry in the correction (a weighted mean).
pub const CORRECTION_PAWN_WEIGHT: i32 = 2;
/// Correction history: weight of each side's non-pawn entry.
pub const CORRECTION_NON_PAWN_WEIGHT: i32 = 1;

/// Draws score ±1 by the node count instead of exactly 0.
pub const DRAW_JITTER: bool = true;

/// Poll the clock and the stop flag once every this many nodes (a power of two).
pub const POLL_INTERVAL: u64 = 1024;
/// Report the current root move only after this much search time (milliseconds).
pub const CURRMOVE_AFTER_MS: u64 = 1000;
