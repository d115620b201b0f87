//! Per-rule counters of the search: how often each pruning, reduction and extension rule is
//! tried and how often it fires, and the nodes by remaining depth (docs/selectivity-measured.md,
//! "Where the plies go").
//!
//! Counted only in a build with the `search-stats` feature. Without it [`SearchStats`] is a
//! zero-sized type whose methods do nothing and are inlined away, so the search that the bench
//! signature pins is the same machine code with or without the calls in it. The counters are
//! the main thread's (helpers keep none); the library only counts, the command line formats.

pub mod lazy;

#[cfg(feature = "search-stats")]
use lazy::LazyErrors;

/// The rules that are counted. A rule is *tried* when its cheap preconditions hold (depth,
/// node type, the move's kind) and the test itself is about to decide; it *fires* when it
/// prunes, reduces, extends or cuts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Main-search nodes answered by their TT entry (tried: every probe at a non-PV node).
    TtCut,
    /// Reverse futility pruning (tried: depth and beta allow it).
    ReverseFutility,
    /// Null-move pruning (tried: the null move is made and searched).
    NullMove,
    /// ProbCut (tried: the node passes the depth, bound and TT tests).
    ProbCut,
    /// Internal iterative reduction (tried: depth allows it; fires without a TT move).
    Iir,
    /// The per-move pruning gate: moves the node may prune at all (tried: every picked move
    /// outside the root; fires: the move is exempt because it gives check or is a fork).
    CheckExempt,
    /// Late move pruning (tried: a quiet move at a depth it applies to; fires once per node,
    /// when the count of moves considered is reached and every later quiet is skipped).
    LateMove,
    /// Futility pruning of one quiet move, on its reduced depth.
    Futility,
    /// History pruning of one quiet move.
    History,
    /// SEE pruning of a quiet move.
    SeeQuiet,
    /// SEE pruning of a capture or promotion.
    SeeCapture,
    /// Late move reductions (tried: every move after the first; fires: reduced by ≥ 1 ply).
    Lmr,
    /// A reduced move that beat alpha and was searched again at full depth (tried: every
    /// reduced move; fires: re-searched).
    LmrResearch,
    /// The full-depth re-search confirmed the reduced fail high (tried: the re-searches).
    LmrResearchHeld,
    /// Singular verification searches (tried: the TT move qualified; fires: singular, +1 or
    /// more).
    Singular,
    /// Double extensions (tried: singular moves; fires: +2).
    SingularDouble,
    /// Multi-cut (tried: not singular; fires: the node is cut).
    MultiCut,
    /// Negative extension (tried: not singular, no multi-cut; fires: −1).
    SingularNegative,
    /// The check extension (tried: every main-search node entered; fires: in check).
    CheckExtension,
    /// Beta cutoffs of the move loop (tried: nodes whose move loop searched a move; fires:
    /// a cutoff).
    Cutoff,
    /// The cutoff came from the first move searched (tried: cutoffs).
    FirstMoveCutoff,
    /// Quiescence: stand-pat cutoffs (tried: quiescence nodes not in check).
    QStandPat,
    /// Quiescence: delta pruning (tried: captures considered not in check).
    QDelta,
    /// Quiescence: captures that do not win material skipped far below alpha (tried: the
    /// captures delta pruning kept).
    QSee,
}

impl Rule {
    /// Every rule, in the order the tables print them.
    pub const ALL: [Rule; 24] = [
        Rule::TtCut,
        Rule::ReverseFutility,
        Rule::NullMove,
        Rule::ProbCut,
        Rule::Iir,
        Rule::CheckExempt,
        Rule::LateMove,
        Rule::Futility,
        Rule::History,
        Rule::SeeQuiet,
        Rule::SeeCapture,
        Rule::Lmr,
        Rule::LmrResearch,
        Rule::LmrResearchHeld,
        Rule::Singular,
        Rule::SingularDouble,
        Rule::MultiCut,
        Rule::SingularNegative,
        Rule::CheckExtension,
        Rule::Cutoff,
        Rule::FirstMoveCutoff,
        Rule::QStandPat,
        Rule::QDelta,
        Rule::QSee,
    ];

    /// A short name for tables.
    ///
    /// ```
    /// assert_eq!(minkowski::search::stats::Rule::NullMove.name(), "null move");
    /// ```
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Rule::TtCut => "TT cutoff",
            Rule::ReverseFutility => "reverse futility",
            Rule::NullMove => "null move",
            Rule::ProbCut => "ProbCut",
            Rule::Iir => "IIR",
            Rule::CheckExempt => "exempt (check/fork)",
            Rule::LateMove => "late move pruning",
            Rule::Futility => "futility",
            Rule::History => "history pruning",
            Rule::SeeQuiet => "SEE quiet",
            Rule::SeeCapture => "SEE capture",
            Rule::Lmr => "LMR reduced",
            Rule::LmrResearch => "LMR re-search",
            Rule::LmrResearchHeld => "LMR re-search held",
            Rule::Singular => "singular ext",
            Rule::SingularDouble => "double ext",
            Rule::MultiCut => "multi-cut",
            Rule::SingularNegative => "negative ext",
            Rule::CheckExtension => "check extension",
            Rule::Cutoff => "beta cutoff",
            Rule::FirstMoveCutoff => "first-move cutoff",
            Rule::QStandPat => "qs stand pat",
            Rule::QDelta => "qs delta",
            Rule::QSee => "qs SEE < 1",
        }
    }
}

/// Depths are counted up to this; deeper nodes fall in the last bucket.
pub const DEPTH_BUCKETS: usize = 32;

/// How often one rule was tried and fired.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RuleCount {
    /// Times its preconditions held and its test ran.
    pub tried: u64,
    /// Times it pruned, reduced, extended or cut.
    pub fired: u64,
}

/// The counters of one or more searches (zero-sized and inert without the `search-stats`
/// feature).
#[cfg(feature = "search-stats")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchStats {
    rules: [RuleCount; Rule::ALL.len()],
    /// Main-search nodes by remaining depth (after the check extension, before IIR).
    nodes_by_depth: [u64; DEPTH_BUCKETS],
    /// Move loops by remaining depth (after IIR).
    loops_by_depth: [u64; DEPTH_BUCKETS],
    /// Moves searched in those move loops.
    moves_by_depth: [u64; DEPTH_BUCKETS],
    /// Quiescence nodes.
    qnodes: u64,
    /// Sum of the reductions of the reduced moves, in plies.
    reduction_plies: u64,
    /// All nodes the worker counted (main search and quiescence), for the consistency check.
    nodes: u64,
    /// The lazy evaluation's estimates against the exact stand pats (`lazy.rs`).
    lazy: LazyErrors,
}

/// The counters of one or more searches (zero-sized and inert without the `search-stats`
/// feature).
#[cfg(not(feature = "search-stats"))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    // A field, though empty, so that the type is built with `default()` like the real one.
    _off: (),
}

#[cfg(feature = "search-stats")]
impl Default for SearchStats {
    fn default() -> Self {
        SearchStats {
            rules: [RuleCount::default(); Rule::ALL.len()],
            nodes_by_depth: [0; DEPTH_BUCKETS],
            loops_by_depth: [0; DEPTH_BUCKETS],
            moves_by_depth: [0; DEPTH_BUCKETS],
            qnodes: 0,
            reduction_plies: 0,
            nodes: 0,
            lazy: LazyErrors::default(),
        }
    }
}

// The recording side, used by the search: no-ops without the feature.
impl SearchStats {
    /// `rule`'s test is about to run.
    #[inline(always)]
    pub(crate) fn tried(&mut self, rule: Rule) {
        #[cfg(feature = "search-stats")]
        {
            self.rules[rule as usize].tried += 1;
        }
        #[cfg(not(feature = "search-stats"))]
        let _ = rule;
    }

    /// `rule` fired (its `tried` was counted before).
    #[inline(always)]
    pub(crate) fn fired(&mut self, rule: Rule) {
        #[cfg(feature = "search-stats")]
        {
            self.rules[rule as usize].fired += 1;
        }
        #[cfg(not(feature = "search-stats"))]
        let _ = rule;
    }

    /// `rule` was tried, and fired if `fired`.
    #[inline(always)]
    pub(crate) fn record(&mut self, rule: Rule, fired: bool) {
        #[cfg(feature = "search-stats")]
        {
            let c = &mut self.rules[rule as usize];
            c.tried += 1;
            c.fired += u64::from(fired);
        }
        #[cfg(not(feature = "search-stats"))]
        let _ = (rule, fired);
    }

    /// A main-search node at remaining `depth` (≥ 1), `in_check` (the check extension).
    #[inline(always)]
    pub(crate) fn main_node(&mut self, depth: i32, in_check: bool) {
        #[cfg(feature = "search-stats")]
        {
            self.nodes_by_depth[bucket(depth)] += 1;
            self.record(Rule::CheckExtension, in_check);
        }
        #[cfg(not(feature = "search-stats"))]
        let _ = (depth, in_check);
    }

    /// A node's move loop at remaining `depth` (after IIR) ended having searched `searched`
    /// moves, with a beta cutoff if `cutoff`.
    #[inline(always)]
    pub(crate) fn move_loop(&mut self, depth: i32, searched: usize, cutoff: bool) {
        #[cfg(feature = "search-stats")]
        {
            self.loops_by_depth[bucket(depth)] += 1;
            self.moves_by_depth[bucket(depth)] += searched as u64;
            if searched > 0 {
                self.record(Rule::Cutoff, cutoff);
                if cutoff {
                    self.record(Rule::FirstMoveCutoff, searched == 1);
                }
            }
        }
        #[cfg(not(feature = "search-stats"))]
        let _ = (depth, searched, cutoff);
    }

    /// A quiescence node.
    #[inline(always)]
    pub(crate) fn qnode(&mut self) {
        #[cfg(feature = "search-stats")]
        {
            self.qnodes += 1;
        }
    }

    /// A late move reduction of `plies` (counted as fired when positive).
    #[inline(always)]
    pub(crate) fn reduction(&mut self, plies: i32) {
        #[cfg(feature = "search-stats")]
        {
            self.record(Rule::Lmr, plies > 0);
            self.reduction_plies += plies.max(0) as u64;
        }
        #[cfg(not(feature = "search-stats"))]
        let _ = plies;
    }

    /// The worker's own node count at the end of a search, for [`SearchStats::check`].
    #[inline(always)]
    pub(crate) fn add_nodes(&mut self, nodes: u64) {
        #[cfg(feature = "search-stats")]
        {
            self.nodes += nodes;
        }
        #[cfg(not(feature = "search-stats"))]
        let _ = nodes;
    }
}

/// The depth bucket of a remaining depth.
#[cfg(feature = "search-stats")]
fn bucket(depth: i32) -> usize {
    (depth.max(0) as usize).min(DEPTH_BUCKETS - 1)
}

#[cfg(not(feature = "search-stats"))]
impl SearchStats {
    /// Add another search's counters (nothing to add without the feature).
    #[inline(always)]
    pub fn merge(&mut self, _other: &SearchStats) {}
}

#[cfg(feature = "search-stats")]
impl SearchStats {
    /// Add another search's counters.
    pub fn merge(&mut self, other: &SearchStats) {
        for (a, b) in self.rules.iter_mut().zip(other.rules) {
            a.tried += b.tried;
            a.fired += b.fired;
        }
        let tables = [
            (&mut self.nodes_by_depth, &other.nodes_by_depth),
            (&mut self.loops_by_depth, &other.loops_by_depth),
            (&mut self.moves_by_depth, &other.moves_by_depth),
        ];
        for (mine, theirs) in tables {
            for (a, b) in mine.iter_mut().zip(theirs) {
                *a += b;
            }
        }
        self.qnodes += other.qnodes;
        self.reduction_plies += other.reduction_plies;
        self.nodes += other.nodes;
        self.lazy.merge(&other.lazy);
    }

    /// A quiescence stand pat: the `exact` raw evaluation, the cheap and the late estimate
    /// (`None` where endgame knowledge applies) and the window `(alpha, beta)` of the raw
    /// evaluation (the stand pat's, less the correction).
    pub(crate) fn lazy_sample(
        &mut self,
        exact: i32,
        estimates: [Option<i32>; 2],
        alpha: i32,
        beta: i32,
    ) {
        self.lazy.stand_pats += 1;
        if let Some(e) = estimates[0] {
            self.lazy.cheap.record(exact, e, alpha, beta);
        }
        if let Some(e) = estimates[1] {
            self.lazy.late.record(exact, e, alpha, beta);
        }
    }

    /// The lazy evaluation's measurements.
    #[must_use]
    pub fn lazy(&self) -> &LazyErrors {
        &self.lazy
    }

    /// How often `rule` was tried and fired.
    #[must_use]
    pub fn rule(&self, rule: Rule) -> RuleCount {
        self.rules[rule as usize]
    }

    /// Main-search nodes by remaining depth (index = depth; the last bucket holds the deeper).
    #[must_use]
    pub fn nodes_by_depth(&self) -> &[u64; DEPTH_BUCKETS] {
        &self.nodes_by_depth
    }

    /// Move loops by remaining depth after IIR (index = depth).
    #[must_use]
    pub fn loops_by_depth(&self) -> &[u64; DEPTH_BUCKETS] {
        &self.loops_by_depth
    }

    /// Moves searched in the move loops by remaining depth after IIR (index = depth).
    #[must_use]
    pub fn moves_by_depth(&self) -> &[u64; DEPTH_BUCKETS] {
        &self.moves_by_depth
    }

    /// Quiescence nodes.
    #[must_use]
    pub fn qnodes(&self) -> u64 {
        self.qnodes
    }

    /// Every node the searches counted (main search and quiescence).
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Mean reduction of the reduced moves, in plies.
    #[must_use]
    pub fn mean_reduction(&self) -> f64 {
        self.reduction_plies as f64 / self.rule(Rule::Lmr).fired.max(1) as f64
    }

    /// The counters' invariants, each a sentence when it fails: no rule fires more often
    /// than it is tried, the nodes by depth and the quiescence nodes add up to the node count,
    /// every main-search node was looked at by the check extension, the nested rules (a
    /// re-search needs a reduction, a held re-search a re-search, a double extension a
    /// singular move, a first-move cutoff a cutoff) fire no more often than their parents.
    ///
    /// ```
    /// let stats = minkowski::search::stats::SearchStats::default();
    /// assert!(stats.check().is_empty());
    /// ```
    #[must_use]
    pub fn check(&self) -> Vec<String> {
        let mut errors = Vec::new();
        for rule in Rule::ALL {
            let c = self.rule(rule);
            if c.fired > c.tried {
                errors.push(format!(
                    "{}: fired {} > tried {}",
                    rule.name(),
                    c.fired,
                    c.tried
                ));
            }
        }
        let main: u64 = self.nodes_by_depth.iter().sum();
        if main + self.qnodes != self.nodes {
            errors.push(format!(
                "nodes by depth {main} + quiescence {} != nodes {}",
                self.qnodes, self.nodes
            ));
        }
        let nested = [
            (Rule::LmrResearch, Rule::Lmr),
            (Rule::LmrResearchHeld, Rule::LmrResearch),
            (Rule::SingularDouble, Rule::Singular),
            (Rule::FirstMoveCutoff, Rule::Cutoff),
        ];
        for (child, parent) in nested {
            if self.rule(child).tried != self.rule(parent).fired {
                errors.push(format!(
                    "{} tried {} != {} fired {}",
                    child.name(),
                    self.rule(child).tried,
                    parent.name(),
                    self.rule(parent).fired
                ));
            }
        }
        // Not singular: multi-cut is asked; no multi-cut either: the negative extension.
        let not_singular = self.rule(Rule::Singular).tried
            - self
                .rule(Rule::Singular)
                .fired
                .min(self.rule(Rule::Singular).tried);
        let no_multicut = self.rule(Rule::MultiCut).tried
            - self
                .rule(Rule::MultiCut)
                .fired
                .min(self.rule(Rule::MultiCut).tried);
        if self.rule(Rule::MultiCut).tried != not_singular
            || self.rule(Rule::SingularNegative).tried != no_multicut
        {
            errors.push("singular outcomes do not partition the verification searches".into());
        }
        let loops: u64 = self.loops_by_depth.iter().sum();
        if loops > main {
            errors.push(format!("move loops {loops} > main-search nodes {main}"));
        }
        if self.rule(Rule::CheckExtension).tried != main {
            errors.push(format!(
                "check extension tried {} != main-search nodes {main}",
                self.rule(Rule::CheckExtension).tried
            ));
        }
        errors
    }
}
