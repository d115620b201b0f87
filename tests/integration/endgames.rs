//! Endgame knowledge and forks, each checked against an independent oracle:
//! the knight-versus-passer fill against an exhaustive race search, fork moves against a
//! per-square count, the registry's signatures by parsing, mop-up by its shape.

use std::collections::HashMap;

use crate::common::{XorShift64, suite_positions};

use minkowski::eval::Evaluator;
use minkowski::eval::endgame::{
    ENDGAMES, KbnkPosition, Matcher, PasserRace, Signature, Verdict, kbnk_corner_distance, lookup,
    mop_up_bonus,
};
use minkowski::eval::score::S;
use minkowski::eval::tactics::{
    fork_targets, knight_fork_jumps, knight_fork_moves, winning_fork_squares,
};
use minkowski::eval::trace::Term;
use minkowski::eval::weights::{ROLE_NAMES, Weights};
use shakmaty::fen::Fen;
use shakmaty::{Bitboard, CastlingMode, Chess, Color, Position, Role, Square, attacks};

fn position(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .expect("test FEN")
        .into_position(CastlingMode::Chess960)
        .expect("legal test position")
}

// ---------------------------------------------------------------------------------------------
// Knight against a passed pawn: exhaustive race search (the oracle).
// ---------------------------------------------------------------------------------------------

/// Knight moves by coordinate deltas (independent of the library's shifts).
fn knight_steps(sq: i32) -> Vec<i32> {
    let (f, r) = (sq % 8, sq / 8);
    [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ]
    .iter()
    .filter_map(|(df, dr)| {
        let (nf, nr) = (f + df, r + dr);
        ((0..8).contains(&nf) && (0..8).contains(&nr)).then_some(nr * 8 + nf)
    })
    .collect()
}

/// Whether a white pawn on `pawn` promotes against `knights` (kings left out): the pawn walks
/// (a double step from its second rank is allowed), the knights move one at a time, and the
/// defence wins by capturing the pawn, standing on its path, or taking the new queen at once.
fn pawn_wins(
    pawn: i32,
    knights: &[i32],
    pawn_to_move: bool,
    memo: &mut HashMap<(i32, Vec<i32>, bool), bool>,
) -> bool {
    let on_path = |k: i32| k == pawn || (k % 8 == pawn % 8 && k / 8 > pawn / 8);
    if knights.iter().any(|&k| on_path(k)) {
        return false;
    }
    let mut sorted = knights.to_vec();
    sorted.sort_unstable();
    let key = (pawn, sorted, pawn_to_move);
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let result = if pawn_to_move {
        let mut steps = vec![pawn + 8];
        if pawn / 8 == 1 {
            steps.push(pawn + 16);
        }
        steps.into_iter().any(|to| {
            if to / 8 == 7 {
                !knights.iter().any(|&k| knight_steps(k).contains(&to))
            } else {
                pawn_wins(to, knights, false, memo)
            }
        })
    } else {
        knights.iter().enumerate().all(|(i, &k)| {
            knight_steps(k)
                .into_iter()
                .filter(|t| !knights.contains(t))
                .all(|t| {
                    let mut next = knights.to_vec();
                    next[i] = t;
                    pawn_wins(pawn, &next, true, memo)
                })
        })
    };
    memo.insert(key, result);
    result
}

fn sq(index: i32) -> Square {
    Square::new(index as u32)
}

#[test]
fn knight_fill_catches_exactly_when_the_race_search_does_for_every_square() {
    let mut memo = HashMap::new();
    let (mut cases, mut caught) = (0, 0);
    for pawn in 8..56 {
        for knight in (0..64).filter(|&k| k != pawn) {
            for pawn_to_move in [false, true] {
                let oracle_caught = !pawn_wins(pawn, &[knight], pawn_to_move, &mut memo);
                caught += usize::from(oracle_caught);
                // The same race for White, and mirrored for Black.
                for (color, p, k) in [
                    (Color::White, pawn, knight),
                    (Color::Black, pawn ^ 56, knight ^ 56),
                ] {
                    let race = PasserRace {
                        pawn: sq(p),
                        pawn_color: color,
                        pawn_to_move,
                    };
                    assert_eq!(
                        race.knights_catch(Bitboard::from(sq(k))),
                        oracle_caught,
                        "pawn {} ({color:?}), knight {}, pawn to move: {pawn_to_move}",
                        sq(p),
                        sq(k)
                    );
                    cases += 1;
                }
            }
        }
    }
    assert_eq!(cases, 48 * 63 * 2 * 2);
    // Both outcomes occur often: the comparison is not trivially one-sided.
    assert!(
        caught > 1000 && caught < 48 * 63 * 2 - 1000,
        "caught {caught}"
    );
}

#[test]
fn knight_fill_matches_the_race_search_with_two_knights() {
    let mut memo = HashMap::new();
    let mut rng = XorShift64(0x2545_f491_4f6c_dd1d);
    let mut next = || rng.next();
    let mut checked = 0;
    while checked < 5_000 {
        let pawn = 8 + (next() % 48) as i32;
        let (a, b) = ((next() % 64) as i32, (next() % 64) as i32);
        if a == b || a == pawn || b == pawn {
            continue;
        }
        let pawn_to_move = next() % 2 == 0;
        let oracle = !pawn_wins(pawn, &[a, b], pawn_to_move, &mut memo);
        let race = PasserRace {
            pawn: sq(pawn),
            pawn_color: Color::White,
            pawn_to_move,
        };
        let knights = Bitboard::from(sq(a)) | Bitboard::from(sq(b));
        assert_eq!(
            race.knights_catch(knights),
            oracle,
            "pawn {pawn} knights {a} {b}"
        );
        checked += 1;
    }
}

#[test]
fn the_king_catches_by_the_rule_of_the_square() {
    // White pawn on a4 needs 4 moves; the black king on e5 is 4 from a8 (inside the square).
    let race = PasserRace {
        pawn: Square::A4,
        pawn_color: Color::White,
        pawn_to_move: true,
    };
    assert!(race.king_catches(Square::E5));
    assert!(!race.king_catches(Square::F5)); // 5 away: outside the square
    let defender_moves = PasserRace {
        pawn_to_move: false,
        ..race
    };
    assert!(defender_moves.king_catches(Square::F5)); // the tempo brings it into the square
    // A pawn on its second rank double-steps: a2 needs 5 moves, like a pawn on a3.
    let a2 = PasserRace {
        pawn: Square::A2,
        pawn_color: Color::White,
        pawn_to_move: true,
    };
    assert_eq!(a2.moves_to_promote(), 5);
    assert!(a2.king_catches(Square::F4) && !a2.king_catches(Square::G4));
    // Black pawns run the other way.
    let h5 = PasserRace {
        pawn: Square::H5,
        pawn_color: Color::Black,
        pawn_to_move: true,
    };
    assert_eq!(
        (h5.promotion_square(), h5.moves_to_promote()),
        (Square::H1, 4)
    );
}

#[test]
fn an_unstoppable_passer_outweighs_a_caught_one_in_the_evaluation() {
    let eval = Evaluator::default();
    // Black pawn on c2 with Black to move promotes; with White to move Nb3 (knight d2) catches it.
    let runs = eval
        .evaluate(&position("8/5k1K/8/8/8/8/2pN4/8 b - - 0 1"))
        .0;
    let caught = -eval
        .evaluate(&position("8/5k1K/8/8/8/8/2pN4/8 w - - 0 1"))
        .0;
    assert!(runs - caught > 200, "unstoppable {runs} vs caught {caught}");
    let trace = eval.trace(&position("8/5k1K/8/8/8/8/2pN4/8 b - - 0 1"));
    assert_eq!(trace.endgame.map(|(code, ..)| code), Some("KNvP"));
}

// ---------------------------------------------------------------------------------------------
// Forks: against a per-square loop.
// ---------------------------------------------------------------------------------------------

fn naive_fork_moves(pos: &Chess, attacker: Color) -> Bitboard {
    let board = pos.board();
    let them = !attacker;
    let occupied = board.occupied();
    let valuable = |s: Square| match board.piece_at(s) {
        Some(p) if p.color == them => match p.role {
            Role::King | Role::Queen | Role::Rook => true,
            Role::Knight | Role::Bishop => board.attacks_to(s, them, occupied).is_empty(),
            Role::Pawn => false,
        },
        _ => false,
    };
    // Whether the piece on `p` may not move off its line: without it, one of our sliders would
    // attack its king.
    let pinned = |p: Square| {
        let Some(king) = board.king_of(them) else {
            return false;
        };
        p != king
            && board.by_color(attacker).into_iter().any(|s| {
                let piece = board.piece_at(s).expect("occupied");
                matches!(piece.role, Role::Bishop | Role::Rook | Role::Queen)
                    && attacks::attacks(s, piece, occupied ^ Bitboard::from(p)).contains(king)
                    && !attacks::attacks(s, piece, occupied).contains(king)
            })
    };
    let value = |role: Role| minkowski::eval::tactics::EXCHANGE_VALUE[role as usize - 1];
    let attackers_of = |to: Square, color: Color| {
        board
            .by_color(color)
            .into_iter()
            .filter(|&q| {
                let piece = board.piece_at(q).expect("occupied");
                attacks::attacks(q, piece, occupied).contains(to)
            })
            .collect::<Vec<_>>()
    };
    let mut result = Bitboard::EMPTY;
    for knight in board.by_piece(Role::Knight.of(attacker)) {
        for to in attacks::knight_attacks(knight) {
            let own = board.by_color(attacker).contains(to);
            let hits = attacks::knight_attacks(to)
                .into_iter()
                .filter(|&t| valuable(t))
                .count();
            // The knight keeps the fork unless an unpinned enemy piece can take it without
            // losing at least a pawn more than the knight to our recapture.
            let cheapest = attackers_of(to, them)
                .into_iter()
                .filter(|&q| !pinned(q))
                .map(|q| value(board.role_at(q).expect("occupied")))
                .min();
            let defended = attackers_of(to, attacker).len() >= 2;
            let keeps = cheapest.is_none_or(|v| defended && v - value(Role::Knight) >= 100);
            if !own && keeps && hits >= 2 {
                result.add(to);
            }
        }
    }
    result
}

#[test]
fn fork_moves_equal_a_per_square_count_on_suite_positions() {
    let mut with_forks = 0;
    for file in ["wac.epd", "sts1.epd", "sts2.epd", "bk.epd", "eet.epd"] {
        for pos in suite_positions(file, 300) {
            for color in [Color::White, Color::Black] {
                let fast = knight_fork_moves(pos.board(), color);
                assert_eq!(
                    fast,
                    naive_fork_moves(&pos, color),
                    "{}",
                    Fen::from_position(&pos, shakmaty::EnPassantMode::Legal)
                );
                with_forks += usize::from(fast.any());
            }
        }
    }
    assert!(
        with_forks >= 10,
        "only {with_forks} positions had forks: the test proves little"
    );
}

#[test]
fn wac_knight_fork_keys_are_found() {
    // WAC positions whose key move is a knight fork of two of king/queen/rook, with the key
    // square. The term counts a fork square only where the knight cannot be taken at a loss for
    // us, and every one of these keys wins by a longer combination: WAC.077's Ng3, WAC.139's
    // Nf6+, WAC.178's Nxe6 and WAC.273's Ng3+ land where an enemy pawn takes, WAC.022's Nxf7
    // where the king takes, WAC.037's Nxd4+ where a bishop takes (an even trade), WAC.267's Nc7+
    // where the c8 rook takes. Then two built positions: the knight on e4 forks the king on h7
    // and the queen on e8 from f6, which the g7 pawn guards; with that pawn pinned by the rook
    // on a7 the fork counts.
    let cases = [
        ("4q3/6pk/8/8/4N3/8/8/4K3 w - - 0 1", Square::F6, false),
        ("4q3/R5pk/8/8/4N3/8/8/4K3 w - - 0 1", Square::F6, true),
        (
            "r1bqk2r/ppp1nppp/4p3/n5N1/2BPp3/P1P5/2P2PPP/R1BQK2R w KQkq - 0 1",
            Square::F7,
            false,
        ),
        (
            "2r5/2rk2pp/1pn1pb2/pN1p4/P2P4/1N2B3/nPR1KPPP/3R4 b - - 0 1",
            Square::D4,
            false,
        ),
        (
            "3r2k1/ppp2ppp/6q1/b4n2/3nQB2/2p5/P4PPP/RN3RK1 b - - 0 1",
            Square::G3,
            false,
        ),
        (
            "rnb3kr/ppp2ppp/1b6/3q4/3pN3/Q4N2/PPP2KPP/R1B1R3 w - - 0 1",
            Square::F6,
            false,
        ),
        (
            "3r2k1/p1rn1p1p/1p2pp2/6q1/3PQNP1/5P2/P1P4R/R5K1 w - - 0 1",
            Square::E6,
            false,
        ),
        (
            "2r1kb1r/pp3ppp/2n1b3/1q1N2B1/1P2Q3/8/P4PPP/3RK1NR w Kk - 0 1",
            Square::C7,
            false,
        ),
        (
            "2k4B/bpp1qp2/p1b5/7p/1PN1n1p1/2Pr4/P5PP/R3QR1K b - - 0 1",
            Square::G3,
            false,
        ),
    ];
    for (fen, square, expected) in cases {
        let pos = position(fen);
        let forks = knight_fork_moves(pos.board(), pos.turn());
        assert_eq!(forks.contains(square), expected, "{fen}: forks {forks:?}");
        if expected {
            let trace = Evaluator::default().trace(&pos);
            let side = if pos.turn() == Color::White { 0 } else { 1 };
            let forks_row = Term::ALL.iter().position(|&t| t == Term::KnightForks);
            let fork_term = trace.terms[forks_row.expect("a trace row")][side];
            assert!(fork_term.mg() > 0, "{fen}: fork term not scored");
        }
    }
    // Fork targets leave defended minor pieces out.
    let start = Chess::default();
    let targets = fork_targets(start.board(), Color::White);
    assert_eq!(targets.count(), 4); // king, queen, two rooks
}

// ---------------------------------------------------------------------------------------------
// The registry and mop-up.
// ---------------------------------------------------------------------------------------------

#[test]
fn every_registered_signature_parses_and_is_found_by_lookup() {
    for endgame in ENDGAMES {
        if let Matcher::Exact(sig) = endgame.matcher {
            let parsed: Signature = endgame.code.parse().unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(sig, parsed, "{}", endgame.code);
            assert!(
                sig.strong.pieces() + sig.strong.pawns() >= sig.weak.pieces() + sig.weak.pawns()
            );
        }
    }
    for (fen, code, strong) in [
        ("8/8/8/4k3/8/8/8/KBN5 w - - 0 1", "KBNK", Color::White),
        ("kbn5/8/8/8/8/3K4/8/8 w - - 0 1", "KBNK", Color::Black),
        ("8/8/8/4k3/8/8/8/KNN5 w - - 0 1", "KNNK", Color::White),
        ("8/8/8/4k3/8/8/8/K1q5 w - - 0 1", "KXK", Color::Black),
        ("8/8/8/4k3/8/8/P7/K6n w - - 0 1", "KNvP", Color::White),
        ("8/8/8/4k3/8/8/8/K7 w - - 0 1", "KK", Color::White),
    ] {
        let (endgame, side) = lookup(position(fen).board()).expect(fen);
        assert_eq!((endgame.code, side), (code, strong), "{fen}");
    }
    assert!(lookup(Chess::default().board()).is_none());
    assert!("KXK".parse::<Signature>().is_err());
    assert!("KBNK ".parse::<Signature>().is_err());
}

#[test]
fn draws_by_material_evaluate_to_zero() {
    let eval = Evaluator::default();
    for fen in [
        "8/8/8/4k3/8/8/8/KN6 w - - 0 1",
        "8/8/8/4k3/8/8/8/KB6 b - - 0 1",
        "8/8/8/4k3/8/8/8/KNN5 w - - 0 1",
        "8/8/8/4k3/8/8/8/K7 w - - 0 1",
    ] {
        assert_eq!(eval.evaluate(&position(fen)).0, 0, "{fen}");
    }
    // Stalemated lone king: not a win.
    assert_eq!(
        eval.evaluate(&position("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1")).0,
        0
    );
}

#[test]
fn mop_up_prefers_the_edge_and_close_kings() {
    let w = Weights::default();
    // The lone king on the edge beats the lone king in the centre, same king distance.
    assert!(
        mop_up_bonus(Square::C6, Square::A8, &w).eg()
            > mop_up_bonus(Square::C3, Square::E5, &w).eg()
    );
    // Closer kings beat distant ones.
    assert!(
        mop_up_bonus(Square::C6, Square::A8, &w).eg()
            > mop_up_bonus(Square::H1, Square::A8, &w).eg()
    );
    let eval = Evaluator::default();
    let edge = eval.evaluate(&position("k7/8/2K5/8/8/8/8/7R w - - 0 1")).0;
    let centre = eval.evaluate(&position("8/8/8/3k4/8/8/8/K6R w - - 0 1")).0;
    assert!(
        edge > centre && centre > 5_000,
        "edge {edge} centre {centre}"
    );
}

#[test]
fn kbnk_right_corner_looks_better_than_the_wrong_one() {
    // Dark-squared bishop (c1): a1 and h8 are the mating corners, a8 and h1 are not.
    assert_eq!(kbnk_corner_distance(Square::H8, Square::C1), 0);
    assert_eq!(kbnk_corner_distance(Square::H1, Square::C1), 7);
    let eval = Evaluator::default();
    // Same pieces (bishop on the dark c1); only the lone king moves from a1 to a8. The strong
    // king is even a little closer to a8, so only the corner term can prefer a1.
    let right = eval
        .evaluate(&position("8/8/8/3K4/4N3/8/8/k1B5 w - - 0 1"))
        .0;
    let wrong = eval
        .evaluate(&position("k7/8/8/3K4/4N3/8/8/2B5 w - - 0 1"))
        .0;
    assert!(right > wrong, "right corner {right} wrong corner {wrong}");
}

/// The KBNK score computed from the position, as the evaluator did before `KbnkPosition`: the
/// stalemate from the legal moves, the lone king's room from the board's attacks.
fn kbnk_from_the_board(pos: &Chess, strong: Color, w: &Weights) -> S {
    let board = pos.board();
    if pos.turn() != strong && !pos.is_check() && pos.legal_moves().is_empty() {
        return S::ZERO;
    }
    let weight = |name: &str| w.get(name).expect("a weight");
    let ks = board.king_of(strong).unwrap();
    let kw = board.king_of(!strong).unwrap();
    let b = board.by_piece(Role::Bishop.of(strong)).first().unwrap();
    let n = board.by_piece(Role::Knight.of(strong)).first().unwrap();
    let occupied = board.occupied().without(kw);
    let taken = attacks::king_attacks(kw)
        .into_iter()
        .filter(|&sq| {
            board.attacks_to(sq, strong, occupied).any() || board.by_color(strong).contains(sq)
        })
        .count() as i32;
    let room = attacks::king_attacks(kw).count() as i32 - taken;
    let material = Role::ALL
        .into_iter()
        .filter(|&r| r != Role::King)
        .map(|r| {
            let value = weight(&format!("material.{}", ROLE_NAMES[r as usize - 1]));
            value * board.by_piece(r.of(strong)).count() as i32
        })
        .fold(S::ZERO, |a, b| a + b);
    let kings_close = weight("mop_up_close")
        * (14 - minkowski::geometry::manhattan_distance(ks, kw) as i32)
        + weight("mop_up_king_close") * (7 - minkowski::geometry::king_distance(ks, kw) as i32);
    weight("known_win")
        + material
        + kings_close
        + weight("kbnk_corner") * (14 - kbnk_corner_distance(kw, b) as i32)
        + weight("kbnk_knight_close") * (6 - minkowski::geometry::knight_distance(n, kw) as i32)
        + weight("mop_up_king_freedom") * room
}

#[test]
fn the_plain_input_kbnk_score_equals_the_board_based_one_on_random_positions() {
    let w = Weights::default();
    let mut rng = XorShift64(0x2545_f491_4f6c_dd1d);
    let mut next = move || rng.next();
    let (mut checked, mut stalemates) = (0, 0);
    while checked < 20_000 {
        let r = next();
        let squares: Vec<Square> = (0..4)
            .map(|i| Square::new(((r >> (8 * i)) % 64) as u32))
            .collect();
        let strong = if r >> 40 & 1 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let turn = if r >> 41 & 1 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let pieces = [
            Role::King.of(strong),
            Role::King.of(!strong),
            Role::Bishop.of(strong),
            Role::Knight.of(strong),
        ];
        let mut setup = shakmaty::Setup::empty();
        for (&sq, piece) in squares.iter().zip(pieces) {
            setup.board.set_piece_at(sq, piece);
        }
        setup.turn = turn;
        if setup.board.occupied().count() < 4 {
            continue;
        }
        let Ok(pos) = <Chess as shakmaty::FromSetup>::from_setup(setup, CastlingMode::Standard)
        else {
            continue;
        };
        let plain = KbnkPosition {
            strong_king: squares[0],
            lone_king: squares[1],
            bishop: squares[2],
            knight: squares[3],
            lone_king_to_move: turn != strong,
        };
        let expected = kbnk_from_the_board(&pos, strong, &w);
        assert_eq!(
            plain.score(&w),
            expected,
            "{}",
            Fen::from_position(&pos, shakmaty::EnPassantMode::Legal)
        );
        assert_eq!(plain.is_stalemate(), pos.is_stalemate());
        let (endgame, found_strong) = lookup(pos.board()).expect("KBNK is registered");
        assert_eq!((endgame.code, found_strong), ("KBNK", strong));
        assert_eq!(
            endgame.verdict(&pos, strong, &w),
            Verdict::Replace(expected)
        );
        stalemates += usize::from(plain.is_stalemate());
        checked += 1;
    }
    assert!(stalemates > 0, "the sample should contain stalemates");
}

#[test]
fn fork_jumps_from_bitboards_equal_the_board_based_fork_moves() {
    for pos in suite_positions("wac.epd", 300) {
        let board = pos.board();
        for attacker in [Color::White, Color::Black] {
            // The plain fork squares (own pieces avoided), of which the term keeps the winning.
            let plain = knight_fork_jumps(
                board.by_piece(Role::Knight.of(attacker)),
                fork_targets(board, attacker),
                board.by_color(attacker),
            );
            let winning = winning_fork_squares(board, attacker, fork_targets(board, attacker));
            assert_eq!(winning, knight_fork_moves(board, attacker));
            assert_eq!(winning & !plain, Bitboard::EMPTY);
        }
    }
}
