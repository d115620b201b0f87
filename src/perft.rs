//! Perft: counting leaf nodes of the legal move tree, the standard check of a move generator.

use std::sync::atomic::{AtomicBool, Ordering};

use shakmaty::{Chess, Move, Position};

/// Subtrees at most this deep are counted by [`perft_until`] without looking at the stop flag
/// (a depth-5 subtree takes well under a second); deeper ones check it at every node above that.
const UNINTERRUPTED_DEPTH: u32 = 5;

/// Number of leaf nodes of the legal move tree of `pos` at `depth` plies (bulk-counted).
///
/// ```
/// use shakmaty::Chess;
/// assert_eq!(minkowski::perft::perft(&Chess::default(), 3), 8_902);
/// ```
#[must_use]
pub fn perft(pos: &Chess, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| {
            let mut child = pos.clone();
            child.play_unchecked(*m);
            perft(&child, depth - 1)
        })
        .sum()
}

/// Perft split by root move: each legal move with the leaf count below it, in generation order.
///
/// ```
/// use shakmaty::Chess;
/// let split = minkowski::perft::divide(&Chess::default(), 2);
/// assert_eq!(split.len(), 20);
/// assert!(split.iter().all(|(_, n)| *n == 20));
/// ```
#[must_use]
pub fn divide(pos: &Chess, depth: u32) -> Vec<(Move, u64)> {
    pos.legal_moves()
        .iter()
        .map(|m| {
            let mut child = pos.clone();
            child.play_unchecked(*m);
            (*m, perft(&child, depth.saturating_sub(1)))
        })
        .collect()
}

/// [`perft`] that another thread can cut short: `None` once `stop` is set (checked at every node
/// more than a few plies above the leaves, so a deep count ends within a fraction of a second).
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use shakmaty::Chess;
/// use minkowski::perft::perft_until;
/// assert_eq!(perft_until(&Chess::default(), 3, &AtomicBool::new(false)), Some(8_902));
/// assert_eq!(perft_until(&Chess::default(), 7, &AtomicBool::new(true)), None);
/// ```
#[must_use]
pub fn perft_until(pos: &Chess, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    if depth <= UNINTERRUPTED_DEPTH {
        return Some(perft(pos, depth));
    }
    let mut total = 0;
    for m in pos.legal_moves() {
        let mut child = pos.clone();
        child.play_unchecked(m);
        total += perft_until(&child, depth - 1, stop)?;
    }
    Some(total)
}
