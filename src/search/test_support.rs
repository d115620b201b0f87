//! What the search's tests share: one small deterministic generator, so that a random walk or
//! sample is the same on every run and a failure replays from its seed. The integration tests
//! include this same file (`tests/integration/common`), so both draw the same sequences.

/// Marsaglia's xorshift64 (shifts 13, 7, 17): tiny, deterministic, good enough to pick moves
/// and scatter bits. The state is the last value drawn; it must not start at zero.
#[derive(Clone, Debug)]
pub struct XorShift64(pub u64);

impl XorShift64 {
    /// The next value.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// An index below `n` (the next value modulo `n`), e.g. a move of a list of `n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}
