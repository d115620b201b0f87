//! Shared by the tests: the committed tables, random won positions, a game against a perfect
//! defender, and the repository's EPD suites; the UCI loop run in-process ([`uci_session`]).
#![allow(dead_code)]

pub mod uci_session;

use minkowski::search::tb::{Tablebases, TbConfig};
use minkowski::search::{Limits, SearchControl, Searcher};
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Board, CastlingMode, Chess, Color, EnPassantMode, Piece, Position, Setup, Square};
use shakmaty_syzygy::Wdl;

/// The 70 tables in `tests/syzygy`.
pub fn tables() -> Tablebases {
    let (tables, problems) = Tablebases::open(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/syzygy"));
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(tables.files(), 70);
    tables
}

/// A small deterministic generator (xorshift64*), so samples are the same on every run.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The search's test generator, the same file its unit tests use.
#[path = "../../../src/search/test_support.rs"]
mod search_test_support;

/// The plain xorshift64 generator (shifts 13, 7, 17), shared with the search's unit tests
/// (`src/search/test_support.rs`); the tuner and trace tests were written with it: their sampled
/// weights and data depend on this exact sequence.
pub use search_test_support::XorShift64;

impl XorShift64 {
    /// Uniform in `-span..=span`.
    pub fn around(&mut self, span: i32) -> i32 {
        (self.next() % (2 * span as u64 + 1)) as i32 - span
    }
}

/// A random legal position with White to move holding `white` (kings included), Black a lone
/// king, that the tables call a win for White (halfmove clock 0); `dark_bishop` picks the colour
/// of a single bishop.
pub fn random_win(
    rng: &mut Rng,
    tables: &Tablebases,
    white: &[shakmaty::Role],
    dark_bishop: Option<bool>,
) -> Chess {
    loop {
        let mut board = Board::empty();
        let mut ok = true;
        let place = |board: &mut Board, piece: Piece, rng: &mut Rng| -> Option<Square> {
            for _ in 0..100 {
                let sq = Square::new(rng.below(64) as u32);
                if board.piece_at(sq).is_none() {
                    board.set_piece_at(sq, piece);
                    return Some(sq);
                }
            }
            None
        };
        ok &= place(
            &mut board,
            Piece {
                color: Color::White,
                role: shakmaty::Role::King,
            },
            rng,
        )
        .is_some();
        ok &= place(
            &mut board,
            Piece {
                color: Color::Black,
                role: shakmaty::Role::King,
            },
            rng,
        )
        .is_some();
        let mut bishops = Vec::new();
        for &role in white {
            match place(
                &mut board,
                Piece {
                    color: Color::White,
                    role,
                },
                rng,
            ) {
                Some(sq) if role == shakmaty::Role::Bishop => bishops.push(sq),
                Some(_) => {}
                None => ok = false,
            }
        }
        if !ok {
            continue;
        }
        let dark = |sq: Square| shakmaty::Bitboard::DARK_SQUARES.contains(sq);
        if bishops.len() == 2 && dark(bishops[0]) == dark(bishops[1]) {
            continue;
        }
        if let (Some(want), [b]) = (dark_bishop, bishops.as_slice())
            && dark(*b) != want
        {
            continue;
        }
        let setup = Setup {
            board,
            turn: Color::White,
            ..Setup::empty()
        };
        let Ok(pos) = setup.position::<Chess>(CastlingMode::Standard) else {
            continue;
        };
        if pos.is_game_over() {
            continue;
        }
        if tables.wdl_after_zeroing(&pos) == Some(Wdl::Win) {
            return pos;
        }
    }
}

/// How a game against the perfect defender ended.
#[derive(Debug)]
pub struct Mopup {
    /// Whether White mated within the 50-move rule.
    pub mated: bool,
    /// White's moves played.
    pub moves: u32,
    /// The tables' optimum: White's moves to mate (DTZ from the start; the mate is the zeroing
    /// move in these endings).
    pub optimal: u32,
    /// The moves played, in SAN.
    pub line: Vec<String>,
}

/// Minkowski (White, `nodes` per move, with `engine_tables` or none) against a defender that
/// always picks the move the tables rank best for it: a draw if any (taking a piece), else the
/// longest distance to zeroing.
pub fn play_out(
    start: &Chess,
    tables: &Tablebases,
    nodes: u64,
    engine_tables: Option<Tablebases>,
) -> Mopup {
    let optimal_plies = tables
        .outcome(start)
        .and_then(|o| o.dtz)
        .expect("start in the tables");
    let mut searcher = Searcher::new(4);
    if let Some(t) = engine_tables {
        searcher.set_tablebases(TbConfig {
            tables: Some(t.into()),
            ..TbConfig::default()
        });
    }
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let mut pos = start.clone();
    let mut history = Vec::new();
    let mut moves = 0;
    let mut line = Vec::new();
    loop {
        if pos.is_checkmate() {
            return Mopup {
                mated: pos.turn() == Color::Black,
                moves,
                optimal: (optimal_plies as u32).div_ceil(2),
                line,
            };
        }
        if pos.is_game_over() || pos.halfmoves() >= 100 {
            eprintln!(
                "not mated: {}",
                shakmaty::fen::Fen::from_position(&pos, EnPassantMode::Legal)
            );
            return Mopup {
                mated: false,
                moves,
                optimal: (optimal_plies as u32).div_ceil(2),
                line,
            };
        }
        let mv = if pos.turn() == Color::White {
            moves += 1;
            let r = searcher.search(&pos, &history, &limits, &SearchControl::default(), &mut ());
            r.best_move.expect("a legal move")
        } else {
            tables
                .probe_moves(&pos)
                .expect("defender's moves in the tables")[0]
                .mv
        };
        history.push(pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal));
        line.push(shakmaty::san::San::from_move(&pos, mv).to_string());
        pos.play_unchecked(mv);
    }
}

/// The file names of every suite in `epd/` (sorted), so a suite added later is checked too.
pub fn every_suite() -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("epd");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("epd/ in the repo")
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".epd"))
        .collect();
    names.sort();
    names
}

/// The evaluation's source directory, `core/src/eval`, where every weight's default is declared.
pub fn eval_source_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("core/src/eval")
}

/// Every `.rs` file under [`eval_source_dir`], sorted.
pub fn eval_source_files() -> Vec<std::path::PathBuf> {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("core/src/eval in the repo") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|ext| ext == "rs") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(&eval_source_dir(), &mut files);
    files.sort();
    files
}

/// The first `limit` positions of the suite `epd/<file>` in the repository.
pub fn suite_positions(file: &str, limit: usize) -> Vec<Chess> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("epd")
        .join(file);
    let suite = minkowski::epd::Suite::load(&path).expect("suite in the repo");
    suite
        .records
        .into_iter()
        .map(|r| r.position)
        .take(limit)
        .collect()
}

/// Push the position after each legal move of `pos` (the other side to move, captures and
/// promotions on the board) onto `all`.
pub fn push_children(pos: &Chess, all: &mut Vec<Chess>) {
    for m in pos.legal_moves() {
        let mut child = pos.clone();
        child.play_unchecked(m);
        all.push(child);
    }
}
