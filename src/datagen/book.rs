//! Opening books for self-play: EPD/FEN lines (read by [`crate::openings::parse_book`]) or
//! PGN games, whose main line's final position is the opening.
//!
//! ```
//! use minkowski::datagen::book::parse;
//! let pgn = "[Event \"one\"]\n\n{ a comment } 1. e4 e5 2. Nf3 (2. f4 exf4) Nc6 *\n\n1. d4 d5 1/2-1/2\n";
//! let book = parse(pgn);
//! assert_eq!(book.positions.len(), 2);
//! assert!(book.skipped.is_empty());
//! let epd = parse("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n");
//! assert_eq!(epd.positions.len(), 1);
//! ```

use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::{CastlingMode, Chess, Position};

use crate::openings::{Book, BookError, parse_book};

/// The positions of a book in either form: PGN when the first line that is not blank or a `#`
/// comment starts with `[` (a tag) or `1.` (move text), EPD/FEN lines otherwise.
#[must_use]
pub fn parse(text: &str) -> Book {
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'));
    match first {
        Some(l) if l.starts_with('[') || l.starts_with("1.") => parse_pgn(text),
        _ => parse_book(text),
    }
}

/// One PGN game being read.
struct Game {
    /// Where the game's position stands, or why it was given up.
    state: Result<Chess, BookError>,
    /// Whether any move or tag was read (an empty game is not an opening).
    started: bool,
    /// The line where the game started.
    line: usize,
}

impl Game {
    fn new(line: usize) -> Game {
        Game {
            state: Ok(Chess::default()),
            started: false,
            line,
        }
    }
}

/// The end positions of the PGN games in `text` (the main line; comments, variations, NAGs and
/// move numbers are skipped; a `[FEN "..."]` tag sets the start). A game with an unreadable
/// move or FEN is skipped with its line.
///
/// ```
/// use minkowski::datagen::book::parse_pgn;
/// let book = parse_pgn("1. e4 e5 2. Nf3 *\n\n1. e4 Ke2 *\n");
/// assert_eq!(book.positions.len(), 1);
/// assert_eq!(book.skipped[0].line, 3);
/// ```
#[must_use]
pub fn parse_pgn(text: &str) -> Book {
    let mut book = Book::default();
    let mut game = Game::new(1);
    let mut in_tags = false;
    // Nesting of `{}` comments (depth 0 or 1) and `()` variations.
    let (mut comment, mut variation) = (false, 0usize);
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim();
        if !comment && variation == 0 {
            if trimmed.starts_with('%') {
                continue; // escape line
            }
            if trimmed.starts_with('[') {
                // A tag section after move text starts a new game.
                if !in_tags && game.started {
                    finish(&mut book, std::mem::replace(&mut game, Game::new(line)));
                }
                if !game.started {
                    game.line = line;
                }
                in_tags = true;
                game.started = true;
                read_tag(trimmed, line, &mut game);
                continue;
            }
        }
        in_tags = false;
        for token in tokens(raw, &mut comment, &mut variation) {
            if matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*") {
                finish(&mut book, std::mem::replace(&mut game, Game::new(line + 1)));
                continue;
            }
            if !game.started {
                game.line = line;
                game.started = true;
            }
            play_token(token, line, &mut game);
        }
    }
    finish(&mut book, game);
    book
}

/// The move-text tokens of a line outside comments and variations (state carried across lines).
fn tokens<'a>(line: &'a str, comment: &mut bool, variation: &mut usize) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices() {
        let open = !*comment && *variation == 0;
        let separator = c.is_whitespace() || matches!(c, '{' | '}' | '(' | ')' | ';');
        if separator && let Some(s) = start.take() {
            out.push(&line[s..i]);
        }
        match c {
            ';' if open => return out, // a comment to the end of the line
            '{' if !*comment => *comment = true,
            '}' if *comment => *comment = false,
            '(' if !*comment => *variation += 1,
            ')' if !*comment => *variation = variation.saturating_sub(1),
            _ if separator || !open => {}
            _ => {
                if start.is_none() {
                    start = Some(i);
                }
            }
        }
    }
    if let Some(s) = start {
        out.push(&line[s..]);
    }
    out
}

fn read_tag(tag: &str, line: usize, game: &mut Game) {
    let inner = tag.trim_start_matches('[').trim_end_matches(']').trim();
    let Some((name, value)) = inner.split_once(char::is_whitespace) else {
        return;
    };
    if name != "FEN" {
        return;
    }
    let value = value.trim().trim_matches('"');
    let error = |problem: String| BookError { line, problem };
    game.state = match value.parse::<Fen>() {
        Ok(fen) => fen
            .into_position(CastlingMode::Chess960)
            .map_err(|e| error(format!("FEN tag: not a legal position: {e}"))),
        Err(e) => Err(error(format!("FEN tag: not a FEN: {e}"))),
    };
}

/// Play one move-text token (a move; move numbers, NAGs and annotations are skipped).
fn play_token(token: &str, line: usize, game: &mut Game) {
    let Ok(pos) = &mut game.state else {
        return;
    };
    // "12." or "12..." alone, or glued to the move ("12.e4"); not the zeros of "0-0".
    let digits = token.bytes().take_while(u8::is_ascii_digit).count();
    let token = match token[digits..].strip_prefix('.') {
        Some(rest) if digits > 0 => rest.trim_start_matches('.'),
        _ => token,
    };
    let token = token.trim_end_matches(['!', '?']);
    if token.is_empty() || token.starts_with('$') {
        return;
    }
    // Castling written with zeros, as some programs do.
    let ascii = if token.starts_with("0-0") {
        token.replace('0', "O")
    } else {
        token.to_owned()
    };
    let played = San::from_ascii(ascii.as_bytes())
        .map_err(|e| e.to_string())
        .and_then(|san| san.to_move(pos).map_err(|e| e.to_string()));
    match played {
        Ok(m) => pos.play_unchecked(m),
        Err(e) => {
            game.state = Err(BookError {
                line,
                problem: format!("move {token:?}: {e}"),
            });
        }
    }
}

fn finish(book: &mut Book, game: Game) {
    if !game.started {
        return;
    }
    match game.state {
        Ok(pos) if pos.is_game_over() => book.skipped.push(BookError {
            line: game.line,
            problem: "the game is over in its final position".to_owned(),
        }),
        Ok(pos) => book.positions.push(pos),
        Err(e) => book.skipped.push(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::EnPassantMode;

    fn fen(pos: &Chess) -> String {
        Fen::from_position(pos, EnPassantMode::Legal).to_string()
    }

    #[test]
    fn the_shared_book_style_reads() {
        let pgn = "[Event \"opening 1\"]\n[Result \"*\"]\n\n{ Stockfish: +7 cp } 1. h3 h5 2. c4 b6 \
                   3. b4 a6 4. e4 *\n\n[Event \"opening 2\"]\n[Result \"*\"]\n\n1. Nc3 b5 2. f3 d6 *\n";
        let book = parse(pgn);
        assert!(book.skipped.is_empty(), "{:?}", book.skipped);
        assert_eq!(
            fen(&book.positions[0]),
            "rnbqkbnr/2ppppp1/pp6/7p/1PP1P3/7P/P2P1PP1/RNBQKBNR b KQkq - 0 4"
        );
        assert_eq!(book.positions.len(), 2);
    }

    #[test]
    fn fen_tags_numbers_and_annotations() {
        let pgn = "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1.e4! $1 Kd7 2. Kd2 ; rest\n*\n";
        let book = parse(pgn);
        assert_eq!(fen(&book.positions[0]), "8/3k4/8/8/4P3/8/3K4/8 b - - 2 2");
        // Multi-line comments and nested variations.
        let pgn = "1. e4 { a\ncomment (1. d4) } e5 (1... c5 (1... e6 2. d4) 2. Nf3) 2. Nf3 *";
        assert_eq!(parse_pgn(pgn).positions.len(), 1);
    }

    #[test]
    fn bad_games_are_skipped_with_their_line() {
        let pgn =
            "[Event \"a\"]\n1. e4 e5 *\n\n[Event \"b\"]\n[FEN \"nonsense\"]\n1. e4 *\n\n1. e5 *\n";
        let book = parse(pgn);
        assert_eq!(book.positions.len(), 1);
        let lines: Vec<usize> = book.skipped.iter().map(|e| e.line).collect();
        assert_eq!(lines, vec![5, 8]);
        assert!(
            book.skipped[1].problem.contains("e5"),
            "{}",
            book.skipped[1]
        );
    }
}
