//! The tables themselves: loading from a path list, WDL and DTZ probes with every failure turned
//! into "no answer", and the ranking of root moves.

use std::fmt;
use std::path::{Path, PathBuf};

use shakmaty::{Chess, Move, Position};
use shakmaty_syzygy::{Dtz, MaybeRounded, Tablebase, Wdl};

use super::verdict::TbVerdict;

/// A problem met while loading tables. Loading goes on past it: what could be read is used.
///
/// ```
/// use minkowski::search::tb::Tablebases;
/// let (tables, problems) = Tablebases::open("/no/such/folder");
/// assert!(tables.is_empty());
/// assert!(problems[0].to_string().contains("/no/such/folder"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TbLoadError {
    /// A folder of the path list could not be read.
    Folder {
        /// The folder.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// A table file was refused (unreadable, or its size shows it is damaged).
    File {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
}

impl fmt::Display for TbLoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TbLoadError::Folder { path, reason } => {
                write!(f, "SyzygyPath: cannot use '{}': {reason}", path.display())
            }
            TbLoadError::File { path, reason } => {
                write!(f, "SyzygyPath: skipped '{}': {reason}", path.display())
            }
        }
    }
}

impl std::error::Error for TbLoadError {}

/// A set of Syzygy tables from one or more folders.
///
/// Files are opened lazily, on the first probe that needs them; a missing, unreadable or corrupt
/// table makes that probe answer `None` (the search then searches as without tables).
///
/// ```
/// use minkowski::search::tb::Tablebases;
/// let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/syzygy");
/// let (tables, problems) = Tablebases::open(dir);
/// assert!(problems.is_empty());
/// assert_eq!((tables.files(), tables.max_pieces()), (70, 4));
/// ```
pub struct Tablebases {
    inner: Tablebase<Chess>,
    files: usize,
}

impl fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tablebases")
            .field("files", &self.files)
            .field("max_pieces", &self.max_pieces())
            .finish()
    }
}

/// A position's value in the tables, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TbOutcome {
    /// Win, draw or loss, with the 50-move rule's cursed wins and blessed losses.
    pub wdl: Wdl,
    /// Distance to zeroing in plies (signed like `wdl`; 0 for a draw), when the DTZ table was
    /// there.
    pub dtz: Option<i32>,
    /// Whether the table stores this DTZ rounded: the true distance may be one ply longer.
    pub rounded: bool,
}

/// What the tables say about one legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveProbe {
    /// The move.
    pub mv: Move,
    /// The outcome for the side playing it (checkmate is a win with DTZ 1).
    pub outcome: TbOutcome,
}

/// A position and all its legal moves, as `minkowski probe` shows them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionProbe {
    /// The position itself (`None` when it is not in the tables).
    pub position: Option<TbOutcome>,
    /// Every legal move that the tables decide, best first.
    pub moves: Vec<MoveProbe>,
}

impl Tablebases {
    /// Tables from every folder in `paths`, separated like the system's `PATH` (`:` on Unix,
    /// `;` on Windows). An empty string (or `<empty>`, the UCI convention) means no tables.
    /// Never fails: returns what it could load and each problem met.
    ///
    /// ```
    /// use minkowski::search::tb::Tablebases;
    /// let (none, problems) = Tablebases::open("<empty>");
    /// assert!(none.is_empty() && problems.is_empty());
    /// ```
    #[must_use]
    pub fn open(paths: &str) -> (Tablebases, Vec<TbLoadError>) {
        let mut tables = Tablebases {
            inner: Tablebase::new(),
            files: 0,
        };
        let mut problems = Vec::new();
        let paths = paths.trim();
        if paths.is_empty() || paths == "<empty>" {
            return (tables, problems);
        }
        for path in std::env::split_paths(paths) {
            if path.as_os_str().is_empty() {
                continue;
            }
            tables.add_folder(&path, &mut problems);
        }
        (tables, problems)
    }

    /// Add every table file of `folder`, file by file, so that one bad file costs only itself.
    fn add_folder(&mut self, folder: &Path, problems: &mut Vec<TbLoadError>) {
        let entries = match std::fs::read_dir(folder) {
            Ok(entries) => entries,
            Err(e) => {
                problems.push(TbLoadError::Folder {
                    path: folder.to_path_buf(),
                    reason: e.to_string(),
                });
                return;
            }
        };
        let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for path in paths {
            match self.inner.add_file(&path) {
                Ok(()) => self.files += 1,
                // Not a table file by its name: other files may live in the folder.
                Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => {}
                Err(e) => problems.push(TbLoadError::File {
                    path,
                    reason: e.to_string(),
                }),
            }
        }
    }

    /// How many table files were found.
    ///
    /// ```
    /// assert_eq!(minkowski::search::tb::Tablebases::open("").0.files(), 0);
    /// ```
    #[must_use]
    pub fn files(&self) -> usize {
        self.files
    }

    /// Most pieces (kings included) of any table found; 0 without tables.
    ///
    /// ```
    /// assert_eq!(minkowski::search::tb::Tablebases::open("").0.max_pieces(), 0);
    /// ```
    #[must_use]
    pub fn max_pieces(&self) -> usize {
        self.inner.max_pieces()
    }

    /// Whether no table was found.
    ///
    /// ```
    /// assert!(minkowski::search::tb::Tablebases::open("").0.is_empty());
    /// ```
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.files == 0
    }

    /// WDL of `pos`, exact when `pos` was reached by a capture or pawn move (otherwise the
    /// halfmove clock is ignored). `None` when the position is not in the tables or a table is
    /// missing or unreadable.
    ///
    /// ```
    /// use minkowski::search::tb::Tablebases;
    /// use shakmaty::{CastlingMode, Chess, fen::Fen};
    /// use shakmaty_syzygy::Wdl;
    /// let (tables, _) = Tablebases::open(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/syzygy"));
    /// let krk: Chess = "8/8/8/4k3/8/8/8/KR6 w - - 0 1".parse::<Fen>().unwrap()
    ///     .into_position(CastlingMode::Standard).unwrap();
    /// assert_eq!(tables.wdl_after_zeroing(&krk), Some(Wdl::Win));
    /// assert_eq!(tables.wdl_after_zeroing(&Chess::default()), None);
    /// ```
    #[must_use]
    pub fn wdl_after_zeroing(&self, pos: &Chess) -> Option<Wdl> {
        if !self.fits(pos) {
            return None;
        }
        self.inner.probe_wdl_after_zeroing(pos).ok()
    }

    /// WDL and DTZ of `pos` with its halfmove clock (DTZ needs the `.rtbz` tables; without them
    /// `dtz` is `None` and `wdl` is the after-zeroing value).
    ///
    /// ```
    /// use minkowski::search::tb::Tablebases;
    /// use shakmaty::{CastlingMode, Chess, fen::Fen};
    /// use shakmaty_syzygy::Wdl;
    /// let (tables, _) = Tablebases::open(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/syzygy"));
    /// let mate_in_1: Chess = "k7/8/1K6/8/8/8/8/7R w - - 0 1".parse::<Fen>().unwrap()
    ///     .into_position(CastlingMode::Standard).unwrap();
    /// let o = tables.outcome(&mate_in_1).unwrap();
    /// assert_eq!((o.wdl, o.dtz), (Wdl::Win, Some(1)));
    /// ```
    #[must_use]
    pub fn outcome(&self, pos: &Chess) -> Option<TbOutcome> {
        if !self.fits(pos) {
            return None;
        }
        if pos.is_checkmate() {
            return Some(TbOutcome {
                wdl: Wdl::Loss,
                dtz: Some(-1),
                rounded: false,
            });
        }
        match self.inner.probe_dtz(pos) {
            Ok(dtz) => {
                let rounded = matches!(dtz, MaybeRounded::Rounded(_));
                let dtz = dtz.ignore_rounding();
                let wdl = self
                    .inner
                    .probe_wdl(pos)
                    .map_or_else(|_| Wdl::from_dtz(dtz), |w| w.after_zeroing());
                Some(TbOutcome {
                    wdl,
                    dtz: Some(dtz.0),
                    rounded,
                })
            }
            Err(_) => self
                .inner
                .probe_wdl_after_zeroing(pos)
                .ok()
                .map(|wdl| TbOutcome {
                    wdl,
                    dtz: None,
                    rounded: false,
                }),
        }
    }

    /// What each legal move of `pos` leads to, for the side playing it, best first: wins (the
    /// quickest zeroing first), then draws, then losses (the slowest first). `None` unless
    /// every move could be probed.
    ///
    /// ```
    /// use minkowski::search::tb::Tablebases;
    /// use shakmaty::{CastlingMode, Chess, fen::Fen};
    /// use shakmaty_syzygy::Wdl;
    /// let (tables, _) = Tablebases::open(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/syzygy"));
    /// let pos: Chess = "k7/8/1K6/8/8/8/8/7R w - - 0 1".parse::<Fen>().unwrap()
    ///     .into_position(CastlingMode::Standard).unwrap();
    /// let moves = tables.probe_moves(&pos).unwrap();
    /// assert_eq!(moves[0].mv.to_string(), "Rh1-h8"); // mate
    /// assert_eq!((moves[0].outcome.wdl, moves[0].outcome.dtz), (Wdl::Win, Some(1)));
    /// ```
    #[must_use]
    pub fn probe_moves(&self, pos: &Chess) -> Option<Vec<MoveProbe>> {
        let mut out = Vec::new();
        for mv in pos.legal_moves() {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            let outcome = if child.is_checkmate() {
                TbOutcome {
                    wdl: Wdl::Win,
                    dtz: Some(1),
                    rounded: false,
                }
            } else if child.halfmoves() == 0 {
                let wdl = -self.wdl_after_zeroing(&child)?;
                let dtz = self
                    .outcome(&child)
                    .and_then(|o| o.dtz)
                    .map(|_| before_zeroing(wdl));
                TbOutcome {
                    wdl,
                    dtz,
                    rounded: false,
                }
            } else {
                let theirs = self.outcome(&child)?;
                let dtz = theirs.dtz.map(|d| match d {
                    d if d > 0 => -(d + 1),
                    d if d < 0 => -d + 1,
                    _ => 0,
                });
                TbOutcome {
                    wdl: -theirs.wdl,
                    dtz,
                    rounded: theirs.rounded,
                }
            };
            out.push(MoveProbe { mv, outcome });
        }
        out.sort_by_key(|m| std::cmp::Reverse(sort_key(m.outcome)));
        Some(out)
    }

    /// Both the position and its moves, for `minkowski probe`.
    ///
    /// ```
    /// use minkowski::search::tb::Tablebases;
    /// use shakmaty::Chess;
    /// let (tables, _) = Tablebases::open(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/syzygy"));
    /// let start = tables.probe_position(&Chess::default());
    /// assert!(start.position.is_none() && start.moves.is_empty()); // 32 pieces: not in the tables
    /// ```
    #[must_use]
    pub fn probe_position(&self, pos: &Chess) -> PositionProbe {
        PositionProbe {
            position: self.outcome(pos),
            moves: self.probe_moves(pos).unwrap_or_default(),
        }
    }

    /// The root moves worth searching: with DTZ, those that keep the best outcome reachable
    /// under the 50-move rule (every win that still zeroes in time, every draw, or the
    /// longest-resisting losses); with WDL only, those of the best WDL. `None` (search every
    /// move) when the position is not in the tables or a probe fails.
    ///
    /// ```
    /// use minkowski::search::tb::Tablebases;
    /// use shakmaty::{CastlingMode, Chess, Position, fen::Fen};
    /// let (tables, _) = Tablebases::open(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/syzygy"));
    /// // White must take the rook (Kxb2 keeps the draw); every other move loses.
    /// let pos: Chess = "8/8/8/8/8/2K5/1r6/7k w - - 0 1".parse::<Fen>().unwrap()
    ///     .into_position(CastlingMode::Standard).unwrap();
    /// let keep = tables.filter_root_moves(&pos, &pos.legal_moves(), true).unwrap();
    /// assert_eq!(keep.len(), 1);
    /// assert_eq!(keep[0].to_string(), "Kc3xb2");
    /// ```
    #[must_use]
    pub fn filter_root_moves(
        &self,
        pos: &Chess,
        moves: &[Move],
        rule50: bool,
    ) -> Option<Vec<Move>> {
        let ranked = self.rank_root_moves(pos, moves, rule50)?;
        let best = ranked.iter().map(|&(_, r)| r).max()?;
        // Wins: every move still winning in time (the search picks among them; as the clock
        // runs, only the faster ones stay). Otherwise only the best rank.
        let floor = if best >= WIN_RANK { WIN_RANK } else { best };
        Some(
            ranked
                .iter()
                .filter(|&&(_, r)| r >= floor)
                .map(|&(m, _)| m)
                .collect(),
        )
    }

    /// What the best of `moves` leads to for the side to move, as the root filter ranks them
    /// ([`Tablebases::filter_root_moves`]): a win only if it can still be forced within the
    /// 50-move rule (when `rule50`), a loss only if it cannot be delayed past it; cursed wins
    /// and blessed losses are draws under the rule. `None` when the position is not in the
    /// tables or a probe fails.
    ///
    /// ```
    /// use minkowski::search::tb::{Tablebases, TbVerdict};
    /// use shakmaty::{CastlingMode, Chess, Position, fen::Fen};
    /// let (tables, _) = Tablebases::open(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/syzygy"));
    /// let pos = |fen: &str| -> Chess {
    ///     fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
    /// };
    /// let krk = pos("8/8/8/4k3/8/8/8/KR6 w - - 0 1");
    /// assert_eq!(tables.root_verdict(&krk, &krk.legal_moves(), true), Some(TbVerdict::Win));
    /// let rook_falls = pos("8/8/8/8/8/2K5/1r6/7k w - - 0 1"); // Kxb2 draws
    /// let moves = rook_falls.legal_moves();
    /// assert_eq!(tables.root_verdict(&rook_falls, &moves, true), Some(TbVerdict::Draw));
    /// ```
    #[must_use]
    pub fn root_verdict(&self, pos: &Chess, moves: &[Move], rule50: bool) -> Option<TbVerdict> {
        let ranked = self.rank_root_moves(pos, moves, rule50)?;
        match ranked.iter().map(|&(_, r)| r).max()? {
            r if r >= WIN_RANK => Some(TbVerdict::Win),
            r if r <= -WIN_RANK => Some(TbVerdict::Loss),
            _ => Some(TbVerdict::Draw),
        }
    }

    /// Each of `moves` with its rank for the root (higher is better; at least [`WIN_RANK`]: a
    /// win in time, at most `-WIN_RANK`: a loss in time, between: a draw under the rule).
    fn rank_root_moves(
        &self,
        pos: &Chess,
        moves: &[Move],
        rule50: bool,
    ) -> Option<Vec<(Move, i32)>> {
        if moves.is_empty() || !self.fits(pos) {
            return None;
        }
        let probes: Vec<MoveProbe> = self
            .probe_moves(pos)?
            .into_iter()
            .filter(|p| moves.contains(&p.mv))
            .collect();
        let with_dtz = probes.iter().all(|p| p.outcome.dtz.is_some());
        let halfmoves = i32::try_from(pos.halfmoves()).unwrap_or(i32::MAX);
        let rank = |p: &MoveProbe| -> i32 {
            if with_dtz {
                root_rank(p, halfmoves, rule50)
            } else {
                // WDL alone: a win (2) or loss (-2) counts as in time, anything else as a draw.
                match wdl_rank(p.outcome.wdl, rule50) {
                    2 => WIN_RANK,
                    -2 => -WIN_RANK,
                    r => r,
                }
            }
        };
        Some(probes.iter().map(|p| (p.mv, rank(p))).collect())
    }

    /// Whether `pos` can be in the tables at all.
    fn fits(&self, pos: &Chess) -> bool {
        !pos.castles().any() && pos.board().occupied().count() <= self.max_pieces()
    }
}

/// The rank of a move winning in time with DTZ 100 at the most (higher ranks zero sooner).
const WIN_RANK: i32 = 10_000;

/// Rank of a root move with its DTZ: a win that zeroes before the 50-move rule strikes ranks
/// highest (sooner is higher), then cursed wins, draws, blessed losses and losses (slower is
/// higher).
fn root_rank(p: &MoveProbe, halfmoves: i32, rule50: bool) -> i32 {
    let dtz = p.outcome.dtz.unwrap_or(0);
    // A zeroing move resets the clock: its DTZ (±1, ±101) already counts from zero.
    let clock = if dtz.abs() == 1 || dtz.abs() == 101 {
        0
    } else {
        halfmoves
    };
    // A rounded DTZ may be one ply short: a win counts as "in time" only if the longer one is.
    let clock = clock + i32::from(p.outcome.rounded);
    match dtz {
        0 => 0,
        d if d > 0 && (!rule50 || d + clock <= 100) => WIN_RANK + 1000 - d,
        d if d > 0 => 1000 - d.min(999),
        d if !rule50 || -d + clock <= 100 => -WIN_RANK - 1000 - d,
        d => -1000 - d.max(-999),
    }
}

/// Rank of a WDL outcome (with the 50-move rule, cursed wins and blessed losses sit between).
fn wdl_rank(wdl: Wdl, rule50: bool) -> i32 {
    match (wdl, rule50) {
        (Wdl::Win, _) | (Wdl::CursedWin, false) => 2,
        (Wdl::CursedWin, true) => 1,
        (Wdl::Draw, _) => 0,
        (Wdl::BlessedLoss, true) => -1,
        (Wdl::Loss, _) | (Wdl::BlessedLoss, false) => -2,
    }
}

/// Sort key of a probed move: WDL first, then the quicker win or the slower loss.
fn sort_key(o: TbOutcome) -> (i32, i32) {
    let dtz = o.dtz.unwrap_or(0);
    // Quicker wins (small positive DTZ) and slower losses (large negative DTZ) first.
    (wdl_rank(o.wdl, true), -dtz)
}

/// DTZ of a zeroing move with outcome `wdl` for its player.
fn before_zeroing(wdl: Wdl) -> i32 {
    Dtz::before_zeroing(wdl).0
}
