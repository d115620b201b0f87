//! One piece of work the command loop hands to a worker thread: a search (`go`), a leaf count
//! (`go perft`), the bench (`bench`) or openings (`genfens`). A [`Job`] takes what it needs from the engine's state
//! when the command arrives, runs on its own thread, and prints its own answer: `info` lines and
//! the `bestmove` for a search, the counts for perft and bench.

use std::io::Write;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::Ordering;
use std::sync::mpsc::Sender;
use std::thread::{self, JoinHandle};

use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, Color, Move, Position};

use super::game::{Game, move_to_uci};
use super::output::{Output, UciReporter, bestmove_line};
use crate::openings::{OpeningRequest, generate, parse_book};
use crate::options::echo;
use crate::perft::perft_until;
use crate::search::bench::run_bench_until;
use crate::search::threads::SEARCH_STACK_BYTES;
use crate::search::{Limits, SearchControl, SearchResult, Searcher};
use crate::wdl::material;

/// Most skipped book lines reported one by one.
const MAX_BOOK_NOTICES: usize = 3;

/// A worker's answer to a search: the searcher back (unless the search panicked) and its result.
pub(super) struct SearchDone {
    pub(super) searcher: Option<Searcher>,
    pub(super) result: Option<SearchResult>,
}

/// What a worker thread sends when its work ends (the command loop's channel takes anything
/// made from it).
pub(super) enum JobDone {
    /// A search ended.
    Search(Box<SearchDone>),
    /// A perft, bench or genfens ended (it printed its own answer).
    Count,
}

/// What the worker thread runs.
enum Work {
    Search {
        limits: Limits,
        history: Vec<Zobrist64>,
        /// `UCI_ShowWDL`: add `wdl W D L` to the `info` lines.
        show_wdl: bool,
    },
    Perft {
        depth: u32,
    },
    Bench {
        depth: u32,
    },
    GenFens {
        request: OpeningRequest,
        book: Vec<Chess>,
    },
}

/// A `go`, `go perft` or `bench`, from the moment it arrives until its answer is printed.
pub(super) struct Job {
    /// Taken by [`Job::start`].
    work: Option<Work>,
    is_search: bool,
    control: SearchControl,
    root: Chess,
    searchmoves: Vec<Move>,
    chess960: bool,
    infinite: bool,
    /// `go ponder` without `ponderhit` yet.
    pondering: bool,
    /// `stop` (or quit, or end of input) was received.
    stopped: bool,
    /// A search that ended while its `bestmove` must be held.
    finished: Option<Option<SearchResult>>,
    handle: Option<JoinHandle<()>>,
}

impl Job {
    fn new(work: Work, root: Chess, chess960: bool) -> Job {
        Job {
            is_search: matches!(work, Work::Search { .. }),
            work: Some(work),
            control: SearchControl::default(),
            root,
            searchmoves: Vec::new(),
            chess960,
            infinite: false,
            pondering: false,
            stopped: false,
            finished: None,
            handle: None,
        }
    }

    /// A search of the current position with `limits` as `go` gave them. `searchmoves` are
    /// checked against the position here; illegal ones are dropped with a notice.
    pub(super) fn search<W: Write>(
        mut limits: Limits,
        searchmoves: &[UciMove],
        game: &Game,
        (chess960, show_wdl): (bool, bool),
        out: &Output<W>,
    ) -> Job {
        let root = game.pos.clone();
        for uci in searchmoves {
            match uci.to_move(&root) {
                Ok(m) => limits.searchmoves.push(m),
                Err(_) => {
                    out.info_string(format!("go searchmoves: {uci} is illegal here; ignored"))
                }
            }
        }
        // A clock for the other side only (`go btime 100` with White to move, as fastchess's
        // compliance test sends) would leave the search without a limit: assume equal clocks.
        let (ours, theirs, name) = match root.turn() {
            Color::White => (&mut limits.wtime, limits.btime, "white"),
            Color::Black => (&mut limits.btime, limits.wtime, "black"),
        };
        if ours.is_none()
            && let Some(t) = theirs
        {
            *ours = Some(t);
            out.info_string(format!(
                "go: no clock for {name}, the side to move; assuming {t} ms like the opponent"
            ));
        }
        let searchmoves = limits.searchmoves.clone();
        let (infinite, pondering) = (limits.infinite, limits.ponder);
        let history = game.history.clone();
        let work = Work::Search {
            limits,
            history,
            show_wdl,
        };
        let mut job = Job::new(work, root, chess960);
        job.searchmoves = searchmoves;
        job.infinite = infinite;
        job.pondering = pondering;
        job
    }

    /// `go perft <depth>` from the current position.
    pub(super) fn perft(depth: u32, game: &Game, chess960: bool) -> Job {
        Job::new(Work::Perft { depth }, game.pos.clone(), chess960)
    }

    /// `bench [depth]`.
    pub(super) fn bench(depth: u32) -> Job {
        Job::new(Work::Bench { depth }, Chess::default(), false)
    }

    /// `genfens`: the book is read now. Lines that are not positions are skipped with a notice;
    /// a book that cannot be read or has no position refuses the command with the reason.
    pub(super) fn genfens<W: Write>(
        request: OpeningRequest,
        book: Option<&str>,
        out: &Output<W>,
    ) -> Result<Job, String> {
        let Some(path) = book else {
            let book = Vec::new();
            return Ok(Job::new(
                Work::GenFens { request, book },
                Chess::default(),
                false,
            ));
        };
        let name = echo(path);
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("genfens: cannot read the book '{name}': {e}"))?;
        let book = parse_book(&text);
        for e in book.skipped.iter().take(MAX_BOOK_NOTICES) {
            out.info_string(format!("genfens: book '{name}', skipped {e}"));
        }
        if book.skipped.len() > MAX_BOOK_NOTICES {
            let more = book.skipped.len() - MAX_BOOK_NOTICES;
            out.info_string(format!("genfens: book '{name}', {more} more lines skipped"));
        }
        if book.positions.is_empty() {
            return Err(format!("genfens: the book '{name}' has no positions"));
        }
        let book = book.positions;
        Ok(Job::new(
            Work::GenFens { request, book },
            Chess::default(),
            false,
        ))
    }

    /// Whether this job searches (and so needs the searcher and answers with a `bestmove`).
    pub(super) fn is_search(&self) -> bool {
        self.is_search
    }

    /// Whether the `bestmove` must wait for `stop` or `ponderhit`.
    pub(super) fn holds_bestmove(&self) -> bool {
        !self.stopped && (self.infinite || self.pondering)
    }

    /// Whether it is a search waiting for `ponderhit`. A ponder search that `stop` ended is not:
    /// while it winds down (or waits in the queue) it must not take the `ponderhit` meant for
    /// a newer one, which would then hold its `bestmove` and make the next `go` be ignored.
    pub(super) fn is_pondering(&self) -> bool {
        self.pondering && !self.stopped
    }

    /// Whether a finished search's result waits here and nothing holds it any more.
    pub(super) fn can_release(&self) -> bool {
        self.finished.is_some() && !self.holds_bestmove()
    }

    /// `stop`: end the work as soon as possible (a search still answers).
    pub(super) fn stop(&mut self) {
        self.stopped = true;
        self.control.stop.store(true, Ordering::SeqCst);
    }

    /// `ponderhit`: the pondering search now plays on its clock.
    pub(super) fn ponderhit(&mut self) {
        self.pondering = false;
        self.control.ponderhit.store(true, Ordering::SeqCst);
    }

    /// Run the work on a worker thread; a search takes `searcher` with it. The worker sends
    /// [`JobDone`] when it ends. On error (no thread) the searcher is lost with the closure.
    pub(super) fn start<W: Write + Send + 'static, E: From<JobDone> + Send + 'static>(
        &mut self,
        searcher: Option<Searcher>,
        out: &Output<W>,
        tx: &Sender<E>,
    ) -> std::io::Result<()> {
        let (out, tx) = (out.clone(), tx.clone());
        let (control, root, chess960) = (self.control.clone(), self.root.clone(), self.chess960);
        let spawned = match (self.work.take(), searcher) {
            (
                Some(Work::Search {
                    limits,
                    history,
                    show_wdl,
                }),
                Some(mut searcher),
            ) => thread::Builder::new()
                .name("minkowski-search".into())
                .stack_size(SEARCH_STACK_BYTES)
                .spawn(move || {
                    let mut reporter = UciReporter {
                        out,
                        chess960,
                        wdl_material: show_wdl.then(|| material(&root)),
                    };
                    let result = catch_unwind(AssertUnwindSafe(|| {
                        searcher.search(&root, &history, &limits, &control, &mut reporter)
                    }));
                    let done = match result {
                        Ok(r) => SearchDone {
                            searcher: Some(searcher),
                            result: Some(r),
                        },
                        Err(_) => SearchDone {
                            searcher: None,
                            result: None,
                        },
                    };
                    let _ = tx.send(JobDone::Search(Box::new(done)).into());
                }),
            (Some(Work::Perft { depth }), _) => thread::Builder::new()
                .name("minkowski-perft".into())
                .spawn(move || {
                    let _ = catch_unwind(AssertUnwindSafe(|| {
                        perft_lines(&out, &root, depth, chess960, &control);
                    }));
                    let _ = tx.send(JobDone::Count.into());
                }),
            (Some(Work::Bench { depth }), _) => thread::Builder::new()
                .name("minkowski-bench".into())
                .stack_size(SEARCH_STACK_BYTES)
                .spawn(move || {
                    let _ = catch_unwind(AssertUnwindSafe(|| bench_lines(&out, depth, &control)));
                    let _ = tx.send(JobDone::Count.into());
                }),
            (Some(Work::GenFens { request, book }), _) => thread::Builder::new()
                .name("minkowski-genfens".into())
                .stack_size(SEARCH_STACK_BYTES)
                .spawn(move || {
                    let _ = catch_unwind(AssertUnwindSafe(|| {
                        genfens_lines(&out, &request, &book, &control);
                    }));
                    let _ = tx.send(JobDone::Count.into());
                }),
            _ => Err(std::io::Error::other(
                "internal error: no work or no searcher",
            )),
        };
        self.handle = Some(spawned?);
        Ok(())
    }

    /// Wait for the worker thread to end (it has sent its answer already).
    pub(super) fn join(&mut self) {
        if let Some(handle) = self.handle.take() {
            let _ = handle.join();
        }
    }

    /// A search ended: keep its result while the `bestmove` is held (`Some(self)` back), or
    /// print the `bestmove` (`None`: the job is over).
    pub(super) fn finish<W: Write>(
        mut self,
        result: Option<SearchResult>,
        out: &Output<W>,
    ) -> Option<Job> {
        self.join();
        if self.holds_bestmove() {
            self.finished = Some(result);
            Some(self)
        } else {
            self.print_bestmove(result.as_ref(), out);
            None
        }
    }

    /// Print the result that was held for `stop`/`ponderhit`.
    pub(super) fn release<W: Write>(mut self, out: &Output<W>) {
        let result = self.finished.take().flatten();
        self.print_bestmove(result.as_ref(), out);
    }

    /// The `bestmove` line (always legal, see [`bestmove_line`]).
    pub(super) fn print_bestmove<W: Write>(&self, result: Option<&SearchResult>, out: &Output<W>) {
        let (line, notice) = bestmove_line(&self.root, result, &self.searchmoves, self.chess960);
        if let Some(n) = notice {
            out.info_string(n);
        }
        out.line(&line);
    }
}

/// `go perft <depth>`: the leaf count under each root move, then the total with the speed.
/// `stop` ends it early with a partial count.
fn perft_lines<W: Write>(
    out: &Output<W>,
    pos: &Chess,
    depth: u32,
    chess960: bool,
    control: &SearchControl,
) {
    let start = std::time::Instant::now();
    let mut total = 0u64;
    let mut complete = true;
    if depth == 0 {
        total = 1;
    } else {
        for m in pos.legal_moves() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let Some(n) = perft_until(&child, depth - 1, &control.stop) else {
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

/// `bench [depth]`: the same positions, default depth and last line as `minkowski bench`.
/// `stop` ends it early with a partial count.
fn bench_lines<W: Write>(out: &Output<W>, depth: u32, control: &SearchControl) {
    let report = run_bench_until(depth, control);
    if control.stop.load(Ordering::Relaxed) {
        out.info_string("bench stopped: the count is partial");
    }
    out.line(&format!("{} nodes {} nps", report.nodes, report.nps));
}

/// `genfens`: one `info string genfens <FEN>` per opening, as OpenBench reads them, and a notice
/// when fewer than asked could be made.
fn genfens_lines<W: Write>(
    out: &Output<W>,
    request: &OpeningRequest,
    book: &[Chess],
    control: &SearchControl,
) {
    let made = generate(book, request, control, |fen| {
        out.info_string(format!("genfens {fen}"));
    });
    if made < request.count {
        out.info_string(format!(
            "genfens: made {made} of {} openings (stopped, or the book has too few new balanced \
             positions)",
            request.count
        ));
    }
}
