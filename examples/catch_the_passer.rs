//! Is this passed pawn caught? Minkowski's knight-versus-passer race, asked one position at a
//! time with plain inputs: the pawn's square and colour, who moves, the defending king's square
//! and the defending knights as a bitboard.
//!
//! ```sh
//! cargo run --example catch_the_passer
//! ```
//!
//! The king catches the pawn by the rule of the square; the knights catch it by knight fill
//! (after `j` moves a knight can be anywhere in `fill^j(knights)`, and it is in time if that set
//! meets what is left of the pawn's path). Each diagram shows the pawn (`P` or `p`), the
//! defending king and knights, and the squares the pawn still has to cross (`*`).

use minkowski::eval::endgame::PasserRace;
use minkowski::geometry::{king_distance, knight_distance};
use shakmaty::{Bitboard, Color, File, Rank, Square};

/// One race to ask about.
struct Case {
    /// What the position shows.
    title: &'static str,
    race: PasserRace,
    /// The defending king, if it takes part.
    king: Option<Square>,
    /// The defending knights, as another engine would hold them: a plain u64, a1 = bit 0.
    knights: u64,
}

/// Bit of a square in a plain u64 (a1 = 0 … h8 = 63).
const fn bit(square: Square) -> u64 {
    1 << square as u32
}

fn cases() -> Vec<Case> {
    let white = |pawn, pawn_to_move| PasserRace {
        pawn,
        pawn_color: Color::White,
        pawn_to_move,
    };
    let black = |pawn, pawn_to_move| PasserRace {
        pawn,
        pawn_color: Color::Black,
        pawn_to_move,
    };
    vec![
        Case {
            title: "Knight and king both too far",
            race: white(Square::B6, true),
            king: Some(Square::F4),
            knights: bit(Square::H8),
        },
        Case {
            title: "The knight takes the pawn after b7",
            race: white(Square::B6, true),
            king: Some(Square::F4),
            knights: bit(Square::C5),
        },
        Case {
            title: "One square further: the knight is a move too slow",
            race: white(Square::B6, true),
            king: Some(Square::F4),
            knights: bit(Square::D5),
        },
        Case {
            title: "Rule of the square: the king is inside",
            race: white(Square::A5, true),
            king: Some(Square::D6),
            knights: 0,
        },
        Case {
            title: "Rule of the square: one file too far",
            race: white(Square::A5, true),
            king: Some(Square::E6),
            knights: 0,
        },
        Case {
            title: "The same, but the defence moves first",
            race: white(Square::A5, false),
            king: Some(Square::E6),
            knights: 0,
        },
        Case {
            title: "From its second rank the pawn double-steps; the knight still reaches its path",
            race: white(Square::E2, true),
            king: None,
            knights: bit(Square::B3),
        },
        Case {
            title: "Black's pawn on h3: the knight on f3 takes it on h2",
            race: black(Square::H3, true),
            king: Some(Square::A8),
            knights: bit(Square::F3),
        },
        Case {
            title: "Two knights: a1 is far away, but h6 reaches g8 in time",
            race: white(Square::G6, true),
            king: Some(Square::A3),
            knights: bit(Square::A1) | bit(Square::H6),
        },
    ]
}

/// The position as a board, rank 8 on top: pawn, defending king and knights, the pawn's path.
fn diagram(case: &Case) -> String {
    let race = &case.race;
    let defender = !race.pawn_color;
    let promotion = race.promotion_square();
    let mut text = String::new();
    for rank in Rank::ALL.into_iter().rev() {
        text.push_str(&format!("{} ", rank.char()));
        for file in File::ALL {
            let sq = Square::from_coords(file, rank);
            let on_path = sq.file() == race.pawn.file()
                && king_distance(sq, promotion) < king_distance(race.pawn, promotion);
            let c = if sq == race.pawn {
                race.pawn_color.fold_wb('P', 'p')
            } else if case.king == Some(sq) {
                defender.fold_wb('K', 'k')
            } else if Bitboard(case.knights).contains(sq) {
                defender.fold_wb('N', 'n')
            } else if on_path {
                '*'
            } else {
                '.'
            };
            text.push(' ');
            text.push(c);
        }
        text.push('\n');
    }
    text.push_str("   a b c d e f g h");
    text
}

/// "1 king move", "3 king moves".
fn moves(n: u32, piece: &str) -> String {
    format!("{n} {piece} move{}", if n == 1 { "" } else { "s" })
}

fn main() {
    for case in cases() {
        let race = case.race;
        let knights = Bitboard(case.knights); // the only conversion another engine needs
        let mover = if race.pawn_to_move {
            race.pawn_color
        } else {
            !race.pawn_color
        };
        println!("{} ({mover:?} to move)\n", case.title);
        println!("{}\n", diagram(&case));
        println!(
            "  pawn {}: {} to {}",
            race.pawn,
            moves(race.moves_to_promote(), "pawn"),
            race.promotion_square()
        );
        match case.king {
            Some(king) => println!(
                "  king {king}: {} from {} -> {}",
                moves(king_distance(king, race.promotion_square()), "king"),
                race.promotion_square(),
                if race.king_catches(king) {
                    "catches it"
                } else {
                    "too far"
                }
            ),
            None => println!("  no defending king"),
        }
        for knight in knights {
            println!(
                "  knight {knight}: {} from {}",
                moves(knight_distance(knight, race.promotion_square()), "knight"),
                race.promotion_square()
            );
        }
        if knights.any() {
            let verdict = if race.knights_catch(knights) {
                "catch it"
            } else {
                "are too slow"
            };
            println!("  the knights {verdict}");
        }
        let result = if race.unstoppable(case.king, knights) {
            "UNSTOPPABLE"
        } else {
            "caught"
        };
        println!("  => {result}\n");
    }
}
