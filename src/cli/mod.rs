//! One file per subcommand; each turns arguments into library calls and prints the results.

pub mod bench;
pub mod datagen;
pub mod diagrams;
pub mod epd;
pub mod eval;
pub mod perft;
pub mod probe;
pub mod tune;
pub mod uci;
pub mod wdl_fit;
