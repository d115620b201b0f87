//! Benchmark (skeleton; filled in by the work that owns it).
use criterion::{Criterion, criterion_group, criterion_main};

fn placeholder(c: &mut Criterion) {
    c.bench_function("placeholder", |b| b.iter(|| std::hint::black_box(1 + 1)));
}

criterion_group!(benches, placeholder);
criterion_main!(benches);
