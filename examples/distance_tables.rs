//! Minkowski's distance tables and knight fill, drawn as 8 × 8 boards (rank 8 on top).
//!
//! ```sh
//! cargo run --example distance_tables          # from a1: king, Manhattan, knight; centre; fill
//! cargo run --example distance_tables -- e4    # from another square
//! ```
//!
//! Every number comes from one lookup: `king_distance`, `manhattan_distance`, `knight_distance`
//! and `centre_manhattan_distance` read tables built at compile time, and `knight_fill` grows a
//! whole set of squares by one knight move at once.

use std::process::ExitCode;

use minkowski::geometry::{
    centre_manhattan_distance, king_distance, knight_distance, knight_fill, manhattan_distance,
};
use shakmaty::{Bitboard, File, Rank, Square};

/// Draws a board with one right-aligned cell of `width` characters per square, rank 8 on top.
fn board(width: usize, cell: impl Fn(Square) -> String) -> String {
    let mut text = String::new();
    for rank in Rank::ALL.into_iter().rev() {
        text.push_str(&format!("{} ", rank.char()));
        for file in File::ALL {
            text.push_str(&format!(
                " {:>width$}",
                cell(Square::from_coords(file, rank))
            ));
        }
        text.push('\n');
    }
    text.push_str("  ");
    for file in File::ALL {
        text.push_str(&format!(" {:>width$}", file.char()));
    }
    text.push('\n');
    text
}

fn main() -> ExitCode {
    let from = match std::env::args().nth(1) {
        None => Square::A1,
        Some(name) => match name.to_ascii_lowercase().parse::<Square>() {
            Ok(square) => square,
            Err(_) => {
                eprintln!("not a square: {name:?} (expected e.g. e4)");
                return ExitCode::FAILURE;
            }
        },
    };

    println!("King distance from {from}\n");
    println!("{}", board(1, |sq| king_distance(from, sq).to_string()));
    println!("Manhattan distance from {from}\n");
    println!(
        "{}",
        board(2, |sq| manhattan_distance(from, sq).to_string())
    );
    println!("Knight distance from {from}\n");
    println!("{}", board(1, |sq| knight_distance(from, sq).to_string()));
    println!("Manhattan distance to the centre (d4, e4, d5, e5)\n");
    println!(
        "{}",
        board(1, |sq| centre_manhattan_distance(sq).to_string())
    );

    // Knight fill: the set reached in at most n moves, one `knight_fill` per step. A square is
    // marked with the step it joined in (the knight distance), `.` while not yet reached.
    let mut reached = Bitboard::from(from);
    let mut step = 0;
    while reached != Bitboard::FULL {
        step += 1;
        reached = knight_fill(reached);
        println!(
            "Knight fill from {from}, step {step}: {} squares\n",
            reached.count()
        );
        println!(
            "{}",
            board(1, |sq| {
                if reached.contains(sq) {
                    knight_distance(from, sq).to_string()
                } else {
                    ".".to_owned()
                }
            })
        );
    }
    ExitCode::SUCCESS
}
