//! Games in a data file: the trailer line that closes each game, the grouping of a file's
//! lines into games (for a validation split by whole games), and where a file that was cut
//! off mid-write ends its last whole game.
//!
//! Datagen writes each game as its position lines followed by one trailer, a `#` comment
//! (which [`super::format::Reader`] skips):
//!
//! ```text
//! # game seed=1202 index=17 positions=16 plies=143 end=resign result=1.0
//! ```
//!
//! The trailer names the game (seed and index fix it: see [`super::runner`]) and says how
//! many position lines before it are its own, so a reader groups them without guessing, also
//! in a file where other data were appended before or after. Lines no trailer claims (files
//! of older versions, other data sets) are grouped as before: a run of lines whose plies
//! (from the FEN's side to move and move number) increase is one game.

use std::fmt::Write as _;

use super::format::GameResult;
use super::play::{Game, GameEnd};

/// How every trailer line starts.
pub const TRAILER_PREFIX: &str = "# game ";

/// A game's trailer line (no newline).
///
/// ```
/// use minkowski::datagen::format::GameResult;
/// use minkowski::datagen::games::{Trailer, trailer};
/// use minkowski::datagen::play::{Game, GameEnd};
/// let game = Game { seed: 1202, index: 17, opening: String::new(), samples: vec![],
///     candidates: 0, result: GameResult::WhiteWins, end: GameEnd::Resigned, plies: 143 };
/// let line = trailer(&game);
/// assert_eq!(line, "# game seed=1202 index=17 positions=0 plies=143 end=resign result=1.0");
/// assert_eq!(Trailer::parse(line.as_bytes()).unwrap().positions, 0);
/// ```
#[must_use]
pub fn trailer(game: &Game) -> String {
    let mut line = String::from(TRAILER_PREFIX);
    let _ = write!(
        line,
        "seed={} index={} positions={} plies={} end={} result={}",
        game.seed,
        game.index,
        game.samples.len(),
        game.plies,
        game.end.name(),
        game.result
    );
    line
}

/// What a reader needs of a trailer line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trailer {
    /// The game's seed.
    pub seed: u64,
    /// The game's index within its seed.
    pub index: u64,
    /// How many position lines right before the trailer belong to the game.
    pub positions: usize,
}

impl Trailer {
    /// The trailer of `line` (with or without its newline); `None` for any other line.
    #[must_use]
    pub fn parse(line: &[u8]) -> Option<Trailer> {
        let text = std::str::from_utf8(line).ok()?;
        let rest = text.trim_end().strip_prefix(TRAILER_PREFIX)?;
        let field = |name: &str| {
            rest.split_whitespace()
                .find_map(|w| w.strip_prefix(name)?.strip_prefix('='))
                .and_then(|v| v.parse::<u64>().ok())
        };
        Some(Trailer {
            seed: field("seed")?,
            index: field("index")?,
            positions: usize::try_from(field("positions")?).ok()?,
        })
    }
}

/// The ply of a data line's position, read from the text alone (the FEN's side to move and
/// move number; `None` without a move number, or for a line that is not a position).
///
/// ```
/// use minkowski::datagen::games::ply_of_line;
/// assert_eq!(ply_of_line(b"8/8/8/4k3/8/8/8/KR6 b - - 3 40 | 5 | 0.5"), Some(81));
/// assert_eq!(ply_of_line(b"8/8/8/4k3/8/8/8/KR6 w - - c9 \"1-0\";"), None);
/// ```
#[must_use]
pub fn ply_of_line(line: &[u8]) -> Option<u32> {
    let text = std::str::from_utf8(line).ok()?;
    let mut words = text.split_whitespace();
    let black = match words.nth(1)? {
        "w" => false,
        "b" => true,
        _ => return None,
    };
    let fullmove: u32 = words.nth(3)?.parse().ok()?;
    Some(2 * fullmove + u32::from(black))
}

/// Whether a line holds no position: blank, or a `#` comment (trailers included).
fn is_blank_or_comment(line: &[u8]) -> bool {
    let trimmed = line.trim_ascii();
    trimmed.is_empty() || trimmed.starts_with(b"#")
}

/// The game of every line of a data file: `groups[i]` is the index of the first line of line
/// `i`'s game. Lines claimed by a trailer (see the module text) are one game; the others are
/// grouped by increasing plies. A line without a position (blank, a comment, a trailer) goes
/// with the position line before it, so that [`blocks`] never cuts there.
///
/// ```
/// use minkowski::datagen::games::group_lines;
/// let text = "8/8/8/4k3/8/8/8/KR6 w - - 0 30 | 5 | 0.5\n\
///             8/8/8/4k3/8/8/8/KR6 w - - 0 20 | 5 | 0.5\n\
///             ## game seed=1 index=0 positions=2 plies=9 end=draw-adj result=0.5\n\
///             8/8/8/4k3/8/8/8/KR6 w - - 0 1 | 5 | 0.5";
/// let lines: Vec<&[u8]> = text.as_bytes().split(|&b| b == b'\n').collect();
/// // The trailer keeps the first two lines together although their plies fall.
/// assert_eq!(group_lines(&lines), vec![0, 0, 0, 3]);
/// ```
#[must_use]
pub fn group_lines(lines: &[&[u8]]) -> Vec<usize> {
    let mut groups: Vec<usize> = (0..lines.len()).collect();
    // Position lines since the last trailer, grouped by increasing plies.
    let mut pending: Vec<usize> = Vec::new();
    let mut last_ply: Option<u32> = None;
    // The group of the last position line (for the lines without a position).
    let mut current: Option<usize> = None;
    for (i, line) in lines.iter().enumerate() {
        if let Some(t) = Trailer::parse(line) {
            let claimed = t.positions.min(pending.len());
            let own = &pending[pending.len() - claimed..];
            if let Some(&first) = own.first() {
                for &j in own {
                    groups[j] = first;
                }
                current = Some(first);
            }
            pending.clear();
            // Whatever follows a trailer starts a new game.
            last_ply = None;
        } else if !is_blank_or_comment(line) {
            let ply = ply_of_line(line);
            let continues = matches!((last_ply, ply), (Some(last), Some(p)) if p > last);
            if continues && let Some(&previous) = pending.last() {
                groups[i] = groups[previous];
            }
            last_ply = ply;
            pending.push(i);
            current = Some(groups[i]);
            continue;
        }
        if let Some(c) = current {
            groups[i] = c;
        }
    }
    groups
}

/// Cut `groups` (from [`group_lines`]) into consecutive ranges of at least `min_lines` lines
/// (the last may be shorter), never inside a game: a range ends only where the next line
/// starts a game of its own.
///
/// ```
/// use minkowski::datagen::games::blocks;
/// assert_eq!(blocks(&[0, 0, 0, 3, 3, 5], 2), vec![0..3, 3..5, 5..6]);
/// assert_eq!(blocks(&[0, 0, 0], 1), vec![0..3]);
/// ```
#[must_use]
pub fn blocks(groups: &[usize], min_lines: usize) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &g) in groups.iter().enumerate() {
        // Line `i` starts a game when its group is itself; no earlier line then belongs to
        // a later game, since groups point backwards.
        if i > start && g == i && i - start >= min_lines {
            out.push(start..i);
            start = i;
        }
    }
    if start < groups.len() {
        out.push(start..groups.len());
    }
    out
}

/// How many bytes of `tail` (the end of a data file) to keep so that the file ends with a
/// whole game: up to the end of the last trailer line when `tail` holds one, else up to the
/// last newline (a file without trailers: only a partial line is dropped). `None` when
/// `tail` holds no newline at all.
///
/// ```
/// use minkowski::datagen::games::whole_games_end;
/// let done = "a | 1 | 1.0\n# game seed=1 index=0 positions=1 plies=3 end=mate result=1.0\n";
/// let cut = format!("{done}b | 2 | 0.5\nc | 3 | 0");
/// assert_eq!(whole_games_end(cut.as_bytes()), Some(done.len()));
/// assert_eq!(whole_games_end(b"x | 1 | 1.0\ny | 2"), Some(12));
/// assert_eq!(whole_games_end(b"no newline"), None);
/// ```
#[must_use]
pub fn whole_games_end(tail: &[u8]) -> Option<usize> {
    let mut last_newline = None;
    let mut last_trailer = None;
    let mut start = 0;
    for (i, &b) in tail.iter().enumerate() {
        if b == b'\n' {
            if Trailer::parse(&tail[start..i]).is_some() {
                last_trailer = Some(i + 1);
            }
            last_newline = Some(i + 1);
            start = i + 1;
        }
    }
    last_trailer.or(last_newline)
}

/// A game's text as datagen writes it: its position lines, then its trailer, each ending in
/// a newline. Written with one `write` per game, through a buffer flushed per game.
#[must_use]
pub fn game_text(game: &Game) -> String {
    let mut text = game.lines();
    text.push_str(&trailer(game));
    text.push('\n');
    text
}

/// The result and ending a trailer names, for summaries (`None` if absent or unknown).
#[must_use]
pub fn trailer_result(line: &str) -> Option<(GameResult, GameEnd)> {
    let rest = line.trim_end().strip_prefix(TRAILER_PREFIX)?;
    let value = |name: &str| {
        rest.split_whitespace()
            .find_map(|w| w.strip_prefix(name)?.strip_prefix('='))
    };
    let result = GameResult::parse(value("result")?)?;
    let end_name = value("end")?;
    let end = GameEnd::ALL.into_iter().find(|e| e.name() == end_name)?;
    Some((result, end))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text: &str) -> Vec<&[u8]> {
        text.as_bytes().split(|&b| b == b'\n').collect()
    }

    /// A position line at move `n` (always a legal position).
    fn at(n: u32) -> String {
        format!("8/8/8/4k3/8/8/8/KR6 w - - 0 {n} | 0 | 0.5")
    }

    #[test]
    fn long_games_stay_whole_across_blocks() {
        // Three trailer-closed games of 3,000 lines each, their plies falling and rising at
        // random (as PV leaves do); then 2,000 old-style lines in games of 10.
        let mut text = String::new();
        for g in 0..3 {
            for i in 0..3000u32 {
                text.push_str(&at(1 + (i * 7919) % 97));
                text.push('\n');
            }
            text.push_str(&format!(
                "# game seed=5 index={g} positions=3000 plies=600 end=max-length result=0.5\n"
            ));
        }
        for i in 0..2000u32 {
            text.push_str(&at(1 + i % 10));
            text.push('\n');
        }
        let lines = split(&text);
        let groups = group_lines(&lines);
        for g in 0..3 {
            let first = g * 3001;
            assert!(
                groups[first..first + 3000].iter().all(|&x| x == first),
                "game {g}"
            );
            assert_eq!(
                groups[first + 3000],
                first,
                "the trailer goes with its game"
            );
        }
        let old = 3 * 3001;
        for i in 0..2000 {
            assert_eq!(groups[old + i], old + i / 10 * 10, "old line {i}");
        }
        let ranges = blocks(&groups, 4096);
        assert_eq!(ranges.first().map(|r| r.start), Some(0));
        assert_eq!(ranges.last().map(|r| r.end), Some(lines.len()));
        for w in ranges.windows(2) {
            assert_eq!(w[0].end, w[1].start);
            // No game reaches across a cut.
            let cut = w[1].start;
            assert!(groups[cut..].iter().all(|&g| g >= cut), "cut at {cut}");
        }
        assert!(
            ranges.len() >= 2
                && ranges
                    .iter()
                    .all(|r| r.len() >= 4096 || r.end == lines.len())
        );
    }

    #[test]
    fn a_trailer_claims_only_its_own_lines() {
        // Old lines, then a game of two lines whose trailer claims two: the old lines keep
        // their ply grouping; a trailer claiming more lines than there are takes them all.
        let text = format!(
            "{}\n{}\n{}\n{}\n# game seed=1 index=0 positions=2 plies=5 end=mate result=1.0\n{}\n\
             # game seed=1 index=1 positions=9 plies=5 end=mate result=1.0\n",
            at(3),
            at(4),
            at(50),
            at(10),
            at(7)
        );
        let groups = group_lines(&split(&text));
        assert_eq!(&groups[..7], &[0, 0, 2, 2, 2, 5, 5]);
        assert_eq!(Trailer::parse(b"# game seed=1 index=x positions=2"), None);
        assert_eq!(Trailer::parse(b"# a comment"), None);
    }

    #[test]
    fn unclaimed_lines_fall_back_to_plies() {
        let text = format!("{}\n{}\n\n{}\n# note\n{}\n", at(5), at(6), at(6), at(7));
        assert_eq!(group_lines(&split(&text)), vec![0, 0, 0, 3, 3, 3, 3]);
        assert_eq!(ply_of_line(b"nonsense"), None);
        assert_eq!(ply_of_line(b"8/8/8/4k3/8/8/8/KR6 x - - 0 1"), None);
    }

    #[test]
    fn a_cut_file_keeps_its_whole_games() {
        let t = "# game seed=1 index=0 positions=1 plies=3 end=mate result=1.0";
        let game = format!("{}\n{t}\n", at(2));
        // Cut after whole lines of a second game, or inside one of its lines.
        for cut in [
            format!("{game}{}\n", at(3)),
            format!("{game}{}", &at(3)[..9]),
            game.clone(),
        ] {
            assert_eq!(whole_games_end(cut.as_bytes()), Some(game.len()), "{cut:?}");
        }
        // Inside the trailer itself: the half trailer and its game go.
        let half = format!("{game}{}\n{}", at(3), &t[..20]);
        assert_eq!(whole_games_end(half.as_bytes()), Some(game.len()));
        assert_eq!(
            trailer_result(t),
            Some((GameResult::WhiteWins, GameEnd::Checkmate))
        );
    }
}
