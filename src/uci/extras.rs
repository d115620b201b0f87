//! Non-standard commands: `go perft`, `eval`, `bench`.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use shakmaty::{Chess, Position};

use super::game::move_to_uci;
use super::output::Output;
use crate::eval::Evaluator;
use crate::perft::perft;

/// Subtrees at most this deep are counted without looking at the stop flag (a depth-5 subtree
/// takes well under a second), deeper ones check it at every node above that.
const PERFT_UNINTERRUPTED_DEPTH: u32 = 5;

/// `go perft <depth>`: the leaf count under each root move, then the total with the speed.
/// Runs on the worker thread; `stop` ends it early with a partial count.
pub(super) fn perft_command<W: Write>(
    out: &Output<W>,
    pos: &Chess,
    depth: u32,
    chess960: bool,
    stop: &AtomicBool,
) {
    let start = Instant::now();
    let mut total = 0u64;
    let mut complete = true;
    if depth == 0 {
        total = 1;
    } else {
        for m in pos.legal_moves() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let Some(n) = perft_stoppable(&child, depth - 1, stop) else {
                complete = false;
                break;
            };
            out.line(&format!("{}: {n}", move_to_uci(m, chess960)));
            total += n;
        }
    }
    let micros = start.elapsed().as_micros().max(1);
    let nps = u128::from(total) * 1_000_000 / micros;
    let mut lines = vec![String::new(), format!("Nodes searched: {total}")];
    lines.push(format!("Time: {} ms, {nps} nps", micros / 1000));
    if !complete {
        lines.push("info string perft stopped: the count is partial".to_owned());
    }
    out.lines(&lines);
}

fn perft_stoppable(pos: &Chess, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    if depth <= PERFT_UNINTERRUPTED_DEPTH {
        return Some(perft(pos, depth));
    }
    let mut total = 0;
    for m in pos.legal_moves() {
        let mut child = pos.clone();
        child.play_unchecked(m);
        total += perft_stoppable(&child, depth - 1, stop)?;
    }
    Some(total)
}

/// `bench [depth]` typed into the UCI loop: the same positions, default depth and last line as
/// `minkowski bench`.
pub(super) fn bench_command<W: Write>(out: &Output<W>, depth: Option<u32>) {
    let depth = depth.unwrap_or(crate::search::bench::DEFAULT_BENCH_DEPTH);
    let report = crate::search::bench::run_bench(depth);
    out.line(&format!("{} nodes {} nps", report.nodes, report.nps));
}

/// `eval`: the evaluation of the current position, term by term (one `info string` per line,
/// so that GUIs that log engine output keep it and none mistakes it for a command).
pub(super) fn eval_command<W: Write>(out: &Output<W>, evaluator: &Evaluator, pos: &Chess) {
    for line in evaluator.trace(pos).to_string().lines() {
        out.info_string(line);
    }
}
