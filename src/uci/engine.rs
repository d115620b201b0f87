//! The command loop's state ([`Engine`]: options, position, the idle searcher, the running and
//! queued jobs) and what arrives to it ([`Event`]), with what keeps the searcher in step with
//! the options: building one ([`new_searcher`]), loading the tables of a `SyzygyPath`
//! ([`load_tables`]) and bringing an idle searcher up to date ([`Engine::sync_searcher`]).

use std::collections::VecDeque;
use std::io::Write;
use std::sync::Arc;
use std::sync::mpsc::Sender;

use crate::eval::Evaluator;
use crate::options::EngineOptions;
use crate::search::Searcher;
use crate::search::tb::{Tablebases, TbConfig, TbSettings};

use super::game::Game;
use super::input::{Input, InputError};
use super::job::{Job, JobDone, SearchDone};
use super::memory;
use super::output::Output;

/// What the command loop waits for: from the input thread ([`Input`]) or a worker thread
/// ([`JobDone`]).
pub(super) enum Event {
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

/// The tables of a `SyzygyPath` (`None` for an empty path); each problem, and a summary, is
/// added to `messages`.
pub(super) fn load_tables(path: &str, messages: &mut Vec<String>) -> Option<Arc<Tablebases>> {
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

pub(super) fn new_searcher(options: &EngineOptions, evaluator: &Evaluator) -> Searcher {
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

/// The command loop's state. Its fields are open to the other files of the command loop
/// (`command_loop.rs`, `scheduling.rs`), which are methods of it split by concern.
pub(super) struct Engine<W: Write + Send + 'static> {
    pub(super) out: Output<W>,
    pub(super) tx: Sender<Event>,
    /// Defaults shown by `uci`: built-in, overridden by engine.toml.
    pub(super) defaults: EngineOptions,
    /// Current values: the defaults, overridden by `setoption`.
    pub(super) options: EngineOptions,
    /// `None` while a search has it.
    pub(super) searcher: Option<Searcher>,
    /// The table size the searcher has now (options apply when it is idle).
    pub(super) searcher_hash_mb: usize,
    /// `ucinewgame` or `Clear Hash` arrived while the searcher was busy.
    pub(super) clear_pending: bool,
    pub(super) game: Game,
    /// The evaluation (built-in weights with engine.toml's `[eval]`), for new searchers and
    /// the `eval` command.
    pub(super) evaluator: Evaluator,
    /// The job on a worker thread (or a finished search holding its `bestmove`).
    pub(super) job: Option<Job>,
    /// Jobs that arrived while a finite one was still running, oldest first.
    pub(super) queued: VecDeque<Job>,
    pub(super) debug: bool,
    pub(super) notices: Vec<String>,
    /// Command-line mode ([`run_uci_commands`](super::run_uci_commands)): each line waits
    /// until the job before it has ended (unless that job waits for `stop` or `ponderhit`), so
    /// `go depth 10` then `quit` searches to depth 10.
    pub(super) script: bool,
    /// Input that arrived while a script waits, oldest first.
    pub(super) pending: VecDeque<Event>,
    /// The tables of the current `SyzygyPath` (loaded when the option changes).
    pub(super) tables: Option<Arc<Tablebases>>,
    /// The path and settings the searcher was last given (`None`: not yet).
    pub(super) searcher_tb: Option<(String, TbSettings)>,
    /// The `StrengthSeed` the searcher's choice was last seeded from (`None`: not yet, or set
    /// again since). The seed is applied only then, so that the choices go on from game to game.
    pub(super) searcher_seed: Option<u64>,
}

impl<W: Write + Send + 'static> Engine<W> {
    /// Bring an idle searcher up to date with the options (a busy one is updated when it
    /// comes back).
    pub(super) fn sync_searcher(&mut self) {
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
}
