//! The lazy evaluation's error, measured on the quiescence search's stand pats (counted only
//! with the `search-stats` feature, as the rest of [`super::SearchStats`]): for each estimate
//! of `eval::bounded` (the cheap one, then the late one), how far it lies from the exact
//! evaluation, and for candidate margins how often it would answer (lie more than the margin
//! outside the stand pat's window) and how often, and by how much, the exact value then lies
//! on the other side of the window's bound (a wrong answer). `minkowski bench --stats` prints
//! them; docs/search.md ("Lazy evaluation") has the figures.

/// The candidate margins measured, in centipawns.
pub const LAZY_MARGINS: [i32; 10] = [100, 200, 300, 400, 500, 600, 800, 1000, 1500, 2000];

/// The upper ends of the buckets of `|exact − estimate|`, in centipawns (the last one holds
/// everything larger).
pub const LAZY_ERROR_BUCKETS: [i32; 13] = [
    25,
    50,
    100,
    200,
    300,
    400,
    500,
    600,
    800,
    1000,
    1500,
    2000,
    i32::MAX,
];

/// What was measured for one estimate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LazyStage {
    /// Stand pats with this estimate (no specialised endgame knowledge).
    pub samples: u64,
    /// `|exact − estimate|` by bucket of [`LAZY_ERROR_BUCKETS`].
    pub errors: [u64; LAZY_ERROR_BUCKETS.len()],
    /// The largest `|exact − estimate|`.
    pub max_error: i32,
    /// By margin of [`LAZY_MARGINS`]: the estimate lay more than the margin outside the window.
    pub fired: [u64; LAZY_MARGINS.len()],
    /// Of those, the exact value lay on the other side of the bound.
    pub wrong: [u64; LAZY_MARGINS.len()],
    /// The largest distance from the bound to the exact value of a wrong answer.
    pub wrong_max: [i32; LAZY_MARGINS.len()],
    /// The sum of those distances.
    pub wrong_sum: [u64; LAZY_MARGINS.len()],
}

impl LazyStage {
    /// One stand pat: `estimate` against the `exact` value and the window `(alpha, beta)`.
    pub fn record(&mut self, exact: i32, estimate: i32, alpha: i32, beta: i32) {
        self.samples += 1;
        let error = (exact - estimate).abs();
        let bucket = LAZY_ERROR_BUCKETS.iter().position(|&b| error <= b);
        self.errors[bucket.unwrap_or(LAZY_ERROR_BUCKETS.len() - 1)] += 1;
        self.max_error = self.max_error.max(error);
        for (i, &margin) in LAZY_MARGINS.iter().enumerate() {
            // How far past the bound the exact value lies when the estimate answers.
            let past = if estimate - margin >= beta {
                Some(beta - exact)
            } else if estimate + margin <= alpha {
                Some(exact - alpha)
            } else {
                None
            };
            if let Some(past) = past {
                self.fired[i] += 1;
                if past > 0 {
                    self.wrong[i] += 1;
                    self.wrong_max[i] = self.wrong_max[i].max(past);
                    self.wrong_sum[i] += past as u64;
                }
            }
        }
    }

    /// Add another search's counts.
    pub fn merge(&mut self, other: &LazyStage) {
        self.samples += other.samples;
        self.max_error = self.max_error.max(other.max_error);
        for (a, b) in self.errors.iter_mut().zip(other.errors) {
            *a += b;
        }
        for i in 0..LAZY_MARGINS.len() {
            self.fired[i] += other.fired[i];
            self.wrong[i] += other.wrong[i];
            self.wrong_max[i] = self.wrong_max[i].max(other.wrong_max[i]);
            self.wrong_sum[i] += other.wrong_sum[i];
        }
    }
}

/// The two estimates' measurements and the stand pats seen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LazyErrors {
    /// Stand pats measured (quiescence nodes not in check).
    pub stand_pats: u64,
    /// The cheap estimate (`Evaluator::cheap_estimate`).
    pub cheap: LazyStage,
    /// The late estimate (`Evaluator::lazy_estimate`).
    pub late: LazyStage,
}

impl LazyErrors {
    /// Add another search's counts.
    pub fn merge(&mut self, other: &LazyErrors) {
        self.stand_pats += other.stand_pats;
        self.cheap.merge(&other.cheap);
        self.late.merge(&other.late);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An estimate that answers above the window while the exact value lies below beta is
    /// counted wrong, by the distance to beta; one within the margin does not answer.
    #[test]
    fn a_wrong_side_answer_is_counted_with_its_distance() {
        let mut stage = LazyStage::default();
        // Window (0, 1); estimate 700, exact −50: answers for margins up to 600, all wrong
        // by 51.
        stage.record(-50, 700, 0, 1);
        let fired = LAZY_MARGINS.iter().filter(|&&m| 700 - m >= 1).count();
        assert_eq!(stage.fired.iter().filter(|&&f| f == 1).count(), fired);
        assert_eq!(stage.wrong[..fired], vec![1; fired][..]);
        assert_eq!(stage.wrong_max[0], 51);
        assert_eq!(stage.max_error, 750);
        let bucket_800 = LAZY_ERROR_BUCKETS.iter().position(|&b| b == 800).unwrap();
        assert_eq!(stage.errors[bucket_800], 1); // 600 < 750 <= 800
        // Exact value on the right side: answers, not wrong.
        let mut right = LazyStage::default();
        right.record(-800, -900, 0, 1);
        assert_eq!(right.fired[0], 1);
        assert_eq!(right.wrong.iter().sum::<u64>(), 0);
    }
}
