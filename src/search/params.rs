//! Every search threshold, named and documented in one place: first the tunable ones
//! ([`SearchParams`], one line each: `name = default in min..=max, c_end step;`), then the
//! constants that are not worth tuning (table sizes, polling, move-ordering offsets).
//!
//! Vocabulary: `*_depth` is the largest remaining depth a technique applies at (`*_min_depth`
//! the smallest), `*_margin` a score margin in centipawns (often per ply of depth),
//! `*_base`/`*_divisor` terms of a formula. Centipawns are the evaluation's: 100 per pawn in
//! the UCI score, the unit a margin of Stockfish's `search.cpp` must be converted to before
//! comparing (docs/spsa.md, "Units").
//!
//! `c_end` is SPSA's perturbation at the end of a run, in the parameter's units (Fishtest's
//! convention: about a twentieth of the range). `scripts/spsa.py` reads this table from this
//! file and writes tuned defaults back into it (`--apply`), so keep one declaration per line.

use super::tunable::tunable_params;

tunable_params! {
    /// Half-width of the first aspiration window around the previous iteration's score.
    aspiration_window = 15 in 5..=60, c_end 2.0;
    /// Aspiration windows: once the half-width passes this, the failing side opens fully.
    aspiration_full_after = 400 in 100..=1500, c_end 40.0;
    /// Aspiration windows: after fail highs the re-search is at most this many plies shallower.
    aspiration_max_shallower = 3 in 0..=6, c_end 0.5;
    /// Aspiration windows are used from this iteration depth on.
    aspiration_min_depth = 5 in 1..=10, c_end 0.5;

    /// Reverse futility pruning: applies at this remaining depth or less.
    rfp_depth = 7 in 1..=12, c_end 0.5;
    /// Reverse futility pruning: the static eval must beat beta by this much per ply.
    rfp_margin = 80 in 20..=250, c_end 8.0;

    /// Null-move pruning: needs at least this remaining depth.
    nmp_min_depth = 3 in 1..=6, c_end 0.5;
    /// Null-move pruning: base depth reduction (4, and a ply per 3 of depth, as Stockfish 15.1:
    /// at 20,000 nodes a move +22.6 ± 31.7 Elo against 3 and a ply per 4, issue 59).
    nmp_base_reduction = 4 in 1..=6, c_end 0.5;
    /// Null-move pruning: one more ply of reduction per this many plies of depth.
    nmp_depth_divisor = 3 in 1..=10, c_end 0.5;
    /// Null-move pruning: one more ply of reduction per this many centipawns eval exceeds beta.
    nmp_eval_divisor = 200 in 50..=600, c_end 20.0;
    /// Null-move pruning: at most this many plies from the eval term.
    nmp_eval_max = 3 in 0..=6, c_end 0.5;
    /// Null-move pruning: the null move's own search is at least this deep. At 0 a large
    /// reduction drops it straight into the quiescence search, which sees no quiet mate in one:
    /// the side that passed then "holds" against a mating threat, and with 4 + depth/3 the
    /// mate-in-two key `Qf6` of `search::mates_in_two` was found only at depth 16 (1.0 M nodes)
    /// instead of 13 (0.13 M); 1 costs 5 % more bench nodes (issue 59).
    nmp_min_null_depth = 1 in 0..=3, c_end 0.5;

    /// ProbCut: tried at this remaining depth or more.
    probcut_min_depth = 5 in 2..=10, c_end 0.5;
    /// ProbCut: a capture must hold beta plus this much in the shallow search.
    probcut_margin = 180 in 50..=400, c_end 15.0;
    /// ProbCut: the shallow search is this many plies shallower than the node.
    probcut_depth_reduction = 4 in 2..=6, c_end 0.5;

    /// Internal iterative reduction: a node without a TT move at this depth or more is searched
    /// one ply shallower.
    iir_min_depth = 4 in 2..=10, c_end 0.5;

    /// Singular extensions: tried at this remaining depth or more.
    se_min_depth = 8 in 4..=14, c_end 0.5;
    /// Singular extensions: the TT entry may be at most this many plies shallower than the node.
    se_tt_depth_slack = 3 in 0..=6, c_end 0.5;
    /// Singular extensions: the alternatives must fail below the TT value minus this much per ply.
    se_depth_margin = 2 in 0..=8, c_end 0.5;
    /// Singular extensions: a TT move whose alternatives fail this far below the singular bound
    /// is extended two plies (not at PV nodes).
    se_double_margin = 20 in 0..=80, c_end 4.0;
    /// Singular extensions: at most this many double extensions on one line.
    se_double_max = 6 in 0..=16, c_end 1.0;

    /// History pruning of quiet moves: applies at this reduced depth or less (the margin is
    /// per ply of the node's depth).
    history_prune_depth = 3 in 0..=8, c_end 0.5;
    /// History pruning: a quiet move whose history score is below minus this per ply is skipped.
    history_prune_margin = 2500 in 500..=8000, c_end 250.0;
    /// Late move pruning: applies at this remaining depth or less.
    lmp_depth = 8 in 1..=15, c_end 0.5;
    /// Late move pruning: quiet moves tried before the rest are skipped is
    /// `lmp_base + depth * depth` (halved when the eval is not improving).
    lmp_base = 3 in 0..=12, c_end 0.5;

    /// Futility pruning of quiet moves: applies at this reduced depth (the depth the move's late
    /// move reduction would leave) or less.
    futility_depth = 8 in 1..=15, c_end 0.5;
    /// Futility pruning: margin at depth 0.
    futility_base = 90 in 0..=300, c_end 10.0;
    /// Futility pruning: extra margin per ply of reduced depth.
    futility_margin = 100 in 30..=300, c_end 10.0;
    /// Futility pruning: the margin grows by one centipawn per this much history score.
    futility_history_divisor = 128 in 32..=1024, c_end 16.0;

    /// SEE pruning in the main search: applies at this remaining depth or less (a quiet move:
    /// at this reduced depth or less).
    see_prune_depth = 6 in 1..=12, c_end 0.5;
    /// SEE pruning: captures losing more than this times depth² are skipped.
    see_capture_margin = 20 in 5..=100, c_end 3.0;
    /// SEE pruning: quiet moves losing more than this times the reduced depth are skipped.
    see_quiet_margin = 60 in 10..=200, c_end 6.0;

    /// Late move reductions: need at least this remaining depth.
    lmr_min_depth = 3 in 1..=6, c_end 0.5;
    /// Late move reductions: moves tried before reductions start (the first is never reduced).
    lmr_min_moves = 2 in 1..=6, c_end 0.5;
    /// Late move reductions: the table holds `lmr_base_x100 / 100 + ln(depth) * ln(moves) /
    /// (lmr_divisor_x100 / 100)` plies, truncated to whole plies (a change rebuilds it).
    lmr_base_x100 = 150 in 0..=200, c_end 8.0;
    /// Late move reductions: divisor of the logarithmic term, times 100.
    lmr_divisor_x100 = 225 in 100..=400, c_end 12.0;
    /// Late move reductions: extra plies at a node expected to fail high (cut node).
    lmr_cut_node = 2 in 0..=4, c_end 0.5;
    /// Late move reductions: plies less when one side has nothing but its king (the mating
    /// endgames: with the full reductions the KBNK drills miss the mate at 40,000 nodes).
    lmr_bare_king_relief = 1 in 0..=3, c_end 0.5;
    /// Late move reductions: a quiet move is reduced one ply less per this much history score.
    lmr_history_divisor = 8192 in 2048..=32768, c_end 600.0;
    /// Late move reductions: a capture is reduced one ply less per this much capture history.
    lmr_capture_history_divisor = 6144 in 1536..=32768, c_end 500.0;

    /// ttPv: reductions are this many plies smaller at a node that is or was on a principal
    /// variation (a PV node, or the TT entry's ttPv bit), unless it is likely to fail low (a PV
    /// node whose TT entry, at least as deep, is an upper or exact bound). Stockfish 15.1: 2.
    lmr_tt_pv = 0 in 0..=3, c_end 0.5;
    /// ttPv: 1 skips reverse futility pruning at a node that is or was on a principal variation
    /// (as Stockfish 15.1); 0 prunes it like any other non-PV node.
    rfp_skip_tt_pv = 0 in 0..=1, c_end 0.5;
    /// Late move reductions: one ply less for the moves of a node whose own move was at least
    /// this late in its parent (the opponent had to try many moves; 0: never; Stockfish 15.1: 8).
    lmr_parent_late_move = 0 in 0..=64, c_end 2.0;
    /// Late move reductions: one ply more when the nodes one ply down have cut off more than
    /// this many times since the parent started (a node whose replies keep failing high
    /// probably fails low itself; 0: never; Stockfish 15.1: 3).
    lmr_child_cutoffs = 0 in 0..=16, c_end 1.0;
    /// Late move reductions at non-PV nodes: moves tried before reductions start there
    /// (`lmr_min_moves` at PV nodes; Stockfish 15.1 reduces from the second move).
    lmr_min_moves_non_pv = 2 in 1..=6, c_end 0.5;
    /// Late move reductions: subtracted from a quiet move's history before it lowers the
    /// reduction (so a move with no history is reduced a little more; Stockfish 15.1: 4433 of
    /// its statScore, about a third of a ply).
    lmr_history_offset = 0 in 0..=8000, c_end 400.0;
    /// LMR re-search: 1 searches the full-depth re-search of a reduced move that beat alpha a
    /// ply deeper when the reduced score is far above alpha, a ply shallower when it is barely
    /// above the best score so far (Stockfish 15.1's deeper and shallower searches).
    lmr_research_adjust = 0 in 0..=1, c_end 0.5;
    /// LMR re-search: "far above alpha" is more than this plus `lmr_deeper_per_ply` a ply of
    /// the reduction.
    lmr_deeper_margin = 40 in 0..=200, c_end 8.0;
    /// LMR re-search: the deeper search's margin grows by this per ply of the reduction.
    lmr_deeper_per_ply = 6 in 0..=40, c_end 1.0;
    /// History: 1 adds a fourth quiet-move table, keyed by the side's own move four plies back
    /// (Stockfish 15.1's `contHist[3]`), to ordering, pruning and reductions (0: not used).
    continuation_ply4 = 0 in 0..=1, c_end 0.5;
    /// LMR re-search: 1 teaches the continuation and follow-up histories of a quiet move from
    /// its full-depth re-search: a bonus when it still beats alpha, a malus when it does not.
    lmr_research_history = 0 in 0..=1, c_end 0.5;

    /// The check extension: a node in check is searched a ply deeper when its remaining depth
    /// is at least this (0: at every depth). Stockfish 15.1 extends a checking move only past
    /// depth 9; 22 % of our main-search nodes are in check (issue 74).
    check_ext_min_depth = 0 in 0..=12, c_end 0.5;
    /// Pruning of checking moves (knight forks and moves against a bare king stay exempt): a
    /// check whose SEE loses more than this per ply of depth is skipped (0: checks are never
    /// pruned; Stockfish 15.1 skips a check losing more than about a pawn per ply).
    check_see_margin = 0 in 0..=400, c_end 20.0;
    /// 1: quiet checks go through late move, futility, history and SEE pruning like any quiet
    /// move (0: they are exempt).
    prune_quiet_checks = 0 in 0..=1, c_end 0.5;

    /// Quiescence: 1 searches every quiet check that loses nothing by SEE at the first
    /// quiescence ply (0: only the checking knight forks that keep their gain).
    qsearch_quiet_checks = 0 in 0..=1, c_end 0.5;
    /// Quiescence: delta pruning margin on top of the captured piece's value.
    delta_margin = 200 in 0..=600, c_end 20.0;
    /// Quiescence: when the static eval is this far below alpha, captures that do not win
    /// material (SEE < 1) are skipped.
    qsearch_see_margin = 100 in 0..=400, c_end 15.0;
    /// Quiescence, lazy evaluation of the stand pat (`eval::bounded`; 0 = off): the cheap
    /// estimate (material, piece squares, pawns and kings) stands for the evaluation where it
    /// lies more than this outside the window (docs/search.md, "Lazy evaluation").
    lazy_margin_early = 0 in 0..=3000, c_end 100.0;
    /// Quiescence, lazy evaluation (0 = off): the late estimate (all but threats and piece
    /// placement) stands for the evaluation where it lies more than this outside the window.
    lazy_margin_late = 0 in 0..=1500, c_end 50.0;
    /// Quiescence, lazy evaluation: the stand pat's score is an estimate moved this share
    /// (percent) of its margin toward the window (0: the estimate as it is, as Stockfish's
    /// classical evaluation; 100: the bound the margin guarantees). Delta and SEE pruning
    /// compare the estimate itself.
    lazy_shift_percent = 0 in 0..=100, c_end 5.0;

    /// Move ordering of quiet moves: a bonus for moving a piece that a lesser enemy piece
    /// attacks to a square no such piece attacks (a minor attacked by a pawn, a rook by a pawn
    /// or minor, a queen by a pawn, minor or rook), in history units (each history table stays
    /// within ±16,384); a rook's escape earns 5/3 of it, a queen's 10/3 (Stockfish 15.1's
    /// 15,000 / 25,000 / 50,000 on its own history scale). 0: off. At 20,000 nodes a move,
    /// with `lmr_threat_escape` 1: +36.6 Elo in 400 games against both off (issue 74).
    threat_escape_bonus = 4000 in 0..=30000, c_end 800.0;
    /// Late move reductions: plies less for a threatened piece's escape (as ordered by
    /// `threat_escape_bonus`, which must be on; Stockfish 15.1: one ply past depth 9).
    lmr_threat_escape = 1 in 0..=2, c_end 0.5;
    /// Late move reductions: plies more for a quiet move, not a check, that leaves a piece
    /// attacked by a lesser enemy piece where it stands (`threat_escape_bonus` must be on).
    lmr_ignores_threat = 0 in 0..=2, c_end 0.5;
    /// Move ordering of quiet moves: taken off a quiet move that puts a piece where a lesser
    /// enemy piece attacks it (a minor where a pawn attacks, a rook where a pawn or minor does,
    /// a queen where any of those or a rook does), in history units; a rook's 5/3 of it, a
    /// queen's 10/3. Such a move gives material away unless something else is going on, so it
    /// waits behind the others and is reduced as a late move. 0: off.
    lesser_attack_penalty = 0 in 0..=30000, c_end 800.0;
    /// Move ordering of quiet moves: a bonus for a quiet move that gives check, in history
    /// units (Stockfish 15.1: 16,384 on its own history scale). 0: off.
    quiet_check_bonus = 0 in 0..=30000, c_end 800.0;
    /// History: when every move of a node fails low, the opponent's quiet move that led there
    /// was a good one: its continuation entries get this many times the node's history bonus
    /// (Stockfish's bonus for the prior countermove). 0: off.
    prior_fail_low_bonus = 0 in 0..=3, c_end 0.5;
    /// History: when a node cuts and the opponent's quiet move that led there was its first
    /// move, that move's continuation entries get the node's history malus (its ordering
    /// failed: the move it put first is refuted). 0: off, 1: on.
    prior_refuted_malus = 0 in 0..=1, c_end 0.5;
    /// History: the butterfly table keeps four entries for each move, by whether an enemy
    /// piece attacks its from-square and its to-square (`history::history_index`). 0: off (one).
    history_threats = 0 in 0..=1, c_end 0.5;
    /// Move ordering of quiet moves: the butterfly and continuation (previous move) entries
    /// count this many times, the follow-up and ply-4 entries once (Stockfish 15.1: twice).
    history_recent_weight = 1 in 1..=3, c_end 0.5;
    /// The corrected static evaluation is rounded toward zero to a multiple of this
    /// (`Correction::grained`). 1: unchanged.
    eval_grain = 1 in 1..=32, c_end 2.0;

    /// History: the bonus (and malus) of a cutoff at depth `d` is
    /// `clamp(history_bonus_per_ply * d - history_bonus_offset, 0, history_bonus_max)`: linear,
    /// so the tables learn from a deep cutoff several times faster than from `16·d²`.
    history_bonus_per_ply = 300 in 50..=1000, c_end 30.0;
    /// History: subtracted from the linear bonus (a depth-1 cutoff says little).
    history_bonus_offset = 250 in 0..=1000, c_end 30.0;
    /// History: cap of one update (at most `HISTORY_BONUS_LIMIT`, below).
    history_bonus_max = 2400 in 500..=8000, c_end 200.0;
}

/// The largest `history_bonus_max` may be: an `i16` history entry (within ±[`HISTORY_MAX`])
/// moved by one bonus must still fit.
pub const HISTORY_BONUS_LIMIT: i32 = 8000;
const _: () = assert!(HISTORY_MAX + HISTORY_BONUS_LIMIT <= i16::MAX as i32);

/// Move ordering: added to the history score of a quiet knight fork that keeps its gain: above
/// any history score (butterfly, continuation and follow-up entries each stay within ±`HISTORY_MAX`), so
/// such forks are the first quiet moves after the killers and the counter-move.
pub const FORK_ORDER_BONUS: i32 = 1 << 20;

/// Move ordering: a capture's history counts this many times less than MVV-LVA (whose victims
/// lie 16 × their value apart).
pub const CAPTURE_HISTORY_ORDER_DIVISOR: i32 = 8;

/// History: entries are kept within ±this (gravity formula).
pub const HISTORY_MAX: i32 = 16_384;

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
