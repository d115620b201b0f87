//! One EPD line: the four FEN fields (optionally followed by the two move counters) and the
//! operations after them, parsed into typed [`Operation`]s.
//!
//! shakmaty's own `Epd`/`Fen` parsers reject operations, so the position fields are split off
//! here and the `;`-separated operations are tokenised by hand (quoted strings included). The
//! variants found in the wild are accepted:
//!
//! - move counters between the FEN fields and the operations (`... w - - 0 1 bm Rf1;`);
//! - several moves per `bm`/`am`, space- or comma-separated, in SAN, long SAN or UCI;
//! - `bm #N` / `bm #-N` as a mate-length goal instead of a move;
//! - operations without `;` separators (`bm Rc8+ dm 26`): a known opcode starts a new one;
//! - free text after the last `;` that does not start with a known opcode: kept as a comment;
//! - a doubled opcode (`bm bm Bh2-f4`): the empty one is dropped with a warning.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Move, Position};
use thiserror::Error;

use super::notation::{self, MoveError};

/// Why a line is not a usable EPD record.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LineError {
    /// Fewer than the four position fields.
    #[error("expected 4 FEN fields (board, side, castling, en passant), found {0}")]
    MissingFields(usize),
    /// The FEN fields do not parse.
    #[error("bad FEN {fen:?}: {reason}")]
    BadFen {
        /// The position part of the line.
        fen: String,
        /// shakmaty's reason.
        reason: String,
    },
    /// A `"` without its closing partner.
    #[error("unterminated quoted string")]
    UnterminatedQuote,
    /// An opcode that is not a letter followed by letters, digits or `_`.
    #[error("bad opcode {0:?}")]
    BadOpcode(String),
    /// An opcode that needs operands has none.
    #[error("operation {0} has no operand")]
    MissingOperand(String),
    /// An operand that should be a number is not.
    #[error("operation {opcode}: bad number {token:?}")]
    BadNumber {
        /// The operation.
        opcode: String,
        /// The operand.
        token: String,
    },
    /// A move operand does not name one legal move.
    #[error("operation {opcode}: {source}")]
    BadMove {
        /// The operation.
        opcode: String,
        /// What is wrong with the move.
        source: MoveError,
    },
}

/// A score as `ce` gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// Centipawns from the side to move's point of view.
    Cp(i32),
    /// Mate in this many moves (negative: the side to move is mated).
    Mate(i32),
}

/// One typed EPD operation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Operation {
    /// `bm`: the best moves (any of them solves the position).
    BestMoves(Vec<Move>),
    /// `bm #N`: the side to move mates in `N` (negative: is mated in `-N`).
    BestMate(i32),
    /// `am`: moves to avoid.
    AvoidMoves(Vec<Move>),
    /// `dm`: direct mate in `N` (negative: mated; 0: no mate, a draw).
    DirectMate(i32),
    /// `id`: the position's name.
    Id(String),
    /// `c0`..`c9`: comments; index and text.
    Comment(u8, String),
    /// `D<depth> <count>`: a perft count.
    Perft {
        /// Depth in plies.
        depth: u32,
        /// Expected number of leaf nodes.
        nodes: u64,
    },
    /// `ce`: the expected evaluation.
    Eval(Eval),
    /// `pv` or `PV:`: a principal variation, first move first.
    Pv(Vec<Move>),
    /// Any other opcode, kept with its raw operands.
    Other {
        /// The opcode as written.
        opcode: String,
        /// The operands as written (quotes removed).
        operands: Vec<String>,
    },
}

/// A parsed EPD line.
#[derive(Clone, Debug)]
pub struct Record {
    /// 1-based line number in its file.
    pub line: usize,
    /// The position as a FEN (counters `0 1` when the line gives none).
    pub fen: String,
    /// The position.
    pub position: Chess,
    /// The operations in the order written.
    pub operations: Vec<Operation>,
    /// Free text after the last `;`.
    pub comment: Option<String>,
    /// Things that were accepted but look odd (a doubled opcode, an impossible check...).
    pub warnings: Vec<String>,
}

/// Opcodes that start a new operation even without a `;` before them. `c0`..`c9` are left
/// out: `c1`..`c8` are also pawn moves (`bm c6`).
fn is_known_opcode(word: &str) -> bool {
    matches!(word, "bm" | "am" | "dm" | "id" | "ce" | "pv" | "PV:") || perft_depth(word).is_some()
}

fn comment_index(word: &str) -> Option<u8> {
    match word.as_bytes() {
        [b'c', d @ b'0'..=b'9'] => Some(d - b'0'),
        _ => None,
    }
}

fn perft_depth(word: &str) -> Option<u32> {
    let digits = word.strip_prefix('D')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// EPD opcode syntax: a letter, then letters, digits or `_` (a trailing `:` is tolerated).
fn is_valid_opcode(word: &str) -> bool {
    let word = word.strip_suffix(':').unwrap_or(word);
    let mut bytes = word.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// A token of the operation part.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Word(String),
    Quoted(String),
}

impl Token {
    fn text(&self) -> &str {
        match self {
            Token::Word(s) | Token::Quoted(s) => s,
        }
    }
}

/// `;`-separated groups of tokens; the flag says whether the group ended with a `;`.
fn tokenize(text: &str) -> Result<Vec<(Vec<Token>, bool)>, LineError> {
    let mut groups = Vec::new();
    let mut tokens = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ';' => groups.push((std::mem::take(&mut tokens), true)),
            '"' => {
                let mut s = String::new();
                loop {
                    match chars.next() {
                        None => return Err(LineError::UnterminatedQuote),
                        Some('"') => break,
                        Some('\\') if chars.peek() == Some(&'"') => {
                            s.push(chars.next().unwrap_or('"'))
                        }
                        Some(ch) => s.push(ch),
                    }
                }
                tokens.push(Token::Quoted(s));
            }
            c if c.is_whitespace() => {}
            c => {
                let mut s = String::from(c);
                while let Some(&n) = chars.peek() {
                    if n.is_whitespace() || n == ';' || n == '"' {
                        break;
                    }
                    s.push(n);
                    chars.next();
                }
                tokens.push(Token::Word(s));
            }
        }
    }
    if !tokens.is_empty() {
        groups.push((tokens, false));
    }
    Ok(groups)
}

/// Splits a group at every unquoted known opcode after its first token (for lines without
/// `;` separators).
fn split_at_opcodes(group: Vec<Token>) -> Vec<Vec<Token>> {
    let mut out: Vec<Vec<Token>> = Vec::new();
    for token in group {
        let starts_new = matches!(&token, Token::Word(w) if is_known_opcode(w));
        match out.last_mut() {
            Some(current) if !starts_new => current.push(token),
            _ => out.push(vec![token]),
        }
    }
    out
}

/// Parses one line. `Ok(None)` for blank lines and `#` comments.
///
/// # Errors
///
/// A [`LineError`] when the position or an operation is malformed. Unknown opcodes are not
/// errors: they are kept as [`Operation::Other`].
///
/// ```
/// use minkowski::epd::record::{parse_line, Operation};
/// let rec = parse_line("8/8/8/8/8/2k5/1R6/K7 w - - bm #16; id \"krk\";", 1).unwrap().unwrap();
/// assert_eq!(rec.operations[0], Operation::BestMate(16));
/// assert_eq!(rec.id(), Some("krk"));
/// ```
pub fn parse_line(text: &str, line: usize) -> Result<Option<Record>, LineError> {
    let text = text.trim();
    if text.is_empty() || text.starts_with('#') {
        return Ok(None);
    }
    let (fields, rest) = take_words(text, 4);
    if fields.len() < 4 {
        return Err(LineError::MissingFields(fields.len()));
    }
    let (counters, ops_text) = take_counters(rest);
    let fen = format!(
        "{} {}",
        fields.join(" "),
        counters.as_deref().unwrap_or("0 1")
    );
    let mut warnings = Vec::new();
    let position = parse_position(&fen, &mut warnings)?;

    let groups = tokenize(ops_text)?;
    let terminated_any = groups.iter().any(|(_, terminated)| *terminated);
    let mut operations = Vec::new();
    let mut comment = None;
    for (tokens, terminated) in groups {
        let Some(first) = tokens.first() else {
            continue;
        };
        let free_text = !terminated
            && terminated_any
            && !matches!(first, Token::Word(w) if is_known_opcode(w) || comment_index(w).is_some());
        if free_text {
            let words: Vec<&str> = tokens.iter().map(Token::text).collect();
            comment = Some(words.join(" "));
            continue;
        }
        let parts = split_at_opcodes(tokens);
        for (i, op) in parts.iter().enumerate() {
            let opcode = op[0].text();
            if op.len() == 1
                && parts
                    .get(i + 1)
                    .is_some_and(|next| next[0].text() == opcode)
            {
                warnings.push(format!("doubled opcode {opcode} ignored"));
                continue;
            }
            operations.push(parse_operation(&position, op, &mut warnings)?);
        }
    }
    Ok(Some(Record {
        line,
        fen,
        position,
        operations,
        comment,
        warnings,
    }))
}

/// The first `n` whitespace-separated words and the text after them.
fn take_words(text: &str, n: usize) -> (Vec<&str>, &str) {
    let mut words = Vec::new();
    let mut rest = text.trim_start();
    while words.len() < n && !rest.is_empty() {
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        words.push(&rest[..end]);
        rest = rest[end..].trim_start();
    }
    (words, rest)
}

/// Halfmove clock and fullmove number when the operations start with two plain numbers.
fn take_counters(rest: &str) -> (Option<String>, &str) {
    let (words, after) = take_words(rest, 2);
    let numeric = |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit());
    if words.len() == 2 && numeric(words[0]) && numeric(words[1]) {
        (Some(words.join(" ")), after)
    } else {
        (None, rest)
    }
}

fn parse_position(fen: &str, warnings: &mut Vec<String>) -> Result<Chess, LineError> {
    let bad = |reason: String| LineError::BadFen {
        fen: fen.to_owned(),
        reason,
    };
    let setup = fen.parse::<Fen>().map_err(|e| bad(e.to_string()))?;
    match setup.into_position(CastlingMode::Chess960) {
        Ok(pos) => Ok(pos),
        Err(err) => {
            let reason = err.to_string();
            let pos = err
                .ignore_impossible_check()
                .map_err(|e| bad(e.to_string()))?;
            warnings.push(format!("accepted despite {reason}"));
            Ok(pos)
        }
    }
}

/// Operand words; `bm`/`am` lists may also be comma-separated.
fn operand_words(op: &[Token]) -> Vec<&str> {
    op[1..]
        .iter()
        .flat_map(|t| t.text().split(','))
        .map(str::trim)
        .filter(|w| !w.is_empty())
        .collect()
}

fn number<T: std::str::FromStr>(opcode: &str, token: &str) -> Result<T, LineError> {
    token
        .trim_start_matches('+')
        .parse()
        .map_err(|_| LineError::BadNumber {
            opcode: opcode.to_owned(),
            token: token.to_owned(),
        })
}

fn single<'a>(opcode: &str, words: &[&'a str]) -> Result<&'a str, LineError> {
    words
        .first()
        .copied()
        .ok_or_else(|| LineError::MissingOperand(opcode.to_owned()))
}

fn parse_operation(
    pos: &Chess,
    op: &[Token],
    warnings: &mut Vec<String>,
) -> Result<Operation, LineError> {
    let opcode = op[0].text();
    if matches!(op[0], Token::Quoted(_)) || !is_valid_opcode(opcode) {
        return Err(LineError::BadOpcode(opcode.to_owned()));
    }
    let words = operand_words(op);
    let joined = || {
        let texts: Vec<&str> = op[1..].iter().map(Token::text).collect();
        texts.join(" ")
    };
    let bad_move = |source| LineError::BadMove {
        opcode: opcode.to_owned(),
        source,
    };
    Ok(match opcode {
        "bm" if single(opcode, &words)?.starts_with('#') => {
            Operation::BestMate(number(opcode, &words[0][1..])?)
        }
        "bm" => {
            let moves = words
                .iter()
                .map(|w| notation::resolve_move(pos, w).map_err(bad_move))
                .collect::<Result<_, _>>()?;
            Operation::BestMoves(moves)
        }
        "am" => {
            single(opcode, &words)?;
            let mut moves = Vec::new();
            for w in &words {
                let found = notation::matching_moves(pos, w).map_err(bad_move)?;
                if found.len() > 1 {
                    warnings.push(format!("am {w} is ambiguous: avoiding all {}", found.len()));
                }
                moves.extend(found);
            }
            Operation::AvoidMoves(moves)
        }
        "dm" => Operation::DirectMate(number(opcode, single(opcode, &words)?)?),
        "id" => Operation::Id(joined()),
        "ce" => Operation::Eval(parse_eval(opcode, single(opcode, &words)?)?),
        "pv" | "PV:" => Operation::Pv(parse_line_of_moves(pos, &words).map_err(bad_move)?),
        _ => {
            if let Some(index) = comment_index(opcode) {
                Operation::Comment(index, joined())
            } else if let Some(depth) = perft_depth(opcode) {
                Operation::Perft {
                    depth,
                    nodes: number(opcode, single(opcode, &words)?)?,
                }
            } else {
                if notation::resolve_move(pos, opcode).is_ok() {
                    warnings.push(format!("{opcode} looks like a move without an opcode"));
                }
                Operation::Other {
                    opcode: opcode.to_owned(),
                    operands: op[1..].iter().map(|t| t.text().to_owned()).collect(),
                }
            }
        }
    })
}

/// `ce` operands: centipawns (`+34`, `-120`) or a mate (`+M2`, `-M3`, `#4`).
fn parse_eval(opcode: &str, token: &str) -> Result<Eval, LineError> {
    let (sign, body) = match token.as_bytes().first() {
        Some(b'-') => (-1, &token[1..]),
        Some(b'+') => (1, &token[1..]),
        _ => (1, token),
    };
    if let Some(n) = body.strip_prefix(['M', '#']) {
        let n: i32 = number(opcode, n)?;
        Ok(Eval::Mate(sign * n))
    } else {
        Ok(Eval::Cp(number(opcode, token)?))
    }
}

/// Resolves a sequence of moves, playing each before resolving the next.
fn parse_line_of_moves(pos: &Chess, words: &[&str]) -> Result<Vec<Move>, MoveError> {
    let mut pos = pos.clone();
    let mut moves = Vec::with_capacity(words.len());
    for w in words {
        let m = notation::resolve_move(&pos, w)?;
        pos.play_unchecked(m);
        moves.push(m);
    }
    Ok(moves)
}

impl Record {
    /// The `id` operand, if any.
    #[must_use]
    pub fn id(&self) -> Option<&str> {
        self.operations.iter().find_map(|op| match op {
            Operation::Id(s) => Some(s.as_str()),
            _ => None,
        })
    }

    /// Comment `cN`, if any.
    #[must_use]
    pub fn comment_op(&self, index: u8) -> Option<&str> {
        self.operations.iter().find_map(|op| match op {
            Operation::Comment(i, s) if *i == index => Some(s.as_str()),
            _ => None,
        })
    }

    /// The perft counts (`Dn`), by depth as written.
    #[must_use]
    pub fn perft_counts(&self) -> Vec<(u32, u64)> {
        self.operations
            .iter()
            .filter_map(|op| match op {
                Operation::Perft { depth, nodes } => Some((*depth, *nodes)),
                _ => None,
            })
            .collect()
    }

    /// STS-style points per move: from `c0 "Qd2=10, Qd4=5"`, else from `c7` (moves) with `c8`
    /// (points). Empty when the record has neither or they are plain text.
    #[must_use]
    pub fn move_points(&self) -> Vec<(Move, u32)> {
        if let Some(points) = self.comment_op(0).and_then(|c0| self.points_from_c0(c0)) {
            return points;
        }
        let (Some(moves), Some(points)) = (self.comment_op(7), self.comment_op(8)) else {
            return Vec::new();
        };
        let moves: Vec<&str> = moves.split_whitespace().collect();
        let points: Vec<&str> = points.split_whitespace().collect();
        if moves.len() != points.len() {
            return Vec::new();
        }
        let pairs: Option<Vec<(Move, u32)>> = moves
            .iter()
            .zip(&points)
            .map(|(m, p)| {
                Some((
                    notation::resolve_move(&self.position, m).ok()?,
                    p.parse().ok()?,
                ))
            })
            .collect();
        pairs.unwrap_or_default()
    }

    fn points_from_c0(&self, c0: &str) -> Option<Vec<(Move, u32)>> {
        c0.split(',')
            .map(|entry| {
                let (mv, pts) = entry.trim().split_once('=')?;
                let m = notation::resolve_move(&self.position, mv.trim()).ok()?;
                Some((m, pts.trim().parse().ok()?))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Record {
        parse_line(text, 1).unwrap().unwrap()
    }

    #[test]
    fn counters_and_perft_ops() {
        let r = parse("4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66 ;D3 1197");
        assert_eq!(r.fen, "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        assert_eq!(r.perft_counts(), vec![(1, 15), (2, 66), (3, 1197)]);
    }

    #[test]
    fn unseparated_and_doubled_opcodes() {
        let r = parse("8/1r6/R3Pp1p/2rP4/2B2kP1/8/8/2RK4 w - - 0 1 bm d6 Ba2 dm 16");
        assert!(matches!(&r.operations[0], Operation::BestMoves(v) if v.len() == 2));
        assert_eq!(r.operations[1], Operation::DirectMate(16));
        let r = parse("5n2/6N1/2p3p1/1p2P1P1/1N1k4/1K1Pp3/1p5B/1Q6 w - - bm bm Bh2-f4; ce +M2;");
        assert_eq!(r.warnings.len(), 1);
        assert!(matches!(&r.operations[0], Operation::BestMoves(v) if v.len() == 1));
        assert_eq!(r.operations[1], Operation::Eval(Eval::Mate(2)));
    }

    #[test]
    fn trailing_free_text_is_a_comment() {
        let r = parse("4KBkr/7p/6PP/4P3/8/3P1p2/8/8 w - - bm g7; id \"ZPTS.02\"; CCC post by G.I.");
        assert_eq!(r.comment.as_deref(), Some("CCC post by G.I."));
        assert_eq!(r.id(), Some("ZPTS.02"));
    }

    #[test]
    fn sts_points() {
        let r = parse(
            "1kr5/3n4/q3p2p/p2n2p1/PppB1P2/5BP1/1P2Q2P/3R2K1 w - - bm f5; c0 \"f5=10, Be5+=2, Bf2=3, Bg4=2\";",
        );
        let pts: Vec<u32> = r.move_points().iter().map(|(_, p)| *p).collect();
        assert_eq!(pts, vec![10, 2, 3, 2]);
    }

    #[test]
    fn errors() {
        let err = |t: &str| parse_line(t, 1).unwrap_err();
        assert_eq!(err("8/8/8 w -"), LineError::MissingFields(3));
        assert!(matches!(
            err("8/8/8/8/8/8/8/8 w - - bm e4;"),
            LineError::BadFen { .. }
        ));
        assert!(matches!(
            err("4k3/8/8/8/8/8/8/4K3 w - - bm Qh5;"),
            LineError::BadMove { .. }
        ));
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K3 w - - id \"open;"),
            LineError::UnterminatedQuote
        );
        assert!(parse_line("  # comment", 1).unwrap().is_none());
        assert!(parse_line("", 1).unwrap().is_none());
    }
}
