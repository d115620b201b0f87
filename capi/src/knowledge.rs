//! The distance knowledge on its own, for an engine that keeps its own evaluation: distances,
//! knight patterns, mop-up and KBNK scores, the KPK bitbase and the knight-versus-passer race.

use minkowski_core::eval::endgame::{KbnkPosition, KpkPosition, PasserRace, mop_up_bonus};
use minkowski_core::eval::score::S;
use minkowski_core::eval::tactics::knight_fork_jumps;
use minkowski_core::geometry::{
    king_distance, knight_distance, knight_fill, knight_fork_squares, manhattan_distance,
};
use minkowski_core::shakmaty::{
    Bitboard, Board, Chess, Color, FromSetup, Piece, Role, Setup, Square,
};

use crate::errors::{MK_ERR_INTERNAL, MK_ERR_NULL, MK_ERR_POSITION, MK_ERR_SQUARE, boundary};
use crate::position::square;
use crate::weights::{MkWeights, evaluator};

/// A middlegame and endgame score pair, in centipawns.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MkScore {
    /// Middlegame half.
    pub mg: i32,
    /// Endgame half.
    pub eg: i32,
}

impl From<S> for MkScore {
    fn from(s: S) -> MkScore {
        MkScore {
            mg: s.mg(),
            eg: s.eg(),
        }
    }
}

/// A distance between two squares, or MK_ERR_SQUARE.
fn distance(a: u32, b: u32, measure: fn(Square, Square) -> u32) -> i32 {
    boundary(MK_ERR_INTERNAL, || match (square(a), square(b)) {
        (Ok(a), Ok(b)) => i32::try_from(measure(a, b)).unwrap_or(MK_ERR_INTERNAL),
        _ => MK_ERR_SQUARE,
    })
}

/// King (Chebyshev) distance: king moves from a to b on an empty board, 0..=7; or
/// MK_ERR_SQUARE if a square is above 63.
///
/// Thread safety: safe to call from any thread at any time.
#[unsafe(no_mangle)]
pub extern "C" fn mk_king_distance(a: u32, b: u32) -> i32 {
    distance(a, b, king_distance)
}

/// Manhattan distance: files apart plus ranks apart, 0..=14; or MK_ERR_SQUARE.
///
/// Thread safety: safe to call from any thread at any time.
#[unsafe(no_mangle)]
pub extern "C" fn mk_manhattan_distance(a: u32, b: u32) -> i32 {
    distance(a, b, manhattan_distance)
}

/// Knight distance: knight moves from a to b on an empty board, 0..=6; or MK_ERR_SQUARE.
///
/// Thread safety: safe to call from any thread at any time.
#[unsafe(no_mangle)]
pub extern "C" fn mk_knight_distance(a: u32, b: u32) -> i32 {
    distance(a, b, knight_distance)
}

/// Knight fill: the knights' squares plus every square one knight move from them. Applying it
/// n times gives every square reachable in at most n moves.
///
/// Thread safety: safe to call from any thread at any time.
#[unsafe(no_mangle)]
pub extern "C" fn mk_knight_fill(knights: u64) -> u64 {
    boundary(0, || knight_fill(Bitboard(knights)).0)
}

/// Fork squares: every square from which a knight attacks at least two of targets (occupancy
/// ignored; intersect with the squares your knights can safely reach).
///
/// Thread safety: safe to call from any thread at any time.
#[unsafe(no_mangle)]
pub extern "C" fn mk_knight_fork_squares(targets: u64) -> u64 {
    boundary(0, || knight_fork_squares(Bitboard(targets)).0)
}

/// Fork jumps: the fork squares of targets that a knight of knights reaches in one move,
/// without the squares of avoid (e.g. squares the opponent guards).
///
/// Thread safety: safe to call from any thread at any time.
#[unsafe(no_mangle)]
pub extern "C" fn mk_knight_fork_jumps(knights: u64, targets: u64, avoid: u64) -> u64 {
    boundary(0, || {
        knight_fork_jumps(Bitboard(knights), Bitboard(targets), Bitboard(avoid)).0
    })
}

/// The mop-up bonus (lone king to the edge, kings close) for the strong side, with weights
/// (NULL: built-in), into *out. Returns MK_OK, MK_ERR_NULL (out), MK_ERR_SQUARE, or
/// MK_ERR_POSITION (both kings on one square or in contact).
///
/// Thread safety: safe to call from any number of threads at once (also with one handle).
///
/// Safety: weights is NULL or a live handle; out is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mk_mop_up(
    weights: *const MkWeights,
    strong_king: u32,
    lone_king: u32,
    out: *mut MkScore,
) -> i32 {
    crate::errors::status(|| {
        let (strong, lone) = (square(strong_king)?, square(lone_king)?);
        if king_distance(strong, lone) < 2 {
            return Err(MK_ERR_POSITION);
        }
        // SAFETY: the caller's contract above.
        let (w, out) = unsafe {
            (
                evaluator(weights).weights(),
                out.as_mut().ok_or(MK_ERR_NULL)?,
            )
        };
        *out = mop_up_bonus(strong, lone, w).into();
        Ok(())
    })
}

/// King, bishop and knight against king, scored exactly as Minkowski does (strong side's point
/// of view; 0 if the lone king is to move and stalemated), into *out. Returns MK_OK,
/// MK_ERR_NULL (out), MK_ERR_SQUARE, or MK_ERR_POSITION (not a legal KBNK position with
/// the strong side White: two pieces on a square, kings in contact, the side not to move in
/// check). lone_king_to_move: non-zero if the lone king moves next.
///
/// Thread safety: safe to call from any number of threads at once (also with one handle).
///
/// Safety: weights is NULL or a live handle; out is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mk_kbnk_score(
    weights: *const MkWeights,
    strong_king: u32,
    lone_king: u32,
    bishop: u32,
    knight: u32,
    lone_king_to_move: i32,
    out: *mut MkScore,
) -> i32 {
    crate::errors::status(|| {
        let position = KbnkPosition {
            strong_king: square(strong_king)?,
            lone_king: square(lone_king)?,
            bishop: square(bishop)?,
            knight: square(knight)?,
            lone_king_to_move: lone_king_to_move != 0,
        };
        let pieces = [
            (position.strong_king, Color::White, Role::King),
            (position.lone_king, Color::Black, Role::King),
            (position.bishop, Color::White, Role::Bishop),
            (position.knight, Color::White, Role::Knight),
        ];
        let turn = if position.lone_king_to_move {
            Color::Black
        } else {
            Color::White
        };
        legal(&pieces, turn)?;
        // SAFETY: the caller's contract above.
        let (w, out) = unsafe {
            (
                evaluator(weights).weights(),
                out.as_mut().ok_or(MK_ERR_NULL)?,
            )
        };
        *out = position.score(w).into();
        Ok(())
    })
}

/// The exact KPK verdict (from a bitbase, built on first use, about 50 ms): 1 if the side with
/// the pawn wins with best play, 0 if it is a draw; MK_ERR_SQUARE (a square above 63) or
/// MK_ERR_POSITION (two pieces on a square, the pawn on its first or last rank, kings in
/// contact, the side not to move in check). strong_is_white and strong_to_move: non-zero
/// for true.
///
/// Thread safety: safe to call from any number of threads at once (the first calls may wait
/// for the bitbase).
#[unsafe(no_mangle)]
pub extern "C" fn mk_kpk(
    strong_king: u32,
    pawn: u32,
    lone_king: u32,
    strong_is_white: i32,
    strong_to_move: i32,
) -> i32 {
    boundary(MK_ERR_INTERNAL, || {
        let verdict = || -> Result<i32, i32> {
            let strong = if strong_is_white != 0 {
                Color::White
            } else {
                Color::Black
            };
            let position = KpkPosition {
                strong_king: square(strong_king)?,
                pawn: square(pawn)?,
                lone_king: square(lone_king)?,
                strong_color: strong,
                strong_to_move: strong_to_move != 0,
            };
            let pieces = [
                (position.strong_king, strong, Role::King),
                (position.lone_king, !strong, Role::King),
                (position.pawn, strong, Role::Pawn),
            ];
            let turn = if position.strong_to_move {
                strong
            } else {
                !strong
            };
            legal(&pieces, turn)?;
            Ok(i32::from(position.is_win()))
        };
        verdict().unwrap_or_else(|code| code)
    })
}

/// The knight-versus-passer verdict: 1 if defending knights on knights catch the pawn on
/// pawn (capture it, block its path or take the new queen at once), 0 if it runs through;
/// MK_ERR_SQUARE (a square above 63) or MK_ERR_POSITION (the pawn on its first or last
/// rank, as from mk_evaluate and mk_kpk). pawn_is_white and
/// pawn_to_move: non-zero for true.
///
/// Thread safety: safe to call from any thread at any time.
#[unsafe(no_mangle)]
pub extern "C" fn mk_knights_catch_passer(
    pawn: u32,
    pawn_is_white: i32,
    pawn_to_move: i32,
    knights: u64,
) -> i32 {
    boundary(MK_ERR_INTERNAL, || {
        race(pawn, pawn_is_white, pawn_to_move).map_or_else(
            |code| code,
            |r| i32::from(r.knights_catch(Bitboard(knights))),
        )
    })
}

/// Whether the passer is unstoppable: 1 if neither the defending king on king (64 for no
/// king) nor knights on knights stop it, 0 otherwise (the evaluation's rule); errors as
/// mk_knights_catch_passer().
///
/// Thread safety: safe to call from any thread at any time.
#[unsafe(no_mangle)]
pub extern "C" fn mk_passer_unstoppable(
    pawn: u32,
    pawn_is_white: i32,
    pawn_to_move: i32,
    king: u32,
    knights: u64,
) -> i32 {
    boundary(MK_ERR_INTERNAL, || {
        let verdict = || -> Result<i32, i32> {
            let race = race(pawn, pawn_is_white, pawn_to_move)?;
            let king = if king == 64 {
                None
            } else {
                Some(square(king)?)
            };
            Ok(i32::from(race.unstoppable(king, Bitboard(knights))))
        };
        verdict().unwrap_or_else(|code| code)
    })
}

/// A pawn race with the pawn checked to stand on ranks 2 to 7.
fn race(pawn: u32, pawn_is_white: i32, pawn_to_move: i32) -> Result<PasserRace, i32> {
    let pawn = square(pawn)?;
    if !(1..=6).contains(&(pawn.rank() as u32)) {
        // The code a whole position with this pawn gets (mk_evaluate, mk_kpk): not chess.
        return Err(MK_ERR_POSITION);
    }
    Ok(PasserRace {
        pawn,
        pawn_color: if pawn_is_white != 0 {
            Color::White
        } else {
            Color::Black
        },
        pawn_to_move: pawn_to_move != 0,
    })
}

/// Whether these pieces with turn to move are a legal position (shakmaty's checks: distinct
/// squares, one king each, no pawn on a back rank, the side not to move not in check).
fn legal(pieces: &[(Square, Color, Role)], turn: Color) -> Result<(), i32> {
    let mut board = Board::empty();
    for &(square, color, role) in pieces {
        if board.piece_at(square).is_some() {
            return Err(MK_ERR_POSITION);
        }
        board.set_piece_at(square, Piece { color, role });
    }
    let mut setup = Setup::empty();
    setup.board = board;
    setup.turn = turn;
    Chess::from_setup(setup, minkowski_core::shakmaty::CastlingMode::Standard)
        .map(|_| ())
        .map_err(|_| MK_ERR_POSITION)
}
