//! Turning a `go` into a job: the search limits from the command and the state, and the worker
//! thread that runs it (split from the command loop in `mod.rs`, whose state it shares).

use super::*;

impl<W: Write + Send + 'static> Engine<W> {
    /// Everything a `go` needs, taken from the state at the moment it arrives.
    pub(super) fn prepare(&mut self, spec: GoSpec) -> (Job, Work) {
        let root = self.game.pos.clone();
        let mut job = Job {
            kind: JobKind::Search,
            control: SearchControl::default(),
            root,
            searchmoves: Vec::new(),
            chess960: self.options.chess960,
            infinite: spec.infinite,
            pondering: spec.ponder,
            stopped: false,
            finished: None,
            handle: None,
        };
        if let Some(depth) = spec.perft {
            job.kind = JobKind::Perft;
            job.infinite = false;
            job.pondering = false;
            return (job, Work::Perft { depth });
        }
        for uci in &spec.searchmoves {
            match uci.to_move(&job.root) {
                Ok(m) => job.searchmoves.push(m),
                Err(_) => self
                    .out
                    .info_string(format!("go searchmoves: {uci} is illegal here; ignored")),
            }
        }
        let mut spec = spec;
        // A clock for the other side only (`go btime 100` with White to move, as fastchess's
        // compliance test sends) would leave the search without a limit: assume equal clocks.
        let white = job.root.turn() == Color::White;
        let (ours, theirs, name) = if white {
            (&mut spec.wtime, spec.btime, "white")
        } else {
            (&mut spec.btime, spec.wtime, "black")
        };
        if ours.is_none()
            && let Some(t) = theirs
        {
            *ours = Some(t);
            self.out.info_string(format!(
                "go: no clock for {name}, the side to move; assuming {t} ms like the opponent"
            ));
        }
        let limits = Limits {
            depth: spec.depth,
            nodes: spec.nodes,
            mate: spec.mate,
            movetime: spec.movetime.map(Duration::from_millis),
            wtime: spec.wtime,
            btime: spec.btime,
            winc: spec.winc,
            binc: spec.binc,
            movestogo: spec.movestogo,
            infinite: spec.infinite,
            ponder: spec.ponder,
            searchmoves: job.searchmoves.clone(),
        };
        let history = self.game.history.clone();
        (job, Work::Search { limits, history })
    }

    /// Run a prepared `go` on a worker thread.
    pub(super) fn start(&mut self, mut job: Job, work: Work) {
        let out = self.out.clone();
        let tx = self.tx.clone();
        let control = job.control.clone();
        let root = job.root.clone();
        let chess960 = job.chess960;
        let spawned =
            match work {
                Work::Perft { depth } => thread::Builder::new()
                    .name("minkowski-perft".into())
                    .spawn(move || {
                        let _ = catch_unwind(AssertUnwindSafe(|| {
                            extras::perft_command(&out, &root, depth, chess960, &control.stop);
                        }));
                        let _ = tx.send(Event::PerftDone);
                    }),
                Work::Search { limits, history } => {
                    self.sync_searcher();
                    let mut searcher = self
                        .searcher
                        .take()
                        .unwrap_or_else(|| new_searcher(&self.options, &self.evaluator));
                    thread::Builder::new()
                        .name("minkowski-search".into())
                        .stack_size(SEARCH_STACK_BYTES)
                        .spawn(move || {
                            let mut reporter = UciReporter { out, chess960 };
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
                            let _ = tx.send(Event::SearchDone(Box::new(done)));
                        })
                }
            };
        match spawned {
            Ok(handle) => {
                job.handle = Some(handle);
                self.job = Some(job);
            }
            Err(e) => {
                // The searcher went down with the closure; start a fresh one.
                self.out
                    .info_string(format!("cannot start a worker thread: {e}"));
                if self.searcher.is_none() {
                    self.searcher = Some(new_searcher(&self.options, &self.evaluator));
                    self.searcher_hash_mb = self.options.hash_mb;
                }
                if job.kind == JobKind::Search {
                    self.print_bestmove(&job, None);
                }
                self.start_queued();
            }
        }
    }

    /// Start the queued `go`, if any, once nothing runs.
    pub(super) fn start_queued(&mut self) {
        if self.job.is_none()
            && let Some((job, work)) = self.queued.pop_front()
        {
            self.start(job, work);
        }
    }
}
