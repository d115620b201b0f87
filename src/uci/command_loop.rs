//! The command loop: the entry points ([`run_uci`], [`run_uci_commands`]) that start the input
//! thread and build the [`Engine`], then the loop itself: one event at a time, each command
//! line parsed and answered at once (`uci`, `setoption`, `position`, `go` handed to
//! scheduling, `eval`, ...), a panic in one command caught and reported.

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::{Receiver, channel};
use std::thread;

use vampirc_uci::UciMessage;

use crate::config::Config;
use crate::eval::Evaluator;
use crate::options::{OptionId, echo};
use crate::search::bench::DEFAULT_BENCH_DEPTH;

use super::command::{Command, Parsed, parse_line};
use super::engine::{Engine, Event, load_tables, new_searcher};
use super::game::{Game, describe};
use super::input::read_lines;
use super::job::Job;
use super::options;
use super::output::Output;

/// Author line of `uci`.
const AUTHOR: &str = "the Minkowski developers";

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
}
