//! What the CPU offers the evaluation: its copies compiled for more instructions than the
//! x86-64 baseline are chosen at run time from these tests. A leaf module, so that the
//! evaluation's root, its stages, the bounded evaluation and the cost table can all ask it
//! without importing one another.

/// Whether this CPU has `popcnt` and the bit-manipulation instructions (BMI1, BMI2) that
/// `Evaluator::evaluate_rest_bmi` is compiled with (cached CPUID bits, a few instructions).
#[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
#[inline(always)]
pub(super) fn has_bit_manipulation() -> bool {
    std::arch::is_x86_feature_detected!("bmi2")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("popcnt")
}
