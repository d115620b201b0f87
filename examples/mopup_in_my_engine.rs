//! Minkowski's endgame knowledge inside someone else's engine.
//!
//! A tiny, self-contained engine over shakmaty — negamax with alpha-beta, iterative deepening,
//! a quiescence search over captures and a `HashMap` transposition table — whose evaluation is
//! nothing but Minkowski's plain-input mop-up terms: [`KbnkPosition::score`] for king, bishop and
//! knight against king, and [`mop_up_bonus`] for any other mating material against a lone king.
//! It does not use Minkowski's `Searcher` or `Evaluator`.
//!
//! It plays both sides (the lone king defends with the same search) from each FEN given on the
//! command line, or from built-in bishop-and-knight positions, prints the game and exits with
//! status 1 unless every game ends in mate within the 50-move rule.
//!
//! ```sh
//! cargo run --release --example mopup_in_my_engine
//! cargo run --release --example mopup_in_my_engine -- "8/8/8/4k3/8/8/8/KBN5 w - - 0 1"
//! ```

use std::collections::HashMap;
use std::process::ExitCode;

use minkowski::eval::base::MATERIAL;
use minkowski::eval::endgame::{KNOWN_WIN, KbnkPosition, mop_up_bonus};
use minkowski::eval::weights::{Weights, role_index};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position, Role};

/// Bishop and knight against a lone king, both bishop colours, both colours as the strong side.
/// The first two need 30 moves against perfect defence (from `epd/kbnk.epd`).
pub const BUILT_IN: &[&str] = &[
    "1B5N/K7/8/3k4/8/8/8/8 w - - 0 1",
    "1K6/N7/8/3k1B2/8/8/8/8 w - - 0 1",
    "8/8/8/4k3/8/8/8/KBN5 w - - 0 1",
    "4kbn1/8/8/8/8/8/8/7K b - - 0 1",
];

/// Nodes each side may search per move.
pub const NODES_PER_MOVE: u64 = 60_000;

/// A mate `n` plies from the root scores `MATE - n`.
const MATE: i32 = 30_000;
/// Scores at least this far from zero are mates.
const MATE_BOUND: i32 = MATE - 1_000;
/// Outside every score: the initial window.
const INFINITE: i32 = MATE + 1;
/// Game phase of bishop and knight (1 + 1 of Minkowski's 24), to blend the `S(mg, eg)` pair.
const KBNK_PHASE: i32 = 2;
/// Deepest iteration.
const MAX_DEPTH: i32 = 64;
/// The table is cleared when it grows beyond this many entries.
const TT_CAPACITY: usize = 1 << 20;

/// The evaluation: Minkowski's mop-up terms, from the side to move's point of view, in
/// centipawns. Zero unless one side has a lone king and the other enough to mate.
pub fn evaluate(pos: &Chess, w: &Weights) -> i32 {
    if pos.is_insufficient_material() {
        return 0;
    }
    let board = pos.board();
    let Some(strong) = Color::ALL
        .into_iter()
        .find(|&c| board.by_color(!c).count() == 1 && board.by_color(c).count() > 1)
    else {
        return 0;
    };
    let (Some(strong_king), Some(lone_king)) = (board.king_of(strong), board.king_of(!strong))
    else {
        return 0;
    };
    let bishops = board.by_piece(Role::Bishop.of(strong));
    let knights = board.by_piece(Role::Knight.of(strong));
    let score = match (bishops.single_square(), knights.single_square()) {
        (Some(bishop), Some(knight)) if board.by_color(strong).count() == 3 => KbnkPosition {
            strong_king,
            lone_king,
            bishop,
            knight,
            lone_king_to_move: pos.turn() != strong,
        }
        .score(w)
        .taper(KBNK_PHASE),
        _ => {
            // Queens, rooks, pawns...: a known win, the material, and the mop-up distances.
            let material: i32 = Role::ALL
                .into_iter()
                .map(|r| {
                    w[MATERIAL.at(role_index(r))].eg() * board.by_piece(r.of(strong)).count() as i32
                })
                .sum();
            w[KNOWN_WIN].eg() + material + mop_up_bonus(strong_king, lone_king, w).eg()
        }
    };
    if pos.turn() == strong { score } else { -score }
}

/// Whether a stored value is exact or a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

/// One transposition-table entry.
#[derive(Clone, Copy, Debug)]
struct Entry {
    depth: i32,
    value: i32,
    bound: Bound,
    best: Option<Move>,
}

/// The tiny engine: a transposition table, the weights, and the keys of the game so far.
pub struct TinyEngine {
    weights: Weights,
    tt: HashMap<u64, Entry>,
    /// Zobrist keys of the game and of the current search path, for repetitions.
    keys: Vec<u64>,
    nodes: u64,
    node_limit: u64,
    stopped: bool,
}

impl TinyEngine {
    /// An engine evaluating with `weights`.
    pub fn new(weights: Weights) -> TinyEngine {
        TinyEngine {
            weights,
            tt: HashMap::new(),
            keys: Vec::new(),
            nodes: 0,
            node_limit: 0,
            stopped: false,
        }
    }

    /// The best move in `pos` after about `node_limit` nodes of iterative deepening, with its
    /// score and the depth reached; `history` holds the keys of the earlier positions of the game.
    pub fn think(
        &mut self,
        pos: &Chess,
        history: &[u64],
        node_limit: u64,
    ) -> Option<(Move, i32, i32)> {
        if self.tt.len() > TT_CAPACITY {
            self.tt.clear();
        }
        self.nodes = 0;
        self.node_limit = node_limit;
        self.stopped = false;
        let mut best = None;
        for depth in 1..=MAX_DEPTH {
            self.keys = history.to_vec();
            let value = self.negamax(pos, depth, 0, -INFINITE, INFINITE);
            if self.stopped {
                break;
            }
            let Some(mv) = self.tt.get(&key(pos)).and_then(|e| e.best) else {
                break;
            };
            best = Some((mv, value, depth));
            if value.abs() >= MATE_BOUND && MATE - value.abs() <= depth {
                break; // a mate fully inside the search: deeper will not change it
            }
        }
        // Not even depth 1 finished: any legal move (there is none after mate or stalemate).
        best.or_else(|| pos.legal_moves().first().map(|&m| (m, 0, 0)))
    }

    /// Negamax alpha-beta to `depth` plies at distance `ply` from the root.
    fn negamax(&mut self, pos: &Chess, depth: i32, ply: i32, mut alpha: i32, beta: i32) -> i32 {
        let k = key(pos);
        if ply > 0 && (self.keys.contains(&k) || pos.halfmoves() >= 100) {
            return 0; // a repetition or the 50-move rule: a draw
        }
        if depth <= 0 {
            return self.quiesce(pos, ply, alpha, beta);
        }
        self.nodes += 1;
        if self.nodes >= self.node_limit {
            self.stopped = true;
            return 0;
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return if pos.is_check() { -(MATE - ply) } else { 0 };
        }
        let entry = self.tt.get(&k).copied();
        if let Some(e) = entry
            && ply > 0
            && e.depth >= depth
        {
            let v = from_tt(e.value, ply);
            let usable = match e.bound {
                Bound::Exact => true,
                Bound::Lower => v >= beta,
                Bound::Upper => v <= alpha,
            };
            if usable {
                return v;
            }
        }

        let mut ordered: Vec<Move> = moves.to_vec();
        ordered.sort_by_key(|m| {
            if Some(*m) == entry.and_then(|e| e.best) {
                0
            } else if m.is_capture() {
                1
            } else {
                2
            }
        });
        let original_alpha = alpha;
        let mut best_value = -INFINITE;
        let mut best_move = None;
        self.keys.push(k);
        for m in ordered {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let value = -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha);
            if self.stopped {
                break;
            }
            if value > best_value {
                best_value = value;
                best_move = Some(m);
            }
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        self.keys.pop();
        if self.stopped {
            return 0;
        }
        let bound = if best_value >= beta {
            Bound::Lower
        } else if best_value > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.store(k, depth, best_value, bound, best_move, ply);
        best_value
    }

    /// Captures only, after "standing pat" on the evaluation.
    fn quiesce(&mut self, pos: &Chess, ply: i32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return if pos.is_check() { -(MATE - ply) } else { 0 };
        }
        let stand_pat = evaluate(pos, &self.weights);
        if stand_pat >= beta {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        for m in moves.iter().filter(|m| m.is_capture()) {
            let mut child = pos.clone();
            child.play_unchecked(*m);
            let value = -self.quiesce(&child, ply + 1, -beta, -alpha);
            if value >= beta {
                return value;
            }
            alpha = alpha.max(value);
        }
        alpha
    }

    fn store(
        &mut self,
        k: u64,
        depth: i32,
        value: i32,
        bound: Bound,
        best: Option<Move>,
        ply: i32,
    ) {
        let entry = Entry {
            depth,
            value: to_tt(value, ply),
            bound,
            best,
        };
        self.tt.insert(k, entry);
    }
}

/// The position's Zobrist key.
fn key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// Mate scores are stored relative to the node, not the root.
fn to_tt(value: i32, ply: i32) -> i32 {
    if value >= MATE_BOUND {
        value + ply
    } else if value <= -MATE_BOUND {
        value - ply
    } else {
        value
    }
}

fn from_tt(value: i32, ply: i32) -> i32 {
    if value >= MATE_BOUND {
        value - ply
    } else if value <= -MATE_BOUND {
        value + ply
    } else {
        value
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The strong side mated with its `n`-th move.
    Mate(u32),
    /// Anything else: why it is not a mate.
    NoMate(String),
}

/// A game played out from a FEN.
#[derive(Clone, Debug)]
pub struct Game {
    /// The moves in SAN, both sides.
    pub moves: Vec<String>,
    /// How it ended.
    pub outcome: Outcome,
}

/// Play `fen` out with the tiny engine on both sides. Errors for a FEN that does not parse or is
/// not a lone king against mating material.
pub fn play_out(fen: &str, nodes_per_move: u64) -> Result<Game, String> {
    let setup: Fen = fen.parse().map_err(|e| format!("bad FEN {fen:?}: {e}"))?;
    let mut pos: Chess = setup
        .into_position(CastlingMode::Standard)
        .map_err(|e| format!("illegal position {fen:?}: {e}"))?;
    let board = pos.board();
    let strong = Color::ALL
        .into_iter()
        .find(|&c| board.by_color(!c).count() == 1 && board.by_color(c).count() > 1)
        .filter(|_| !pos.is_insufficient_material())
        .ok_or_else(|| format!("{fen:?}: not mating material against a lone king"))?;
    let mut engines = [
        TinyEngine::new(Weights::default()),
        TinyEngine::new(Weights::default()),
    ];
    let mut history: Vec<u64> = Vec::new();
    let mut moves = Vec::new();
    let mut strong_moves = 0;
    let outcome = loop {
        if pos.is_checkmate() {
            break if pos.turn() != strong {
                Outcome::Mate(strong_moves)
            } else {
                Outcome::NoMate("the strong side was mated".into())
            };
        }
        if pos.is_stalemate() {
            break Outcome::NoMate("stalemate".into());
        }
        if pos.is_insufficient_material() {
            break Outcome::NoMate("a piece was lost: insufficient material".into());
        }
        if pos.halfmoves() >= 100 {
            break Outcome::NoMate("50-move rule".into());
        }
        let k = key(&pos);
        if history.iter().filter(|&&h| h == k).count() >= 2 {
            break Outcome::NoMate("threefold repetition".into());
        }
        let side = usize::from(pos.turn() == strong);
        let Some((m, _, _)) = engines[side].think(&pos, &history, nodes_per_move) else {
            break Outcome::NoMate("the engine found no move".into());
        };
        moves.push(SanPlus::from_move(pos.clone(), m).to_string());
        if pos.turn() == strong {
            strong_moves += 1;
        }
        history.push(k);
        pos.play_unchecked(m);
    };
    Ok(Game { moves, outcome })
}

/// The moves numbered as in a score sheet, starting with `turn` at move `number`.
fn numbered(moves: &[String], turn: Color, number: u32) -> String {
    let mut text = String::new();
    let mut n = number;
    let mut white = turn == Color::White;
    if !white {
        text.push_str(&format!("{n}... "));
    }
    for m in moves {
        if white {
            text.push_str(&format!("{n}. "));
        } else {
            n += 1;
        }
        text.push_str(m);
        text.push(' ');
        white = !white;
    }
    text.trim_end().to_owned()
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let fens: Vec<&str> = if args.is_empty() {
        BUILT_IN.to_vec()
    } else {
        args.iter().map(String::as_str).collect()
    };
    let mut failures = 0;
    for fen in fens {
        println!("{fen}");
        match play_out(fen, NODES_PER_MOVE) {
            Ok(game) => {
                let turn = fen.split_whitespace().nth(1).unwrap_or("w");
                let color = if turn == "b" {
                    Color::Black
                } else {
                    Color::White
                };
                let number = fen
                    .split_whitespace()
                    .nth(5)
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(1);
                println!("{}", numbered(&game.moves, color, number));
                match game.outcome {
                    Outcome::Mate(n) => println!("mate in {n} moves\n"),
                    Outcome::NoMate(why) => {
                        println!("FAILED: {why}\n");
                        failures += 1;
                    }
                }
            }
            Err(e) => {
                println!("error: {e}\n");
                failures += 1;
            }
        }
    }
    if failures == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
