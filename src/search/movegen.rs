//! Legal move generation for a position that is not in check, split into the tactical moves and
//! the quiet moves ([`is_tactical`](super::board::is_tactical)), each handed out in exactly the
//! order shakmaty's `legal_moves()` lists them. The picker generates the quiet moves only when
//! it reaches them (most nodes are cut by the TT move or a capture first), and because the order
//! is shakmaty's, moves with equal ordering scores come out as before: same search, less work.
//!
//! Checked against `legal_moves()` (same moves, same order) in the tests below.

use shakmaty::{
    Bitboard, Board, CastlingSide, Chess, Color, Move, Position, Role, Square, attacks,
};

use super::board::line_blockers;

/// The squares a pawn capture or push comes from are a shift of the targets; these are the
/// targets' shifts by direction, as shakmaty's generator visits them.
const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// What both halves of the generation need, computed once per node.
#[derive(Clone, Copy, Debug)]
pub struct LegalGen {
    king: Square,
    /// Our pieces pinned to our king: they may only move along the line through it.
    pinned: Bitboard,
}

impl LegalGen {
    /// The generator for `pos` (not in check); `None` without a king of the side to move.
    #[must_use]
    pub fn new(pos: &Chess) -> Option<LegalGen> {
        let board = pos.board();
        let us = pos.turn();
        let king = board.king_of(us)?;
        Some(LegalGen {
            king,
            pinned: line_blockers(board, king, !us, board.by_color(us)),
        })
    }

    /// Whether `m` (from [`unpack_candidate`](super::board::unpack_candidate): a piece of the
    /// side to move on its origin, role and capture as on the board) is legal in `pos`, which
    /// is not in check — the same answer as `pos.is_legal(m)`, without generating moves.
    #[must_use]
    pub fn is_legal(&self, pos: &Chess, m: Move) -> bool {
        let board = pos.board();
        let us = pos.turn();
        match m {
            Move::Normal {
                role,
                from,
                to,
                promotion,
                ..
            } => {
                if board.by_color(us).contains(to) {
                    return false;
                }
                let occupied = board.occupied();
                let reachable = match role {
                    Role::Pawn => {
                        let promotion_ok = if Bitboard::BACKRANKS.contains(to) {
                            matches!(
                                promotion,
                                Some(Role::Queen | Role::Rook | Role::Bishop | Role::Knight)
                            )
                        } else {
                            promotion.is_none()
                        };
                        if !promotion_ok {
                            return false;
                        }
                        let forward = forward(us);
                        if occupied.contains(to) {
                            attacks::pawn_attacks(us, from).contains(to)
                        } else {
                            let step = to as i32 - from as i32;
                            step == forward
                                || (step == 2 * forward
                                    && from.rank()
                                        == us.fold_wb(
                                            shakmaty::Rank::Second,
                                            shakmaty::Rank::Seventh,
                                        )
                                    && !occupied.contains(back(to, forward)))
                        }
                    }
                    _ if promotion.is_some() => return false,
                    Role::King => {
                        return attacks::king_attacks(from).contains(to)
                            && board.attacks_to(to, !us, occupied).is_empty();
                    }
                    _ => attacks::attacks(from, role.of(us), occupied).contains(to),
                };
                reachable && self.safe(from, to)
            }
            Move::EnPassant { .. } => {
                pos.maybe_ep_square().is_some() && pos.en_passant_moves().contains(&m)
            }
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_king_side(king < rook);
                self.castle(pos, side) == Some(m)
            }
            Move::Put { .. } => false,
        }
    }

    /// Whether the move `from`–`to` of a non-king piece leaves the king safe.
    fn safe(&self, from: Square, to: Square) -> bool {
        !self.pinned.contains(from) || attacks::aligned(from, to, self.king)
    }

    /// The tactical moves (captures and queen promotions) in `legal_moves()` order.
    pub fn tacticals(&self, pos: &Chess, mut push: impl FnMut(Move)) {
        let board = pos.board();
        let us = pos.turn();
        let theirs = board.by_color(!us);
        let occupied = board.occupied();
        if pos.maybe_ep_square().is_some() {
            for m in pos.en_passant_moves() {
                push(m);
            }
        }
        let pawns = board.by_piece(Role::Pawn.of(us)).0;
        let captures = match us {
            Color::White => [(((pawns & !FILE_A) << 7), 7), (((pawns & !FILE_H) << 9), 9)],
            Color::Black => [
                (((pawns & !FILE_A) >> 9), -9),
                (((pawns & !FILE_H) >> 7), -7),
            ],
        };
        for (targets, offset) in captures {
            let targets = Bitboard(targets) & theirs;
            for to in targets & !Bitboard::BACKRANKS {
                let from = back(to, offset);
                if self.safe(from, to) {
                    push(pawn_move(board, from, to, None));
                }
            }
            for to in targets & Bitboard::BACKRANKS {
                let from = back(to, offset);
                if self.safe(from, to) {
                    for p in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                        push(pawn_move(board, from, to, Some(p)));
                    }
                }
            }
        }
        let forward = forward(us);
        let pushes = Bitboard(shift(pawns, forward)) & !occupied;
        for to in pushes & Bitboard::BACKRANKS {
            let from = back(to, forward);
            if self.safe(from, to) {
                push(pawn_move(board, from, to, Some(Role::Queen)));
            }
        }
        self.pieces(board, us, theirs, &mut push);
        self.king_moves(board, us, theirs, &mut push);
    }

    /// The quiet moves (everything not tactical: underpromotions and castling included) in
    /// `legal_moves()` order.
    pub fn quiets(&self, pos: &Chess, mut push: impl FnMut(Move)) {
        let board = pos.board();
        let us = pos.turn();
        let occupied = board.occupied();
        let empty = !occupied;
        let forward = forward(us);
        let pawns = board.by_piece(Role::Pawn.of(us)).0;
        let single = Bitboard(shift(pawns, forward)) & empty;
        for to in single & !Bitboard::BACKRANKS {
            let from = back(to, forward);
            if self.safe(from, to) {
                push(pawn_move(board, from, to, None));
            }
        }
        for to in single & Bitboard::BACKRANKS {
            let from = back(to, forward);
            if self.safe(from, to) {
                for p in [Role::Rook, Role::Bishop, Role::Knight] {
                    push(pawn_move(board, from, to, Some(p)));
                }
            }
        }
        let double_rank = match us {
            Color::White => Bitboard::from_rank(shakmaty::Rank::Fourth),
            Color::Black => Bitboard::from_rank(shakmaty::Rank::Fifth),
        };
        let double = Bitboard(shift(single.0, forward)) & empty & double_rank;
        for to in double {
            let from = back(to, 2 * forward);
            if self.safe(from, to) {
                push(pawn_move(board, from, to, None));
            }
        }
        self.pieces(board, us, empty, &mut push);
        self.king_moves(board, us, empty, &mut push);
        for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
            if let Some(m) = self.castle(pos, side) {
                push(m);
            }
        }
    }

    /// Knight, bishop, rook and queen moves to `target`, by role, origin and target square.
    fn pieces(&self, board: &Board, us: Color, target: Bitboard, push: &mut impl FnMut(Move)) {
        let occupied = board.occupied();
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            for from in board.by_piece(role.of(us)) {
                let mut targets = match role {
                    Role::Knight => attacks::knight_attacks(from),
                    Role::Bishop => attacks::bishop_attacks(from, occupied),
                    Role::Rook => attacks::rook_attacks(from, occupied),
                    _ => attacks::queen_attacks(from, occupied),
                } & target;
                if self.pinned.contains(from) {
                    targets &= attacks::ray(self.king, from);
                }
                for to in targets {
                    push(Move::Normal {
                        role,
                        from,
                        capture: board.role_at(to),
                        to,
                        promotion: None,
                    });
                }
            }
        }
    }

    /// King moves to unattacked squares of `target` (not in check, so the king itself blocks
    /// nothing that matters).
    fn king_moves(&self, board: &Board, us: Color, target: Bitboard, push: &mut impl FnMut(Move)) {
        let occupied = board.occupied();
        for to in attacks::king_attacks(self.king) & target {
            if board.attacks_to(to, !us, occupied).is_empty() {
                push(Move::Normal {
                    role: Role::King,
                    from: self.king,
                    capture: board.role_at(to),
                    to,
                    promotion: None,
                });
            }
        }
    }

    /// Castling to `side`, if legal: the right, an empty path, and no attacked square on the
    /// king's way or at its destination (with the king and rook lifted).
    fn castle(&self, pos: &Chess, side: CastlingSide) -> Option<Move> {
        let us = pos.turn();
        let castles = pos.castles();
        let rook = castles.rook(us, side)?;
        let board = pos.board();
        let occupied = board.occupied();
        if (castles.path(us, side) & occupied).any() {
            return None;
        }
        let king = self.king;
        let king_to = side.king_to(us);
        let lifted = occupied ^ king ^ rook ^ side.rook_to(us);
        if board.attacks_to(king_to, !us, lifted).any() {
            return None;
        }
        let without_king = occupied ^ king;
        for sq in attacks::between(king, king_to).with(king) {
            if board.attacks_to(sq, !us, without_king).any() {
                return None;
            }
        }
        Some(Move::Castle { king, rook })
    }
}

/// A pawn move (its capture read from the board).
fn pawn_move(board: &Board, from: Square, to: Square, promotion: Option<Role>) -> Move {
    Move::Normal {
        role: Role::Pawn,
        from,
        capture: board.role_at(to),
        to,
        promotion,
    }
}

fn forward(us: Color) -> i32 {
    match us {
        Color::White => 8,
        Color::Black => -8,
    }
}

fn shift(bits: u64, offset: i32) -> u64 {
    if offset >= 0 {
        bits << offset
    } else {
        bits >> -offset
    }
}

/// The square `offset` before `to` (a shifted target always has one).
fn back(to: Square, offset: i32) -> Square {
    Square::new((to as i32 - offset) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::board::{is_tactical, unpack_candidate};
    use crate::search::test_support::XorShift64;
    use crate::search::tt::PackedMove;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    const FENS: &[&str] = &[
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "4k3/8/8/2KPp2r/8/8/8/8 w - e6 0 1",
        "1k6/8/8/8/8/8/5p2/7K b - - 0 1",
        "1r2k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1",
        "r1bqkbnr/pPpppppp/8/8/8/8/1PPPPPpP/RNBQKBNR w KQkq - 0 1",
    ];

    /// Random games from each position: at every node not in check, the tactical moves then
    /// the quiet moves are `legal_moves()` split in two, each in the same order.
    #[test]
    fn split_generation_is_legal_moves_in_order() {
        let mut rng = XorShift64(0x2545_f491_4f6c_dd1d);
        for (n, fen) in FENS.iter().enumerate() {
            let mode = if n % 2 == 0 {
                CastlingMode::Standard
            } else {
                CastlingMode::Chess960
            };
            for _ in 0..16 {
                let mut pos: Chess = fen.parse::<Fen>().unwrap().into_position(mode).unwrap();
                for ply in 0..80 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    if !pos.is_check() {
                        let g = LegalGen::new(&pos).unwrap();
                        let mut tactical = Vec::new();
                        let mut quiet = Vec::new();
                        g.tacticals(&pos, |m| tactical.push(m));
                        g.quiets(&pos, |m| quiet.push(m));
                        let want_tactical: Vec<Move> =
                            moves.iter().copied().filter(|&m| is_tactical(m)).collect();
                        let want_quiet: Vec<Move> =
                            moves.iter().copied().filter(|&m| !is_tactical(m)).collect();
                        let fen = Fen::from_position(&pos, shakmaty::EnPassantMode::Legal);
                        assert_eq!(tactical, want_tactical, "{fen}");
                        assert_eq!(quiet, want_quiet, "{fen}");
                        // Every from-to pair with every promotion code, legal or not (at
                        // every eighth position: shakmaty's answer is slow to get).
                        for code in (0..(1u16 << 15)).filter(|_| ply % 8 == 0) {
                            let packed = PackedMove(code);
                            if let Some(m) = unpack_candidate(&pos, packed) {
                                assert_eq!(g.is_legal(&pos, m), pos.is_legal(m), "{fen} {m:?}");
                            }
                        }
                    }
                    let m = moves[rng.below(moves.len())];
                    pos.play_unchecked(m);
                }
            }
        }
    }
}
