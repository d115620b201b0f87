//! Drawishness: the endgame half of the score moved toward zero where a material edge does not
//! win. Two stages, after every other term and before the phase blend, as in Ethereal:
//!
//! 1. **Complexity** ([`COMPLEXITY`]): a sum of weights over the pawns (how many, on
//!    both flanks or one, a pure pawn ending, a base) that moves the endgame half away from zero
//!    (positive) or toward it (negative), but never past it: `eg + sign(eg) × max(c, −|eg|)`.
//!    Fitted by the tuner through that formula ([`super::combine::scale_endgame`], which the
//!    tuner differentiates automatically).
//! 2. **Scale factor** ([`factor`]): out of [`SCALE_NORMAL`], by rules on the material of the
//!    side ahead in the endgame half (opposite-coloured bishops, a lone minor, a lone queen
//!    against pieces, a few pawns on one flank). The factors are set by hand (Ethereal's for the
//!    bishop, queen and minor rules), not fitted: the tuner takes them as given.
//!
//! The fifty-move counter does not enter: the transposition table's key leaves it out, so an
//! evaluation that read it would give one key two values (and the search draws by the rule
//! anyway). A fade that read it did no better in games (see `docs/evaluation.md`).
//!
//! Neither stage can change the sign of the endgame half (`combine`'s tests check it on random
//! numbers, `tests/integration/eval_symmetry.rs` on every suite). Specialised endgames
//! ([`super::endgame`]) come first: where one applies, nothing here does.

use shakmaty::{Bitboard, Board, Color, File, Rank, Role, Square};

use super::acc::Acc;
use super::info::Info;
use super::score::S;
use super::tracer::Tracer;
use super::weights::{declare_weights, role_index};

declare_weights! {
    /// The family of weights of drawishness (complexity); where it starts in the table is set where
    /// the evaluation lists its families (`eval/mod.rs`).
    family Drawishness;

    channel Complexity, row Drawishness, range -500..=500;
    /// Complexity, endgame half only (the middlegame half is unused): per pawn on the board
    /// (`pawns`), for pawns on both flanks (`both_flanks`), for a pure pawn ending (`pawn_ending`)
    /// and always (`base`). Their sum moves the endgame half of the score away from zero (positive)
    /// or toward it, never past it; fitted through that formula.
    COMPLEXITY[Names(&["pawns", "both_flanks", "pawn_ending", "base"])] = [
        S(0, 4), S(0, 40), S(0, 53), S(0, -82),
    ];
}

/// The scale factors' unit: a factor of 128 leaves the endgame half as it is.
pub const SCALE_NORMAL: i32 = 128;

/// Each side has one bishop, on squares of opposite colours, and nothing else but pawns: the
/// defender's bishop blockades on the colour the attacker's cannot touch.
pub const SCALE_OPPOSITE_BISHOPS: i32 = 64;

/// As [`SCALE_OPPOSITE_BISHOPS`], but the side ahead has at most one pawn more than the other:
/// the defender's bishop gives itself for the one extra pawn or stops it on the colour its
/// king cannot be driven from, and the ending is a draw (KBPvKB with the bishops on opposite
/// colours nearly always). Without the rule the evaluation read KBPvKB as two pawns up; on the
/// yardstick games' positions the best factor for these endings was 10 to 20.
pub const SCALE_OPPOSITE_BISHOPS_PAWN_EDGE: i32 = 16;

/// Opposite-coloured bishops and one knight each (no rooks, no queens).
pub const SCALE_OPPOSITE_BISHOPS_KNIGHTS: i32 = 106;

/// Opposite-coloured bishops and one rook each (no knights, no queens).
pub const SCALE_OPPOSITE_BISHOPS_ROOKS: i32 = 96;

/// The side ahead has a queen and no other piece, the other side no queen and at least two
/// knights, bishops or rooks: pieces hold together against a lone queen.
pub const SCALE_LONE_QUEEN: i32 = 88;

/// The side ahead has one knight or bishop, nothing else and no pawns: it cannot mate.
pub const SCALE_LONE_MINOR: i32 = 0;

/// The side ahead has no pawns and at most a bishop more in pieces ([`PIECE_POINTS`]), and the
/// other side has one minor piece or nothing: rook against minor, rook and minor against rook,
/// two bishops against bishop, bishop and knight against minor. The tablebases draw nearly all
/// of these (`tests/integration/eval_scale.rs` counts KRvKB and KRvKN); without the rule the
/// evaluation read them as a piece up, about four pawns, and played for or against them so.
pub const SCALE_PAWNLESS_MINOR_EDGE: i32 = 8;

/// As [`SCALE_PAWNLESS_MINOR_EDGE`], but the other side has more than one minor piece's worth
/// (a rook, or two pieces): more ways to go wrong for the defender, still mostly drawn.
pub const SCALE_PAWNLESS_SMALL_EDGE: i32 = 28;

/// The side ahead has bishops of one square colour and nothing else but pawns, all on one rook
/// file (a or h) whose promotion square is of the other colour (the "wrong bishop"); the other
/// side has only its king, on the promotion square or next to it
/// ([`WRONG_BISHOP_CORNER_REACH`]). The bishop can never drive the king from the corner, and
/// the pawn does not promote past it: the tables draw nearly all of these
/// (`tests/integration/eval_scale.rs` counts KBPvK). Without the rule the evaluation read them
/// as a bishop and a pawn up, 550 to 780 cp (issue 74).
pub const SCALE_WRONG_BISHOP_ROOK_PAWN: i32 = 0;

/// How many king steps the lone king may stand from the rook pawn's promotion square for
/// [`SCALE_WRONG_BISHOP_ROOK_PAWN`]: on it or next to it (farther away, the bishop and king
/// may still cut it off from the corner).
pub const WRONG_BISHOP_CORNER_REACH: u32 = 1;

/// Piece points (knight, bishop, rook, queen; index `role_index`) that decide the pawnless rules:
/// two bishops (640) are more than a bishop ahead of a knight (300), so KBBvKN, usually won,
/// stays unscaled; a queen (950) is more than a bishop ahead of a rook (500).
pub const PIECE_POINTS: [i32; 6] = [0, 300, 320, 500, 950, 0];

/// The side ahead has one, two or three pawns (index 1 ..= 3), all on one flank (files a-d or
/// e-h), and the other side has a pawn or a piece to give for them.
pub const SCALE_FEW_PAWNS_ONE_FLANK: [i32; 4] = [SCALE_NORMAL, 96, 108, 120];

/// Files a to d.
const QUEEN_SIDE: Bitboard = Bitboard(0x0F0F_0F0F_0F0F_0F0F);
/// Files e to h.
const KING_SIDE: Bitboard = Bitboard(0xF0F0_F0F0_F0F0_F0F0);

/// The complexity elements (index into [`COMPLEXITY`]).
pub mod complexity_index {
    /// Per pawn on the board.
    pub const PAWNS: usize = 0;
    /// Pawns on both flanks.
    pub const BOTH_FLANKS: usize = 1;
    /// No pieces but kings and pawns.
    pub const PAWN_ENDING: usize = 2;
    /// Always.
    pub const BASE: usize = 3;
}

/// The endgame scale factor (out of [`SCALE_NORMAL`]) when `strong` is the side ahead in the
/// endgame half: that of the first material rule that fits, [`SCALE_NORMAL`] if none.
///
/// ```
/// use minkowski_core::eval::scale::{SCALE_NORMAL, SCALE_OPPOSITE_BISHOPS, factor};
/// use shakmaty::{CastlingMode, Chess, Color, Position, fen::Fen};
/// let pos: Chess = "4k3/5b2/8/2P5/1P6/8/3B4/4K3 w - - 0 1".parse::<Fen>().unwrap()
///     .into_position(CastlingMode::Standard).unwrap();
/// assert_eq!(factor(pos.board(), Color::White), SCALE_OPPOSITE_BISHOPS);
/// assert_eq!(factor(Chess::default().board(), Color::White), SCALE_NORMAL);
/// ```
// Inlined into the evaluation so that it counts bits with `popcnt` there (see
// `Evaluator::evaluate_from`).
#[inline(always)]
#[must_use]
pub fn factor(board: &Board, strong: Color) -> i32 {
    let weak = !strong;
    let of = |color: Color, role: Role| board.by_piece(role.of(color));
    let (knights, bishops) = (board.knights(), board.bishops());
    let (rooks, queens) = (board.rooks(), board.queens());

    // Most middlegames: four pawns or more against an enemy queen fit no rule below (each asks
    // for no queens, a bare enemy king, no enemy queen, a lone piece, or at most three pawns).
    if of(strong, Role::Pawn).count() >= 4 && of(weak, Role::Queen).any() {
        return SCALE_NORMAL;
    }

    let (strong_bishop, weak_bishop) = (of(strong, Role::Bishop), of(weak, Role::Bishop));
    if strong_bishop.count() == 1 && weak_bishop.count() == 1 && queens.is_empty() {
        let light = |b: Bitboard| (b & Bitboard::LIGHT_SQUARES).any();
        if light(strong_bishop) != light(weak_bishop) {
            let one_each =
                |role: Role| of(strong, role).count() == 1 && of(weak, role).count() == 1;
            if knights.is_empty() && rooks.is_empty() {
                let pawns = |color: Color| of(color, Role::Pawn).count() as i32;
                return if pawns(strong) - pawns(weak) <= 1 {
                    SCALE_OPPOSITE_BISHOPS_PAWN_EDGE
                } else {
                    SCALE_OPPOSITE_BISHOPS
                };
            }
            if rooks.is_empty() && one_each(Role::Knight) {
                return SCALE_OPPOSITE_BISHOPS_KNIGHTS;
            }
            if knights.is_empty() && one_each(Role::Rook) {
                return SCALE_OPPOSITE_BISHOPS_ROOKS;
            }
        }
    }

    if wrong_bishop_rook_pawns(board, strong) {
        return SCALE_WRONG_BISHOP_ROOK_PAWN;
    }

    let pieces = |color: Color| (knights | bishops | rooks | queens) & board.by_color(color);
    let strong_queens = of(strong, Role::Queen);
    if strong_queens.count() == 1
        && pieces(strong) == strong_queens
        && of(weak, Role::Queen).is_empty()
        && pieces(weak).more_than_one()
    {
        return SCALE_LONE_QUEEN;
    }

    let strong_pawns = of(strong, Role::Pawn);
    if is_lone_minor(board, strong) {
        return SCALE_LONE_MINOR;
    }
    if strong_pawns.is_empty() {
        let points = |color: Color| {
            [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
                .into_iter()
                .map(|role| PIECE_POINTS[role_index(role)] * of(color, role).count() as i32)
                .sum::<i32>()
        };
        let (strong_points, weak_points) = (points(strong), points(weak));
        let bishop = PIECE_POINTS[role_index(Role::Bishop)];
        if strong_points >= PIECE_POINTS[role_index(Role::Rook)]
            && strong_points - weak_points <= bishop
        {
            return if weak_points <= bishop {
                SCALE_PAWNLESS_MINOR_EDGE
            } else {
                SCALE_PAWNLESS_SMALL_EDGE
            };
        }
    }

    let few = strong_pawns.count();
    let one_flank = (strong_pawns & QUEEN_SIDE).is_empty() || (strong_pawns & KING_SIDE).is_empty();
    let weak_has_material = (board.by_color(weak) & !board.kings()).any();
    if (1..=3).contains(&few) && one_flank && weak_has_material {
        return SCALE_FEW_PAWNS_ONE_FLANK[few];
    }
    SCALE_NORMAL
}

/// Whether `color` has one knight or bishop, no other piece and no pawns: it cannot mate
/// ([`SCALE_LONE_MINOR`]).
#[inline(always)]
fn is_lone_minor(board: &Board, color: Color) -> bool {
    let ours = board.by_color(color) & !board.kings();
    ours.count() == 1 && (ours & (board.knights() | board.bishops())).any()
}

/// The scale factors `[if White is ahead, if Black is]` that cap an adjusting endgame verdict
/// (the knights-against-passers race, which answers in place of the drawishness stage):
/// [`SCALE_LONE_MINOR`] for a side with a lone knight or bishop and no pawns, which cannot
/// mate (a knight against pawns wins only in freak positions, where the pawns smother their own
/// king), [`SCALE_NORMAL`] for the other side, so that what the verdict says of the pawns' side
/// stands. `None` where neither side is a lone minor: the verdict alone, as without the cap.
/// Only the endgame half is capped; the middlegame half weighs a minor piece's phase there, a
/// few centipawns. Without the cap the evaluation read KNvKP as a knight up, 450 to 585 cp for
/// the side that cannot win (issue 74).
///
/// ```
/// use minkowski_core::eval::scale::{SCALE_LONE_MINOR, SCALE_NORMAL, lone_minor_caps};
/// use shakmaty::{CastlingMode, Chess, Position, fen::Fen};
/// let board = |fen: &str| fen.parse::<Fen>().unwrap()
///     .into_position::<Chess>(CastlingMode::Standard).unwrap().board().clone();
/// let knight_vs_pawn = board("8/8/8/4k3/8/5p2/3N4/4K3 w - - 0 1");
/// assert_eq!(lone_minor_caps(&knight_vs_pawn), Some([SCALE_LONE_MINOR, SCALE_NORMAL]));
/// // With a pawn of its own, the knight's side may win: no cap.
/// let with_pawn = board("8/8/8/4k3/8/5p2/P2N4/4K3 w - - 0 1");
/// assert_eq!(lone_minor_caps(&with_pawn), None);
/// ```
#[must_use]
pub fn lone_minor_caps(board: &Board) -> Option<[i32; 2]> {
    let cap = |color: Color| {
        if is_lone_minor(board, color) {
            SCALE_LONE_MINOR
        } else {
            SCALE_NORMAL
        }
    };
    let caps = [cap(Color::White), cap(Color::Black)];
    (caps != [SCALE_NORMAL; 2]).then_some(caps)
}

/// Whether [`SCALE_WRONG_BISHOP_ROOK_PAWN`] fits with `strong` ahead: bishops of one colour and
/// pawns on one rook file, the promotion square of the other colour, and the other side's lone
/// king within [`WRONG_BISHOP_CORNER_REACH`] of it.
///
/// ```
/// use minkowski_core::eval::scale::wrong_bishop_rook_pawns;
/// use shakmaty::{CastlingMode, Chess, Color, Position, fen::Fen};
/// let board = |fen: &str| fen.parse::<Fen>().unwrap()
///     .into_position::<Chess>(CastlingMode::Standard).unwrap().board().clone();
/// // h8 is dark, the bishop on d3 light: the black king holds the corner.
/// assert!(wrong_bishop_rook_pawns(&board("7k/8/8/7P/8/3B4/8/4K3 w - - 0 1"), Color::White));
/// // The dark-squared bishop on e3 controls h8: no rule.
/// assert!(!wrong_bishop_rook_pawns(&board("7k/8/8/7P/8/4B3/8/4K3 w - - 0 1"), Color::White));
/// // The king far from the corner: no rule.
/// assert!(!wrong_bishop_rook_pawns(&board("8/8/8/2k4P/8/3B4/8/4K3 w - - 0 1"), Color::White));
/// ```
// Inlined into `factor`: most positions leave at the first test (the other side has more than
// its king).
#[inline(always)]
#[must_use]
pub fn wrong_bishop_rook_pawns(board: &Board, strong: Color) -> bool {
    let weak = !strong;
    if (board.by_color(weak) & !board.kings()).any() {
        return false;
    }
    let ours = board.by_color(strong) & !board.kings();
    let (pawns, bishops) = (ours & board.pawns(), ours & board.bishops());
    if pawns.is_empty() || bishops.is_empty() || ours != (pawns | bishops) {
        return false;
    }
    let file = if pawns.is_subset(Bitboard::from_file(File::A)) {
        File::A
    } else if pawns.is_subset(Bitboard::from_file(File::H)) {
        File::H
    } else {
        return false;
    };
    let promotion = Square::from_coords(file, strong.relative_rank(Rank::Eighth));
    let promotion_colour = if promotion.is_light() {
        Bitboard::LIGHT_SQUARES
    } else {
        Bitboard::DARK_SQUARES
    };
    (bishops & promotion_colour).is_empty()
        && board
            .king_of(weak)
            .is_some_and(|king| king.distance(promotion) <= WRONG_BISHOP_CORNER_REACH)
}

/// The drawishness stage's inputs: the complexity terms into `acc`, and the scale factors
/// `[if White is ahead, if Black is]` (reported to the tracer), which
/// [`super::combine::scale_endgame`] applies with the complexity to the endgame half.
// Inlined into the evaluation: there it runs with `popcnt` where the CPU has it (see
// `Evaluator::evaluate_from`); a separate function would count bits the slow way.
#[inline(always)]
pub fn drawishness<T: Tracer>(board: &Board, info: &Info, acc: &mut Acc<'_, T>) -> [i32; 2] {
    complexity(board, info, acc);
    let factors = [factor(board, Color::White), factor(board, Color::Black)];
    acc.tracer().scale(factors);
    factors
}

/// The complexity terms of the position (see the [module](self) documentation), into `acc`.
#[inline(always)]
pub fn complexity<T: Tracer>(board: &Board, info: &Info, acc: &mut Acc<'_, T>) {
    use complexity_index::{BASE, BOTH_FLANKS, PAWN_ENDING, PAWNS};
    let pawns = *info.pawns.get(Color::White) | *info.pawns.get(Color::Black);
    acc.complexity(COMPLEXITY.at(PAWNS), pawns.count() as i32);
    if (pawns & QUEEN_SIDE).any() && (pawns & KING_SIDE).any() {
        acc.complexity(COMPLEXITY.at(BOTH_FLANKS), 1);
    }
    if (board.occupied() & !board.pawns() & !board.kings()).is_empty() {
        acc.complexity(COMPLEXITY.at(PAWN_ENDING), 1);
    }
    acc.complexity(COMPLEXITY.at(BASE), 1);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::test_support::position;
    use shakmaty::Position;

    fn board(fen: &str) -> Board {
        position(fen).board().clone()
    }

    #[test]
    fn pawnless_edges_of_at_most_a_bishop() {
        let rook_vs_bishop = board("8/8/3k4/8/2b5/8/R3K3/8 w - - 0 1");
        assert_eq!(
            factor(&rook_vs_bishop, Color::White),
            SCALE_PAWNLESS_MINOR_EDGE
        );
        let rook_bishop_vs_rook = board("8/3r4/3k4/8/8/3BK3/3R4/8 w - - 0 1");
        assert_eq!(
            factor(&rook_bishop_vs_rook, Color::White),
            SCALE_PAWNLESS_SMALL_EDGE
        );
        // The same with a pawn for the side ahead: no longer pawnless (one pawn on one flank).
        let with_pawn = board("8/3r4/3k4/8/8/3BK3/3R2P1/8 w - - 0 1");
        assert_eq!(
            factor(&with_pawn, Color::White),
            SCALE_FEW_PAWNS_ONE_FLANK[1]
        );
        // Two bishops against a knight, a queen against a rook: more than a bishop ahead.
        let bishops_vs_knight = board("8/8/3k4/8/2n5/8/3BBK2/8 w - - 0 1");
        assert_eq!(factor(&bishops_vs_knight, Color::White), SCALE_NORMAL);
        let queen_vs_rook = board("8/8/3k4/8/2r5/8/Q4K2/8 w - - 0 1");
        assert_eq!(factor(&queen_vs_rook, Color::White), SCALE_NORMAL);
        // Black ahead: the rule looks at the side it is asked about.
        let black_rook = board("8/8/3k4/3r4/8/8/3N1K2/8 w - - 0 1");
        assert_eq!(factor(&black_rook, Color::Black), SCALE_PAWNLESS_MINOR_EDGE);
    }

    #[test]
    fn opposite_bishops_alone_and_with_a_knight_or_rook_each() {
        let alone = board("4k3/5b2/8/2P5/1P6/8/3B4/4K3 w - - 0 1");
        assert_eq!(factor(&alone, Color::White), SCALE_OPPOSITE_BISHOPS);
        // One pawn more (one against none, two against one): the pawn-edge rule.
        let one_pawn = board("4k3/5b2/8/2P5/8/8/3B4/4K3 w - - 0 1");
        assert_eq!(
            factor(&one_pawn, Color::White),
            SCALE_OPPOSITE_BISHOPS_PAWN_EDGE
        );
        let two_vs_one = board("4k3/5b2/6p1/2P5/1P6/8/3B4/4K3 w - - 0 1");
        assert_eq!(
            factor(&two_vs_one, Color::White),
            SCALE_OPPOSITE_BISHOPS_PAWN_EDGE
        );
        let knights = board("4k3/2n2b2/8/2P5/1P6/8/3BN3/4K3 w - - 0 1");
        assert_eq!(
            factor(&knights, Color::White),
            SCALE_OPPOSITE_BISHOPS_KNIGHTS
        );
        let rooks = board("r3k3/5b2/8/2P5/1P6/8/3B4/R3K3 w - - 0 1");
        assert_eq!(factor(&rooks, Color::White), SCALE_OPPOSITE_BISHOPS_ROOKS);
        // Same-coloured bishops (d2 and e7 are both dark): no bishop rule. The pawns are on
        // the queen side only, two of them: the few-pawns rule.
        let same = board("4k3/4b3/8/2P5/1P6/8/3B4/4K3 w - - 0 1");
        assert_eq!(factor(&same, Color::White), SCALE_FEW_PAWNS_ONE_FLANK[2]);
        // A rook and a knight on top: none of the three.
        let both = board("r3k3/2n2b2/8/2P5/1P6/8/3BN3/R3K3 w - - 0 1");
        assert_eq!(factor(&both, Color::White), SCALE_FEW_PAWNS_ONE_FLANK[2]);
    }

    #[test]
    fn lone_queen_against_pieces() {
        let b = board("4k3/2r1b3/8/8/8/8/PP3Q2/4K3 w - - 0 1");
        assert_eq!(factor(&b, Color::White), SCALE_LONE_QUEEN);
        // With a rook of its own, or against one piece, no.
        let b = board("4k3/2r1b3/8/8/8/8/PP3Q2/R3K3 w - - 0 1");
        assert_eq!(factor(&b, Color::White), SCALE_FEW_PAWNS_ONE_FLANK[2]);
        let b = board("4k3/2r5/8/8/8/8/PPPP1Q2/4K3 w - - 0 1");
        assert_eq!(factor(&b, Color::White), SCALE_NORMAL);
    }

    #[test]
    fn a_lone_minor_without_pawns_cannot_win() {
        let b = board("4k3/8/8/8/5p2/8/3N4/4K3 w - - 0 1");
        assert_eq!(factor(&b, Color::White), SCALE_LONE_MINOR);
        // With a pawn it can.
        let b = board("4k3/8/8/8/5p2/8/P2N4/4K3 w - - 0 1");
        assert_ne!(factor(&b, Color::White), SCALE_LONE_MINOR);
        // The rule is about the side ahead: were Black ahead, it would not be a lone minor.
        assert_ne!(factor(&b, Color::Black), SCALE_LONE_MINOR);
    }

    #[test]
    fn a_rook_pawn_with_the_wrong_bishop_and_the_king_in_the_corner() {
        // a8 is light, the bishop on e5 dark: the king on b7 holds the corner.
        let b = board("8/1k6/8/4B3/P7/8/8/4K3 w - - 0 1");
        assert_eq!(factor(&b, Color::White), SCALE_WRONG_BISHOP_ROOK_PAWN);
        // Two pawns on the a-file: the same.
        let b = board("8/1k6/8/4B3/P7/P7/8/4K3 w - - 0 1");
        assert_eq!(factor(&b, Color::White), SCALE_WRONG_BISHOP_ROOK_PAWN);
        // Black's a-pawn promotes on a1 (dark); Black's bishop on d5 is light.
        let b = board("8/8/8/3b4/8/p7/1K6/4k3 w - - 0 1");
        assert_eq!(factor(&b, Color::Black), SCALE_WRONG_BISHOP_ROOK_PAWN);
        // The right bishop (d3, light), a b-pawn, the king two steps away, a black pawn: no.
        for fen in [
            "8/1k6/8/8/P7/3B4/8/4K3 w - - 0 1",
            "8/1k6/8/4B3/1P6/8/8/4K3 w - - 0 1",
            "8/8/2k5/4B3/P7/8/8/4K3 w - - 0 1",
            "8/1k5p/8/4B3/P7/8/8/4K3 w - - 0 1",
            "8/1k6/8/4B3/P7/8/8/3NK3 w - - 0 1",
        ] {
            assert_ne!(
                factor(&board(fen), Color::White),
                SCALE_WRONG_BISHOP_ROOK_PAWN,
                "{fen}"
            );
        }
    }

    #[test]
    fn a_lone_minor_caps_an_adjusting_verdict() {
        // The knights-against-passers race answers here, and the knight side is capped.
        let b = board("8/8/8/4k3/8/5p2/3N4/4K3 w - - 0 1");
        assert_eq!(lone_minor_caps(&b), Some([SCALE_LONE_MINOR, SCALE_NORMAL]));
        let b = board("8/8/8/4k3/8/5P2/3n4/4K3 w - - 0 1");
        assert_eq!(lone_minor_caps(&b), Some([SCALE_NORMAL, SCALE_LONE_MINOR]));
        // Two knights, or a knight and a pawn: no cap.
        let b = board("8/8/8/4k3/8/5p2/3NN3/4K3 w - - 0 1");
        assert_eq!(lone_minor_caps(&b), None);
        // The evaluation: the knight side, ahead in material, is read at about zero.
        let eval = crate::eval::Evaluator::default();
        let knight = position("8/8/8/4k3/8/5p2/3N4/4K3 b - - 0 1");
        assert!(
            eval.evaluate(&knight).0 >= -SCALE_NORMAL / 2,
            "{:?}",
            eval.evaluate(&knight)
        );
    }

    #[test]
    fn few_pawns_on_one_flank_but_not_on_both() {
        let b = board("6k1/5pp1/8/8/8/8/5PPP/3R2K1 w - - 0 1");
        assert_eq!(factor(&b, Color::White), SCALE_FEW_PAWNS_ONE_FLANK[3]);
        let b = board("6k1/5pp1/8/8/8/8/P4PP1/3R2K1 w - - 0 1");
        assert_eq!(factor(&b, Color::White), SCALE_NORMAL);
        // Four pawns: normal.
        let b = board("6k1/5pp1/8/8/8/8/4PPPP/3R2K1 w - - 0 1");
        assert_eq!(factor(&b, Color::White), SCALE_NORMAL);
    }

    #[test]
    fn the_fifty_move_counter_does_not_enter() {
        // Opposite-coloured bishops, where the scale factor applies, with 0 and 90 half-moves
        // on the counter: one value (the TT key leaves the counter out).
        let early = position("4k3/5b2/8/2P5/1P6/8/3B4/4K3 w - - 0 1");
        let late = position("4k3/5b2/8/2P5/1P6/8/3B4/4K3 w - - 90 80");
        let eval = crate::eval::Evaluator::default();
        assert_eq!(eval.evaluate(&early), eval.evaluate(&late));
    }
}
