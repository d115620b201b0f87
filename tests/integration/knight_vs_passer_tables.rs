//! Knight against passed pawn, against perfect play: over legal KNvKP positions (both sides to
//! move, both colours of the knight side), the evaluation's static verdict against the tables.
//!
//! **Agree** means: the verdict says "the pawn side wins" (the knight-against-passer verdict's
//! endgame score is positive for the pawn side: the race term's unstoppable bonus) exactly when
//! the tables' WDL says the pawn side wins (a win, cursed wins included); a draw and a loss for
//! the pawn side both count as "caught". A second, harder oracle than the exact race test in
//! `endgames.rs`: the race alone ignores the kings' support and interference.
//!
//! **Halves**: every position has a fixed half, a hash of its number in the enumeration below
//! (the same in the sample and in the full run). The verdict's layers were designed looking at
//! the misses of half A only; half B is held out, and both are reported and asserted.
//!
//! The same count is made for the whole static evaluation (above `PAWN_WINS_ABOVE` for the pawn
//! side, or not):
//! what the search reads, which a weight fit could spoil if the race's weights were fitted
//! (they are not: `minkowski::tune::RULE_WEIGHTS`).
//!
//! CI checks a deterministic sample (every 61st position);
//! `cargo test --release --test integration knight_vs_passer_tables:: -- --ignored --nocapture`
//! runs all of them and prints the confusion matrix and the misses by pawn rank.

use crate::common;
use minkowski::eval::Evaluator;
use minkowski::eval::endgame::{Verdict, lookup};
use minkowski::eval::weights::Weights;
use shakmaty::{Board, CastlingMode, Chess, Color, Position, Role, Setup, Square};
use shakmaty_syzygy::Wdl;

/// The whole evaluation says "the pawn side wins" above this many centipawns for it: a draw
/// is read about zero (the knight's side capped there by `lone_minor_caps`, with the middlegame
/// half and the tempo bonus on top), so the sign alone would be noise.
const PAWN_WINS_ABOVE: i32 = 60;

#[derive(Default, Debug)]
struct Matrix {
    /// [predicted runs][truly runs]
    counts: [[u64; 2]; 2],
    /// Misses by the pawn's relative rank (index 1..=6): [predicted runs, truly caught] and
    /// [predicted caught, truly runs].
    false_runs: [u64; 8],
    false_caught: [u64; 8],
    /// Positions where the whole evaluation (for the pawn side, above [`PAWN_WINS_ABOVE`] or
    /// not) agrees with the tables.
    eval_agrees: u64,
}

impl Matrix {
    fn total(&self) -> u64 {
        self.counts.iter().flatten().sum()
    }
    fn agreement(&self) -> f64 {
        (self.counts[0][0] + self.counts[1][1]) as f64 / self.total() as f64
    }
    fn eval_agreement(&self) -> f64 {
        self.eval_agrees as f64 / self.total() as f64
    }
    fn add(&mut self, other: &Matrix) {
        for (a, b) in self
            .counts
            .iter_mut()
            .flatten()
            .zip(other.counts.iter().flatten())
        {
            *a += b;
        }
        for (a, b) in self.false_runs.iter_mut().zip(&other.false_runs) {
            *a += b;
        }
        for (a, b) in self.false_caught.iter_mut().zip(&other.false_caught) {
            *a += b;
        }
        self.eval_agrees += other.eval_agrees;
    }
}

/// The half (0 = A, 1 = B) of the position numbered `number`: the top bit of a multiplicative
/// hash, so neighbours in the enumeration scatter over both halves.
fn half(number: usize) -> usize {
    ((number as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 63) as usize
}

/// The confusion matrices of the two halves over every `stride`th position.
fn confusion(stride: usize) -> [Matrix; 2] {
    let tables = common::tables();
    let w = Weights::default();
    let evaluator = Evaluator::new(w.clone());
    let mut halves = [Matrix::default(), Matrix::default()];
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
                            let m = &mut halves[half(i)];
                            m.counts[usize::from(predicted)][usize::from(pawn_wins)] += 1;
                            let rank = pawn_side.relative_rank(sq[1].rank()) as usize;
                            if predicted && !pawn_wins {
                                m.false_runs[rank] += 1;
                            } else if !predicted && pawn_wins {
                                m.false_caught[rank] += 1;
                            }
                            let value = evaluator.evaluate(&pos).0;
                            let for_pawn = if turn == pawn_side { value } else { -value };
                            m.eval_agrees += u64::from((for_pawn > PAWN_WINS_ABOVE) == pawn_wins);
                        }
                    }
                }
            }
        }
    }
    halves
}

fn report(name: &str, m: &Matrix) {
    println!("{name}: KNvKP positions: {}", m.total());
    println!("                   tables: runs   tables: caught");
    println!(
        "eval: runs         {:>12}   {:>14}",
        m.counts[1][1], m.counts[1][0]
    );
    println!(
        "eval: caught       {:>12}   {:>14}",
        m.counts[0][1], m.counts[0][0]
    );
    println!(
        "agreement {:.2} %; whole evaluation (above PAWN_WINS_ABOVE) {:.2} %",
        100.0 * m.agreement(),
        100.0 * m.eval_agreement()
    );
    println!(
        "misses by pawn rank (2..7): predicted runs but caught {:?}",
        &m.false_runs[1..7]
    );
    println!(
        "misses by pawn rank (2..7): predicted caught but runs {:?}",
        &m.false_caught[1..7]
    );
}

/// Reports both halves and their sum; returns the sum.
fn report_all(halves: &[Matrix; 2]) -> Matrix {
    let mut all = Matrix::default();
    for (name, m) in ["half A (designed on)", "half B (held out)"]
        .into_iter()
        .zip(halves)
    {
        report(name, m);
        all.add(m);
    }
    report("both halves", &all);
    all
}

#[test]
fn knight_vs_passer_verdict_against_tables_sample() {
    let halves = confusion(61);
    let all = report_all(&halves);
    assert!(all.total() > 100_000);
    // Measured: 97.09 % (A) and 97.12 % (B); the whole evaluation above `PAWN_WINS_ABOVE` or
    // not 92.11 % and 92.26 % since the lone-minor cap (its sign alone, before the cap: 90.74 %
    // and 90.76 %; 90.42 %
    // and 90.50 % before the piece-placement family; 89.9 % with an endgame half for a minor's
    // distance to its own king);
    // before the kings' layers 93.26 % and 93.20 % (sign 87.79 % and 87.76 %).
    for m in &halves {
        assert!(m.total() > 50_000);
        assert!(m.agreement() >= 0.968, "agreement {:.4}", m.agreement());
        assert!(
            m.eval_agreement() >= 0.90,
            "evaluation sign {:.4}",
            m.eval_agreement()
        );
    }
}

#[test]
#[ignore = "all ~40 million KNvKP positions: minutes"]
fn knight_vs_passer_verdict_against_tables_full() {
    report_all(&confusion(1));
}
