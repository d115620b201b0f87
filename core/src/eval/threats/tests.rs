use super::*;
use crate::eval::test_support::{position, traced};
use crate::eval::weights::{Family, Weight};
use shakmaty::{
    CastlingMode, Chess, EnPassantMode, FromSetup, Position, Square, attacks, fen::Fen,
};

/// `color`'s count of element `index` of `field` in `fen`, checked to be the same for the other
/// colour in the colour-flipped position.
fn count<C, const N: usize, F: Family>(
    fen: &str,
    color: Color,
    field: Weight<C, N, F>,
    index: usize,
) -> i32 {
    let pos = position(fen);
    let side = usize::from(color == Color::Black);
    let n = traced(&pos).main[side][field.at(index).index()];
    let setup = pos.to_setup(EnPassantMode::Legal).into_mirrored();
    let twin = Chess::from_setup(setup, CastlingMode::Standard).unwrap();
    assert_eq!(
        traced(&twin).main[1 - side][field.at(index).index()],
        n,
        "{fen}: twin"
    );
    n
}

const W: Color = Color::White;
const B: Color = Color::Black;

#[test]
fn weak_pawn_is_a_pawn_that_pieces_win() {
    // The d2 pawn, attacked by the rook, undefended.
    assert_eq!(
        count("4k3/8/8/8/3r4/8/3P4/6K1 w - - 0 1", W, THREAT_WEAK_PAWN, 0),
        1
    );
    // Defended by the king: one attacker, one defender.
    assert_eq!(
        count("4k3/8/8/8/3r4/8/3P4/4K3 w - - 0 1", W, THREAT_WEAK_PAWN, 0),
        0
    );
    // Attacked by a pawn only: a lever, not a weak pawn.
    assert_eq!(
        count("4k3/8/8/4p3/3P4/8/8/K7 w - - 0 1", W, THREAT_WEAK_PAWN, 0),
        0
    );
    // Attacked twice (rook and bishop), defended once by the king, no pawn: weak.
    let fen = "4k3/8/8/8/3r4/8/3P4/2K1b3 w - - 0 1";
    assert_eq!(count(fen, W, THREAT_WEAK_PAWN, 0), 1);
    // The d3 pawn attacked twice, defended once by a pawn: not weak (it recaptures cheaply).
    let fen = "3rk3/8/8/5b2/8/3P4/2P5/6K1 w - - 0 1";
    assert_eq!(count(fen, W, THREAT_WEAK_PAWN, 0), 0);
}

#[test]
fn minor_attacked_by_a_pawn() {
    assert_eq!(
        count(
            "4k3/8/8/4p3/3N4/8/8/4K3 w - - 0 1",
            W,
            THREAT_MINOR_BY_PAWN,
            0
        ),
        1
    );
    assert_eq!(
        count(
            "4k3/8/8/4p3/3B4/8/8/4K3 w - - 0 1",
            W,
            THREAT_MINOR_BY_PAWN,
            0
        ),
        1
    );
    // d5 is not attacked by e5; a rook is not a minor.
    assert_eq!(
        count(
            "4k3/8/8/3Np3/8/8/8/4K3 w - - 0 1",
            W,
            THREAT_MINOR_BY_PAWN,
            0
        ),
        0
    );
    assert_eq!(
        count(
            "4k3/8/8/4p3/3R4/8/8/4K3 w - - 0 1",
            W,
            THREAT_MINOR_BY_PAWN,
            0
        ),
        0
    );
}

#[test]
fn minor_attacked_by_a_minor_defended_or_not() {
    // The knight on b6 attacks the bishop on c4, which the d3 pawn defends: it still counts.
    let fen = "4k3/8/1n6/8/2B5/3P4/8/4K3 w - - 0 1";
    assert_eq!(count(fen, W, THREAT_MINOR_BY_MINOR, 0), 1);
    assert_eq!(
        count(
            "4k3/8/1n6/8/8/2B5/8/4K3 w - - 0 1",
            W,
            THREAT_MINOR_BY_MINOR,
            0
        ),
        0
    );
}

#[test]
fn minor_attacked_by_a_major_only_when_poorly_defended() {
    assert_eq!(
        count(
            "4k3/8/8/8/r2N4/8/8/4K3 w - - 0 1",
            W,
            THREAT_MINOR_BY_MAJOR,
            0
        ),
        1
    );
    // Defended by the c3 pawn: one attacker, one defender.
    assert_eq!(
        count(
            "4k3/8/8/8/r2N4/2P5/8/4K3 w - - 0 1",
            W,
            THREAT_MINOR_BY_MAJOR,
            0
        ),
        0
    );
}

#[test]
fn rook_attacked_by_a_pawn_or_minor() {
    assert_eq!(
        count(
            "4k3/8/4n3/8/3R4/8/8/4K3 w - - 0 1",
            W,
            THREAT_ROOK_BY_LESSER,
            0
        ),
        1
    );
    assert_eq!(
        count(
            "4k3/8/8/4p3/3R4/8/8/4K3 w - - 0 1",
            W,
            THREAT_ROOK_BY_LESSER,
            0
        ),
        1
    );
    // By a queen: not a lesser piece.
    assert_eq!(
        count(
            "4k3/8/8/8/3R3q/8/8/1K6 w - - 0 1",
            W,
            THREAT_ROOK_BY_LESSER,
            0
        ),
        0
    );
}

#[test]
fn king_attacks_a_hanging_minor_or_rook() {
    let rook = BY_KING_ROOK;
    let minor = BY_KING_MINOR;
    assert_eq!(
        count("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", B, THREAT_BY_KING, rook),
        1
    );
    assert_eq!(
        count("4k3/8/8/8/8/8/3n4/4K3 w - - 0 1", B, THREAT_BY_KING, minor),
        1
    );
    // Defended by the c3 pawn: not hanging.
    assert_eq!(
        count("4k3/8/8/8/8/2p5/3r4/4K3 w - - 0 1", B, THREAT_BY_KING, rook),
        0
    );
    // Hanging, but not next to the king.
    assert_eq!(
        count("4k3/8/8/8/8/3r4/8/4K3 w - - 0 1", B, THREAT_BY_KING, rook),
        0
    );
}

#[test]
fn queen_attacked_by_anything() {
    assert_eq!(
        count(
            "4k3/8/8/8/6b1/8/8/3QK3 w - - 0 1",
            W,
            THREAT_QUEEN_ATTACKED,
            0
        ),
        1
    );
    // By a pawn, even defended.
    let fen = "4k3/8/8/8/8/4p3/3Q4/4K3 w - - 0 1";
    assert_eq!(count(fen, W, THREAT_QUEEN_ATTACKED, 0), 1);
    assert_eq!(
        count(
            "4k3/8/8/6b1/8/8/8/3QK3 w - - 0 1",
            W,
            THREAT_QUEEN_ATTACKED,
            0
        ),
        0
    );
}

#[test]
fn overloaded_piece_is_attacked_once_and_defended_once() {
    let fen = "3rk3/8/8/8/3N4/2P5/8/4K3 w - - 0 1";
    assert_eq!(count(fen, W, THREAT_OVERLOADED, 0), 1);
    // Defended twice, or not attacked: no.
    let fen = "3rk3/8/8/8/3N4/2P1P3/8/4K3 w - - 0 1";
    assert_eq!(count(fen, W, THREAT_OVERLOADED, 0), 0);
    assert_eq!(
        count("4k3/8/8/8/3N4/2P5/8/4K3 w - - 0 1", W, THREAT_OVERLOADED, 0),
        0
    );
    // Pawns are not pieces here.
    assert_eq!(
        count(
            "3rk3/8/8/8/3P4/2P5/8/4K3 w - - 0 1",
            W,
            THREAT_OVERLOADED,
            0
        ),
        0
    );
}

#[test]
fn safe_pawn_push_that_attacks_a_piece() {
    // e4-e5 attacks the knight on d6.
    assert_eq!(
        count("4k3/8/3n4/8/4P3/8/8/4K3 w - - 0 1", W, THREAT_PAWN_PUSH, 0),
        1
    );
    // e5 is guarded by the f6 pawn: not safe.
    assert_eq!(
        count(
            "4k3/8/3n1p2/8/4P3/8/8/4K3 w - - 0 1",
            W,
            THREAT_PAWN_PUSH,
            0
        ),
        0
    );
    // e2-e4 attacks the knight on d5 (it guards e3, not e4).
    assert_eq!(
        count("4k3/8/8/3n4/8/8/4P3/4K3 w - - 0 1", W, THREAT_PAWN_PUSH, 0),
        1
    );
    // ... but not when a pawn on d4 could take it en passant.
    assert_eq!(
        count(
            "4k3/8/8/3n4/3p4/8/4P3/4K3 w - - 0 1",
            W,
            THREAT_PAWN_PUSH,
            0
        ),
        0
    );
    // Attacked by the rook and not defended: not safe.
    assert_eq!(
        count("4k3/8/3n4/r7/4P3/8/8/6K1 w - - 0 1", W, THREAT_PAWN_PUSH, 0),
        0
    );
    // ... unless we defend e5 too (the bishop on h2).
    assert_eq!(
        count(
            "4k3/8/3n4/r7/4P3/8/7B/6K1 w - - 0 1",
            W,
            THREAT_PAWN_PUSH,
            0
        ),
        1
    );
    // A pawn already attacking the knight: no new threat. Pawns are not targets.
    assert_eq!(
        count(
            "4k3/8/3n4/2P5/4P3/8/8/4K3 w - - 0 1",
            W,
            THREAT_PAWN_PUSH,
            0
        ),
        0
    );
    assert_eq!(
        count("4k3/8/3p4/8/4P3/8/8/4K3 w - - 0 1", W, THREAT_PAWN_PUSH, 0),
        0
    );
}

#[test]
fn knight_forks_are_scored_in_the_threat_pass() {
    // Nc7+ forks king and rook: the side to move has it now; the other side only threatens.
    let fen = "r3k3/8/8/3N4/8/8/8/4K3 w - - 0 1";
    assert_eq!(count(fen, W, FORK_NOW, 0), 1);
    assert_eq!(count(fen, W, FORK_THREAT, 0), 0);
    let fen = "r3k3/8/8/3N4/8/8/8/4K3 b - - 0 1";
    assert_eq!(count(fen, W, FORK_THREAT, 0), 1);
    assert_eq!(count(fen, W, FORK_NOW, 0), 0);
    // A bishop on a5 guards c7: no fork.
    assert_eq!(
        count("r3k3/8/8/b2N4/8/8/8/4K3 w - - 0 1", W, FORK_NOW, 0),
        0
    );
}

/// The threat counts of `color` by a square-by-square reading of the board with shakmaty's
/// `attacks_to`, independent of [`Info`]: weak pawns, minor by pawn, by minor, by major, rook by
/// lesser, by king (minor, rook), queen, overloaded, pawn push.
fn naive(board: &Board, color: Color) -> [i32; 10] {
    let occupied = board.occupied();
    let attackers = |sq: Square, by: Color| board.attacks_to(sq, by, occupied);
    let of = |set: Bitboard, role: Role| (set & board.by_role(role)).any();
    let poor = |sq: Square| {
        let (them, us) = (attackers(sq, !color), attackers(sq, color));
        (them.any() && us.is_empty())
            || (them.count() >= 2 && us.count() <= 1 && !of(us, Role::Pawn))
    };
    let mut n = [0; 10];
    for sq in board.by_color(color) {
        let role = board.role_at(sq).unwrap();
        let them = attackers(sq, !color);
        let by_minor = of(them, Role::Knight) || of(them, Role::Bishop);
        let by_major = of(them, Role::Rook) || of(them, Role::Queen);
        let minor = matches!(role, Role::Knight | Role::Bishop);
        n[0] += i32::from(role == Role::Pawn && !of(them, Role::Pawn) && poor(sq));
        n[1] += i32::from(minor && of(them, Role::Pawn));
        n[2] += i32::from(minor && by_minor);
        n[3] += i32::from(minor && by_major && poor(sq));
        n[4] += i32::from(role == Role::Rook && (of(them, Role::Pawn) || by_minor));
        n[5] += i32::from(minor && of(them, Role::King) && poor(sq));
        n[6] += i32::from(role == Role::Rook && of(them, Role::King) && poor(sq));
        n[7] += i32::from(role == Role::Queen && them.any());
        let us = attackers(sq, color);
        let piece = !matches!(role, Role::Pawn | Role::King);
        n[8] += i32::from(piece && us.count() == 1 && them.count() == 1);
    }
    // Pawn pushes: one step to an empty square, or two from the second rank through an empty
    // square no enemy pawn attacks.
    let up: i32 = if color == Color::White { 8 } else { -8 };
    let step = |sq: Square| {
        let to = sq as i32 + up;
        (0..64).contains(&to).then(|| Square::new(to as u32))
    };
    let pawn_guarded = |sq: Square, by: Color| of(attackers(sq, by), Role::Pawn);
    let mut hit = Bitboard::EMPTY;
    for pawn in board.by_piece(Role::Pawn.of(color)) {
        let mut lands = Vec::new();
        if let Some(one) = step(pawn).filter(|&s| !occupied.contains(s)) {
            lands.push(one);
            let second = pawn.rank() == color.relative_rank(Rank::Second);
            if second && !pawn_guarded(one, !color) {
                lands.extend(step(one).filter(|&s| !occupied.contains(s)));
            }
        }
        for to in lands {
            let safe = !pawn_guarded(to, !color)
                && (attackers(to, color).any() || attackers(to, !color).is_empty());
            if safe {
                for target in attacks::pawn_attacks(color, to) & board.by_color(!color) {
                    let role = board.role_at(target).unwrap();
                    if !matches!(role, Role::Pawn | Role::King) && !pawn_guarded(target, color) {
                        hit.add(target);
                    }
                }
            }
        }
    }
    n[9] = hit.count() as i32;
    n
}

/// Up to `limit` positions of the suite `name` in `epd/`.
fn suite(name: &str, limit: usize) -> Vec<Chess> {
    let path = format!("{}/../epd/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().take(4).collect();
            let fen = format!("{} 0 1", fields.join(" "));
            fen.parse::<Fen>()
                .ok()?
                .into_position(CastlingMode::Chess960)
                .ok()
        })
        .take(limit)
        .collect()
}

#[test]
fn threat_counts_match_a_square_by_square_oracle_on_suite_positions() {
    let slots = [
        THREAT_WEAK_PAWN.at(0),
        THREAT_MINOR_BY_PAWN.at(0),
        THREAT_MINOR_BY_MINOR.at(0),
        THREAT_MINOR_BY_MAJOR.at(0),
        THREAT_ROOK_BY_LESSER.at(0),
        THREAT_BY_KING.at(BY_KING_MINOR),
        THREAT_BY_KING.at(BY_KING_ROOK),
        THREAT_QUEEN_ATTACKED.at(0),
        THREAT_OVERLOADED.at(0),
        THREAT_PAWN_PUSH.at(0),
    ];
    let mut positions = Vec::new();
    for name in [
        "wac.epd", "sts1.epd", "sts2.epd", "sts4.epd", "sts7.epd", "bk.epd", "eet.epd",
    ] {
        positions.extend(suite(name, 150));
    }
    assert!(positions.len() > 500);
    let mut fired = [0; 10];
    for pos in &positions {
        let counts = traced(pos).main;
        for color in Color::ALL {
            let expected = naive(pos.board(), color);
            let side = usize::from(color == Color::Black);
            for (i, &slot) in slots.iter().enumerate() {
                let got = counts[side][slot.index()];
                let fen = Fen::from_position(pos, EnPassantMode::Legal);
                assert_eq!(got, expected[i], "{slot:?} for {color:?} in {fen}");
                fired[i] += got;
            }
        }
    }
    // Every term fires somewhere in the suites (so the comparison is not all zeros).
    assert!(fired.iter().all(|&n| n > 0), "{fired:?}");
}

/// The evaluation asks for knight forks from its attack maps (`forks_from`): the same squares
/// as `knight_fork_moves` finds from the board alone, on suite positions, the fork suites and
/// every child of them (so that forks found and forks kept both occur).
#[test]
fn forks_from_the_attack_maps_are_the_boards_forks() {
    let mut positions = Vec::new();
    for name in ["forks.epd", "minkowski_forks.epd", "wac.epd", "sts1.epd"] {
        positions.extend(suite(name, 150));
    }
    let children: Vec<Chess> = positions
        .iter()
        .flat_map(|pos| {
            pos.legal_moves()
                .into_iter()
                .map(|m| pos.clone().play(m).unwrap())
        })
        .collect();
    positions.extend(children);
    let mut found = 0;
    for pos in &positions {
        let info = crate::eval::test_support::full_info(pos);
        for color in Color::ALL {
            let reach = info.attacks.get(color)[role_index(Role::Knight)];
            let defence = *info.attacked.get(!color);
            let from_maps = if reach.any() {
                forks_from(pos.board(), color, reach, |sq| defence.contains(sq))
            } else {
                Bitboard::EMPTY
            };
            let expected = knight_fork_moves(pos.board(), color);
            let fen = Fen::from_position(pos, EnPassantMode::Legal);
            assert_eq!(from_maps, expected, "{color:?} in {fen}");
            found += expected.count();
        }
    }
    assert!(
        positions.len() > 5_000 && found > 100,
        "{} positions, {found}",
        positions.len()
    );
}
