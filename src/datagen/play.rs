//! One self-play game: an opening (a book position plus random plies), then one search of a
//! fixed node budget per move until the game ends or is adjudicated, keeping every searched
//! position's quiet leaf (see [`super::sample`]) with its score as a candidate sample.

use std::collections::HashSet;
use std::ops::RangeInclusive;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use shakmaty::fen::Fen;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, Color, EnPassantMode, Move, Position};

use super::format::{GameResult, format_line};
use super::sample::{is_quiet_before, pv_leaf};
use super::{
    DRAW_CP, DRAW_MIN_MOVE, DRAW_MOVES, MAX_GAME_PLIES, MAX_OPENING_CP, RANDOM_PLIES_MAX,
    RANDOM_PLIES_MIN, RANDOM_PLIES_WITHOUT_BOOK, RESIGN_CP, RESIGN_MOVES,
};
use crate::openings::SplitMix64;
use crate::search::tb::Tablebases;
use crate::search::{Limits, Score, SearchControl, SearchResult, Searcher, Value};

/// How the games are played.
#[derive(Clone, Debug, Default)]
pub struct GameSettings {
    /// Nodes per move.
    pub nodes: u64,
    /// Syzygy tables for adjudication (`None`: play on into the endgame).
    pub tables: Option<Arc<Tablebases>>,
    /// Keep each searched position's quiet leaf along the search's PV ([`pv_leaf`]); when
    /// false, keep the searched position itself when it is quiet ([`is_quiet_sample`]).
    pub pv_resolution: bool,
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameEnd {
    /// The side to move is mated.
    Checkmate,
    /// The side to move has no move and is not in check.
    Stalemate,
    /// Neither side can mate.
    InsufficientMaterial,
    /// 100 plies without a capture or pawn move.
    FiftyMoves,
    /// The same position a third time.
    Repetition,
    /// Both sides scored the game decided for [`RESIGN_MOVES`] moves.
    Resigned,
    /// Both sides scored the game level for [`DRAW_MOVES`] moves.
    DrawAdjudicated,
    /// The Syzygy tables' verdict.
    Tablebase,
    /// [`MAX_GAME_PLIES`] plies played.
    MaxLength,
}

impl GameEnd {
    /// Every way a game ends, in a fixed order (for summaries).
    pub const ALL: [GameEnd; 9] = [
        GameEnd::Checkmate,
        GameEnd::Stalemate,
        GameEnd::InsufficientMaterial,
        GameEnd::FiftyMoves,
        GameEnd::Repetition,
        GameEnd::Resigned,
        GameEnd::DrawAdjudicated,
        GameEnd::Tablebase,
        GameEnd::MaxLength,
    ];

    /// A short name.
    ///
    /// ```
    /// assert_eq!(minkowski::datagen::play::GameEnd::FiftyMoves.name(), "50-move");
    /// ```
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            GameEnd::Checkmate => "mate",
            GameEnd::Stalemate => "stalemate",
            GameEnd::InsufficientMaterial => "material",
            GameEnd::FiftyMoves => "50-move",
            GameEnd::Repetition => "repetition",
            GameEnd::Resigned => "resign",
            GameEnd::DrawAdjudicated => "draw-adj",
            GameEnd::Tablebase => "syzygy",
            GameEnd::MaxLength => "max-length",
        }
    }
}

/// A kept position: its FEN and the search's score, in centipawns from White's view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The position, all six FEN fields.
    pub fen: String,
    /// The search's score from White's point of view.
    pub white_score: i32,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct Game {
    /// The run's seed.
    pub seed: u64,
    /// Which game of the run (0-based; with the seed, it fixes the whole game).
    pub index: u64,
    /// The position after the book and the random plies.
    pub opening: String,
    /// The kept positions, in game order: every candidate as [`play_game`] returns it, the
    /// chosen few after the runner's sampling.
    pub samples: Vec<Sample>,
    /// How many candidate positions the game had before sampling.
    pub candidates: usize,
    /// How the game ended, from White's view.
    pub result: GameResult,
    /// Why it ended.
    pub end: GameEnd,
    /// Plies searched and played.
    pub plies: u32,
}

impl Game {
    /// The game's lines in the data format, each ending in a newline (empty when no position
    /// was kept).
    #[must_use]
    pub fn lines(&self) -> String {
        let mut text = String::new();
        for s in &self.samples {
            text.push_str(&format_line(&s.fen, s.white_score, self.result));
            text.push('\n');
        }
        text
    }
}

/// What [`play_game`] came to.
#[derive(Clone, Debug)]
pub enum Played {
    /// The game (its `index` is 0: the caller numbers games).
    Finished(Game),
    /// The first search scored the opening further than [`MAX_OPENING_CP`] from equal.
    Unbalanced,
    /// `control.stop` was raised: the game is abandoned.
    Stopped,
}

/// The random plies played by default: [`RANDOM_PLIES_MIN`]..=[`RANDOM_PLIES_MAX`] after a
/// book position, [`RANDOM_PLIES_WITHOUT_BOOK`] from the start position.
///
/// ```
/// use minkowski::datagen::play::default_random_plies;
/// assert_eq!(default_random_plies(false), 4..=8);
/// assert_eq!(default_random_plies(true), 10..=10);
/// ```
#[must_use]
pub fn default_random_plies(without_book: bool) -> RangeInclusive<u32> {
    if without_book {
        RANDOM_PLIES_WITHOUT_BOOK..=RANDOM_PLIES_WITHOUT_BOOK
    } else {
        RANDOM_PLIES_MIN..=RANDOM_PLIES_MAX
    }
}

/// A book position (the start position when `book` is empty) plus a number of random legal
/// plies drawn uniformly from `plies`. `None` when the plies end the game.
///
/// ```
/// use minkowski::datagen::play::random_opening;
/// use minkowski::openings::SplitMix64;
/// use shakmaty::Position;
/// let pos = random_opening(&[], 10..=10, &mut SplitMix64(1)).unwrap();
/// assert_eq!(pos.fullmoves().get(), 6); // ten plies from the start
/// let pos = random_opening(&[], 0..=0, &mut SplitMix64(1)).unwrap();
/// assert_eq!(pos, shakmaty::Chess::default());
/// ```
#[must_use]
pub fn random_opening(
    book: &[Chess],
    plies: RangeInclusive<u32>,
    rng: &mut SplitMix64,
) -> Option<Chess> {
    let (low, high) = (*plies.start(), (*plies.end()).max(*plies.start()));
    // One draw for the count only when there is a choice, and the count before the book
    // position: the openings of a seed are those of earlier versions with the default plies.
    let plies = if high > low {
        low + rng.below((high - low + 1) as usize) as u32
    } else {
        low
    };
    let mut pos = if book.is_empty() {
        Chess::default()
    } else {
        book[rng.below(book.len())].clone()
    };
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        pos.play_unchecked(moves[rng.below(moves.len())]);
    }
    (!pos.is_game_over()).then_some(pos)
}

/// Play one game from `opening` with `searcher` (cleared first, so that the game depends on
/// the opening and the settings alone: a single-threaded search to a node budget is
/// deterministic).
///
/// ```
/// use minkowski::datagen::play::{GameEnd, GameSettings, Played, play_game};
/// use minkowski::search::{SearchControl, Searcher};
/// use shakmaty::{CastlingMode, Chess, fen::Fen};
/// let fen = |f: &str| -> Chess { f.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap() };
/// let settings = GameSettings { nodes: 2_000, tables: None, pv_resolution: true };
/// let (mut searcher, control) = (Searcher::new(1), SearchControl::default());
/// // A queen up is no opening to learn from.
/// let kqk = fen("8/8/8/4k3/8/8/8/KQ6 w - - 0 1");
/// assert!(matches!(play_game(&mut searcher, &kqk, &settings, &control), Played::Unbalanced));
/// // Bare kings: a draw before the first move.
/// let Played::Finished(game) = play_game(&mut searcher, &fen("8/8/8/4k3/8/8/8/K7 w - - 0 1"), &settings, &control)
/// else { unreachable!() };
/// assert_eq!((game.end, game.plies), (GameEnd::InsufficientMaterial, 0));
/// ```
pub fn play_game(
    searcher: &mut Searcher,
    opening: &Chess,
    settings: &GameSettings,
    control: &SearchControl,
) -> Played {
    searcher.clear();
    let limits = Limits {
        nodes: Some(settings.nodes.max(1)),
        ..Limits::default()
    };
    let mut pos = opening.clone();
    let mut history: Vec<Zobrist64> = Vec::new();
    let mut samples = Vec::new();
    // Leaves already kept: two plies' PVs often end in the same position.
    let mut kept: HashSet<Zobrist64> = HashSet::new();
    let mut adjudicator = Adjudicator::default();
    let mut plies = 0;
    let (result, end) = loop {
        let key = pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal);
        if let Some(over) = natural_end(&pos, &history, key) {
            break over;
        }
        if let Some(result) = tablebase_verdict(&pos, settings.tables.as_deref()) {
            break (result, GameEnd::Tablebase);
        }
        if plies >= MAX_GAME_PLIES {
            break (GameResult::Draw, GameEnd::MaxLength);
        }
        let found = searcher.search(&pos, &history, &limits, control, &mut ());
        if control.stop.load(Ordering::Relaxed) {
            return Played::Stopped;
        }
        // `natural_end` saw a legal move, so the search returns one.
        let Some(best) = found.best_move else {
            return Played::Stopped;
        };
        let white = white_view(found.score, pos.turn());
        if plies == 0 && white.abs() > MAX_OPENING_CP {
            return Played::Unbalanced;
        }
        if let Some(leaf) = candidate(&pos, best, &found, settings.pv_resolution)
            && kept.insert(leaf.zobrist_hash(EnPassantMode::Legal))
        {
            samples.push(Sample {
                fen: Fen::from_position(&leaf, EnPassantMode::Legal).to_string(),
                // The PV carries the searched position's score to its leaf.
                white_score: white,
            });
        }
        if let Some(over) = adjudicator.update(white, pos.fullmoves().get()) {
            break over;
        }
        history.push(key);
        pos.play_unchecked(best);
        plies += 1;
    };
    Played::Finished(Game {
        seed: 0,
        index: 0,
        opening: Fen::from_position(opening, EnPassantMode::Legal).to_string(),
        candidates: samples.len(),
        samples,
        result,
        end,
        plies,
    })
}

/// Whether a searched position is written: not in check, the best move neither a capture nor
/// a promotion, and a score in centipawns (not a mate or tablebase score).
///
/// ```
/// use minkowski::datagen::play::is_quiet_sample;
/// use minkowski::search::Score;
/// use shakmaty::{Chess, Position};
/// let pos = Chess::default();
/// let e4 = pos.legal_moves().into_iter().find(|m| m.to().to_string() == "e4").unwrap();
/// assert!(is_quiet_sample(&pos, e4, Score::Cp(20)));
/// assert!(!is_quiet_sample(&pos, e4, Score::Mate(5)));
/// ```
#[must_use]
pub fn is_quiet_sample(pos: &Chess, best: Move, score: Score) -> bool {
    is_centipawn_score(score) && is_quiet_before(pos, Some(&best))
}

/// Whether `score` is in centipawns: not a mate and not a tablebase win or loss.
fn is_centipawn_score(score: Score) -> bool {
    matches!(score, Score::Cp(cp) if cp.abs() < Value::TB_WIN_BOUND.0)
}

/// The position a searched position contributes as a candidate sample, if any: none for a
/// mate or tablebase score; else the quiet leaf along the PV (`pv_resolution`), or the
/// position itself when [`is_quiet_sample`].
fn candidate(pos: &Chess, best: Move, found: &SearchResult, pv_resolution: bool) -> Option<Chess> {
    if !is_centipawn_score(found.score) {
        return None;
    }
    if !pv_resolution {
        return is_quiet_sample(pos, best, found.score).then(|| pos.clone());
    }
    // The PV starts with the move played; should it not (a search that kept no PV), the move
    // alone is the line.
    let pv = if found.pv.first() == Some(&best) {
        found.pv.as_slice()
    } else {
        std::slice::from_ref(&best)
    };
    pv_leaf(pos, pv)
}

/// A score from White's point of view, in centipawns; a mate counts as [`Value::MATE`].
fn white_view(score: Score, turn: Color) -> i32 {
    let mover = match score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => Value::MATE.0,
        Score::Mate(_) => -Value::MATE.0,
    };
    turn.fold_wb(mover, -mover)
}

/// Mate, stalemate, insufficient material, the 50-move rule or a threefold repetition.
/// `history` holds the keys of the positions before `pos`, `key` is its own.
fn natural_end(
    pos: &Chess,
    history: &[Zobrist64],
    key: Zobrist64,
) -> Option<(GameResult, GameEnd)> {
    if pos.legal_moves().is_empty() {
        return Some(if pos.is_check() {
            (GameResult::won_by(!pos.turn()), GameEnd::Checkmate)
        } else {
            (GameResult::Draw, GameEnd::Stalemate)
        });
    }
    if pos.is_insufficient_material() {
        return Some((GameResult::Draw, GameEnd::InsufficientMaterial));
    }
    if pos.halfmoves() >= 100 {
        return Some((GameResult::Draw, GameEnd::FiftyMoves));
    }
    // Only positions since the last capture or pawn move can repeat.
    let reversible = (pos.halfmoves() as usize).min(history.len());
    let earlier = history[history.len() - reversible..]
        .iter()
        .filter(|&&k| k == key)
        .count();
    (earlier >= 2).then_some((GameResult::Draw, GameEnd::Repetition))
}

/// The tables' verdict on `pos` (50-move rule included: a cursed win is a draw). Probed only
/// right after a capture or pawn move, where the WDL value is exact; every position that
/// enters the tables is one, since only captures reduce the material.
fn tablebase_verdict(pos: &Chess, tables: Option<&Tablebases>) -> Option<GameResult> {
    use shakmaty_syzygy::Wdl;
    let tables = tables?;
    if pos.halfmoves() != 0
        || pos.castles().any()
        || pos.board().occupied().count() > tables.max_pieces()
    {
        return None;
    }
    Some(match tables.wdl_after_zeroing(pos)? {
        Wdl::Win => GameResult::won_by(pos.turn()),
        Wdl::Loss => GameResult::won_by(!pos.turn()),
        Wdl::CursedWin | Wdl::Draw | Wdl::BlessedLoss => GameResult::Draw,
    })
}

/// Resign and draw adjudication over the scores of consecutive plies (White's view).
#[derive(Clone, Copy, Debug, Default)]
struct Adjudicator {
    /// Plies in a row scored at least [`RESIGN_CP`] for the same side.
    decided: u32,
    /// That side: +1 White, -1 Black.
    leader: i32,
    /// Plies in a row within [`DRAW_CP`] of equal from [`DRAW_MIN_MOVE`] on.
    level: u32,
}

impl Adjudicator {
    /// Take the score of one more ply (searched at full move `fullmove`); the game's end when
    /// the scores settle it.
    fn update(&mut self, white: i32, fullmove: u32) -> Option<(GameResult, GameEnd)> {
        if white.abs() >= RESIGN_CP {
            let side = white.signum();
            self.decided = if side == self.leader {
                self.decided + 1
            } else {
                1
            };
            self.leader = side;
        } else {
            self.decided = 0;
        }
        if fullmove >= DRAW_MIN_MOVE && white.abs() <= DRAW_CP {
            self.level += 1;
        } else {
            self.level = 0;
        }
        if self.decided >= 2 * RESIGN_MOVES {
            let winner = if self.leader > 0 {
                Color::White
            } else {
                Color::Black
            };
            return Some((GameResult::won_by(winner), GameEnd::Resigned));
        }
        (self.level >= 2 * DRAW_MOVES).then_some((GameResult::Draw, GameEnd::DrawAdjudicated))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .expect("FEN")
            .into_position(CastlingMode::Standard)
            .expect("legal")
    }

    #[test]
    fn resignation_needs_both_sides_for_four_moves() {
        let mut a = Adjudicator::default();
        for _ in 0..2 * RESIGN_MOVES - 1 {
            assert_eq!(a.update(-RESIGN_CP, 20), None);
        }
        assert_eq!(
            a.update(-1500, 20),
            Some((GameResult::BlackWins, GameEnd::Resigned))
        );
        // A ply below the threshold, or a swing to the other side, starts the count again.
        let mut a = Adjudicator::default();
        for _ in 0..2 * RESIGN_MOVES - 1 {
            a.update(1200, 20);
        }
        assert_eq!(a.update(900, 20), None);
        for _ in 0..2 * RESIGN_MOVES - 1 {
            assert_eq!(a.update(1200, 20), None);
        }
        assert_eq!(a.update(-1200, 20), None);
    }

    #[test]
    fn draws_only_after_move_forty() {
        let mut a = Adjudicator::default();
        for _ in 0..4 * DRAW_MOVES {
            assert_eq!(a.update(0, DRAW_MIN_MOVE - 1), None);
        }
        for _ in 0..2 * DRAW_MOVES - 1 {
            assert_eq!(a.update(DRAW_CP, DRAW_MIN_MOVE), None);
        }
        assert_eq!(
            a.update(-3, DRAW_MIN_MOVE + 8),
            Some((GameResult::Draw, GameEnd::DrawAdjudicated))
        );
    }

    #[test]
    fn natural_ends() {
        let mated = pos("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
        let key: Zobrist64 = mated.zobrist_hash(EnPassantMode::Legal);
        assert_eq!(
            natural_end(&mated, &[], key),
            Some((GameResult::WhiteWins, GameEnd::Checkmate))
        );
        let bare = pos("8/8/4k3/8/8/3K4/8/8 w - - 0 1");
        assert_eq!(
            natural_end(&bare, &[], key).map(|e| e.1),
            Some(GameEnd::InsufficientMaterial)
        );
        let rook = pos("8/8/4k3/8/8/3K4/8/7R w - - 12 40");
        let key: Zobrist64 = rook.zobrist_hash(EnPassantMode::Legal);
        let other = Zobrist64(key.0 ^ 1);
        assert_eq!(natural_end(&rook, &[key, other, other], key), None);
        assert_eq!(
            natural_end(&rook, &[key, other, key, other], key).map(|e| e.1),
            Some(GameEnd::Repetition)
        );
        // A repetition older than the last capture does not count.
        let fresh = pos("8/8/4k3/8/8/3K4/8/7R w - - 2 40");
        assert_eq!(natural_end(&fresh, &[key, other, key, other], key), None);
        let fifty = pos("8/8/4k3/8/8/3K4/8/7R w - - 100 90");
        assert_eq!(
            natural_end(&fifty, &[], key).map(|e| e.1),
            Some(GameEnd::FiftyMoves)
        );
    }

    #[test]
    fn tablebases_adjudicate_after_a_capture() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/syzygy");
        let (tables, _) = Tablebases::open(dir);
        let krk = pos("8/8/8/4k3/8/8/8/KR6 b - - 0 1");
        assert_eq!(
            tablebase_verdict(&krk, Some(&tables)),
            Some(GameResult::WhiteWins)
        );
        let later = pos("8/8/8/4k3/8/8/8/KR6 b - - 3 5");
        assert_eq!(tablebase_verdict(&later, Some(&tables)), None);
        assert_eq!(tablebase_verdict(&krk, None), None);
        let knk = pos("8/8/8/4k3/8/8/8/KN6 b - - 0 1");
        assert_eq!(
            tablebase_verdict(&knk, Some(&tables)),
            Some(GameResult::Draw)
        );
    }

    #[test]
    fn quiet_samples_skip_checks_captures_and_promotions() {
        let p = pos("4k3/1P6/8/8/8/8/3q4/R3K3 w - - 0 1");
        let moves = p.legal_moves();
        let find = |uci: &str| {
            *moves
                .iter()
                .find(|m| m.to_uci(CastlingMode::Standard).to_string() == uci)
                .expect(uci)
        };
        // White is in check: nothing is kept.
        assert!(!is_quiet_sample(&p, find("e1d2"), Score::Cp(0)));
        let p = pos("4k3/1P6/8/8/8/8/3q4/R5K1 w - - 0 1");
        let moves = p.legal_moves();
        let find = |uci: &str| {
            *moves
                .iter()
                .find(|m| m.to_uci(CastlingMode::Standard).to_string() == uci)
                .expect(uci)
        };
        assert!(is_quiet_sample(&p, find("a1a2"), Score::Cp(-300)));
        assert!(!is_quiet_sample(&p, find("b7b8q"), Score::Cp(-300)));
        assert!(!is_quiet_sample(
            &p,
            find("a1a2"),
            Score::Cp(Value::tb_win_in(3).0)
        ));
        assert!(!is_quiet_sample(&p, find("a1a2"), Score::Mate(-4)));
    }
}
