//! When jobs run: a `go` (or `go perft`, `bench`, `genfens`) starts at once or queues behind a
//! finite job, `stop` and `ponderhit` reach every job, a result held for `stop`/`ponderhit` is
//! released when nothing holds it, and a finished search hands its searcher back. At `quit`
//! or the end of input every search is stopped and waited for, so each `go` gets exactly one
//! `bestmove`.

use std::io::Write;
use std::sync::mpsc::Receiver;

use super::engine::{Engine, Event, new_searcher};
use super::job::{Job, SearchDone};

impl<W: Write + Send + 'static> Engine<W> {
    /// In a script, whether the next line must wait: a job runs that ends by itself.
    pub(super) fn script_waits(&self) -> bool {
        self.script && self.job.as_ref().is_some_and(|job| !job.holds_bestmove())
    }

    /// Start the job `make` builds from the state of this moment, or queue it behind a finite
    /// job still running (a script sends `go`s in a row).
    pub(super) fn go(&mut self, make: impl FnOnce(&Self) -> Job) {
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

    pub(super) fn stop(&mut self) {
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

    pub(super) fn ponderhit(&mut self) {
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

    pub(super) fn on_search_done(&mut self, done: SearchDone) {
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

    pub(super) fn on_count_done(&mut self) {
        if let Some(mut job) = self.job.take() {
            job.join();
        }
        self.start_queued();
    }

    /// At `quit` or end of input: stop the searches and wait for them, so every `go` still gets
    /// its `bestmove`. Perft and bench are stopped only at `quit`.
    pub(super) fn finish_jobs(&mut self, rx: &Receiver<Event>, stop_counts: bool) {
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
