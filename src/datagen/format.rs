//! The data format (see [`super`] for its definition): writing a line, and reading lines of it
//! or of the common labelled-EPD forms back into positions with their game result.
//!
//! Reading never panics: every malformed line is a [`LineError`], and [`Reader`] adds the line
//! number ([`ReadError`]) and goes on with the next line.

use std::fmt;
use std::io::BufRead;

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color};
use thiserror::Error;

/// How a game ended, from White's point of view.
///
/// ```
/// use minkowski::datagen::format::GameResult;
/// assert_eq!(GameResult::parse("1/2-1/2"), Some(GameResult::Draw));
/// assert_eq!(GameResult::parse("0.0"), Some(GameResult::BlackWins));
/// assert_eq!(GameResult::WhiteWins.to_string(), "1.0");
/// assert_eq!(GameResult::BlackWins.white_score(), 0.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// White won: `1.0` (also read as `1-0`, `1`).
    WhiteWins,
    /// A draw: `0.5` (also read as `1/2-1/2`, `1/2`, `=`).
    Draw,
    /// Black won: `0.0` (also read as `0-1`, `0`).
    BlackWins,
}

impl GameResult {
    /// White's score: 1, ½ or 0 (the target the tuner fits `sigmoid(K · eval)` to).
    #[must_use]
    pub fn white_score(self) -> f64 {
        match self {
            GameResult::WhiteWins => 1.0,
            GameResult::Draw => 0.5,
            GameResult::BlackWins => 0.0,
        }
    }

    /// The result in which `winner` won.
    ///
    /// ```
    /// use minkowski::datagen::format::GameResult;
    /// assert_eq!(GameResult::won_by(shakmaty::Color::Black), GameResult::BlackWins);
    /// ```
    #[must_use]
    pub fn won_by(winner: Color) -> GameResult {
        match winner {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// A result as data sets write it: PGN (`1-0`, `0-1`, `1/2-1/2`) or White's score (`1.0`,
    /// `0.5`, `0.0`, and other spellings of 1, ½ and 0). Surrounding quotes and blanks are
    /// ignored. `None` for anything else.
    #[must_use]
    pub fn parse(token: &str) -> Option<GameResult> {
        let token = token.trim().trim_matches('"').trim();
        match token {
            "1-0" => return Some(GameResult::WhiteWins),
            "0-1" => return Some(GameResult::BlackWins),
            "1/2-1/2" | "1/2" | "=" => return Some(GameResult::Draw),
            _ => {}
        }
        // Only plain decimals: `f64::from_str` would also take "inf", "NaN" and "1e0".
        if token.is_empty() || !token.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
            return None;
        }
        match token.parse::<f64>().ok()? {
            1.0 => Some(GameResult::WhiteWins),
            0.5 => Some(GameResult::Draw),
            0.0 => Some(GameResult::BlackWins),
            _ => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GameResult::WhiteWins => "1.0",
            GameResult::Draw => "0.5",
            GameResult::BlackWins => "0.0",
        })
    }
}

/// One line of data: `FEN | score | result`, the score in centipawns from White's view.
///
/// ```
/// use minkowski::datagen::format::{GameResult, format_line};
/// let fen = "8/8/8/4k3/8/8/8/KR6 w - - 0 1";
/// assert_eq!(format_line(fen, -12, GameResult::Draw), "8/8/8/4k3/8/8/8/KR6 w - - 0 1 | -12 | 0.5");
/// ```
#[must_use]
pub fn format_line(fen: &str, white_score: i32, result: GameResult) -> String {
    format!("{fen} | {white_score} | {result}")
}

/// A position with its game's result, as read back.
#[derive(Clone, Debug)]
pub struct Labelled {
    /// The position.
    pub position: Chess,
    /// How its game ended, from White's view.
    pub result: GameResult,
    /// The score written with it, in centipawns, when the line has one: White's view in this
    /// format; for `[result] score` lines, as the file wrote it.
    pub score: Option<i32>,
}

/// Why a line is not a labelled position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LineError {
    /// No label in any known form.
    #[error(
        "no game result (expected `FEN | score | result`, `FEN c9 \"1-0\";`, `FEN [1.0]` or `FEN; 1-0`)"
    )]
    NoResult,
    /// A label that is not a result.
    #[error("bad result {0:?} (expected 1-0, 0-1, 1/2-1/2, 1.0, 0.5 or 0.0)")]
    BadResult(String),
    /// A score that is not an integer number of centipawns.
    #[error("bad score {0:?} (expected whole centipawns, e.g. -35)")]
    BadScore(String),
    /// `FEN | score | result` with the wrong number of fields.
    #[error("{0} fields separated by `|` (expected 3: FEN | score | result)")]
    FieldCount(usize),
    /// A quoted operand without its closing quote.
    #[error("unterminated quote in {0:?}")]
    Unterminated(String),
    /// The position part does not parse as a FEN.
    #[error("bad FEN {fen:?}: {reason}")]
    BadFen {
        /// The text taken as the FEN.
        fen: String,
        /// The parser's complaint.
        reason: String,
    },
    /// A FEN of an impossible position.
    #[error("illegal position {fen:?}: {reason}")]
    IllegalPosition {
        /// The FEN.
        fen: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The line is not UTF-8 text.
    #[error("not UTF-8 text")]
    NotUtf8,
    /// Reading failed (reading stops here).
    #[error("read error: {0}")]
    Io(String),
}

/// A malformed line, with its 1-based number.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("line {line}: {kind}")]
pub struct ReadError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub kind: LineError,
}

/// Parse one line in any accepted form. `Ok(None)` for a blank line or a `#` comment.
///
/// ```
/// use minkowski::datagen::format::{GameResult, LineError, parse_line};
/// let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -";
/// assert_eq!(parse_line(&format!("{fen} [0.5] 17")).unwrap().unwrap().score, Some(17));
/// assert_eq!(parse_line(&format!("{fen} 0 1; 0-1")).unwrap().unwrap().result, GameResult::BlackWins);
/// assert!(parse_line("# a comment").unwrap().is_none());
/// assert_eq!(parse_line(fen).unwrap_err(), LineError::NoResult);
/// ```
///
/// # Errors
///
/// A [`LineError`] saying what is wrong with the line.
pub fn parse_line(line: &str) -> Result<Option<Labelled>, LineError> {
    let text = line.trim();
    if text.is_empty() || text.starts_with('#') {
        return Ok(None);
    }
    let (fen, result, score, strict) = split_label(text)?;
    let position = parse_position(fen, strict)?;
    Ok(Some(Labelled {
        position,
        result,
        score,
    }))
}

/// The position text, the result, the score if any, and whether the position text must be a
/// bare FEN (this format) rather than an EPD record that may carry other operations.
fn split_label(text: &str) -> Result<(&str, GameResult, Option<i32>, bool), LineError> {
    if text.contains('|') {
        let fields: Vec<&str> = text.split('|').map(str::trim).collect();
        return match fields.as_slice() {
            [fen, score, result] => Ok((fen, result_of(result)?, Some(score_of(score)?), true)),
            [fen, result] => Ok((fen, result_of(result)?, None, true)),
            _ => Err(LineError::FieldCount(fields.len())),
        };
    }
    if let Some(at) = find_word(text, "c9") {
        let rest = text[at + 2..].trim_start();
        let operand = match rest.strip_prefix('"') {
            Some(quoted) => match quoted.find('"') {
                Some(end) => &quoted[..end],
                None => return Err(LineError::Unterminated(rest.to_owned())),
            },
            None => rest.split(';').next().unwrap_or_default(),
        };
        return Ok((&text[..at], result_of(operand)?, None, false));
    }
    if let Some(open) = text.find('[') {
        let Some(close) = text[open..].find(']').map(|c| open + c) else {
            return Err(LineError::BadResult(text[open..].to_owned()));
        };
        let after = text[close + 1..].trim();
        let score = if after.is_empty() {
            None
        } else {
            Some(score_of(after)?)
        };
        return Ok((
            &text[..open],
            result_of(&text[open + 1..close])?,
            score,
            false,
        ));
    }
    if let Some((fen, label)) = text.trim_end_matches(';').rsplit_once(';') {
        return Ok((fen, result_of(label)?, None, false));
    }
    Err(LineError::NoResult)
}

/// Byte offset of `word` standing alone (after a blank or `;`, before a blank or a quote).
fn find_word(text: &str, word: &str) -> Option<usize> {
    text.match_indices(word).map(|(i, _)| i).find(|&i| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        matches!(before, Some(c) if c.is_whitespace() || c == ';')
            && matches!(after, Some(c) if c.is_whitespace() || c == '"')
    })
}

fn result_of(token: &str) -> Result<GameResult, LineError> {
    GameResult::parse(token).ok_or_else(|| LineError::BadResult(token.trim().to_owned()))
}

fn score_of(token: &str) -> Result<i32, LineError> {
    token
        .trim()
        .parse::<i32>()
        .map_err(|_| LineError::BadScore(token.trim().to_owned()))
}

/// The first four FEN fields, and the move counters when both follow. With `strict`, nothing
/// else may follow; otherwise the rest (EPD operations) is ignored.
fn parse_position(text: &str, strict: bool) -> Result<Chess, LineError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut take = words.len().min(4);
    if words.len() >= 6 && words[4..6].iter().all(|w| w.parse::<u32>().is_ok()) {
        take = 6;
    }
    let fen = words[..take].join(" ");
    if words.len() < 4 || (strict && take != words.len()) {
        return Err(LineError::BadFen {
            fen: text.trim().to_owned(),
            reason: "expected 4 or 6 fields".to_owned(),
        });
    }
    let parsed: Fen = fen
        .parse()
        .map_err(|e: shakmaty::fen::ParseFenError| LineError::BadFen {
            fen: fen.clone(),
            reason: e.to_string(),
        })?;
    // Standard castling first; X-FEN/Shredder castling rights (Chess960) as a fallback.
    match parsed.clone().into_position(CastlingMode::Standard) {
        Ok(pos) => Ok(pos),
        Err(standard) => {
            parsed
                .into_position(CastlingMode::Chess960)
                .map_err(|_| LineError::IllegalPosition {
                    fen,
                    reason: standard.to_string(),
                })
        }
    }
}

/// The labelled positions of a text, line by line: each item a position or a [`ReadError`]
/// (with its line number); blank lines and `#` comments are skipped. An I/O error is the last
/// item.
///
/// ```
/// use minkowski::datagen::format::Reader;
/// let text = "8/8/8/4k3/8/8/8/KR6 w - - 0 1 | 950 | 1.0\n\nnonsense\n";
/// let items: Vec<_> = Reader::new(text.as_bytes()).collect();
/// assert!(items[0].is_ok());
/// assert_eq!(items[1].as_ref().unwrap_err().line, 3);
/// ```
#[derive(Debug)]
pub struct Reader<R> {
    input: R,
    line: usize,
    buffer: Vec<u8>,
    failed: bool,
}

impl<R: BufRead> Reader<R> {
    /// A reader of `input` (a file in a `BufReader`, or bytes).
    pub fn new(input: R) -> Reader<R> {
        Reader {
            input,
            line: 0,
            buffer: Vec::new(),
            failed: false,
        }
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<Labelled, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.failed {
            self.buffer.clear();
            self.line += 1;
            let error = |kind| {
                Some(Err(ReadError {
                    line: self.line,
                    kind,
                }))
            };
            match self.input.read_until(b'\n', &mut self.buffer) {
                Ok(0) => return None,
                Ok(_) => {}
                Err(e) => {
                    self.failed = true;
                    return error(LineError::Io(e.to_string()));
                }
            }
            let Ok(text) = std::str::from_utf8(&self.buffer) else {
                return error(LineError::NotUtf8);
            };
            match parse_line(text) {
                Ok(None) => {}
                Ok(Some(labelled)) => return Some(Ok(labelled)),
                Err(kind) => return error(kind),
            }
        }
        None
    }
}

/// Every labelled position of `text`, and every malformed line.
///
/// ```
/// let (good, bad) = minkowski::datagen::format::read_text("x | 1 | 1.0\n");
/// assert!(good.is_empty() && bad[0].line == 1);
/// ```
#[must_use]
pub fn read_text(text: &str) -> (Vec<Labelled>, Vec<ReadError>) {
    let mut good = Vec::new();
    let mut bad = Vec::new();
    for item in Reader::new(text.as_bytes()) {
        match item {
            Ok(l) => good.push(l),
            Err(e) => bad.push(e),
        }
    }
    (good, bad)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{EnPassantMode, Position};

    const FEN: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    const EPD: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq -";

    fn parsed(line: &str) -> Labelled {
        match parse_line(line) {
            Ok(Some(l)) => l,
            other => panic!("{line:?} gave {other:?}"),
        }
    }

    fn fen_of(l: &Labelled) -> String {
        Fen::from_position(&l.position, EnPassantMode::Legal).to_string()
    }

    #[test]
    fn own_format_round_trips() {
        let line = format_line(FEN, -35, GameResult::BlackWins);
        let l = parsed(&line);
        assert_eq!(fen_of(&l), FEN);
        assert_eq!((l.result, l.score), (GameResult::BlackWins, Some(-35)));
        // Without a score, and with any spelling of the result.
        let l = parsed(&format!("{FEN} | 1/2-1/2"));
        assert_eq!((l.result, l.score), (GameResult::Draw, None));
        assert_eq!(parsed(&format!("{FEN}|7|1")).result, GameResult::WhiteWins);
    }

    #[test]
    fn c9_form() {
        for (label, result) in [
            ("\"1-0\"", GameResult::WhiteWins),
            ("\"0-1\"", GameResult::BlackWins),
            ("\"1/2-1/2\"", GameResult::Draw),
            ("1-0", GameResult::WhiteWins),
        ] {
            let l = parsed(&format!("{EPD} c9 {label};"));
            assert_eq!((l.result, l.score), (result, None), "{label}");
            assert_eq!(l.position.fullmoves().get(), 1);
        }
        // Other operations before the label, and the move counters, are fine.
        let l = parsed(&format!("{FEN} bm O-O; c9 \"0-1\";"));
        assert_eq!(l.result, GameResult::BlackWins);
        assert_eq!(fen_of(&l), FEN);
    }

    #[test]
    fn bracket_form() {
        let l = parsed(&format!("{FEN} [1.0]"));
        assert_eq!((l.result, l.score), (GameResult::WhiteWins, None));
        let l = parsed(&format!("{EPD} [0.5] -12"));
        assert_eq!((l.result, l.score), (GameResult::Draw, Some(-12)));
        assert_eq!(
            parsed(&format!("{EPD} [0-1]")).result,
            GameResult::BlackWins
        );
    }

    #[test]
    fn semicolon_form() {
        assert_eq!(parsed(&format!("{FEN}; 1-0")).result, GameResult::WhiteWins);
        assert_eq!(
            parsed(&format!("{EPD} ; 0.0 ;")).result,
            GameResult::BlackWins
        );
        assert_eq!(parsed(&format!("{EPD};1/2-1/2")).result, GameResult::Draw);
    }

    #[test]
    fn malformed_lines_are_typed_errors() {
        let err = |line: &str| parse_line(line).expect_err(line);
        assert_eq!(err(FEN), LineError::NoResult);
        assert_eq!(
            err(&format!("{FEN} | 12 | 2.0")),
            LineError::BadResult("2.0".into())
        );
        assert_eq!(
            err(&format!("{FEN} | 1.5 | 1.0")),
            LineError::BadScore("1.5".into())
        );
        assert_eq!(
            err(&format!("{FEN} | 1 | 1.0 | x")),
            LineError::FieldCount(4)
        );
        assert_eq!(
            err(&format!("{EPD} c9 \"1-0;")),
            LineError::Unterminated("\"1-0;".into())
        );
        assert_eq!(
            err(&format!("{EPD} c9 \"win\";")),
            LineError::BadResult("win".into())
        );
        assert_eq!(
            err(&format!("{EPD} [1.0")),
            LineError::BadResult("[1.0".into())
        );
        assert_eq!(
            err(&format!("{EPD} [1.0] x")),
            LineError::BadScore("x".into())
        );
        assert_eq!(
            err(&format!("{EPD} [NaN]")),
            LineError::BadResult("NaN".into())
        );
        assert!(matches!(
            err("8/8/8 w - - | 0 | 0.5"),
            LineError::BadFen { .. }
        ));
        assert!(matches!(
            err(&format!("{FEN} extra | 0 | 0.5")),
            LineError::BadFen { .. }
        ));
        assert!(matches!(
            err("8/8/8/8/8/8/8/8 w - - 0 1 | 0 | 0.5"),
            LineError::IllegalPosition { .. }
        ));
        assert!(matches!(
            err("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - [0.5]"),
            LineError::BadFen { .. }
        ));
    }

    #[test]
    fn the_reader_numbers_lines_and_goes_on() {
        let text = format!(
            "# header\n{FEN} | 3 | 1.0\n\n{EPD} [7]\n{EPD} c9 \"0-1\";\r\n{FEN} | x | 0.5\n"
        );
        let (good, bad) = read_text(&text);
        assert_eq!(good.len(), 2);
        let lines: Vec<usize> = bad.iter().map(|e| e.line).collect();
        assert_eq!(lines, vec![4, 6]);
        assert_eq!(
            bad[0].to_string(),
            "line 4: bad result \"7\" (expected 1-0, 0-1, 1/2-1/2, 1.0, 0.5 or 0.0)"
        );
        // Bytes that are not UTF-8 are an error on their line, not a panic.
        let bytes = [FEN.as_bytes(), b" | 0 | 0.5\n\xff\xfe\n"].concat();
        let items: Vec<_> = Reader::new(&bytes[..]).collect();
        assert!(items[0].is_ok());
        assert_eq!(items[1].as_ref().unwrap_err().kind, LineError::NotUtf8);
    }

    #[test]
    fn no_line_panics() {
        // Fragments of every form, cut and glued at random: each parses or is an error.
        let pieces = [
            "|", "[", "]", "c9", "\"", ";", "1-0", "0.5", " ", "-", "8/", "w", "KQkq", "é", "9",
        ];
        let mut rng = crate::openings::SplitMix64(5);
        for _ in 0..20_000 {
            let n = rng.below(12);
            let line: String = (0..n).map(|_| pieces[rng.below(pieces.len())]).collect();
            let _ = parse_line(&line);
            let _ = parse_line(&format!("{EPD} {line}"));
        }
    }
}
