//! Lazy SMP: helper threads that search the same root as the main thread.
//!
//! Every helper shares the transposition table with the main thread and keeps its own
//! move-ordering statistics (`Heuristics`) and pawn-king cache. What one thread learns reaches the others
//! only through the table, which is the whole trick: the threads' trees differ a little (odd
//! helpers search one ply deeper each iteration, and their histories diverge), so they fill the
//! table with entries the main thread then finds ready. The main thread alone reports and
//! chooses the move; helpers run until it raises the abort flag.
//!
//! Helpers are created once (when the thread count is set) and kept waiting on a channel
//! between searches, so a `go` creates no thread.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;
use std::time::Duration;

use shakmaty::{Chess, Move};

use super::frame::FrameStack;
use super::history::Heuristics;
use super::iteration::iteration;
use super::params::SearchParams;
use super::reductions::LmrTable;
use super::tb::{SearchTb, TbConfig};
use super::time::TimeManager;
use super::tt::TranspositionTable;
use super::types::{Limits, SearchControl};
use super::worker::{Worker, WorkerSetup};
use crate::eval::Evaluator;
use crate::eval::pawn_king::PawnKingCache;

/// Stack of every search thread: deep recursion with move lists on the stack needs more than
/// the default 2 MB of spawned threads (only the pages used are ever touched).
pub const SEARCH_STACK_BYTES: usize = 64 << 20;

/// The most threads a [`super::Searcher`] runs (the UCI `Threads` option's maximum).
pub const MAX_THREADS: usize = 1024;

/// What one helper searches: a copy of the main thread's root.
pub(crate) struct HelperJob {
    /// The root position.
    pub pos: Chess,
    /// Zobrist keys of the game so far, the root's last.
    pub keys: Vec<u64>,
    /// The root moves to search (searchmoves applied).
    pub root_moves: Vec<Move>,
    /// Deepest iteration.
    pub max_depth: i32,
    /// The `go nodes` limit over all threads (`u64::MAX` without one). Helpers check it too, so
    /// that a helper running while the main thread waits for a core cannot overshoot it.
    pub node_limit: u64,
    /// Whether the root may be written to the table (not when the root is restricted).
    pub store_root: bool,
    /// The shared table.
    pub tt: Arc<TranspositionTable>,
    /// The evaluation (a copy: weights are small).
    pub evaluator: Evaluator,
    /// The search's tunable constants.
    pub params: SearchParams,
    /// The reduction table built from `params` (shared with the main thread).
    pub lmr: Arc<LmrTable>,
    /// One published node count per thread, the main thread's first.
    pub counters: Arc<[AtomicU64]>,
    /// Raised by the main thread when its search ends.
    pub abort: Arc<AtomicBool>,
    /// Tablebases (shared; none without tables).
    pub tb: TbConfig,
    /// The size of each thread's pawn-king cache, in KiB.
    pub pawn_king_kib: usize,
}

enum Message {
    Search(Box<HelperJob>),
    Clear,
}

struct Helper {
    jobs: Option<Sender<Message>>,
    done: Receiver<()>,
    handle: Option<JoinHandle<()>>,
}

/// The helper threads of one searcher (none with `Threads = 1`).
#[derive(Default)]
pub(crate) struct HelperPool {
    helpers: Vec<Helper>,
}

impl std::fmt::Debug for HelperPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HelperPool({} helpers)", self.helpers.len())
    }
}

impl HelperPool {
    /// `count` helper threads, waiting for work. Fewer if the system refuses to create more
    /// (the search then simply runs with what it has).
    pub fn new(count: usize) -> HelperPool {
        let mut helpers = Vec::with_capacity(count);
        for id in 1..=count {
            let (job_tx, job_rx) = channel();
            let (done_tx, done_rx) = channel();
            let spawned = std::thread::Builder::new()
                .name(format!("minkowski-helper-{id}"))
                .stack_size(SEARCH_STACK_BYTES)
                .spawn(move || helper_loop(id, &job_rx, &done_tx));
            match spawned {
                Ok(handle) => helpers.push(Helper {
                    jobs: Some(job_tx),
                    done: done_rx,
                    handle: Some(handle),
                }),
                Err(_) => break,
            }
        }
        HelperPool { helpers }
    }

    /// Number of helper threads.
    pub fn len(&self) -> usize {
        self.helpers.len()
    }

    /// Start every helper on the job `make(id)` builds for it (ids from 1).
    pub fn start(&self, make: impl Fn(usize) -> HelperJob) {
        for (i, helper) in self.helpers.iter().enumerate() {
            if let Some(jobs) = &helper.jobs {
                // A send fails only if the helper died (it cannot: it catches nothing and
                // panics nowhere); then the search just has one thread less.
                let _ = jobs.send(Message::Search(Box::new(make(i + 1))));
            }
        }
    }

    /// Wait until every helper has finished its job (after the abort flag is raised).
    pub fn wait(&self) {
        for helper in &self.helpers {
            let _ = helper.done.recv_timeout(Duration::from_secs(60));
        }
    }

    /// Forget every helper's statistics (`ucinewgame`).
    pub fn clear(&self) {
        for helper in &self.helpers {
            if let Some(jobs) = &helper.jobs {
                let _ = jobs.send(Message::Clear);
            }
        }
        self.wait();
    }
}

impl Drop for HelperPool {
    fn drop(&mut self) {
        for helper in &mut self.helpers {
            // Closing the channel ends the helper's loop.
            helper.jobs = None;
        }
        for helper in &mut self.helpers {
            if let Some(handle) = helper.handle.take() {
                let _ = handle.join();
            }
        }
    }
}

fn helper_loop(id: usize, jobs: &Receiver<Message>, done: &Sender<()>) {
    let mut heuristics = Heuristics::default();
    let mut pawn_king = PawnKingCache::default();
    while let Ok(message) = jobs.recv() {
        match message {
            Message::Search(job) => {
                if pawn_king.kib() != job.pawn_king_kib {
                    pawn_king = PawnKingCache::with_kib(job.pawn_king_kib);
                }
                search_as_helper(id, &job, &mut heuristics, &mut pawn_king);
            }
            Message::Clear => {
                heuristics.clear();
                pawn_king.clear();
            }
        }
        if done.send(()).is_err() {
            break;
        }
    }
}

/// Iterative deepening without reports until the abort flag rises.
fn search_as_helper(
    id: usize,
    job: &HelperJob,
    heuristics: &mut Heuristics,
    pawn_king: &mut PawnKingCache,
) {
    let control = SearchControl {
        stop: Arc::clone(&job.abort),
        ponderhit: Arc::new(AtomicBool::new(false)),
    };
    let time = TimeManager::new(
        &Limits::default(),
        shakmaty::Position::turn(&job.pos),
        0,
        Duration::ZERO,
        &control,
    );
    let mut reporter = ();
    let mut worker = Worker::new(WorkerSetup {
        tt: &job.tt,
        heur: heuristics,
        eval: &job.evaluator,
        lmr: &job.lmr,
        params: &job.params,
        time,
        control: &control,
        reporter: &mut reporter,
        frames: FrameStack::new(job.keys.clone(), &job.pos, &job.evaluator),
        counters: &job.counters,
        thread_id: id,
        node_limit: job.node_limit,
        tb: SearchTb::new(&job.tb),
        pawn_king,
    });
    let mut previous = Vec::new();
    // Odd helpers run one ply ahead of the main thread: the threads then disagree on depth
    // as well as on move order, which spreads them over more of the tree.
    let skew = (id % 2) as i32;
    for depth in 1..=job.max_depth {
        let depth = (depth + skew).min(job.max_depth);
        match iteration(
            &mut worker,
            &job.pos,
            depth,
            &job.root_moves,
            &previous,
            1,
            job.store_root,
        ) {
            Some(done) => previous = done.lines,
            None => break,
        }
        if job.abort.load(Ordering::Relaxed) {
            break;
        }
    }
    worker.finish();
}

/// Runs `work` on `jobs` scoped threads (each with [`SEARCH_STACK_BYTES`] of stack and its own
/// sender of results) while `collect` drains the results on the calling thread.
///
/// Batch runners (test suites, self-play) share this shape: every job owns a searcher and
/// takes tasks from a shared counter until none are left. When the system refuses a thread, its
/// share goes to the jobs already started; when it refuses all of them, `work` runs on the
/// calling thread before `collect` sees its results. The threads are joined before this returns;
/// a job that should end early must watch a flag of its own or a failed `send` (the receiver is
/// dropped when `collect` returns).
///
/// ```
/// use minkowski::search::threads::run_jobs;
/// use std::sync::atomic::{AtomicUsize, Ordering};
/// let next = AtomicUsize::new(0);
/// let sum = run_jobs(
///     2,
///     |sender| loop {
///         let i = next.fetch_add(1, Ordering::Relaxed);
///         if i >= 10 || sender.send(i * i).is_err() {
///             break;
///         }
///     },
///     |results| results.iter().sum::<usize>(),
/// );
/// assert_eq!(sum, 285);
/// ```
pub fn run_jobs<T, R>(
    jobs: usize,
    work: impl Fn(Sender<T>) + Sync,
    collect: impl FnOnce(Receiver<T>) -> R,
) -> R
where
    T: Send,
{
    let work = &work;
    std::thread::scope(|scope| {
        let (sender, receiver) = channel();
        let mut spawned = 0;
        for _ in 0..jobs.max(1) {
            let sender = sender.clone();
            let started = std::thread::Builder::new()
                .stack_size(SEARCH_STACK_BYTES)
                .spawn_scoped(scope, move || work(sender))
                .is_ok();
            if !started {
                break;
            }
            spawned += 1;
        }
        if spawned == 0 {
            work(sender.clone());
        }
        drop(sender);
        collect(receiver)
    })
}
