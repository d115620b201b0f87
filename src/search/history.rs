//! The history heuristics: killer moves, butterfly, continuation and capture history,
//! counter-moves.

use shakmaty::{Color, Move, Role};

use super::params::{HISTORY_BONUS_FACTOR, HISTORY_BONUS_MAX, HISTORY_MAX};
use super::tt::PackedMove;
use crate::eval::weights::role_index;
use crate::value::MAX_PLY;

/// The moves that led to a node, newest first: the opponent's last move, then the side to
/// move's own move before it (`None` at the root, after a null move or before the game's
/// first moves). Continuation histories are indexed by them.
pub type PriorMoves = [Option<Move>; CONTINUATION_PLIES];

/// How many earlier moves index a continuation history (1: the reply to the opponent's move;
/// 2: the follow-up to our own previous move).
pub const CONTINUATION_PLIES: usize = 2;

/// Killer moves, butterfly history, continuation histories (by each of the last two moves),
/// capture history and counter-moves, kept across iterations and searches.
#[derive(Clone, Debug)]
pub struct Heuristics {
    killers: Vec<[PackedMove; 2]>,
    history: Vec<i32>,
    /// `i16` (the gravity formula keeps entries within ±`HISTORY_MAX`): half the cache
    /// footprint of this large, randomly read table.
    continuation: [Vec<i16>; CONTINUATION_PLIES],
    /// Tactical moves by (side, moving piece, target square, victim): how often each has
    /// refuted a node, to order captures of equal material value (`i16` like `continuation`).
    capture: Vec<i16>,
    counter: Vec<PackedMove>,
}

impl Default for Heuristics {
    fn default() -> Heuristics {
        Heuristics {
            killers: vec![[PackedMove::NONE; 2]; MAX_PLY + 2],
            history: vec![0; 2 * 64 * 64],
            continuation: std::array::from_fn(|_| vec![0; 2 * PIECE_SQUARES * PIECE_SQUARES]),
            capture: vec![0; 2 * PIECE_SQUARES * VICTIMS],
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

/// Victim slots of the capture history: pawn to queen by [`role_index`], and the king's slot
/// (a king is never captured) for the tactical moves that capture nothing, queen promotions.
const VICTIMS: usize = 6;

fn capture_index(color: Color, m: Move) -> usize {
    // `capture()` is a pawn for en passant.
    let victim = role_index(m.capture().unwrap_or(Role::King));
    (color as usize * PIECE_SQUARES + piece_square(m)) * VICTIMS + victim
}

/// The gravity update shared by every table: `bonus` is added, scaled down as the entry nears
/// ±`HISTORY_MAX` in its direction, so entries stay within bounds and old news fades.
fn gravity(entry: i32, bonus: i32) -> i32 {
    entry + bonus - entry * bonus.abs() / HISTORY_MAX
}

/// [`gravity`] on an `i16` entry (the clamp never binds; it only makes the narrowing safe).
fn gravity16(entry: &mut i16, bonus: i32) {
    let new = gravity(i32::from(*entry), bonus);
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
    pub fn history(&self, color: Color, m: Move) -> i32 {
        self.history[history_index(color, m)]
    }

    /// Continuation history of a quiet move `m` for `color` played `plies_back + 1` plies
    /// after `prior` (0: in reply to the opponent's move; 1: as a follow-up to our own).
    #[must_use]
    pub fn continuation(
        &self,
        color: Color,
        plies_back: usize,
        prior: Option<Move>,
        m: Move,
    ) -> i32 {
        prior.map_or(0, |p| {
            i32::from(self.continuation[plies_back][continuation_index(color, p, m)])
        })
    }

    /// Ordering score of a quiet move: butterfly plus every continuation history.
    #[must_use]
    pub fn quiet_score(&self, color: Color, prior: PriorMoves, m: Move) -> i32 {
        let mut score = self.history(color, m);
        for (back, &p) in prior.iter().enumerate() {
            score += self.continuation(color, back, p, m);
        }
        score
    }

    /// Reward (`bonus > 0`) or punish a quiet move played after `prior`, with gravity towards
    /// zero, in the butterfly and every continuation table.
    pub fn update_history(&mut self, color: Color, prior: PriorMoves, m: Move, bonus: i32) {
        let h = &mut self.history[history_index(color, m)];
        *h = gravity(*h, bonus);
        for (back, &p) in prior.iter().enumerate() {
            if let Some(p) = p {
                gravity16(
                    &mut self.continuation[back][continuation_index(color, p, m)],
                    bonus,
                );
            }
        }
    }

    /// Capture history of a tactical move (capture or queen promotion) for `color`, within
    /// ±`HISTORY_MAX`.
    #[must_use]
    pub fn capture(&self, color: Color, m: Move) -> i32 {
        i32::from(self.capture[capture_index(color, m)])
    }

    /// Reward (`bonus > 0`) or punish a tactical move, with the same gravity as the quiet
    /// history.
    pub fn update_capture(&mut self, color: Color, m: Move, bonus: i32) {
        gravity16(&mut self.capture[capture_index(color, m)], bonus);
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

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Square;

    fn capture(role: Role, to: Square, victim: Role) -> Move {
        Move::Normal {
            role,
            from: Square::A1,
            capture: Some(victim),
            to,
            promotion: None,
        }
    }

    #[test]
    fn capture_history_bonus_malus_and_bounds() {
        let mut h = Heuristics::default();
        let m = capture(Role::Knight, Square::E5, Role::Bishop);
        assert_eq!(h.capture(Color::White, m), 0);
        h.update_capture(Color::White, m, Heuristics::bonus(6));
        let raised = h.capture(Color::White, m);
        assert!(raised > 0);
        h.update_capture(Color::White, m, -Heuristics::bonus(3));
        assert!(h.capture(Color::White, m) < raised);
        // Gravity: repeated full bonuses (and maluses) never leave ±HISTORY_MAX.
        for _ in 0..1000 {
            h.update_capture(Color::White, m, HISTORY_BONUS_MAX);
            assert!(h.capture(Color::White, m) <= HISTORY_MAX);
        }
        assert!(h.capture(Color::White, m) > HISTORY_MAX / 2);
        for _ in 0..1000 {
            h.update_capture(Color::White, m, -HISTORY_BONUS_MAX);
            assert!(h.capture(Color::White, m) >= -HISTORY_MAX);
        }
        assert!(h.capture(Color::White, m) < -HISTORY_MAX / 2);
    }

    #[test]
    fn capture_history_indexing_separates_victims_sides_and_pieces() {
        let mut h = Heuristics::default();
        let nxb = capture(Role::Knight, Square::E5, Role::Bishop);
        h.update_capture(Color::White, nxb, 1000);
        assert!(h.capture(Color::White, nxb) > 0);
        // Another victim, side, mover or square: untouched.
        for other in [Role::Pawn, Role::Knight, Role::Rook, Role::Queen] {
            let m = capture(Role::Knight, Square::E5, other);
            assert_eq!(h.capture(Color::White, m), 0, "{other:?}");
        }
        assert_eq!(h.capture(Color::Black, nxb), 0);
        assert_eq!(
            h.capture(
                Color::White,
                capture(Role::Bishop, Square::E5, Role::Bishop)
            ),
            0
        );
        assert_eq!(
            h.capture(
                Color::White,
                capture(Role::Knight, Square::E4, Role::Bishop)
            ),
            0
        );
        // A quiet queen promotion takes the king's slot; en passant counts as taking a pawn.
        let promo = Move::Normal {
            role: Role::Pawn,
            from: Square::E7,
            capture: None,
            to: Square::E8,
            promotion: Some(Role::Queen),
        };
        let pxp = capture(Role::Pawn, Square::E8, Role::Pawn);
        h.update_capture(Color::White, promo, 1000);
        assert!(h.capture(Color::White, promo) > 0);
        assert_eq!(h.capture(Color::White, pxp), 0);
        let ep = Move::EnPassant {
            from: Square::E5,
            to: Square::D6,
        };
        h.update_capture(Color::White, ep, -1000);
        assert_eq!(
            h.capture(Color::White, capture(Role::Pawn, Square::D6, Role::Pawn)),
            h.capture(Color::White, ep)
        );
    }

    fn quiet(role: Role, from: Square, to: Square) -> Move {
        Move::Normal {
            role,
            from,
            capture: None,
            to,
            promotion: None,
        }
    }

    #[test]
    fn follow_up_history_depends_on_our_previous_move() {
        let mut heur = Heuristics::default();
        let theirs = quiet(Role::Pawn, Square::E7, Square::E5);
        let ours = quiet(Role::Knight, Square::G1, Square::F3);
        let other_ours = quiet(Role::Bishop, Square::F1, Square::C4);
        let m = quiet(Role::Knight, Square::B1, Square::C3);
        heur.update_history(Color::White, [Some(theirs), Some(ours)], m, 1000);
        let same = heur.quiet_score(Color::White, [Some(theirs), Some(ours)], m);
        let other = heur.quiet_score(Color::White, [Some(theirs), Some(other_ours)], m);
        let none = heur.quiet_score(Color::White, [None, None], m);
        assert_eq!(none, 1000, "butterfly only");
        assert_eq!(other, 2000, "butterfly and reply history");
        assert_eq!(same, 3000, "butterfly, reply and follow-up history");
        assert_eq!(heur.continuation(Color::White, 1, Some(ours), m), 1000);
        assert_eq!(heur.continuation(Color::Black, 1, Some(ours), m), 0);
    }

    #[test]
    fn gravity_keeps_every_table_in_bounds() {
        let mut heur = Heuristics::default();
        let prior = [
            Some(quiet(Role::Queen, Square::D8, Square::D5)),
            Some(quiet(Role::Rook, Square::A1, Square::D1)),
        ];
        let m = quiet(Role::King, Square::E1, Square::F1);
        for _ in 0..1000 {
            heur.update_history(Color::White, prior, m, HISTORY_BONUS_MAX);
        }
        for back in 0..CONTINUATION_PLIES {
            let c = heur.continuation(Color::White, back, prior[back], m);
            assert!(c > HISTORY_MAX / 2 && c <= HISTORY_MAX, "{c}");
        }
        for _ in 0..1000 {
            heur.update_history(Color::White, prior, m, -HISTORY_BONUS_MAX);
        }
        assert!(heur.quiet_score(Color::White, prior, m) < -HISTORY_MAX);
    }
}
