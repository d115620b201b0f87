//! Mate drills: from random KQK, KRK, KBNK (both bishop colours) and KBBK positions, Minkowski
//! plays both sides at a small fixed node budget per move and must mate within the 50-move rule
//! every time. Also plays out the first positions of the tablebase suites `epd/krk.epd` and
//! `epd/kbnk.epd` and compares its mate lengths with the optimal ones.

use crate::common::XorShift64;
use minkowski::search::{Limits, SearchControl, Searcher};
use shakmaty::fen::Fen;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Bitboard, CastlingMode, Chess, Color, EnPassantMode, Position, Role, Square};

/// Nodes per move for both sides: small, so the endgame knowledge (not brute force) must lead.
const NODES_PER_MOVE: u64 = 40_000;

/// How a drill game ended.
#[derive(Debug, PartialEq, Eq)]
enum Ending {
    /// The strong side mated after this many of its moves.
    Mate(u32),
    /// Anything else: stalemate, a capture to a draw, repetition or the 50-move rule.
    NoMate(String),
}

/// Play `pos` out with the engine on both sides until mate or a draw.
fn play_out(start: &Chess) -> Ending {
    let mut sides = [Searcher::new(8), Searcher::new(8)];
    let mut pos = start.clone();
    let mut history: Vec<Zobrist64> = Vec::new();
    // The strong side has more than a king; the suites also start with the lone king to move.
    let strong = if start.board().white().count() > 1 {
        Color::White
    } else {
        Color::Black
    };
    let mut strong_moves = 0;
    let limits = Limits {
        nodes: Some(NODES_PER_MOVE),
        ..Limits::default()
    };
    loop {
        if pos.is_checkmate() {
            return if pos.turn() != strong {
                Ending::Mate(strong_moves)
            } else {
                Ending::NoMate("the strong side was mated".into())
            };
        }
        if pos.is_stalemate() || pos.is_insufficient_material() {
            return Ending::NoMate(format!("draw after {strong_moves} moves"));
        }
        if pos.halfmoves() >= 100 {
            return Ending::NoMate("50-move rule".into());
        }
        let key = pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal);
        if history.iter().filter(|&&k| k == key).count() >= 2 {
            return Ending::NoMate(format!("repetition after {strong_moves} moves"));
        }
        let side = usize::from(pos.turn() == strong);
        let result =
            sides[side].search(&pos, &history, &limits, &SearchControl::default(), &mut ());
        let Some(m) = result.best_move else {
            return Ending::NoMate("no move returned".into());
        };
        assert!(pos.is_legal(m), "illegal move {m:?}");
        if pos.turn() == strong {
            strong_moves += 1;
        }
        history.push(key);
        pos.play_unchecked(m);
    }
}

/// A random square from the shared generator.
fn random_square(rng: &mut XorShift64) -> Square {
    Square::new(rng.below(64) as u32)
}

/// `count` random legal positions with White's `pieces` against a lone black king, White to
/// move, Black not already stalemated or checkmated. `keep` filters, e.g. by bishop colours.
fn random_positions(
    pieces: &[Role],
    count: usize,
    seed: u64,
    keep: impl Fn(&Chess) -> bool,
) -> Vec<Chess> {
    let mut rng = XorShift64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut board = shakmaty::Board::empty();
        let mut used = Bitboard::EMPTY;
        let mut place = |role: Role, color: Color, board: &mut shakmaty::Board| loop {
            let sq = random_square(&mut rng);
            if !used.contains(sq) {
                used.add(sq);
                board.set_piece_at(sq, role.of(color));
                break;
            }
        };
        place(Role::King, Color::White, &mut board);
        place(Role::King, Color::Black, &mut board);
        for &role in pieces {
            place(role, Color::White, &mut board);
        }
        let fen = format!("{} w - - 0 1", board);
        let Ok(pos) = fen.parse::<Fen>().map_err(|_| ()).and_then(|f| {
            f.into_position::<Chess>(CastlingMode::Standard)
                .map_err(|_| ())
        }) else {
            continue; // e.g. the black king in check with White to move
        };
        // A drill, not a puzzle: no piece may stand next to the lone king, where it could be
        // lost at once (with two pieces attacked, the win is gone before it starts).
        let lone_king = pos.board().king_of(Color::Black).expect("placed");
        let en_prise = (shakmaty::attacks::king_attacks(lone_king) & pos.board().white()).any();
        if en_prise || pos.legal_moves().is_empty() || !keep(&pos) {
            continue;
        }
        out.push(pos);
    }
    out
}

fn bishops_on(pos: &Chess, dark: usize, light: usize) -> bool {
    let bishops = pos.board().by_piece(Role::Bishop.of(Color::White));
    (bishops & Bitboard::DARK_SQUARES).count() == dark
        && (bishops & Bitboard::LIGHT_SQUARES).count() == light
}

fn drill(name: &str, positions: &[Chess]) {
    let mut failures = Vec::new();
    let mut total_moves = 0;
    for pos in positions {
        match play_out(pos) {
            Ending::Mate(moves) => total_moves += moves,
            Ending::NoMate(why) => failures.push(format!(
                "{}: {why}",
                Fen::from_position(pos, EnPassantMode::Legal)
            )),
        }
    }
    let mated = positions.len() - failures.len();
    println!(
        "{name}: mated {mated}/{}, mean {:.1} moves",
        positions.len(),
        f64::from(total_moves) / mated.max(1) as f64
    );
    assert!(
        failures.is_empty(),
        "{name}: no mate from\n{}",
        failures.join("\n")
    );
}

#[test]
fn kqk_mates_from_50_random_positions() {
    drill(
        "KQK",
        &random_positions(&[Role::Queen], 50, 0x1111, |_| true),
    );
}

#[test]
fn krk_mates_from_50_random_positions() {
    drill(
        "KRK",
        &random_positions(&[Role::Rook], 50, 0x2222, |_| true),
    );
}

#[test]
fn kbnk_dark_bishop_mates_from_50_random_positions() {
    let pieces = [Role::Bishop, Role::Knight];
    drill(
        "KBNK dark",
        &random_positions(&pieces, 50, 0x3333, |p| bishops_on(p, 1, 0)),
    );
}

#[test]
fn kbnk_light_bishop_mates_from_50_random_positions() {
    let pieces = [Role::Bishop, Role::Knight];
    drill(
        "KBNK light",
        &random_positions(&pieces, 50, 0x4444, |p| bishops_on(p, 0, 1)),
    );
}

#[test]
fn kbbk_mates_from_50_random_positions() {
    let pieces = [Role::Bishop, Role::Bishop];
    drill(
        "KBBK",
        &random_positions(&pieces, 50, 0x5555, |p| bishops_on(p, 1, 1)),
    );
}

/// Positions and optimal mate lengths (`bm #N`) from a tablebase-derived suite in `epd/`.
fn suite(file: &str, count: usize) -> Vec<(Chess, u32)> {
    let path = format!("{}/epd/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).expect("suite in the repo");
    text.lines()
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            // `bm #N`: the side to move mates in N; `bm #-N`: it is mated in N.
            let mate = line.split("bm #").nth(1)?.trim_start_matches('-');
            let mate = mate.split(|c: char| !c.is_ascii_digit()).next()?;
            let pos = format!("{} 0 1", fields.get(..4)?.join(" "))
                .parse::<Fen>()
                .ok()?
                .into_position::<Chess>(CastlingMode::Standard)
                .ok()?;
            Some((pos, mate.parse().ok()?))
        })
        .take(count)
        .collect()
}

fn against_optimal(file: &str, count: usize) {
    let positions = suite(file, count);
    assert_eq!(positions.len(), count, "{file} parsed");
    let (mut ours, mut optimal) = (0, 0);
    for (pos, best) in &positions {
        match play_out(pos) {
            // Optimal lengths assume perfect defence; our defender at a small budget may shorten
            // the game, so only the means are compared (in the note), not each game.
            Ending::Mate(moves) => {
                ours += moves;
                optimal += best;
            }
            Ending::NoMate(why) => panic!("{file}: no mate from {pos:?}: {why}"),
        }
    }
    println!(
        "{file}: mated {count}/{count}, mean {:.1} moves against optimal {:.1}",
        f64::from(ours) / count as f64,
        f64::from(optimal) / count as f64
    );
}

#[test]
fn krk_suite_is_mated_close_to_optimal() {
    against_optimal("krk.epd", 20);
}

#[test]
fn kbnk_suite_is_mated_close_to_optimal() {
    against_optimal("kbnk.epd", 20);
}
