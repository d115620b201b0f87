//! Which positions a game keeps: each searched position is resolved along the search's
//! principal variation to a quiet leaf ([`pv_leaf`]), and after the game ends at most a fixed
//! number of those leaves, chosen uniformly ([`choose`]), are written.
//!
//! Why: the positions of one game share one result, so a long game written whole outweighs a
//! short one and its labels are far from independent; a few positions per game, many games,
//! spread the same number of lines over more results. A position in the middle of an exchange
//! is judged by the search (which sees the recapture) but not by the static evaluation the
//! tuner fits; following the PV to the end of the exchange gives the evaluation a position it
//! can judge, labelled with the same search score (the PV carries the score to its leaf).

use shakmaty::{Chess, Move, Position};

use crate::openings::SplitMix64;

/// Whether `pos` is quiet ahead of `next`, the move to be played from it (if any): the side to
/// move is not in check and `next` neither captures nor promotes. The one quietness test of
/// datagen: [`pv_leaf`] stops at the first such position, and without PV resolution a
/// searched position is kept only if it is one (`play::is_quiet_sample`).
///
/// ```
/// use minkowski::datagen::sample::is_quiet_before;
/// use shakmaty::{Chess, Position};
/// let pos = Chess::default();
/// let e4 = pos.legal_moves().into_iter().find(|m| m.to().to_string() == "e4").unwrap();
/// assert!(is_quiet_before(&pos, Some(&e4)));
/// assert!(is_quiet_before(&pos, None));
/// ```
#[must_use]
pub fn is_quiet_before(pos: &Chess, next: Option<&Move>) -> bool {
    !pos.is_check() && next.is_none_or(|m| !m.is_capture() && !m.is_promotion())
}

/// The quiet leaf of `pos` along its principal variation `pv` (the search's moves from
/// `pos`, best first).
///
/// The rule: starting at `pos`, stop at the first position whose side to move is **not in
/// check** and where the PV either **ends** or continues with a move that is **neither a
/// capture nor a promotion**: that position is the leaf. Otherwise (in check, or the next PV
/// move captures or promotes) play the next PV move and look again. `None` when there is no
/// quiet leaf: the PV ends in check, a PV move is illegal where it is to be played (a PV
/// from somewhere else), or the leaf has no legal move (mate or stalemate: the evaluation
/// does not judge it).
///
/// ```
/// use minkowski::datagen::sample::pv_leaf;
/// use shakmaty::{CastlingMode, Chess, Position, fen::Fen, uci::UciMove};
/// let pos: Chess = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1".parse::<Fen>().unwrap()
///     .into_position(CastlingMode::Standard).unwrap();
/// let mv = |p: &Chess, u: &str| u.parse::<UciMove>().unwrap().to_move(p).unwrap();
/// let exd5 = mv(&pos, "e4d5");
/// let after = pos.clone().play(exd5).unwrap();
/// let ke7 = mv(&after, "e8e7");
/// // The capture is played; the king move after it is quiet: the leaf is after exd5.
/// let leaf = pv_leaf(&pos, &[exd5, ke7]).unwrap();
/// assert_eq!(leaf, after);
/// // A quiet first move: the position is its own leaf.
/// assert_eq!(pv_leaf(&after, &[ke7]).unwrap(), after);
/// ```
#[must_use]
pub fn pv_leaf(pos: &Chess, pv: &[Move]) -> Option<Chess> {
    let mut leaf = pos.clone();
    let mut moves = pv.iter();
    loop {
        let next = moves.next();
        if is_quiet_before(&leaf, next) {
            return (!leaf.legal_moves().is_empty()).then_some(leaf);
        }
        let m = *next?;
        if !leaf.is_legal(m) {
            return None;
        }
        leaf.play_unchecked(m);
    }
}

/// At most `keep` of the indices `0..candidates`, chosen uniformly without replacement, in
/// increasing order (game order); all of them when `keep` is 0 or at least `candidates`.
///
/// A partial Fisher–Yates shuffle: every subset of size `keep` is equally likely.
///
/// ```
/// use minkowski::datagen::sample::choose;
/// use minkowski::openings::SplitMix64;
/// let chosen = choose(100, 16, &mut SplitMix64(3));
/// assert_eq!(chosen.len(), 16);
/// assert!(chosen.windows(2).all(|w| w[0] < w[1]) && chosen[15] < 100);
/// assert_eq!(choose(5, 16, &mut SplitMix64(3)), vec![0, 1, 2, 3, 4]);
/// assert_eq!(choose(5, 0, &mut SplitMix64(3)).len(), 5);
/// ```
#[must_use]
pub fn choose(candidates: usize, keep: usize, rng: &mut SplitMix64) -> Vec<usize> {
    let mut all: Vec<usize> = (0..candidates).collect();
    if keep == 0 || keep >= candidates {
        return all;
    }
    for i in 0..keep {
        let j = i + rng.below(candidates - i);
        all.swap(i, j);
    }
    all.truncate(keep);
    all.sort_unstable();
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;
    use shakmaty::{CastlingMode, EnPassantMode};

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .expect("FEN")
            .into_position(CastlingMode::Standard)
            .expect("legal")
    }

    /// The moves of a line in UCI notation, each legal in turn from `start`.
    fn line(start: &Chess, uci: &str) -> Vec<Move> {
        let mut p = start.clone();
        uci.split_whitespace()
            .map(|u| {
                let m = u.parse::<UciMove>().expect("uci").to_move(&p).expect(u);
                p.play_unchecked(m);
                m
            })
            .collect()
    }

    fn fen(p: &Chess) -> String {
        Fen::from_position(p, EnPassantMode::Legal).to_string()
    }

    #[test]
    fn an_exchange_is_followed_to_its_end() {
        // White takes on d5, Black and White recapture, then a quiet king move: the leaf is
        // after the third capture, with the PV's quiet move not played.
        let p = pos("4k3/8/5n2/3p4/4P3/2N5/8/4K3 w - - 0 1");
        let pv = line(&p, "e4d5 f6d5 c3d5 e8d7");
        let leaf = pv_leaf(&p, &pv).expect("leaf");
        assert_eq!(fen(&leaf), "4k3/8/8/3N4/8/8/8/4K3 b - - 0 2");
        // Cut after the first capture (the PV ends there): the leaf is where it ends.
        assert_eq!(
            fen(&pv_leaf(&p, &pv[..1]).expect("leaf")),
            "4k3/8/5n2/3P4/8/2N5/8/4K3 b - - 0 1"
        );
    }

    #[test]
    fn checks_are_followed_and_a_pv_ending_in_check_has_no_leaf() {
        // Black is in check: the (quiet) evasion is played, then White's next move is quiet.
        let p = pos("4k3/8/8/8/8/8/4R3/4K3 b - - 0 1");
        let pv = line(&p, "e8d7 e2e3");
        assert_eq!(
            fen(&pv_leaf(&p, &pv).expect("leaf")),
            "8/3k4/8/8/8/8/4R3/4K3 w - - 1 2"
        );
        // In check with nothing more on the PV: no quiet leaf.
        assert_eq!(pv_leaf(&p, &[]), None);
        // The PV captures with check and stops: no leaf either. (A quiet checking move is
        // not played: the position before it is already quiet.)
        let q = pos("3k4/8/8/3p4/8/8/8/3RK3 w - - 0 1");
        let check = line(&q, "d1d5");
        assert_eq!(pv_leaf(&q, &check), None);
    }

    #[test]
    fn promotions_are_played_and_foreign_moves_rejected() {
        let p = pos("8/1P2k3/8/8/8/8/8/4K3 w - - 0 1");
        let pv = line(&p, "b7b8q e7d7 e1e2");
        assert_eq!(
            fen(&pv_leaf(&p, &pv).expect("leaf")),
            "1Q6/4k3/8/8/8/8/8/4K3 b - - 0 1"
        );
        // A capture that is not legal here (a PV of another position).
        let other = pos("4k3/8/2n5/3p4/4P3/2N5/8/4K3 w - - 0 1");
        let foreign = line(&other, "e4d5");
        assert_eq!(pv_leaf(&p, &foreign), None);
    }

    #[test]
    fn mate_and_stalemate_are_no_leaf() {
        let mated = pos("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
        assert_eq!(pv_leaf(&mated, &[]), None);
        let stalemate = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
        assert_eq!(pv_leaf(&stalemate, &[]), None);
    }

    #[test]
    fn choose_keeps_the_count_and_is_uniform() {
        let mut rng = SplitMix64(42);
        let (n, keep, trials) = (40, 16, 20_000);
        let mut hits = vec![0u32; n];
        for _ in 0..trials {
            let c = choose(n, keep, &mut rng);
            assert_eq!(c.len(), keep);
            assert!(c.windows(2).all(|w| w[0] < w[1]), "{c:?}");
            for i in c {
                hits[i] += 1;
            }
        }
        // Each index is kept with probability keep / n = 0.4: 8,000 of 20,000 expected,
        // standard deviation about 69; allow 6 of them.
        let expected = f64::from(trials) * keep as f64 / n as f64;
        for (i, &h) in hits.iter().enumerate() {
            assert!((f64::from(h) - expected).abs() < 420.0, "index {i}: {h}");
        }
        // The first and last quarters are as likely as the middle (no bias to game order).
        let quarter = |r: std::ops::Range<usize>| hits[r].iter().sum::<u32>();
        let (first, last) = (quarter(0..10), quarter(30..40));
        assert!(first.abs_diff(last) < 1_000, "{first} vs {last}");
    }
}
