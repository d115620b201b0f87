//! Minkowski's own EPD suites (`epd/minkowski_*.epd`), each position checked: the engine solves
//! the knight-versus-passer and fork suites through the EPD runner, the evaluation terms classify
//! every position as the suite says, and every mop-up position is mated within the 50-move rule.

use std::path::Path;

use minkowski::epd::Suite;
use minkowski::epd::runner::{self, Budget, RunOptions};
use minkowski::eval::endgame::PasserRace;
use minkowski::eval::tactics::knight_fork_moves;
use minkowski::search::{Limits, SearchControl, Searcher};
use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position, Role};

fn load(name: &str) -> Suite {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("epd").join(name);
    Suite::load(&path).expect("suite in the repo")
}

/// (FEN, best move in SAN, id) of every line, read independently of the runner.
fn lines(name: &str) -> Vec<(Chess, String, String)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("epd").join(name);
    std::fs::read_to_string(path)
        .expect("suite")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let pos = format!("{} 0 1", fields[..4].join(" "))
                .parse::<Fen>()
                .expect("FEN")
                .into_position(CastlingMode::Standard)
                .expect("legal");
            let op = |name: &str| {
                line.split(';')
                    .find_map(|o| {
                        o.trim()
                            .strip_prefix(name)
                            .map(|v| v.trim().trim_matches('"').to_owned())
                    })
                    .unwrap_or_default()
            };
            let bm = line.split(" bm ").nth(1).map_or(String::new(), |r| {
                r.split(';').next().unwrap_or("").trim().to_owned()
            });
            (pos, bm, op("id"))
        })
        .collect()
}

fn solve_all(name: &str, nodes: u64) {
    let suite = load(name);
    let positions = suite.records.len();
    assert!(positions >= 12, "{name}: {positions} positions");
    let options = RunOptions {
        budget: Budget::Nodes(nodes),
        hash_mb: 8,
        jobs: 2,
        threads: 1,
        max_perft_nodes: None,
    };
    let report = runner::run(&[suite], &options, &mut ());
    let failed: Vec<String> = report.files[0]
        .positions
        .iter()
        .filter(|p| !p.solved)
        .map(|p| {
            format!(
                "line {}: expected {} found {:?}",
                p.line, p.expected, p.found
            )
        })
        .collect();
    assert!(failed.is_empty(), "{name}:\n{}", failed.join("\n"));
}

#[test]
fn knight_vs_passer_suite_is_solved_by_the_engine() {
    solve_all("minkowski_knight_vs_passer.epd", 100_000);
}

#[test]
fn knight_vs_passer_suite_agrees_with_the_race_term() {
    for (pos, bm, id) in lines("minkowski_knight_vs_passer.epd") {
        let board = pos.board();
        let pawn_side = if board.by_piece(Role::Pawn.of(Color::White)).any() {
            Color::White
        } else {
            Color::Black
        };
        let pawn = board
            .by_piece(Role::Pawn.of(pawn_side))
            .first()
            .expect("a pawn");
        let knights = board.by_piece(Role::Knight.of(!pawn_side));
        let race = PasserRace {
            pawn,
            pawn_color: pawn_side,
            pawn_to_move: pos.turn() == pawn_side,
        };
        let king = board.king_of(!pawn_side);
        if id.ends_with("runs") {
            assert!(
                race.unstoppable(king, knights),
                "{id}: the passer should run"
            );
        } else {
            // The knight side to move catches it, and only with the suite's move: after that
            // move (pawn to move) the knight still catches it.
            assert!(
                race.knights_catch(knights),
                "{id}: the knight should catch it"
            );
            let m = bm
                .parse::<San>()
                .expect("SAN")
                .to_move(&pos)
                .expect("legal bm");
            let mut after = pos.clone();
            after.play_unchecked(m);
            if after.board().by_piece(Role::Pawn.of(pawn_side)).is_empty() {
                continue; // the key move takes the pawn: caught outright
            }
            let after_race = PasserRace {
                pawn_to_move: true,
                ..race
            };
            let knights_after = after.board().by_piece(Role::Knight.of(!pawn_side));
            assert!(
                after_race.knights_catch(knights_after),
                "{id}: {bm} should still catch it"
            );
        }
    }
}

#[test]
fn fork_suite_is_solved_and_each_key_is_a_fork_square() {
    solve_all("minkowski_forks.epd", 200_000);
    for (pos, bm, id) in lines("minkowski_forks.epd") {
        let m = bm
            .parse::<San>()
            .expect("SAN")
            .to_move(&pos)
            .expect("legal bm");
        let forks = knight_fork_moves(pos.board(), pos.turn());
        assert!(
            forks.contains(m.to()),
            "{id}: {bm} not among the fork squares {forks:?}"
        );
    }
}

#[test]
fn mop_up_suite_is_mated_within_the_fifty_move_rule() {
    let positions = lines("minkowski_mopup.epd");
    assert_eq!(positions.len(), 24);
    let limits = Limits {
        nodes: Some(40_000),
        ..Limits::default()
    };
    for (start, _, id) in positions {
        let mut sides = [Searcher::new(8), Searcher::new(8)];
        let mut pos = start.clone();
        let mut history: Vec<Zobrist64> = Vec::new();
        while !pos.is_game_over() && pos.halfmoves() < 100 {
            let side = usize::from(pos.turn() == start.turn());
            let result =
                sides[side].search(&pos, &history, &limits, &SearchControl::default(), &mut ());
            history.push(pos.zobrist_hash(EnPassantMode::Legal));
            pos.play_unchecked(result.best_move.expect("a move"));
        }
        assert!(
            pos.is_checkmate() && pos.turn() != start.turn(),
            "{id}: no mate"
        );
    }
}
