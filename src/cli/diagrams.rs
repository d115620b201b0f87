//! `minkowski distance` and `minkowski fill` (skeleton).

use std::process::ExitCode;

/// Arguments of `minkowski distance <metric> <square>`.
#[derive(clap::Args, Debug)]
pub struct DistanceArgs {}

/// Arguments of `minkowski fill <square> <n>`.
#[derive(clap::Args, Debug)]
pub struct FillArgs {}

/// Print a distance diagram.
pub fn run_distance(_args: &DistanceArgs) -> ExitCode {
    ExitCode::FAILURE
}

/// Print knight-fill diagrams.
pub fn run_fill(_args: &FillArgs) -> ExitCode {
    ExitCode::FAILURE
}
