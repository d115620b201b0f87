//! What the enemy's lesser pieces attack: the pieces of the side to move that hang to a lesser
//! attacker (a minor to a pawn, a rook to a pawn or minor, a queen to any of those or a rook),
//! and the squares where each would be out of such reach. The move picker orders those escapes
//! first and the late move reductions spare them (issue 74): history knows where a piece went
//! before, not that it must move now.

use shakmaty::{Bitboard, Board, Color, Move, Role, attacks};

/// What the enemy's lesser pieces attack, for ordering the escapes of threatened pieces.
pub(super) struct LesserThreats {
    /// Squares the enemy's pawns attack.
    by_pawn: Bitboard,
    /// Squares its pawns, knights or bishops attack.
    by_minor: Bitboard,
    /// Squares its pawns, minors or rooks attack.
    by_rook: Bitboard,
    /// The side to move's pieces attacked by a lesser enemy piece: minors by pawns, rooks by
    /// pawns or minors, queens by any of those or rooks.
    pub(super) threatened: Bitboard,
}

impl LesserThreats {
    pub(super) fn new(board: &Board, us: Color) -> LesserThreats {
        let (them, occupied) = (!us, board.occupied());
        let theirs = board.by_color(them);
        let mut by_pawn = Bitboard::EMPTY;
        for sq in board.pawns() & theirs {
            by_pawn |= attacks::pawn_attacks(them, sq);
        }
        let mut by_minor = by_pawn;
        for sq in board.knights() & theirs {
            by_minor |= attacks::knight_attacks(sq);
        }
        for sq in board.bishops() & theirs {
            by_minor |= attacks::bishop_attacks(sq, occupied);
        }
        let mut by_rook = by_minor;
        for sq in board.rooks() & theirs {
            by_rook |= attacks::rook_attacks(sq, occupied);
        }
        let ours = board.by_color(us);
        let threatened = ours
            & ((board.queens() & by_rook)
                | (board.rooks() & by_minor)
                | ((board.knights() | board.bishops()) & by_pawn));
        LesserThreats {
            by_pawn,
            by_minor,
            by_rook,
            threatened,
        }
    }

    /// The ordering bonus of quiet move `m`: a threatened queen to a square no pawn, minor or
    /// rook attacks earns 10/3 of `bonus`, a threatened rook to one no pawn or minor attacks
    /// 5/3, any threatened piece to a square no pawn attacks `bonus`; other moves nothing.
    pub(super) fn escape_bonus(&self, m: Move, bonus: i32) -> i32 {
        let (Some(from), to) = (m.from(), m.to()) else {
            return 0;
        };
        if !self.threatened.contains(from) {
            return 0;
        }
        match m.role() {
            Role::Queen if !self.by_rook.contains(to) => bonus * 10 / 3,
            Role::Rook if !self.by_minor.contains(to) => bonus * 5 / 3,
            _ if !self.by_pawn.contains(to) => bonus,
            _ => 0,
        }
    }

    /// The ordering penalty of quiet move `m`: a queen moved to a square an enemy pawn, minor
    /// or rook attacks costs 10/3 of `penalty`, a rook moved to one a pawn or minor attacks 5/3,
    /// a knight or bishop moved to one a pawn attacks `penalty`; other moves nothing.
    pub(super) fn walk_in_penalty(&self, m: Move, penalty: i32) -> i32 {
        let to = m.to();
        match m.role() {
            Role::Queen if self.by_rook.contains(to) => penalty * 10 / 3,
            Role::Rook if self.by_minor.contains(to) => penalty * 5 / 3,
            Role::Knight | Role::Bishop if self.by_pawn.contains(to) => penalty,
            _ => 0,
        }
    }
}

/// Every square an enemy piece of `us` attacks (through `board`'s occupancy): the butterfly
/// history's threat reading (`history_threats`). The lesser attackers' squares, then the
/// queens' and the king's.
pub(super) fn enemy_attacks(board: &Board, us: Color) -> Bitboard {
    let (them, occupied) = (!us, board.occupied());
    let theirs = board.by_color(them);
    let mut attacked = LesserThreats::new(board, us).by_rook;
    for sq in board.queens() & theirs {
        attacked |= attacks::queen_attacks(sq, occupied);
    }
    for sq in board.kings() & theirs {
        attacked |= attacks::king_attacks(sq);
    }
    attacked
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::board::is_tactical;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Square};
    use shakmaty::{Chess, Position};

    /// Ranks of attackers for "lesser": pawn, then the minors alike, then rook, then queen.
    fn rank(role: Role) -> u8 {
        match role {
            Role::Pawn => 0,
            Role::Knight | Role::Bishop => 1,
            Role::Rook => 2,
            Role::Queen => 3,
            Role::King => 4,
        }
    }

    /// Whether an enemy piece ranked below `below` attacks `sq`, square by square.
    fn attacked_by_lesser(pos: &Chess, sq: Square, below: u8) -> bool {
        let board = pos.board();
        let them = !pos.turn();
        board
            .attacks_to(sq, them, board.occupied())
            .into_iter()
            .any(|a| board.role_at(a).is_some_and(|r| rank(r) < below))
    }

    /// Positions with pieces hanging to lesser attackers, escapes and walk-ins.
    const FENS: [&str; 6] = [
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        "rnbqkbnr/ppp2ppp/8/3pp3/4P3/3B1N2/PPPP1PPP/RNBQK2R b KQkq - 1 3",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "2r3k1/1q3ppp/p3p3/1p1nP3/3Q4/P4N2/1P3PPP/2R3K1 w - - 0 1",
        "3k4/8/8/3p4/2N1R3/1b6/8/4K2Q w - - 0 1",
        "r1b1k2r/ppq2ppp/2n1pn2/2bp4/3N4/2P1B3/PP2BPPP/RN1QK2R w KQkq - 0 1",
    ];

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    #[test]
    fn escape_bonus_agrees_with_a_square_by_square_reading() {
        let fens = FENS;
        let mut escapes = 0;
        for fen in fens {
            let pos = position(fen);
            let threats = LesserThreats::new(pos.board(), pos.turn());
            for m in pos.legal_moves() {
                if is_tactical(m) {
                    continue;
                }
                let (from, to, role) = (m.from().unwrap(), m.to(), m.role());
                let threatened = role != Role::King
                    && role != Role::Pawn
                    && attacked_by_lesser(&pos, from, rank(role));
                let expected = if !threatened {
                    0
                } else if role == Role::Queen && !attacked_by_lesser(&pos, to, 3) {
                    30
                } else if role == Role::Rook && !attacked_by_lesser(&pos, to, 2) {
                    15
                } else if !attacked_by_lesser(&pos, to, 1) {
                    9
                } else {
                    0
                };
                assert_eq!(threats.escape_bonus(m, 9), expected, "{fen}: {m}");
                escapes += usize::from(expected > 0);
            }
        }
        assert!(
            escapes >= 10,
            "the positions hold escapes to compare ({escapes})"
        );
    }

    #[test]
    fn walk_in_penalty_agrees_with_a_square_by_square_reading() {
        let mut walk_ins = 0;
        for fen in FENS {
            let pos = position(fen);
            let threats = LesserThreats::new(pos.board(), pos.turn());
            for m in pos.legal_moves() {
                if is_tactical(m) {
                    continue;
                }
                let (to, role) = (m.to(), m.role());
                let expected = match role {
                    Role::Queen if attacked_by_lesser(&pos, to, 3) => 30,
                    Role::Rook if attacked_by_lesser(&pos, to, 2) => 15,
                    Role::Knight | Role::Bishop if attacked_by_lesser(&pos, to, 1) => 9,
                    _ => 0,
                };
                assert_eq!(threats.walk_in_penalty(m, 9), expected, "{fen}: {m}");
                walk_ins += usize::from(expected > 0);
            }
        }
        assert!(walk_ins >= 10, "the positions hold walk-ins ({walk_ins})");
    }

    #[test]
    fn enemy_attacks_are_the_squares_with_an_enemy_attacker() {
        for fen in FENS {
            let pos = position(fen);
            let board = pos.board();
            let attacked = enemy_attacks(board, pos.turn());
            for sq in Square::ALL {
                let any = board.attacks_to(sq, !pos.turn(), board.occupied()).any();
                assert_eq!(attacked.contains(sq), any, "{fen}: {sq}");
            }
        }
    }
}
