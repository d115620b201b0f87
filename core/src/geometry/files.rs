//! File masks as plain `u64` bitboards (bit `i` = square `i`, a1 = 0): the masks every set-wise
//! shift needs so that no bit wraps from the a-file to the h-file or back. `const`, so `const fn`
//! code uses them directly.

/// The a-file.
///
/// ```
/// use minkowski_core::geometry::FILE_A;
/// assert_eq!(FILE_A.count_ones(), 8);
/// assert_eq!(FILE_A & 1, 1); // a1
/// ```
pub const FILE_A: u64 = 0x0101_0101_0101_0101;

/// The h-file.
///
/// ```
/// use minkowski_core::geometry::{FILE_A, FILE_H};
/// assert_eq!(FILE_H, FILE_A << 7);
/// ```
pub const FILE_H: u64 = FILE_A << 7;

/// Every square except those on the a-file: where a bit may land after moving one file east.
///
/// ```
/// use minkowski_core::geometry::{FILE_A, NOT_FILE_A};
/// assert_eq!(NOT_FILE_A, !FILE_A);
/// ```
pub const NOT_FILE_A: u64 = !FILE_A;

/// Every square except those on the h-file: where a bit may land after moving one file west.
///
/// ```
/// use minkowski_core::geometry::{FILE_H, NOT_FILE_H};
/// assert_eq!(NOT_FILE_H, !FILE_H);
/// ```
pub const NOT_FILE_H: u64 = !FILE_H;

/// Every square except those on the a- and b-files: where a bit may land two files east.
///
/// ```
/// use minkowski_core::geometry::{NOT_FILES_AB, file_mask};
/// assert_eq!(NOT_FILES_AB, !(file_mask(0) | file_mask(1)));
/// ```
pub const NOT_FILES_AB: u64 = !(FILE_A | (FILE_A << 1));

/// Every square except those on the g- and h-files: where a bit may land two files west.
///
/// ```
/// use minkowski_core::geometry::{NOT_FILES_GH, file_mask};
/// assert_eq!(NOT_FILES_GH, !(file_mask(6) | file_mask(7)));
/// ```
pub const NOT_FILES_GH: u64 = !(FILE_H | (FILE_H >> 1));

/// The squares of file `file` (0 = a … 7 = h; taken modulo 8, so a square index works too).
///
/// ```
/// use minkowski_core::geometry::{FILE_H, file_mask};
/// assert_eq!(file_mask(7), FILE_H);
/// assert_eq!(file_mask(28), file_mask(4)); // e4's file
/// ```
#[must_use]
pub const fn file_mask(file: u32) -> u64 {
    FILE_A << (file & 7)
}
