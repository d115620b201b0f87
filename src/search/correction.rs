//! Correction histories: the static evaluation corrected by what the search has learned about
//! positions that share its pawn structure or one side's non-pawn pieces.
//!
//! The evaluation misjudges some features systematically (a pawn structure it under- or
//! over-rates, a piece configuration whose coordination it misses). Where the search's score of
//! a node differs from the static eval, the difference is remembered under the node's pawn key
//! and under each side's non-pawn key; a later node with the same keys adds what was learned.
//! The pruning margins (reverse futility, futility, null move, ProbCut) and *improving* then
//! work from a better estimate.

use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{Board, CastlingSide, Color, Move, Role, Square};

use super::params::{
    CORRECTION_GRAIN, CORRECTION_LIMIT, CORRECTION_MAX_WEIGHT, CORRECTION_NON_PAWN_WEIGHT,
    CORRECTION_PAWN_WEIGHT,
};
use crate::value::Value;

/// Entries per table and side to move (a power of two).
const ENTRIES: usize = 16_384;

/// The keys of a position's correction entries: its pawns, and each side's other pieces (king
/// included), as Zobrist sums of those pieces alone. Kept move by move like the full key.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CorrectionKeys {
    /// The pawns of both sides.
    pub pawn: u64,
    /// The pieces other than pawns, per colour (`Color as usize`).
    pub non_pawn: [u64; 2],
}

impl CorrectionKeys {
    /// The keys of `board`, from scratch.
    #[must_use]
    pub fn new(board: &Board) -> CorrectionKeys {
        let mut keys = CorrectionKeys::default();
        for sq in board.occupied() {
            if let Some(piece) = board.piece_at(sq) {
                keys.toggle(sq, piece.role, piece.color);
            }
        }
        keys
    }

    fn toggle(&mut self, sq: Square, role: Role, color: Color) {
        let z = Zobrist64::zobrist_for_piece(sq, role.of(color)).0;
        if role == Role::Pawn {
            self.pawn ^= z;
        } else {
            self.non_pawn[color as usize] ^= z;
        }
    }

    /// The keys after `us` plays `m` (legal in the position these keys belong to).
    #[must_use]
    pub fn after(mut self, us: Color, m: Move) -> CorrectionKeys {
        match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                self.toggle(from, role, us);
                self.toggle(to, promotion.unwrap_or(role), us);
                if let Some(c) = capture {
                    self.toggle(to, c, !us);
                }
            }
            Move::EnPassant { from, to } => {
                self.toggle(from, Role::Pawn, us);
                self.toggle(to, Role::Pawn, us);
                self.toggle(Square::from_coords(to.file(), from.rank()), Role::Pawn, !us);
            }
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_king_side(king < rook);
                self.toggle(king, Role::King, us);
                self.toggle(side.king_to(us), Role::King, us);
                self.toggle(rook, Role::Rook, us);
                self.toggle(side.rook_to(us), Role::Rook, us);
            }
            Move::Put { .. } => {}
        }
        self
    }
}

/// One correction table: `[side to move][key % ENTRIES]`, in centipawns × `CORRECTION_GRAIN`.
#[derive(Clone, Debug)]
struct Table(Vec<i16>);

impl Default for Table {
    fn default() -> Table {
        Table(vec![0; 2 * ENTRIES])
    }
}

impl Table {
    fn index(color: Color, key: u64) -> usize {
        color as usize * ENTRIES + (key as usize & (ENTRIES - 1))
    }

    fn get(&self, color: Color, key: u64) -> i32 {
        i32::from(self.0[Table::index(color, key)])
    }

    /// Move the entry towards `target` (grain units) by `weight`/256 of the distance, kept
    /// within ±`CORRECTION_LIMIT`.
    fn update(&mut self, color: Color, key: u64, target: i32, weight: i32) {
        let e = &mut self.0[Table::index(color, key)];
        let old = i32::from(*e);
        let new = (old * (256 - weight) + target * weight) / 256;
        *e = new.clamp(-CORRECTION_LIMIT, CORRECTION_LIMIT) as i16;
    }
}

// An entry fits an `i16`.
const _: () = assert!(CORRECTION_LIMIT <= i16::MAX as i32);

/// The correction tables of one thread (kept across searches, cleared on a new game).
#[derive(Clone, Debug, Default)]
pub struct Correction {
    pawn: Table,
    non_pawn: [Table; 2],
}

impl Correction {
    /// The correction of a static eval of a position with `keys` and `color` to move, in
    /// centipawns: a weighted mean of the entries.
    #[must_use]
    pub fn correction(&self, color: Color, keys: &CorrectionKeys) -> i32 {
        let sum = CORRECTION_PAWN_WEIGHT * self.pawn.get(color, keys.pawn)
            + CORRECTION_NON_PAWN_WEIGHT
                * (self.non_pawn[0].get(color, keys.non_pawn[0])
                    + self.non_pawn[1].get(color, keys.non_pawn[1]));
        sum / (CORRECTION_GRAIN * (CORRECTION_PAWN_WEIGHT + 2 * CORRECTION_NON_PAWN_WEIGHT))
    }

    /// `raw` (a static eval, not in check) corrected, kept out of the mate and tablebase range.
    #[must_use]
    pub fn corrected(&self, color: Color, keys: &CorrectionKeys, raw: Value) -> Value {
        let bound = Value::TB_WIN_BOUND.0 - 1;
        Value((raw.0 + self.correction(color, keys)).clamp(-bound, bound))
    }

    /// `corrected` rounded toward zero to a multiple of `grain` (`eval_grain`; 1: unchanged):
    /// values a few centipawns apart are the evaluation's noise, and as equals they let the
    /// null-window searches and the TT agree more often (Stockfish's classical evaluation
    /// rounds to 16 of its units, about 8 of ours).
    #[must_use]
    pub fn grained(corrected: Value, grain: i32) -> Value {
        Value(corrected.0 / grain * grain)
    }

    /// Learn from a node searched to `depth` whose score `score` differs from its raw static
    /// eval `raw`: every entry moves towards the difference, deeper searches by more.
    pub fn update(
        &mut self,
        color: Color,
        keys: &CorrectionKeys,
        depth: i32,
        raw: Value,
        score: Value,
    ) {
        let target = (score.0 - raw.0) * CORRECTION_GRAIN;
        let weight = (depth + 1).min(CORRECTION_MAX_WEIGHT);
        self.pawn.update(color, keys.pawn, target, weight);
        for (table, &key) in self.non_pawn.iter_mut().zip(&keys.non_pawn) {
            table.update(color, key, target, weight);
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn grained_rounds_toward_zero_to_a_multiple() {
        for grain in [1, 2, 8, 16] {
            for v in -200..=200 {
                let r = Correction::grained(Value(v), grain).0;
                // The multiple of `grain` nearest zero among those within `grain` of `v` on
                // zero's side: found by walking from `v` toward zero.
                let mut naive = v;
                while naive % grain != 0 {
                    naive -= naive.signum();
                }
                assert_eq!(r, naive, "{v} by {grain}");
            }
        }
    }

    use super::*;
    use crate::search::test_support::XorShift64;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position};

    #[test]
    fn incremental_keys_equal_keys_from_scratch() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "1k6/8/8/8/8/8/5p2/7K b - - 0 1",
        ];
        let mut rng = XorShift64(0x2545_f491_4f6c_dd1d);
        let mut moves_checked = 0;
        for fen in fens {
            for _ in 0..20 {
                let mut pos: Chess = fen
                    .parse::<Fen>()
                    .unwrap()
                    .into_position(CastlingMode::Chess960)
                    .unwrap();
                let mut keys = CorrectionKeys::new(pos.board());
                for _ in 0..80 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves[rng.below(moves.len())];
                    keys = keys.after(pos.turn(), m);
                    pos.play_unchecked(m);
                    assert_eq!(keys, CorrectionKeys::new(pos.board()), "{m:?}");
                    moves_checked += 1;
                }
            }
        }
        assert!(moves_checked > 1000);
    }

    #[test]
    fn updates_move_towards_the_error_and_stay_clamped() {
        let mut c = Correction::default();
        let keys = CorrectionKeys::new(&Board::default());
        assert_eq!(c.correction(Color::White, &keys), 0);
        // The search keeps finding the position 40 cp better than its eval.
        for _ in 0..200 {
            c.update(Color::White, &keys, 10, Value(0), Value(40));
        }
        // (Integer steps settle within a centipawn or two below the target.)
        assert!((38..=40).contains(&c.correction(Color::White, &keys)));
        // The other side to move has its own entries.
        assert_eq!(c.correction(Color::Black, &keys), 0);
        // A huge error is clamped.
        for _ in 0..200 {
            c.update(Color::White, &keys, 20, Value(0), Value(5000));
        }
        let limit = CORRECTION_LIMIT / CORRECTION_GRAIN;
        assert_eq!(c.correction(Color::White, &keys), limit);
        // A corrected eval never reaches the tablebase or mate range.
        let near_win = Value(Value::TB_WIN_BOUND.0 - 2);
        assert!(c.corrected(Color::White, &keys, near_win) < Value::TB_WIN_BOUND);
        for _ in 0..200 {
            c.update(Color::White, &keys, 20, Value(0), Value(-5000));
        }
        assert_eq!(c.correction(Color::White, &keys), -limit);
    }

    #[test]
    fn a_pawn_move_changes_only_the_pawn_key() {
        let pos = Chess::default();
        let keys = CorrectionKeys::new(pos.board());
        let m = pos.legal_moves()[0];
        let after = keys.after(pos.turn(), m);
        let role = m.role();
        if role == Role::Pawn {
            assert_ne!(after.pawn, keys.pawn);
            assert_eq!(after.non_pawn, keys.non_pawn);
        } else {
            assert_eq!(after.pawn, keys.pawn);
            assert_ne!(after.non_pawn[0], keys.non_pawn[0]);
        }
    }
}
