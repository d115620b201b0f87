//! Moves as EPD files write them: SAN (`Nf3`, `exd5`, `O-O`), long SAN (`Bh8-f6+`,
//! `Ke8xd7`, `e7xf8N`) and UCI (`g1f3`, `e7e8q`), each resolved against the legal moves of a
//! position.

use shakmaty::san::San;
use shakmaty::{CastlingMode, Chess, Move, Position, Role, Square};
use thiserror::Error;

/// Why a move token does not name exactly one legal move.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// Not SAN, long SAN or UCI.
    #[error("{0:?} is not a move in SAN, long SAN or UCI")]
    Syntax(String),
    /// Well-formed, but no legal move matches.
    #[error("{0:?} is not a legal move here")]
    Illegal(String),
    /// Well-formed, but several legal moves match.
    #[error("{0:?} is ambiguous here")]
    Ambiguous(String),
}

/// Every legal move of `pos` that `token` names (SAN, long SAN or UCI; check and annotation
/// suffixes such as `+`, `#`, `!`, `?` are ignored). Ambiguous SAN yields all its candidates;
/// SAN that leaves out the `x` of a capture is accepted.
///
/// # Errors
///
/// [`MoveError::Syntax`] when the token is no move notation, [`MoveError::Illegal`] when it
/// names no legal move.
///
/// ```
/// use minkowski::epd::notation::matching_moves;
/// let pos = shakmaty::Chess::default();
/// assert_eq!(matching_moves(&pos, "Nf3").unwrap().len(), 1);
/// assert_eq!(matching_moves(&pos, "Ng1-f3").unwrap(), matching_moves(&pos, "g1f3").unwrap());
/// ```
pub fn matching_moves(pos: &Chess, token: &str) -> Result<Vec<Move>, MoveError> {
    let body = token.trim_end_matches(['+', '#', '!', '?']);
    let body = match body {
        "0-0" => "O-O",
        "0-0-0" => "O-O-O",
        other => other,
    };
    let legal = pos.legal_moves();
    let san = San::from_ascii(body.as_bytes()).ok();
    let coords = Coordinates::parse(body);
    if san.is_none() && coords.is_none() {
        return Err(MoveError::Syntax(token.to_owned()));
    }
    let select = |pred: &dyn Fn(&Move) -> bool| -> Vec<Move> {
        legal.iter().filter(|m| pred(m)).copied().collect()
    };
    // UCI such as `g2h1` also reads as (pawn) SAN, so coordinates get their turn when SAN finds
    // nothing; last, SAN that leaves out the `x` of a capture (`Ne4` for `Nxe4`).
    let mut found = san.map_or_else(Vec::new, |s| select(&|m| s.matches(*m)));
    if let (true, Some(c)) = (found.is_empty(), coords) {
        found = select(&|m| c.matches(m));
    }
    if let (true, Some(s)) = (found.is_empty(), san.and_then(with_capture)) {
        found = select(&|m| s.matches(*m));
    }
    if found.is_empty() {
        Err(MoveError::Illegal(token.to_owned()))
    } else {
        Ok(found)
    }
}

/// The same SAN marked as a capture, when it was not.
fn with_capture(san: San) -> Option<San> {
    match san {
        San::Normal {
            role,
            file,
            rank,
            capture: false,
            to,
            promotion,
        } => Some(San::Normal {
            role,
            file,
            rank,
            capture: true,
            to,
            promotion,
        }),
        _ => None,
    }
}

/// The one legal move of `pos` that `token` names.
///
/// # Errors
///
/// As [`matching_moves`], plus [`MoveError::Ambiguous`] when several moves match.
///
/// ```
/// use minkowski::epd::notation::{resolve_move, MoveError};
/// let pos = shakmaty::Chess::default();
/// assert!(resolve_move(&pos, "e2-e4").is_ok());
/// assert!(matches!(resolve_move(&pos, "e5"), Err(MoveError::Illegal(_))));
/// ```
pub fn resolve_move(pos: &Chess, token: &str) -> Result<Move, MoveError> {
    let found = matching_moves(pos, token)?;
    match found.as_slice() {
        [m] => Ok(*m),
        _ => Err(MoveError::Ambiguous(token.to_owned())),
    }
}

/// A move given by its squares: long SAN (`Nb1-c3`, `e7xf8N`, `e7-e8=Q`) or UCI (`e7e8q`).
#[derive(Clone, Copy, Debug)]
struct Coordinates {
    role: Option<Role>,
    from: Square,
    to: Square,
    promotion: Option<Role>,
}

impl Coordinates {
    fn parse(text: &str) -> Option<Coordinates> {
        let mut rest = text.as_bytes();
        let role = match rest.first() {
            Some(&c) if c.is_ascii_uppercase() => {
                rest = &rest[1..];
                Some(Role::from_char(char::from(c))?)
            }
            _ => None,
        };
        let from = Square::from_ascii(rest.get(..2)?).ok()?;
        rest = &rest[2..];
        if let Some(b'-' | b'x' | b':') = rest.first() {
            rest = &rest[1..];
        }
        let to = Square::from_ascii(rest.get(..2)?).ok()?;
        rest = &rest[2..];
        if let Some(b'=') = rest.first() {
            rest = &rest[1..];
        }
        let promotion = match rest {
            [] => None,
            [c] => Some(Role::from_char(char::from(c.to_ascii_lowercase()))?),
            _ => return None,
        };
        Some(Coordinates {
            role,
            from,
            to,
            promotion,
        })
    }

    /// Castling matches both the king's destination (`e1g1`) and king-takes-rook (`e1h1`).
    fn matches(&self, m: &Move) -> bool {
        let role_ok = self.role.is_none_or(|r| r == m.role());
        let uci = |mode| m.to_uci(mode).to_string();
        let wanted = format!(
            "{}{}{}",
            self.from,
            self.to,
            self.promotion
                .map_or(String::new(), |r| r.char().to_string())
        );
        role_ok && (uci(CastlingMode::Standard) == wanted || uci(CastlingMode::Chess960) == wanted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Chess960)
            .unwrap()
    }

    #[test]
    fn long_san_capture_and_promotion_without_equals() {
        let p = pos("1K2krb1/1P1RP2p/7P/1n2N3/B3Q3/8/8/8 w - - 0 1");
        assert!(resolve_move(&p, "Ne5-f7").is_ok());
        let p = pos("4kb2/4P3/8/8/8/8/8/4K3 w - - 0 1");
        let m = resolve_move(&p, "e7xf8N+").unwrap();
        assert_eq!(m.promotion(), Some(Role::Knight));
    }

    #[test]
    fn castling_in_every_spelling() {
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let m = resolve_move(&p, "O-O").unwrap();
        for token in ["0-0", "e1g1", "e1h1", "Ke1-g1"] {
            assert_eq!(resolve_move(&p, token), Ok(m), "{token}");
        }
    }

    #[test]
    fn ambiguous_and_garbage() {
        let p = pos("r1bqk2r/ppp2ppp/2n5/4P3/2Bp2n1/5N1P/PP1N1PP1/R2Q1RK1 b kq - 1 10");
        assert_eq!(matching_moves(&p, "Ne5").unwrap().len(), 2);
        assert!(matches!(
            resolve_move(&p, "Ne5"),
            Err(MoveError::Ambiguous(_))
        ));
        assert!(matches!(resolve_move(&p, "Zz9"), Err(MoveError::Syntax(_))));
    }
}
