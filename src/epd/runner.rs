//! Runs parsed suites: a search per position (or perft counts for `Dn` lines), judged against
//! the position's [`Goal`], optionally on several threads. Progress leaves through
//! [`Progress`]; nothing here prints.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use shakmaty::Move;
use shakmaty::san::SanPlus;

use super::Suite;
use super::record::{Operation, Record};
use super::report::{
    FileReport, LineErrorEntry, PerftCheck, PositionResult, Report, ScoreValue, Settings, Solution,
    Summary,
};
use crate::perft::perft;
use crate::search::threads::run_jobs;
use crate::search::{IterationInfo, Limits, Reporter, Score, SearchControl, Searcher};

/// How long each search may run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Think this long per position.
    Movetime(Duration),
    /// Search to this depth (perft lines: check only `D1`..`Dn`).
    Depth(u32),
    /// Search about this many nodes.
    Nodes(u64),
}

/// How to run the suites.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunOptions {
    /// Search budget per position.
    pub budget: Budget,
    /// Transposition table size per job.
    pub hash_mb: usize,
    /// Positions searched in parallel (one [`Searcher`] each); 0 is taken as 1.
    pub jobs: usize,
    /// Search threads per job (one position searched by N threads); 0 is taken as 1.
    pub threads: usize,
    /// Perft lines: skip every `Dn` whose expected count exceeds this.
    pub max_perft_nodes: Option<u64>,
}

impl RunOptions {
    /// The settings as the report records them.
    #[must_use]
    pub fn settings(&self) -> Settings {
        let mut s = Settings {
            hash_mb: self.hash_mb,
            jobs: self.jobs.max(1),
            threads: self.threads.max(1),
            max_nodes: self.max_perft_nodes,
            ..Settings::default()
        };
        match self.budget {
            Budget::Movetime(t) => s.movetime_ms = Some(t.as_millis() as u64),
            Budget::Depth(d) => s.depth = Some(d),
            Budget::Nodes(n) => s.nodes = Some(n),
        }
        s
    }

    fn limits(&self, goal: &Goal) -> Limits {
        let mut limits = Limits::default();
        match self.budget {
            Budget::Movetime(t) => limits.movetime = Some(t),
            Budget::Depth(d) => limits.depth = Some(d),
            Budget::Nodes(n) => limits.nodes = Some(n),
        }
        // A mate goal lets the search stop as soon as it has a mate that short.
        limits.mate = goal
            .mate
            .and_then(|n| u32::try_from(n).ok())
            .filter(|n| *n > 0);
        limits
    }
}

/// Receives a run's progress (called on the thread that called [`run`]).
pub trait Progress {
    /// Before the first position; `positions` over all suites.
    fn started(&mut self, positions: usize) {
        let _ = positions;
    }
    /// Whenever a position finishes (in completion order).
    fn completed(&mut self, done: usize, solved: usize) {
        let _ = (done, solved);
    }
    /// Each result, in input order (suite by suite, line by line).
    fn result(&mut self, file: &str, result: &PositionResult) {
        let _ = (file, result);
    }
}

impl Progress for () {}

/// What solves a search position: all present conditions must hold.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Goal {
    /// `bm`: the move must be one of these.
    pub best: Vec<Move>,
    /// `am`: the move must be none of these.
    pub avoid: Vec<Move>,
    /// `dm` or `bm #N`: N > 0 a mate in at most N; N < 0 mated, lasting at least -N; 0 no mate.
    pub mate: Option<i32>,
    /// STS points per move (scored, not a condition).
    pub points: Vec<(Move, u32)>,
}

impl Goal {
    /// The goal a record states.
    #[must_use]
    pub fn of(record: &Record) -> Goal {
        let mut goal = Goal {
            points: record.move_points(),
            ..Goal::default()
        };
        for op in &record.operations {
            match op {
                Operation::BestMoves(moves) => goal.best.extend(moves),
                Operation::AvoidMoves(moves) => goal.avoid.extend(moves),
                Operation::BestMate(n) | Operation::DirectMate(n) => goal.mate = Some(*n),
                _ => {}
            }
        }
        goal
    }

    /// Whether the goal states no condition at all.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.best.is_empty() && self.avoid.is_empty() && self.mate.is_none()
    }

    /// Whether playing `mv` with `score` solves the position.
    #[must_use]
    pub fn is_met(&self, mv: Option<Move>, score: Score) -> bool {
        if self.is_empty() {
            return false;
        }
        let best_ok = self.best.is_empty() || mv.is_some_and(|m| self.best.contains(&m));
        let avoid_ok = self.avoid.is_empty() || mv.is_some_and(|m| !self.avoid.contains(&m));
        let mate_ok = match (self.mate, score) {
            (None, _) => true,
            (Some(0), s) => matches!(s, Score::Cp(_)),
            (Some(n), Score::Mate(m)) if n > 0 => (1..=n).contains(&m),
            (Some(n), Score::Mate(m)) => m <= n,
            (Some(_), Score::Cp(_)) => false,
        };
        best_ok && avoid_ok && mate_ok
    }

    /// The points `mv` earns and the most any move earns; `None` without points.
    #[must_use]
    pub fn points_for(&self, mv: Option<Move>) -> Option<(u32, u32)> {
        let max = self.points.iter().map(|(_, p)| *p).max()?;
        let got = mv
            .and_then(|m| self.points.iter().find(|(pm, _)| *pm == m))
            .map_or(0, |(_, p)| *p);
        Some((got, max))
    }
}

/// Records when the principal move starts solving and stays solving.
struct SolutionTracker<'a> {
    goal: &'a Goal,
    since: Option<Solution>,
}

impl Reporter for SolutionTracker<'_> {
    fn on_iteration(&mut self, info: &IterationInfo) {
        if info.multipv != 1 {
            return;
        }
        if self.goal.is_met(info.pv.first().copied(), info.score) {
            self.since.get_or_insert(Solution {
                time_ms: millis(info.time),
                nodes: info.nodes,
                depth: info.depth,
            });
        } else {
            self.since = None;
        }
    }
}

fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Text of what solves `record`, for the report.
fn expected_text(record: &Record, goal: &Goal, perft: &[(u32, u64)]) -> String {
    let san = |m: &Move| SanPlus::from_move(record.position.clone(), *m).to_string();
    let mut parts = Vec::new();
    if !goal.best.is_empty() {
        parts.push(format!(
            "bm {}",
            goal.best.iter().map(san).collect::<Vec<_>>().join(" ")
        ));
    }
    if !goal.avoid.is_empty() {
        parts.push(format!(
            "am {}",
            goal.avoid.iter().map(san).collect::<Vec<_>>().join(" ")
        ));
    }
    if let Some(n) = goal.mate {
        parts.push(format!("mate {n}"));
    }
    if let (Some(lo), Some(hi)) = (
        perft.iter().map(|c| c.0).min(),
        perft.iter().map(|c| c.0).max(),
    ) {
        parts.push(format!("D{lo}..D{hi}"));
    }
    if parts.is_empty() {
        "no goal".to_owned()
    } else {
        parts.join(", ")
    }
}

/// Runs one position: perft counts when the record has `Dn` operations, else a search.
pub fn run_position(
    searcher: &mut Searcher,
    record: &Record,
    options: &RunOptions,
) -> PositionResult {
    let goal = Goal::of(record);
    let counts = record.perft_counts();
    let mut result = PositionResult {
        line: record.line,
        id: record.id().map(str::to_owned),
        fen: record.fen.clone(),
        expected: expected_text(record, &goal, &counts),
        found: None,
        score: None,
        depth: 0,
        nodes: 0,
        time_ms: 0.0,
        solved: false,
        points: None,
        max_points: None,
        solution: None,
        perft: Vec::new(),
        warnings: record.warnings.clone(),
    };
    if !counts.is_empty() {
        run_perft(record, &counts, options, &mut result);
        return result;
    }
    let limits = options.limits(&goal);
    let mut tracker = SolutionTracker {
        goal: &goal,
        since: None,
    };
    searcher.clear();
    let found = searcher.search(
        &record.position,
        &[],
        &limits,
        &SearchControl::default(),
        &mut tracker,
    );
    result.found = found
        .best_move
        .map(|m| SanPlus::from_move(record.position.clone(), m).to_string());
    result.score = Some(ScoreValue::from(found.score));
    result.depth = found.depth;
    result.nodes = found.nodes;
    result.time_ms = millis(found.time);
    result.solved = goal.is_met(found.best_move, found.score);
    if result.solved {
        result.solution = Some(tracker.since.unwrap_or(Solution {
            time_ms: result.time_ms,
            nodes: result.nodes,
            depth: result.depth,
        }));
    }
    if let Some((got, max)) = goal.points_for(found.best_move) {
        result.points = Some(got);
        result.max_points = Some(max);
    }
    result
}

fn run_perft(
    record: &Record,
    counts: &[(u32, u64)],
    options: &RunOptions,
    out: &mut PositionResult,
) {
    let depth_cap = match options.budget {
        Budget::Depth(d) => d,
        _ => u32::MAX,
    };
    let start = Instant::now();
    for &(depth, expected) in counts {
        let wanted =
            depth <= depth_cap && options.max_perft_nodes.is_none_or(|cap| expected <= cap);
        let found = wanted.then(|| perft(&record.position, depth));
        if let Some(n) = found {
            out.nodes += n;
            out.depth = out.depth.max(depth);
        }
        out.perft.push(PerftCheck {
            depth,
            expected,
            found,
        });
    }
    out.time_ms = millis(start.elapsed());
    let checked = out.perft.iter().filter(|c| c.found.is_some()).count();
    out.solved = checked > 0
        && out
            .perft
            .iter()
            .all(|c| c.found.is_none_or(|n| n == c.expected));
    if checked == 0 {
        out.warnings
            .push("every Dn skipped by --depth/--max-nodes".to_owned());
    }
}

/// Runs every position of `suites` and builds the report.
///
/// With `jobs` > 1 the positions are spread over that many threads, each with its own
/// [`Searcher`]; results are still reported and stored in input order.
pub fn run(suites: &[Suite], options: &RunOptions, progress: &mut dyn Progress) -> Report {
    let tasks: Vec<(usize, usize)> = suites
        .iter()
        .enumerate()
        .flat_map(|(s, suite)| (0..suite.records.len()).map(move |r| (s, r)))
        .collect();
    progress.started(tasks.len());
    let mut slots: Vec<Option<PositionResult>> = vec![None; tasks.len()];
    let next = AtomicUsize::new(0);
    let jobs = options.jobs.clamp(1, tasks.len().max(1));
    let (tasks, next) = (&tasks, &next);
    let work = move |sender: mpsc::Sender<(usize, PositionResult)>| {
        let mut searcher = Searcher::new(options.hash_mb);
        searcher.set_threads(options.threads);
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(&(s, r)) = tasks.get(i) else { break };
            let result = run_position(&mut searcher, &suites[s].records[r], options);
            if sender.send((i, result)).is_err() {
                break;
            }
        }
    };
    run_jobs(jobs, work, |receiver| {
        let (mut done, mut solved, mut emitted) = (0, 0, 0);
        for (i, result) in receiver {
            done += 1;
            solved += usize::from(result.solved);
            slots[i] = Some(result);
            progress.completed(done, solved);
            while let Some(Some(r)) = slots.get(emitted) {
                progress.result(&suites[tasks[emitted].0].name, r);
                emitted += 1;
            }
        }
    });
    build_report(suites, options, slots)
}

fn build_report(
    suites: &[Suite],
    options: &RunOptions,
    slots: Vec<Option<PositionResult>>,
) -> Report {
    let mut results = slots.into_iter().flatten();
    let files: Vec<FileReport> = suites
        .iter()
        .map(|suite| {
            let positions: Vec<PositionResult> =
                results.by_ref().take(suite.records.len()).collect();
            let errors: Vec<LineErrorEntry> = suite
                .errors
                .iter()
                .map(|e| LineErrorEntry {
                    line: e.line,
                    message: e.kind.to_string(),
                })
                .collect();
            FileReport {
                file: suite.name.clone(),
                summary: Summary::of(&positions, errors.len()),
                positions,
                errors,
            }
        })
        .collect();
    Report {
        settings: options.settings(),
        total: Summary::merge(files.iter().map(|f| &f.summary)),
        files,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::epd::record::parse_line;

    fn goal(line: &str) -> (Goal, shakmaty::Chess) {
        let r = parse_line(line, 1).unwrap().unwrap();
        (Goal::of(&r), r.position)
    }

    #[test]
    fn mate_goals() {
        let (g, _) = goal("8/8/8/8/8/2k5/1R6/K7 w - - bm #16;");
        assert!(g.is_met(None, Score::Mate(16)));
        assert!(g.is_met(None, Score::Mate(3)));
        assert!(!g.is_met(None, Score::Mate(17)));
        assert!(!g.is_met(None, Score::Cp(900)));
        let (g, _) = goal("3B4/2NK1k2/8/8/8/8/8/8 b - - bm #-11;");
        assert!(g.is_met(None, Score::Mate(-11)));
        assert!(!g.is_met(None, Score::Mate(-5)));
        let (g, _) = goal("1k1K4/8/8/pP6/8/8/8/8 w - a6 dm 0;");
        assert!(g.is_met(None, Score::Cp(0)));
        assert!(!g.is_met(None, Score::Mate(4)));
    }

    #[test]
    fn solution_is_the_first_iteration_that_stays_solving() {
        use crate::search::Bound;
        let (g, pos) = goal("8/1p6/p5R1/k7/Prpp4/K7/1NP5/8 w - - bm Rb6;");
        let mv = |s| crate::epd::notation::resolve_move(&pos, s).unwrap();
        let mut tracker = SolutionTracker {
            goal: &g,
            since: None,
        };
        for (depth, m) in [(1, "Rb6"), (2, "Rg5+"), (3, "Rb6"), (4, "Rb6")] {
            tracker.on_iteration(&IterationInfo {
                depth,
                seldepth: depth,
                multipv: 1,
                score: Score::Cp(50),
                bound: Bound::Exact,
                nodes: u64::from(depth) * 100,
                nps: 0,
                hashfull: 0,
                tbhits: 0,
                time: Duration::from_millis(u64::from(depth)),
                pv: vec![mv(m)],
                root_tb: None,
            });
        }
        let since = tracker.since.unwrap();
        assert_eq!((since.depth, since.nodes), (3, 300));
    }

    #[test]
    fn best_and_avoid_moves() {
        let (g, pos) = goal("8/1p6/p5R1/k7/Prpp4/K7/1NP5/8 w - - am Rd6; bm Rb6 Rg5+;");
        let mv = |s| crate::epd::notation::resolve_move(&pos, s).ok();
        assert!(g.is_met(mv("Rb6"), Score::Cp(0)));
        assert!(!g.is_met(mv("Rd6"), Score::Cp(0)));
        assert!(!g.is_met(mv("Rg8"), Score::Cp(0)));
    }
}
