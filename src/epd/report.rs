//! What a run found: one [`PositionResult`] per position, a [`Summary`] per file and in total,
//! all serialisable as the `--json` report. Formatting helpers return strings; nothing here
//! prints.

use std::fmt;

use serde::Serialize;

use crate::search::Score;

/// A score as the report shows it: `{"cp": 34}` or `{"mate": -3}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ScoreValue {
    /// Centipawns, side to move's view.
    Cp(i32),
    /// Mate in N moves (negative: mated).
    Mate(i32),
}

impl From<Score> for ScoreValue {
    fn from(s: Score) -> ScoreValue {
        match s {
            Score::Cp(cp) => ScoreValue::Cp(cp),
            Score::Mate(n) => ScoreValue::Mate(n),
        }
    }
}

impl fmt::Display for ScoreValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScoreValue::Cp(cp) => write!(f, "cp {cp:+}"),
            ScoreValue::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// When the engine first found the solution and kept it to the end of the search.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Solution {
    /// Milliseconds from the start of the search.
    pub time_ms: f64,
    /// Nodes searched by then.
    pub nodes: u64,
    /// Iteration depth.
    pub depth: u32,
}

/// One `Dn` count checked (or skipped).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PerftCheck {
    /// Depth in plies.
    pub depth: u32,
    /// The count the EPD line gives.
    pub expected: u64,
    /// The count computed; `None` when skipped (over `--max-nodes` or `--depth`).
    pub found: Option<u64>,
}

/// The outcome of one position.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PositionResult {
    /// 1-based line number in its file.
    pub line: usize,
    /// The `id` operand.
    pub id: Option<String>,
    /// The position.
    pub fen: String,
    /// What solves it, as text (`bm Qg6`, `am Rd6`, `dm 5`, `D1..D6`).
    pub expected: String,
    /// The move the engine chose, in SAN (absent for perft lines).
    pub found: Option<String>,
    /// The engine's score (absent for perft lines).
    pub score: Option<ScoreValue>,
    /// Depth reached (perft: deepest count checked).
    pub depth: u32,
    /// Nodes searched (perft: leaf nodes counted).
    pub nodes: u64,
    /// Milliseconds spent.
    pub time_ms: f64,
    /// Whether the position counts as solved.
    pub solved: bool,
    /// STS points for the move found (`c0` or `c7`/`c8`); absent when the line has none.
    pub points: Option<u32>,
    /// The most points any move earns here.
    pub max_points: Option<u32>,
    /// Time and nodes to solution (solved positions only).
    pub solution: Option<Solution>,
    /// Perft counts checked.
    pub perft: Vec<PerftCheck>,
    /// Oddities accepted while parsing the line.
    pub warnings: Vec<String>,
}

impl PositionResult {
    /// One line for the terminal, e.g.
    /// `wac.epd:1 WAC.001 bm Qg6: Qg6 cp +320 d 9 n 100000 0.52 s solved`.
    #[must_use]
    pub fn line_text(&self, file: &str) -> String {
        let mut s = format!("{file}:{}", self.line);
        if let Some(id) = &self.id {
            s += &format!(" {id}");
        }
        s += &format!(" {}:", self.expected);
        if let Some(found) = &self.found {
            s += &format!(" {found}");
        }
        if let Some(score) = self.score {
            s += &format!(" {score}");
        }
        s += &format!(
            " d {} n {} {:.2} s",
            self.depth,
            self.nodes,
            self.time_ms / 1000.0
        );
        if let Some(bad) = self
            .perft
            .iter()
            .find(|c| c.found.is_some_and(|n| n != c.expected))
        {
            s += &format!(
                " D{} expected {} found {}",
                bad.depth,
                bad.expected,
                bad.found.unwrap_or_default()
            );
        }
        if let (Some(p), Some(max)) = (self.points, self.max_points) {
            s += &format!(" {p}/{max} pts");
        }
        s += if self.solved { " solved" } else { " FAILED" };
        if let Some(sol) = self.solution {
            s += &format!(
                " (at d {}, {} nodes, {:.2} s)",
                sol.depth,
                sol.nodes,
                sol.time_ms / 1000.0
            );
        }
        s
    }
}

/// A malformed line, kept in the report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LineErrorEntry {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// Totals over a set of positions.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Summary {
    /// Positions run.
    pub positions: usize,
    /// Positions solved.
    pub solved: usize,
    /// `solved / positions` in percent (0 when there are none).
    pub solved_percent: f64,
    /// Malformed lines.
    pub errors: usize,
    /// STS points earned.
    pub points: u64,
    /// STS points available.
    pub max_points: u64,
    /// Mean milliseconds to solution over the solved positions that have one.
    pub mean_solution_time_ms: Option<f64>,
    /// Mean nodes to solution over the same positions.
    pub mean_solution_nodes: Option<f64>,
    /// Nodes over all positions.
    pub nodes: u64,
    /// Milliseconds over all positions (summed, not wall time when `--jobs` > 1).
    pub time_ms: f64,
}

impl Summary {
    /// Totals of `results` with `errors` malformed lines.
    #[must_use]
    pub fn of<'a>(results: impl IntoIterator<Item = &'a PositionResult>, errors: usize) -> Summary {
        let mut s = Summary {
            errors,
            ..Summary::default()
        };
        let (mut sol_time, mut sol_nodes, mut sol_count) = (0.0, 0.0, 0_usize);
        for r in results {
            s.positions += 1;
            s.solved += usize::from(r.solved);
            s.points += u64::from(r.points.unwrap_or(0));
            s.max_points += u64::from(r.max_points.unwrap_or(0));
            s.nodes += r.nodes;
            s.time_ms += r.time_ms;
            if let Some(sol) = r.solution {
                sol_time += sol.time_ms;
                sol_nodes += sol.nodes as f64;
                sol_count += 1;
            }
        }
        s.finish(sol_time, sol_nodes, sol_count);
        s
    }

    /// Totals over several summaries (their solution means weighted by solved counts).
    #[must_use]
    pub fn merge<'a>(parts: impl IntoIterator<Item = &'a Summary>) -> Summary {
        let mut s = Summary::default();
        let (mut sol_time, mut sol_nodes, mut sol_count) = (0.0, 0.0, 0_usize);
        for p in parts {
            s.positions += p.positions;
            s.solved += p.solved;
            s.errors += p.errors;
            s.points += p.points;
            s.max_points += p.max_points;
            s.nodes += p.nodes;
            s.time_ms += p.time_ms;
            if let (Some(t), Some(n)) = (p.mean_solution_time_ms, p.mean_solution_nodes) {
                // Every solved position has a solution point, so weight by the solved count.
                let w = p.solved as f64;
                sol_time += t * w;
                sol_nodes += n * w;
                sol_count += p.solved;
            }
        }
        s.finish(sol_time, sol_nodes, sol_count);
        s
    }

    fn finish(&mut self, sol_time: f64, sol_nodes: f64, sol_count: usize) {
        if self.positions > 0 {
            self.solved_percent = 100.0 * self.solved as f64 / self.positions as f64;
        }
        if sol_count > 0 {
            self.mean_solution_time_ms = Some(sol_time / sol_count as f64);
            self.mean_solution_nodes = Some(sol_nodes / sol_count as f64);
        }
    }

    /// One line for the terminal, e.g.
    /// `wac.epd: solved 250/300 (83.3%), 0 errors, mean to solution 0.12 s 95000 nodes`.
    #[must_use]
    pub fn line_text(&self, label: &str) -> String {
        let mut s = format!(
            "{label}: solved {}/{} ({:.1}%), {} errors",
            self.solved, self.positions, self.solved_percent, self.errors
        );
        if self.max_points > 0 {
            s += &format!(", STS points {}/{}", self.points, self.max_points);
        }
        if let (Some(t), Some(n)) = (self.mean_solution_time_ms, self.mean_solution_nodes) {
            s += &format!(", mean to solution {:.3} s {n:.0} nodes", t / 1000.0);
        }
        let secs = self.time_ms / 1000.0;
        s += &format!(", {} nodes in {secs:.2} s", self.nodes);
        if secs > 0.0 {
            s += &format!(" ({:.0} nps)", self.nodes as f64 / secs);
        }
        s
    }
}

/// The results of one file.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FileReport {
    /// The file as named on the command line.
    pub file: String,
    /// Totals of this file.
    pub summary: Summary,
    /// Each position in input order.
    pub positions: Vec<PositionResult>,
    /// Malformed lines.
    pub errors: Vec<LineErrorEntry>,
}

/// The settings a run used.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Settings {
    /// `--movetime` in ms.
    pub movetime_ms: Option<u64>,
    /// `--depth`.
    pub depth: Option<u32>,
    /// `--nodes`.
    pub nodes: Option<u64>,
    /// `--hash` in MB.
    pub hash_mb: usize,
    /// `--jobs`.
    pub jobs: usize,
    /// `--threads` (per job).
    pub threads: usize,
    /// `--max-nodes` (perft cap).
    pub max_nodes: Option<u64>,
}

/// A whole run: what `--json` writes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// The settings.
    pub settings: Settings,
    /// Per file, in command-line order.
    pub files: Vec<FileReport>,
    /// Totals over all files.
    pub total: Summary,
}

impl Report {
    /// All positions solved, over all files.
    #[must_use]
    pub fn solved(&self) -> usize {
        self.total.solved
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(solved: bool, sol_nodes: Option<u64>) -> PositionResult {
        PositionResult {
            line: 1,
            id: None,
            fen: String::new(),
            expected: "bm e4".into(),
            found: Some("e4".into()),
            score: Some(ScoreValue::Cp(10)),
            depth: 3,
            nodes: 100,
            time_ms: 10.0,
            solved,
            points: Some(if solved { 10 } else { 0 }),
            max_points: Some(10),
            solution: sol_nodes.map(|nodes| Solution {
                time_ms: 5.0,
                nodes,
                depth: 2,
            }),
            perft: Vec::new(),
            warnings: Vec::new(),
        }
    }

    #[test]
    fn summary_counts_and_means() {
        let rs = [
            result(true, Some(40)),
            result(true, Some(60)),
            result(false, None),
        ];
        let s = Summary::of(&rs, 2);
        assert_eq!(
            (s.positions, s.solved, s.errors, s.points, s.max_points),
            (3, 2, 2, 20, 30)
        );
        assert_eq!(s.mean_solution_nodes, Some(50.0));
        let total = Summary::merge([&s, &Summary::of(&rs[..1], 0)]);
        assert_eq!((total.positions, total.solved, total.errors), (4, 3, 2));
        assert_eq!(total.mean_solution_nodes, Some((50.0 * 2.0 + 40.0) / 3.0));
    }
}
