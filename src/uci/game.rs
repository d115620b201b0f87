//! The game the GUI has set up: start position, moves played, and the keys the search needs to
//! see repetitions.

use shakmaty::fen::{Fen, ParseFenError};
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position, PositionErrorKinds};
use thiserror::Error;

use super::command::PositionSpec;
use crate::options::echo;

/// Why a `position` command was refused (the previous position stays).
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum GameError {
    /// The FEN text does not parse.
    #[error("bad FEN '{fen}': {source}; position unchanged")]
    Fen {
        /// The FEN as given (shortened).
        fen: String,
        /// What shakmaty found wrong.
        source: ParseFenError,
    },
    /// The FEN parses but is not a playable position.
    #[error("bad FEN '{fen}': {reason}; position unchanged")]
    Unplayable {
        /// The FEN as given (shortened).
        fen: String,
        /// Which rules it breaks (missing king, side not to move in check, ...).
        reason: String,
    },
    /// A token in the move list is not UCI notation.
    #[error("move {ply} '{token}' is not a move in UCI notation; position unchanged")]
    NotAMove {
        /// 1-based index in the move list.
        ply: usize,
        /// The token.
        token: String,
    },
    /// A move that is not legal where it is played.
    #[error("move {ply} '{token}' is illegal in {fen}; position unchanged")]
    IllegalMove {
        /// 1-based index in the move list.
        ply: usize,
        /// The token.
        token: String,
        /// The position it was tried in.
        fen: String,
    },
}

/// The current game: a position and the keys of the positions before it.
#[derive(Clone, Debug, Default)]
pub struct Game {
    /// The position to search.
    pub pos: Chess,
    /// Zobrist keys of the positions before `pos`, oldest first.
    pub history: Vec<Zobrist64>,
}

impl Game {
    /// Build the game a `position` command describes, or say why it cannot be built. Nothing is
    /// half-applied: the caller replaces its game only on `Ok`.
    ///
    /// Every FEN is read in Chess960 castling mode, which accepts standard FENs, X-FEN and
    /// Shredder-FEN alike. Castling rights or an en passant square that do not fit the board are
    /// dropped with a notice (the second value) rather than refusing the position.
    pub fn from_spec(spec: &PositionSpec) -> Result<(Game, Vec<String>), GameError> {
        let mut notices = Vec::new();
        let mut pos = match &spec.fen {
            None => Chess::default(),
            Some(text) => {
                let fen: Fen = text.parse().map_err(|source| GameError::Fen {
                    fen: echo(text),
                    source,
                })?;
                match fen.into_position::<Chess>(CastlingMode::Chess960) {
                    Ok(pos) => pos,
                    Err(err) => {
                        let recoverable = PositionErrorKinds::INVALID_CASTLING_RIGHTS
                            | PositionErrorKinds::INVALID_EP_SQUARE;
                        if recoverable.contains(err.kinds()) {
                            notices.push(format!(
                                "FEN '{}': {}; dropped",
                                echo(text),
                                err.to_string().trim_start_matches("illegal position: ")
                            ));
                        }
                        let recovered = match err.ignore_invalid_castling_rights() {
                            Ok(pos) => Ok(pos),
                            Err(e) => e.ignore_invalid_ep_square(),
                        };
                        recovered.map_err(|e| GameError::Unplayable {
                            fen: echo(text),
                            reason: e
                                .to_string()
                                .replace("opposite check", "the side not to move is in check"),
                        })?
                    }
                }
            }
        };
        let mut history = Vec::with_capacity(spec.moves.len());
        for (i, token) in spec.moves.iter().enumerate() {
            let ply = i + 1;
            let uci = UciMove::from_ascii(token.as_bytes()).map_err(|_| GameError::NotAMove {
                ply,
                token: echo(token),
            })?;
            let m = uci.to_move(&pos).map_err(|_| GameError::IllegalMove {
                ply,
                token: echo(token),
                fen: Fen::from_position(&pos, EnPassantMode::Legal).to_string(),
            })?;
            history.push(pos.zobrist_hash(EnPassantMode::Legal));
            pos.play_unchecked(m);
        }
        Ok((Game { pos, history }, notices))
    }
}

/// A move in the notation the GUI asked for: king-takes-rook castling when `chess960`, else
/// king-two-squares. A Chess960 castle that has no standard spelling (the king does not move two
/// squares, e.g. `g1h1` would become `g1g1`) is written king-takes-rook either way.
#[must_use]
pub fn move_to_uci(m: Move, chess960: bool) -> String {
    if chess960 {
        return m.to_uci(CastlingMode::Chess960).to_string();
    }
    match (m, m.to_uci(CastlingMode::Standard)) {
        (Move::Castle { .. }, UciMove::Normal { from, to, .. }) if from.distance(to) != 2 => {
            m.to_uci(CastlingMode::Chess960).to_string()
        }
        (_, uci) => uci.to_string(),
    }
}

/// `d`: the board, its FEN and Zobrist key, as plain lines.
#[must_use]
pub fn describe(pos: &Chess, chess960: bool) -> Vec<String> {
    let board = pos.board();
    let separator = " +---+---+---+---+---+---+---+---+";
    let mut lines = vec![String::new(), separator.to_owned()];
    for rank in shakmaty::Rank::ALL.into_iter().rev() {
        let mut row = String::from(" |");
        for file in shakmaty::File::ALL {
            let sq = shakmaty::Square::from_coords(file, rank);
            let c = board.piece_at(sq).map_or(' ', |p| p.char());
            row.push_str(&format!(" {c} |"));
        }
        row.push_str(&format!(" {}", rank.char()));
        lines.push(row);
        lines.push(separator.to_owned());
    }
    lines.push("   a   b   c   d   e   f   g   h".to_owned());
    lines.push(String::new());
    lines.push(format!(
        "Fen: {}",
        Fen::from_position(pos, EnPassantMode::Legal)
    ));
    let key: Zobrist64 = pos.zobrist_hash(EnPassantMode::Legal);
    lines.push(format!("Key: {:016X}", key.0));
    let checkers: Vec<String> = pos.checkers().into_iter().map(|s| s.to_string()).collect();
    let checkers = if checkers.is_empty() {
        "-".to_owned()
    } else {
        checkers.join(" ")
    };
    lines.push(format!("Checkers: {checkers}"));
    let moves: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| move_to_uci(*m, chess960))
        .collect();
    lines.push(format!(
        "Legal moves ({}): {}",
        moves.len(),
        moves.join(" ")
    ));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(fen: Option<&str>, moves: &[&str]) -> PositionSpec {
        PositionSpec {
            fen: fen.map(str::to_owned),
            moves: moves.iter().map(|m| (*m).to_owned()).collect(),
        }
    }

    #[test]
    fn moves_and_history() {
        let (game, notices) = Game::from_spec(&spec(None, &["e2e4", "e7e5", "g1f3"])).unwrap();
        assert_eq!(game.history.len(), 3);
        assert!(notices.is_empty());
        assert_eq!(game.history[0].0, 0x463b_9618_1691_fc9c);
    }

    #[test]
    fn bad_positions_are_refused() {
        for fen in [
            "garbage",
            "8/8/8/8/8/8/8/8 w - - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1",
        ] {
            assert!(Game::from_spec(&spec(Some(fen), &[])).is_err(), "{fen}");
        }
        assert!(matches!(
            Game::from_spec(&spec(None, &["e2e4", "e2e4"])),
            Err(GameError::IllegalMove { ply: 2, .. })
        ));
        assert!(matches!(
            Game::from_spec(&spec(None, &["e2e4", "zz"])),
            Err(GameError::NotAMove { ply: 2, .. })
        ));
    }

    #[test]
    fn shredder_fen_castles_king_takes_rook() {
        // fischer.epd #12: king f1, rook h1; castling moves the king only one square.
        let fen = "qb1nrkbr/1pppp1p1/1n3p2/p1B4p/8/3P1P1P/PPP1P1P1/QBNNRK1R w HEhe - 0 9";
        let (game, _) = Game::from_spec(&spec(Some(fen), &[])).unwrap();
        let castle = UciMove::from_ascii(b"f1h1")
            .unwrap()
            .to_move(&game.pos)
            .unwrap();
        assert!(matches!(castle, Move::Castle { .. }));
        assert_eq!(move_to_uci(castle, true), "f1h1");
        assert_eq!(move_to_uci(castle, false), "f1h1", "no standard spelling");
        // fischer.epd #14: king e1, rook d1; standard notation is e1c1.
        let fen = "1qnrkbbr/1pppppp1/p1n4p/8/P7/1P1N1P2/2PPP1PP/QN1RKBBR w HDhd - 0 9";
        let (game, _) = Game::from_spec(&spec(Some(fen), &["e1d1"])).unwrap();
        let king = game.pos.board().king_of(shakmaty::Color::White);
        assert_eq!(king, Some(shakmaty::Square::C1));
        let (game, _) = Game::from_spec(&spec(Some(fen), &[])).unwrap();
        let castle = UciMove::from_ascii(b"e1d1")
            .unwrap()
            .to_move(&game.pos)
            .unwrap();
        assert_eq!(move_to_uci(castle, true), "e1d1");
        assert_eq!(move_to_uci(castle, false), "e1c1");
    }

    #[test]
    fn stale_castling_rights_are_dropped_with_a_notice() {
        let (game, notices) =
            Game::from_spec(&spec(Some("4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1"), &[])).unwrap();
        assert_eq!(notices.len(), 1);
        assert!(game.pos.castles().is_empty());
    }
}
