//! Win, draw and loss chances from a score: the model behind `UCI_ShowWDL`.
//!
//! A centipawn score says who is better, not how likely a win is: +150 with queens on the board
//! wins far less often than +150 in a pawn ending. The model, shaped like Stockfish's
//! `win_rate_model`, turns a score `s` (the side to move's view) and the material on the board
//! `m` into chances:
//!
//! ```text
//! P(win)  = 1 / (1 + exp((a(m) - s) / b(m)))
//! P(loss) = 1 / (1 + exp((a(m) + s) / b(m)))      (the win chance of -s: symmetric)
//! P(draw) = 1 - P(win) - P(loss)
//! ```
//!
//! `a(m)` is the score at which a win is as likely as not, `b(m)` how quickly the chances turn
//! around it; both are cubic polynomials in `m / 58` ([`WdlModel`]). The constants
//! ([`WdlModel::FITTED`]) were fitted by maximum likelihood to the results of real games between
//! builds of Minkowski, from the scores its search gave in them (`scripts/wdl-fit.py`; the same
//! fit from the engine's own data files: `minkowski wdl-fit`, [`fit`]; the figures are in
//! docs/results-log.md, "Win, draw and loss").
//!
//! Mates and tablebase wins are certain ([`Wdl::from_value`]).
//!
//! ```
//! use minkowski::value::Value;
//! use minkowski::wdl::{Wdl, WdlModel};
//! let model = WdlModel::FITTED;
//! let level = model.wdl(Value(0), 60);
//! assert_eq!(level.win, level.loss); // a level score: as many wins as losses
//! assert!(model.wdl(Value(300), 60).win > model.wdl(Value(100), 60).win);
//! assert_eq!(model.wdl(Value::mate_in(3), 60), Wdl::WIN);
//! ```

pub mod fit;

use shakmaty::{Chess, Position, Role};

use crate::eval::Evaluator;
use crate::value::{Score, Value};

/// Least material the model distinguishes (pawn 1, knight and bishop 3, rook 5, queen 9, both
/// sides): fewer is treated as this much. Below it the self-play data hold few positions, and a
/// cubic extrapolated past its data turns wild.
pub const MATERIAL_MIN: u32 = 17;

/// Most material the model distinguishes: the start position's 78 (more needs promotions).
pub const MATERIAL_MAX: u32 = 78;

/// The material the polynomials are scaled to: they are written in `m / 58`, Stockfish's
/// convention, so that coefficients stay near the size of the values they make.
pub const MATERIAL_ANCHOR: f64 = 58.0;

/// Least `b(m)`, in centipawns: keeps the logistic a slope (not a step) wherever a fitted
/// cubic would dip.
const MIN_SPREAD: f64 = 1.0;

/// Win, draw and loss chances in per mille, from the side to move's point of view. They always
/// sum to exactly 1000.
///
/// ```
/// use minkowski::wdl::Wdl;
/// let w = Wdl { win: 600, draw: 300, loss: 100 };
/// assert_eq!(w.flipped(), Wdl { win: 100, draw: 300, loss: 600 });
/// assert_eq!(w.to_string(), "600 300 100"); // as `info ... wdl` writes it
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Wdl {
    /// Chance of a win, per mille.
    pub win: u32,
    /// Chance of a draw, per mille.
    pub draw: u32,
    /// Chance of a loss, per mille.
    pub loss: u32,
}

impl Wdl {
    /// A certain win.
    pub const WIN: Wdl = Wdl {
        win: 1000,
        draw: 0,
        loss: 0,
    };
    /// A certain draw (a tablebase draw).
    pub const DRAW: Wdl = Wdl {
        win: 0,
        draw: 1000,
        loss: 0,
    };
    /// A certain loss.
    pub const LOSS: Wdl = Wdl {
        win: 0,
        draw: 0,
        loss: 1000,
    };

    /// The same chances from the other side's point of view.
    #[must_use]
    pub const fn flipped(self) -> Wdl {
        Wdl {
            win: self.loss,
            draw: self.draw,
            loss: self.win,
        }
    }

    /// The certain outcome of a mate or tablebase score, `None` for any other score.
    ///
    /// ```
    /// use minkowski::value::Value;
    /// use minkowski::wdl::Wdl;
    /// assert_eq!(Wdl::certain(Value::mated_in(4)), Some(Wdl::LOSS));
    /// assert_eq!(Wdl::certain(Value::tb_win_in(7)), Some(Wdl::WIN));
    /// assert_eq!(Wdl::certain(Value(250)), None);
    /// ```
    #[must_use]
    pub const fn certain(value: Value) -> Option<Wdl> {
        if !value.is_mate() && !value.is_tb_win() {
            None
        } else if value.0 > 0 {
            Some(Wdl::WIN)
        } else {
            Some(Wdl::LOSS)
        }
    }

    /// The chances of `value` with `material` on the board ([`material`]), by the fitted
    /// model: [`WdlModel::FITTED`]`.wdl(value, material)`.
    ///
    /// ```
    /// use minkowski::value::Value;
    /// use minkowski::wdl::Wdl;
    /// let w = Wdl::from_value(Value(80), 40);
    /// assert_eq!(w.win + w.draw + w.loss, 1000);
    /// assert!(w.win > w.loss);
    /// ```
    #[must_use]
    pub fn from_value(value: Value, material: u32) -> Wdl {
        WdlModel::FITTED.wdl(value, material)
    }
}

impl Wdl {
    /// The chances of a score as the search reports it: a mate is certain, centipawns go
    /// through [`Wdl::from_value`] (so a tablebase score is certain too).
    ///
    /// ```
    /// use minkowski::value::Score;
    /// use minkowski::wdl::Wdl;
    /// assert_eq!(Wdl::from_score(Score::Mate(2), 30), Wdl::WIN);
    /// assert_eq!(Wdl::from_score(Score::Mate(-4), 30), Wdl::LOSS);
    /// assert_eq!(Wdl::from_score(Score::Mate(0), 30), Wdl::LOSS); // mated on the board
    /// assert_eq!(Wdl::from_score(Score::Cp(-90), 30), Wdl::from_score(Score::Cp(90), 30).flipped());
    /// ```
    #[must_use]
    pub fn from_score(score: Score, material: u32) -> Wdl {
        match score {
            Score::Mate(n) if n > 0 => Wdl::WIN,
            Score::Mate(_) => Wdl::LOSS,
            Score::Cp(cp) => Wdl::from_value(Value(cp), material),
        }
    }
}

impl std::fmt::Display for Wdl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {} {}", self.win, self.draw, self.loss)
    }
}

/// One line on the win/draw/loss chances of `pos`'s static evaluation, for `minkowski eval`
/// and the UCI `eval` command.
///
/// ```
/// use minkowski::eval::Evaluator;
/// let line = minkowski::wdl::describe_static(&Evaluator::default(), &shakmaty::Chess::default());
/// assert!(line.starts_with("WDL: win "), "{line}");
/// assert!(line.contains("material 78"), "{line}");
/// ```
#[must_use]
pub fn describe_static(evaluator: &Evaluator, pos: &Chess) -> String {
    let value = evaluator.evaluate(pos);
    let material = material(pos);
    let w = Wdl::from_value(value, material);
    let pct = |per_mille: u32| f64::from(per_mille) / 10.0;
    format!(
        "WDL: win {:.1} %, draw {:.1} %, loss {:.1} % (wdl {w}) for the side to move, from the \
         static evaluation {} cp with material {material}",
        pct(w.win),
        pct(w.draw),
        pct(w.loss),
        value.0
    )
}

/// The material on the board as the model counts it: pawn 1, knight 3, bishop 3, rook 5,
/// queen 9, both sides together (78 at the start).
///
/// ```
/// use minkowski::wdl::material;
/// assert_eq!(material(&shakmaty::Chess::default()), 78);
/// ```
#[must_use]
pub fn material(pos: &Chess) -> u32 {
    let board = pos.board();
    [
        (Role::Pawn, 1),
        (Role::Knight, 3),
        (Role::Bishop, 3),
        (Role::Rook, 5),
        (Role::Queen, 9),
    ]
    .iter()
    .map(|&(role, worth)| board.by_role(role).count() as u32 * worth)
    .sum()
}

/// The model's coefficients: `a(m)` and `b(m)` are cubics in `x = m / 58`, highest power first
/// (`a(m) = ((A[0] x + A[1]) x + A[2]) x + A[3]`, Stockfish's order), in centipawns.
///
/// ```
/// use minkowski::wdl::WdlModel;
/// let flat = WdlModel { a: [0.0, 0.0, 0.0, 150.0], b: [0.0, 0.0, 0.0, 60.0] };
/// assert_eq!(flat.params(20), (150.0, 60.0));
/// assert!((flat.win_chance(150.0, 20) - 0.5).abs() < 1e-12);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel {
    /// `a(m)`: the score at which a win is as likely as not.
    pub a: [f64; 4],
    /// `b(m)`: the spread, how many centipawns move the chances by a factor of e.
    pub b: [f64; 4],
}

impl WdlModel {
    /// The model the engine reports with. Fitted by `scripts/wdl-fit.py` (maximum likelihood
    /// of the game results: Fisher scoring on all eight coefficients, from the best flat model)
    /// to real games: 387 games of Minkowski against itself (SPRT runs of 2026-12-02 between
    /// builds, 40,000 nodes a move, UHO 40-60 openings), every move from ply 16 on with its
    /// search score and the game's result from the mover's side, each of the 189 openings
    /// weighing one in all; 35,524 moves fitted, 8,211 of a fifth of the openings held out.
    /// Log loss 0.5963 nats a position on the held-out moves (0.8447 for the previous model,
    /// fitted to 400-node self-play; 1.1120 for the outcome frequencies alone). A level score
    /// with 40 to 60 points of material is a draw 59-64 % of the time, as in those games (68 %)
    /// and in 10+0.1 games against Ethereal 12 (70 %). The run and the calibration table:
    /// docs/results-log.md, "Against real games".
    pub const FITTED: WdlModel = WdlModel {
        a: [-996.7540, 2792.3633, -2470.1310, 798.9664],
        b: [-186.9023, 688.2671, -672.3330, 260.6455],
    };

    /// `(a(m), b(m))` for `material` (clamped to [`MATERIAL_MIN`]`..=`[`MATERIAL_MAX`]); `b` is
    /// at least one centipawn and `a` at least zero, so that the win and loss chances never
    /// add up to more than one.
    #[must_use]
    pub fn params(&self, material: u32) -> (f64, f64) {
        let x = f64::from(material.clamp(MATERIAL_MIN, MATERIAL_MAX)) / MATERIAL_ANCHOR;
        let cubic = |c: &[f64; 4]| ((c[0] * x + c[1]) * x + c[2]) * x + c[3];
        (cubic(&self.a).max(0.0), cubic(&self.b).max(MIN_SPREAD))
    }

    /// The chance that the side to move wins with `score` centipawns (its view), 0..=1.
    #[must_use]
    pub fn win_chance(&self, score: f64, material: u32) -> f64 {
        let (a, b) = self.params(material);
        logistic((score - a) / b)
    }

    /// Win, draw and loss per mille for `value` with `material` on the board: certain for a
    /// mate or tablebase score ([`Wdl::certain`]), the model's chances rounded otherwise.
    /// Symmetric: the loss of `value` is the win of `-value`.
    ///
    /// ```
    /// use minkowski::value::Value;
    /// use minkowski::wdl::WdlModel;
    /// let m = WdlModel::FITTED;
    /// assert_eq!(m.wdl(Value(-120), 30), m.wdl(Value(120), 30).flipped());
    /// ```
    #[must_use]
    pub fn wdl(&self, value: Value, material: u32) -> Wdl {
        if let Some(certain) = Wdl::certain(value) {
            return certain;
        }
        let score = f64::from(value.0);
        let win = per_mille(self.win_chance(score, material));
        let loss = per_mille(self.win_chance(-score, material));
        // With a(m) >= 0 the two chances add up to at most one, so the rounded ones to at most
        // 1000 (each is rounded by at most half a unit); `min` only guards against the
        // impossible without breaking the symmetry.
        let (win, loss) = if win + loss > 1000 {
            (win.min(500), loss.min(500))
        } else {
            (win, loss)
        };
        Wdl {
            win,
            draw: 1000 - win - loss,
            loss,
        }
    }
}

/// `1 / (1 + e^-x)`.
fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// A chance 0..=1 as per mille, rounded to nearest.
fn per_mille(p: f64) -> u32 {
    // NaN (impossible with finite inputs) becomes 0 through the saturating cast.
    (p * 1000.0).round().clamp(0.0, 1000.0) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Scores from -3000 to 3000 cp and every material count the model tells apart (and some
    /// beyond it).
    fn grid() -> impl Iterator<Item = (i32, u32)> {
        (0..=104).flat_map(|m| (-3000..=3000).step_by(7).map(move |s| (s, m)))
    }

    #[test]
    fn chances_sum_to_1000_and_are_symmetric() {
        for (s, m) in grid() {
            let w = WdlModel::FITTED.wdl(Value(s), m);
            assert_eq!(w.win + w.draw + w.loss, 1000, "{s} cp, material {m}: {w:?}");
            assert_eq!(w, WdlModel::FITTED.wdl(Value(-s), m).flipped(), "{s} {m}");
        }
    }

    #[test]
    fn wins_rise_and_losses_fall_with_the_score() {
        for m in 0..=104 {
            let mut last = WdlModel::FITTED.wdl(Value(-3000), m);
            for s in -2999..=3000 {
                let w = WdlModel::FITTED.wdl(Value(s), m);
                assert!(w.win >= last.win && w.loss <= last.loss, "{s} cp, {m}");
                last = w;
            }
            // And they really move: far ahead is (nearly) a sure win, far behind a sure loss.
            assert!(WdlModel::FITTED.wdl(Value(3000), m).win >= 990, "{m}");
            assert!(WdlModel::FITTED.wdl(Value(-3000), m).loss >= 990, "{m}");
        }
    }

    #[test]
    fn mates_and_tablebase_scores_are_certain() {
        for ply in [1, 2, 17, crate::value::MAX_PLY] {
            for m in [0, 20, 78] {
                let model = WdlModel::FITTED;
                assert_eq!(model.wdl(Value::mate_in(ply), m), Wdl::WIN);
                assert_eq!(model.wdl(Value::mated_in(ply), m), Wdl::LOSS);
                assert_eq!(model.wdl(Value::tb_win_in(ply), m), Wdl::WIN);
                assert_eq!(model.wdl(Value::tb_loss_in(ply), m), Wdl::LOSS);
            }
        }
        // The largest evaluation is not a tablebase score: it gets the model's chances.
        let eval_limit = Value(crate::eval::EVAL_LIMIT);
        assert_eq!(Wdl::certain(eval_limit), None);
    }

    /// The band real games show: a level score with a middlegame's material (40 to 60 points)
    /// ended in a draw 68 % of the time in 40,000-node self-play (docs/results-log.md, "Against real
    /// games") and 70 % in 10+0.1 games against Ethereal 12; a model fitted to fast, decisive
    /// games said 13-19 %. The shipped model must stay between 50 % and 80 %.
    #[test]
    fn a_level_middlegame_is_drawn_as_often_as_in_real_games() {
        for material in [40, 45, 50, 55, 60] {
            let draw = WdlModel::FITTED.wdl(Value(0), material).draw;
            assert!(
                (500..=800).contains(&draw),
                "material {material}: draw {draw} per mille"
            );
        }
    }

    #[test]
    fn a_degenerate_model_still_sums_to_1000() {
        // a = 0 and a step-like spread: win and loss each round to 500 at a level score.
        let knife = WdlModel {
            a: [0.0; 4],
            b: [0.0, 0.0, 0.0, -5.0],
        };
        for s in -50..=50 {
            let w = knife.wdl(Value(s), 40);
            assert_eq!(w.win + w.draw + w.loss, 1000, "{s}: {w:?}");
            assert_eq!(w, knife.wdl(Value(-s), 40).flipped());
        }
        assert_eq!(
            knife.wdl(Value(0), 40),
            Wdl {
                win: 500,
                draw: 0,
                loss: 500
            }
        );
    }

    #[test]
    fn material_counts_pieces_by_their_worth() {
        let pos: Chess = "4k3/pp6/8/8/8/8/8/RNBQK3 w - - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap();
        assert_eq!(material(&pos), 2 + 5 + 3 + 3 + 9);
    }
}
