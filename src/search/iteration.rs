//! One iteration of iterative deepening, written once for the main thread and the helper
//! threads: the MultiPV passes over the root moves, each through an aspiration window, and the
//! report of every finished or failed window.

use shakmaty::{Chess, Move};

use super::frame::Line;
use super::node::RootContext;
use super::types::Bound;
use super::worker::Worker;
use crate::value::Value;

/// One finished principal variation of an iteration.
#[derive(Clone, Debug)]
pub(super) struct PvLine {
    pub(super) value: Value,
    pub(super) pv: Line,
}

/// One completed iteration of iterative deepening.
pub(super) struct Iteration {
    /// The MultiPV lines, best first.
    pub(super) lines: Vec<PvLine>,
    /// The share of the root's nodes spent under the best move (in the first MultiPV pass).
    pub(super) best_share: f64,
}

/// One iteration of iterative deepening at `depth`, for the main thread and the helpers alike:
/// the `multipv` best of `root_moves` one after another, each through an aspiration window
/// around its score in `previous` (the last iteration's lines). `store_root`: whether the
/// root may be written to the TT. `None` when the search was stopped before it finished.
pub(super) fn iteration(
    worker: &mut Worker<'_>,
    pos: &Chess,
    depth: i32,
    root_moves: &[Move],
    previous: &[PvLine],
    multipv: usize,
    store_root: bool,
) -> Option<Iteration> {
    worker.start_iteration();
    let mut root = RootContext::new(depth);
    let mut lines: Vec<PvLine> = Vec::new();
    let mut best_share = 1.0;
    for pv_index in 0..multipv {
        root.moves = root_moves
            .iter()
            .filter(|m| lines.iter().all(|l| l.pv.first() != Some(m)))
            .copied()
            .collect();
        root.store = pv_index == 0 && store_root;
        let previous = previous.get(pv_index).map(|l| l.value);
        let line = aspiration(worker, pos, &mut root, previous, pv_index + 1)?;
        if let (0, Some(&m)) = (pv_index, line.pv.first()) {
            // The first pass sees every root move; later MultiPV passes would dilute it.
            best_share = root.nodes.share(m);
        }
        lines.push(line);
    }
    lines.sort_by_key(|l| std::cmp::Reverse(l.value));
    Some(Iteration { lines, best_share })
}

/// Search the root at `root.depth` with an aspiration window around `previous`, reporting
/// failed windows. `None` when the search was stopped before the iteration finished.
fn aspiration(
    worker: &mut Worker<'_>,
    pos: &Chess,
    root: &mut RootContext,
    previous: Option<Value>,
    multipv: usize,
) -> Option<PvLine> {
    let p = *worker.params();
    let depth = root.depth;
    let mut delta = p.aspiration_window;
    let (mut alpha, mut beta) = match previous {
        Some(v) if depth >= p.aspiration_min_depth && !v.is_mate() => (v - delta, v + delta),
        _ => (-Value::INFINITE, Value::INFINITE),
    };
    // After a fail high the re-search goes one ply shallower each time (a fail high is usually
    // confirmed, and a shallower search confirms it sooner); a fail low searches the full depth.
    let mut search_depth = depth;
    loop {
        let v = worker.search_root(pos, root, search_depth, alpha, beta);
        if worker.stopped() {
            return None;
        }
        let line = PvLine {
            value: v,
            pv: worker.root_pv().clone(),
        };
        if v <= alpha {
            if !line.pv.is_empty() {
                report(worker, depth, multipv, &line, Bound::Upper);
            }
            beta = Value((alpha.0 + beta.0) / 2);
            search_depth = depth;
            alpha = if delta > p.aspiration_full_after {
                -Value::INFINITE
            } else {
                Value((v.0 - delta).max(-Value::INFINITE.0))
            };
        } else if v >= beta {
            report(worker, depth, multipv, &line, Bound::Lower);
            if !v.is_mate() {
                search_depth = (search_depth - 1)
                    .max(depth - p.aspiration_max_shallower)
                    .max(1);
            }
            beta = if delta > p.aspiration_full_after {
                Value::INFINITE
            } else {
                Value((v.0 + delta).min(Value::INFINITE.0))
            };
        } else {
            return Some(line);
        }
        // Doubling: a score that moved a lot usually moves further (a combination found), and
        // every re-search costs a whole iteration.
        delta *= 2;
    }
}

/// Report one finished or failed window of the root search.
pub(super) fn report(
    worker: &mut Worker<'_>,
    depth: i32,
    multipv: usize,
    line: &PvLine,
    bound: Bound,
) {
    worker.report_line(depth, multipv, (line.value, &line.pv), bound);
}
