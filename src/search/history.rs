//! The history heuristics: killer moves, butterfly history, continuation history by the
//! previous move and follow-up history by the side's own move before it, counter-moves, capture
//! history, and (beside them, in `correction.rs`) the static-eval correction tables.

use shakmaty::{Bitboard, Color, Move};

use super::correction::Correction;
use super::frame::STACK_PLIES;
use super::params::{HISTORY_BONUS_LIMIT, HISTORY_MAX, SearchParams};
use super::tt::PackedMove;
use crate::eval::weights::role_index;
use crate::value::MAX_PLY;

/// The moves that led to a node: `[0]` the opponent's last move, `[1]` the side's own move
/// before it, `[2]` the side's own move before that, four plies back (`None` at the root, after
/// a null move, when the line is shorter, and `[2]` unless `continuation_ply4` is on).
pub type Prior = [Option<Move>; 3];

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
    /// The same shape again, keyed by the side's own move four plies back (Stockfish's
    /// `contHist[3]`): read and written only when the prior carries that move.
    ply4: Vec<i16>,
    counter: Vec<PackedMove>,
    /// Capture history `[color][mover][to][victim]`: how often a capture of this kind cut.
    capture: Vec<i16>,
    /// The static-eval correction tables (kept and cleared with the move-ordering tables).
    pub correction: Correction,
}

impl Default for Heuristics {
    fn default() -> Heuristics {
        Heuristics {
            killers: vec![[PackedMove::NONE; 2]; STACK_PLIES],
            history: vec![0; 2 * 4 * 64 * 64],
            continuation: vec![0; 2 * PIECE_SQUARES * PIECE_SQUARES],
            followup: vec![0; 2 * PIECE_SQUARES * PIECE_SQUARES],
            ply4: vec![0; 2 * PIECE_SQUARES * PIECE_SQUARES],
            counter: vec![PackedMove::NONE; 2 * 7 * 64],
            capture: vec![0; 2 * 6 * 64 * VICTIMS],
            correction: Correction::default(),
        }
    }
}

/// The butterfly entry of `color`'s move `m`, in one of four tables by whether the enemy
/// attacks (`attacked`) its from-square and its to-square: a move away from an attack, into
/// one, or neither is a different move, though history by squares alone cannot tell them
/// apart. With `attacked` empty (`history_threats` off) every move reads the first table.
fn history_index(color: Color, attacked: Bitboard, m: Move) -> usize {
    let from = m.from();
    let threat = 2 * usize::from(from.is_some_and(|f| attacked.contains(f)))
        + usize::from(attacked.contains(m.to()));
    let from = from.map_or(0, |s| s as usize);
    ((color as usize * 4 + threat) * 64 + from) * 64 + m.to() as usize
}

/// Number of (piece kind, square) pairs.
const PIECE_SQUARES: usize = 6 * 64;

fn piece_square(m: Move) -> usize {
    role_index(m.role()) * 64 + m.to() as usize
}

// The continuation table's entries fit an `i16` with room to spare (`params.rs` holds
// `history_bonus_max` to `HISTORY_BONUS_LIMIT`).
const _: () = assert!(HISTORY_MAX + HISTORY_BONUS_LIMIT <= i16::MAX as i32);

/// Where the continuation (or follow-up) row of `color`'s replies to `prev` starts.
fn continuation_row(color: Color, prev: Move) -> usize {
    (color as usize * PIECE_SQUARES + piece_square(prev)) * PIECE_SQUARES
}

fn continuation_index(color: Color, prev: Move, m: Move) -> usize {
    continuation_row(color, prev) + piece_square(m)
}

/// Move an `i16` entry by `bonus` with gravity towards zero (entries stay within
/// ±`HISTORY_MAX`).
fn gravity(entry: &mut i16, bonus: i32) {
    let old = i32::from(*entry);
    let new = old + bonus - old * bonus.abs() / HISTORY_MAX;
    *entry = new.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
}

/// Victim kinds of the capture history: the six roles, and none (a quiet queen promotion).
const VICTIMS: usize = 7;

fn capture_index(color: Color, m: Move) -> usize {
    let victim = m.capture().map_or(VICTIMS - 1, role_index);
    ((color as usize * 6 + role_index(m.role())) * 64 + m.to() as usize) * VICTIMS + victim
}

fn counter_index(color: Color, prev: Move) -> usize {
    color as usize * 448 + prev.role() as usize * 64 + prev.to() as usize
}

impl Heuristics {
    /// Forget everything.
    pub fn clear(&mut self) {
        *self = Heuristics::default();
    }

    /// Ordering score of a quiet move: butterfly, continuation and follow-up history (the picker
    /// scores a whole node's quiet moves through [`Heuristics::quiet_scorer`]).
    #[must_use]
    pub fn quiet_score(&self, color: Color, prior: Prior, attacked: Bitboard, m: Move) -> i32 {
        self.quiet_scorer(color, prior, attacked, 1)(m)
    }

    /// The quiet-move scorer of one node: the table rows that depend only on `color` and
    /// `prior` are found once, so scoring each move is three loads (four with the ply-4 table),
    /// which overlap across the moves of a loop. The butterfly and continuation entries count
    /// `recent` times (`history_recent_weight` in the picker's ordering; 1 elsewhere).
    #[inline]
    pub fn quiet_scorer<'a>(
        &'a self,
        color: Color,
        prior: Prior,
        attacked: Bitboard,
        recent: i32,
    ) -> impl Fn(Move) -> i32 + 'a {
        let row = |table: &'a [i16], prev: Option<Move>| {
            prev.map(|p| &table[continuation_row(color, p)..][..PIECE_SQUARES])
        };
        let continuation = row(&self.continuation, prior[0]);
        let followup = row(&self.followup, prior[1]);
        let ply4 = row(&self.ply4, prior[2]);
        move |m| {
            let to = piece_square(m);
            recent
                * (self.history[history_index(color, attacked, m)]
                    + continuation.map_or(0, |r| i32::from(r[to])))
                + followup.map_or(0, |r| i32::from(r[to]))
                + ply4.map_or(0, |r| i32::from(r[to]))
        }
    }

    /// Reward (`bonus > 0`) or punish a quiet move played after `prior`, with gravity towards
    /// zero, in the butterfly, continuation and follow-up tables.
    pub fn update_history(
        &mut self,
        color: Color,
        prior: Prior,
        attacked: Bitboard,
        m: Move,
        bonus: i32,
    ) {
        let h = &mut self.history[history_index(color, attacked, m)];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
        self.update_continuations(color, prior, m, bonus);
    }

    /// Reward or punish a quiet move played after `prior` in the continuation and follow-up
    /// tables only (what a line of play teaches, not the move on its own).
    pub fn update_continuations(&mut self, color: Color, prior: Prior, m: Move, bonus: i32) {
        if let Some(p) = prior[0] {
            gravity(
                &mut self.continuation[continuation_index(color, p, m)],
                bonus,
            );
        }
        if let Some(p) = prior[1] {
            gravity(&mut self.followup[continuation_index(color, p, m)], bonus);
        }
        if let Some(p) = prior[2] {
            gravity(&mut self.ply4[continuation_index(color, p, m)], bonus);
        }
    }

    /// Capture-history score of a tactical move (capture or promotion) of `color`.
    #[must_use]
    pub fn capture_score(&self, color: Color, m: Move) -> i32 {
        i32::from(self.capture[capture_index(color, m)])
    }

    /// Reward (`bonus > 0`) or punish a tactical move, with gravity towards zero.
    pub fn update_capture(&mut self, color: Color, m: Move, bonus: i32) {
        gravity(&mut self.capture[capture_index(color, m)], bonus);
    }

    /// History bonus (and malus) for a cutoff at `depth` with the formula of `params`: linear
    /// in depth, so deep cutoffs teach more than the old `16·d²` capped at 1,600 did at depths
    /// 2-9, and capped.
    #[must_use]
    pub fn bonus(params: &SearchParams, depth: i32) -> i32 {
        (params.history_bonus_per_ply * depth - params.history_bonus_offset)
            .clamp(0, params.history_bonus_max)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::test_support::XorShift64;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position, Role, Square};
    use std::collections::HashMap;

    /// The four tables as maps keyed by what they mean, updated by the same gravity rule: the
    /// scorer must read back exactly what the updates wrote, move by move and prior by prior.
    #[test]
    fn quiet_scores_read_back_what_the_updates_wrote() {
        type Key = (Color, Option<(Role, Square)>, Option<Square>, Role, Square);
        let pos: Chess = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let ours: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| !m.is_capture())
            .collect();
        let theirs: Vec<Move> = pos.clone().swap_turn().unwrap().legal_moves().to_vec();
        let mut heur = Heuristics::default();
        // (table, (color, previous move's piece and square, from-square, role, to)) -> entry;
        // in one position a from-square has one piece, so the butterfly table (from and to
        // only) may carry the role in its key too.
        let mut model: HashMap<(u8, Key), i32> = HashMap::new();
        let color = pos.turn();
        let key = |m: Move| (m.role(), m.to());
        let mut rng = XorShift64(0x853c_49e6_748f_ea9b);
        let mut next = |n: usize| rng.below(n);
        for _ in 0..2000 {
            let m = ours[next(ours.len())];
            let prior: Prior = [
                (next(4) > 0).then(|| theirs[next(theirs.len())]),
                (next(4) > 0).then(|| ours[next(ours.len())]),
                (next(4) > 0).then(|| ours[next(ours.len())]),
            ];
            let max = SearchParams::default().history_bonus_max;
            let bonus = next(2 * max as usize) as i32 - max;
            heur.update_history(color, prior, Bitboard::EMPTY, m, bonus);
            let entries = [
                (0, (color, None, m.from(), m.role(), m.to())),
                (1, (color, prior[0].map(key), None, m.role(), m.to())),
                (2, (color, prior[1].map(key), None, m.role(), m.to())),
                (3, (color, prior[2].map(key), None, m.role(), m.to())),
            ];
            for (kind, k) in entries {
                if kind > 0 && k.1.is_none() {
                    continue;
                }
                let e = model.entry((kind, k)).or_insert(0);
                let moved = *e + bonus - *e * bonus.abs() / HISTORY_MAX;
                *e = if kind == 0 {
                    moved
                } else {
                    moved.clamp(-32768, 32767)
                };
            }
            // Read back a random move under this prior.
            let q = ours[next(ours.len())];
            let mut expected = model
                .get(&(0, (color, None, q.from(), q.role(), q.to())))
                .copied()
                .unwrap_or(0);
            for (kind, prev) in [(1, prior[0]), (2, prior[1]), (3, prior[2])] {
                if let Some(p) = prev {
                    expected += model
                        .get(&(kind, (color, Some(key(p)), None, q.role(), q.to())))
                        .copied()
                        .unwrap_or(0);
                }
            }
            assert_eq!(
                heur.quiet_score(color, prior, Bitboard::EMPTY, q),
                expected,
                "{q:?} after {prior:?}"
            );
        }
    }

    /// With the enemy's attacks given, a move's butterfly entry is one of four by whether its
    /// from- and to-squares are attacked: an update under one reading of the board leaves the
    /// entries of the other three readings untouched (the continuation tables, shared by all
    /// four, are left out by an empty prior).
    #[test]
    fn threat_buckets_keep_apart() {
        let pos: Chess = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let m = pos
            .legal_moves()
            .into_iter()
            .find(|m| m.from() == Some(Square::C4) && m.to() == Square::B5)
            .unwrap();
        let readings = [
            Bitboard::EMPTY,
            Bitboard::from_square(Square::C4),
            Bitboard::from_square(Square::B5),
            Bitboard::from_square(Square::C4) | Bitboard::from_square(Square::B5),
        ];
        let (color, prior) = (pos.turn(), [None; 3]);
        for (i, &written) in readings.iter().enumerate() {
            let mut heur = Heuristics::default();
            heur.update_history(color, prior, written, m, 1000);
            for (j, &read) in readings.iter().enumerate() {
                let expected = if i == j { 1000 } else { 0 };
                assert_eq!(heur.quiet_score(color, prior, read, m), expected, "{i} {j}");
            }
            // Attacks elsewhere on the board do not move the entry.
            let elsewhere = written | Bitboard::from_square(Square::H8);
            assert_eq!(heur.quiet_score(color, prior, elsewhere, m), 1000);
        }
    }
}
