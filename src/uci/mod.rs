//! The UCI protocol: a command loop over any [`BufRead`] and [`Write`].
//!
//! Three kinds of thread:
//!
//! - the **input** thread (`read_lines`, in `input.rs`) reads lines and sends them down a channel; it
//!   never blocks anyone;
//! - the **command loop** (the caller's thread, [`run_uci`]) owns the engine state: options,
//!   position, the [`Searcher`] while it is idle. It answers every command at once, `isready`
//!   included, because it never searches or counts itself;
//! - a **worker** thread per `go`, `go perft` and `bench` (a `job::Job`): the work runs there
//!   (a search with the `Searcher` moved in), writes its lines through the shared [`Output`], and
//!   a search sends the `Searcher` and its result back down the same channel.
//!
//! A `go wtime ...` line goes: this file (input thread, then `Engine::execute`) → `command.rs`
//! (parsed straight into the search's [`Limits`](crate::search::Limits)) → `job.rs` (the worker
//! thread) → [`crate::search`] → `output.rs` (`info` lines through the reporter, then the
//! `bestmove`).
//!
//! The command loop has exactly one `bestmove` printed per `go`. In infinite and ponder mode a
//! result that arrives early is held until `stop` or `ponderhit`, as the UCI spec requires.

pub mod command;
pub mod game;
mod input;
mod job;
pub mod memory;
pub mod options;
pub mod output;

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread;

use vampirc_uci::UciMessage;

use crate::config::Config;
use crate::eval::Evaluator;
use crate::options::{EngineOptions, OptionId, echo};
use crate::search::Searcher;
use crate::search::bench::DEFAULT_BENCH_DEPTH;
use crate::search::tb::{Tablebases, TbConfig, TbSettings};
use command::{Command, Parsed, parse_line};
use game::{Game, describe};
use job::{Job, JobDone, SearchDone};
use output::Output;

use input::{Input, read_lines};
pub use input::{InputError, MAX_LINE_BYTES};

/// Author line of `uci`.
const AUTHOR: &str = "the Minkowski developers";

/// What the command loop waits for: from the input thread ([`Input`]) or a worker thread
/// ([`JobDone`]).
enum Event {
    Line(String),
    BadInput(InputError),
    Eof,
    SearchDone(Box<SearchDone>),
    /// A perft or bench ended (it printed its own answer).
    CountDone,
}

impl From<Input> for Event {
    fn from(input: Input) -> Event {
        match input {
            Input::Line(line) => Event::Line(line),
            Input::Bad(bad) => Event::BadInput(bad),
            Input::Eof => Event::Eof,
        }
    }
}

impl From<JobDone> for Event {
    fn from(done: JobDone) -> Event {
        match done {
            JobDone::Search(done) => Event::SearchDone(done),
            JobDone::Count => Event::CountDone,
        }
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
    run_loop(input, output, config, notices, false);
}

/// Run UCI command lines given up front (the command line's `minkowski "position startpos"
/// "go depth 10" quit`), then return. Unlike [`run_uci`], each line waits until the job before it
/// has ended, so a `go depth 10` followed by `quit` still searches to depth 10; a search that
/// waits for `stop` (`go infinite`) is stopped at the end.
///
/// ```
/// use minkowski::config::Config;
/// let lines = ["position startpos".to_owned(), "go depth 3".to_owned(), "quit".to_owned()];
/// minkowski::uci::run_uci_commands(&lines, std::io::sink(), &Config::default(), &[]);
/// ```
pub fn run_uci_commands<W>(lines: &[String], output: W, config: &Config, notices: &[String])
where
    W: Write + Send + 'static,
{
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    run_loop(
        io::Cursor::new(text.into_bytes()),
        output,
        config,
        notices,
        true,
    );
}

fn run_loop<R, W>(input: R, output: W, config: &Config, notices: &[String], script: bool)
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
    // Tables named in engine.toml: problems are told with the other notices, after `uci`.
    let tables = load_tables(&config.options.syzygy_path, &mut notices);
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
        script,
        pending: VecDeque::new(),
        tables,
        searcher_tb: None,
        searcher_seed: None,
    };
    engine.sync_searcher();
    engine.run(&rx);
}

/// The tables of a `SyzygyPath` (`None` for an empty path); each problem, and a summary, is
/// added to `messages`.
fn load_tables(path: &str, messages: &mut Vec<String>) -> Option<Arc<Tablebases>> {
    if path.trim().is_empty() || path.trim() == "<empty>" {
        return None;
    }
    let (tables, problems) = Tablebases::open(path);
    messages.extend(problems.iter().map(ToString::to_string));
    messages.push(format!(
        "SyzygyPath: {} table files, up to {} pieces",
        tables.files(),
        tables.max_pieces()
    ));
    Some(Arc::new(tables))
}

fn new_searcher(options: &EngineOptions, evaluator: &Evaluator) -> Searcher {
    let mb = memory::affordable_hash_mb(options.hash_mb, memory::free_mb());
    let mut searcher = Searcher::new(mb);
    searcher.set_pawn_king_kib(options.pawn_king_kib);
    searcher.set_evaluator(evaluator.clone());
    searcher.set_multipv(options.multipv);
    searcher.set_move_overhead(options.move_overhead());
    searcher.set_strength(options.strength());
    searcher.set_search_params(options.search);
    searcher
}

/// The seed a `StrengthSeed` of 0 stands for: a new one each start, from the clock and the
/// process id, so that games against a limited engine differ from one session to the next.
fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ (u64::from(std::process::id()) << 32)
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
    /// The job on a worker thread (or a finished search holding its `bestmove`).
    job: Option<Job>,
    /// Jobs that arrived while a finite one was still running, oldest first.
    queued: VecDeque<Job>,
    debug: bool,
    notices: Vec<String>,
    /// Command-line mode ([`run_uci_commands`]): each line waits until the job before it has
    /// ended (unless that job waits for `stop` or `ponderhit`), so `go depth 10` then `quit`
    /// searches to depth 10.
    script: bool,
    /// Input that arrived while a script waits, oldest first.
    pending: VecDeque<Event>,
    /// The tables of the current `SyzygyPath` (loaded when the option changes).
    tables: Option<Arc<Tablebases>>,
    /// The path and settings the searcher was last given (`None`: not yet).
    searcher_tb: Option<(String, TbSettings)>,
    /// The `StrengthSeed` the searcher's choice was last seeded from (`None`: not yet, or set
    /// again since). The seed is applied only then, so that the choices go on from game to game.
    searcher_seed: Option<u64>,
}

impl<W: Write + Send + 'static> Engine<W> {
    fn run(&mut self, rx: &Receiver<Event>) {
        loop {
            let event = match self.pending.pop_front() {
                Some(event) if !self.script_waits() => event,
                held => {
                    if let Some(event) = held {
                        self.pending.push_front(event);
                    }
                    match rx.recv() {
                        Ok(event) => event,
                        Err(_) => break,
                    }
                }
            };
            match event {
                // A script's next line waits for the job before it (see `script`).
                Event::Line(_) | Event::BadInput(_) | Event::Eof if self.script_waits() => {
                    self.pending.push_back(event);
                }
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
                Event::CountDone => self.on_count_done(),
            }
        }
        // End of input (or the input thread is gone): finish like `quit`, but let a perft or
        // bench complete, so that `echo "go perft 5" | minkowski` prints the whole count.
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
        let chess960 = self.options.chess960;
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
            Command::Go {
                limits,
                searchmoves,
            } => self.go(|engine: &Self| {
                let style = (chess960, engine.options.show_wdl);
                Job::search(limits, &searchmoves, &engine.game, style, &engine.out)
            }),
            Command::Perft(depth) => {
                self.go(|engine: &Self| Job::perft(depth, &engine.game, chess960))
            }
            Command::Bench(depth) => {
                self.go(|_: &Self| Job::bench(depth.unwrap_or(DEFAULT_BENCH_DEPTH)))
            }
            Command::GenFens { request, book } => {
                match Job::genfens(request, book.as_deref(), &self.out) {
                    Ok(job) => self.go(|_: &Self| job),
                    Err(e) => self.out.info_string(e),
                }
            }
            Command::Stop => self.stop(),
            Command::PonderHit => self.ponderhit(),
            Command::Quit => return Flow::Quit,
            Command::Display => self.out.lines(&describe(&self.game.pos, chess960)),
            Command::Eval => {
                // One `info string` per line, so that GUIs that log engine output keep it and
                // none mistakes it for a command.
                for line in self.evaluator.trace(&self.game.pos).to_string().lines() {
                    self.out.info_string(line);
                }
                let wdl = crate::wdl::describe_static(&self.evaluator, &self.game.pos);
                self.out.info_string(wdl);
            }
        }
        Flow::Continue
    }

    fn uci(&self) {
        let mut lines = vec![
            UciMessage::id_name(&format!("Minkowski {}", crate::VERSION)).to_string(),
            UciMessage::id_author(AUTHOR).to_string(),
        ];
        lines.extend(options::declarations(&self.defaults));
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
                // Setting the seed, even to the value it had, restarts the choices from it.
                if spec.id == OptionId::StrengthSeed {
                    self.searcher_seed = None;
                }
                self.sync_searcher();
                if self.debug {
                    self.out
                        .info_string(format!("{} = {}", spec.name, self.options.get(spec.id)));
                    // What a strength setting means, once it is the one in force.
                    if matches!(spec.id, OptionId::LimitStrength | OptionId::Elo)
                        && let Some(limit) = self.options.strength()
                    {
                        self.out.info_string(limit);
                    }
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
        searcher.set_threads(self.options.threads);
        searcher.set_pawn_king_kib(self.options.pawn_king_kib);
        searcher.set_multipv(self.options.multipv);
        searcher.set_move_overhead(self.options.move_overhead());
        searcher.set_strength(self.options.strength());
        searcher.set_search_params(self.options.search);
        if self.searcher_seed != Some(self.options.strength_seed) {
            searcher.seed_choice(match self.options.strength_seed {
                0 => fresh_seed(),
                seed => seed,
            });
            self.searcher_seed = Some(self.options.strength_seed);
        }
        let wanted = (self.options.syzygy_path.clone(), self.options.tb_settings());
        if self.searcher_tb.as_ref() != Some(&wanted) {
            let path_changed = self
                .searcher_tb
                .as_ref()
                .is_some_and(|(p, _)| *p != wanted.0);
            if path_changed {
                let mut messages = Vec::new();
                self.tables = load_tables(&wanted.0, &mut messages);
                for m in messages {
                    self.out.info_string(m);
                }
            }
            searcher.set_tablebases(TbConfig {
                tables: self.tables.clone(),
                settings: wanted.1,
            });
            self.searcher_tb = Some(wanted);
        }
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

    /// In a script, whether the next line must wait: a job runs that ends by itself.
    fn script_waits(&self) -> bool {
        self.script && self.job.as_ref().is_some_and(|job| !job.holds_bestmove())
    }

    /// Start the job `make` builds from the state of this moment, or queue it behind a finite
    /// job still running (a script sends `go`s in a row).
    fn go(&mut self, make: impl FnOnce(&Self) -> Job) {
        // The newest job ends by itself unless it holds its bestmove for `stop`/`ponderhit`.
        let newest = self.queued.back().or(self.job.as_ref());
        if newest.is_some_and(Job::holds_bestmove) {
            self.out
                .info_string("go ignored: a search is already running (send 'stop' first)");
            return;
        }
        let job = make(self);
        if self.job.is_some() {
            self.out
                .info_string("go queued: it starts when the running search ends");
            self.queued.push_back(job);
        } else {
            self.start(job);
        }
    }

    /// Run a job on a worker thread (a search takes the searcher along).
    fn start(&mut self, mut job: Job) {
        let searcher = if job.is_search() {
            self.sync_searcher();
            Some(
                self.searcher
                    .take()
                    .unwrap_or_else(|| new_searcher(&self.options, &self.evaluator)),
            )
        } else {
            None
        };
        match job.start(searcher, &self.out, &self.tx) {
            Ok(()) => self.job = Some(job),
            Err(e) => {
                // The searcher went down with the closure; start a fresh one.
                self.out
                    .info_string(format!("cannot start a worker thread: {e}"));
                if self.searcher.is_none() {
                    self.searcher = Some(new_searcher(&self.options, &self.evaluator));
                    self.searcher_hash_mb = self.options.hash_mb;
                    self.searcher_seed = None;
                }
                if job.is_search() {
                    job.print_bestmove(None, &self.out);
                }
                self.start_queued();
            }
        }
    }

    /// Start the queued job, if any, once nothing runs.
    fn start_queued(&mut self) {
        if self.job.is_none()
            && let Some(job) = self.queued.pop_front()
        {
            self.start(job);
        }
    }

    fn stop(&mut self) {
        if self.job.is_none() && self.queued.is_empty() {
            if self.debug {
                self.out.info_string("stop: no search is running");
            }
            return;
        }
        self.job
            .iter_mut()
            .chain(&mut self.queued)
            .for_each(Job::stop);
        self.release_held_bestmove();
    }

    fn ponderhit(&mut self) {
        let mut jobs = self.job.iter_mut().chain(&mut self.queued);
        match jobs.find(|job| job.is_pondering()) {
            Some(job) => {
                job.ponderhit();
                self.release_held_bestmove();
            }
            None => self.out.info_string("ponderhit ignored: not pondering"),
        }
    }

    /// Print a result that was waiting for `stop`/`ponderhit`, if nothing holds it any more.
    fn release_held_bestmove(&mut self) {
        if self.job.as_ref().is_some_and(Job::can_release)
            && let Some(job) = self.job.take()
        {
            job.release(&self.out);
            self.start_queued();
        }
    }

    fn on_search_done(&mut self, done: SearchDone) {
        if done.searcher.is_none() {
            self.out
                .info_string("the search failed (internal error); its table was reset");
            self.searcher_hash_mb = self.options.hash_mb;
            self.searcher_tb = None;
            self.searcher_seed = None;
        }
        self.searcher = Some(
            done.searcher
                .unwrap_or_else(|| new_searcher(&self.options, &self.evaluator)),
        );
        self.sync_searcher();
        if let Some(job) = self.job.take() {
            self.job = job.finish(done.result, &self.out);
            self.start_queued();
        }
    }

    fn on_count_done(&mut self) {
        if let Some(mut job) = self.job.take() {
            job.join();
        }
        self.start_queued();
    }

    /// At `quit` or end of input: stop the searches and wait for them, so every `go` still gets
    /// its `bestmove`. Perft and bench are stopped only at `quit`.
    fn finish_jobs(&mut self, rx: &Receiver<Event>, stop_counts: bool) {
        for job in self.job.iter_mut().chain(&mut self.queued) {
            if stop_counts || job.is_search() {
                job.stop();
            }
        }
        self.release_held_bestmove();
        while self.job.is_some() {
            match rx.recv() {
                Ok(Event::SearchDone(done)) => self.on_search_done(*done),
                Ok(Event::CountDone) => self.on_count_done(),
                Ok(_) => {}
                Err(_) => break,
            }
        }
    }
}
