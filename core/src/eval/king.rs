//! The king: its pawn shelter and the enemy's pawn storm, measured as rank distances on the
//! king's file and its neighbours; its distance to the nearest pawn (for the endgame); and the
//! enemy's attack on it, summed in king-danger units that go through one non-linear curve
//! ([`super::combine::danger_curve`]).

use shakmaty::{Bitboard, Board, Color, Role, Square};

use super::acc::Acc;
use super::info::{Info, KingThreat, PawnsAndKings};
use super::pawns::{ranks_ahead, relative_rank};
use super::score::S;
use super::tracer::Tracer;
use super::weights::{FOLDED_FILES, SHELTER_DISTANCES, declare_weights, role_index};
use crate::geometry::{file_mask, nearest_king_distance};

declare_weights! {
    /// The family of weights of king safety: shelter, storm and king danger; where it starts in the
    /// table is set where the evaluation lists its families (`eval/mod.rs`).
    family King;

    channel Linear, row KingShelter, range -200..=200;
    /// King shelter, for each of the king's file and its neighbours: the rank distance from the
    /// king to the nearest own pawn in front of it on that file (`d1` .. `d6`, `none`), by whether
    /// it is the king's file and by the file folded onto a-d: index `king_file × 32 + folded_file ×
    /// 8 + distance`.
    KING_SHELTER[Grid(&[&["side", "king"], FOLDED_FILES, SHELTER_DISTANCES])] = [
        S(0, 0), S(8, -14), S(19, -16), S(15, 1), S(0, 8), S(-14, 59), S(-24, 51), S(-9, -2),
        S(0, 0), S(3, -4), S(4, -8), S(5, -14), S(-13, 1), S(-88, 77), S(-10, 137), S(4, -1),
        S(0, 0), S(8, -1), S(-3, -2), S(6, -10), S(2, 9), S(3, 27), S(-38, 57), S(-5, -2),
        S(0, 0), S(-1, 7), S(2, 0), S(8, -11), S(5, -15), S(-16, 14), S(-26, 80), S(0, -3),
        S(0, 0), S(28, -22), S(36, -18), S(3, 15), S(-4, 23), S(-145, 86), S(-6, 29), S(-16, 8),
        S(0, 0), S(16, -2), S(14, -9), S(-1, -6), S(-9, 10), S(-23, 25), S(-71, -52), S(-18, 5),
        S(0, 0), S(16, 0), S(5, -5), S(-3, -2), S(-23, 18), S(-60, 82), S(77, 121), S(-21, -4),
        S(0, 0), S(8, 16), S(13, 2), S(11, -5), S(6, -27), S(-70, 16), S(-88, 47), S(-9, -5),
    ];
    /// Pawn storm, for each of the king's file and its neighbours: the rank distance from the king
    /// to the nearest enemy pawn in front of it on that file, by whether an own pawn blocks that
    /// enemy pawn and by the file folded onto a-d: index `blocked × 32 + folded_file × 8 +
    /// distance`.
    KING_STORM[Grid(&[&["free", "blocked"], FOLDED_FILES, SHELTER_DISTANCES])] = [
        S(0, 0), S(61, -17), S(-2, -7), S(-19, 14), S(-3, 6), S(-3, 2), S(-9, 10), S(-21, 4),
        S(0, 0), S(62, -9), S(-25, 4), S(-16, 11), S(-2, 6), S(5, 1), S(-1, 4), S(-15, 3),
        S(0, 0), S(-1, 12), S(-36, 14), S(-15, 12), S(-3, 7), S(2, 0), S(0, -6), S(-14, 7),
        S(0, 0), S(0, 5), S(-22, 1), S(-16, 6), S(-4, 7), S(2, 2), S(0, 6), S(-15, 5),
        S(0, 0), S(0, 0), S(-23, 4), S(8, -13), S(13, -10), S(-8, -7), S(16, -60), S(0, 0),
        S(0, 0), S(0, 0), S(-15, -5), S(15, -2), S(0, 16), S(13, -4), S(58, -30), S(0, 0),
        S(0, 0), S(0, 0), S(-10, -15), S(3, -9), S(1, -3), S(12, -25), S(3, -45), S(0, 0),
        S(0, 0), S(0, 0), S(-15, -11), S(-9, -10), S(0, -4), S(13, -31), S(62, -84), S(0, 0),
    ];
    /// The king's distance (Chebyshev) to the nearest pawn of either colour (index 0: no pawn
    /// left): in the endgame the king belongs near the pawns.
    KING_PAWN_DISTANCE[Grid(&[&["none", "d1", "d2", "d3", "d4", "d5", "d6", "d7"]])] = [
        S(0, 0), S(3, 23), S(0, 15), S(1, -5), S(5, -47), S(80, -106), S(-9, -83), S(-20, -63),
    ];

    channel Danger, row KingDanger, range -500..=500;
    /// King danger units per piece (knight, bishop, rook, queen; index `role_index`) that attacks
    /// the enemy king's area. Danger units of one side add up and go through one curve: squared in
    /// the middlegame, linear in the endgame.
    DANGER_ATTACKER[Roles(1, 4)] = [S(0, 0), S(40, 254), S(29, 78), S(51, 74), S(23, 38), S(0, 0)];
    /// King danger units per attack on a square of the enemy king's area.
    DANGER_AREA_ATTACK = S(24, -16);
    /// King danger units per weak square of the enemy king's area: attacked by us, defended at most
    /// once and only by the king or queen.
    DANGER_WEAK_SQUARE = S(25, -18);
    /// King danger units per safe check square by piece (knight, bishop, rook, queen): a square
    /// from which it would give check, that it reaches, and where the enemy cannot take it
    /// (unguarded, or weak and attacked twice by us).
    DANGER_SAFE_CHECK[Roles(1, 4)] = [
        S(0, 0), S(68, 229), S(53, 456), S(89, 52), S(58, 388), S(0, 0),
    ];
    /// King danger units per enemy pawn in the enemy king's area.
    DANGER_DEFENDING_PAWN = S(-27, -44);
    /// King danger units when the attacker has no queen.
    DANGER_NO_QUEEN = S(-211, -342), range -1000..=500;
    /// King danger units added once to every attack that counts.
    DANGER_BASE = S(20, 159);
}

/// Index of "no pawn" in the shelter and storm distance dimension.
const NO_PAWN: usize = 7;

/// Scores `color`'s king shelter, the enemy pawn storm against it, and its distance to the
/// nearest pawn. Kept in the pawn-king cache: it reads pawns and kings only.
// Inlined into the evaluation, as `pawns::structure` is.
#[inline(always)]
pub fn shelter<T: Tracer>(info: &PawnsAndKings, color: Color, acc: &mut Acc<'_, T>) {
    let Some(king) = *info.king.get(color) else {
        return;
    };
    let ours = *info.pawns.get(color);
    let theirs = *info.pawns.get(!color);
    let ahead = ranks_ahead(king, color);
    let king_file = king.file() as u32;
    for file in king_file.saturating_sub(1)..=(king_file + 1).min(7) {
        let on_file = Bitboard(file_mask(file)) & ahead;
        let folded = file.min(7 - file) as usize;
        let is_king_file = usize::from(file == king_file);

        let shelter = nearest(ours & on_file, color);
        let distance = shelter.map_or(NO_PAWN, |p| rank_distance(king, p, color));
        acc.add(
            color,
            KING_SHELTER.at(is_king_file * 32 + folded * 8 + distance),
            1,
        );

        let storm = nearest(theirs & on_file, color);
        let distance = storm.map_or(NO_PAWN, |p| rank_distance(king, p, color));
        // Blocked: an own pawn stands right in front of the storming pawn.
        let blocked = storm.is_some_and(|p| {
            let front = if color == Color::White {
                p.to_u32() - 8
            } else {
                p.to_u32() + 8
            };
            ours.contains(Square::new(front))
        });
        acc.add(
            color,
            KING_STORM.at(usize::from(blocked) * 32 + folded * 8 + distance),
            1,
        );
    }
    let nearest_pawn = nearest_king_distance(king, ours | theirs).unwrap_or(0) as usize;
    acc.add(color, KING_PAWN_DISTANCE.at(nearest_pawn), 1);
}

/// The pawn of `pawns` nearest to `color`'s first rank (the first one met going forward).
fn nearest(pawns: Bitboard, color: Color) -> Option<Square> {
    match color {
        Color::White => pawns.first(),
        Color::Black => pawns.last(),
    }
}

/// Ranks from the king forward to the pawn, 1 ..= 6 (a farther pawn counts as 6).
fn rank_distance(king: Square, pawn: Square, color: Color) -> usize {
    (relative_rank(pawn, color) - relative_rank(king, color)).clamp(1, 6)
}

/// Adds `color`'s attack on the enemy king in king-danger units, when it counts: at least two
/// attackers, or one with a queen on the board.
// Inlined into the evaluation: there it runs with `popcnt` where the CPU has it (see
// `Evaluator::evaluate_from`); a separate function would count bits the slow way.
#[inline(always)]
pub fn danger<T: Tracer>(board: &Board, info: &Info, color: Color, acc: &mut Acc<'_, T>) {
    if let Some(threat) = info.king_threat(board, color) {
        danger_from(board, info, color, &threat, acc);
    }
}

/// [`danger`] given `color`'s threat against the enemy king ([`Info::king_threat`], which the
/// king attack reads as well): the evaluation computes it once for both.
#[inline(always)]
pub fn danger_from<T: Tracer>(
    board: &Board,
    info: &Info,
    color: Color,
    threat: &KingThreat,
    acc: &mut Acc<'_, T>,
) {
    let attackers = info.king_attackers.get(color);
    let has_queen = (board.by_piece(Role::Queen.of(color))).any();
    let ours = *info.attacks.get(color);
    let area = *info.king_area.get(!color);
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        let r = role_index(role);
        if attackers[r] > 0 {
            acc.danger(color, DANGER_ATTACKER.at(r), attackers[r]);
        }
    }
    acc.danger(color, DANGER_AREA_ATTACK, *info.king_area_hits.get(color));

    // Weak squares: we attack them; they defend them at most once, and only with king or queen.
    let weak = threat.weak;
    acc.danger(color, DANGER_WEAK_SQUARE, (weak & area).count() as i32);

    // Safe checks: squares we reach that check the king, where they cannot take the checker.
    let safe = threat.safe & !board.by_color(color);
    let checks = [
        (Role::Knight, threat.knight),
        (Role::Bishop, threat.diagonal),
        (Role::Rook, threat.straight),
        (Role::Queen, threat.diagonal | threat.straight),
    ];
    for (role, from) in checks {
        let r = role_index(role);
        let n = (from & ours[r] & safe).count() as i32;
        if n > 0 {
            acc.danger(color, DANGER_SAFE_CHECK.at(r), n);
        }
    }

    let defenders = (*info.pawns.get(!color) & area & !weak).count() as i32;
    acc.danger(color, DANGER_DEFENDING_PAWN, defenders);
    if !has_queen {
        acc.danger(color, DANGER_NO_QUEEN, 1);
    }
    acc.danger(color, DANGER_BASE, 1);
}

/// How many own pawns stand on the three files around the king, one and two ranks in front of
/// it.
#[inline(always)]
pub(super) fn pawn_shield(king: Square, color: Color, our_pawns: Bitboard) -> [i32; 2] {
    let masks = &SHIELD_MASK[color as usize][king as usize];
    [
        (our_pawns.0 & masks[0]).count_ones() as i32,
        (our_pawns.0 & masks[1]).count_ones() as i32,
    ]
}

/// The pawn-shield squares per colour (shakmaty's order: Black = 0, White = 1), king square and
/// distance (one rank in front of the king, two ranks in front), on the king's file and the two
/// neighbouring files.
const SHIELD_MASK: [[[u64; 2]; 64]; 2] = shield_masks();

const fn shield_masks() -> [[[u64; 2]; 64]; 2] {
    let mut masks = [[[0u64; 2]; 64]; 2];
    let mut color = 0;
    while color < 2 {
        let forward: i32 = if color == 1 { 1 } else { -1 };
        let mut sq = 0;
        while sq < 64 {
            let (file, rank) = ((sq % 8) as i32, (sq / 8) as i32);
            let mut distance = 1;
            while distance <= 2 {
                let r = rank + forward * distance;
                let mut f = file - 1;
                while f <= file + 1 {
                    if f >= 0 && f < 8 && r >= 0 && r < 8 {
                        masks[color][sq][distance as usize - 1] |= 1 << (r * 8 + f);
                    }
                    f += 1;
                }
                distance += 1;
            }
            sq += 1;
        }
        color += 1;
    }
    masks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::test_support::{danger_counts, full_info, main_counts, position};
    use crate::eval::trace::CountingTracer;
    use crate::eval::weights::Weight;
    use crate::eval::weights::{Family, Weights};
    use shakmaty::Position;

    /// `color`'s counts of `field` from the shelter terms (main) and the danger terms.
    fn counts<C, const N: usize, F: Family>(
        fen: &str,
        color: Color,
        field: Weight<C, N, F>,
    ) -> (Vec<i32>, Vec<i32>) {
        let pos = position(fen);
        let info = full_info(&pos);
        let w = Weights::default();
        let mut tracer = CountingTracer::default();
        let mut acc = Acc::new(&w, &mut tracer);
        shelter(&info.pawns_and_kings(), color, &mut acc);
        danger(pos.board(), &info, color, &mut acc);
        (
            main_counts(&tracer, color, field),
            danger_counts(&tracer, color, field),
        )
    }

    #[test]
    fn shelter_counts_the_rank_distance_to_the_first_own_pawn_per_file() {
        // King g1, pawns f2 (1 rank), g3 (2 ranks), none on h.
        let (c, _) = counts(
            "4k3/8/8/8/8/6P1/5P2/6K1 w - - 0 1",
            Color::White,
            KING_SHELTER,
        );
        assert_eq!(c[2 * 8 + 1], 1, "f-file (folded c), side file, d1"); // f folds to c
        assert_eq!(c[32 + 8 + 2], 1, "g-file (folded b), king file, d2");
        assert_eq!(c[NO_PAWN], 1, "h-file (folded a), side file, none");
        assert_eq!(c.iter().sum::<i32>(), 3);
        // Black's king e8 with no pawns: three files, all "none".
        let (c, _) = counts(
            "4k3/8/8/8/8/6P1/5P2/6K1 w - - 0 1",
            Color::Black,
            KING_SHELTER,
        );
        assert_eq!(c.iter().sum::<i32>(), 3);
        assert_eq!(c[32 + 3 * 8 + NO_PAWN], 1); // e folds to d, king file
    }

    #[test]
    fn storm_sees_the_nearest_enemy_pawn_and_whether_it_is_blocked() {
        // King g1; black pawn g4 (3 ranks ahead), blocked by white g3? No: g3 is empty; h3
        // black pawn blocked by a white h2 pawn.
        let (c, _) = counts(
            "4k3/8/8/8/6p1/7p/7P/6K1 w - - 0 1",
            Color::White,
            KING_STORM,
        );
        assert_eq!(c[8 + 3], 1, "g-file free, 3 ranks");
        assert_eq!(c[32 + 2], 1, "h-file blocked, 2 ranks");
        assert_eq!(c[2 * 8 + NO_PAWN], 1, "f-file: none");
    }

    #[test]
    fn king_pawn_distance_is_to_the_nearest_pawn_of_either_colour() {
        let (c, _) = counts(
            "4k3/8/8/8/8/8/P7/6K1 w - - 0 1",
            Color::White,
            KING_PAWN_DISTANCE,
        );
        assert_eq!(c[6], 1); // g1 to a2
        let (c, _) = counts(
            "4k3/8/8/8/8/8/8/6K1 w - - 0 1",
            Color::White,
            KING_PAWN_DISTANCE,
        );
        assert_eq!(c[0], 1); // no pawns
    }

    #[test]
    fn danger_needs_two_attackers_or_a_queen() {
        // One white knight near the black king, no queen: nothing.
        let (_, d) = counts("6k1/8/5N2/8/8/8/8/4K3 b - - 0 1", Color::White, DANGER_BASE);
        assert_eq!(d[0], 0);
        // Knight and rook: it counts.
        let (_, d) = counts(
            "6k1/8/5N2/8/8/8/8/4K1R1 b - - 0 1",
            Color::White,
            DANGER_BASE,
        );
        assert_eq!(d[0], 1);
        let (_, d) = counts(
            "6k1/8/5N2/8/8/8/8/4K1R1 b - - 0 1",
            Color::White,
            DANGER_ATTACKER,
        );
        assert_eq!((d[1], d[3]), (1, 1));
        let (_, d) = counts(
            "6k1/8/5N2/8/8/8/8/4K1R1 b - - 0 1",
            Color::White,
            DANGER_NO_QUEEN,
        );
        assert_eq!(d[0], 1);
    }

    #[test]
    fn safe_checks_are_counted_by_piece() {
        // White queen d1 and knight f3 vs black king g8 with pawns f7 g7 h7.
        // Knight checks from e6? no: g8's knight-check squares e7, f6, h6. The knight on f3
        // reaches... none of them. The queen checks along d5-g8 diagonal? d5 is on a8-h1? The
        // queen on d1 reaches d8 (rank-8 check, safe: black king does not guard d8).
        let fen = "6k1/5ppp/8/6N1/8/8/8/3QK3 w - - 0 1";
        let (_, d) = counts(fen, Color::White, DANGER_SAFE_CHECK);
        assert!(d[4] >= 1, "queen check on d8: {d:?}");
        assert_eq!(d[1], 0);
        // Put the knight on g4: Nh6+ and Nf6+ (f6 is guarded by g7: unsafe; h6 by g7 too).
        let (_, d) = counts(
            "6k1/5ppp/8/8/6N1/8/8/3QK3 w - - 0 1",
            Color::White,
            DANGER_SAFE_CHECK,
        );
        assert_eq!(d[1], 0, "every knight check square is guarded by a pawn");
        // Without the g7 pawn, h6 and f6 are safe (and e5? not a check square).
        let (_, d) = counts(
            "6k1/5p1p/8/8/6N1/8/8/3QK3 w - - 0 1",
            Color::White,
            DANGER_SAFE_CHECK,
        );
        assert_eq!(d[1], 2);
    }
}
