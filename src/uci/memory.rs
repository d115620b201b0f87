//! How much memory a new transposition table may take: what the machine has free, so that a GUI's
//! `Hash` of 32768 on a smaller machine is reduced (with an `info string`) instead of being
//! granted by the kernel's overcommit and then killing the engine, or a neighbour, when the
//! table is zeroed.
//!
//! Linux only (`/proc/meminfo` and the cgroup's limit); elsewhere nothing is known and the table
//! allocation itself (which halves until it succeeds) is the only guard.

use std::fs;

/// Share of the free memory a table may take: the rest is left to the system and to the engine's
/// own few megabytes.
const SHARE_NUM: usize = 3;
const SHARE_DEN: usize = 4;

/// The table size to allocate for a `Hash` of `requested` MB when `free_mb` MB can be had
/// (`None`: unknown, so as asked). At least 1 MB.
///
/// ```
/// use minkowski::uci::memory::affordable_hash_mb;
/// assert_eq!(affordable_hash_mb(256, Some(24_000)), 256);
/// assert_eq!(affordable_hash_mb(32_768, Some(24_000)), 18_000);
/// assert_eq!(affordable_hash_mb(64, None), 64);
/// assert_eq!(affordable_hash_mb(64, Some(0)), 1);
/// ```
#[must_use]
pub fn affordable_hash_mb(requested: usize, free_mb: Option<usize>) -> usize {
    match free_mb {
        None => requested,
        Some(free) => requested.min(free / SHARE_DEN * SHARE_NUM).max(1),
    }
}

/// Megabytes that can be had now: `MemAvailable`, and no more than the cgroup's limit leaves.
/// `None` when neither can be read.
#[must_use]
pub fn free_mb() -> Option<usize> {
    let meminfo = fs::read_to_string("/proc/meminfo").ok();
    let available = meminfo.as_deref().and_then(mem_available_mb);
    let cgroup = cgroup_free_mb();
    match (available, cgroup) {
        (Some(a), Some(c)) => Some(a.min(c)),
        (a, c) => a.or(c),
    }
}

/// `MemAvailable` of a `/proc/meminfo` text, in MB.
///
/// ```
/// use minkowski::uci::memory::mem_available_mb;
/// let text = "MemTotal:       24684084 kB\nMemFree: 1 kB\nMemAvailable:   23780228 kB\n";
/// assert_eq!(mem_available_mb(text), Some(23_222));
/// assert_eq!(mem_available_mb("MemTotal: 5 kB\n"), None);
/// ```
#[must_use]
pub fn mem_available_mb(meminfo: &str) -> Option<usize> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// What the cgroup (v2, else v1) still allows, in MB; `None` without a limit.
fn cgroup_free_mb() -> Option<usize> {
    let read = |path: &str| -> Option<u64> { fs::read_to_string(path).ok()?.trim().parse().ok() };
    let (limit, used) = match read("/sys/fs/cgroup/memory.max") {
        Some(limit) => (limit, read("/sys/fs/cgroup/memory.current")?),
        None => (
            read("/sys/fs/cgroup/memory/memory.limit_in_bytes")?,
            read("/sys/fs/cgroup/memory/memory.usage_in_bytes")?,
        ),
    };
    // "No limit" is `max` in v2 (does not parse) and a number near 2^63 in v1.
    if limit >= 1 << 60 {
        return None;
    }
    usize::try_from(limit.saturating_sub(used) >> 20).ok()
}
