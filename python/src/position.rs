//! Positions from Python objects: FEN strings, python-chess boards, or anything with `.fen()`.
//!
//! Reading happens with the GIL held and only copies numbers and text out of Python; the
//! parsing and legality checks ([`Input::to_chess`]) run later, without the GIL and on the
//! worker threads, so a batch pays for Python once per object and parses in parallel.

use std::num::NonZeroU32;

use minkowski_core::shakmaty::fen::Fen;
use minkowski_core::shakmaty::{
    Bitboard, Board, ByColor, ByRole, CastlingMode, Chess, Color, FromSetup, PositionError, Setup,
    Square,
};
use pyo3::exceptions::PyTypeError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyString;

/// A position as read from Python, not yet checked.
pub enum Input {
    /// A FEN (or the text of an object's `.fen()`).
    Fen(String),
    /// The bitboards and state of a python-chess board.
    Board(BoardState),
    /// Something already known to be wrong with this position (e.g. a chess variant's board).
    Bad(String),
}

/// What a python-chess `Board` holds, as plain numbers (its public attributes).
#[derive(Clone, Copy)]
pub struct BoardState {
    /// White's and Black's pieces (`occupied_co[WHITE]`, `occupied_co[BLACK]`).
    colors: [u64; 2],
    /// Pawns, knights, bishops, rooks, queens, kings.
    roles: [u64; 6],
    white_to_move: bool,
    /// The rooks with castling rights (`castling_rights`, maybe with invalid ones), a1 = bit 0.
    castling: u64,
    /// The en passant square when a capture there is legal (as `board.fen()` writes it).
    ep: Option<u8>,
    halfmoves: u32,
    fullmoves: u32,
}

impl Input {
    /// Reads one position out of a Python object: a `str` is a FEN; an object with python-chess's
    /// board attributes (`occupied_co`, `pawns`, ...) is read attribute by attribute, which is
    /// several times cheaper than asking it for its FEN; any other object with a `fen()` method
    /// gives its FEN. Anything else is a `TypeError` (a caller's mistake, not a bad position).
    /// python-chess is never imported: a board is recognised by what it has.
    pub fn read(obj: &Bound<'_, PyAny>) -> PyResult<Input> {
        let py = obj.py();
        if let Ok(text) = obj.cast::<PyString>() {
            return Ok(Input::Fen(text.to_cow()?.into_owned()));
        }
        if obj.hasattr(intern!(py, "occupied_co"))? {
            // An attribute of the wrong kind (a negative int, None, ...) is the caller's
            // mistake, like any other object that is not a position: a TypeError.
            return read_board(obj).map_err(|e| {
                PyTypeError::new_err(format!(
                    "{} looks like a python-chess board but cannot be read as one: {}",
                    type_name(obj),
                    e.value(py)
                ))
            });
        }
        if obj.hasattr(intern!(py, "fen"))? {
            let fen = obj.call_method0(intern!(py, "fen"))?;
            return match fen.cast::<PyString>() {
                Ok(text) => Ok(Input::Fen(text.to_cow()?.into_owned())),
                Err(_) => Err(PyTypeError::new_err(format!(
                    "{}.fen() returned {}, not a str",
                    type_name(obj),
                    type_name(&fen)
                ))),
            };
        }
        Err(PyTypeError::new_err(format!(
            "a position is a FEN string or a board with .fen() (a chess.Board), not {}",
            type_name(obj)
        )))
    }

    /// The position, or why it is not one (the message a user sees).
    pub fn to_chess(&self) -> Result<Chess, String> {
        match self {
            // Chess960 castling notation accepted, as `minkowski eval` does: Shredder-FEN and
            // X-FEN work, and a standard FEN means the same as in standard mode.
            Input::Fen(text) => text
                .trim()
                .parse::<Fen>()
                .map_err(|e| format!("invalid FEN {text:?}: {e}"))?
                .into_position(CastlingMode::Chess960)
                .map_err(|e| format!("{text:?}: {e}")),
            Input::Board(state) => state.to_chess(),
            Input::Bad(message) => Err(message.clone()),
        }
    }
}

/// A python-chess board's numbers; a variant board (atomic, crazyhouse, ...) is a bad position,
/// since the evaluation knows only standard chess.
fn read_board(obj: &Bound<'_, PyAny>) -> PyResult<Input> {
    let py = obj.py();
    if let Ok(variant) = obj.getattr(intern!(py, "uci_variant")) {
        let variant: String = variant.extract().unwrap_or_default();
        if variant != "chess" {
            return Ok(Input::Bad(format!(
                "a {variant:?} board: only standard chess (and Chess960) is evaluated"
            )));
        }
    }
    let bits = |name: &Bound<'_, PyString>| -> PyResult<u64> { obj.getattr(name)?.extract() };
    let occupied_co = obj.getattr(intern!(py, "occupied_co"))?;
    // python-chess indexes by colour: BLACK = False = 0, WHITE = True = 1.
    let colors = [
        occupied_co.get_item(1)?.extract()?,
        occupied_co.get_item(0)?.extract()?,
    ];
    let roles = [
        bits(intern!(py, "pawns"))?,
        bits(intern!(py, "knights"))?,
        bits(intern!(py, "bishops"))?,
        bits(intern!(py, "rooks"))?,
        bits(intern!(py, "queens"))?,
        bits(intern!(py, "kings"))?,
    ];
    // The raw rights, not `clean_castling_rights()` (which costs more than the rest of the
    // reading together): rights without their king and rook are dropped in `to_chess`, as
    // python-chess's cleaning (and so its FEN) drops them.
    let castling = bits(intern!(py, "castling_rights"))?;
    // python-chess keeps the square behind every double step; its FEN (and shakmaty) name it
    // only when an en passant capture is legal.
    let ep = match obj
        .getattr(intern!(py, "ep_square"))?
        .extract::<Option<u8>>()?
    {
        Some(square)
            if obj
                .call_method0(intern!(py, "has_legal_en_passant"))?
                .is_truthy()? =>
        {
            Some(square)
        }
        _ => None,
    };
    Ok(Input::Board(BoardState {
        colors,
        roles,
        white_to_move: obj.getattr(intern!(py, "turn"))?.is_truthy()?,
        castling,
        ep,
        halfmoves: obj.getattr(intern!(py, "halfmove_clock"))?.extract()?,
        fullmoves: obj.getattr(intern!(py, "fullmove_number"))?.extract()?,
    }))
}

impl BoardState {
    /// The board as shakmaty's position, after the same checks a FEN gets.
    fn to_chess(self) -> Result<Chess, String> {
        let [pawn, knight, bishop, rook, queen, king] = self.roles.map(Bitboard);
        let board = Board::try_from_bitboards(
            ByRole {
                pawn,
                knight,
                bishop,
                rook,
                queen,
                king,
            },
            ByColor {
                white: Bitboard(self.colors[0]),
                black: Bitboard(self.colors[1]),
            },
        )
        .map_err(|_| "the board's bitboards overlap or disagree".to_owned())?;
        let mut setup = Setup::empty();
        setup.board = board;
        setup.turn = if self.white_to_move {
            Color::White
        } else {
            Color::Black
        };
        setup.castling_rights = Bitboard(self.castling);
        setup.ep_square = match self.ep {
            Some(index) => {
                Some(Square::try_from(index).map_err(|_| format!("en passant square {index}"))?)
            }
            None => None,
        };
        setup.halfmoves = self.halfmoves;
        setup.fullmoves = NonZeroU32::new(self.fullmoves).unwrap_or(NonZeroU32::MIN);
        // from_setup consumes the setup: keep the board for the message.
        let board = setup.board.clone();
        Chess::from_setup(setup, CastlingMode::Chess960)
            .or_else(PositionError::ignore_invalid_castling_rights)
            .map_err(|e| format!("board {board}: {e}"))
    }
}

/// The Python type name of `obj`, for messages.
pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "?".to_owned(), |n| n.to_string())
}
