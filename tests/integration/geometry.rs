//! Proof by brute force of `minkowski::geometry`: every table and set-wise function is compared
//! with a naive implementation that shares no code with it — distances from file/rank
//! coordinates, knight distance and reach by a breadth-first search over per-square move deltas,
//! forks by counting targets in shakmaty's per-square knight attacks — on all 4,096 square pairs
//! and on thousands of random sets from fixed seeds. The last tests run the built binary.

use std::process::Command;

use minkowski::geometry::{
    centre_manhattan_distance, king_distance, knight_attacks_set, knight_distance,
    knight_distance_by_fill, knight_distance_by_rank_file, knight_fill, knight_fork_squares,
    knight_reach, knight_set_distance, manhattan_distance, nearest_king_distance,
};
use shakmaty::{Bitboard, Square, attacks};

use crate::common::XorShift64;

// ---------------------------------------------------------------------------------------------
// Naive oracles
// ---------------------------------------------------------------------------------------------

/// The eight knight moves as (file, rank) steps.
const KNIGHT_STEPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// File and rank of a square as signed integers.
fn coords(sq: Square) -> (i32, i32) {
    (sq.file().to_u32() as i32, sq.rank().to_u32() as i32)
}

/// The square at (file, rank), if on the board.
fn square_at(file: i32, rank: i32) -> Option<Square> {
    ((0..8).contains(&file) && (0..8).contains(&rank))
        .then(|| Square::new((rank * 8 + file) as u32))
}

/// Squares one knight move from `sq`, by stepping coordinates.
fn knight_steps_from(sq: Square) -> impl Iterator<Item = Square> {
    let (file, rank) = coords(sq);
    KNIGHT_STEPS
        .iter()
        .filter_map(move |&(df, dr)| square_at(file + df, rank + dr))
}

fn naive_king_distance(a: Square, b: Square) -> u32 {
    let ((fa, ra), (fb, rb)) = (coords(a), coords(b));
    (fa - fb).unsigned_abs().max((ra - rb).unsigned_abs())
}

fn naive_manhattan_distance(a: Square, b: Square) -> u32 {
    let ((fa, ra), (fb, rb)) = (coords(a), coords(b));
    (fa - fb).unsigned_abs() + (ra - rb).unsigned_abs()
}

/// Breadth-first search over knight steps from every square of `start`, never landing on
/// `forbidden`; start squares are at distance 0 even if forbidden. `None` for unreachable.
fn bfs_knight_distances(start: Bitboard, forbidden: Bitboard) -> [Option<u32>; 64] {
    let mut distance = [None; 64];
    let mut queue = std::collections::VecDeque::new();
    for sq in start {
        distance[sq.to_usize()] = Some(0);
        queue.push_back(sq);
    }
    while let Some(sq) = queue.pop_front() {
        let next = distance[sq.to_usize()].unwrap() + 1;
        for to in knight_steps_from(sq) {
            if distance[to.to_usize()].is_none() && !forbidden.contains(to) {
                distance[to.to_usize()] = Some(next);
                queue.push_back(to);
            }
        }
    }
    distance
}

fn naive_knight_attacks(knights: Bitboard) -> Bitboard {
    knights.into_iter().flat_map(knight_steps_from).collect()
}

fn naive_reach(start: Bitboard, max_moves: u32, forbidden: Bitboard) -> Bitboard {
    let distances = bfs_knight_distances(start, forbidden);
    Square::ALL
        .into_iter()
        .filter(|sq| distances[sq.to_usize()].is_some_and(|d| d <= max_moves))
        .collect()
}

fn naive_set_distance(from: Bitboard, to: Bitboard, forbidden: Bitboard) -> Option<u32> {
    let distances = bfs_knight_distances(from, forbidden);
    to.into_iter()
        .filter_map(|sq| distances[sq.to_usize()])
        .min()
}

/// Squares from which a knight attacks at least two targets, by looping over squares and counting
/// with shakmaty's lookup table.
fn naive_fork_squares(targets: Bitboard) -> Bitboard {
    Square::ALL
        .into_iter()
        .filter(|&sq| (attacks::knight_attacks(sq) & targets).count() >= 2)
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Deterministic random sets
// ---------------------------------------------------------------------------------------------

/// Random sets drawn from the shared generator (`common::XorShift64`, Marsaglia's xorshift64).
impl XorShift64 {
    /// A set of varying density: empty-ish to nearly full, or a few single squares.
    fn set(&mut self) -> Bitboard {
        let bits = match self.next() % 6 {
            0 => self.next(),
            1 => self.next() & self.next(),
            2 => self.next() & self.next() & self.next(),
            3 => self.next() | self.next(),
            4 => self.sparse(4),
            _ => self.next() & EDGES,
        };
        Bitboard(bits)
    }

    /// One to `max_count` random squares.
    fn sparse(&mut self, max_count: u64) -> u64 {
        let count = 1 + self.next() % max_count;
        (0..count).fold(0, |set, _| set | 1 << (self.next() % 64))
    }
}

/// The a-, b-, g- and h-files plus ranks 1, 2, 7 and 8: where wrap-around bugs show.
const EDGES: u64 = 0xc3c3_c3c3_c3c3_c3c3 | 0xffff_0000_0000_ffff;

/// Hand-picked sets: empty, full, every single square, edge files and ranks, corners, colours.
fn special_sets() -> Vec<Bitboard> {
    let mut sets = vec![
        Bitboard::EMPTY,
        Bitboard::FULL,
        Bitboard(0x0101_0101_0101_0101), // a-file
        Bitboard(0x0303_0303_0303_0303), // a- and b-files
        Bitboard(0x8080_8080_8080_8080), // h-file
        Bitboard(0xc0c0_c0c0_c0c0_c0c0), // g- and h-files
        Bitboard(0xff),                  // rank 1
        Bitboard(0xff << 56),            // rank 8
        Bitboard(0x8100_0000_0000_0081), // corners
        Bitboard(0xff81_8181_8181_81ff), // border ring
        Bitboard::LIGHT_SQUARES,
        Bitboard::DARK_SQUARES,
        Bitboard(EDGES),
    ];
    sets.extend(Square::ALL.into_iter().map(Bitboard::from));
    sets
}

/// Special sets followed by `count` random ones from `seed`.
fn test_sets(seed: u64, count: usize) -> Vec<Bitboard> {
    let mut rng = XorShift64(seed);
    let mut sets = special_sets();
    sets.extend((0..count).map(|_| rng.set()));
    sets
}

fn all_pairs() -> impl Iterator<Item = (Square, Square)> {
    Square::ALL
        .into_iter()
        .flat_map(|a| Square::ALL.into_iter().map(move |b| (a, b)))
}

// ---------------------------------------------------------------------------------------------
// Distances on all 4,096 square pairs
// ---------------------------------------------------------------------------------------------

#[test]
fn king_distance_is_chebyshev_on_all_pairs() {
    for (a, b) in all_pairs() {
        assert_eq!(king_distance(a, b), naive_king_distance(a, b), "{a}-{b}");
    }
}

#[test]
fn nearest_king_distance_is_the_least_over_the_set() {
    for set in test_sets(0x9e37_79b9_7f4a_7c15, 500) {
        for sq in Square::ALL {
            let naive = set.into_iter().map(|b| naive_king_distance(sq, b)).min();
            assert_eq!(nearest_king_distance(sq, set), naive, "{sq} {set:?}");
        }
    }
}

#[test]
fn manhattan_distance_is_taxicab_on_all_pairs() {
    for (a, b) in all_pairs() {
        assert_eq!(
            manhattan_distance(a, b),
            naive_manhattan_distance(a, b),
            "{a}-{b}"
        );
    }
}

#[test]
fn centre_manhattan_distance_is_distance_to_nearest_centre_square() {
    let centre = [Square::D4, Square::E4, Square::D5, Square::E5];
    for sq in Square::ALL {
        let nearest = centre
            .iter()
            .map(|&c| naive_manhattan_distance(sq, c))
            .min();
        assert_eq!(Some(centre_manhattan_distance(sq)), nearest, "{sq}");
    }
    for corner in [Square::A1, Square::H1, Square::A8, Square::H8] {
        assert_eq!(centre_manhattan_distance(corner), 6);
    }
}

#[test]
fn knight_distance_table_matches_bfs_on_all_pairs() {
    for a in Square::ALL {
        let bfs = bfs_knight_distances(Bitboard::from(a), Bitboard::EMPTY);
        for b in Square::ALL {
            assert_eq!(Some(knight_distance(a, b)), bfs[b.to_usize()], "{a}-{b}");
        }
    }
}

#[test]
fn knight_distance_by_rank_file_matches_bfs_on_all_pairs() {
    for a in Square::ALL {
        let bfs = bfs_knight_distances(Bitboard::from(a), Bitboard::EMPTY);
        for b in Square::ALL {
            assert_eq!(
                Some(knight_distance_by_rank_file(a, b)),
                bfs[b.to_usize()],
                "{a}-{b}"
            );
        }
    }
}

#[test]
fn knight_distance_by_fill_matches_bfs_on_all_pairs() {
    for a in Square::ALL {
        let bfs = bfs_knight_distances(Bitboard::from(a), Bitboard::EMPTY);
        for b in Square::ALL {
            assert_eq!(
                Some(knight_distance_by_fill(a, b)),
                bfs[b.to_usize()],
                "{a}-{b}"
            );
        }
    }
}

#[test]
fn knight_distance_implementations_agree_with_each_other() {
    for (a, b) in all_pairs() {
        let table = knight_distance(a, b);
        assert_eq!(table, knight_distance_by_rank_file(a, b), "{a}-{b}");
        assert_eq!(table, knight_distance_by_fill(a, b), "{a}-{b}");
        let single = |sq| Bitboard::from(sq);
        assert_eq!(
            Some(table),
            knight_set_distance(single(a), single(b), Bitboard::EMPTY),
            "{a}-{b}"
        );
    }
}

#[test]
fn knight_distance_known_facts() {
    use Square::*;
    // Diagonal neighbours are two moves apart, except next to a corner.
    for (corner, neighbour) in [(A1, B2), (H8, G7), (A8, B7), (H1, G2)] {
        assert_eq!(
            knight_distance(corner, neighbour),
            4,
            "{corner}-{neighbour}"
        );
        assert_eq!(knight_distance_by_rank_file(corner, neighbour), 4);
    }
    assert_eq!(knight_distance(C3, D4), 2);
    assert_eq!(knight_distance(B2, C3), 2);
    assert_eq!(knight_distance(A1, H8), 6);
    assert_eq!(knight_distance(A1, B1), 3);
    assert_eq!(knight_distance(B1, C3), 1);
    assert_eq!(
        all_pairs().map(|(a, b)| knight_distance(a, b)).max(),
        Some(6)
    );
    // A knight changes square colour every move: the parity of the distance is fixed by colours.
    for (a, b) in all_pairs() {
        assert_eq!(
            knight_distance(a, b) % 2 == 1,
            a.is_light() != b.is_light(),
            "{a}-{b}"
        );
    }
}

#[test]
fn distances_are_symmetric_and_zero_exactly_on_equal_squares() {
    type Metric = fn(Square, Square) -> u32;
    let metrics: [(&str, Metric); 4] = [
        ("king", king_distance),
        ("manhattan", manhattan_distance),
        ("knight", knight_distance),
        ("knight by rank/file", knight_distance_by_rank_file),
    ];
    for (name, metric) in metrics {
        for (a, b) in all_pairs() {
            assert_eq!(metric(a, b), metric(b, a), "{name} {a}-{b}");
            assert_eq!(metric(a, b) == 0, a == b, "{name} {a}-{b}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Set-wise knight patterns on thousands of sets
// ---------------------------------------------------------------------------------------------

#[test]
fn knight_attacks_set_matches_per_square_steps_and_shakmaty() {
    for set in test_sets(0x9e37_79b9_7f4a_7c15, 5000) {
        let expected = naive_knight_attacks(set);
        assert_eq!(knight_attacks_set(set), expected, "{:#018x}", set.0);
        let by_shakmaty = set
            .into_iter()
            .fold(Bitboard::EMPTY, |acc, sq| acc | attacks::knight_attacks(sq));
        assert_eq!(expected, by_shakmaty, "{:#018x}", set.0);
    }
}

#[test]
fn knight_fill_is_knights_plus_their_attacks() {
    for set in test_sets(0xd1b5_4a32_d192_ed03, 5000) {
        assert_eq!(
            knight_fill(set),
            set | naive_knight_attacks(set),
            "{:#018x}",
            set.0
        );
    }
}

#[test]
fn knight_reach_matches_bfs_avoiding_forbidden_squares() {
    let mut rng = XorShift64(0x2545_f491_4f6c_dd1d);
    let starts = test_sets(0x8cb9_2ba7_2f3d_8dd7, 3000);
    for (i, &start) in starts.iter().enumerate() {
        // Mostly one to three knights; every tenth start is a whole random set.
        let start = if i % 10 == 0 || start.count() <= 3 {
            start
        } else {
            Bitboard(rng.sparse(3))
        };
        let forbidden = match i % 4 {
            0 => Bitboard::EMPTY,
            _ => rng.set(),
        };
        for max_moves in [0, 1, 2, 3, 4, 6, 10, 64, u32::MAX] {
            assert_eq!(
                knight_reach(start, max_moves, forbidden),
                naive_reach(start, max_moves, forbidden),
                "start {:#018x} forbidden {:#018x} moves {max_moves}",
                start.0,
                forbidden.0
            );
        }
    }
}

#[test]
fn knight_set_distance_matches_multi_source_bfs() {
    let mut rng = XorShift64(0x4f1b_bcdc_bfa5_3e0b);
    for (i, from) in test_sets(0x6a09_e667_f3bc_c908, 3000)
        .into_iter()
        .enumerate()
    {
        let to = rng.set();
        let forbidden = if i % 3 == 0 {
            Bitboard::EMPTY
        } else {
            rng.set()
        };
        assert_eq!(
            knight_set_distance(from, to, forbidden),
            naive_set_distance(from, to, forbidden),
            "from {:#018x} to {:#018x} forbidden {:#018x}",
            from.0,
            to.0,
            forbidden.0
        );
    }
    let a1 = Bitboard::from(Square::A1);
    assert_eq!(
        knight_set_distance(Bitboard::EMPTY, a1, Bitboard::EMPTY),
        None
    );
    assert_eq!(
        knight_set_distance(a1, Bitboard::EMPTY, Bitboard::EMPTY),
        None
    );
}

#[test]
fn knight_fork_squares_match_per_square_target_count() {
    for targets in test_sets(0xbb67_ae85_84ca_a73b, 5000) {
        assert_eq!(
            knight_fork_squares(targets),
            naive_fork_squares(targets),
            "{:#018x}",
            targets.0
        );
    }
    // Every pair of targets, too.
    for (a, b) in all_pairs() {
        let targets = Bitboard::from(a) | Bitboard::from(b);
        assert_eq!(
            knight_fork_squares(targets),
            naive_fork_squares(targets),
            "{a} {b}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// The binary's diagrams
// ---------------------------------------------------------------------------------------------

fn run_binary(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_minkowski"))
        .args(args)
        .output()
        .expect("the minkowski binary runs")
}

/// The cell of `square` in a printed diagram (rank label, then one cell per file).
fn diagram_cell(stdout: &str, square: Square) -> String {
    let rank_label = square.rank().char().to_string();
    let row = stdout
        .lines()
        .find(|line| line.split_whitespace().next() == Some(rank_label.as_str()))
        .unwrap_or_else(|| panic!("no row for rank {rank_label} in\n{stdout}"));
    row.split_whitespace()
        .nth(1 + square.file().to_usize())
        .unwrap()
        .to_owned()
}

#[test]
fn cli_distance_knight_a1_shows_6_on_h8_and_4_on_b2() {
    let output = run_binary(&["distance", "knight", "a1"]);
    assert!(output.status.success());
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(diagram_cell(&stdout, Square::H8), "6", "{stdout}");
    assert_eq!(diagram_cell(&stdout, Square::B2), "4", "{stdout}");
    assert_eq!(diagram_cell(&stdout, Square::A1), "0", "{stdout}");
    assert!(stdout.contains("a b c d e f g h"), "{stdout}");
    // Every cell agrees with the library.
    for sq in Square::ALL {
        let expected = knight_distance(Square::A1, sq).to_string();
        assert_eq!(diagram_cell(&stdout, sq), expected, "{sq}");
    }
}

#[test]
fn cli_fill_draws_one_board_per_move() {
    let output = run_binary(&["fill", "a1", "3"]);
    assert!(output.status.success());
    let stdout = String::from_utf8(output.stdout).unwrap();
    for (moves, squares) in [(1, 3), (2, 12), (3, 32)] {
        let plural = if moves == 1 { "move" } else { "moves" };
        let title = format!("at most {moves} {plural}: {squares} squares");
        assert!(stdout.contains(&title), "missing {title:?} in\n{stdout}");
    }
}

#[test]
fn cli_rejects_bad_arguments_with_a_message() {
    let bad: [&[&str]; 7] = [
        &["distance", "bishop", "a1"],
        &["distance", "knight", "z9"],
        &["distance", "king"],
        &["distance", "centre", "e4"],
        &["fill", "a1", "-3"],
        &["fill", "a1", "1000000"],
        &["fill", "i1", "2"],
    ];
    for args in bad {
        let output = run_binary(args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{args:?} succeeded");
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(!stderr.trim().is_empty(), "{args:?} printed no message");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}
