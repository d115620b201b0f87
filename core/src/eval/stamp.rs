//! The stamp of a set of weights: what the evaluation's caches (the pawn-king cache and the
//! cache of whole values) record of the evaluator that filled them, so that no cache hands one
//! set of weights the values of another.

use std::sync::atomic::{AtomicU64, Ordering};

/// Which weights an evaluator holds, as a pawn-king cache records them: a number drawn afresh
/// (from a process-wide counter) whenever an evaluator is made or its weights may change, and
/// copied with the evaluator. Never [`WeightsStamp::NONE`], which marks a cache that holds no
/// one's sums yet.
///
/// ```
/// use minkowski_core::eval::pawn_king::WeightsStamp;
/// assert_ne!(WeightsStamp::new(), WeightsStamp::new());
/// assert_ne!(WeightsStamp::new(), WeightsStamp::NONE);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WeightsStamp(u64);

impl WeightsStamp {
    /// No weights: what a new or cleared cache records.
    pub const NONE: WeightsStamp = WeightsStamp(0);

    /// A stamp no other call returned.
    #[must_use]
    #[allow(clippy::new_without_default)] // a default would hide that each call differs
    pub fn new() -> WeightsStamp {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        // 2^64 stamps never run out; Relaxed suffices: only uniqueness matters.
        WeightsStamp(NEXT.fetch_add(1, Ordering::Relaxed))
    }
}
