// Fitted by `minkowski tune --lambda 0` (epoch 98 of 100, `--lr 0.5`, K = 2.5044) to Ethereal 12's
// depth-10 search scores ("teacher" labels, `scripts/label.py`) of 306,230 quiet positions from 19,148
// self-play games (datagen seed 1701, 5,000 nodes a move, noob_3moves openings), every weight at once
// (the knight-against-passer rule's sizes excepted, see the README); whole games held out.
// Validation loss (30,209 positions): 0.01311548 with the previous weights, 0.00911230 fitted.
// The previous weights were fitted to game results (about 730,000 positions) for the first
// evaluation half and set by hand and by games for the piece-placement, closedness and complexity
// weights: fits to results alone lowered their validation loss by 0.1 % and lost games. Against
// them this fit won +124.3 +/- 35.2 Elo (300 games at 20,000 nodes a move) and +169.3 +/- 37.4 Elo
// at 8+0.08 (219 games, SPRT [0, 10] passed). The drawishness scale factors are hand-set constants in core/src/eval/scale.rs.
// The weights of evaluation part 3 (issue 55: the target_*, king-attack, piece-line and new
// pawn weights) were fitted afterwards, the others held, by `minkowski tune --lambda 0
// --phase-balance --only <the new weights>` (epoch 1, K = 1.9078) to Stockfish 15.1's static
// evaluation of the 2,400,002 positions of docs/training-data.md §5 (1,626,791 training positions
// after phase balancing): validation loss (238,497 positions) 0.00885292 -> 0.00839510.

use crate::eval::score::S;

/// The default of `material`.
pub const MATERIAL: [S; 6] = [S(95, 100), S(364, 364), S(384, 384), S(506, 625), S(1130, 1273), S(0, 0)];

/// The default of `psqt`.
pub const PSQT: [[S; 64]; 6] = [
    // pawn
    [
        S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), // rank 1
        S(-13, 11), S(4, 9), S(-11, 25), S(-4, 23), S(-10, 27), S(15, 18), S(17, 6), S(-9, 12), // rank 2
        S(-16, 8), S(-11, 4), S(-8, 8), S(0, 5), S(-2, 9), S(3, 8), S(6, 0), S(-16, 7), // rank 3
        S(-13, 16), S(-11, 7), S(10, -16), S(20, -26), S(19, -24), S(20, -11), S(0, 1), S(-13, 10), // rank 4
        S(-5, 25), S(-6, 13), S(1, -5), S(15, -29), S(18, -27), S(16, -10), S(2, 5), S(2, 17), // rank 5
        S(-8, 36), S(-12, 36), S(0, 17), S(18, 0), S(40, -8), S(27, 7), S(-11, 37), S(-6, 40), // rank 6
        S(87, 101), S(77, 108), S(100, 125), S(118, 124), S(92, 123), S(148, 78), S(37, 137), S(41, 126), // rank 7
        S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), // rank 8
    ],
    // knight
    [
        S(-67, 12), S(-6, -43), S(-18, -19), S(-7, -15), S(-7, -17), S(-12, -16), S(-12, -38), S(-31, -16), // rank 1
        S(3, -9), S(-18, -1), S(-2, -28), S(1, -14), S(0, -13), S(1, -22), S(1, 0), S(-4, -19), // rank 2
        S(8, -10), S(20, -17), S(3, -9), S(18, -6), S(18, -6), S(10, -15), S(20, -23), S(5, -21), // rank 3
        S(24, 4), S(11, 14), S(22, 16), S(20, 22), S(19, 16), S(30, 3), S(23, -1), S(22, 20), // rank 4
        S(24, 32), S(27, 6), S(30, 18), S(25, 27), S(27, 18), S(45, 8), S(25, 21), S(24, 23), // rank 5
        S(-1, 12), S(7, 13), S(22, 16), S(38, 19), S(40, 25), S(63, 1), S(12, 11), S(-30, 39), // rank 6
        S(21, 6), S(-37, 31), S(50, -8), S(72, -11), S(56, 1), S(70, -9), S(-2, 44), S(-16, -6), // rank 7
        S(-97, -31), S(-47, 26), S(-37, 26), S(-60, 60), S(76, 0), S(-119, 21), S(-100, 53), S(-102, -60), // rank 8
    ],
    // bishop
    [
        S(15, -9), S(26, 17), S(0, -1), S(-3, 4), S(3, -4), S(-10, -11), S(3, -5), S(6, -21), // rank 1
        S(73, -6), S(22, -29), S(20, -5), S(10, 5), S(9, -5), S(21, 4), S(19, -30), S(39, -33), // rank 2
        S(30, -10), S(31, 2), S(13, -4), S(20, 5), S(16, 11), S(16, -17), S(30, -4), S(28, -8), // rank 3
        S(7, -5), S(18, 16), S(18, 11), S(20, 15), S(28, 9), S(19, 8), S(8, 15), S(14, -11), // rank 4
        S(8, 10), S(26, 7), S(18, 18), S(29, 16), S(23, 16), S(33, 2), S(19, 6), S(3, 4), // rank 5
        S(8, 5), S(7, 21), S(0, 9), S(26, 21), S(22, 9), S(16, 9), S(15, 16), S(20, -4), // rank 6
        S(-19, 49), S(-21, 1), S(18, 19), S(-19, 24), S(-47, 36), S(14, 17), S(-20, 1), S(-60, 20), // rank 7
        S(-1, -1), S(-3, 34), S(-161, 74), S(-125, 55), S(-61, 29), S(-65, 21), S(-56, 26), S(-7, 9), // rank 8
    ],
    // rook
    [
        S(-11, -10), S(-13, -7), S(-1, -11), S(8, -16), S(10, -17), S(4, -12), S(-9, -12), S(2, -35), // rank 1
        S(-36, -5), S(-18, -15), S(-21, -2), S(2, -19), S(-6, -12), S(-4, -9), S(-6, -17), S(-36, -16), // rank 2
        S(-29, 5), S(-23, 14), S(-26, 12), S(-21, 6), S(3, -10), S(-18, 8), S(0, -7), S(-15, -4), // rank 3
        S(-15, 19), S(-8, 19), S(0, 13), S(8, 9), S(-4, 12), S(-3, 22), S(18, 10), S(-11, 4), // rank 4
        S(-14, 36), S(1, 32), S(8, 29), S(20, 21), S(23, 18), S(17, 19), S(27, 19), S(12, 27), // rank 5
        S(-13, 39), S(15, 30), S(-9, 44), S(26, 27), S(27, 17), S(58, 18), S(62, 10), S(-1, 37), // rank 6
        S(17, 18), S(-13, 27), S(44, 10), S(41, 8), S(13, 22), S(11, 15), S(21, 10), S(15, 20), // rank 7
        S(43, 29), S(81, 17), S(-8, 48), S(-5, 49), S(27, 36), S(73, 22), S(12, 40), S(36, 32), // rank 8
    ],
    // queen
    [
        S(16, -58), S(-5, -36), S(1, -52), S(7, -51), S(10, -66), S(-38, -48), S(-3, -72), S(27, 18), // rank 1
        S(-5, -19), S(15, -56), S(16, -59), S(6, -20), S(9, -29), S(20, -46), S(8, -53), S(2, -21), // rank 2
        S(2, -38), S(14, -17), S(-8, 17), S(2, 7), S(-1, 25), S(4, 24), S(17, 4), S(0, -27), // rank 3
        S(3, 9), S(-13, 37), S(-14, 57), S(-5, 73), S(-1, 50), S(-3, 35), S(-1, 61), S(1, 10), // rank 4
        S(-8, 20), S(-14, 25), S(-16, 50), S(-14, 72), S(-5, 77), S(-9, 89), S(2, 60), S(2, 73), // rank 5
        S(-39, 52), S(-19, 15), S(0, 37), S(-5, 57), S(-2, 48), S(4, 76), S(7, 60), S(9, 34), // rank 6
        S(-43, 67), S(-23, 70), S(8, 45), S(-4, 91), S(-8, 69), S(17, 64), S(-20, 97), S(33, 24), // rank 7
        S(23, 19), S(-7, 27), S(-20, 56), S(22, 43), S(9, 22), S(-19, 123), S(1, 107), S(-3, 47), // rank 8
    ],
    // king
    [
        S(-1, -64), S(21, -24), S(12, -16), S(-52, 2), S(-19, -26), S(-30, -7), S(29, -27), S(26, -62), // rank 1
        S(4, -7), S(-2, -7), S(-26, 9), S(-33, 6), S(-29, 4), S(-31, 4), S(14, -10), S(18, -22), // rank 2
        S(0, -26), S(-2, -2), S(-19, 5), S(-47, 17), S(-52, 24), S(-32, 15), S(-1, 2), S(-17, -8), // rank 3
        S(-21, -11), S(23, 3), S(-16, 16), S(-28, 23), S(-6, 17), S(2, 20), S(10, 9), S(-86, 11), // rank 4
        S(-35, 11), S(16, 13), S(-32, 40), S(-23, 25), S(-5, 23), S(-6, 32), S(-13, 33), S(-101, 21), // rank 5
        S(-90, 39), S(24, 37), S(-47, 49), S(-40, 62), S(52, 32), S(87, 32), S(13, 54), S(1, 18), // rank 6
        S(-75, 14), S(-29, 74), S(-77, 88), S(66, 34), S(129, 19), S(-40, 60), S(4, 45), S(-92, 5), // rank 7
        S(-207, 6), S(108, -21), S(-8, -44), S(-180, 56), S(-117, 102), S(111, 49), S(154, 5), S(-57, -157), // rank 8
    ],
];

/// The default of `king_zone_attack`.
pub const KING_ZONE_ATTACK: [S; 6] = [S(0, 0), S(-1, -3), S(-1, 1), S(-7, 0), S(-3, 4), S(0, 0)];

/// The default of `pawn_shield`.
pub const PAWN_SHIELD: [S; 2] = [S(13, -11), S(3, 5)];

/// The default of `bishop_pair`.
pub const BISHOP_PAIR: S = S(26, 61);

/// The default of `rook_open_file`.
pub const ROOK_OPEN_FILE: S = S(44, -3);

/// The default of `rook_semi_open_file`.
pub const ROOK_SEMI_OPEN_FILE: S = S(20, 14);

/// The default of `tempo`.
pub const TEMPO: S = S(54, 21);

/// The default of `pawn_isolated`.
pub const PAWN_ISOLATED: S = S(-9, -11);

/// The default of `pawn_stacked`.
pub const PAWN_STACKED: [S; 2] = [S(-17, -6), S(-29, 11)];

/// The default of `pawn_backward`.
pub const PAWN_BACKWARD: [S; 16] = [S(0, 0), S(-14, -12), S(-11, -19), S(-10, -21), S(11, -17), S(-12, -14), S(-12, -14), S(0, 0), S(0, 0), S(3, 2), S(3, -9), S(3, -16), S(-9, -16), S(-6, -6), S(-6, -6), S(0, 0)];

/// The default of `pawn_connected`.
pub const PAWN_CONNECTED: [S; 8] = [S(0, 0), S(1, 1), S(13, 1), S(11, 7), S(26, 18), S(59, 47), S(66, 124), S(0, 0)];

/// The default of `pawn_candidate`.
pub const PAWN_CANDIDATE: [S; 8] = [S(0, 0), S(-3, 0), S(0, 5), S(0, 12), S(2, 22), S(1, 80), S(0, 0), S(0, 0)];

/// The default of `pawn_isolated_unopposed`.
pub const PAWN_ISOLATED_UNOPPOSED: S = S(-3, 4);

/// The default of `pawn_weak_lever`.
pub const PAWN_WEAK_LEVER: S = S(-10, -11);

/// The default of `pawn_blocked`.
pub const PAWN_BLOCKED: [S; 2] = [S(-2, -1), S(17, -8)];

/// The default of `passed_pawn`.
pub const PASSED_PAWN: [S; 32] = [S(0, 0), S(-16, 7), S(-22, 30), S(-44, 36), S(-1, 47), S(54, 69), S(-36, 39), S(0, 0), S(0, 0), S(7, -5), S(-3, 14), S(-34, 36), S(0, 55), S(68, 72), S(23, 14), S(0, 0), S(0, 0), S(1, 7), S(-12, 21), S(-32, 42), S(3, 65), S(81, 92), S(72, 52), S(0, 0), S(0, 0), S(2, 5), S(-11, 16), S(-22, 43), S(-6, 89), S(119, 142), S(264, 135), S(0, 0)];

/// The default of `passed_king_distance`.
pub const PASSED_KING_DISTANCE: [S; 16] = [S(0, 0), S(-1, 2), S(1, -2), S(7, -11), S(6, -17), S(-1, -22), S(4, -28), S(0, 0), S(0, 0), S(0, 0), S(-1, 1), S(-2, 11), S(-5, 25), S(-3, 38), S(8, 51), S(0, 0)];

/// The default of `passed_safe_path`.
pub const PASSED_SAFE_PATH: S = S(-25, 29);

/// The default of `passed_stacked`.
pub const PASSED_STACKED: [S; 8] = [S(0, 0), S(7, -31), S(13, -35), S(6, -11), S(25, -63), S(151, -186), S(-5, -10), S(0, 0)];

/// The default of `passed_unstoppable`.
pub const PASSED_UNSTOPPABLE: S = S(0, 258);

/// The default of `king_shelter`.
pub const KING_SHELTER: [S; 64] = [S(0, 0), S(8, -14), S(19, -16), S(15, 1), S(0, 8), S(-14, 59), S(-24, 51), S(-9, -2), S(0, 0), S(3, -4), S(4, -8), S(5, -14), S(-13, 1), S(-88, 77), S(-10, 137), S(4, -1), S(0, 0), S(8, -1), S(-3, -2), S(6, -10), S(2, 9), S(3, 27), S(-38, 57), S(-5, -2), S(0, 0), S(-1, 7), S(2, 0), S(8, -11), S(5, -15), S(-16, 14), S(-26, 80), S(0, -3), S(0, 0), S(28, -22), S(36, -18), S(3, 15), S(-4, 23), S(-145, 86), S(-6, 29), S(-16, 8), S(0, 0), S(16, -2), S(14, -9), S(-1, -6), S(-9, 10), S(-23, 25), S(-71, -52), S(-18, 5), S(0, 0), S(16, 0), S(5, -5), S(-3, -2), S(-23, 18), S(-60, 82), S(77, 121), S(-21, -4), S(0, 0), S(8, 16), S(13, 2), S(11, -5), S(6, -27), S(-70, 16), S(-88, 47), S(-9, -5)];

/// The default of `king_storm`.
pub const KING_STORM: [S; 64] = [S(0, 0), S(61, -17), S(-2, -7), S(-19, 14), S(-3, 6), S(-3, 2), S(-9, 10), S(-21, 4), S(0, 0), S(62, -9), S(-25, 4), S(-16, 11), S(-2, 6), S(5, 1), S(-1, 4), S(-15, 3), S(0, 0), S(-1, 12), S(-36, 14), S(-15, 12), S(-3, 7), S(2, 0), S(0, -6), S(-14, 7), S(0, 0), S(0, 5), S(-22, 1), S(-16, 6), S(-4, 7), S(2, 2), S(0, 6), S(-15, 5), S(0, 0), S(0, 0), S(-23, 4), S(8, -13), S(13, -10), S(-8, -7), S(16, -60), S(0, 0), S(0, 0), S(0, 0), S(-15, -5), S(15, -2), S(0, 16), S(13, -4), S(58, -30), S(0, 0), S(0, 0), S(0, 0), S(-10, -15), S(3, -9), S(1, -3), S(12, -25), S(3, -45), S(0, 0), S(0, 0), S(0, 0), S(-15, -11), S(-9, -10), S(0, -4), S(13, -31), S(62, -84), S(0, 0)];

/// The default of `king_pawn_distance`.
pub const KING_PAWN_DISTANCE: [S; 8] = [S(0, 0), S(3, 23), S(0, 15), S(1, -5), S(5, -47), S(80, -106), S(-9, -83), S(-20, -63)];

/// The default of `danger_attacker`.
pub const DANGER_ATTACKER: [S; 6] = [S(0, 0), S(40, 254), S(29, 78), S(51, 74), S(23, 38), S(0, 0)];

/// The default of `danger_area_attack`.
pub const DANGER_AREA_ATTACK: S = S(24, -16);

/// The default of `danger_weak_square`.
pub const DANGER_WEAK_SQUARE: S = S(25, -18);

/// The default of `danger_safe_check`.
pub const DANGER_SAFE_CHECK: [S; 6] = [S(0, 0), S(68, 229), S(53, 456), S(89, 52), S(58, 388), S(0, 0)];

/// The default of `danger_defending_pawn`.
pub const DANGER_DEFENDING_PAWN: S = S(-27, -44);

/// The default of `danger_no_queen`.
pub const DANGER_NO_QUEEN: S = S(-211, -342);

/// The default of `danger_base`.
pub const DANGER_BASE: S = S(20, 159);

/// The default of `mobility_knight`.
pub const MOBILITY_KNIGHT: [S; 9] = [S(-31, -114), S(-4, -33), S(13, 0), S(22, 29), S(33, 34), S(39, 50), S(48, 53), S(55, 57), S(64, 49)];

/// The default of `mobility_bishop`.
pub const MOBILITY_BISHOP: [S; 14] = [S(-17, -41), S(2, -22), S(18, 12), S(28, 31), S(35, 38), S(41, 57), S(44, 62), S(47, 65), S(46, 72), S(48, 73), S(45, 79), S(61, 70), S(92, 65), S(89, 58)];

/// The default of `mobility_rook`.
pub const MOBILITY_ROOK: [S; 15] = [S(-63, -83), S(-2, -43), S(24, -26), S(30, 14), S(34, 27), S(36, 45), S(36, 52), S(41, 55), S(44, 57), S(49, 59), S(56, 63), S(57, 68), S(66, 71), S(62, 73), S(69, 64)];

/// The default of `mobility_queen`.
pub const MOBILITY_QUEEN: [S; 28] = [S(-120, -120), S(61, -218), S(-19, -167), S(7, -93), S(12, -19), S(17, 35), S(19, 46), S(20, 74), S(22, 74), S(23, 94), S(25, 114), S(27, 123), S(29, 126), S(30, 135), S(31, 147), S(31, 139), S(28, 147), S(31, 135), S(26, 157), S(53, 118), S(35, 133), S(56, 98), S(44, 115), S(49, 108), S(61, 80), S(21, 155), S(104, 78), S(65, 87)];

/// The default of `threat_weak_pawn`.
pub const THREAT_WEAK_PAWN: S = S(-25, -38);

/// The default of `threat_minor_by_pawn`.
pub const THREAT_MINOR_BY_PAWN: S = S(-75, -60);

/// The default of `threat_minor_by_minor`.
pub const THREAT_MINOR_BY_MINOR: S = S(-25, -32);

/// The default of `threat_minor_by_major`.
pub const THREAT_MINOR_BY_MAJOR: S = S(-52, -49);

/// The default of `threat_rook_by_lesser`.
pub const THREAT_ROOK_BY_LESSER: S = S(-71, -32);

/// The default of `threat_by_king`.
pub const THREAT_BY_KING: [S; 2] = [S(-56, -33), S(-84, -19)];

/// The default of `threat_queen_attacked`.
pub const THREAT_QUEEN_ATTACKED: S = S(-66, -40);

/// The default of `threat_overloaded`.
pub const THREAT_OVERLOADED: S = S(-4, -11);

/// The default of `threat_pawn_push`.
pub const THREAT_PAWN_PUSH: S = S(17, 15);

/// The default of `fork_now`.
pub const FORK_NOW: S = S(76, 108);

/// The default of `fork_threat`.
pub const FORK_THREAT: S = S(17, 6);

/// The default of `target_by_minor`.
pub const TARGET_BY_MINOR: [S; 5] = [S(1, 6), S(3, 10), S(22, 3), S(11, 12), S(20, 35)];

/// The default of `target_by_rook`.
pub const TARGET_BY_ROOK: [S; 5] = [S(-1, 5), S(18, 19), S(17, 24), S(3, 33), S(35, 17)];

/// The default of `target_hanging`.
pub const TARGET_HANGING: S = S(-1, -7);

/// The default of `target_by_safe_pawn`.
pub const TARGET_BY_SAFE_PAWN: S = S(21, 12);

/// The default of `target_restricted`.
pub const TARGET_RESTRICTED: S = S(0, 2);

/// The default of `target_queen_guard`.
pub const TARGET_QUEEN_GUARD: S = S(5, 16);

/// The default of `target_queen_approach`.
pub const TARGET_QUEEN_APPROACH: [S; 2] = [S(7, 16), S(15, 13)];

/// The default of `target_queen_xray`.
pub const TARGET_QUEEN_XRAY: S = S(15, 21);

/// The default of `danger_unsafe_check`.
pub const DANGER_UNSAFE_CHECK: S = S(6, 40);

/// The default of `danger_pinned_blocker`.
pub const DANGER_PINNED_BLOCKER: S = S(47, 72);

/// The default of `danger_flank_attack`.
pub const DANGER_FLANK_ATTACK: S = S(0, -7);

/// The default of `danger_flank_defence`.
pub const DANGER_FLANK_DEFENCE: S = S(-2, 0);

/// The default of `danger_knight_defender`.
pub const DANGER_KNIGHT_DEFENDER: S = S(-9, 0);

/// The default of `king_flank_attack`.
pub const KING_FLANK_ATTACK: S = S(-4, 0);

/// The default of `king_pawnless_flank`.
pub const KING_PAWNLESS_FLANK: S = S(-27, -46);

/// The default of `king_file`.
pub const KING_FILE: [S; 4] = [S(10, -6), S(-1, 6), S(20, -7), S(-33, 5)];

/// The default of `knight_outpost`.
pub const KNIGHT_OUTPOST: [S; 4] = [S(12, -19), S(27, -1), S(12, -22), S(17, -8)];

/// The default of `bishop_outpost`.
pub const BISHOP_OUTPOST: [S; 4] = [S(13, -7), S(28, 6), S(7, 1), S(11, -3)];

/// The default of `minor_behind_pawn`.
pub const MINOR_BEHIND_PAWN: [S; 2] = [S(3, 17), S(5, 13)];

/// The default of `knight_siberia`.
pub const KNIGHT_SIBERIA: [S; 4] = [S(-5, -4), S(-8, -6), S(-14, -14), S(-57, -39)];

/// The default of `minor_king_distance`.
pub const MINOR_KING_DISTANCE: [S; 2] = [S(-3, -2), S(-4, -1)];

/// The default of `bishop_pawns_on_colour`.
pub const BISHOP_PAWNS_ON_COLOUR: S = S(0, -4);

/// The default of `bishop_rammed_pawns`.
pub const BISHOP_RAMMED_PAWNS: S = S(-6, -10);

/// The default of `bishop_long_diagonal`.
pub const BISHOP_LONG_DIAGONAL: S = S(15, 18);

/// The default of `rook_on_seventh`.
pub const ROOK_ON_SEVENTH: S = S(-1, 35);

/// The default of `space`.
pub const SPACE: S = S(0, 5);

/// The default of `closedness_knight`.
pub const CLOSEDNESS_KNIGHT: [S; 9] = [S(-3, 17), S(-7, 30), S(-3, 34), S(-1, 35), S(5, 37), S(7, 41), S(13, 36), S(9, 50), S(7, 58)];

/// The default of `closedness_rook`.
pub const CLOSEDNESS_ROOK: [S; 9] = [S(-7, 59), S(1, 47), S(-1, 41), S(3, 34), S(-1, 32), S(-1, 25), S(10, -4), S(1, 33), S(-3, 37)];

/// The default of `rook_closed_file`.
pub const ROOK_CLOSED_FILE: S = S(-4, 1);

/// The default of `rook_trapped`.
pub const ROOK_TRAPPED: S = S(-10, -15);

/// The default of `bishop_xray_pawns`.
pub const BISHOP_XRAY_PAWNS: S = S(1, 1);

/// The default of `bishop_on_king_ring`.
pub const BISHOP_ON_KING_RING: S = S(25, 18);

/// The default of `rook_on_king_ring`.
pub const ROOK_ON_KING_RING: S = S(6, -12);

/// The default of `complexity`.
pub const COMPLEXITY: [S; 4] = [S(0, 4), S(0, 40), S(0, 53), S(0, -82)];

/// The default of `known_win`.
pub const KNOWN_WIN: S = S(10000, 10000);

/// The default of `kpk_pawn_advance`.
pub const KPK_PAWN_ADVANCE: S = S(20, 20);

/// The default of `mop_up_edge`.
pub const MOP_UP_EDGE: S = S(20, 20);

/// The default of `mop_up_close`.
pub const MOP_UP_CLOSE: S = S(16, 16);

/// The default of `mop_up_king_close`.
pub const MOP_UP_KING_CLOSE: S = S(24, 24);

/// The default of `kbnk_corner`.
pub const KBNK_CORNER: S = S(100, 100);

/// The default of `kbnk_knight_close`.
pub const KBNK_KNIGHT_CLOSE: S = S(6, 6);

/// The default of `mop_up_king_freedom`.
pub const MOP_UP_KING_FREEDOM: S = S(-15, -15);

/// The default of `passer_unstoppable`.
pub const PASSER_UNSTOPPABLE: S = S(9, 259);

/// The default of `passer_caught`.
pub const PASSER_CAUGHT: S = S(16, -7);
