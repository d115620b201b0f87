//! Stress (issue 15): the real binary gets thousands of `go infinite`/`stop`/`position`/
//! `isready`/`go nodes N`/`ucinewgame`/`setoption` commands in rapid, seeded random order, with
//! no waiting between them except at a few sync points. Checked: every `go` gets exactly one
//! `bestmove`, in the order of the `go`s, legal (and in the right notation) in the position it
//! searched; every `isready` one `readyok`; an infinite or pondering search never answers before
//! its `stop`/`ponderhit`; no error or internal-error line.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command};
use std::sync::mpsc::Receiver;
use std::time::Duration;

use crate::uci_harness;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

/// Only a hang should hit this.
const TIMEOUT: Duration = Duration::from_secs(60);

/// Commands per run (each seed).
const COMMANDS: usize = 5000;

/// A small deterministic generator (xorshift64*), so a failure replays from its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// One `go` sent: where it searched, and how its moves are written.
struct Go {
    pos: Chess,
    chess960: bool,
    line: String,
}

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Every line received, for the checks and for failure messages.
    received: Vec<String>,
    sent: Vec<String>,
    /// Both directions, in about the order they happened.
    transcript: Vec<String>,
}

impl Engine {
    fn start() -> Engine {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("stress-cwd");
        std::fs::create_dir_all(&dir).expect("temp dir");
        let (child, stdin, lines) =
            uci_harness::spawn_piped(&mut Command::new(env!("CARGO_BIN_EXE_minkowski")), &dir);
        Engine {
            child,
            stdin,
            lines,
            received: Vec::new(),
            sent: Vec::new(),
            transcript: Vec::new(),
        }
    }

    fn send(&mut self, line: &str) {
        self.poll();
        self.sent.push(line.to_owned());
        self.transcript.push(format!("> {line}"));
        writeln!(self.stdin, "{line}").expect("write to engine");
        self.stdin.flush().expect("flush");
    }

    /// Take what has arrived without waiting.
    fn poll(&mut self) {
        while let Ok(line) = self.lines.try_recv() {
            self.transcript.push(format!("< {line}"));
            self.received.push(line);
        }
    }

    fn count(&self, pred: impl Fn(&str) -> bool) -> usize {
        self.received.iter().filter(|l| pred(l)).count()
    }

    /// Wait until `pred` holds for `n` received lines.
    fn wait_for(&mut self, what: &str, n: usize, pred: impl Fn(&str) -> bool) {
        while self.count(&pred) < n {
            match self.lines.recv_timeout(TIMEOUT) {
                Ok(line) => {
                    self.transcript.push(format!("< {line}"));
                    self.received.push(line);
                }
                Err(_) => panic!(
                    "timed out waiting for {what} #{n} (have {}); info strings: {:?}\nlast commands sent:\n{}\nlast lines:\n{}",
                    self.count(&pred),
                    self.received
                        .iter()
                        .filter(|l| l.starts_with("info string"))
                        .collect::<Vec<_>>(),
                    tail(&self.sent, 30),
                    tail(&self.received, 30)
                ),
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn tail(lines: &[String], n: usize) -> String {
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// Start positions: the standard one and Chess960 ones from the repository's perft suite.
fn starts() -> Vec<(String, bool)> {
    let text = include_str!("../../epd/fischer.epd");
    let mut starts = vec![("startpos".to_owned(), false)];
    for line in text.lines().take(40) {
        let fen = line.split(';').next().unwrap_or("").trim();
        starts.push((format!("fen {fen}"), true));
    }
    // Mate, stalemate (bestmove 0000) and a bare-kings draw.
    for fen in [
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        "8/8/4k3/8/8/3K4/8/8 w - - 0 1",
    ] {
        starts.push((format!("fen {fen}"), false));
    }
    starts
}

fn position_of(start: &str) -> Chess {
    match start.strip_prefix("fen ") {
        None => Chess::default(),
        Some(fen) => fen
            .parse::<Fen>()
            .expect("fen")
            .into_position(CastlingMode::Chess960)
            .expect("legal"),
    }
}

/// A `position` command: a start and a random walk of legal moves; the position it sets.
fn random_position(rng: &mut Rng, start: &str, chess960: bool) -> (String, Chess) {
    let mut pos = position_of(start);
    let mode = if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let mut moves = Vec::new();
    for _ in 0..rng.below(30) {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.below(legal.len())];
        moves.push(m.to_uci(mode).to_string());
        pos.play_unchecked(m);
    }
    let line = if moves.is_empty() {
        format!("position {start}")
    } else {
        format!("position {start} moves {}", moves.join(" "))
    };
    (line, pos)
}

/// A finite `go`: ends by itself within milliseconds.
fn finite_go(rng: &mut Rng) -> String {
    match rng.below(5) {
        0 => format!("go nodes {}", 1 + rng.below(3000)),
        1 => format!("go depth {}", 1 + rng.below(4)),
        2 => format!("go movetime {}", 1 + rng.below(10)),
        3 => {
            let (w, b) = (1 + rng.below(200), 1 + rng.below(200));
            format!(
                "go wtime {w} btime {b} winc {} binc {}",
                rng.below(5),
                rng.below(5)
            )
        }
        _ => format!("go nodes {} depth {}", 1 + rng.below(500), 1 + rng.below(6)),
    }
}

fn check_bestmove(line: &str, go: &Go) {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    assert!(
        tokens.len() == 2 || (tokens.len() == 4 && tokens[2] == "ponder"),
        "malformed: {line}"
    );
    if tokens[1] == "0000" {
        assert!(
            go.pos.legal_moves().is_empty(),
            "0000 with legal moves after '{}'",
            go.line
        );
        return;
    }
    let m = UciMove::from_ascii(tokens[1].as_bytes())
        .ok()
        .and_then(|u| u.to_move(&go.pos).ok())
        .unwrap_or_else(|| panic!("illegal '{line}' for '{}'", go.line));
    let mode = if go.chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    assert_eq!(m.to_uci(mode).to_string(), tokens[1], "notation of {line}");
}

/// One seeded run of `COMMANDS` commands.
fn stress(seed: u64) {
    let mut rng = Rng(seed);
    let starts = starts();
    let mut engine = Engine::start();
    engine.send("uci");
    engine.wait_for("uciok", 1, |l| l == "uciok");

    let mut chess960 = false;
    let mut pos = Chess::default();
    let mut gos: Vec<Go> = Vec::new();
    let mut isready = 0;
    // The newest `go` waits for `stop` (infinite) or for `stop`/`ponderhit` (ponder).
    let mut held = false;
    let mut pondering = false;

    for step in 0..COMMANDS {
        match rng.below(100) {
            0..=14 => {
                let start = &starts[rng.below(starts.len())];
                // A GUI switches UCI_Chess960 on for Chess960 starts, and may leave it on.
                if (start.1 && !chess960) || (!start.1 && rng.chance(10)) {
                    chess960 = start.1 || !chess960;
                    engine.send(&format!("setoption name UCI_Chess960 value {chess960}"));
                }
                let (line, p) = random_position(&mut rng, &start.0, chess960);
                engine.send(&line);
                pos = p;
            }
            15..=39 if !held => {
                let line = match rng.below(10) {
                    0..=1 => {
                        held = true;
                        "go infinite".to_owned()
                    }
                    2 => {
                        held = true;
                        pondering = true;
                        "go ponder wtime 100 btime 100".to_owned()
                    }
                    _ => finite_go(&mut rng),
                };
                engine.send(&line);
                gos.push(Go {
                    pos: pos.clone(),
                    chess960,
                    line,
                });
            }
            15..=54 if held || rng.chance(25) => {
                if pondering && rng.chance(50) {
                    engine.send("ponderhit");
                } else {
                    engine.send("stop");
                }
                held = false;
                pondering = false;
            }
            40..=54 => {
                // Let the finite searches sent so far finish (a GUI waiting for its move).
                let finished = gos.len() - usize::from(held);
                engine.wait_for("bestmove", finished, |l| l.starts_with("bestmove"));
            }
            55..=79 => {
                engine.send("isready");
                isready += 1;
            }
            80..=89 => engine.send("ucinewgame"),
            90..=94 => engine.send(&format!("setoption name Hash value {}", 1 + rng.below(16))),
            _ => engine.send(&format!(
                "setoption name MultiPV value {}",
                1 + rng.below(3)
            )),
        }
        engine.poll();
        if step % 100 == 99 {
            // Sync point: everything asked for so far is answered, nothing more.
            engine.send("isready");
            isready += 1;
            engine.wait_for("readyok", isready, |l| l == "readyok");
            let answered = engine.count(|l| l.starts_with("bestmove"));
            let limit = gos.len() - usize::from(held);
            assert!(
                answered <= limit,
                "{answered} bestmoves for {} gos (held: {held}) at step {step}:\n{}",
                gos.len(),
                tail(&engine.received, 20)
            );
        }
    }
    engine.send("stop");
    engine.send("isready");
    isready += 1;
    engine.wait_for("readyok", isready, |l| l == "readyok");
    engine.wait_for("bestmove", gos.len(), |l| l.starts_with("bestmove"));
    // Nothing more may come: one more sync, then compare the exact counts.
    engine.send("isready");
    isready += 1;
    engine.wait_for("readyok", isready, |l| l == "readyok");
    engine.send("quit");
    let status = engine.child.wait().expect("wait");
    engine.poll();
    assert!(status.success(), "exit status {status}");

    assert_eq!(engine.count(|l| l == "readyok"), isready);
    let bestmoves: Vec<String> = engine
        .received
        .iter()
        .filter(|l| l.starts_with("bestmove"))
        .cloned()
        .collect();
    assert_eq!(bestmoves.len(), gos.len(), "one bestmove per go");
    for (line, go) in bestmoves.iter().zip(&gos) {
        check_bestmove(line, go);
    }
    let depths = engine.count(|l| l.starts_with("info depth"));
    eprintln!(
        "seed {seed:#x}: {} commands, {} gos answered, {isready} readyok, {depths} info depth lines",
        engine.sent.len(),
        gos.len()
    );
    for line in &engine.received {
        assert!(
            !line.contains("internal error") && !line.contains("go ignored"),
            "{line}"
        );
        if let Some(text) = line.strip_prefix("info string ") {
            // Only the notices a queued `go` and `ponderhit` after a finished ponder produce.
            assert!(
                text.starts_with("go queued") || text.starts_with("ponderhit ignored"),
                "unexpected: {line}"
            );
        }
    }
}

#[test]
fn thousands_of_commands_in_random_order_seed_1() {
    stress(0x9e37_79b9_7f4a_7c15);
}

#[test]
fn thousands_of_commands_in_random_order_seed_2() {
    stress(0xdead_beef_cafe_f00d);
}

#[test]
fn thousands_of_commands_in_random_order_seed_3() {
    stress(0x0123_4567_89ab_cdef);
}
