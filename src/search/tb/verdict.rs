//! The tables' verdict on a root position: the one tablebase type the search reports, with or
//! without the tables (feature `syzygy`).

/// The tables' verdict on a root position, as the search plays it: with the 50-move rule on
/// (`Syzygy50MoveRule`), a win the opponent can drag past the rule, and a loss we can, are
/// draws. `info ... wdl` shows it as a certain result whatever the score says
/// ([`IterationInfo::root_tb`](crate::search::IterationInfo::root_tb)).
///
/// ```
/// use minkowski::search::tb::TbVerdict;
/// assert_ne!(TbVerdict::Win, TbVerdict::Draw);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TbVerdict {
    /// The side to move wins.
    Win,
    /// A draw.
    Draw,
    /// The side to move loses.
    Loss,
}
