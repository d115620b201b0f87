//! King and pawn against king, exactly: a bitbase built once by retrograde analysis.
//!
//! The rule of the square and the opposition are the heart of KPK, but their exceptions (rook
//! pawns, the key squares, stalemate tricks on the edge) are many. Instead of rules, Minkowski
//! solves the ending: every position with the pawn on files a–d (the others are mirror images),
//! the strong side normalised to White, is labelled win or draw by iterating to a fixed point:
//!
//! * White to move wins when one move reaches a won position, or promotes to a queen (or a rook,
//!   when the queen would stalemate) that the lone king cannot take, without stalemate;
//! * Black to move loses when every legal move reaches a won position (and it is not stalemate),
//!   or when it is mated;
//! * whatever is not won after the last pass is a draw (the lone king takes the pawn, blockades
//!   it, or stalemate follows).
//!
//! 196 608 positions, a few dozen passes: about 50 milliseconds in a release build, done once on
//! first use and kept as an immutable bit set (a [`LazyLock`]; never written after it is built).
//! A test compares it with the Syzygy table `KPvK.rtbw` on every legal position.

use std::sync::LazyLock;

use shakmaty::{Bitboard, Board, Color, Role, Square, attacks};

use super::verdict_weights::{KNOWN_WIN, KPK_PAWN_ADVANCE, WeightSum};
use crate::eval::base::MATERIAL;
use crate::eval::score::S;
use crate::eval::to_move::SideToMove;
use crate::eval::tracer::Tracer;
use crate::eval::tracer::Verdict;
use crate::eval::weights::{Weights, role_index};
use crate::geometry::king_distance;

/// Positions in the bitbase: side to move × strong king × lone king × pawn (files a–d, ranks
/// 2–7).
const POSITIONS: usize = 2 * 64 * 64 * 24;

/// King and pawn against king as plain values: the input of the KPK bitbase, for engines that
/// keep their own board. Any colour may be the strong side; squares are shakmaty's (a1 = 0).
///
/// ```
/// use minkowski_core::eval::endgame::KpkPosition;
/// use shakmaty::{Color, Square};
/// // Black pawn on d4, Black to move, white king g2 inside the pawn's square: a draw.
/// let draw = KpkPosition {
///     strong_king: Square::A7,
///     pawn: Square::D4,
///     lone_king: Square::G2,
///     strong_color: Color::Black,
///     strong_to_move: true,
/// };
/// assert!(!draw.is_win());
/// // The white king one file further away is outside the square: the pawn runs through.
/// assert!(KpkPosition { lone_king: Square::H2, ..draw }.is_win());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KpkPosition {
    /// The king of the side with the pawn.
    pub strong_king: Square,
    /// The pawn.
    pub pawn: Square,
    /// The lone king.
    pub lone_king: Square,
    /// The colour of the side with the pawn.
    pub strong_color: Color,
    /// Whether the side with the pawn moves next.
    pub strong_to_move: bool,
}

impl KpkPosition {
    /// Whether the side with the pawn wins with best play (ignoring the 50-move rule, which never
    /// matters in KPK). Impossible inputs (two pieces on a square, the pawn on its first or last
    /// rank, kings in contact, the side not to move in check) answer `false`.
    ///
    /// ```
    /// use minkowski_core::eval::endgame::KpkPosition;
    /// use shakmaty::{Color, Square};
    /// // The classic: king in front of its pawn (Ke5, Pe4 against Ke7) wins when the lone king
    /// // must give way, and draws when the strong side has to move and lose the opposition.
    /// let p = KpkPosition {
    ///     strong_king: Square::E5,
    ///     pawn: Square::E4,
    ///     lone_king: Square::E7,
    ///     strong_color: Color::White,
    ///     strong_to_move: false,
    /// };
    /// assert!(p.is_win());
    /// assert!(!KpkPosition { strong_to_move: true, ..p }.is_win());
    /// ```
    #[must_use]
    pub fn is_win(&self) -> bool {
        let flip = |sq: Square| match self.strong_color {
            Color::White => sq,
            Color::Black => sq.flip_vertical(),
        };
        let (mut wk, mut pawn, mut bk) = (
            flip(self.strong_king),
            flip(self.pawn),
            flip(self.lone_king),
        );
        if !(1..=6).contains(&(pawn.rank() as usize)) {
            return false;
        }
        if pawn.file() as usize >= 4 {
            (wk, pawn, bk) = (
                wk.flip_horizontal(),
                pawn.flip_horizontal(),
                bk.flip_horizontal(),
            );
        }
        let i = index(self.strong_to_move, wk, bk, pawn);
        BITBASE.wins[i / 64] & (1 << (i % 64)) != 0
    }
}

/// Builds the bitbase now if it is not built yet (about 50 ms once per process; later calls
/// return at once). Never needed for correctness: the first KPK query builds it otherwise, and
/// this moves that pause to a moment of the caller's choosing.
pub(crate) fn build_bitbase() {
    LazyLock::force(&BITBASE);
}

/// The bitbase: one bit per position, set when White (the strong side) wins.
struct Bitbase {
    wins: Box<[u64]>,
}

static BITBASE: LazyLock<Bitbase> = LazyLock::new(solve);

/// Position index; `pawn` on files a–d, ranks 2–7.
fn index(white_to_move: bool, wk: Square, bk: Square, pawn: Square) -> usize {
    let pawn_index = (pawn.rank() as usize - 1) * 4 + pawn.file() as usize;
    ((usize::from(white_to_move) * 64 + wk as usize) * 64 + bk as usize) * 24 + pawn_index
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Label {
    Illegal,
    Unknown,
    Win,
}

/// Squares attacked by a white pawn on `pawn`.
fn pawn_attacks(pawn: Square) -> Bitboard {
    attacks::pawn_attacks(Color::White, pawn)
}

/// Whether the position is legal: three distinct squares, kings apart, and Black not in check
/// when White is to move.
fn legal(white_to_move: bool, wk: Square, bk: Square, pawn: Square) -> bool {
    wk != bk
        && wk != pawn
        && bk != pawn
        && king_distance(wk, bk) > 1
        && !(white_to_move && pawn_attacks(pawn).contains(bk))
}

/// White promotes on `square` (White's king `wk`, Black's `bk`, Black to move next): whether a
/// queen or a rook there wins, i.e. the lone king can neither take it nor is stalemated.
fn promotion_wins(wk: Square, bk: Square, square: Square) -> bool {
    if square == wk || square == bk {
        return false;
    }
    if king_distance(bk, square) <= 1 && king_distance(wk, square) > 1 {
        return false; // the lone king takes the new piece
    }
    [Role::Queen, Role::Rook].into_iter().any(|role| {
        let occupied = Bitboard::from(wk) | Bitboard::from(square);
        let piece = attacks::attacks(square, role.of(Color::White), occupied);
        let covered = piece | attacks::king_attacks(wk);
        let in_check = piece.contains(bk);
        let escapes = attacks::king_attacks(bk) & !covered & !Bitboard::from(wk);
        // Every square the lone king may step to is free of attack: move, or it is mated.
        escapes.any() || in_check
    })
}

/// Black's legal king moves (a step onto the pawn is its capture).
fn black_moves(wk: Square, bk: Square, pawn: Square) -> Bitboard {
    let guarded = attacks::king_attacks(wk) | pawn_attacks(pawn) | Bitboard::from(wk);
    attacks::king_attacks(bk) & !guarded
}

fn solve() -> Bitbase {
    let mut labels = vec![Label::Illegal; POSITIONS];
    let squares = || (0..64).map(Square::new);
    let pawns = || (1..=6).flat_map(|rank| (0..4).map(move |file| Square::new(rank * 8 + file)));
    for stm in [false, true] {
        for wk in squares() {
            for bk in squares() {
                for pawn in pawns() {
                    if legal(stm, wk, bk, pawn) {
                        labels[index(stm, wk, bk, pawn)] = Label::Unknown;
                    }
                }
            }
        }
    }
    loop {
        let mut changed = false;
        for stm in [true, false] {
            for wk in squares() {
                for bk in squares() {
                    for pawn in pawns() {
                        let i = index(stm, wk, bk, pawn);
                        if labels[i] != Label::Unknown {
                            continue;
                        }
                        let won = if stm {
                            white_wins(&labels, wk, bk, pawn)
                        } else {
                            black_loses(&labels, wk, bk, pawn)
                        };
                        if won {
                            labels[i] = Label::Win;
                            changed = true;
                        }
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    let mut wins = vec![0u64; POSITIONS.div_ceil(64)].into_boxed_slice();
    for (i, label) in labels.iter().enumerate() {
        if *label == Label::Win {
            wins[i / 64] |= 1 << (i % 64);
        }
    }
    Bitbase { wins }
}

/// White to move: some move reaches a won position (Black to move), or promotes safely.
fn white_wins(labels: &[Label], wk: Square, bk: Square, pawn: Square) -> bool {
    let king_steps = attacks::king_attacks(wk) & !attacks::king_attacks(bk) & !Bitboard::from(pawn);
    if king_steps
        .into_iter()
        .any(|to| labels[index(false, to, bk, pawn)] == Label::Win)
    {
        return true;
    }
    let one = pawn.offset(8).expect("pawn below the last rank");
    if one == wk || one == bk {
        return false;
    }
    if one.rank() as usize == 7 {
        return promotion_wins(wk, bk, one);
    }
    if labels[index(false, wk, bk, one)] == Label::Win {
        return true;
    }
    let two = one.offset(8).expect("pawn below the seventh rank");
    pawn.rank() as usize == 1
        && two != wk
        && two != bk
        && labels[index(false, wk, bk, two)] == Label::Win
}

/// Black to move: mated, or every legal move reaches a won position (White to move).
fn black_loses(labels: &[Label], wk: Square, bk: Square, pawn: Square) -> bool {
    let moves = black_moves(wk, bk, pawn);
    if moves.is_empty() {
        return pawn_attacks(pawn).contains(bk); // mate; otherwise stalemate
    }
    moves
        .into_iter()
        .all(|to| to != pawn && labels[index(true, wk, to, pawn)] == Label::Win)
}

/// The registry's KPK entry: a draw, or a known win plus the pawn and its progress.
pub(super) fn evaluate(
    board: &Board,
    to_move: SideToMove,
    strong: Color,
    w: &Weights,
    tracer: &mut dyn Tracer,
) -> Verdict {
    let pieces = (
        board.king_of(strong),
        (board.by_piece(Role::Pawn.of(strong))).first(),
        board.king_of(!strong),
    );
    let (Some(strong_king), Some(pawn), Some(lone_king)) = pieces else {
        return Verdict::Replace(S::ZERO);
    };
    let position = KpkPosition {
        strong_king,
        pawn,
        lone_king,
        strong_color: strong,
        strong_to_move: to_move.color() == strong,
    };
    if !position.is_win() {
        return Verdict::Replace(S::ZERO);
    }
    let rank = strong.relative_rank(pawn.rank()) as i32; // 1 ..= 6
    let mut sum = WeightSum::new(w, tracer);
    sum.add(KNOWN_WIN, 1)
        .add(MATERIAL.at(role_index(Role::Pawn)), 1)
        .add(KPK_PAWN_ADVANCE, rank);
    Verdict::Replace(sum.sum)
}
