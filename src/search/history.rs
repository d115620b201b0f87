//! The history heuristics: killer moves, butterfly history, continuation history by the
//! previous move and follow-up history by the side's own move before it, counter-moves.

use shakmaty::{Color, Move};

use super::params::{HISTORY_BONUS_MAX, HISTORY_BONUS_OFFSET, HISTORY_BONUS_PER_PLY, HISTORY_MAX};
use super::tt::PackedMove;
use super::worker::STACK_PLIES;
use crate::eval::weights::role_index;
use crate::value::MAX_PLY;

/// The moves that led to a node: `[0]` the opponent's last move, `[1]` the side's own move
/// before it (`None` at the root, after a null move, or when the line is shorter).
pub type Prior = [Option<Move>; 2];

/// Killer moves, butterfly history, continuation history (by the previous move), follow-up
/// history (by the move two plies back) and counter-moves, kept across iterations and searches.
#[derive(Clone, Debug)]
pub struct Heuristics {
    killers: Vec<[PackedMove; 2]>,
    history: Vec<i32>,
    /// `i16` (the gravity formula keeps entries within ±`HISTORY_MAX`): half the cache
    /// footprint of this large, randomly read table.
    continuation: Vec<i16>,
    /// The same shape as `continuation`, keyed by the move two plies back.
    followup: Vec<i16>,
    counter: Vec<PackedMove>,
}

impl Default for Heuristics {
    fn default() -> Heuristics {
        Heuristics {
            killers: vec![[PackedMove::NONE; 2]; STACK_PLIES],
            history: vec![0; 2 * 64 * 64],
            continuation: vec![0; 2 * PIECE_SQUARES * PIECE_SQUARES],
            followup: vec![0; 2 * PIECE_SQUARES * PIECE_SQUARES],
            counter: vec![PackedMove::NONE; 2 * 7 * 64],
        }
    }
}

fn history_index(color: Color, m: Move) -> usize {
    let from = m.from().map_or(0, |s| s as usize);
    color as usize * 4096 + from * 64 + m.to() as usize
}

/// Number of (piece kind, square) pairs.
const PIECE_SQUARES: usize = 6 * 64;

fn piece_square(m: Move) -> usize {
    role_index(m.role()) * 64 + m.to() as usize
}

// The continuation table's entries fit an `i16` with room to spare.
const _: () = assert!(HISTORY_MAX + HISTORY_BONUS_MAX <= i16::MAX as i32);

fn continuation_index(color: Color, prev: Move, m: Move) -> usize {
    (color as usize * PIECE_SQUARES + piece_square(prev)) * PIECE_SQUARES + piece_square(m)
}

/// Move an `i16` entry by `bonus` with gravity towards zero (entries stay within
/// ±`HISTORY_MAX`).
fn gravity(entry: &mut i16, bonus: i32) {
    let old = i32::from(*entry);
    let new = old + bonus - old * bonus.abs() / HISTORY_MAX;
    *entry = new.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
}

fn counter_index(color: Color, prev: Move) -> usize {
    color as usize * 448 + prev.role() as usize * 64 + prev.to() as usize
}

impl Heuristics {
    /// Forget everything.
    pub fn clear(&mut self) {
        *self = Heuristics::default();
    }

    /// History score of a quiet move for `color`.
    #[must_use]
    #[inline]
    pub fn history(&self, color: Color, m: Move) -> i32 {
        self.history[history_index(color, m)]
    }

    /// Continuation history of a quiet move `m` for `color` played in reply to `prev`.
    #[must_use]
    #[inline]
    pub fn continuation(&self, color: Color, prev: Option<Move>, m: Move) -> i32 {
        prev.map_or(0, |p| {
            i32::from(self.continuation[continuation_index(color, p, m)])
        })
    }

    /// Follow-up history of a quiet move `m` for `color` whose own previous move was `prev2`.
    #[must_use]
    #[inline]
    pub fn followup(&self, color: Color, prev2: Option<Move>, m: Move) -> i32 {
        prev2.map_or(0, |p| {
            i32::from(self.followup[continuation_index(color, p, m)])
        })
    }

    /// Ordering score of a quiet move: butterfly, continuation and follow-up history. Inlined:
    /// the picker scores every quiet move of a node in one loop, where the parts that depend only
    /// on the prior moves are computed once and the table loads of different moves overlap.
    #[must_use]
    #[inline]
    pub fn quiet_score(&self, color: Color, prior: Prior, m: Move) -> i32 {
        self.history(color, m)
            + self.continuation(color, prior[0], m)
            + self.followup(color, prior[1], m)
    }

    /// Reward (`bonus > 0`) or punish a quiet move played after `prior`, with gravity towards
    /// zero, in the butterfly, continuation and follow-up tables.
    pub fn update_history(&mut self, color: Color, prior: Prior, m: Move, bonus: i32) {
        let h = &mut self.history[history_index(color, m)];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
        if let Some(p) = prior[0] {
            gravity(
                &mut self.continuation[continuation_index(color, p, m)],
                bonus,
            );
        }
        if let Some(p) = prior[1] {
            gravity(&mut self.followup[continuation_index(color, p, m)], bonus);
        }
    }

    /// History bonus (and malus) for a cutoff at `depth`: linear in depth, so deep cutoffs
    /// teach more than the old `16·d²` capped at 1,600 did at depths 2-9, and capped.
    #[must_use]
    pub fn bonus(depth: i32) -> i32 {
        (HISTORY_BONUS_PER_PLY * depth - HISTORY_BONUS_OFFSET).clamp(0, HISTORY_BONUS_MAX)
    }

    /// Record a quiet move that caused a beta cutoff at `ply` after `prev`.
    pub fn store_cutoff(&mut self, color: Color, ply: usize, m: Move, prev: Option<Move>) {
        let p = PackedMove::pack(m);
        let k = &mut self.killers[ply];
        if k[0] != p {
            k[1] = k[0];
            k[0] = p;
        }
        if let Some(prev) = prev {
            self.counter[counter_index(!color, prev)] = p;
        }
    }

    /// The two killers at `ply`, newest first.
    #[must_use]
    pub fn killers(&self, ply: usize) -> [PackedMove; 2] {
        self.killers[ply.min(MAX_PLY)]
    }

    /// Forget the killers of the ply below `ply` (its subtree starts fresh).
    pub fn clear_killers(&mut self, ply: usize) {
        self.killers[ply] = [PackedMove::NONE; 2];
    }

    /// The counter-move stored as the reply to `prev` (played by `!color`).
    #[must_use]
    pub fn counter_move(&self, color: Color, prev: Option<Move>) -> PackedMove {
        prev.map_or(PackedMove::NONE, |p| self.counter[counter_index(!color, p)])
    }
}
