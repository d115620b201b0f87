//! The spread of a data set over game phase: how many positions have each number of pieces
//! (kings and pawns included, 2 to 32), how many have at most
//! [`TABLEBASE_PIECES`] (the Syzygy range), and how many are endgames the evaluation judges
//! by rule ([`crate::eval::endgame::lookup`]).
//!
//! Why it is reported and not steered: the endgame terms are fitted only on the endgames the
//! games reach, so the data must keep them in the proportion play produces them. The report
//! shows that they are there (and that no filter removed them), per run and per directory.

use std::fmt::Write as _;

use shakmaty::{Chess, Position};

use crate::eval::endgame::lookup;

/// Pieces (kings included) up to which a position is in the range of 5-piece Syzygy tables.
///
/// ```
/// assert_eq!(minkowski::datagen::spread::TABLEBASE_PIECES, 5);
/// ```
pub const TABLEBASE_PIECES: usize = 5;

/// Counts of positions by piece count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spread {
    /// `by_pieces[n]`: positions with `n` pieces on the board (kings and pawns included).
    pub by_pieces: [u64; 33],
    /// Positions the evaluation's endgame registry recognises (KPK, KBNK, KvP...).
    pub known_endgames: u64,
}

impl Default for Spread {
    fn default() -> Spread {
        Spread {
            by_pieces: [0; 33],
            known_endgames: 0,
        }
    }
}

impl Spread {
    /// Count `pos`.
    pub fn add(&mut self, pos: &Chess) {
        let board = pos.board();
        let pieces = board.occupied().count().min(32);
        self.by_pieces[pieces] += 1;
        if lookup(board).is_some() {
            self.known_endgames += 1;
        }
    }

    /// Add another spread's counts.
    pub fn merge(&mut self, other: &Spread) {
        for (a, b) in self.by_pieces.iter_mut().zip(other.by_pieces) {
            *a += b;
        }
        self.known_endgames += other.known_endgames;
    }

    /// Positions counted.
    #[must_use]
    pub fn total(&self) -> u64 {
        self.by_pieces.iter().sum()
    }

    /// Positions with at most [`TABLEBASE_PIECES`] pieces.
    #[must_use]
    pub fn tablebase(&self) -> u64 {
        self.by_pieces[..=TABLEBASE_PIECES].iter().sum()
    }

    /// The report: one line per piece count present, with its share and a bar, then the
    /// phase bands and the endgame counts.
    ///
    /// ```
    /// use minkowski::datagen::spread::Spread;
    /// use shakmaty::{CastlingMode, Chess, fen::Fen};
    /// let mut s = Spread::default();
    /// s.add(&Chess::default());
    /// let kpk: Chess = "8/8/8/4k3/8/4P3/8/4K3 w - - 0 1".parse::<Fen>().unwrap()
    ///     .into_position(CastlingMode::Standard).unwrap();
    /// s.add(&kpk);
    /// assert_eq!((s.total(), s.tablebase(), s.known_endgames), (2, 1, 1));
    /// let text = s.report();
    /// assert!(text.contains("32 pieces:          1  50.0%"), "{text}");
    /// assert!(text.contains("<= 5 pieces (tablebase range): 1 (50.0%)"), "{text}");
    /// ```
    #[must_use]
    pub fn report(&self) -> String {
        let total = self.total();
        let share = |n: u64| 100.0 * n as f64 / total.max(1) as f64;
        let mut text = format!("spread by piece count ({total} positions):\n");
        let widest = self.by_pieces.iter().copied().max().unwrap_or(0).max(1);
        for (pieces, &n) in self.by_pieces.iter().enumerate() {
            if n == 0 {
                continue;
            }
            // A bar of up to 40 characters, proportional to the largest count.
            let bar = "#".repeat(((n * 40).div_ceil(widest)) as usize);
            let _ = writeln!(text, "{pieces:2} pieces: {n:10} {:5.1}% {bar}", share(n));
        }
        let band = |low: usize, high: usize| self.by_pieces[low..=high].iter().sum::<u64>();
        for (name, low, high) in [
            ("opening/middlegame (26-32)", 26, 32),
            ("middlegame (16-25)", 16, 25),
            ("endgame (6-15)", 6, 15),
        ] {
            let n = band(low, high);
            let _ = writeln!(text, "{name}: {n} ({:.1}%)", share(n));
        }
        let _ = writeln!(
            text,
            "<= {TABLEBASE_PIECES} pieces (tablebase range): {} ({:.1}%)",
            self.tablebase(),
            share(self.tablebase())
        );
        let _ = writeln!(
            text,
            "known endgames (the evaluation's endgame rules): {} ({:.1}%)",
            self.known_endgames,
            share(self.known_endgames)
        );
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .expect("FEN")
            .into_position(CastlingMode::Standard)
            .expect("legal")
    }

    #[test]
    fn counts_by_pieces_and_merges() {
        let mut a = Spread::default();
        a.add(&Chess::default());
        a.add(&pos("8/8/8/4k3/8/8/8/KR6 w - - 0 1")); // KRK: 3 pieces, a rule endgame
        a.add(&pos("r3k3/8/8/8/8/8/8/R3K2R w - - 0 1")); // 5 pieces, no rule
        let mut b = Spread::default();
        b.add(&pos("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1")); // 18
        b.merge(&a);
        assert_eq!(b.total(), 4);
        assert_eq!((b.by_pieces[3], b.by_pieces[5], b.by_pieces[18]), (1, 1, 1));
        assert_eq!(b.by_pieces[32], 1);
        assert_eq!(b.tablebase(), 2);
        assert_eq!(b.known_endgames, 1);
        let text = b.report();
        assert!(text.contains("middlegame (16-25): 1 (25.0%)"), "{text}");
        assert!(
            !text.contains(" 4 pieces:"),
            "absent counts are not listed: {text}"
        );
    }

    #[test]
    fn an_empty_spread_reports_without_dividing_by_zero() {
        let text = Spread::default().report();
        assert!(
            text.contains("(0 positions)") && text.contains(": 0 (0.0%)"),
            "{text}"
        );
    }
}
