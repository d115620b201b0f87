//! What the families' unit tests share: a position from a FEN, positions from random games
//! (for the tests that check a family against a naive oracle), the [`Info`] the mobility pass
//! would have built for a position, the full evaluation's weight counts ([`traced`]) and one
//! weight's counts out of a [`CountingTracer`].

use shakmaty::{CastlingMode, Chess, Color, Position, Role, attacks, fen::Fen};

use super::Evaluator;
use super::info::Info;
use super::trace::CountingTracer;
use super::weights::{Family, Weight};

/// The position of a FEN the test wrote by hand (a bad one is a bug in the test: it panics).
pub(crate) fn position(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .expect("a test FEN")
        .into_position(CastlingMode::Standard)
        .expect("a legal test position")
}

/// A small deterministic generator (xorshift64, shifts 13, 7, 17), so that the random games
/// and samples are the same on every run.
pub(crate) struct XorShift64(pub u64);

impl XorShift64 {
    /// The next number of the sequence.
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Where the random games start: the opening, an Italian game after four moves each, and
/// "Kiwipete" (castling both ways, pins, en passant chances).
const RANDOM_GAME_STARTS: [&str; 3] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
];

/// Longest random game, in plies.
const RANDOM_GAME_PLIES: usize = 60;

/// Every position of `games` random games from each start (in order: start by start, game by
/// game, each position after its move), a game ending at mate or stalemate or after 60 plies;
/// the moves are drawn uniformly among the legal ones by one [`XorShift64`] seeded with `seed`.
pub(crate) fn random_game_positions(seed: u64, games: usize) -> Vec<Chess> {
    let mut rng = XorShift64(seed);
    let mut positions = Vec::new();
    for start in RANDOM_GAME_STARTS {
        for _game in 0..games {
            let mut pos = position(start);
            for _ply in 0..RANDOM_GAME_PLIES {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[(rng.next() % moves.len() as u64) as usize];
                pos.play_unchecked(m);
                positions.push(pos.clone());
            }
        }
    }
    positions
}

/// The index of `color` in the tracer's per-colour counts (`[white, black]`).
pub(crate) fn side(color: Color) -> usize {
    usize::from(color == Color::Black)
}

/// The full evaluation of `pos` (built-in weights), every weight it uses counted per colour.
pub(crate) fn traced(pos: &Chess) -> CountingTracer {
    let mut tracer = CountingTracer::default();
    let _ = Evaluator::default().evaluate_with(pos.board(), pos.turn(), &mut tracer);
    tracer
}

/// The info of `pos` with every piece's attacks added, as the mobility pass adds them.
pub(crate) fn full_info(pos: &Chess) -> Info {
    let mut info = Info::new(pos.board());
    for (sq, piece) in pos.board() {
        if !matches!(piece.role, Role::Pawn | Role::King) {
            let reach = attacks::attacks(sq, piece, pos.board().occupied());
            info.add_attacks(piece.color, piece.role, sq, reach);
            if piece.role == Role::Rook {
                let real_mobility = (reach & *info.mobility_area.get(piece.color)).count();
                if real_mobility <= super::piece_lines::TRAPPED_MOBILITY {
                    info.add_boxed_rook(piece.color, sq);
                }
            }
        }
    }
    info
}

/// `color`'s counts of each element of `weight` in the linear sums of `tracer`.
pub(crate) fn main_counts<C, const N: usize, F: Family>(
    tracer: &CountingTracer,
    color: Color,
    weight: Weight<C, N, F>,
) -> Vec<i32> {
    tracer.main[side(color)][weight.indices()].to_vec()
}

/// `color`'s counts of each element of `weight` in its king-danger units in `tracer`.
pub(crate) fn danger_counts<C, const N: usize, F: Family>(
    tracer: &CountingTracer,
    color: Color,
    weight: Weight<C, N, F>,
) -> Vec<i32> {
    tracer.danger[side(color)][weight.indices()].to_vec()
}
