//! Knight against passed pawn, against perfect play: over legal KNvKP positions (both sides to
//! move, both colours of the knight side), the evaluation's static verdict ("the pawn runs
//! through" = the race term's unstoppable bonus) against the tables' WDL ("runs through" = the
//! pawn's side wins). A second, harder oracle than the exact race test in `endgames.rs`: the race
//! ignores the kings' support and interference, so it misses some.
//!
//! CI checks a deterministic sample (every 61st position); `-- --ignored --nocapture` runs all
//! of them and prints the confusion matrix and the misses by pawn rank.
#![cfg(feature = "syzygy")]

mod common;

use minkowski::eval::endgame::{Verdict, lookup};
use minkowski::eval::weights::Weights;
use shakmaty::{Board, CastlingMode, Chess, Color, Position, Role, Setup, Square};
use shakmaty_syzygy::Wdl;

#[derive(Default, Debug)]
struct Matrix {
    /// [predicted runs][truly runs]
    counts: [[u64; 2]; 2],
    /// Misses by the pawn's relative rank (index 1..=6): [predicted runs, truly caught] and
    /// [predicted caught, truly runs].
    false_runs: [u64; 8],
    false_caught: [u64; 8],
}

impl Matrix {
    fn total(&self) -> u64 {
        self.counts.iter().flatten().sum()
    }
    fn agreement(&self) -> f64 {
        (self.counts[0][0] + self.counts[1][1]) as f64 / self.total() as f64
    }
}

fn confusion(stride: usize) -> Matrix {
    let tables = common::tables();
    let w = Weights::default();
    let mut m = Matrix::default();
    let mut i = 0usize;
    for knight_side in [Color::White, Color::Black] {
        let pawn_side = !knight_side;
        for turn in [Color::White, Color::Black] {
            for pk in 0..64 {
                for pawn in 8..56 {
                    for nk in 0..64 {
                        for knight in 0..64 {
                            i += 1;
                            if !i.is_multiple_of(stride) {
                                continue;
                            }
                            let sq = [pk, pawn, nk, knight].map(Square::new);
                            if sq[0] == sq[1]
                                || sq[0] == sq[2]
                                || sq[0] == sq[3]
                                || sq[1] == sq[2]
                                || sq[1] == sq[3]
                                || sq[2] == sq[3]
                            {
                                continue;
                            }
                            let mut board = Board::empty();
                            board.set_piece_at(sq[0], Role::King.of(pawn_side));
                            board.set_piece_at(sq[1], Role::Pawn.of(pawn_side));
                            board.set_piece_at(sq[2], Role::King.of(knight_side));
                            board.set_piece_at(sq[3], Role::Knight.of(knight_side));
                            let setup = Setup {
                                board,
                                turn,
                                ..Setup::empty()
                            };
                            let Ok(pos) = setup.position::<Chess>(CastlingMode::Standard) else {
                                continue;
                            };
                            let Some(wdl) = tables.wdl_after_zeroing(&pos) else {
                                panic!("KNvKP probe failed");
                            };
                            let pawn_wins = if turn == pawn_side {
                                wdl > Wdl::Draw
                            } else {
                                wdl < Wdl::Draw
                            };
                            let (endgame, strong) = lookup(pos.board()).expect("KNvP entry");
                            assert_eq!((endgame.code, strong), ("KNvP", pawn_side));
                            let predicted = match endgame.verdict(&pos, strong, &w) {
                                Verdict::Adjust(s) | Verdict::Replace(s) => s.eg() > 0,
                            };
                            m.counts[usize::from(predicted)][usize::from(pawn_wins)] += 1;
                            let rank = pawn_side.relative_rank(sq[1].rank()) as usize;
                            if predicted && !pawn_wins {
                                m.false_runs[rank] += 1;
                            } else if !predicted && pawn_wins {
                                m.false_caught[rank] += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    m
}

fn report(m: &Matrix) {
    println!("KNvKP positions: {}", m.total());
    println!("                   tables: runs   tables: caught");
    println!(
        "eval: runs         {:>12}   {:>14}",
        m.counts[1][1], m.counts[1][0]
    );
    println!(
        "eval: caught       {:>12}   {:>14}",
        m.counts[0][1], m.counts[0][0]
    );
    println!("agreement {:.2} %", 100.0 * m.agreement());
    println!(
        "misses by pawn rank (2..7): predicted runs but caught {:?}",
        &m.false_runs[1..7]
    );
    println!(
        "misses by pawn rank (2..7): predicted caught but runs {:?}",
        &m.false_caught[1..7]
    );
}

#[test]
fn knight_vs_passer_verdict_against_tables_sample() {
    let m = confusion(61);
    report(&m);
    assert!(m.total() > 100_000);
    assert!(m.agreement() >= 0.80, "agreement {:.3}", m.agreement());
}

#[test]
#[ignore = "all ~40 million KNvKP positions: minutes"]
fn knight_vs_passer_verdict_against_tables_full() {
    let m = confusion(1);
    report(&m);
}
