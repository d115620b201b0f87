//! What many terms need to know about one position, computed once per evaluation: pawns,
//! kings, the squares each side attacks (by piece kind, at all, twice), king areas and mobility
//! areas. The pieces' attacks are filled in by the mobility pass ([`Info::add_attacks`]); the
//! terms that read them (passed pawns, king danger) run after it.

use shakmaty::{Bitboard, Board, ByColor, Color, Role, Square, attacks};

use super::tactics::pawn_attacks_set;
use super::weights::role_index;
use crate::geometry::{FILE_A, FILE_H};

/// Attack maps and areas of one position, per colour.
pub struct Info {
    /// Every occupied square.
    pub occupied: Bitboard,
    /// Each side's pawns.
    pub pawns: ByColor<Bitboard>,
    /// Each side's king square (a legal position has one; a board without is tolerated).
    pub king: ByColor<Option<Square>>,
    /// Squares each side's pawns attack.
    pub pawn_attacks: ByColor<Bitboard>,
    /// Squares attacked by each side's pieces of each kind (index [`role_index`]).
    pub attacks: ByColor<[Bitboard; 6]>,
    /// Squares each side attacks at all.
    pub attacked: ByColor<Bitboard>,
    /// Squares each side attacks at least twice.
    pub attacked_twice: ByColor<Bitboard>,
    /// The area around each side's king that the enemy attacks: the king, its neighbours and
    /// the squares one rank further forward; one file wider on the edge.
    pub king_area: ByColor<Bitboard>,
    /// Where each side's pieces count mobility: not attacked by enemy pawns, not the own king,
    /// not an own pawn that cannot move forward.
    pub mobility_area: ByColor<Bitboard>,
    /// How many of each side's knights, bishops, rooks and queens (index [`role_index`])
    /// attack the enemy king's area.
    pub king_attackers: ByColor<[i32; 6]>,
    /// How many attacks each side's pieces make on squares of the enemy king's area.
    pub king_area_hits: ByColor<i32>,
    /// Each side's bishops and rooks that attack no square of the enemy king's area: the pieces'
    /// pass knows it from each piece's attacks, which piece lines ([`super::piece_lines`]) would
    /// otherwise compute again.
    pub off_king_area: ByColor<Bitboard>,
    /// Each side's rooks whose attacks reach at most [`super::piece_lines::TRAPPED_MOBILITY`]
    /// squares of their mobility area (the real attacks, not the x-ray count of mobility): the
    /// rooks piece lines may find trapped. Filled in by the pieces' pass from the count mobility
    /// makes ([`Info::add_boxed_rook`]).
    pub boxed_rooks: ByColor<Bitboard>,
}

/// What king danger ([`super::king::danger`]) and the king attack ([`super::king_attack`]) both
/// read of one side's attack on the enemy king: computed once per side and handed to both.
#[derive(Clone, Copy, Debug)]
pub struct KingThreat {
    /// The enemy king's squares the attacker attacks, that the defender defends at most once and
    /// only with king or queen.
    pub weak: Bitboard,
    /// Squares where a checker of the attacker cannot be taken: the defender does not attack
    /// them, or they are weak and the attacker attacks them twice.
    pub safe: Bitboard,
    /// The squares a bishop checks the enemy king from (its diagonals through the board).
    pub diagonal: Bitboard,
    /// The squares a rook checks it from.
    pub straight: Bitboard,
    /// The squares a knight checks it from.
    pub knight: Bitboard,
}

/// What the terms kept in the pawn-king cache ([`super::pawn_king`]) may read: pawns, kings
/// and pawn attacks, nothing of the other pieces. The cache keys its entries by pawns and kings
/// alone, so a cached term that read a piece's attacks would give one key two sums; taking this
/// view instead of [`Info`] makes that a type error.
#[derive(Clone, Copy, Debug)]
pub struct PawnsAndKings {
    /// Each side's pawns.
    pub pawns: ByColor<Bitboard>,
    /// Each side's king square.
    pub king: ByColor<Option<Square>>,
    /// Squares each side's pawns attack.
    pub pawn_attacks: ByColor<Bitboard>,
}

impl Info {
    /// The pawns-and-kings part, for the cached terms.
    #[inline(always)]
    #[must_use]
    pub fn pawns_and_kings(&self) -> PawnsAndKings {
        PawnsAndKings {
            pawns: self.pawns,
            king: self.king,
            pawn_attacks: self.pawn_attacks,
        }
    }

    /// Pawns, kings and their attacks; the pieces' attacks are added by [`Info::add_attacks`].
    // Inlined into the evaluation so that it counts bits with `popcnt` there (see
    // `Evaluator::evaluate_from`).
    #[inline(always)]
    #[must_use]
    pub fn new(board: &Board) -> Info {
        let occupied = board.occupied();
        let pawns = ByColor::new_with(|c| board.by_piece(Role::Pawn.of(c)));
        let king = ByColor::new_with(|c| board.king_of(c));
        let pawn_attacks = ByColor::new_with(|c| pawn_attacks_set(*pawns.get(c), c));
        let king_attacks =
            ByColor::new_with(|c| king.get(c).map_or(Bitboard::EMPTY, attacks::king_attacks));
        let mut attacks = ByColor::new_with(|_| [Bitboard::EMPTY; 6]);
        for c in Color::ALL {
            attacks.get_mut(c)[role_index(Role::Pawn)] = *pawn_attacks.get(c);
            attacks.get_mut(c)[role_index(Role::King)] = *king_attacks.get(c);
        }
        let attacked = ByColor::new_with(|c| *pawn_attacks.get(c) | *king_attacks.get(c));
        let attacked_twice = ByColor::new_with(|c| {
            pawn_double_attacks(*pawns.get(c), c) | (*pawn_attacks.get(c) & *king_attacks.get(c))
        });
        let king_area = ByColor::new_with(|c| king.get(c).map_or(Bitboard::EMPTY, |k| area(k, c)));
        let mobility_area = ByColor::new_with(|c| {
            let blocked = *pawns.get(c) & shift_back(occupied, c);
            !(*pawn_attacks.get(!c) | blocked | king.get(c).map_or(Bitboard::EMPTY, Bitboard::from))
        });
        Info {
            occupied,
            pawns,
            king,
            pawn_attacks,
            attacks,
            attacked,
            attacked_twice,
            king_area,
            mobility_area,
            king_attackers: ByColor::new_with(|_| [0; 6]),
            king_area_hits: ByColor::new_with(|_| 0),
            off_king_area: ByColor::new_with(|_| Bitboard::EMPTY),
            boxed_rooks: ByColor::new_with(|_| Bitboard::EMPTY),
        }
    }

    /// `color`'s threat against the enemy king, when its attack counts (at least two attackers
    /// of the king's area, or one with a queen on `board`) and the enemy has a king; `None`
    /// otherwise. Reads the pieces' attacks: after the pieces' pass.
    #[inline(always)]
    #[must_use]
    pub fn king_threat(&self, board: &Board, color: Color) -> Option<KingThreat> {
        let king = (*self.king.get(!color))?;
        let attackers: i32 = self.king_attackers.get(color).iter().sum();
        let has_queen = board.by_piece(Role::Queen.of(color)).any();
        if attackers <= 1 - i32::from(has_queen) {
            return None;
        }
        let them = !color;
        let theirs = self.attacks.get(them);
        let strong_defence = theirs[role_index(Role::Pawn)]
            | theirs[role_index(Role::Knight)]
            | theirs[role_index(Role::Bishop)]
            | theirs[role_index(Role::Rook)];
        let weak = *self.attacked.get(color) & !*self.attacked_twice.get(them) & !strong_defence;
        Some(KingThreat {
            weak,
            safe: !*self.attacked.get(them) | (weak & *self.attacked_twice.get(color)),
            diagonal: attacks::bishop_attacks(king, self.occupied),
            straight: attacks::rook_attacks(king, self.occupied),
            knight: attacks::knight_attacks(king),
        })
    }

    /// Records that `color`'s rook on `sq` is boxed in: its real attacks reach at most piece
    /// lines' `TRAPPED_MOBILITY` squares of its mobility area (the caller, which counted them,
    /// checks; the parts below the families do not import one).
    #[inline(always)]
    pub fn add_boxed_rook(&mut self, color: Color, sq: Square) {
        self.boxed_rooks.get_mut(color).add(sq);
    }

    /// Records that a `color` piece of kind `role` on `sq` attacks `reach`, whether and how
    /// much it attacks the enemy king's area, and a bishop or rook that attacks none of it
    /// ([`Info::off_king_area`]).
    #[inline(always)]
    pub fn add_attacks(&mut self, color: Color, role: Role, sq: Square, reach: Bitboard) {
        let hits = reach & *self.king_area.get(!color);
        if hits.any() {
            self.king_attackers.get_mut(color)[role_index(role)] += 1;
            *self.king_area_hits.get_mut(color) += hits.count() as i32;
        } else if matches!(role, Role::Bishop | Role::Rook) {
            self.off_king_area.get_mut(color).add(sq);
        }
        self.attacks.get_mut(color)[role_index(role)] |= reach;
        *self.attacked_twice.get_mut(color) |= *self.attacked.get(color) & reach;
        *self.attacked.get_mut(color) |= reach;
    }
}

/// The squares from which pawns of `color` on `pawns` would have to step back one rank, seen
/// from the squares they stand on: `occupied` shifted one rank towards `color`'s own side.
const fn shift_back(occupied: Bitboard, color: Color) -> Bitboard {
    match color {
        Color::White => Bitboard(occupied.0 >> 8),
        Color::Black => Bitboard(occupied.0 << 8),
    }
}

/// Squares attacked by two pawns of `color` at once.
const fn pawn_double_attacks(pawns: Bitboard, color: Color) -> Bitboard {
    let (west, east) = match color {
        Color::White => ((pawns.0 & !FILE_A) << 7, (pawns.0 & !FILE_H) << 9),
        Color::Black => ((pawns.0 & !FILE_A) >> 9, (pawns.0 & !FILE_H) >> 7),
    };
    Bitboard(west & east)
}

/// The king area of a `color` king on `king` (see [`Info::king_area`]): one lookup, as every
/// evaluation asks it of both kings.
#[inline(always)]
fn area(king: Square, color: Color) -> Bitboard {
    Bitboard(KING_AREA[color as usize][king as usize])
}

/// [`area`] by colour (shakmaty's order: Black 0, White 1) and king square, built at compile
/// time by [`area_of`].
static KING_AREA: [[u64; 64]; 2] = {
    let mut table = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        table[Color::Black as usize][sq] = area_of(Square::new(sq as u32), Color::Black);
        table[Color::White as usize][sq] = area_of(Square::new(sq as u32), Color::White);
        sq += 1;
    }
    table
};

/// The king area of a `color` king on `king`, computed.
const fn area_of(king: Square, color: Color) -> u64 {
    let near = attacks::king_attacks(king).0 | 1 << king as u32;
    let forward = match color {
        Color::White => near << 8,
        Color::Black => near >> 8,
    };
    let area = near | forward;
    // On the edge the area would be two files wide: widen it inwards.
    match king as u32 % 8 {
        0 => area | (area & !FILE_H) << 1,
        7 => area | (area & !FILE_A) >> 1,
        _ => area,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

    fn board(fen: &str) -> Board {
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        pos.board().clone()
    }

    #[test]
    fn pawn_double_attacks_match_a_square_by_square_count() {
        let b = board("4k3/8/8/2p1p3/1P1P4/P1P5/8/4K3 w - - 0 1");
        for color in Color::ALL {
            let pawns = b.by_piece(Role::Pawn.of(color));
            let naive = Bitboard::from_iter(
                Square::ALL
                    .into_iter()
                    .filter(|&sq| (attacks::pawn_attacks(!color, sq) & pawns).count() >= 2),
            );
            assert_eq!(pawn_double_attacks(pawns, color), naive, "{color:?}");
        }
    }

    #[test]
    fn king_area_is_three_by_three_plus_a_forward_rank_and_wider_on_the_edge() {
        assert_eq!(area(Square::E4, Color::White).count(), 12); // d3-f5 and d6-f6
        assert!(area(Square::E4, Color::White).contains(Square::F6));
        assert_eq!(area(Square::G1, Color::White).count(), 9); // f1-h3
        assert!(area(Square::G1, Color::White).contains(Square::H3));
        assert_eq!(area(Square::A8, Color::Black).count(), 9); // a-c files, ranks 8-6
        assert!(area(Square::A8, Color::Black).contains(Square::C6));
    }

    #[test]
    fn mobility_area_leaves_out_pawn_attacks_the_king_and_blocked_pawns() {
        // White's e4 pawn is blocked by e5; d3 is free to move.
        let b = board("4k3/8/8/4p3/4P3/3P4/8/4K3 w - - 0 1");
        let info = Info::new(&b);
        let area = *info.mobility_area.get(Color::White);
        assert!(!area.contains(Square::E4)); // blocked own pawn
        assert!(area.contains(Square::D3)); // a pawn that can move
        assert!(!area.contains(Square::E1)); // own king
        assert!(!area.contains(Square::F4)); // attacked by e5
    }
}
