//! Random, balanced, distinct openings for testing frameworks: what OpenBench's `genfens` command
//! asks for. Deterministic: the same book, request and build give the same openings, in the same
//! order, on every machine.
//!
//! Each opening is a book position (or the start position) followed by random legal plies. It is
//! kept when the game is not over, it is new (its first four FEN fields differ from every opening
//! kept before) and a shallow search ([`BALANCE_DEPTH`] plies with a fresh [`Searcher`] of
//! [`BALANCE_HASH_MB`] MB) scores it within [`MAX_BALANCED_CP`] centipawns of equal.
//!
//! ```
//! use minkowski::openings::{OpeningRequest, generate};
//! use minkowski::search::SearchControl;
//! use shakmaty::Chess;
//! let request = OpeningRequest { count: 3, seed: 7, plies: 4 };
//! let control = SearchControl::default();
//! let mut fens = Vec::new();
//! let made = generate(&[Chess::default()], &request, &control, |fen| fens.push(fen.to_owned()));
//! assert_eq!(made, 3);
//! let mut again = Vec::new();
//! generate(&[Chess::default()], &request, &control, |fen| again.push(fen.to_owned()));
//! assert_eq!(fens, again);
//! ```

use std::collections::HashSet;
use std::fmt;
use std::sync::atomic::Ordering;

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

use crate::search::{Limits, Score, SearchControl, Searcher};

/// Depth of the search that judges whether an opening is balanced.
///
/// ```
/// assert!(minkowski::openings::BALANCE_DEPTH >= 4);
/// ```
pub const BALANCE_DEPTH: u32 = 5;

/// Transposition table of that search, in MB (a fresh one per opening, for determinism).
///
/// ```
/// assert_eq!(minkowski::openings::BALANCE_HASH_MB, 1);
/// ```
pub const BALANCE_HASH_MB: usize = 1;

/// Largest shallow-search score, in centipawns either way, of an opening that is kept: about a
/// pawn, so that neither side starts a test game close to winning.
///
/// ```
/// assert_eq!(minkowski::openings::MAX_BALANCED_CP, 100);
/// ```
pub const MAX_BALANCED_CP: i32 = 100;

/// Random plies after the start position when there is no book (four moves each).
///
/// ```
/// assert_eq!(minkowski::openings::PLIES_WITHOUT_BOOK, 8);
/// ```
pub const PLIES_WITHOUT_BOOK: u32 = 8;

/// Random plies after a book position (the book already made the opening varied).
///
/// ```
/// assert_eq!(minkowski::openings::PLIES_AFTER_BOOK, 2);
/// ```
pub const PLIES_AFTER_BOOK: u32 = 2;

/// Candidates tried per opening asked for before giving up (random plies from a narrow book
/// can run out of new balanced positions).
const ATTEMPTS_PER_OPENING: u64 = 100;

/// What to generate.
///
/// ```
/// let request = minkowski::openings::OpeningRequest { count: 20, seed: 7, plies: 8 };
/// assert_eq!(request.count, 20);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpeningRequest {
    /// How many openings.
    pub count: usize,
    /// The seed: each seed gives its own openings.
    pub seed: u64,
    /// Random plies played after the book position.
    pub plies: u32,
}

/// Generate up to `request.count` openings from `book` (the start position if it is empty),
/// handing each one's FEN to `found` as soon as it is kept. Returns how many were made: fewer
/// than asked only when `control.stop` was set or the book ran out of new balanced positions.
///
/// ```
/// use minkowski::openings::{MAX_BALANCED_CP, OpeningRequest, generate};
/// use minkowski::search::SearchControl;
/// let request = OpeningRequest { count: 2, seed: 1, plies: 6 };
/// let mut fens = Vec::new();
/// generate(&[], &request, &SearchControl::default(), |fen| fens.push(fen.to_owned()));
/// assert_eq!(fens.len(), 2);
/// assert_ne!(fens[0], fens[1]);
/// ```
pub fn generate(
    book: &[Chess],
    request: &OpeningRequest,
    control: &SearchControl,
    mut found: impl FnMut(&str),
) -> usize {
    let start = [Chess::default()];
    let book = if book.is_empty() { &start[..] } else { book };
    let mut rng = SplitMix64(request.seed);
    let mut seen = HashSet::new();
    let mut made = 0;
    let attempts = (request.count as u64).saturating_mul(ATTEMPTS_PER_OPENING);
    for _ in 0..attempts {
        if made >= request.count || control.stop.load(Ordering::Relaxed) {
            break;
        }
        let mut pos = book[rng.below(book.len())].clone();
        for _ in 0..request.plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[rng.below(moves.len())]);
        }
        if pos.is_game_over() {
            continue;
        }
        let fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
        let key: String = fen.split(' ').take(4).collect::<Vec<_>>().join(" ");
        if seen.contains(&key) || !is_balanced(&pos, control) {
            continue;
        }
        seen.insert(key);
        found(&fen);
        made += 1;
    }
    made
}

/// Whether the shallow search scores `pos` within [`MAX_BALANCED_CP`] of equal (a stopped search
/// is not trusted: `false`).
///
/// ```
/// use minkowski::openings::is_balanced;
/// use minkowski::search::SearchControl;
/// use shakmaty::{CastlingMode, Chess, fen::Fen};
/// assert!(is_balanced(&Chess::default(), &SearchControl::default()));
/// let queen_up: Chess = "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
///     .parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
/// assert!(!is_balanced(&queen_up, &SearchControl::default()));
/// ```
#[must_use]
pub fn is_balanced(pos: &Chess, control: &SearchControl) -> bool {
    let limits = Limits {
        depth: Some(BALANCE_DEPTH),
        ..Limits::default()
    };
    let result = Searcher::new(BALANCE_HASH_MB).search(pos, &[], &limits, control, &mut ());
    !control.stop.load(Ordering::Relaxed)
        && matches!(result.score, Score::Cp(cp) if cp.abs() <= MAX_BALANCED_CP)
}

/// A line of a book that is not a position.
///
/// ```
/// let book = minkowski::openings::parse_book("8/8/8/8 w - -\n");
/// assert_eq!(book.skipped[0].line, 1);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookError {
    /// 1-based line number.
    pub line: usize,
    /// Why it is not a position.
    pub problem: String,
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.problem)
    }
}

impl std::error::Error for BookError {}

/// An opening book: its positions, and the lines that were not positions (skipped, so that one
/// odd line does not stop a test run).
#[derive(Clone, Debug, Default)]
pub struct Book {
    /// The positions, in file order.
    pub positions: Vec<Chess>,
    /// The lines that were skipped, and why.
    pub skipped: Vec<BookError>,
}

/// The positions of an opening book: one per line, as a FEN or an EPD record (its first four
/// fields, plus the move counters when they follow); blank lines and `#` comments are ignored.
/// X-FEN and Shredder-FEN castling are understood (Chess960 books work).
///
/// ```
/// use minkowski::openings::parse_book;
/// let book = "# two openings\n\
///     rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n\
///     rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - id \"open\";\n\
///     not a position\n";
/// let book = parse_book(book);
/// assert_eq!(book.positions.len(), 2);
/// assert_eq!(book.skipped.len(), 1);
/// assert_eq!(book.skipped[0].line, 4);
/// ```
#[must_use]
pub fn parse_book(text: &str) -> Book {
    let mut book = Book::default();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let mut fields: Vec<&str> = words.iter().take(4).copied().collect();
        let counters = &words[fields.len()..];
        if counters.len() >= 2 && counters[..2].iter().all(|w| w.parse::<u32>().is_ok()) {
            fields.extend_from_slice(&counters[..2]);
        }
        let error = |problem: String| BookError {
            line: i + 1,
            problem,
        };
        let parsed = match fields.join(" ").parse::<Fen>() {
            Ok(fen) => fen
                .into_position(CastlingMode::Chess960)
                .map_err(|e| error(format!("not a legal position: {e}"))),
            Err(e) => Err(error(format!("not a FEN: {e}"))),
        };
        match parsed {
            Ok(pos) => book.positions.push(pos),
            Err(e) => book.skipped.push(e),
        }
    }
    book
}

/// SplitMix64 (Steele, Lea and Flood, 2014): a tiny, well-mixed generator, enough to pick moves.
/// Public so that other seeded tools (self-play data generation) draw from the same generator.
///
/// ```
/// use minkowski::openings::SplitMix64;
/// let mut rng = SplitMix64(0);
/// assert_eq!(rng.next(), 0xE220_A839_7B1D_CDAF);
/// assert!(rng.below(10) < 10);
/// ```
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64 random bits.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_matches_the_reference_sequence() {
        // First outputs of SplitMix64 seeded with 0 (the published reference values).
        let mut rng = SplitMix64(0);
        assert_eq!(rng.next(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn a_stopped_generation_makes_nothing() {
        let control = SearchControl::default();
        control.stop.store(true, Ordering::Relaxed);
        let request = OpeningRequest {
            count: 5,
            seed: 3,
            plies: 8,
        };
        assert_eq!(generate(&[], &request, &control, |_| {}), 0);
    }
}
