//! `minkowski distance` and `minkowski fill`: the geometry library drawn as 8 × 8 diagrams.
//!
//! Boards are printed rank 8 on top with rank numbers on the left and files a–h underneath, one
//! cell per square separated by single spaces, so they are easy to read and to parse.

use std::process::ExitCode;

use minkowski::geometry::{
    centre_manhattan_distance, king_distance, knight_distance, knight_reach, manhattan_distance,
};
use shakmaty::{Bitboard, File, Rank, Square};

/// Exit status for arguments that parse but do not make sense together (as clap uses for usage
/// errors).
const USAGE_ERROR: u8 = 2;

/// The most moves `fill` accepts: a knight path never needs more than 63 moves, whatever squares
/// are avoided, and on the empty board every square is reached within six.
const MAX_FILL_MOVES: i64 = 64;

/// A distance that `minkowski distance` can draw.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    /// King (Chebyshev) distance: king moves on the empty board.
    King,
    /// Manhattan (taxicab) distance: orthogonal king moves.
    Manhattan,
    /// Knight distance: knight moves on the empty board.
    Knight,
    /// Manhattan distance to the nearest centre square (d4, e4, d5, e5); takes no square.
    Centre,
}

/// Arguments of `minkowski distance <metric> <square>`.
#[derive(clap::Args, Debug)]
pub struct DistanceArgs {
    /// Which distance to draw.
    #[arg(value_enum)]
    metric: Metric,
    /// The square to measure from, e.g. e4 (not used by `centre`).
    #[arg(value_parser = parse_square)]
    square: Option<Square>,
}

/// Arguments of `minkowski fill <square> <n>`.
#[derive(clap::Args, Debug)]
pub struct FillArgs {
    /// The knight's square, e.g. a1.
    #[arg(value_parser = parse_square)]
    square: Square,
    /// Draw the squares reached in at most 1, 2, …, n moves (1 to 64).
    #[arg(allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(1..=MAX_FILL_MOVES))]
    moves: u32,
    /// Squares the knight must never land on (e.g. guarded by pawns), comma-separated: c3,d4.
    #[arg(long, value_delimiter = ',', value_parser = parse_square)]
    avoid: Vec<Square>,
}

/// Parses a square name such as `e4` (either case), with an error message that says what is
/// expected.
fn parse_square(text: &str) -> Result<Square, String> {
    Square::from_ascii(text.to_ascii_lowercase().as_bytes()).map_err(|_| {
        format!("`{text}` is not a square: expected a file a-h then a rank 1-8, e.g. e4")
    })
}

/// Draws the board with one cell per square, right-aligned to the widest cell.
fn render_board(cell: impl Fn(Square) -> String) -> String {
    let width = Square::ALL
        .iter()
        .map(|&sq| cell(sq).len())
        .max()
        .unwrap_or(1);
    let mut board = String::new();
    for rank in Rank::ALL.into_iter().rev() {
        let cells: Vec<String> = File::ALL
            .into_iter()
            .map(|file| format!("{:>width$}", cell(Square::from_coords(file, rank))))
            .collect();
        board.push_str(&format!("{}  {}\n", rank.char(), cells.join(" ")));
    }
    let files: Vec<String> = File::ALL
        .into_iter()
        .map(|file| format!("{:>width$}", file.char()))
        .collect();
    board.push_str(&format!("   {}\n", files.join(" ")));
    board
}

/// Prints a distance diagram.
pub fn run_distance(args: &DistanceArgs) -> ExitCode {
    let (title, distance): (String, Box<dyn Fn(Square) -> u32>) = match (args.metric, args.square) {
        (Metric::Centre, None) => (
            "Manhattan distance to the centre (d4, e4, d5, e5)".to_owned(),
            Box::new(centre_manhattan_distance),
        ),
        (Metric::Centre, Some(square)) => {
            eprintln!(
                "minkowski distance: `centre` measures from d4, e4, d5 and e5 and takes no square \
                 (got {square}); run `minkowski distance centre`"
            );
            return ExitCode::from(USAGE_ERROR);
        }
        (metric, None) => {
            let name = format!("{metric:?}").to_lowercase();
            eprintln!(
                "minkowski distance: `{name}` needs a square to measure from, \
                 e.g. `minkowski distance {name} e4`"
            );
            return ExitCode::from(USAGE_ERROR);
        }
        (Metric::King, Some(from)) => (
            format!("King distance from {from}"),
            Box::new(move |to| king_distance(from, to)),
        ),
        (Metric::Manhattan, Some(from)) => (
            format!("Manhattan distance from {from}"),
            Box::new(move |to| manhattan_distance(from, to)),
        ),
        (Metric::Knight, Some(from)) => (
            format!("Knight distance from {from}"),
            Box::new(move |to| knight_distance(from, to)),
        ),
    };
    println!("{title}\n");
    print!("{}", render_board(|sq| distance(sq).to_string()));
    ExitCode::SUCCESS
}

/// Prints knight-fill diagrams, one board per move count.
pub fn run_fill(args: &FillArgs) -> ExitCode {
    let start = Bitboard::from(args.square);
    let avoid: Bitboard = args.avoid.iter().copied().collect();
    let mut previous = start;
    for moves in 1..=args.moves {
        let reached = knight_reach(start, moves, avoid);
        if moves > 1 && reached == previous {
            println!("Nothing new after {} moves.", moves - 1);
            break;
        }
        let plural = if moves == 1 { "move" } else { "moves" };
        println!(
            "Knight from {} in at most {moves} {plural}: {} squares\n",
            args.square,
            reached.count()
        );
        print!(
            "{}",
            render_board(|sq| {
                if reached.contains(sq) {
                    "1"
                } else if avoid.contains(sq) {
                    "x"
                } else {
                    "."
                }
                .to_owned()
            })
        );
        println!();
        previous = reached;
    }
    ExitCode::SUCCESS
}
