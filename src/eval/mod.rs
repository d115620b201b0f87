//! The evaluation: material, piece-square tables and a few cheap positional terms, blended by
//! game phase, from the side to move's point of view.
//!
//! All numbers live in [`weights::Weights`]; the pair type and the one phase blend are in
//! [`score`]; PeSTO's piece-square data is in [`psqt`].

pub mod psqt;
pub mod score;
pub mod weights;

use shakmaty::{Bitboard, Chess, Color, Position, Role, Square, attacks};

use crate::search::Value;
use score::S;
use weights::Weights;

/// Evaluations are clamped to this magnitude so they never look like mate scores.
pub const EVAL_LIMIT: i32 = 20_000;

/// Squares in front of a pawn on its file and the two neighbouring files, per colour and
/// square: a pawn is passed when no enemy pawn stands there.
const PASSED_MASK: [[u64; 64]; 2] = passed_masks();

const fn passed_masks() -> [[u64; 64]; 2] {
    let mut masks = [[0u64; 64]; 2];
    let mut sq: i32 = 0;
    while sq < 64 {
        let file = sq % 8;
        let rank = sq / 8;
        let mut other: i32 = 0;
        while other < 64 {
            let f = other % 8;
            let r = other / 8;
            let near = (f - file) <= 1 && (file - f) <= 1;
            if near && r > rank {
                masks[0][sq as usize] |= 1 << other;
            }
            if near && r < rank {
                masks[1][sq as usize] |= 1 << other;
            }
            other += 1;
        }
        sq += 1;
    }
    masks
}

/// The evaluation function with its weights.
///
/// ```
/// use minkowski::eval::Evaluator;
/// use shakmaty::Chess;
/// let v = Evaluator::default().evaluate(&Chess::default());
/// assert!(v.0.abs() < 50); // the start position is about level
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Evaluator {
    /// The weights in use.
    pub weights: Weights,
}

impl Evaluator {
    /// An evaluator with the given weights.
    #[must_use]
    pub fn new(weights: Weights) -> Evaluator {
        Evaluator { weights }
    }

    /// Static evaluation of `pos` in centipawns from the side to move's point of view.
    /// Symmetric: the colour-flipped position gets the same value.
    #[must_use]
    pub fn evaluate(&self, pos: &Chess) -> Value {
        let w = &self.weights;
        let board = pos.board();
        let occupied = board.occupied();
        let mut score = S::ZERO; // White's point of view
        let mut phase = 0;

        for color in [Color::White, Color::Black] {
            let mut side = S::ZERO;
            let ours = board.by_color(color);
            let their_pawns = board.by_piece(Role::Pawn.of(!color));
            let our_pawns = board.by_piece(Role::Pawn.of(color));
            let mut pawn_attacked = Bitboard::EMPTY;
            for sq in their_pawns {
                pawn_attacked |= attacks::pawn_attacks(!color, sq);
            }
            let mobility_area = !(ours | pawn_attacked);

            for role in Role::ALL {
                let r = role as usize - 1;
                for sq in board.by_piece(role.of(color)) {
                    let rel = relative(sq, color);
                    side += w.material[r] + w.psqt[r][rel];
                    phase += w.phase_weight[r];
                    let reach = match role {
                        Role::Knight => attacks::knight_attacks(sq),
                        Role::Bishop => attacks::bishop_attacks(sq, occupied),
                        Role::Rook => attacks::rook_attacks(sq, occupied),
                        Role::Queen => attacks::queen_attacks(sq, occupied),
                        Role::Pawn | Role::King => Bitboard::EMPTY,
                    };
                    side += w.mobility[r] * (reach & mobility_area).count() as i32;
                    match role {
                        Role::Pawn
                            if (their_pawns.0 & PASSED_MASK[side_index(color)][sq as usize])
                                == 0 =>
                        {
                            side += w.passed_pawn[rel / 8];
                        }
                        Role::Rook => {
                            let file = Bitboard::from_file(sq.file());
                            if (our_pawns & file).is_empty() {
                                side += if (their_pawns & file).is_empty() {
                                    w.rook_open_file
                                } else {
                                    w.rook_semi_open_file
                                };
                            }
                        }
                        _ => {}
                    }
                }
            }
            if board.by_piece(Role::Bishop.of(color)).more_than_one() {
                side += w.bishop_pair;
            }
            if color == Color::White {
                score += side;
            } else {
                score -= side;
            }
        }

        // ENDGAME SEAM: specialised endgame knowledge (mop-up, knight against a passer, forks)
        // plugs in here, adjusting `score` (White's point of view, as an `S`) or replacing the
        // blended value below for recognised material signatures.

        let mut value = score.taper(phase);
        if pos.turn() == Color::Black {
            value = -value;
        }
        value += w.tempo.taper(phase);
        Value(value.clamp(-EVAL_LIMIT, EVAL_LIMIT))
    }
}

/// Index of `color` in [`PASSED_MASK`] (White = 0, Black = 1).
const fn side_index(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// `sq` as seen from `color`'s side of the board (a1 = 0 for White's pieces; Black's are
/// flipped vertically).
fn relative(sq: Square, color: Color) -> usize {
    match color {
        Color::White => sq as usize,
        Color::Black => sq.flip_vertical() as usize,
    }
}
