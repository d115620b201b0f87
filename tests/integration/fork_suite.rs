//! The fork suites taken from public test suites (`epd/forks.epd`, `epd/forks_mating.epd`, made
//! by `scripts/fork-suite.py`): every line must still be what the suite claims, checked by brute
//! force independently of the generator (python-chess) and of the engine's bitboards. The single
//! best move is a legal knight move, and on its target square the knight stands a knight's jump
//! (file and rank differences 1 and 2, by coordinates) from two or more of the opponent's king,
//! queens and rooks.

use std::path::Path;

use crate::common::XorShift64;
use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::{CastlingMode, Chess, Position, Role};

/// (line number, position, best-move operand, id) of every line of `epd/<name>`.
fn lines(name: &str) -> Vec<(usize, Chess, String, String)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("epd").join(name);
    std::fs::read_to_string(path)
        .expect("suite in the repo")
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, line)| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let pos = format!("{} 0 1", fields[..4].join(" "))
                .parse::<Fen>()
                .expect("FEN")
                .into_position(CastlingMode::Standard)
                .expect("legal position");
            let op = |name: &str| {
                line.split(';')
                    .find_map(|o| {
                        let o = o.trim();
                        let o = o.strip_prefix(&fields[..4].join(" ")).unwrap_or(o).trim();
                        o.strip_prefix(name)
                            .map(|v| v.trim().trim_matches('"').to_owned())
                    })
                    .unwrap_or_default()
            };
            (i + 1, pos, op("bm "), op("id "))
        })
        .collect()
}

/// The opponent's kings, queens and rooks a knight on `to` attacks in `after` (the position after
/// the move), found by square coordinates.
fn forked(after: &Chess, to: shakmaty::Square) -> usize {
    let them = after.turn();
    let (tf, tr) = (i32::from(to.file() as u8), i32::from(to.rank() as u8));
    shakmaty::Square::ALL
        .into_iter()
        .filter(|&sq| {
            let (df, dr) = (
                (i32::from(sq.file() as u8) - tf).abs(),
                (i32::from(sq.rank() as u8) - tr).abs(),
            );
            let jump = (df == 1 && dr == 2) || (df == 2 && dr == 1);
            jump && after.board().piece_at(sq).is_some_and(|p| {
                p.color == them && matches!(p.role, Role::King | Role::Queen | Role::Rook)
            })
        })
        .count()
}

fn check_suite(name: &str, min_positions: usize) {
    let all = lines(name);
    assert!(
        all.len() >= min_positions,
        "{name}: {} positions",
        all.len()
    );
    let mut fens = std::collections::HashSet::new();
    for (line, pos, bm, id) in all {
        let here = format!("{name}:{line} ({id})");
        assert!(!id.is_empty(), "{here}: no id");
        assert!(
            fens.insert(Fen::from_position(&pos, shakmaty::EnPassantMode::Legal).to_string()),
            "{here}: duplicate position"
        );
        let words: Vec<&str> = bm.split_whitespace().collect();
        assert_eq!(words.len(), 1, "{here}: not a single best move: {bm:?}");
        let m = words[0]
            .parse::<San>()
            .expect("SAN")
            .to_move(&pos)
            .unwrap_or_else(|e| panic!("{here}: {bm} is not legal: {e}"));
        assert_eq!(m.role(), Role::Knight, "{here}: {bm} is not a knight move");
        let mut after = pos.clone();
        after.play_unchecked(m);
        assert!(!after.is_checkmate(), "{here}: {bm} mates at once");
        assert!(
            forked(&after, m.to()) >= 2,
            "{here}: after {bm} the knight attacks fewer than two of K, Q, R"
        );
    }
}

#[test]
fn every_fork_of_the_standard_suites_forks() {
    check_suite("forks.epd", 13);
}

#[test]
fn every_fork_of_the_mate_collections_forks() {
    check_suite("forks_mating.epd", 90);
}

#[test]
fn the_brute_force_sees_a_non_fork() {
    // Guard against a check that passes everything: Nc3 in the start position attacks nothing.
    let pos = Chess::default();
    let m = "Nc3".parse::<San>().unwrap().to_move(&pos).unwrap();
    let mut after = pos.clone();
    after.play_unchecked(m);
    assert_eq!(forked(&after, m.to()), 0);
    // And a real fork: the knight on c7 attacks the king on e8 and the rook on a8.
    let pos: Chess = "r3k3/8/8/3N4/8/8/8/4K3 w - - 0 1"
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    let m = "Nc7+".parse::<San>().unwrap().to_move(&pos).unwrap();
    let mut after = pos.clone();
    after.play_unchecked(m);
    assert_eq!(forked(&after, m.to()), 2);
}

/// Exchange values by role (pawn … king), as the fork estimate uses them.
fn value(role: Role) -> i32 {
    minkowski::eval::tactics::EXCHANGE_VALUE[minkowski::eval::weights::role_index(role)]
}

/// The fork-keeping rule of `winning_fork_squares`, by playing the moves: a knight of the side
/// to move that jumps to `to` keeps the fork unless the opponent has a legal capture there
/// after which we have no legal recapture, or which gives up less than a pawn more than the
/// knight.
fn keeps_fork_by_playing(pos: &Chess, m: shakmaty::Move) -> bool {
    let mut child = pos.clone();
    child.play_unchecked(m);
    child.legal_moves().iter().all(|&reply| {
        if reply.to() != m.to() || !reply.is_capture() {
            return true;
        }
        let mut grandchild = child.clone();
        grandchild.play_unchecked(reply);
        let recapture = grandchild
            .legal_moves()
            .iter()
            .any(|r| r.to() == m.to() && r.is_capture());
        recapture && value(reply.role()) - value(Role::Knight) >= value(Role::Pawn)
    })
}

#[test]
fn winning_fork_squares_agree_with_playing_the_exchange() {
    use minkowski::eval::tactics::winning_fork_squares;
    const FENS: &[&str] = &[
        "r1bqk2r/pp2nppp/2n1p3/2ppP3/3P4/P1PB1N2/2P2PPP/R1BQK2R w KQkq - 0 1",
        "2rq1rk1/pp1bppbp/2np1np1/8/3NP3/1BN1BP2/PPPQ2PP/2KR3R b - - 0 1",
        "r2q1rk1/1b2bppp/p1n1pn2/1p6/3P4/P1NBBN2/1P3PPP/R2Q1RK1 w - - 0 1",
        "3r2k1/ppq2pp1/4p2p/3n3P/3N2P1/2P5/PP2QP2/K2R4 b - - 0 1",
    ];
    let (mut agree, mut total, mut kept) = (0, 0, 0);
    let mut rng = XorShift64(0x2545_f491_4f6c_dd1d);
    for fen in FENS {
        for _ in 0..40 {
            let mut pos: Chess = fen
                .parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
            for _ in 0..30 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                if !pos.is_check() {
                    let us = pos.turn();
                    // Every enemy piece as a target: more fork squares to compare.
                    let targets = pos.board().by_color(!us);
                    let winning = winning_fork_squares(pos.board(), us, targets);
                    for &m in moves.iter().filter(|m| m.role() == Role::Knight) {
                        let mut after = pos.clone();
                        after.play_unchecked(m);
                        // Only fork squares (coordinates, as above) are classified.
                        let forked_any = shakmaty::attacks::knight_attacks(m.to()) & targets;
                        if !forked_any.more_than_one() {
                            assert!(!winning.contains(m.to()), "{m:?} is no fork");
                            continue;
                        }
                        total += 1;
                        kept += usize::from(winning.contains(m.to()));
                        if winning.contains(m.to()) == keeps_fork_by_playing(&pos, m) {
                            agree += 1;
                        }
                    }
                }
                let m = moves[rng.below(moves.len())];
                pos.play_unchecked(m);
            }
        }
    }
    // The set-wise rule ignores x-rays, pinned defenders and discovered double checks: it may
    // differ from playing the moves there, rarely.
    assert!(total >= 500, "only {total} fork squares compared");
    eprintln!("{agree} of {total} fork squares agree, {kept} keep the fork");
    assert!(
        kept * 10 >= total && kept * 10 <= total * 9,
        "{kept} of {total}: one-sided"
    );
    assert!(agree * 100 >= total * 97, "{agree} of {total} agree");
}
