//! The UCI protocol: a command loop over any [`BufRead`] and [`Write`].
//!
//! Three kinds of thread:
//!
//! - the **input** thread reads lines and sends them down a channel; it never blocks anyone;
//! - the **command loop** (the caller's thread, [`run_uci`]) owns the engine state: options,
//!   position, the [`Searcher`] while it is idle. It answers every command at once, `isready`
//!   included, because it never searches itself;
//! - a **worker** thread per `go`: the search (or perft) runs there with the `Searcher` moved in,
//!   writes `info` lines through the shared [`Output`], and sends the `Searcher` and its result
//!   back down the same channel.
//!
//! The command loop prints the `bestmove`, exactly one per `go`. In infinite and ponder mode it
//! holds a result that arrives early until `stop` or `ponderhit`, as the UCI spec requires.

pub mod command;
mod extras;
pub mod game;
pub mod input;
mod jobs;
pub mod memory;
pub mod options;
pub mod output;

use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, Color, Move, Position};
use vampirc_uci::UciMessage;

use crate::config::Config;
use crate::eval::Evaluator;
use crate::search::{Limits, SearchControl, SearchResult, Searcher};
use command::{Command, GoSpec, Parsed, echo, parse_line};
use game::{Game, describe};
use input::{InputError, read_lines};
use options::{EngineOptions, OptionId};
use output::{Output, UciReporter, bestmove_line};

/// Stack for the search thread: deep recursion with move lists on the stack needs more than the
/// default 2 MB of spawned threads.
const SEARCH_STACK_BYTES: usize = 64 << 20;

/// Author line of `uci`.
const AUTHOR: &str = "the Minkowski developers";

/// What the command loop waits for.
enum Event {
    Line(String),
    BadInput(InputError),
    Eof,
    SearchDone(Box<SearchDone>),
    PerftDone,
}

/// A worker's answer: the searcher back (unless the search panicked) and its result.
struct SearchDone {
    searcher: Option<Searcher>,
    result: Option<SearchResult>,
}

/// What a worker thread runs.
enum Work {
    Search {
        limits: Limits,
        history: Vec<Zobrist64>,
    },
    Perft {
        depth: u32,
    },
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum JobKind {
    Search,
    Perft,
}

/// The `go` being worked on.
struct Job {
    kind: JobKind,
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
    /// Whether the `bestmove` must wait for `stop` or `ponderhit`.
    fn holds_bestmove(&self) -> bool {
        !self.stopped && (self.infinite || self.pondering)
    }
}

/// Whether to keep reading.
#[derive(PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// Run the UCI loop until `quit` or the end of `input`. `notices` (e.g. problems with
/// engine.toml) are shown as `info string`s in the answer to `uci`.
///
/// The engine answers on `output`, one flushed line at a time. A search still running at `quit`
/// or end of input is stopped and its `bestmove` printed before returning. After `quit` the input
/// thread is left behind, blocked on `input` until that ends (a process exits anyway).
pub fn run_uci<R, W>(input: R, output: W, config: &Config, notices: &[String])
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    let (tx, rx) = channel();
    let out = Output::new(output);
    let reader_tx = tx.clone();
    let reader = thread::Builder::new()
        .name("minkowski-input".into())
        .spawn(move || read_lines(input, &reader_tx));
    if let Err(e) = reader {
        out.info_string(format!("cannot start the input thread: {e}"));
        return;
    }
    let mut notices = notices.to_vec();
    if !config.eval.is_empty() {
        notices.push(format!(
            "engine.toml [eval]: {} weights applied",
            config.eval.len()
        ));
    }
    let evaluator = Evaluator::new(config.weights());
    let searcher = new_searcher(&config.options, &evaluator);
    if searcher.hash_mb() < config.options.hash_mb {
        notices.push(format!(
            "Hash: only {} MB allocated (asked for {} MB in engine.toml): memory is short",
            searcher.hash_mb(),
            config.options.hash_mb
        ));
    }
    let mut engine = Engine {
        out,
        tx,
        defaults: config.options.clone(),
        options: config.options.clone(),
        searcher: Some(searcher),
        searcher_hash_mb: config.options.hash_mb,
        clear_pending: false,
        game: Game::default(),
        evaluator,
        job: None,
        queued: VecDeque::new(),
        debug: false,
        notices,
    };
    engine.run(&rx);
}

fn new_searcher(options: &EngineOptions, evaluator: &Evaluator) -> Searcher {
    let mb = memory::affordable_hash_mb(options.hash_mb, memory::free_mb());
    let mut searcher = Searcher::new(mb);
    searcher.set_evaluator(evaluator.clone());
    searcher.set_multipv(options.multipv);
    searcher.set_move_overhead(options.move_overhead());
    searcher
}

/// The command loop's state.
struct Engine<W: Write + Send + 'static> {
    out: Output<W>,
    tx: Sender<Event>,
    /// Defaults shown by `uci`: built-in, overridden by engine.toml.
    defaults: EngineOptions,
    /// Current values: the defaults, overridden by `setoption`.
    options: EngineOptions,
    /// `None` while a search has it.
    searcher: Option<Searcher>,
    /// The table size the searcher has now (options apply when it is idle).
    searcher_hash_mb: usize,
    /// `ucinewgame` or `Clear Hash` arrived while the searcher was busy.
    clear_pending: bool,
    game: Game,
    /// The evaluation (built-in weights with engine.toml's `[eval]`), for new searchers and
    /// the `eval` command.
    evaluator: Evaluator,
    job: Option<Job>,
    /// `go`s that arrived while a finite search was still running, oldest first.
    queued: VecDeque<(Job, Work)>,
    debug: bool,
    notices: Vec<String>,
}

impl<W: Write + Send + 'static> Engine<W> {
    fn run(&mut self, rx: &Receiver<Event>) {
        while let Ok(event) = rx.recv() {
            match event {
                Event::Line(line) => {
                    // A bug in one command must not take the engine down with it.
                    let flow = catch_unwind(AssertUnwindSafe(|| self.handle_line(&line)))
                        .unwrap_or_else(|_| {
                            self.out.info_string(format!(
                                "internal error while handling '{}'; command ignored",
                                echo(&line)
                            ));
                            Flow::Continue
                        });
                    if flow == Flow::Quit {
                        self.finish_jobs(rx, true);
                        return;
                    }
                }
                Event::BadInput(e) => self.out.info_string(e),
                Event::Eof => break,
                Event::SearchDone(done) => self.on_search_done(*done),
                Event::PerftDone => self.on_perft_done(),
            }
        }
        // End of input (or the input thread is gone): finish like `quit`, but let a perft
        // complete, so that `echo "go perft 5" | minkowski` prints the whole count.
        self.finish_jobs(rx, false);
    }

    fn handle_line(&mut self, line: &str) -> Flow {
        match parse_line(line) {
            Ok(None) => Flow::Continue,
            Ok(Some(Parsed { command, notices })) => {
                for n in notices {
                    self.out.info_string(n);
                }
                self.execute(command)
            }
            Err(e) => {
                self.out.info_string(e);
                Flow::Continue
            }
        }
    }

    fn execute(&mut self, command: Command) -> Flow {
        match command {
            Command::Uci => self.uci(),
            Command::Debug(on) => {
                self.debug = on;
                self.out
                    .info_string(format!("debug {}", if on { "on" } else { "off" }));
            }
            Command::IsReady => self.out.message(&UciMessage::ReadyOk),
            Command::Register => self.out.info_string("Minkowski needs no registration"),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::UciNewGame => {
                self.clear_pending = true;
                self.sync_searcher();
            }
            Command::Position(spec) => match Game::from_spec(&spec) {
                Ok((game, notices)) => {
                    for n in notices {
                        self.out.info_string(n);
                    }
                    self.game = game;
                }
                Err(e) => self.out.info_string(format!("position: {e}")),
            },
            Command::Go(spec) => self.go(spec),
            Command::Stop => self.stop(),
            Command::PonderHit => self.ponderhit(),
            Command::Quit => return Flow::Quit,
            Command::Display => self
                .out
                .lines(&describe(&self.game.pos, self.options.chess960)),
            Command::Eval => extras::eval_command(&self.out, &self.evaluator, &self.game.pos),
            Command::Bench(depth) => {
                if self.job.is_some() {
                    self.out
                        .info_string("bench: a search is running; send 'stop' first");
                } else {
                    extras::bench_command(&self.out, depth);
                }
            }
        }
        Flow::Continue
    }

    fn uci(&self) {
        let mut lines = vec![
            UciMessage::id_name(&format!("Minkowski {}", env!("CARGO_PKG_VERSION"))).to_string(),
            UciMessage::id_author(AUTHOR).to_string(),
        ];
        lines.extend(self.defaults.declarations());
        self.out.lines(&lines);
        for n in &self.notices {
            self.out.info_string(n);
        }
        self.out.message(&UciMessage::UciOk);
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        match self.options.set_from_text(name, value) {
            Ok(spec) => {
                if spec.id == OptionId::ClearHash {
                    self.clear_pending = true;
                }
                self.sync_searcher();
                if self.debug {
                    self.out
                        .info_string(format!("{} = {}", spec.name, self.options.get(spec.id)));
                }
            }
            Err(e) => self
                .out
                .info_string(format!("setoption: {e}; option unchanged")),
        }
    }

    /// Bring an idle searcher up to date with the options (a busy one is updated when it
    /// comes back).
    fn sync_searcher(&mut self) {
        let Some(searcher) = self.searcher.as_mut() else {
            return;
        };
        if self.searcher_hash_mb != self.options.hash_mb {
            // The old table is freed before the new one is made, so its memory counts as free.
            let free = memory::free_mb().map(|f| f + searcher.hash_mb());
            searcher.set_hash_mb(memory::affordable_hash_mb(self.options.hash_mb, free));
            self.searcher_hash_mb = self.options.hash_mb;
            let got = searcher.hash_mb();
            self.report_short_hash(got, free);
        }
        let Some(searcher) = self.searcher.as_mut() else {
            return;
        };
        if self.clear_pending {
            searcher.clear();
            self.clear_pending = false;
        }
        searcher.set_multipv(self.options.multipv);
        searcher.set_move_overhead(self.options.move_overhead());
    }

    /// Say so when the table is smaller than the `Hash` asked for.
    fn report_short_hash(&self, got_mb: usize, free_mb: Option<usize>) {
        if got_mb < self.options.hash_mb {
            let why = free_mb.map_or(String::new(), |f| format!("; about {f} MB of memory free"));
            self.out.info_string(format!(
                "Hash: only {got_mb} MB allocated (asked for {} MB{why})",
                self.options.hash_mb
            ));
        }
    }

    fn go(&mut self, spec: GoSpec) {
        // The newest `go` ends by itself unless it holds its bestmove for `stop`/`ponderhit`.
        let newest = self.queued.back().map(|(job, _)| job).or(self.job.as_ref());
        if newest.is_some_and(Job::holds_bestmove) {
            self.out
                .info_string("go ignored: a search is already running (send 'stop' first)");
            return;
        }
        let (job, work) = self.prepare(spec);
        if self.job.is_some() {
            // A finite search is still running (a script sent `go`s in a row): the new one
            // starts when it ends, on the position and options of this moment.
            self.out
                .info_string("go queued: it starts when the running search ends");
            self.queued.push_back((job, work));
        } else {
            self.start(job, work);
        }
    }

    fn stop(&mut self) {
        if self.job.is_none() && self.queued.is_empty() {
            if self.debug {
                self.out.info_string("stop: no search is running");
            }
            return;
        }
        let queued = self.queued.iter_mut().map(|(job, _)| job);
        for job in self.job.iter_mut().chain(queued) {
            job.stopped = true;
            job.control.stop.store(true, Ordering::SeqCst);
        }
        self.release_held_bestmove();
    }

    fn ponderhit(&mut self) {
        let queued = self.queued.iter_mut().map(|(job, _)| job);
        // The live ponder search: one stopped earlier may still be running or queued, and
        // must not take the `ponderhit` meant for the newest.
        match self
            .job
            .iter_mut()
            .chain(queued)
            .find(|job| job.pondering && !job.stopped)
        {
            Some(job) => {
                job.pondering = false;
                job.control.ponderhit.store(true, Ordering::SeqCst);
                self.release_held_bestmove();
            }
            None => self.out.info_string("ponderhit ignored: not pondering"),
        }
    }

    /// Print a result that was waiting for `stop`/`ponderhit`, if nothing holds it any more.
    fn release_held_bestmove(&mut self) {
        let release = self
            .job
            .as_ref()
            .is_some_and(|job| job.finished.is_some() && !job.holds_bestmove());
        if release && let Some(mut job) = self.job.take() {
            let result = job.finished.take().flatten();
            self.print_bestmove(&job, result.as_ref());
            self.start_queued();
        }
    }

    fn on_search_done(&mut self, done: SearchDone) {
        if done.searcher.is_none() {
            self.out
                .info_string("the search failed (internal error); its table was reset");
            self.searcher_hash_mb = self.options.hash_mb;
        }
        self.searcher = Some(
            done.searcher
                .unwrap_or_else(|| new_searcher(&self.options, &self.evaluator)),
        );
        self.sync_searcher();
        let Some(mut job) = self.job.take() else {
            return;
        };
        if let Some(handle) = job.handle.take() {
            let _ = handle.join();
        }
        if job.holds_bestmove() {
            job.finished = Some(done.result);
            self.job = Some(job);
        } else {
            self.print_bestmove(&job, done.result.as_ref());
            self.start_queued();
        }
    }

    fn on_perft_done(&mut self) {
        if let Some(handle) = self.job.take().and_then(|mut job| job.handle.take()) {
            let _ = handle.join();
        }
        self.start_queued();
    }

    fn print_bestmove(&self, job: &Job, result: Option<&SearchResult>) {
        let (line, notice) = bestmove_line(&job.root, result, &job.searchmoves, job.chess960);
        if let Some(n) = notice {
            self.out.info_string(n);
        }
        self.out.line(&line);
    }

    /// At `quit` or end of input: stop the searches and wait for them, so every `go` still gets
    /// its `bestmove`. Perfts are stopped only at `quit`.
    fn finish_jobs(&mut self, rx: &Receiver<Event>, stop_perft: bool) {
        let queued = self.queued.iter_mut().map(|(job, _)| job);
        for job in self.job.iter_mut().chain(queued) {
            if stop_perft || job.kind == JobKind::Search {
                job.stopped = true;
                job.control.stop.store(true, Ordering::SeqCst);
            }
        }
        self.release_held_bestmove();
        while self.job.is_some() {
            match rx.recv() {
                Ok(Event::SearchDone(done)) => self.on_search_done(*done),
                Ok(Event::PerftDone) => self.on_perft_done(),
                Ok(_) => {}
                Err(_) => break,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;
    use std::sync::{Arc, Mutex};

    use super::*;

    /// A writer the test can read back after the loop ends.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn runs_in_process_over_any_reader_and_writer() {
        let out = Shared::default();
        let input =
            Cursor::new(b"uci\nisready\nposition startpos moves e2e4\ngo infinite\n".to_vec());
        run_uci(
            input,
            out.clone(),
            &Config::default(),
            &["hello".to_owned()],
        );
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines.contains(&"info string hello"));
        assert!(lines.contains(&"uciok") && lines.contains(&"readyok"));
        // End of input stopped the infinite search, which still answered.
        assert_eq!(
            lines.iter().filter(|l| l.starts_with("bestmove ")).count(),
            1
        );
    }
}
