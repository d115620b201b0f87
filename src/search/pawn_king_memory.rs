//! The searcher's pawn-king caches: their size and statistics. The main thread's cache lives in
//! [`Searcher`]; each helper keeps its own, resized to the same size at its next search.

use super::Searcher;
use crate::eval::pawn_king::PawnKingCache;

impl Searcher {
    /// Size every thread's pawn-king cache (the main thread's now, the helpers' at their next
    /// search) to about `kib` KiB; a new size starts empty, the same size keeps its entries.
    ///
    /// ```
    /// let mut searcher = minkowski::search::Searcher::new(1);
    /// searcher.set_pawn_king_kib(64);
    /// assert_eq!(searcher.pawn_king_kib(), 64);
    /// ```
    pub fn set_pawn_king_kib(&mut self, kib: usize) {
        if kib != self.pawn_king.kib() {
            self.pawn_king = PawnKingCache::with_kib(kib);
        }
    }

    /// The pawn-king cache size per thread, in KiB, as last set.
    ///
    /// ```
    /// use minkowski::{eval::pawn_king::PawnKingCache, search::Searcher};
    /// assert_eq!(Searcher::new(1).pawn_king_kib(), PawnKingCache::DEFAULT_KIB);
    /// ```
    #[must_use]
    pub fn pawn_king_kib(&self) -> usize {
        self.pawn_king.kib()
    }

    /// The main thread's pawn-king cache lookups and hits since it was last cleared.
    ///
    /// ```
    /// use minkowski::search::{Limits, SearchControl, Searcher};
    /// let mut searcher = Searcher::new(1);
    /// let limits = Limits { depth: Some(6), ..Default::default() };
    /// searcher.search(&shakmaty::Chess::default(), &[], &limits, &SearchControl::default(), &mut ());
    /// let (probes, hits) = searcher.pawn_king_stats();
    /// assert!(hits > 0 && hits <= probes);
    /// ```
    #[must_use]
    pub fn pawn_king_stats(&self) -> (u64, u64) {
        (self.pawn_king.probes(), self.pawn_king.hits())
    }

    /// Lookups and hits of whole evaluations in the main thread's evaluation caches since the
    /// last `clear` (every static evaluation the search asks for is first looked up there).
    ///
    /// ```
    /// use minkowski::search::{Limits, SearchControl, Searcher};
    /// let mut searcher = Searcher::new(1);
    /// let limits = Limits { depth: Some(6), ..Default::default() };
    /// searcher.search(&shakmaty::Chess::default(), &[], &limits, &SearchControl::default(), &mut ());
    /// let (probes, hits) = searcher.value_stats();
    /// assert!(hits > 0 && hits <= probes);
    /// ```
    #[must_use]
    pub fn value_stats(&self) -> (u64, u64) {
        (self.pawn_king.value_probes(), self.pawn_king.value_hits())
    }
}
