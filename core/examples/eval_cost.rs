//! The evaluation's cost table: nanoseconds a call of each stage of the evaluation
//! (`minkowski_core::eval::cost`), and of the whole, over a fixed set of positions: suite
//! positions (WAC, STS 1-7, and the KBNK/KRK/KQKP endgame suites) and every third child of each
//! (one legal move later: positions as a search meets them, captures included), plus the
//! positions of `--fens FILE` (one FEN a line, anything after a `|` ignored: `minkowski datagen`
//! output, positions from self-play searches).
//!
//! `cargo run --release -p minkowski-chess-core --example eval_cost [-- --quick] [--reps N]
//! [--fens FILE]`. Prints one row per stage: calls per sweep, sweeps and the nanoseconds a call
//! (each chunk of 32 positions timed on every sweep and its least time kept: the time without
//! preemption on a loaded machine; the stages take turns). `scripts/eval-cost.py` adds the instructions a call, counted by callgrind (one
//! sweep under `valgrind --tool=callgrind`), which do not depend on the machine's load.

use std::hint::black_box;
use std::time::Instant;

use minkowski_core::eval::Evaluator;
use minkowski_core::eval::cost::{Prepared, Stage};
use minkowski_core::eval::pawn_king::PawnKingCache;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};

/// The suites and how many positions of each.
const SUITES: [(&str, usize); 11] = [
    ("wac.epd", 300),
    ("sts1.epd", 60),
    ("sts2.epd", 60),
    ("sts3.epd", 60),
    ("sts4.epd", 60),
    ("sts5.epd", 60),
    ("sts6.epd", 60),
    ("sts7.epd", 60),
    ("kbnk.epd", 40),
    ("krk.epd", 40),
    ("kqkp.epd", 40),
];

/// Positions timed at once (see `main`).
const CHUNK: usize = 32;

/// Every how many legal moves a child position joins the set.
const CHILD_STEP: usize = 3;

/// The position of an EPD line (its first four fields) or of a FEN line (before any `|`).
fn parse(line: &str) -> Option<Chess> {
    let text = line.split('|').next()?.trim();
    let fields: Vec<&str> = text.split_whitespace().collect();
    let fen = match fields.len() {
        0..4 => return None,
        4 => format!("{} 0 1", fields.join(" ")),
        _ if fields[4].parse::<u32>().is_ok() => fields.join(" "),
        _ => format!("{} 0 1", fields[..4].join(" ")),
    };
    fen.parse::<Fen>()
        .ok()?
        .into_position(CastlingMode::Standard)
        .ok()
}

/// The positions of `count` lines of the suite `name` (fewer in quick mode).
fn suite(name: &str, count: usize) -> Vec<Chess> {
    let path = format!("{}/../epd/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
    text.lines().filter_map(parse).take(count).collect()
}

/// The options: `--quick`, `--reps N`, `--fens FILE`.
struct Options {
    quick: bool,
    reps: usize,
    fens: Option<String>,
}

/// A bad argument or an unreadable file: the message and exit code 2, not a panic.
fn fail(message: &str) -> ! {
    eprintln!("eval_cost: {message}");
    std::process::exit(2)
}

fn options() -> Options {
    let mut o = Options {
        quick: false,
        reps: 21,
        fens: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--quick" => {
                o.quick = true;
                o.reps = 5;
            }
            "--reps" => match args.next().and_then(|n| n.parse().ok()) {
                Some(reps) if reps > 0 => o.reps = reps,
                _ => fail("--reps takes a count of sweeps above 0"),
            },
            "--fens" => match args.next() {
                Some(file) => o.fens = Some(file),
                None => fail("--fens takes a file of FENs"),
            },
            other => fail(&format!(
                "unknown argument {other}: --quick, --reps N, --fens FILE"
            )),
        }
    }
    o
}

fn main() {
    let o = options();
    let mut bases: Vec<Chess> = Vec::new();
    for (name, count) in SUITES {
        bases.extend(suite(name, if o.quick { count / 10 } else { count }));
    }
    if let Some(file) = &o.fens {
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| fail(&format!("{file}: {e}")));
        bases.extend(text.lines().filter_map(parse));
    }
    let mut positions = bases.clone();
    for pos in &bases {
        let moves = pos.legal_moves();
        for m in moves.iter().step_by(CHILD_STEP) {
            positions.push(pos.clone().play(*m).expect("a legal move"));
        }
    }
    let e = Evaluator::default();
    let set: Vec<Prepared> = positions
        .iter()
        .map(|p| Prepared::new(&e, p.board(), p.turn()))
        .collect();
    let mut cache = PawnKingCache::default();
    // Warm the cache: the search finds most configurations there.
    let _ = e.run_stage(Stage::WholeCached, &set, &mut cache);

    // Each sweep is timed in chunks of a few positions, and each chunk's time is the least
    // over the sweeps: a chunk takes microseconds, so most of its sweeps run without the
    // process being preempted (on a loaded machine a whole sweep rarely does), and the least
    // is the time without that.
    let chunks: Vec<&[Prepared]> = set.chunks(CHUNK).collect();
    let mut best = vec![vec![f64::INFINITY; chunks.len()]; Stage::ALL.len()];
    for _ in 0..o.reps {
        for (i, &stage) in Stage::ALL.iter().enumerate() {
            for (j, chunk) in chunks.iter().enumerate() {
                let start = Instant::now();
                black_box(e.run_stage(stage, black_box(chunk), &mut cache));
                best[i][j] = best[i][j].min(start.elapsed().as_nanos() as f64);
            }
        }
    }
    println!(
        "# {} positions ({} suite/file positions and their children), {} sweeps",
        set.len(),
        bases.len(),
        o.reps
    );
    // Every value, hashed: two builds that print the same hash evaluate the set alike.
    let values = positions.iter().fold(0u64, |h, p| {
        let v = e.evaluate(p).0 as u64;
        (h ^ v).wrapping_mul(0x100_0000_01b3)
    });
    println!("# values hash {values:016x}");
    println!("stage\tcalls\tsweeps\tns_per_call");
    for (i, stage) in Stage::ALL.iter().enumerate() {
        let ns = best[i].iter().sum::<f64>() / set.len() as f64;
        println!("{}\t{}\t{}\t{ns:.1}", stage.name(), set.len(), o.reps);
    }
}
