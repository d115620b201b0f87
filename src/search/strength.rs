//! Playing below full strength (`UCI_LimitStrength` and `UCI_Elo`): how a rating becomes a
//! node budget per move and a controlled choice among the best root moves.
//!
//! Two levers, both of the kind a weaker player shows:
//!
//! - **Less search.** A node budget per move that doubles every [`ELO_PER_NODE_DOUBLING`]
//!   points above [`NODES_AT_MIN_ELO`] at [`MIN_ELO`]: a weak setting sees fewer tactics, as a
//!   weak player does, instead of seeing everything and then throwing the game away. The
//!   budget never cuts the first iteration (depth 1 of every line, with the quiescence
//!   search), so the move always comes from searched lines.
//! - **A looser choice.** The root is searched for [`CANDIDATE_LINES`] principal variations,
//!   and the move is drawn among those within a margin of the best score, each weighted by
//!   `exp(-loss / temperature)` (a softmax of the scores). Margin and temperature shrink to
//!   nothing as the rating rises. The margin bounds the loss of any one move: a move that
//!   drops a queen, or walks into a mate the best move avoids, is never drawn, however low the
//!   setting (unless the budgeted search itself misses the refutation, which is the first
//!   lever at work).
//!
//! At [`MAX_ELO`] neither lever is applied: the search is exactly the full-strength one.
//!
//! The node budget's two numbers are calibrated by games against rated engines
//! (docs/strength.md, `scripts/calibrate-elo.py`); the margin and temperature are still first
//! guesses. This file is the only place the mapping lives.
//!
//! ```
//! use minkowski::search::strength::{MAX_ELO, MIN_ELO, StrengthLimit};
//! let weakest = StrengthLimit::new(MIN_ELO);
//! assert_eq!(weakest.node_limit(), Some(1_800));
//! assert_eq!(weakest.margin_cp(), 150);
//! let full = StrengthLimit::new(MAX_ELO);
//! assert!(full.is_full_strength());
//! assert_eq!(full.node_limit(), None);
//! assert_eq!(full.margin_cp(), 0);
//! ```

use std::fmt;

use crate::value::Value;

/// The lowest `UCI_Elo`.
pub const MIN_ELO: u32 = 1350;

/// The highest `UCI_Elo`: full strength, exactly (no node budget, always the best move).
pub const MAX_ELO: u32 = 2800;

/// `UCI_Elo`'s default: a club player. It only matters once `UCI_LimitStrength` is on, and a GUI
/// that turns the limit on without choosing a rating then gets a clearly weaker opponent, not
/// the full engine under another name.
pub const DEFAULT_ELO: u32 = 1800;

/// Nodes a move at [`MIN_ELO`]: a depth of four or five plies and the quiescence search.
/// Calibrated with [`ELO_PER_NODE_DOUBLING`] by games (docs/strength.md, 2026-11-28): the
/// first guess, 300, played about 90 points below its setting at 1900 and 140 above it at
/// 2300 against rated engines; a fit of the measured ratings against the node budget puts the
/// budget that plays at 1350 near 1,800.
pub const NODES_AT_MIN_ELO: u64 = 1_800;

/// Rating points per doubling of the node budget. Measured, not assumed: at 10+0.1 against
/// Fairy-Max, Phalanx, GNU Chess and Glaurung, the weakened engine's rating rose by about 215
/// points a doubling between 7,000 and 300,000 nodes a move (a first guess of 120, from
/// self-play lore, made the low settings too weak and the high ones too strong). At 215 the
/// budget is about 1,800 nodes at 1350, 10,600 at 1900, 40,000 at 2300 and 190,000 just below
/// [`MAX_ELO`] (about what a 10+0.1 game gives a move: 2800 is the full engine).
pub const ELO_PER_NODE_DOUBLING: f64 = 215.0;

/// The widest loss a drawn move may have against the best, in centipawns, at [`MIN_ELO`];
/// it shrinks in proportion to the rating's distance from [`MAX_ELO`]. Loose enough to give a
/// pawn away now and then, never a piece.
pub const MARGIN_CP_AT_MIN_ELO: f64 = 150.0;

/// The softmax temperature at [`MIN_ELO`], in centipawns: a move this much worse than the best
/// is drawn `1/e` times as often. It shrinks like the margin.
pub const TEMPERATURE_CP_AT_MIN_ELO: f64 = 80.0;

/// Principal variations searched for the choice when the strength is limited (more when
/// `MultiPV` asks for more). Stockfish's skill levels search four as well: enough to offer a
/// real alternative, few enough that the budget is not spread thin.
pub const CANDIDATE_LINES: usize = 4;

/// A rating to play at, and what it means for the search: a node budget per move
/// ([`StrengthLimit::node_limit`]), a margin ([`StrengthLimit::margin_cp`]) and a temperature
/// ([`StrengthLimit::temperature_cp`]) for the choice among the root's best moves.
///
/// ```
/// use minkowski::search::strength::StrengthLimit;
/// let club = StrengthLimit::new(1800);
/// assert_eq!(club.elo(), 1800);
/// // Clamped into MIN_ELO..=MAX_ELO.
/// assert_eq!(StrengthLimit::new(100).elo(), 1350);
/// // Stronger settings search more and choose more tightly.
/// let master = StrengthLimit::new(2400);
/// assert!(master.node_limit() > club.node_limit());
/// assert!(master.margin_cp() < club.margin_cp());
/// assert!(master.temperature_cp() < club.temperature_cp());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StrengthLimit {
    elo: u32,
}

impl StrengthLimit {
    /// The limit for `elo`, clamped into [`MIN_ELO`]`..=`[`MAX_ELO`].
    #[must_use]
    pub fn new(elo: u32) -> StrengthLimit {
        StrengthLimit {
            elo: elo.clamp(MIN_ELO, MAX_ELO),
        }
    }

    /// The rating.
    #[must_use]
    pub fn elo(self) -> u32 {
        self.elo
    }

    /// Whether this is the top of the range, where the search is the full-strength one.
    #[must_use]
    pub fn is_full_strength(self) -> bool {
        self.elo >= MAX_ELO
    }

    /// How far up the range the rating is: 0 at [`MIN_ELO`], 1 at [`MAX_ELO`].
    fn progress(self) -> f64 {
        f64::from(self.elo - MIN_ELO) / f64::from(MAX_ELO - MIN_ELO)
    }

    /// Nodes a move (`None` at full strength): [`NODES_AT_MIN_ELO`] doubled every
    /// [`ELO_PER_NODE_DOUBLING`] points.
    ///
    /// ```
    /// use minkowski::search::strength::StrengthLimit;
    /// assert_eq!(StrengthLimit::new(1350 + 215).node_limit(), Some(3_600));
    /// assert_eq!(StrengthLimit::new(2800).node_limit(), None);
    /// ```
    #[must_use]
    pub fn node_limit(self) -> Option<u64> {
        if self.is_full_strength() {
            return None;
        }
        let doublings = f64::from(self.elo - MIN_ELO) / ELO_PER_NODE_DOUBLING;
        // At most 2^7 times the base below MAX_ELO: no overflow.
        Some((NODES_AT_MIN_ELO as f64 * doublings.exp2()).round() as u64)
    }

    /// The widest loss, in centipawns, of a move that may be drawn instead of the best.
    ///
    /// ```
    /// use minkowski::search::strength::StrengthLimit;
    /// assert_eq!(StrengthLimit::new(1350).margin_cp(), 150);
    /// assert_eq!(StrengthLimit::new(2075).margin_cp(), 75);
    /// ```
    #[must_use]
    pub fn margin_cp(self) -> i32 {
        (MARGIN_CP_AT_MIN_ELO * (1.0 - self.progress())).round() as i32
    }

    /// The softmax temperature of the choice, in centipawns (0: always the best move).
    #[must_use]
    pub fn temperature_cp(self) -> f64 {
        TEMPERATURE_CP_AT_MIN_ELO * (1.0 - self.progress())
    }

    /// Principal variations the root needs for the choice: [`CANDIDATE_LINES`], or 1 at full
    /// strength.
    #[must_use]
    pub fn lines(self) -> usize {
        if self.is_full_strength() {
            1
        } else {
            CANDIDATE_LINES
        }
    }

    /// Which of the root's lines to play, given their scores (`values[i]` for line `i`, from
    /// one completed iteration). Only lines within [`StrengthLimit::margin_cp`] of the best
    /// score can be drawn, each with weight `exp(-loss / temperature)`; the first best line
    /// when there is nothing to choose.
    ///
    /// ```
    /// use minkowski::search::strength::{ChoiceRng, StrengthLimit};
    /// use minkowski::value::Value;
    /// let lines = [Value(40), Value(25), Value(-900)]; // the third drops the queen
    /// let mut rng = ChoiceRng::new(7);
    /// let weak = StrengthLimit::new(1350);
    /// for _ in 0..100 {
    ///     assert!(weak.choose(&lines, &mut rng) < 2);
    /// }
    /// assert_eq!(StrengthLimit::new(2800).choose(&lines, &mut rng), 0);
    /// ```
    pub fn choose(self, values: &[Value], rng: &mut ChoiceRng) -> usize {
        let Some(best) = values.iter().copied().max() else {
            return 0;
        };
        let best_index = values.iter().position(|&v| v == best).unwrap_or(0);
        let margin = i64::from(self.margin_cp());
        let temperature = self.temperature_cp();
        // Losses as i64: mate scores are far apart and must not overflow.
        let loss = |v: Value| i64::from(best.0) - i64::from(v.0);
        let weight = |v: Value| {
            if loss(v) > margin {
                0.0
            } else {
                (-(loss(v) as f64) / temperature).exp()
            }
        };
        if temperature <= 0.0 || values.iter().filter(|&&v| loss(v) <= margin).count() < 2 {
            return best_index;
        }
        let total: f64 = values.iter().map(|&v| weight(v)).sum();
        let mut draw = rng.next_unit() * total;
        for (i, &v) in values.iter().enumerate() {
            let w = weight(v);
            if w > 0.0 && draw < w {
                return i;
            }
            draw -= w;
        }
        // Rounding left the draw past the last weight: the last candidate.
        values
            .iter()
            .rposition(|&v| loss(v) <= margin)
            .unwrap_or(best_index)
    }
}

impl fmt::Display for StrengthLimit {
    /// What the setting means, for a `debug` echo: `UCI_Elo 1800: at most 4036 nodes a move,
    /// moves within 103 cp of the best (temperature 55 cp)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.node_limit() {
            None => write!(f, "UCI_Elo {}: full strength", self.elo),
            Some(nodes) => write!(
                f,
                "UCI_Elo {}: at most {nodes} nodes a move, moves within {} cp of the best \
                 (temperature {:.0} cp)",
                self.elo,
                self.margin_cp(),
                self.temperature_cp()
            ),
        }
    }
}

/// The random source of the choice: SplitMix64 (Steele, Lea and Flood, 2014), the generator
/// `openings` uses too (repeated here: the search sits below that layer). Owned by the
/// searcher, so that a seed gives the same choices again.
///
/// ```
/// use minkowski::search::strength::ChoiceRng;
/// let (mut a, mut b) = (ChoiceRng::new(1), ChoiceRng::new(1));
/// assert_eq!(a.next_unit(), b.next_unit());
/// let u = a.next_unit();
/// assert!((0.0..1.0).contains(&u));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChoiceRng(u64);

impl ChoiceRng {
    /// A generator starting from `seed`.
    #[must_use]
    pub fn new(seed: u64) -> ChoiceRng {
        ChoiceRng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `[0, 1)`, from the top 53 bits.
    pub fn next_unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mapping_is_monotone_over_the_whole_range() {
        let mut previous = StrengthLimit::new(MIN_ELO);
        for elo in MIN_ELO + 1..=MAX_ELO {
            let limit = StrengthLimit::new(elo);
            let nodes = |l: StrengthLimit| l.node_limit().unwrap_or(u64::MAX);
            assert!(nodes(limit) >= nodes(previous), "{elo}");
            assert!(limit.margin_cp() <= previous.margin_cp(), "{elo}");
            assert!(limit.temperature_cp() <= previous.temperature_cp(), "{elo}");
            previous = limit;
        }
        assert_eq!(StrengthLimit::new(MAX_ELO - 1).node_limit(), Some(192_342));
    }

    #[test]
    fn splitmix_matches_the_reference_sequence() {
        let mut rng = ChoiceRng::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn the_choice_follows_the_softmax_weights() {
        // Two moves 40 cp apart at MIN_ELO (temperature 80): weights 1 and exp(-0.5).
        let limit = StrengthLimit::new(MIN_ELO);
        let mut rng = ChoiceRng::new(12345);
        let draws = 20_000;
        let second = (0..draws)
            .filter(|_| limit.choose(&[Value(0), Value(-40)], &mut rng) == 1)
            .count();
        let expected = (-0.5f64).exp() / (1.0 + (-0.5f64).exp());
        let share = second as f64 / f64::from(draws);
        assert!((share - expected).abs() < 0.02, "{share} vs {expected}");
    }

    #[test]
    fn mates_are_kept_and_mate_threats_avoided() {
        let limit = StrengthLimit::new(MIN_ELO);
        let mut rng = ChoiceRng::new(3);
        // A mate against a merely good move: always the mate (mates may differ in length).
        let mating = [Value::mate_in(5), Value(300), Value::mate_in(9)];
        // A quiet move against one that allows a mate.
        let defending = [Value(10), Value::mated_in(4), Value(-20)];
        for _ in 0..1000 {
            assert_ne!(limit.choose(&mating, &mut rng), 1);
            assert_ne!(limit.choose(&defending, &mut rng), 1);
        }
        assert_eq!(limit.choose(&[], &mut rng), 0);
    }
}
