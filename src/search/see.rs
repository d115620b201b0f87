//! Static exchange evaluation: what a capture wins or loses when both sides keep recapturing on
//! its square with their least valuable piece. Move ordering and pruning both ask it.

use shakmaty::{Bitboard, Chess, Color, Move, Position, Role, attacks};

use crate::eval::tactics::EXCHANGE_VALUE;
use crate::eval::weights::role_index;

/// Piece values for exchange evaluation and MVV-LVA, indexed by [`role_index`]: the library's
/// [`EXCHANGE_VALUE`], which the fork estimate shares.
pub const SEE_VALUE: [i32; 6] = EXCHANGE_VALUE;

pub(crate) fn role_value(role: Role) -> i32 {
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
    // The attackers of both colours that do not slide, and the sliders by direction; the
    // sliders' reach is recomputed as pieces leave (x-rays), the rest never changes.
    let white = board.by_color(Color::White);
    let steppers = (attacks::knight_attacks(to) & board.knights())
        | (attacks::king_attacks(to) & board.kings())
        | (attacks::pawn_attacks(Color::Black, to) & board.pawns() & white)
        | (attacks::pawn_attacks(Color::White, to) & board.pawns() & !white);
    let straight = board.rooks_and_queens();
    let diagonal = board.bishops_and_queens();
    let attackers_at = |occupied: Bitboard| {
        (steppers
            | (attacks::rook_attacks(to, occupied) & straight)
            | (attacks::bishop_attacks(to, occupied) & diagonal))
            & occupied
    };
    let mut gain = [0i32; 40];
    let mut depth = 0;
    let mut on_square = m.promotion().unwrap_or(m.role());
    gain[0] = captured_value(m);
    if let Some(p) = m.promotion() {
        gain[0] += role_value(p) - role_value(Role::Pawn);
    }
    let mut side = !pos.turn();
    let mut all = attackers_at(occupied);
    while depth + 1 < gain.len() {
        let attackers = all & board.by_color(side);
        if attackers.is_empty() {
            break;
        }
        let mut picked = None;
        for role in Role::ALL {
            if let Some(sq) = (attackers & board.by_role(role)).first() {
                picked = Some((role, sq));
                break;
            }
        }
        let Some((role, sq)) = picked else { break };
        if role == Role::King && (all & board.by_color(!side)).any() {
            // The king may not capture into a defended square.
            break;
        }
        depth += 1;
        gain[depth] = role_value(on_square) - gain[depth - 1];
        occupied ^= Bitboard::from_square(sq);
        all = attackers_at(occupied);
        on_square = role;
        side = !side;
    }
    while depth > 0 {
        gain[depth - 1] = -(-gain[depth - 1]).max(gain[depth]);
        depth -= 1;
    }
    gain[0]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::test_support::XorShift64;
    use arrayvec::ArrayVec;

    /// The exchange evaluation as first written (every attacker set recomputed from the board,
    /// an `ArrayVec` of gains): the oracle for the faster [`see`].
    fn see_reference(pos: &Chess, m: Move) -> i32 {
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

    /// Random games: `see` equals the reference on every move, and a quiet move that promotes
    /// nothing never loses more than the piece it moves (the bound futility pruning relies on).
    #[test]
    fn see_matches_the_reference() {
        use shakmaty::{CastlingMode, fen::Fen};
        let mut rng = XorShift64(0x1234_5678_9abc_def1);
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        ] {
            for _ in 0..30 {
                let mut pos: Chess = fen
                    .parse::<Fen>()
                    .unwrap()
                    .into_position(CastlingMode::Standard)
                    .unwrap();
                for _ in 0..80 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    for &m in &moves {
                        let value = see(&pos, m);
                        assert_eq!(value, see_reference(&pos, m), "{m:?}");
                        if !m.is_capture() && m.promotion().is_none() {
                            assert!(value >= -role_value(m.role()), "{m:?}: {value}");
                        }
                    }
                    pos.play_unchecked(moves[rng.below(moves.len())]);
                }
            }
        }
    }

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
