//! The base of the evaluation: material, piece-square tables, the side to move, and the pieces
//! pass ([`pieces`]): every knight, bishop, rook and queen's attacks (kept in [`Info`] for the
//! terms that read them), mobility, the attack on the enemy king's zone, rook files, the pawn
//! shield and the bishop pair.

use shakmaty::{Bitboard, Board, Color, Role, attacks};

use super::acc::Acc;
use super::info::Info;
use super::score::MAX_PHASE;
use super::term::Term;
use super::tracer::Tracer;
use super::weights::channel::{Linear, Tempo};
use super::weights::{Channel, Keys, PHASE_WEIGHT, Weight, WeightSpec, defaults, role_index};
use super::{king, mobility};

/// The family of the base weights: material, piece squares, the side to move and the pieces pass.
/// Where it starts in the table is set where the evaluation lists its families (`eval/mod.rs`).
#[derive(Clone, Copy, Debug)]
pub enum Base {}

/// The weights of the base of the evaluation: material, piece squares, the side to move and the
/// pieces pass, in table order: each entry declares one weight (see [`WeightSpec`]); the handles
/// below read them.
pub const WEIGHTS: &[WeightSpec] = &[
    WeightSpec {
        name: "material",
        doc: "Material per piece kind (index `role_index`); the king's is structure (no \
              name).",
        default: &defaults::MATERIAL,
        keys: Keys::Roles(0, 4),
        range: -1000..=3000,
        term: Term::Material,
        channel: Channel::Linear,
    },
    WeightSpec {
        name: "psqt",
        doc: "Piece-square bonus per piece kind and square, from White's point of view, \
              element `role_index(role) × 64 + square` with a1 = 0; Black uses the vertically \
              flipped square.",
        default: defaults::PSQT.as_flattened(),
        keys: Keys::RoleSquares,
        range: -500..=500,
        term: Term::Psqt,
        channel: Channel::Linear,
    },
    WeightSpec {
        name: "king_zone_attack",
        doc: "Bonus per square of the enemy king's zone (the king and its neighbours) that a \
              knight, bishop, rook or queen attacks (index `role_index`).",
        default: &defaults::KING_ZONE_ATTACK,
        keys: Keys::Roles(1, 4),
        range: -100..=200,
        term: Term::KingSafety,
        channel: Channel::Linear,
    },
    WeightSpec {
        name: "pawn_shield",
        doc: "Bonus per own pawn one rank (index 0) and two ranks (index 1) in front of the \
              king, on its file or a neighbouring one.",
        default: &defaults::PAWN_SHIELD,
        keys: Keys::Names(&["near", "far"]),
        range: -100..=200,
        term: Term::KingSafety,
        channel: Channel::Linear,
    },
    WeightSpec {
        name: "bishop_pair",
        doc: "Bonus for owning two or more bishops.",
        default: std::slice::from_ref(&defaults::BISHOP_PAIR),
        keys: Keys::One,
        range: -200..=300,
        term: Term::BishopPair,
        channel: Channel::Linear,
    },
    WeightSpec {
        name: "rook_open_file",
        doc: "Bonus for a rook on a file without pawns.",
        default: std::slice::from_ref(&defaults::ROOK_OPEN_FILE),
        keys: Keys::One,
        range: -200..=300,
        term: Term::RookFiles,
        channel: Channel::Linear,
    },
    WeightSpec {
        name: "rook_semi_open_file",
        doc: "Bonus for a rook on a file without own pawns but with enemy pawns.",
        default: std::slice::from_ref(&defaults::ROOK_SEMI_OPEN_FILE),
        keys: Keys::One,
        range: -200..=300,
        term: Term::RookFiles,
        channel: Channel::Linear,
    },
    WeightSpec {
        name: "tempo",
        doc: "Bonus for the side to move (it gets to act first).",
        default: std::slice::from_ref(&defaults::TEMPO),
        keys: Keys::One,
        range: -100..=100,
        term: Term::Tempo,
        channel: Channel::Tempo,
    },
];

/// Material per piece kind (index [`role_index`]); the king's is structure (no name).
pub const MATERIAL: Weight<Linear, 6, Base> = Weight::named(WEIGHTS, "material");

/// Piece-square bonus per piece kind and square, from White's point of view: element
/// `role_index(role) × 64 + square` with a1 = 0; Black uses the vertically flipped square.
pub const PSQT: Weight<Linear, 384, Base> = Weight::named(WEIGHTS, "psqt");

/// Bonus per square of the enemy king's zone (the king and its neighbours) that a knight,
/// bishop, rook or queen attacks (index [`role_index`]).
pub const KING_ZONE_ATTACK: Weight<Linear, 6, Base> = Weight::named(WEIGHTS, "king_zone_attack");

/// Bonus per own pawn one rank (index 0) and two ranks (index 1) in front of the king, on its
/// file or a neighbouring one.
pub const PAWN_SHIELD: Weight<Linear, 2, Base> = Weight::named(WEIGHTS, "pawn_shield");

/// Bonus for owning two or more bishops.
pub const BISHOP_PAIR: Weight<Linear, 1, Base> = Weight::named(WEIGHTS, "bishop_pair");

/// Bonus for a rook on a file without pawns.
pub const ROOK_OPEN_FILE: Weight<Linear, 1, Base> = Weight::named(WEIGHTS, "rook_open_file");

/// Bonus for a rook on a file without own pawns but with enemy pawns.
pub const ROOK_SEMI_OPEN_FILE: Weight<Linear, 1, Base> =
    Weight::named(WEIGHTS, "rook_semi_open_file");

/// Bonus for the side to move (it gets to act first).
pub const TEMPO: Weight<Tempo, 1, Base> = Weight::named(WEIGHTS, "tempo");

/// `color`'s pieces: mobility, the attack on the enemy king's zone, rook files, bishop pair
/// and pawn shield; their attacks go into `info` for the terms that read them. Returns the
/// phase contribution of `color`'s pieces.
#[inline(always)]
pub fn pieces<T: Tracer>(
    board: &Board,
    color: Color,
    info: &mut Info,
    acc: &mut Acc<'_, T>,
) -> i32 {
    let occupied = board.occupied();
    let their_pawns = *info.pawns.get(!color);
    let our_pawns = *info.pawns.get(color);
    let their_king_zone = info
        .king
        .get(!color)
        .map_or(Bitboard::EMPTY, |k| attacks::king_attacks(k).with(k));
    let mut phase = PHASE_WEIGHT[role_index(Role::Pawn)] * our_pawns.count() as i32;

    // One call per kind, not a loop over the kinds: each call is compiled for its kind, without
    // a test of the kind per piece (the kinds' order is the loop's, so the sums are the same).
    let sides = Sides {
        occupied,
        our_pawns,
        their_pawns,
        their_king_zone,
    };
    phase += kind(board, color, Role::Knight, &sides, info, acc);
    phase += kind(board, color, Role::Bishop, &sides, info, acc);
    phase += kind(board, color, Role::Rook, &sides, info, acc);
    phase += kind(board, color, Role::Queen, &sides, info, acc);

    // The king: pawn shield.
    for sq in board.by_piece(Role::King.of(color)) {
        phase += PHASE_WEIGHT[role_index(Role::King)];
        let [near, far] = king::pawn_shield(sq, color, our_pawns);
        acc.add(color, PAWN_SHIELD.at(0), near);
        acc.add(color, PAWN_SHIELD.at(1), far);
    }
    if board.by_piece(Role::Bishop.of(color)).more_than_one() {
        acc.add(color, BISHOP_PAIR, 1);
    }
    phase
}

/// What the pieces' pass reads of both sides, for [`kind`].
struct Sides {
    occupied: Bitboard,
    our_pawns: Bitboard,
    their_pawns: Bitboard,
    their_king_zone: Bitboard,
}

/// `color`'s pieces of kind `role` (knight, bishop, rook or queen) in the pieces' pass; returns
/// their phase contribution.
#[inline(always)]
fn kind<T: Tracer>(
    board: &Board,
    color: Color,
    role: Role,
    sides: &Sides,
    info: &mut Info,
    acc: &mut Acc<'_, T>,
) -> i32 {
    let r = role_index(role);
    let mut phase = 0;
    for sq in board.by_piece(role.of(color)) {
        phase += PHASE_WEIGHT[r];
        let reach = match role {
            Role::Knight => attacks::knight_attacks(sq),
            Role::Bishop => attacks::bishop_attacks(sq, sides.occupied),
            Role::Rook => attacks::rook_attacks(sq, sides.occupied),
            _ => attacks::queen_attacks(sq, sides.occupied),
        };
        info.add_attacks(color, role, reach);
        mobility::score(board, info, color, role, sq, reach, acc);
        let zone_hits = reach & sides.their_king_zone;
        // Usually empty: skip the count (and the zero term) then.
        if zone_hits.any() {
            acc.add(color, KING_ZONE_ATTACK.at(r), zone_hits.count() as i32);
        }
        if role == Role::Rook {
            let file = Bitboard::from_file(sq.file());
            if (sides.our_pawns & file).is_empty() {
                let weight = if (sides.their_pawns & file).is_empty() {
                    ROOK_OPEN_FILE
                } else {
                    ROOK_SEMI_OPEN_FILE
                };
                acc.add(color, weight, 1);
            }
        }
    }
    phase
}

/// The game phase of `board`'s material, clamped to [`MAX_PHASE`]: what the pieces' pass adds
/// up, from the piece counts alone.
#[inline(always)]
pub fn phase_of(board: &Board) -> i32 {
    let mut phase = 0;
    for role in Role::ALL {
        phase += PHASE_WEIGHT[role_index(role)] * board.by_role(role).count() as i32;
    }
    phase.min(MAX_PHASE)
}
