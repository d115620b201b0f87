//! Bitboard helpers the search uses to avoid playing moves it will not search: a cheap
//! "gives check" test, a generator of the tactical moves only (quiescence), the TT move turned
//! back into a move, and the Zobrist key of a child computed from its parent's.
//!
//! Each is checked against shakmaty (play the move, generate everything, hash from scratch) in
//! the tests below.

use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{
    Bitboard, Board, CastlingSide, Chess, Color, EnPassantMode, Move, Position, Role, Square,
    attacks,
};

use super::tt::PackedMove;

/// What it takes to tell, without playing it, whether a move of the side to move gives check.
/// Computed once per node.
#[derive(Clone, Copy, Debug)]
pub struct CheckInfo {
    /// The enemy king (none only in malformed positions: then nothing gives check).
    king: Option<Square>,
    /// Squares from which a piece of each role (indexed by `Role as usize`) attacks that king.
    squares: [Bitboard; 7],
    /// Our pieces standing alone between one of our sliders and the enemy king: moving one off
    /// the line uncovers a check.
    discoverers: Bitboard,
    occupied: Bitboard,
}

impl CheckInfo {
    /// A `CheckInfo` that says no move gives check: for a picker that is never asked to hand
    /// out only checking quiet moves (quiescence), so its check squares need not be computed.
    pub const NONE: CheckInfo = CheckInfo {
        king: None,
        squares: [Bitboard::EMPTY; 7],
        discoverers: Bitboard::EMPTY,
        occupied: Bitboard::EMPTY,
    };

    /// The check squares and discovered-check candidates of `pos`'s side to move.
    #[must_use]
    pub fn new(pos: &Chess) -> CheckInfo {
        let board = pos.board();
        let us = pos.turn();
        let occupied = board.occupied();
        let mut info = CheckInfo {
            king: board.king_of(!us),
            squares: [Bitboard::EMPTY; 7],
            discoverers: Bitboard::EMPTY,
            occupied,
        };
        let Some(king) = info.king else {
            return info;
        };
        let diagonal = attacks::bishop_attacks(king, occupied);
        let straight = attacks::rook_attacks(king, occupied);
        info.squares[Role::Pawn as usize] = attacks::pawn_attacks(!us, king);
        info.squares[Role::Knight as usize] = attacks::knight_attacks(king);
        info.squares[Role::Bishop as usize] = diagonal;
        info.squares[Role::Rook as usize] = straight;
        info.squares[Role::Queen as usize] = diagonal | straight;
        info.discoverers = line_blockers(board, king, us, board.by_color(us));
        info
    }

    /// Whether `m` (legal in `pos`) gives check, with the common case — an ordinary move that
    /// neither lands on a check square nor leaves a discovery line — decided inline.
    #[inline]
    #[must_use]
    pub fn gives_check_quick(&self, pos: &Chess, m: Move) -> bool {
        if let Move::Normal {
            role,
            from,
            to,
            promotion: None,
            ..
        } = m
            && !self.discoverers.contains(from)
        {
            return self.squares[role as usize].contains(to);
        }
        self.gives_check(pos, m)
    }

    /// Whether `m` (legal in `pos`) gives check.
    #[must_use]
    pub fn gives_check(&self, pos: &Chess, m: Move) -> bool {
        let Some(king) = self.king else {
            return false;
        };
        match m {
            Move::Normal {
                role,
                from,
                to,
                promotion,
                ..
            } => {
                if self.discoverers.contains(from) && !attacks::aligned(from, to, king) {
                    return true;
                }
                match promotion {
                    None => self.squares[role as usize].contains(to),
                    // The pawn leaving its square may open the new piece's line to the king.
                    Some(p) => attacks::attacks(
                        to,
                        p.of(pos.turn()),
                        self.occupied ^ Bitboard::from_square(from),
                    )
                    .contains(king),
                }
            }
            // Rare: en passant removes two pieces from their squares, castling moves two.
            _ => {
                let mut child = pos.clone();
                child.play_unchecked(m);
                child.is_check()
            }
        }
    }
}

/// Pieces of `candidates` that stand alone between `king` and a slider of `slider_side` aiming at
/// it (pinned pieces when `slider_side` is the king's opponent and `candidates` the king's side;
/// discovered-check candidates when it is the other way round).
pub(super) fn line_blockers(
    board: &Board,
    king: Square,
    slider_side: Color,
    candidates: Bitboard,
) -> Bitboard {
    let theirs = board.by_color(slider_side);
    let snipers =
        (attacks::rook_attacks(king, Bitboard::EMPTY) & (board.rooks() | board.queens()) & theirs)
            | (attacks::bishop_attacks(king, Bitboard::EMPTY)
                & (board.bishops() | board.queens())
                & theirs);
    let occupied = board.occupied();
    let mut blockers = Bitboard::EMPTY;
    for sniper in snipers {
        let between = attacks::between(king, sniper) & occupied;
        if !between.more_than_one() && (between & candidates).any() {
            blockers |= between;
        }
    }
    blockers
}

/// Whether `m` is searched by quiescence: captures and queen promotions.
#[must_use]
pub fn is_tactical(m: Move) -> bool {
    m.is_capture() || m.promotion() == Some(Role::Queen)
}

/// Every legal tactical move ([`is_tactical`]) of `pos`, which must not be in check, handed to
/// `push` — without generating the quiet moves quiescence would throw away.
pub fn tactical_moves(pos: &Chess, mut push: impl FnMut(Move)) {
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(us) else {
        return;
    };
    let ours = board.by_color(us);
    let theirs = board.by_color(!us);
    let occupied = board.occupied();
    let pinned = line_blockers(board, king, !us, ours);
    // A pinned piece may only move along the line through its king.
    let allowed = |from: Square| {
        if pinned.contains(from) {
            attacks::ray(king, from)
        } else {
            Bitboard::FULL
        }
    };
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        for from in board.by_piece(role.of(us)) {
            let targets = attacks::attacks(from, role.of(us), occupied) & theirs & allowed(from);
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
    let forward = if us == Color::White { 8 } else { -8 };
    for from in board.by_piece(Role::Pawn.of(us)) {
        let line = allowed(from);
        for to in attacks::pawn_attacks(us, from) & theirs & line {
            let capture = board.role_at(to);
            if Bitboard::BACKRANKS.contains(to) {
                for promotion in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                    push(Move::Normal {
                        role: Role::Pawn,
                        from,
                        capture,
                        to,
                        promotion: Some(promotion),
                    });
                }
            } else {
                push(Move::Normal {
                    role: Role::Pawn,
                    from,
                    capture,
                    to,
                    promotion: None,
                });
            }
        }
        if let Some(to) = from.offset(forward)
            && Bitboard::BACKRANKS.contains(to)
            && !occupied.contains(to)
            && line.contains(to)
        {
            push(Move::Normal {
                role: Role::Pawn,
                from,
                capture: None,
                to,
                promotion: Some(Role::Queen),
            });
        }
    }
    if pos.maybe_ep_square().is_some() {
        for m in pos.en_passant_moves() {
            push(m);
        }
    }
    let without_king = occupied ^ Bitboard::from_square(king);
    for to in attacks::king_attacks(king) & theirs {
        if board.attacks_to(to, !us, without_king).is_empty() {
            push(Move::Normal {
                role: Role::King,
                from: king,
                capture: board.role_at(to),
                to,
                promotion: None,
            });
        }
    }
}

/// The move `packed` stands for in `pos` (role and capture read from the board), not yet
/// checked for legality: a piece of the side to move stands on its origin square, nothing more
/// (a TT move from another position with the same key, or from a collision, is rejected by
/// the legality test that follows).
#[must_use]
pub fn unpack_candidate(pos: &Chess, packed: PackedMove) -> Option<Move> {
    if packed.is_none() {
        return None;
    }
    let from = Square::new(u32::from(packed.0 & 63));
    let to = Square::new(u32::from((packed.0 >> 6) & 63));
    let promotion = match packed.0 >> 12 {
        0 => None,
        r => Some(Role::try_from(u32::from(r)).ok()?),
    };
    let board = pos.board();
    let piece = board.piece_at(from)?;
    if piece.color != pos.turn() {
        return None;
    }
    let m = if piece.role == Role::King && (board.by_color(pos.turn()) & board.rooks()).contains(to)
    {
        Move::Castle {
            king: from,
            rook: to,
        }
    } else if piece.role == Role::Pawn && from.file() != to.file() && !board.occupied().contains(to)
    {
        Move::EnPassant { from, to }
    } else {
        Move::Normal {
            role: piece.role,
            from,
            capture: board.role_at(to),
            to,
            promotion,
        }
    };
    Some(m)
}

fn piece_key(sq: Square, role: Role, color: Color) -> u64 {
    Zobrist64::zobrist_for_piece(sq, role.of(color)).0
}

/// The file key of `pos`'s en-passant square when an en-passant capture is legal (shakmaty's
/// [`EnPassantMode::Legal`] convention), else 0.
#[must_use]
pub fn ep_key(pos: &Chess) -> u64 {
    if pos.maybe_ep_square().is_none() {
        return 0;
    }
    pos.ep_square(EnPassantMode::Legal)
        .map_or(0, |sq| Zobrist64::zobrist_for_en_passant_file(sq.file()).0)
}

/// The key of the position after a null move, from the key of `pos`.
#[must_use]
pub fn null_move_key(pos: &Chess, key: u64) -> u64 {
    key ^ Zobrist64::zobrist_for_white_turn().0 ^ ep_key(pos)
}

/// The key of `pos` after `m` from the key of `pos`, without the child position: the moved,
/// captured and castling pieces, the side to move and `pos`'s own en-passant square. What only
/// the child knows (a new en-passant square, changed castling rights) is left out, so it is
/// exact for nearly every move; the search uses it to prefetch the child's TT bucket before the
/// move is made, and [`child_key`] completes it.
#[must_use]
#[inline]
pub fn prefetch_key(pos: &Chess, key: u64, m: Move) -> u64 {
    let us = pos.turn();
    let mut k = key ^ Zobrist64::zobrist_for_white_turn().0 ^ ep_key(pos);
    match m {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => {
            k ^= piece_key(from, role, us) ^ piece_key(to, promotion.unwrap_or(role), us);
            if let Some(c) = capture {
                k ^= piece_key(to, c, !us);
            }
        }
        Move::EnPassant { from, to } => {
            let victim = Square::from_coords(to.file(), from.rank());
            k ^= piece_key(from, Role::Pawn, us)
                ^ piece_key(to, Role::Pawn, us)
                ^ piece_key(victim, Role::Pawn, !us);
        }
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(king < rook);
            k ^= piece_key(king, Role::King, us)
                ^ piece_key(side.king_to(us), Role::King, us)
                ^ piece_key(rook, Role::Rook, us)
                ^ piece_key(side.rook_to(us), Role::Rook, us);
        }
        Move::Put { .. } => {}
    }
    k
}

/// The key of `child` (`pos` after `m`) from the key of `pos`: equal to
/// `child.zobrist_hash::<Zobrist64>(EnPassantMode::Legal)`, computed from the pieces that moved
/// ([`prefetch_key`]) and what changed besides.
#[must_use]
pub fn child_key(pos: &Chess, key: u64, m: Move, child: &Chess) -> u64 {
    let mut k = prefetch_key(pos, key, m) ^ ep_key(child);
    let (before, after) = (pos.castles(), child.castles());
    if before.castling_rights() != after.castling_rights() {
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if before.has(color, side) != after.has(color, side) {
                    k ^= Zobrist64::zobrist_for_castling_right(color, side).0;
                }
            }
        }
    }
    k
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::test_support::XorShift64;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, MoveList};

    const FENS: &[&str] = &[
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "4k3/8/8/2KPp2r/8/8/8/8 w - e6 0 1",
        "1k6/8/8/8/8/8/5p2/7K b - - 0 1",
    ];

    /// Plays pseudo-random legal games from each position and checks every helper at every
    /// node against shakmaty.
    #[test]
    fn helpers_agree_with_playing_the_moves() {
        let mut rng = XorShift64(0x9e37_79b9_7f4a_7c15);
        let (mut prefetch_checked, mut prefetch_exact) = (0usize, 0usize);
        for fen in FENS {
            for _ in 0..12 {
                let mut pos: Chess = fen
                    .parse::<Fen>()
                    .unwrap()
                    .into_position(CastlingMode::Chess960)
                    .unwrap();
                let mut key = pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
                for _ in 0..60 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let info = CheckInfo::new(&pos);
                    if !pos.is_check() {
                        let mut ours = MoveList::new();
                        tactical_moves(&pos, |m| ours.push(m));
                        let mut expected: Vec<Move> =
                            moves.iter().copied().filter(|&m| is_tactical(m)).collect();
                        let mut got = ours.to_vec();
                        expected.sort_by_key(|m| format!("{m:?}"));
                        got.sort_by_key(|m| format!("{m:?}"));
                        assert_eq!(
                            got,
                            expected,
                            "{}",
                            Fen::from_position(&pos, EnPassantMode::Legal)
                        );
                    }
                    for &m in &moves {
                        let mut child = pos.clone();
                        child.play_unchecked(m);
                        assert_eq!(info.gives_check(&pos, m), child.is_check(), "{m:?}");
                        assert_eq!(info.gives_check_quick(&pos, m), child.is_check(), "{m:?}");
                        assert_eq!(
                            child_key(&pos, key, m, &child),
                            child.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0,
                            "{m:?}"
                        );
                        assert_eq!(unpack_candidate(&pos, PackedMove::pack(m)), Some(m));
                        // The prefetch key is exact unless the move changes castling rights or
                        // sets a new en-passant square.
                        let simple = pos.castles().castling_rights()
                            == child.castles().castling_rights()
                            && ep_key(&child) == 0;
                        let exact = prefetch_key(&pos, key, m) == child_key(&pos, key, m, &child);
                        assert!(exact || !simple, "{m:?}");
                        prefetch_checked += 1;
                        prefetch_exact += usize::from(exact);
                    }
                    if let Ok(passed) = pos.clone().swap_turn() {
                        assert_eq!(
                            null_move_key(&pos, key),
                            passed.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
                        );
                    }
                    let m = moves[rng.below(moves.len())];
                    let mut child = pos.clone();
                    child.play_unchecked(m);
                    key = child_key(&pos, key, m, &child);
                    pos = child;
                }
            }
        }
        // Nearly every move's prefetch goes to the right bucket.
        assert!(
            prefetch_exact * 100 >= prefetch_checked * 95,
            "{prefetch_exact} of {prefetch_checked}"
        );
    }
}
