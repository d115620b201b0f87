//! The history heuristics: killer moves, butterfly and continuation history, counter-moves.

use shakmaty::{Color, Move};

use super::params::{HISTORY_BONUS_FACTOR, HISTORY_BONUS_MAX, HISTORY_MAX};
use super::tt::PackedMove;
use crate::eval::weights::role_index;
use crate::value::MAX_PLY;

/// Killer moves, butterfly history, continuation history (by the previous move) and
/// counter-moves, kept across iterations and searches.
#[derive(Clone, Debug)]
pub struct Heuristics {
    killers: Vec<[PackedMove; 2]>,
    history: Vec<i32>,
    /// `i16` (the gravity formula keeps entries within ±`HISTORY_MAX`): half the cache
    /// footprint of this large, randomly read table.
    continuation: Vec<i16>,
    counter: Vec<PackedMove>,
}

impl Default for Heuristics {
    fn default() -> Heuristics {
        Heuristics {
            killers: vec![[PackedMove::NONE; 2]; MAX_PLY + 2],
            history: vec![0; 2 * 64 * 64],
            continuation: vec![0; 2 * PIECE_SQUARES * PIECE_SQUARES],
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
    pub fn history(&self, color: Color, m: Move) -> i32 {
        self.history[history_index(color, m)]
    }

    /// Continuation history of a quiet move `m` for `color` played in reply to `prev`.
    #[must_use]
    pub fn continuation(&self, color: Color, prev: Option<Move>, m: Move) -> i32 {
        prev.map_or(0, |p| {
            i32::from(self.continuation[continuation_index(color, p, m)])
        })
    }

    /// Ordering score of a quiet move: butterfly plus continuation history.
    #[must_use]
    pub fn quiet_score(&self, color: Color, prev: Option<Move>, m: Move) -> i32 {
        self.history(color, m) + self.continuation(color, prev, m)
    }

    /// Reward (`bonus > 0`) or punish a quiet move played after `prev`, with gravity towards
    /// zero, in both the butterfly and the continuation table.
    pub fn update_history(&mut self, color: Color, prev: Option<Move>, m: Move, bonus: i32) {
        let h = &mut self.history[history_index(color, m)];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
        if let Some(p) = prev {
            let c = &mut self.continuation[continuation_index(color, p, m)];
            let old = i32::from(*c);
            let new = old + bonus - old * bonus.abs() / HISTORY_MAX;
            *c = new.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
        }
    }

    /// History bonus for a cutoff at `depth`.
    #[must_use]
    pub fn bonus(depth: i32) -> i32 {
        (HISTORY_BONUS_FACTOR * depth * depth).min(HISTORY_BONUS_MAX)
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
