//! `minkowski probe [--syzygy-path DIRS] FEN`: what the Syzygy tables say about a position and
//! each of its legal moves (WDL and DTZ), as a table.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use minkowski::config::Config;
use minkowski::search::tb::{Tablebases, TbOutcome};
use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::{CastlingMode, Chess};
use shakmaty_syzygy::Wdl;

/// Arguments of `minkowski probe`.
#[derive(clap::Args, Debug)]
pub struct ProbeArgs {
    /// Folders of tables (`:`-separated; `;` on Windows); default: engine.toml's `SyzygyPath`.
    #[arg(long)]
    syzygy_path: Option<String>,
    /// The position as FEN (its fields may be given as separate words).
    #[arg(required = true)]
    fen: Vec<String>,
}

/// Print the table; fails on a bad FEN, a path without tables or a position they do not hold.
pub fn run(args: &ProbeArgs, config: Option<&Path>) -> ExitCode {
    let (config, problems) = Config::load(config);
    for problem in &problems {
        eprintln!("minkowski probe: {problem}");
    }
    let path = args
        .syzygy_path
        .clone()
        .unwrap_or_else(|| config.options.syzygy_path.clone());
    let text = args.fen.join(" ");
    let parsed = text
        .parse::<Fen>()
        .map_err(|e| e.to_string())
        .and_then(|fen| {
            fen.into_position::<Chess>(CastlingMode::Chess960)
                .map_err(|e| e.to_string())
        });
    let pos = match parsed {
        Ok(pos) => pos,
        Err(e) => {
            eprintln!("minkowski probe: bad FEN {text:?}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let (tables, problems) = Tablebases::open(&path);
    for problem in &problems {
        eprintln!("minkowski probe: {problem}");
    }
    if tables.is_empty() {
        eprintln!("minkowski probe: no tables (give --syzygy-path or SyzygyPath in engine.toml)");
        return ExitCode::FAILURE;
    }
    let probe = tables.probe_position(&pos);
    let Some(outcome) = probe.position else {
        eprintln!(
            "minkowski probe: not in the tables ({} files, up to {} pieces)",
            tables.files(),
            tables.max_pieces()
        );
        return ExitCode::FAILURE;
    };
    let mut out = format!("{}\nposition  {}\n\n", text, describe(outcome));
    out.push_str(&format!("{:<8}  {:<12}  {:>5}\n", "move", "wdl", "dtz"));
    for m in &probe.moves {
        let san = San::from_move(&pos, m.mv).to_string();
        let dtz = m
            .outcome
            .dtz
            .map_or_else(|| "-".to_owned(), |d| d.to_string());
        out.push_str(&format!(
            "{:<8}  {:<12}  {:>5}\n",
            san,
            wdl_name(m.outcome.wdl),
            dtz
        ));
    }
    // A closed pipe (`minkowski probe ... | head`) is not an error worth a panic.
    let _ = write!(std::io::stdout(), "{out}");
    ExitCode::SUCCESS
}

fn describe(o: TbOutcome) -> String {
    let dtz = o
        .dtz
        .map_or_else(|| "- (no DTZ table)".to_owned(), |d| d.to_string());
    format!("wdl {}  dtz {}", wdl_name(o.wdl), dtz)
}

fn wdl_name(wdl: Wdl) -> &'static str {
    match wdl {
        Wdl::Win => "win",
        Wdl::CursedWin => "cursed win",
        Wdl::Draw => "draw",
        Wdl::BlessedLoss => "blessed loss",
        Wdl::Loss => "loss",
    }
}
