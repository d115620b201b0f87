//! Pawn structure: passed pawns (the one test the passed-pawn terms and the knight-against-passer
//! endgame share) and the structure terms — isolated, stacked, backward and connected pawns and
//! candidate passers. Everything here depends on pawns only, so the pawn-king cache keeps it.

use shakmaty::{Bitboard, Color, Square, attacks};

use super::acc::Acc;
use super::info::PawnsAndKings;
use super::score::S;
use super::tracer::Tracer;
use super::weights::{PAWN_RANKS, declare_weights};
use crate::geometry::file_mask;

declare_weights! {
    /// The family of weights of pawn structure; where it starts in the table is set where the
    /// evaluation lists its families (`eval/mod.rs`).
    family Pawns;

    channel Linear, row PawnStructure, range -200..=100;
    /// An isolated pawn: no own pawn on a neighbouring file, and no capture by an own pawn onto a
    /// neighbouring file that could give it one.
    PAWN_ISOLATED = S(-9, -11);
    /// A pawn with another own pawn in front of it on its file, by whether a pawn of that file can
    /// capture (and so unstack) now: index 0 `stuck`, 1 `can_unstack`.
    PAWN_STACKED[Names(&["stuck", "can_unstack"])] = [S(-17, -6), S(-29, 11)];
    /// A backward pawn (its neighbours are all in front of it and an enemy pawn guards the square
    /// in front of it), by whether an enemy pawn stands in front of it on its file and by its rank:
    /// index `opposed × 8 + rank`.
    PAWN_BACKWARD[Grid(&[&["unopposed", "opposed"], PAWN_RANKS])] = [
        S(0, 0), S(-14, -12), S(-11, -19), S(-10, -21), S(11, -17), S(-12, -14), S(-12, -14), S(0, 0),
        S(0, 0), S(3, 2), S(3, -9), S(3, -16), S(-9, -16), S(-6, -6), S(-6, -6), S(0, 0),
    ];
    /// A connected pawn (an own pawn beside it or guarding it), by its rank.
    PAWN_CONNECTED[Grid(&[PAWN_RANKS])] = [
        S(0, 0), S(1, 1), S(13, 1), S(11, 7), S(26, 18), S(59, 47), S(66, 124), S(0, 0),
    ], range -100..=300;
    /// A candidate passer: not passed, no enemy pawn in front of it on its file, and at least as
    /// many own pawns beside or behind it on the neighbouring files as enemy pawns that guard its
    /// way; by its rank.
    PAWN_CANDIDATE[Grid(&[PAWN_RANKS])] = [
        S(0, 0), S(-3, 0), S(0, 5), S(0, 12), S(2, 22), S(1, 80), S(0, 0), S(0, 0),
    ], range -100..=300;
    /// An isolated pawn with no enemy pawn in front of it on its file, on top of `pawn_isolated`:
    /// rooks attack it down the half-open file.
    PAWN_ISOLATED_UNOPPOSED = S(-3, 4), range -300..=300;
    /// A pawn that no own pawn guards, attacked by two enemy pawns.
    PAWN_WEAK_LEVER = S(-10, -11), range -300..=300;
    /// A pawn on the fifth (`rank5`) or sixth (`rank6`) rank with an enemy pawn on the square in
    /// front of it.
    PAWN_BLOCKED[Names(&["rank5", "rank6"])] = [S(-2, -1), S(17, -8)], range -300..=300;
}

/// Squares in front of a pawn on its file and the two neighbouring files, per colour (White = 0,
/// Black = 1) and square: a pawn is passed when no enemy pawn stands there.
const PASSED_SPAN: [[u64; 64]; 2] = passed_spans();

const fn passed_spans() -> [[u64; 64]; 2] {
    let mut spans = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let file = (sq % 8) as i32;
        let rank = (sq / 8) as i32;
        let mut other: usize = 0;
        while other < 64 {
            let f = (other % 8) as i32;
            let r = (other / 8) as i32;
            let near = (f - file) <= 1 && (file - f) <= 1;
            if near && r > rank {
                spans[0][sq] |= 1 << other;
            }
            if near && r < rank {
                spans[1][sq] |= 1 << other;
            }
            other += 1;
        }
        sq += 1;
    }
    spans
}

/// The squares that must be free of enemy pawns for a `color` pawn on `sq` to be passed: every
/// square ahead of it (towards promotion) on its own and the neighbouring files.
///
/// ```
/// use minkowski_core::eval::pawns::passed_span;
/// use shakmaty::{Color, Square};
/// let span = passed_span(Square::A6, Color::White);
/// assert_eq!(span.count(), 4); // a7 a8 b7 b8
/// assert!(passed_span(Square::E5, Color::Black).contains(Square::D1));
/// ```
#[must_use]
pub const fn passed_span(sq: Square, color: Color) -> Bitboard {
    let side = match color {
        Color::White => 0,
        Color::Black => 1,
    };
    Bitboard(PASSED_SPAN[side][sq as usize])
}

/// Whether a `color` pawn on `sq` is passed: no pawn of `their_pawns` can stop or take it on its
/// way to promotion.
///
/// ```
/// use minkowski_core::eval::pawns::is_passed;
/// use shakmaty::{Bitboard, Color, Square};
/// let black_pawns = Bitboard::from(Square::C7);
/// assert!(!is_passed(Square::B5, Color::White, black_pawns));
/// assert!(is_passed(Square::E5, Color::White, black_pawns));
/// assert!(is_passed(Square::C6, Color::White, Bitboard::from(Square::C5))); // behind it
/// ```
#[must_use]
pub const fn is_passed(sq: Square, color: Color, their_pawns: Bitboard) -> bool {
    passed_span(sq, color).0 & their_pawns.0 == 0
}

/// The squares in front of a `color` pawn on `sq`, on its own file.
///
/// ```
/// use minkowski_core::eval::pawns::front_file;
/// use shakmaty::{Color, Square};
/// assert_eq!(front_file(Square::E6, Color::White).count(), 2); // e7 e8
/// assert!(front_file(Square::E6, Color::Black).contains(Square::E1));
/// ```
#[must_use]
pub const fn front_file(sq: Square, color: Color) -> Bitboard {
    Bitboard(passed_span(sq, color).0 & file_mask(sq.to_u32() & 7))
}

/// Every square on the ranks in front of `sq` for `color` (towards promotion).
#[must_use]
pub const fn ranks_ahead(sq: Square, color: Color) -> Bitboard {
    // One lookup, not a test of the last rank: it is asked per pawn on a cache miss.
    let side = match color {
        Color::White => 0,
        Color::Black => 1,
    };
    Bitboard(RANKS_AHEAD[side][(sq.to_u32() / 8) as usize])
}

/// The ranks in front of each rank (index: White 0, Black 1; the rank, first = 0).
const RANKS_AHEAD: [[u64; 8]; 2] = {
    let mut table = [[0u64; 8]; 2];
    let mut rank = 0;
    while rank < 8 {
        if rank < 7 {
            table[0][rank] = !0u64 << (8 * (rank + 1));
        }
        table[1][rank] = (1u64 << (8 * rank)) - 1;
        rank += 1;
    }
    table
};

/// The files on either side of `sq`'s file.
#[must_use]
pub const fn adjacent_files(sq: Square) -> Bitboard {
    // One lookup: computed per pawn on a cache miss, the two tests of the edge files cost a
    // dozen instructions.
    Bitboard(ADJACENT_FILES[(sq.to_u32() & 7) as usize])
}

/// The files on either side of each file (index: the file, a = 0).
const ADJACENT_FILES: [u64; 8] = {
    let mut table = [0u64; 8];
    let mut file = 0;
    while file < 8 {
        if file > 0 {
            table[file as usize] |= file_mask(file - 1);
        }
        if file < 7 {
            table[file as usize] |= file_mask(file + 1);
        }
        file += 1;
    }
    table
};

/// `sq`'s rank counted from `color`'s side: 0 for its first rank .. 7 for its last.
#[must_use]
pub const fn relative_rank(sq: Square, color: Color) -> usize {
    let rank = (sq.to_u32() / 8) as usize;
    match color {
        Color::White => rank,
        Color::Black => 7 - rank,
    }
}

/// The square in front of a `color` pawn on `sq` (none on the last rank).
#[must_use]
pub const fn stop_square(sq: Square, color: Color) -> Option<Square> {
    let index = sq.to_u32();
    match color {
        Color::White if index < 56 => Some(Square::new(index + 8)),
        Color::Black if index >= 8 => Some(Square::new(index - 8)),
        _ => None,
    }
}

/// Scores `color`'s pawn structure and returns its passed pawns. Kept in the pawn-king cache:
/// it reads pawns and kings only.
// Inlined into the evaluation (on a cache miss): there it counts bits with `popcnt` where the
// CPU has it (see `Evaluator::evaluate_from`); a function of its own counts them the slow way.
#[inline(always)]
pub fn structure<T: Tracer>(info: &PawnsAndKings, color: Color, acc: &mut Acc<'_, T>) -> Bitboard {
    let ours = *info.pawns.get(color);
    let theirs = *info.pawns.get(!color);
    let their_attacks = *info.pawn_attacks.get(!color);
    let our_attacks = *info.pawn_attacks.get(color);
    let mut passed = Bitboard::EMPTY;
    for sq in ours {
        let rank = relative_rank(sq, color);
        let adjacent = adjacent_files(sq);
        let neighbours = ours & adjacent;
        let front = front_file(sq, color);
        let opposed = (theirs & front).any();
        let is_passer = is_passed(sq, color, theirs);
        if is_passer {
            passed.add(sq);
        }

        // Isolated, unless a capture by an own pawn onto a neighbouring file could cure it.
        if neighbours.is_empty() && (our_attacks & theirs & adjacent).is_empty() {
            acc.add(color, PAWN_ISOLATED, 1);
            if !opposed {
                acc.add(color, PAWN_ISOLATED_UNOPPOSED, 1);
            }
        }

        let guards = ours & attacks::pawn_attacks(!color, sq);
        if guards.is_empty() && (theirs & attacks::pawn_attacks(color, sq)).count() == 2 {
            acc.add(color, PAWN_WEAK_LEVER, 1);
        }
        // Blocked on the fifth or sixth rank (ranks counted from 0): the pawn has gained space
        // but can go no further.
        if (4..=5).contains(&rank)
            && stop_square(sq, color).is_some_and(|stop| theirs.contains(stop))
        {
            acc.add(color, PAWN_BLOCKED.at(rank - 4), 1);
        }

        // Stacked: another own pawn in front on the file; a capture by a pawn of the file
        // would unstack them.
        if (ours & front).any() {
            let file_pawns = ours & Bitboard(file_mask(sq.to_u32() & 7));
            let can_unstack = (super::tactics::pawn_attacks_set(file_pawns, color) & theirs).any();
            acc.add(color, PAWN_STACKED.at(usize::from(can_unstack)), 1);
        }

        // Backward: it has neighbours, all of them in front of it, and an enemy pawn guards the
        // square in front of it, so it can neither be guarded nor advance safely.
        let backward = neighbours.any()
            && (neighbours & !ranks_ahead(sq, color)).is_empty()
            && stop_square(sq, color).is_some_and(|stop| their_attacks.contains(stop));
        if backward {
            acc.add(color, PAWN_BACKWARD.at(usize::from(opposed) * 8 + rank), 1);
        }

        // Connected: guarded by an own pawn, or one stands beside it.
        let beside = neighbours & Bitboard::from_rank(sq.rank());
        if !backward && (guards | beside).any() {
            acc.add(color, PAWN_CONNECTED.at(rank), 1);
        }

        // Candidate passer: its file is free ahead, and the own pawns beside or behind it on the
        // neighbouring files are at least as many as the enemy pawns guarding its way.
        if !is_passer && !opposed {
            let helpers = (neighbours & !ranks_ahead(sq, color)).count();
            let sentries = (theirs & passed_span(sq, color)).count();
            if helpers >= sentries {
                acc.add(color, PAWN_CANDIDATE.at(rank), 1);
            }
        }
    }
    passed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::info::Info;
    use crate::eval::test_support::{main_counts, position};
    use crate::eval::trace::CountingTracer;
    use crate::eval::weights::Weight;
    use crate::eval::weights::{Family, Weights};
    use shakmaty::Position;

    /// How many times `color` scores each element of `field` in `fen`'s pawn structure.
    fn counts<C, const N: usize, F: Family>(
        fen: &str,
        color: Color,
        field: Weight<C, N, F>,
    ) -> Vec<i32> {
        let info = Info::new(position(fen).board());
        let w = Weights::default();
        let mut tracer = CountingTracer::default();
        let mut acc = Acc::new(&w, &mut tracer);
        let _ = structure(&info.pawns_and_kings(), color, &mut acc);
        main_counts(&tracer, color, field)
    }

    fn total<C, const N: usize, F: Family>(fen: &str, color: Color, field: Weight<C, N, F>) -> i32 {
        counts(fen, color, field).iter().sum()
    }

    #[test]
    fn isolated_pawn_fires_only_without_neighbours_or_a_cure() {
        // d4 alone: isolated. a2 alone too.
        assert_eq!(
            total(
                "4k3/8/8/8/3P4/8/P7/4K3 w - - 0 1",
                Color::White,
                PAWN_ISOLATED
            ),
            2
        );
        // c3 beside d4: neither is isolated.
        assert_eq!(
            total(
                "4k3/8/8/8/3P4/2P5/8/4K3 w - - 0 1",
                Color::White,
                PAWN_ISOLATED
            ),
            0
        );
        // d4 alone, but f4xe5 would put a pawn on the e-file next to it: not isolated; f4 has
        // no neighbour and no cure of its own (e5 is on its neighbouring file, but only f4 can
        // take it; after fxe5 the d4 pawn has a neighbour, and f4 itself was the capturer).
        assert_eq!(
            counts(
                "4k3/8/8/4p3/3P1P2/8/8/4K3 w - - 0 1",
                Color::White,
                PAWN_ISOLATED
            )[0],
            0
        );
    }

    #[test]
    fn stacked_pawns_know_whether_a_capture_unstacks_them() {
        // e2 behind e3: stacked, no capture.
        assert_eq!(
            counts(
                "4k3/8/8/8/8/4P3/4P3/4K3 w - - 0 1",
                Color::White,
                PAWN_STACKED
            ),
            [1, 0]
        );
        // With a black pawn on d4, e3xd4 unstacks.
        assert_eq!(
            counts(
                "4k3/8/8/8/3p4/4P3/4P3/4K3 w - - 0 1",
                Color::White,
                PAWN_STACKED
            ),
            [0, 1]
        );
        assert_eq!(
            total(
                "4k3/8/8/8/8/4P3/3P4/4K3 w - - 0 1",
                Color::White,
                PAWN_STACKED
            ),
            0
        );
    }

    #[test]
    fn weak_levers_unopposed_isolani_and_blocked_pawns() {
        // d4 alone, no black pawn on the d-file ahead: isolated and unopposed.
        let fen = "4k3/8/8/8/3P4/8/8/4K3 w - - 0 1";
        assert_eq!(counts(fen, Color::White, PAWN_ISOLATED_UNOPPOSED), vec![1]);
        // A black pawn on d6 opposes it.
        let fen = "4k3/8/3p4/8/3P4/8/8/4K3 w - - 0 1";
        assert_eq!(counts(fen, Color::White, PAWN_ISOLATED_UNOPPOSED), vec![0]);
        // d4 attacked by c5 and e5, unguarded: a weak lever; guarded by c3 it is not.
        let fen = "4k3/8/8/2p1p3/3P4/8/8/4K3 w - - 0 1";
        assert_eq!(counts(fen, Color::White, PAWN_WEAK_LEVER), vec![1]);
        let fen = "4k3/8/8/2p1p3/3P4/2P5/8/4K3 w - - 0 1";
        assert_eq!(counts(fen, Color::White, PAWN_WEAK_LEVER), vec![0]);
        // e5 blocked by e6 (fifth rank), f6 by f7 (sixth); e4 blocked by e5 is not counted; for
        // Black, d4 blocked by d3 is on Black's fifth rank.
        let fen = "4k3/5p2/4pP2/4P3/3p4/3P4/8/4K3 w - - 0 1";
        assert_eq!(counts(fen, Color::White, PAWN_BLOCKED), vec![1, 1]);
        assert_eq!(counts(fen, Color::Black, PAWN_BLOCKED), vec![1, 0]);
    }

    #[test]
    fn backward_pawn_needs_advanced_neighbours_and_a_guarded_stop_square() {
        // d3 with c4 and e4 in front, e5... black pawn on c5? d4 guarded by black e5: backward.
        let fen = "4k3/8/8/4p3/2P1P3/3P4/8/4K3 w - - 0 1";
        let c = counts(fen, Color::White, PAWN_BACKWARD);
        assert_eq!(c[2], 1, "unopposed, third rank: {c:?}"); // index 0 * 8 + rank 2
        // Without the guard on d4 it is not backward.
        assert_eq!(
            total(
                "4k3/8/8/8/2P1P3/3P4/8/4K3 w - - 0 1",
                Color::White,
                PAWN_BACKWARD
            ),
            0
        );
        // With a neighbour level with it, it is not backward.
        assert_eq!(
            total(
                "4k3/8/8/4p3/2P5/3PP3/8/4K3 w - - 0 1",
                Color::White,
                PAWN_BACKWARD
            ),
            0
        );
    }

    #[test]
    fn connected_pawns_are_guarded_or_side_by_side() {
        // d4 and e4 side by side (phalanx): both connected, rank 4 (index 3).
        assert_eq!(
            counts(
                "4k3/8/8/8/3PP3/8/8/4K3 w - - 0 1",
                Color::White,
                PAWN_CONNECTED
            )[3],
            2
        );
        // c3 guards d4: d4 connected; c3 has nothing.
        assert_eq!(
            counts(
                "4k3/8/8/8/3P4/2P5/8/4K3 w - - 0 1",
                Color::White,
                PAWN_CONNECTED
            ),
            [0, 0, 0, 1, 0, 0, 0, 0]
        );
        assert_eq!(
            total(
                "4k3/8/8/8/3P4/8/1P6/4K3 w - - 0 1",
                Color::White,
                PAWN_CONNECTED
            ),
            0
        );
    }

    #[test]
    fn candidate_passer_has_enough_helpers_for_its_sentries() {
        // White c4 and d4 vs black d... : c5? Take b-file majority: white a4 b4 vs black b6.
        // b4: file free ahead? b6 is on its file: opposed, not a candidate. a4: sentry b6 (one),
        // helpers b4 (one): candidate.
        let c = counts(
            "4k3/8/1p6/8/PP6/8/8/4K3 w - - 0 1",
            Color::White,
            PAWN_CANDIDATE,
        );
        assert_eq!(c[3], 1, "{c:?}");
        // a4 alone against b6 and c... two sentries? a4 vs b6: helpers 0 < sentries 1.
        assert_eq!(
            total(
                "4k3/8/1p6/8/P7/8/8/4K3 w - - 0 1",
                Color::White,
                PAWN_CANDIDATE
            ),
            0
        );
    }

    #[test]
    fn passed_pawns_are_returned() {
        let pos = position("4k3/8/8/3p4/8/8/P3P3/4K3 w - - 0 1");
        let info = Info::new(pos.board());
        let w = Weights::default();
        let mut silent = ();
        let mut acc = Acc::new(&w, &mut silent);
        assert_eq!(
            structure(&info.pawns_and_kings(), Color::White, &mut acc),
            Bitboard::from(Square::A2)
        );
        assert_eq!(
            structure(&info.pawns_and_kings(), Color::Black, &mut acc),
            Bitboard::EMPTY
        );
    }

    /// The structure terms against a naive restatement over squares, on random pawn sets.
    #[test]
    fn masks_match_a_square_by_square_definition() {
        for sq in Square::ALL {
            for color in Color::ALL {
                let ahead = Bitboard::from_iter(
                    Square::ALL
                        .into_iter()
                        .filter(|o| relative_rank(*o, color) > relative_rank(sq, color)),
                );
                assert_eq!(ranks_ahead(sq, color), ahead);
                let front =
                    Bitboard::from_iter(ahead.into_iter().filter(|o| o.file() == sq.file()));
                assert_eq!(front_file(sq, color), front);
            }
            let adjacent =
                Bitboard::from_iter(Square::ALL.into_iter().filter(|o| {
                    (i32::from(o.file() as u8) - i32::from(sq.file() as u8)).abs() == 1
                }));
            assert_eq!(adjacent_files(sq), adjacent);
        }
    }
}
