//! Late move reductions: a move searched late in a node (after the ones the ordering trusts) is
//! searched shallower first, by an amount that grows with the depth and the move number and
//! that what is known of the node and the move adjusts.

use super::node::{Candidate, Node};
use super::params::{
    LMR_BASE, LMR_CAPTURE_HISTORY_DIVISOR, LMR_CUT_NODE, LMR_DIVISOR, LMR_HISTORY_DIVISOR,
    LMR_MIN_DEPTH, LMR_MIN_MOVES,
};

/// Reductions by `[depth][move number]`, both capped at 63.
pub type LmrTable = [[i32; 64]; 64];

/// Build the late-move-reduction table: `LMR_BASE + ln(depth) * ln(moves) / LMR_DIVISOR`.
#[must_use]
pub fn lmr_table() -> Box<LmrTable> {
    let mut t = Box::new([[0; 64]; 64]);
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            let v = LMR_BASE + (d as f64).ln() * (m as f64).ln() / LMR_DIVISOR;
            *r = v as i32;
        }
    }
    t
}

/// The reduction of `mv`, the `searched`-th move of `node` (not the first), whose full-depth
/// search would go to `new_depth`; `tt_tactical` says the node's TT move is a capture or a
/// promotion. Zero for moves that are never reduced (early, winning captures, forks) and at
/// low depth; at most `new_depth - 1`.
#[must_use]
pub fn late_move_reduction(
    table: &LmrTable,
    node: &Node,
    mv: &Candidate,
    searched: usize,
    new_depth: i32,
    tt_tactical: bool,
) -> i32 {
    let depth = node.depth;
    if depth < LMR_MIN_DEPTH
        || searched <= LMR_MIN_MOVES
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
    r += LMR_CUT_NODE * i32::from(node.cut_node);
    // A tactical TT move is likely the best here; the quiet alternatives less so.
    r += i32::from(tt_tactical);
    r -= mv.history
        / if mv.quiet {
            LMR_HISTORY_DIVISOR
        } else {
            LMR_CAPTURE_HISTORY_DIVISOR
        };
    r.clamp(0, (new_depth - 1).max(0))
}
