//! The evaluation: material, piece-square tables, mobility, passed pawns, king safety and knight
//! forks, blended by game phase, with specialised endgame knowledge looked up by material
//! signature ([`endgame`]) — all from the side to move's point of view.
//!
//! All numbers live in [`weights::Weights`] (settable by name); the pair type and the one phase
//! blend are in [`score`]; PeSTO's piece-square data is in [`psqt`]. The evaluation is generic
//! over a [`trace::Tracer`]: [`Evaluator::evaluate`] traces nothing (at no cost) and
//! [`Evaluator::trace`] records every term.

pub mod endgame;
pub mod pawns;
pub mod psqt;
pub mod score;
pub mod tactics;
pub mod trace;
pub mod weights;

use shakmaty::{Bitboard, Board, Chess, Color, Position, Role, Square, attacks};

/// The evaluation's result type (defined in the bottom layer [`crate::value`], shared with the
/// search, which adds mate scores), re-exported so an engine that only evaluates finds it here.
pub use crate::value::Value;
use endgame::Verdict;
use score::{MAX_PHASE, S};
use trace::{EvalTrace, Term, Tracer};
use weights::{Weights, role_index};

/// Evaluations are clamped to this magnitude so they never look like mate scores.
///
/// ```
/// use minkowski::eval::{EVAL_LIMIT, Evaluator};
/// use minkowski::value::Value;
/// use shakmaty::{Chess, CastlingMode, fen::Fen};
/// // Four queens against a king: a known win, still below every mate score.
/// let pos: Chess = "k7/8/8/8/8/8/8/1QQQQK2 w - - 0 1".parse::<Fen>().unwrap()
///     .into_position(CastlingMode::Standard).unwrap();
/// let v = Evaluator::default().evaluate(&pos);
/// assert!(v.0 <= EVAL_LIMIT && !v.is_mate());
/// ```
pub const EVAL_LIMIT: i32 = 20_000;

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
    ///
    /// ```
    /// use minkowski::eval::{Evaluator, weights::Weights};
    /// let e = Evaluator::new(Weights::default());
    /// assert_eq!(e, Evaluator::default());
    /// ```
    #[must_use]
    pub fn new(weights: Weights) -> Evaluator {
        Evaluator { weights }
    }

    /// Static evaluation of `pos` in centipawns from the side to move's point of view.
    /// Symmetric: the colour-flipped position gets the same value.
    ///
    /// ```
    /// use minkowski::eval::Evaluator;
    /// use shakmaty::{Chess, CastlingMode, fen::Fen};
    /// // King and queen against king: a known win, far above any material count.
    /// let pos: Chess = "8/8/8/3k4/8/8/8/KQ6 w - - 0 1".parse::<Fen>().unwrap()
    ///     .into_position(CastlingMode::Standard).unwrap();
    /// assert!(Evaluator::default().evaluate(&pos).0 > 5_000);
    /// ```
    #[must_use]
    pub fn evaluate(&self, pos: &Chess) -> Value {
        self.evaluate_with(pos, &mut ())
    }

    /// The evaluation with every term recorded, for `minkowski eval` and the UCI `eval` command.
    ///
    /// ```
    /// use minkowski::eval::Evaluator;
    /// use shakmaty::Chess;
    /// let e = Evaluator::default();
    /// let trace = e.trace(&Chess::default());
    /// assert_eq!(trace.total, e.evaluate(&Chess::default()));
    /// assert!(trace.to_string().contains("Material"));
    /// ```
    #[must_use]
    pub fn trace(&self, pos: &Chess) -> EvalTrace {
        let mut trace = EvalTrace {
            side_to_move: Some(pos.turn()),
            ..EvalTrace::default()
        };
        trace.total = self.evaluate_with(pos, &mut trace);
        trace
    }

    /// The evaluation, reporting each term to `tracer`.
    ///
    /// ```
    /// use minkowski::eval::Evaluator;
    /// use minkowski::eval::score::S;
    /// use minkowski::eval::trace::{Term, Tracer};
    /// use shakmaty::{Chess, Color};
    /// /// Adds up White's material as the evaluation reports it.
    /// struct WhiteMaterial(S);
    /// impl Tracer for WhiteMaterial {
    ///     fn term(&mut self, term: Term, color: Color, s: S) {
    ///         if term == Term::Material && color == Color::White {
    ///             self.0 += s;
    ///         }
    ///     }
    /// }
    /// let mut t = WhiteMaterial(S::ZERO);
    /// let e = Evaluator::default();
    /// assert_eq!(e.evaluate_with(&Chess::default(), &mut t), e.evaluate(&Chess::default()));
    /// assert_eq!(t.0.mg(), 8 * 82 + 2 * 337 + 2 * 365 + 2 * 477 + 1025);
    /// ```
    pub fn evaluate_with<T: Tracer>(&self, pos: &Chess, tracer: &mut T) -> Value {
        let w = &self.weights;
        let board = pos.board();
        let mut score = S::ZERO; // White's point of view
        let mut phase = 0;
        for color in [Color::White, Color::Black] {
            let (side, side_phase) = self.side_terms(board, color, tracer);
            phase += side_phase;
            score += if color == Color::White { side } else { -side };
        }
        let phase = phase.min(MAX_PHASE);
        tracer.phase(phase);

        // Knight forks: the side to move can play one now; the other only threatens it.
        for color in [Color::White, Color::Black] {
            if tactics::knight_fork_moves(board, color).any() {
                let bonus = if pos.turn() == color {
                    w.fork_now
                } else {
                    w.fork_threat
                };
                tracer.term(Term::KnightForks, color, bonus);
                score += if color == Color::White { bonus } else { -bonus };
            }
        }

        // Specialised endgames replace or adjust the sum above.
        if let Some((eg, strong)) = endgame::lookup(board) {
            let verdict = (eg.evaluate)(pos, strong, w);
            tracer.endgame(eg.code, strong, verdict);
            let sign = if strong == Color::White { 1 } else { -1 };
            match verdict {
                Verdict::Replace(s) => {
                    let white = s.taper(phase) * sign;
                    let value = if pos.turn() == Color::White {
                        white
                    } else {
                        -white
                    };
                    return Value(value.clamp(-EVAL_LIMIT, EVAL_LIMIT));
                }
                Verdict::Adjust(s) => {
                    tracer.term(Term::Endgame, strong, s);
                    score += s * sign;
                }
            }
        }

        let mut value = score.taper(phase);
        if pos.turn() == Color::Black {
            value = -value;
        }
        tracer.term(Term::Tempo, pos.turn(), w.tempo);
        value += w.tempo.taper(phase);
        Value(value.clamp(-EVAL_LIMIT, EVAL_LIMIT))
    }

    /// Everything `color` scores on its own: material, piece squares, mobility, passed pawns,
    /// rook files, bishop pair and the attack on the enemy king. Returns the sum and the phase
    /// contribution of `color`'s pieces.
    fn side_terms<T: Tracer>(&self, board: &Board, color: Color, tracer: &mut T) -> (S, i32) {
        let w = &self.weights;
        let occupied = board.occupied();
        let ours = board.by_color(color);
        let their_pawns = board.by_piece(Role::Pawn.of(!color));
        let our_pawns = board.by_piece(Role::Pawn.of(color));
        let pawn_attacked = tactics::pawn_attacks_set(their_pawns, !color);
        let mobility_area = !(ours | pawn_attacked);
        let their_king_zone = board
            .king_of(!color)
            .map_or(Bitboard::EMPTY, |k| attacks::king_attacks(k).with(k));
        let mut side = S::ZERO;
        let mut phase = 0;

        for role in Role::ALL {
            let r = role_index(role);
            for sq in board.by_piece(role.of(color)) {
                let rel = relative(sq, color);
                side += w.material[r] + w.psqt[r][rel];
                tracer.term(Term::Material, color, w.material[r]);
                tracer.term(Term::Psqt, color, w.psqt[r][rel]);
                phase += w.phase_weight[r];
                let reach = match role {
                    Role::Knight => attacks::knight_attacks(sq),
                    Role::Bishop => attacks::bishop_attacks(sq, occupied),
                    Role::Rook => attacks::rook_attacks(sq, occupied),
                    Role::Queen => attacks::queen_attacks(sq, occupied),
                    Role::Pawn | Role::King => Bitboard::EMPTY,
                };
                let mobility = w.mobility[r] * (reach & mobility_area).count() as i32;
                let king_attack = w.king_zone_attack[r] * (reach & their_king_zone).count() as i32;
                side += mobility + king_attack;
                tracer.term(Term::Mobility, color, mobility);
                tracer.term(Term::KingSafety, color, king_attack);
                match role {
                    Role::Pawn if pawns::is_passed(sq, color, their_pawns) => {
                        side += w.passed_pawn[rel / 8];
                        tracer.term(Term::PassedPawns, color, w.passed_pawn[rel / 8]);
                    }
                    Role::Rook => {
                        let file = Bitboard::from_file(sq.file());
                        if (our_pawns & file).is_empty() {
                            let bonus = if (their_pawns & file).is_empty() {
                                w.rook_open_file
                            } else {
                                w.rook_semi_open_file
                            };
                            side += bonus;
                            tracer.term(Term::RookFiles, color, bonus);
                        }
                    }
                    Role::King => {
                        let shield = pawn_shield(sq, color, our_pawns, w);
                        side += shield;
                        tracer.term(Term::KingSafety, color, shield);
                    }
                    _ => {}
                }
            }
        }
        if board.by_piece(Role::Bishop.of(color)).more_than_one() {
            side += w.bishop_pair;
            tracer.term(Term::BishopPair, color, w.bishop_pair);
        }
        (side, phase)
    }
}

/// Own pawns on the three files around the king, one and two ranks in front of it.
fn pawn_shield(king: Square, color: Color, our_pawns: Bitboard, w: &Weights) -> S {
    let (file, rank) = (king.file() as i32, king.rank() as i32);
    let forward = if color == Color::White { 1 } else { -1 };
    let mut shield = S::ZERO;
    for (distance, weight) in [(1, w.pawn_shield[0]), (2, w.pawn_shield[1])] {
        let r = rank + forward * distance;
        for f in (file - 1).max(0)..=(file + 1).min(7) {
            if (0..8).contains(&r) && our_pawns.contains(Square::new((r * 8 + f) as u32)) {
                shield += weight;
            }
        }
    }
    shield
}

/// `sq` as seen from `color`'s side of the board (a1 = 0 for White's pieces; Black's are
/// flipped vertically).
fn relative(sq: Square, color: Color) -> usize {
    match color {
        Color::White => sq as usize,
        Color::Black => sq.flip_vertical() as usize,
    }
}
