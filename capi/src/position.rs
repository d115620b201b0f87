//! The position as eight bitboards and state, its checks, and FEN.

use std::ffi::{CStr, c_char};
use std::num::NonZeroU32;

use minkowski_core::shakmaty::fen::Fen;
use minkowski_core::shakmaty::{
    Bitboard, Board, ByColor, ByRole, CastlingMode, CastlingSide, Chess, Color, EnPassantMode,
    FromSetup, Position, PositionError, Rank, Setup, Square,
};

use crate::errors::{MK_ERR_BITBOARDS, MK_ERR_FEN, MK_ERR_NULL, MK_ERR_POSITION, MK_ERR_SQUARE};

/// White may castle short (king and rook on e1 and h1).
pub const MK_CASTLE_WHITE_KINGSIDE: u32 = 1;
/// White may castle long (king and rook on e1 and a1).
pub const MK_CASTLE_WHITE_QUEENSIDE: u32 = 2;
/// Black may castle short (king and rook on e8 and h8).
pub const MK_CASTLE_BLACK_KINGSIDE: u32 = 4;
/// Black may castle long (king and rook on e8 and a8).
pub const MK_CASTLE_BLACK_QUEENSIDE: u32 = 8;

/// A chess position as Fathom and Pyrrhic take it: eight bitboards (bit i = square i,
/// a1 = 0, h8 = 63) and the state. Plain data: fill it from your own board, or from a FEN with
/// mk_position_from_fen().
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MkPosition {
    /// White's pieces.
    pub white: u64,
    /// Black's pieces.
    pub black: u64,
    /// Kings of both colours.
    pub kings: u64,
    /// Queens.
    pub queens: u64,
    /// Rooks.
    pub rooks: u64,
    /// Bishops.
    pub bishops: u64,
    /// Knights.
    pub knights: u64,
    /// Pawns.
    pub pawns: u64,
    /// Castling rights: a sum of MK_CASTLE_* flags (standard chess: king on e1/e8, rooks in
    /// the corners). A flag whose king or rook is not at home is dropped (the score reads no
    /// castling rights); bits above the four flags: MK_ERR_POSITION. Not read by the trusted
    /// call.
    pub castling: u32,
    /// The en passant target square (e.g. 20 = e3 after e2-e4), or 0 for none (as Fathom).
    /// Any square is accepted: set after every double push or only when a capture is possible,
    /// both work, and a square with no capturable pawn is dropped (the score reads no en
    /// passant). Above 63: MK_ERR_SQUARE. Not read by the trusted call.
    pub ep: u32,
    /// Half-moves since the last capture or pawn move (the fifty-move counter). Not read by the
    /// evaluation.
    pub rule50: u32,
    /// 1 if White is to move, 0 if Black (any non-zero value counts as White).
    pub white_to_move: u8,
}

impl MkPosition {
    /// The position as shakmaty's, after the checks of the checked calls (mk_evaluate and
    /// mk_evaluator_evaluate); Err is an MK_ERR_* code. Castling rights whose king or rook
    /// is not at home and an en passant square with no capturable pawn are dropped, not
    /// refused: the score reads neither.
    pub(crate) fn to_chess(self) -> Result<Chess, i32> {
        if self.castling > 15 {
            return Err(MK_ERR_POSITION);
        }
        let ep_square = match self.ep {
            0 => None,
            index => Some(square(index)?),
        };
        let corners = [
            (MK_CASTLE_WHITE_KINGSIDE, Square::H1),
            (MK_CASTLE_WHITE_QUEENSIDE, Square::A1),
            (MK_CASTLE_BLACK_KINGSIDE, Square::H8),
            (MK_CASTLE_BLACK_QUEENSIDE, Square::A8),
        ];
        let castling_rights = corners
            .iter()
            .filter(|(flag, _)| self.castling & flag != 0)
            .fold(Bitboard::EMPTY, |set, &(_, rook)| {
                set | Bitboard::from(rook)
            });
        let mut setup = self.setup()?;
        setup.castling_rights = castling_rights;
        setup.ep_square = ep_square;
        setup.halfmoves = self.rule50;
        Chess::from_setup(setup, CastlingMode::Standard)
            .or_else(PositionError::ignore_invalid_castling_rights)
            .or_else(PositionError::ignore_invalid_ep_square)
            .map_err(|_| MK_ERR_POSITION)
    }

    /// The board and side to move for the trusted call (mk_evaluator_evaluate_trusted), without
    /// building a position: only the eight bitboards and white_to_move are read, and only what
    /// keeps the evaluation's value meaningful and cheap to guarantee is checked: consistent
    /// bitboards (else MK_ERR_BITBOARDS), exactly one king of each colour and no pawn on the
    /// first or last rank (else MK_ERR_POSITION). Everything else (the side not to move in
    /// check, kings in contact, impossible checks, more than 32 pieces) is evaluated as it is:
    /// the evaluation is defined on any board.
    pub(crate) fn to_board_trusted(self) -> Result<(Board, Color), i32> {
        let board = self.board()?;
        let one_king_each = Color::ALL.into_iter().all(|c| board.king_of(c).is_some());
        let back_ranks = Bitboard::from_rank(Rank::First) | Bitboard::from_rank(Rank::Eighth);
        if !one_king_each || board.pawns().intersects(back_ranks) {
            return Err(MK_ERR_POSITION);
        }
        Ok((board, self.turn()))
    }

    /// The eight bitboards as they are, in the order of the struct (for the evaluation
    /// cache's hash, which reads them before any check).
    pub(crate) fn bitboards(&self) -> [u64; 8] {
        [
            self.white,
            self.black,
            self.kings,
            self.queens,
            self.rooks,
            self.bishops,
            self.knights,
            self.pawns,
        ]
    }

    /// The board of the eight bitboards, or MK_ERR_BITBOARDS (colours overlap, piece kinds
    /// overlap, or their unions differ).
    fn board(self) -> Result<Board, i32> {
        Board::try_from_bitboards(
            ByRole {
                pawn: Bitboard(self.pawns),
                knight: Bitboard(self.knights),
                bishop: Bitboard(self.bishops),
                rook: Bitboard(self.rooks),
                queen: Bitboard(self.queens),
                king: Bitboard(self.kings),
            },
            ByColor {
                white: Bitboard(self.white),
                black: Bitboard(self.black),
            },
        )
        .map_err(|_| MK_ERR_BITBOARDS)
    }

    /// The side to move (white_to_move: any non-zero value is White).
    fn turn(self) -> Color {
        if self.white_to_move != 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The board and side to move as a shakmaty set-up (no castling, no en passant), or
    /// MK_ERR_BITBOARDS.
    fn setup(self) -> Result<Setup, i32> {
        let mut setup = Setup::empty();
        setup.board = self.board()?;
        setup.turn = self.turn();
        setup.fullmoves = NonZeroU32::MIN;
        Ok(setup)
    }

    /// The bitboards and state of a shakmaty position.
    pub(crate) fn from_chess(pos: &Chess) -> MkPosition {
        let board = pos.board();
        let castles = pos.castles();
        let flags = [
            (
                Color::White,
                CastlingSide::KingSide,
                MK_CASTLE_WHITE_KINGSIDE,
            ),
            (
                Color::White,
                CastlingSide::QueenSide,
                MK_CASTLE_WHITE_QUEENSIDE,
            ),
            (
                Color::Black,
                CastlingSide::KingSide,
                MK_CASTLE_BLACK_KINGSIDE,
            ),
            (
                Color::Black,
                CastlingSide::QueenSide,
                MK_CASTLE_BLACK_QUEENSIDE,
            ),
        ];
        // Only standard rights fit the flags (king on e1/e8, rook in its corner); a Chess960
        // right elsewhere is dropped, which the evaluation never notices (it reads no castling).
        let standard = |color: Color, side: CastlingSide| {
            let (king, rook) = match (color, side) {
                (Color::White, CastlingSide::KingSide) => (Square::E1, Square::H1),
                (Color::White, CastlingSide::QueenSide) => (Square::E1, Square::A1),
                (Color::Black, CastlingSide::KingSide) => (Square::E8, Square::H8),
                (Color::Black, CastlingSide::QueenSide) => (Square::E8, Square::A8),
            };
            board.king_of(color) == Some(king) && castles.rook(color, side) == Some(rook)
        };
        let castling = flags
            .iter()
            .filter(|(color, side, _)| standard(*color, *side))
            .map(|(_, _, flag)| flag)
            .sum();
        MkPosition {
            white: board.white().0,
            black: board.black().0,
            kings: board.kings().0,
            queens: board.queens().0,
            rooks: board.rooks().0,
            bishops: board.bishops().0,
            knights: board.knights().0,
            pawns: board.pawns().0,
            castling,
            ep: pos.ep_square(EnPassantMode::Legal).map_or(0, u32::from),
            rule50: pos.halfmoves(),
            white_to_move: u8::from(pos.turn() == Color::White),
        }
    }
}

/// A square index 0..=63, or MK_ERR_SQUARE.
pub(crate) fn square(index: u32) -> Result<Square, i32> {
    if index < 64 {
        Ok(Square::new(index))
    } else {
        Err(MK_ERR_SQUARE)
    }
}

/// Reads a caller's pointer; NULL is MK_ERR_NULL.
///
/// Safety: ptr is NULL or points to a valid, aligned T for the call's duration.
pub(crate) unsafe fn read<'a, T>(ptr: *const T) -> Result<&'a T, i32> {
    // SAFETY: the caller's contract (documented on every entry point).
    unsafe { ptr.as_ref() }.ok_or(MK_ERR_NULL)
}

/// Parses a caller's FEN exactly as minkowski eval does (Chess960 castling notation accepted,
/// so Shredder-FEN and X-FEN work too).
///
/// Safety: fen is NULL or a NUL-terminated string.
pub(crate) unsafe fn parse_fen(fen: *const c_char) -> Result<Chess, i32> {
    if fen.is_null() {
        return Err(MK_ERR_NULL);
    }
    // SAFETY: non-NULL and NUL-terminated by the caller's contract.
    let text = unsafe { CStr::from_ptr(fen) }
        .to_str()
        .map_err(|_| MK_ERR_FEN)?;
    let fen: Fen = text.trim().parse().map_err(|_| MK_ERR_FEN)?;
    // Castling and en passant inconsistencies are dropped as in MkPosition::to_chess.
    fen.into_position(CastlingMode::Chess960)
        .or_else(PositionError::ignore_invalid_castling_rights)
        .or_else(PositionError::ignore_invalid_ep_square)
        .map_err(|_| MK_ERR_POSITION)
}

/// Fills *out with the position of a FEN (standard castling rights as MK_CASTLE_* flags;
/// a Chess960 right with king or rook off its standard square is dropped, which does not change
/// the evaluation: it reads no castling rights).
/// Returns MK_OK; MK_ERR_NULL, MK_ERR_FEN (not a FEN), MK_ERR_POSITION (a FEN of an
/// illegal position). On error *out is left unchanged.
///
/// Thread safety: safe to call from any number of threads at once.
///
/// Safety: fen is NULL or a NUL-terminated string; out is NULL or points to a writable MkPosition.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mk_position_from_fen(fen: *const c_char, out: *mut MkPosition) -> i32 {
    crate::errors::status(|| {
        // SAFETY: the caller's contract above.
        let pos = unsafe { parse_fen(fen) }?;
        // SAFETY: the caller's contract above.
        let out = unsafe { out.as_mut() }.ok_or(MK_ERR_NULL)?;
        *out = MkPosition::from_chess(&pos);
        Ok(())
    })
}

/// Checks a position without evaluating it, exactly as the checked calls (mk_evaluate,
/// mk_evaluator_evaluate) do: MK_OK, MK_ERR_NULL, MK_ERR_BITBOARDS, MK_ERR_SQUARE (en passant
/// square above 63) or MK_ERR_POSITION. Castling flags whose king or rook is not at home and an
/// en passant square with no capturable pawn are accepted (the evaluation drops them).
///
/// Thread safety: safe to call from any number of threads at once.
///
/// Safety: pos is NULL or points to a readable MkPosition.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mk_position_check(pos: *const MkPosition) -> i32 {
    crate::errors::status(|| {
        // SAFETY: the caller's contract above.
        unsafe { read(pos) }?.to_chess().map(|_| ())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fen_survives_the_round_trip_through_bitboards() {
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 3 1";
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let back = MkPosition::from_chess(&pos).to_chess().unwrap();
        assert_eq!(back, pos);
        assert_eq!(MkPosition::from_chess(&pos).castling, 15);
    }

    #[test]
    fn a_chess960_castling_right_is_dropped_and_the_bitboards_stay_valid() {
        // Found by the fuzz target: king on c1 with the h1 rook's right.
        let fen = "r1bqk2r/ppp1nppp/4p3/n5N1/2BPp3/P1P5/2P2PPP/R1K2QBR w Kkq - 0 1";
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Chess960)
            .unwrap();
        let mk = MkPosition::from_chess(&pos);
        assert_eq!(
            mk.castling,
            MK_CASTLE_BLACK_KINGSIDE | MK_CASTLE_BLACK_QUEENSIDE
        );
        assert!(mk.to_chess().is_ok());
    }
}
