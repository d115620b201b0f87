//! The evaluation, bit for bit, as it was before the evaluation's core was rebuilt (one generic
//! combine, issue 45): every position of every suite in `epd/` and each position one move on,
//! with the default weights and with seeded random weights, checksummed. The pins were computed
//! by this file against main at b30fce7, before the change; a refactor of the evaluation must
//! leave every one of them as it is. A new weight whose default is 0 keeps the default row and
//! moves the random ones (it gets a random value there): re-pin with `MINKOWSKI_BLESS=1`.

use crate::common::{XorShift64, every_suite, push_children, suite_positions};
use minkowski::eval::Evaluator;
use minkowski::eval::pawn_king::PawnKingCache;
use minkowski::eval::score::S;
use minkowski::eval::weights::Weights;
use minkowski::tune::params_of;
use shakmaty::{Chess, Position};

/// Every suite position and its children.
fn positions() -> Vec<Chess> {
    let mut all = Vec::new();
    for suite in every_suite() {
        for pos in suite_positions(&suite, usize::MAX) {
            push_children(&pos, &mut all);
            all.push(pos);
        }
    }
    all
}

/// The weights of run `seed`: 0 the defaults, otherwise every weight moved by up to `span` from
/// its default (non-linear weights included: danger units, complexity, verdict weights).
fn weights(seed: u64, span: i32) -> Weights {
    let mut w = Weights::default();
    if seed == 0 {
        return w;
    }
    let mut rng = XorShift64(seed);
    for index in 0..Weights::COUNT {
        let (dm, de) = (rng.around(span), rng.around(span));
        if let Some(s) = w.slot_mut(index) {
            *s += S(dm, de);
        }
    }
    w
}

/// FNV-1a over a stream of numbers.
struct Checksum(u64);

impl Checksum {
    fn add(&mut self, v: i64) {
        for byte in v.to_le_bytes() {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

/// `(positions, checksum of evaluate, checksum of the trace's rows, sum of the real-number
/// evaluation)` over every position with the weights of `seed`; the trace, the coefficients and
/// the real-number form (slower: they count every weight) on every `STRIDE`th position.
fn run(all: &[Chess], seed: u64, span: i32) -> (usize, u64, u64, f64) {
    let e = Evaluator::new(weights(seed, span));
    let params = params_of(e.weights());
    let mut cache = PawnKingCache::new(1024);
    let (mut values, mut rows) = (
        Checksum(0xcbf2_9ce4_8422_2325),
        Checksum(0xcbf2_9ce4_8422_2325),
    );
    let mut real = 0.0;
    for (i, pos) in all.iter().enumerate() {
        let v = e.evaluate(pos);
        values.add(i64::from(v.0));
        let sum = e.material_psqt(pos.board());
        assert_eq!(
            e.evaluate_cached(pos.board(), pos.turn(), sum, &mut cache),
            v
        );
        if i % STRIDE != 0 {
            continue;
        }
        let c = e.coefficients(pos);
        assert_eq!(c.evaluate(e.weights()), v);
        let trace = e.trace(pos);
        assert_eq!(trace.total, v);
        for [white, black] in trace.terms {
            for x in [white.mg(), white.eg(), black.mg(), black.eg()] {
                rows.add(i64::from(x));
            }
        }
        rows.add(i64::from(trace.phase));
        if !c.replaced() {
            real += c.white_real(&params);
        }
    }
    (all.len(), values.0, rows.0, real)
}

/// Every how many positions the trace and the coefficients are checked.
const STRIDE: usize = 16;

#[test]
fn the_evaluation_is_what_it_was_on_every_suite() {
    let all = positions();
    if std::env::var_os("MINKOWSKI_BLESS").is_some() {
        bless(&all);
        return;
    }
    for (seed, span, pin) in PINS {
        let (count, values, rows, real) = run(&all, *seed, *span);
        println!("({seed}, {span}, ({count}, {values:#x}, {rows:#x}, {real:?})),");
        let (pcount, pvalues, prows, preal) = *pin;
        assert_eq!(
            (count, values, rows),
            (pcount, pvalues, prows),
            "seed {seed}"
        );
        assert!(
            // The real-number form may add in another order: a millionth of a centipawn per
            // position.
            (real - preal).abs() <= 1e-6 * count as f64,
            "seed {seed}: {real} against {preal}"
        );
    }
}

/// Rewrites [`PINS`] in this file with what the evaluation gives now, after an intended change
/// (a new weight, a refit): `MINKOWSKI_BLESS=1 cargo test --test integration eval_pinned::`.
fn bless(all: &[Chess]) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/integration/eval_pinned.rs"
    );
    let text = std::fs::read_to_string(path).expect("this test's source");
    let open = "const PINS: &[(u64, i32, Pin)] = &[\n";
    let start = text.find(open).expect("the pins") + open.len();
    let end = start + text[start..].find("\n];\n").expect("the pins' end") + 1;
    let mut pins = String::new();
    for (seed, span, _) in PINS {
        let (count, values, rows, real) = run(all, *seed, *span);
        pins += &format!(
            "    (\n        {seed},\n        {span},\n        (\n            {count},\n            \
             {values:#x},\n            {rows:#x},\n            {real:?},\n        ),\n    ),\n"
        );
    }
    let text = format!("{}{pins}{}", &text[..start], &text[end..]);
    std::fs::write(path, text).expect("write this test's source");
}

/// `(positions, evaluate checksum, trace checksum, real-number sum)` of one weight set.
type Pin = (usize, u64, u64, f64);

/// `(seed, span, (positions, evaluate checksum, trace checksum, real-number sum))`: first
/// pinned on main at b30fce7, before the evaluation's core was rebuilt; an intended change of the
/// evaluation re-pins them (`MINKOWSKI_BLESS=1 cargo test --test integration eval_pinned::`), and
/// the commit says why.
const PINS: &[(u64, i32, Pin)] = &[
    (
        0,
        0,
        (
            326393,
            0xafaf225c9bf0fabd,
            0x42d4bd5396bee010,
            845423.9929108848,
        ),
    ),
    (
        1,
        20,
        (
            326393,
            0xbd0eadc1fb8e0754,
            0xad9c1ee3402d2b5a,
            3128143.614966709,
        ),
    ),
    (
        2,
        60,
        (
            326393,
            0x16b42ceb8791093e,
            0xa7604ea0abd61d87,
            21055790.99275166,
        ),
    ),
    (
        3,
        150,
        (
            326393,
            0x18487d9265729807,
            0xe71d6ec94a454f2c,
            1812464.0013165497,
        ),
    ),
    (
        4,
        400,
        (
            326393,
            0xf978bc66e8ac2ca8,
            0x3581fc8d606dbe79,
            -8188752.004984096,
        ),
    ),
];
