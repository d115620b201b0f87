//! Distinct positions: every position written in a run, and in the files a run continues or
//! is told to avoid, is known by its Zobrist key; a game's positions already known are dropped
//! before the game is written.
//!
//! Why: cheap games from a few thousand openings meet the same positions again (the same
//! early middlegames, the same simple endgames). A position written twice counts twice in the
//! fit and, when its copies fall on both sides of the validation split, leaks the training
//! set into the validation loss. The key is the position alone (pieces, side to move,
//! castling rights, a capturable en-passant square), not the move counters: the evaluation
//! does not see those either.
//!
//! 64-bit keys: two distinct positions share one with probability about n² / 2⁶⁵, some
//! 10⁻⁷ for two million positions, and a collision only drops one position.

use std::collections::HashSet;

use shakmaty::fen::Fen;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

use super::play::Game;

/// The key by which positions are told apart.
///
/// ```
/// use minkowski::datagen::dedup::position_key;
/// use shakmaty::{CastlingMode, Chess, fen::Fen};
/// let at = |f: &str| -> Chess { f.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap() };
/// // The move counters do not matter; the side to move does.
/// let a = position_key(&at("8/8/8/4k3/8/8/8/KR6 w - - 0 1"));
/// assert_eq!(a, position_key(&at("8/8/8/4k3/8/8/8/KR6 w - - 7 40")));
/// assert_ne!(a, position_key(&at("8/8/8/4k3/8/8/8/KR6 b - - 0 1")));
/// ```
#[must_use]
pub fn position_key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// The keys of the positions seen so far.
#[derive(Clone, Debug, Default)]
pub struct Seen {
    keys: HashSet<u64>,
}

impl Seen {
    /// An empty set.
    #[must_use]
    pub fn new() -> Seen {
        Seen::default()
    }

    /// Distinct positions seen.
    #[must_use]
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether nothing was seen yet.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Record `pos`; `true` when it is new.
    pub fn insert(&mut self, pos: &Chess) -> bool {
        self.keys.insert(position_key(pos))
    }

    /// Drop from `game` the samples whose positions were seen before (in this game too),
    /// record the others and hand each of them to `on_new`; returns how many were dropped. A
    /// sample whose FEN does not parse (never the case for datagen's own) is dropped as well:
    /// it could not be keyed.
    ///
    /// ```
    /// use minkowski::datagen::dedup::Seen;
    /// use minkowski::datagen::format::GameResult;
    /// use minkowski::datagen::play::{Game, GameEnd, Sample};
    /// let s = |fen: &str| Sample { fen: fen.to_owned(), white_score: 0 };
    /// let mut game = Game { seed: 1, index: 0, opening: String::new(), candidates: 3,
    ///     samples: vec![s("8/8/8/4k3/8/8/8/KR6 w - - 0 1"), s("8/8/8/4k3/8/8/8/KR6 w - - 3 9"),
    ///                   s("8/8/8/3k4/8/8/8/KR6 w - - 0 1")],
    ///     result: GameResult::WhiteWins, end: GameEnd::Resigned, plies: 20 };
    /// let mut seen = Seen::new();
    /// let mut new = 0;
    /// assert_eq!(seen.keep_new(&mut game, |_| new += 1), 1);
    /// assert_eq!((game.samples.len(), new), (2, 2));
    /// assert_eq!(seen.keep_new(&mut game.clone(), |_| ()), 2); // all seen now
    /// ```
    pub fn keep_new(&mut self, game: &mut Game, mut on_new: impl FnMut(&Chess)) -> usize {
        let before = game.samples.len();
        game.samples.retain(|s| {
            let Some(pos) = fen_position(&s.fen) else {
                return false;
            };
            let new = self.insert(&pos);
            if new {
                on_new(&pos);
            }
            new
        });
        before - game.samples.len()
    }
}

/// The position of a FEN, `None` if it is not a legal standard-chess position.
fn fen_position(fen: &str) -> Option<Chess> {
    fen.parse::<Fen>()
        .ok()?
        .into_position(CastlingMode::Standard)
        .ok()
}
