//! A data directory in shards: `positions-000.txt`, `positions-001.txt`, ..., each a datagen
//! file of whole games (see [`super`]) holding about a fixed number of positions, so that a
//! long run is many small files and a stop costs little.
//!
//! The shard being written is named with [`PART_SUFFIX`] (`positions-007.txt.part`) and is
//! renamed when it is full: a name without the suffix is a finished shard, which later steps
//! (labelling) may take while generation goes on. A stopped run leaves the part file with
//! whole games only (each game is one write; a cut-off tail is dropped on restart), and the
//! next run continues it.
//!
//! Each shard has its own seed, derived from the run's seed and the shard's number
//! ([`shard_seed`]): a shard's games are game `0, 1, ...` of that seed, and a resumed shard
//! goes on after the highest game index its trailers name, so no game is played twice.

/// How every shard's file name starts.
pub const SHARD_PREFIX: &str = "positions-";

/// How every finished shard's file name ends.
pub const SHARD_SUFFIX: &str = ".txt";

/// What a shard being written adds to its name.
pub const PART_SUFFIX: &str = ".part";

/// Positions per shard by default: a few minutes of labelling and some 9 MB.
///
/// ```
/// assert_eq!(minkowski::datagen::shards::DEFAULT_SHARD_SIZE, 100_000);
/// ```
pub const DEFAULT_SHARD_SIZE: u64 = 100_000;

/// The finished file name of shard `number` (three digits at least, so names sort in order
/// up to shard 999).
///
/// ```
/// use minkowski::datagen::shards::shard_name;
/// assert_eq!(shard_name(7), "positions-007.txt");
/// assert_eq!(shard_name(1234), "positions-1234.txt");
/// ```
#[must_use]
pub fn shard_name(number: u32) -> String {
    format!("{SHARD_PREFIX}{number:03}{SHARD_SUFFIX}")
}

/// What a file name in a data directory is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShardFile {
    /// A finished shard.
    Finished(u32),
    /// The shard being written (or left by a stopped run).
    Part(u32),
}

impl ShardFile {
    /// The shard's number.
    #[must_use]
    pub fn number(self) -> u32 {
        match self {
            ShardFile::Finished(n) | ShardFile::Part(n) => n,
        }
    }

    /// What `name` is, `None` for any other file.
    ///
    /// ```
    /// use minkowski::datagen::shards::ShardFile;
    /// assert_eq!(ShardFile::parse("positions-012.txt"), Some(ShardFile::Finished(12)));
    /// assert_eq!(ShardFile::parse("positions-003.txt.part"), Some(ShardFile::Part(3)));
    /// assert_eq!(ShardFile::parse("positions-x.txt"), None);
    /// assert_eq!(ShardFile::parse("labelled-001.txt"), None);
    /// ```
    #[must_use]
    pub fn parse(name: &str) -> Option<ShardFile> {
        let rest = name.strip_prefix(SHARD_PREFIX)?;
        let (digits, part) = match rest.strip_suffix(PART_SUFFIX) {
            Some(r) => (r.strip_suffix(SHARD_SUFFIX)?, true),
            None => (rest.strip_suffix(SHARD_SUFFIX)?, false),
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let n = digits.parse().ok()?;
        Some(if part {
            ShardFile::Part(n)
        } else {
            ShardFile::Finished(n)
        })
    }
}

/// The seed of shard `number` of a run seeded `seed`: both mixed (SplitMix64 finalisers), so
/// that neighbouring shards, and shards of neighbouring seeds, share no games.
///
/// ```
/// use minkowski::datagen::shards::shard_seed;
/// assert_ne!(shard_seed(1, 0), shard_seed(1, 1));
/// assert_ne!(shard_seed(1, 1), shard_seed(2, 0));
/// assert_eq!(shard_seed(5, 3), shard_seed(5, 3));
/// ```
#[must_use]
pub fn shard_seed(seed: u64, number: u32) -> u64 {
    let mix = |mut z: u64| {
        z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    mix(mix(seed) ^ u64::from(number).wrapping_mul(0xD6E8_FEB8_6659_FD93))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for n in [0, 9, 999, 1000, 65_000] {
            assert_eq!(
                ShardFile::parse(&shard_name(n)),
                Some(ShardFile::Finished(n))
            );
            let part = format!("{}{PART_SUFFIX}", shard_name(n));
            assert_eq!(ShardFile::parse(&part), Some(ShardFile::Part(n)));
        }
        for other in [
            "positions-.txt",
            "positions-001.txt.bak",
            "positions-001.part",
            "positions--1.txt",
            "positions-99999999999.txt",
            "spread.txt",
        ] {
            assert_eq!(ShardFile::parse(other), None, "{other}");
        }
    }

    #[test]
    fn shard_seeds_differ() {
        let mut seeds: Vec<u64> = (0..3)
            .flat_map(|s| (0..100).map(move |n| shard_seed(s, n)))
            .collect();
        seeds.sort_unstable();
        seeds.dedup();
        assert_eq!(seeds.len(), 300);
    }
}
