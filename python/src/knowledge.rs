//! The distance knowledge one term at a time, with plain inputs: squares are python-chess's
//! (a1 = 0 .. h8 = 63), square sets are ints (bit i = square i), colours are bools (True =
//! White, as `chess.WHITE`). Inputs that are not a legal position raise ValueError.

use minkowski_core::eval::endgame::{KbnkPosition, KpkPosition, PasserRace, mop_up_bonus};
use minkowski_core::eval::tactics::knight_fork_jumps as fork_jumps;
use minkowski_core::geometry;
use minkowski_core::shakmaty::{
    Bitboard, Board, CastlingMode, Chess, Color, FromSetup, Piece, Role, Setup, Square,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::weights::WeightTable;

/// Square `index`, or ValueError.
fn square(index: i64) -> PyResult<Square> {
    u32::try_from(index)
        .ok()
        .filter(|&i| i < 64)
        .map(Square::new)
        .ok_or_else(|| PyValueError::new_err(format!("square {index} is not 0..63")))
}

fn color(white: bool) -> Color {
    if white { Color::White } else { Color::Black }
}

/// The weights to use: the table's, or the built-in ones.
fn weights_of(table: Option<PyRef<'_, WeightTable>>) -> minkowski_core::eval::weights::Weights {
    table.map(|t| t.weights.clone()).unwrap_or_default()
}

/// King moves between two squares on an empty board (0..7).
#[pyfunction]
pub fn king_distance(a: i64, b: i64) -> PyResult<u32> {
    Ok(geometry::king_distance(square(a)?, square(b)?))
}

/// Files apart plus ranks apart (0..14).
#[pyfunction]
pub fn manhattan_distance(a: i64, b: i64) -> PyResult<u32> {
    Ok(geometry::manhattan_distance(square(a)?, square(b)?))
}

/// Knight moves between two squares on an empty board (0..6).
#[pyfunction]
pub fn knight_distance(a: i64, b: i64) -> PyResult<u32> {
    Ok(geometry::knight_distance(square(a)?, square(b)?))
}

/// The knights' squares plus every square one knight move away.
#[pyfunction]
pub fn knight_fill(knights: u64) -> u64 {
    geometry::knight_fill(Bitboard(knights)).0
}

/// Squares from which a knight attacks two or more of `targets`.
#[pyfunction]
pub fn knight_fork_squares(targets: u64) -> u64 {
    geometry::knight_fork_squares(Bitboard(targets)).0
}

/// Fork squares of `targets` one knight move from `knights`, outside `avoid`.
#[pyfunction]
#[pyo3(signature = (knights, targets, avoid = 0))]
pub fn knight_fork_jumps(knights: u64, targets: u64, avoid: u64) -> u64 {
    fork_jumps(Bitboard(knights), Bitboard(targets), Bitboard(avoid)).0
}

/// The mop-up bonus (mg, eg) for the strong side: lone king to the edge, kings close.
#[pyfunction]
#[pyo3(signature = (strong_king, lone_king, weights = None))]
pub fn mop_up(
    strong_king: i64,
    lone_king: i64,
    weights: Option<PyRef<'_, WeightTable>>,
) -> PyResult<(i32, i32)> {
    let (strong, lone) = (square(strong_king)?, square(lone_king)?);
    if geometry::king_distance(strong, lone) < 2 {
        return Err(PyValueError::new_err(
            "the kings stand on one square or touch",
        ));
    }
    let s = mop_up_bonus(strong, lone, &weights_of(weights));
    Ok((s.mg(), s.eg()))
}

/// King, bishop and knight against king as Minkowski scores it, strong side's view.
#[pyfunction]
#[pyo3(signature = (strong_king, lone_king, bishop, knight, lone_king_to_move, weights = None))]
pub fn kbnk_score(
    strong_king: i64,
    lone_king: i64,
    bishop: i64,
    knight: i64,
    lone_king_to_move: bool,
    weights: Option<PyRef<'_, WeightTable>>,
) -> PyResult<(i32, i32)> {
    let position = KbnkPosition {
        strong_king: square(strong_king)?,
        lone_king: square(lone_king)?,
        bishop: square(bishop)?,
        knight: square(knight)?,
        lone_king_to_move,
    };
    let pieces = [
        (position.strong_king, Color::White, Role::King),
        (position.lone_king, Color::Black, Role::King),
        (position.bishop, Color::White, Role::Bishop),
        (position.knight, Color::White, Role::Knight),
    ];
    legal(&pieces, color(!lone_king_to_move))?;
    let s = position.score(&weights_of(weights));
    Ok((s.mg(), s.eg()))
}

/// The exact KPK verdict: True if the side with the pawn wins.
#[pyfunction]
#[pyo3(signature = (strong_king, pawn, lone_king, strong = true, strong_to_move = true))]
pub fn kpk(
    strong_king: i64,
    pawn: i64,
    lone_king: i64,
    strong: bool,
    strong_to_move: bool,
) -> PyResult<bool> {
    let position = KpkPosition {
        strong_king: square(strong_king)?,
        pawn: square(pawn)?,
        lone_king: square(lone_king)?,
        strong_color: color(strong),
        strong_to_move,
    };
    let pieces = [
        (position.strong_king, color(strong), Role::King),
        (position.lone_king, color(!strong), Role::King),
        (position.pawn, color(strong), Role::Pawn),
    ];
    legal(&pieces, color(strong == strong_to_move))?;
    Ok(position.is_win())
}

/// A passer race with the pawn on ranks 2 to 7.
fn race(pawn: i64, pawn_color: bool, pawn_to_move: bool) -> PyResult<PasserRace> {
    let pawn = square(pawn)?;
    if !(1..=6).contains(&(pawn.rank() as u32)) {
        return Err(PyValueError::new_err("a pawn stands on ranks 2 to 7"));
    }
    Ok(PasserRace {
        pawn,
        pawn_color: color(pawn_color),
        pawn_to_move,
    })
}

/// True if knights (a square set) catch the passed pawn.
#[pyfunction]
pub fn knights_catch_passer(
    pawn: i64,
    pawn_color: bool,
    pawn_to_move: bool,
    knights: u64,
) -> PyResult<bool> {
    Ok(race(pawn, pawn_color, pawn_to_move)?.knights_catch(Bitboard(knights)))
}

/// True if neither the defending king (None: no king) nor the knights stop the pawn.
#[pyfunction]
#[pyo3(signature = (pawn, pawn_color, pawn_to_move, king = None, knights = 0))]
pub fn passer_unstoppable(
    pawn: i64,
    pawn_color: bool,
    pawn_to_move: bool,
    king: Option<i64>,
    knights: u64,
) -> PyResult<bool> {
    let race = race(pawn, pawn_color, pawn_to_move)?;
    let king = king.map(square).transpose()?;
    Ok(race.unstoppable(king, Bitboard(knights)))
}

/// ValueError unless these pieces with `turn` to move are a legal position.
fn legal(pieces: &[(Square, Color, Role)], turn: Color) -> PyResult<()> {
    let mut board = Board::empty();
    for &(square, color, role) in pieces {
        if board.piece_at(square).is_some() {
            return Err(PyValueError::new_err(format!("two pieces on {square}")));
        }
        board.set_piece_at(square, Piece { color, role });
    }
    let mut setup = Setup::empty();
    setup.board = board;
    setup.turn = turn;
    Chess::from_setup(setup, CastlingMode::Standard)
        .map(|_| ())
        .map_err(|e| PyValueError::new_err(format!("not a legal position: {e}")))
}
