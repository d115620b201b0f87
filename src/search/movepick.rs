//! Move ordering: static exchange evaluation, the history heuristics, and a scored move list
//! that hands out moves best-first by lazy selection.
//!
//! Order: TT move, good captures and queen promotions (SEE ≥ 0, by MVV-LVA), killers, the
//! counter-move, quiet moves by history, bad captures.

use arrayvec::ArrayVec;
use shakmaty::{Bitboard, Chess, Color, Move, MoveList, Position, Role};

use super::params::{HISTORY_BONUS_FACTOR, HISTORY_BONUS_MAX, HISTORY_MAX};
use super::tt::PackedMove;
use crate::eval::weights::role_index;
use crate::value::MAX_PLY;

/// Piece values for exchange evaluation and MVV-LVA, indexed by [`role_index`].
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 900, 20_000];

const TT_SCORE: i32 = 30_000_000;
const GOOD_CAPTURE_SCORE: i32 = 20_000_000;
const KILLER_SCORE: i32 = 10_000_000;
const COUNTER_SCORE: i32 = 9_000_000;
const BAD_CAPTURE_SCORE: i32 = -20_000_000;

fn role_value(role: Role) -> i32 {
    SEE_VALUE[role_index(role)]
}

/// Value of what `m` captures (a pawn for en passant, 0 for non-captures).
#[must_use]
pub fn captured_value(m: Move) -> i32 {
    match m {
        Move::EnPassant { .. } => role_value(Role::Pawn),
        _ => m.capture().map_or(0, role_value),
    }
}

/// Static exchange evaluation of `m`: the material the side to move gains if both sides keep
/// recapturing on the target square with their least valuable piece (pins ignored).
#[must_use]
pub fn see(pos: &Chess, m: Move) -> i32 {
    let (from, to) = match m {
        Move::Normal { from, to, .. } | Move::EnPassant { from, to } => (from, to),
        _ => return 0,
    };
    let board = pos.board();
    let mut occupied = board.occupied() ^ Bitboard::from_square(from);
    if let Move::EnPassant { .. } = m {
        let victim = shakmaty::Square::from_coords(to.file(), from.rank());
        occupied ^= Bitboard::from_square(victim);
    }
    let mut gain: ArrayVec<i32, 40> = ArrayVec::new();
    let mut on_square = m.promotion().unwrap_or(m.role());
    let mut first = captured_value(m);
    if let Some(p) = m.promotion() {
        first += role_value(p) - role_value(Role::Pawn);
    }
    gain.push(first);
    let mut side = !pos.turn();
    loop {
        let attackers = board.attacks_to(to, side, occupied) & occupied;
        if attackers.is_empty() || gain.is_full() {
            break;
        }
        let mut picked = None;
        for role in Role::ALL {
            let set = attackers & board.by_role(role);
            if let Some(sq) = set.first() {
                picked = Some((role, sq));
                break;
            }
        }
        let Some((role, sq)) = picked else { break };
        if role == Role::King && (board.attacks_to(to, !side, occupied) & occupied).any() {
            // The king may not capture into a defended square.
            break;
        }
        let prev = *gain.last().unwrap_or(&0);
        gain.push(role_value(on_square) - prev);
        occupied ^= Bitboard::from_square(sq);
        on_square = role;
        side = !side;
    }
    while gain.len() > 1 {
        let last = gain.pop().unwrap_or(0);
        if let Some(prev) = gain.last_mut() {
            *prev = -(-*prev).max(last);
        }
    }
    gain[0]
}

/// Killer moves, butterfly history, continuation history (by the previous move) and
/// counter-moves, kept across iterations and searches.
#[derive(Clone, Debug)]
pub struct Heuristics {
    killers: Vec<[PackedMove; 2]>,
    history: Vec<i32>,
    continuation: Vec<i32>,
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
        prev.map_or(0, |p| self.continuation[continuation_index(color, p, m)])
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
            *c += bonus - *c * bonus.abs() / HISTORY_MAX;
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

    /// Forget the killers of the ply below `ply` (its subtree starts fresh).
    pub fn clear_killers(&mut self, ply: usize) {
        self.killers[ply] = [PackedMove::NONE; 2];
    }

    fn counter_move(&self, color: Color, prev: Option<Move>) -> PackedMove {
        prev.map_or(PackedMove::NONE, |p| self.counter[counter_index(!color, p)])
    }
}

/// One move handed out by the [`MovePicker`].
#[derive(Clone, Copy, Debug)]
pub struct Picked {
    /// The move.
    pub mv: Move,
    /// Its exchange value (0 for quiet moves).
    pub see: i32,
    /// Whether it is a killer or the counter-move.
    pub refutation: bool,
}

/// A scored move list handing out the best remaining move on each call.
#[derive(Debug)]
pub struct MovePicker {
    moves: MoveList,
    scores: ArrayVec<i32, 270>,
    sees: ArrayVec<i32, 270>,
    next: usize,
}

/// Whether `m` is searched by quiescence: captures and queen promotions.
#[must_use]
pub fn is_tactical(m: Move) -> bool {
    m.is_capture() || m.promotion() == Some(Role::Queen)
}

impl MovePicker {
    /// Score `moves` (all legal moves of `pos`, or the subset to search) for ordering.
    #[must_use]
    pub fn new(
        pos: &Chess,
        moves: MoveList,
        tt_move: PackedMove,
        heur: &Heuristics,
        ply: usize,
        prev: Option<Move>,
    ) -> MovePicker {
        let turn = pos.turn();
        let counter = heur.counter_move(turn, prev);
        let killers = heur.killers[ply.min(MAX_PLY)];
        let mut scores = ArrayVec::new();
        let mut sees = ArrayVec::new();
        for &m in &moves {
            let (score, s) = if tt_move.matches(m) {
                (TT_SCORE, if is_tactical(m) { see(pos, m) } else { 0 })
            } else if is_tactical(m) {
                let s = see(pos, m);
                let mvv_lva = captured_value(m) * 16 - role_value(m.role()) / 10
                    + m.promotion().map_or(0, role_value);
                if s >= 0 {
                    (GOOD_CAPTURE_SCORE + mvv_lva, s)
                } else {
                    (BAD_CAPTURE_SCORE + mvv_lva, s)
                }
            } else if killers[0].matches(m) {
                (KILLER_SCORE + 2, 0)
            } else if killers[1].matches(m) {
                (KILLER_SCORE + 1, 0)
            } else if counter.matches(m) {
                (COUNTER_SCORE, 0)
            } else {
                (heur.quiet_score(turn, prev, m), 0)
            };
            scores.push(score);
            sees.push(s);
        }
        MovePicker {
            moves,
            scores,
            sees,
            next: 0,
        }
    }
}

impl Iterator for MovePicker {
    type Item = Picked;

    fn next(&mut self) -> Option<Picked> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..n {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        self.sees.swap(self.next, best);
        let i = self.next;
        self.next += 1;
        let score = self.scores[i];
        Some(Picked {
            mv: self.moves[i],
            see: self.sees[i],
            refutation: (COUNTER_SCORE..TT_SCORE).contains(&score) && score < GOOD_CAPTURE_SCORE,
        })
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn see_of_a_rook_taking_a_defended_pawn_loses_the_exchange() {
        use super::see;
        use shakmaty::{CastlingMode, Chess, fen::Fen, uci::UciMove};
        // A rook takes a pawn defended by a pawn: loses 400.
        let pos: Chess = "4k3/8/3p4/4p3/8/8/8/4RK2 w - - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let m = "e1e5".parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        assert_eq!(see(&pos, m), 100 - 500);
    }
}
