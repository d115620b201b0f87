//! Perft: counting leaf nodes of the legal move tree, the standard check of a move generator.

use shakmaty::{Chess, Move, Position};

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
