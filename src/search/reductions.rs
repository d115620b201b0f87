//! Late move reductions: a move searched late in a node (after the ones the ordering trusts) is
//! searched shallower first, by an amount that grows with the depth and the move number and
//! that what is known of the node and the move adjusts.

use super::node::{Candidate, Node};
use super::params::SearchParams;

/// Reductions by `[depth][move number]`, both capped at 63.
pub type LmrTable = [[i32; 64]; 64];

/// Build the late-move-reduction table of `params`: `base + ln(depth) * ln(moves) / divisor`
/// (`lmr_base_x100` and `lmr_divisor_x100` over 100: 1.5 and 2.25 by default, in plies).
#[must_use]
pub fn lmr_table(params: &SearchParams) -> Box<LmrTable> {
    let base = f64::from(params.lmr_base_x100) / 100.0;
    let divisor = f64::from(params.lmr_divisor_x100) / 100.0;
    let mut t = Box::new([[0; 64]; 64]);
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            let v = base + (d as f64).ln() * (m as f64).ln() / divisor;
            *r = v as i32;
        }
    }
    t
}

/// The reduction of `mv`, the `searched`-th move of `node` (not the first), whose full-depth
/// search would go to `new_depth`, with the table and the adjustments of `params`;
/// `tt_tactical` says the node's TT move is a capture or a promotion. Zero for moves that are never reduced (early, winning captures, forks) and at
/// low depth; at most `new_depth - 1`.
#[must_use]
pub fn late_move_reduction(
    table: &LmrTable,
    params: &SearchParams,
    node: &Node,
    mv: &Candidate,
    searched: usize,
    new_depth: i32,
    tt_tactical: bool,
) -> i32 {
    let depth = node.depth;
    let min_moves = if node.pv_node {
        params.lmr_min_moves
    } else {
        params.lmr_min_moves_non_pv
    };
    if depth < params.lmr_min_depth
        || searched <= min_moves as usize
        || !(mv.quiet || mv.picked.see < 0)
        || mv.picked.fork
    {
        return 0;
    }
    let mut r = table[depth.min(63) as usize][searched.min(63)];
    r += i32::from(!node.pv_node) - i32::from(node.pv_node);
    r -= i32::from(node.eval.improving);
    r -= i32::from(mv.picked.refutation);
    r -= i32::from(mv.gives_check);
    // A node expected to fail high needs only one move to do it: the late ones are searched
    // shallower still.
    r += params.lmr_cut_node * i32::from(node.cut_node);
    // A tactical TT move is likely the best here; the quiet alternatives less so.
    r += i32::from(tt_tactical);
    // Against a bare king the win is a long net of quiet moves (KBNK takes thirty): reduced as
    // hard as a middlegame's late moves, they are not found in time.
    r -= params.lmr_bare_king_relief * i32::from(node.bare_king);
    r -= node_adjustment(params, node, mv);
    r -= if mv.quiet {
        (mv.history - params.lmr_history_offset) / params.lmr_history_divisor
    } else {
        mv.history / params.lmr_capture_history_divisor
    };
    r.clamp(0, (new_depth - 1).max(0))
}

/// Plies less reduction from where the node stands in the tree (each off at its default):
/// on a principal variation now or before and not likely to fail low (`lmr_tt_pv`); reached by
/// a late move of the opponent's, who had to search far for it (`lmr_parent_late_move`); and a
/// ply more (negative) when the replies one ply down keep cutting off (`lmr_child_cutoffs`).
fn node_adjustment(params: &SearchParams, node: &Node, mv: &Candidate) -> i32 {
    let on_pv = node.tt_pv && !node.likely_fail_low();
    let late_reply =
        params.lmr_parent_late_move > 0 && node.parent_move >= params.lmr_parent_late_move as usize;
    let cutting_replies =
        params.lmr_child_cutoffs > 0 && mv.child_cutoffs > params.lmr_child_cutoffs as u32;
    params.lmr_tt_pv * i32::from(on_pv) + i32::from(late_reply) - i32::from(cutting_replies)
}
