//! Repeated searches, stops and thread-count changes leak no thread. Alone in its own test
//! binary: the count of the process's threads must not include other tests' threads.

use std::sync::atomic::Ordering;

use minkowski::search::{Limits, SearchControl, Searcher};
use shakmaty::Chess;

/// Threads of this process (Linux: entries of /proc/self/task).
fn thread_count() -> Option<usize> {
    std::fs::read_dir("/proc/self/task")
        .ok()
        .map(Iterator::count)
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Default::default()
    }
}

#[test]
fn repeated_searches_and_thread_changes_leak_no_thread() {
    let Some(before) = thread_count() else {
        return; // no /proc: nothing to count on this system
    };
    {
        let mut searcher = Searcher::new(2);
        searcher.set_threads(4);
        let with_helpers = thread_count().expect("counted before");
        assert_eq!(with_helpers, before + 3, "three helpers expected");
        let p = Chess::default();
        for i in 0..60 {
            let control = SearchControl::default();
            if i % 2 == 0 {
                control.stop.store(true, Ordering::Relaxed); // go + immediate stop
            }
            let r = searcher.search(&p, &[], &depth(4), &control, &mut ());
            assert!(r.best_move.is_some());
        }
        assert_eq!(
            thread_count(),
            Some(with_helpers),
            "searches created threads"
        );
        searcher.set_threads(2);
        assert_eq!(thread_count(), Some(before + 1));
        searcher.set_threads(3);
        searcher.clear();
        assert_eq!(thread_count(), Some(before + 2));
    }
    // Dropping the searcher joins its helpers.
    assert_eq!(thread_count(), Some(before));
}
