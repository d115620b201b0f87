//! The UCI test harness shared by `tests/integration/uci.rs` and
//! `tests/integration/uci_malformed.rs`: the real binary driven on stdin/stdout as a GUI would,
//! every read with a timeout (a hang fails the test instead of blocking it), and the checks that
//! hold for any search.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread;
use std::time::{Duration, Instant};

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position};

/// Long enough for a loaded 2-core machine; only a hang should hit it.
pub const TIMEOUT: Duration = Duration::from_secs(20);

/// How long an engine must stay quiet to count as "did not send".
pub const QUIET: Duration = Duration::from_millis(300);

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything received so far, for failure messages.
    pub log: Vec<String>,
}

impl Engine {
    /// Start the binary in an empty directory (so no engine.toml is picked up).
    pub fn start() -> Engine {
        Engine::start_with(&[], &empty_dir())
    }

    pub fn start_with(args: &[&str], dir: &Path) -> Engine {
        let mut command = Command::new(env!("CARGO_BIN_EXE_minkowski"));
        command.args(args);
        let (child, stdin, lines) = spawn_piped(&mut command, dir);
        Engine {
            child,
            stdin: Some(stdin),
            lines,
            log: Vec::new(),
        }
    }

    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to engine");
        stdin.flush().expect("flush");
    }

    /// The next line, or a panic naming `what` after the timeout.
    pub fn next_line(&mut self, what: &str) -> String {
        match self.lines.recv_timeout(TIMEOUT) {
            Ok(line) => {
                self.log.push(line.clone());
                line
            }
            Err(RecvTimeoutError::Timeout) => {
                panic!(
                    "timed out waiting for {what}; received so far:\n{}",
                    self.log.join("\n")
                )
            }
            Err(RecvTimeoutError::Disconnected) => {
                panic!(
                    "engine closed stdout waiting for {what}; received:\n{}",
                    self.log.join("\n")
                )
            }
        }
    }

    /// All lines up to and including the first one for which `done` holds.
    pub fn until(&mut self, what: &str, done: impl Fn(&str) -> bool) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.next_line(what);
            let stop = done(&line);
            lines.push(line);
            if stop {
                return lines;
            }
        }
    }

    /// `isready` and everything up to `readyok` (which is not included).
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until("readyok", |l| l == "readyok");
        lines.pop();
        lines
    }

    /// Lines that arrive within `wait` (the engine is expected to be quiet or nearly so).
    pub fn drain(&mut self, wait: Duration) -> Vec<String> {
        let end = Instant::now() + wait;
        let mut lines = Vec::new();
        while let Some(left) = end.checked_duration_since(Instant::now()) {
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.log.push(line.clone());
                    lines.push(line);
                }
                Err(_) => break,
            }
        }
        lines
    }

    /// `uci` → `uciok`; the lines before `uciok`.
    pub fn handshake(&mut self) -> Vec<String> {
        self.send("uci");
        let mut lines = self.until("uciok", |l| l == "uciok");
        lines.pop();
        lines
    }

    /// Close stdin and wait for the process to end.
    pub fn close_and_wait(&mut self) -> ExitStatus {
        self.stdin = None;
        self.wait_exit()
    }

    pub fn wait_exit(&mut self) -> ExitStatus {
        let end = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return status;
            }
            assert!(
                Instant::now() < end,
                "engine did not exit; log:\n{}",
                self.log.join("\n")
            );
            thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Spawn `command` in `dir` with stdin and stdout piped (stderr dropped), and a thread that
/// forwards each stdout line into the returned channel, so that every read can time out.
/// Shared by the tests that drive the binary (`uci`, `uci_malformed`, `memory`, `stress`).
pub fn spawn_piped(command: &mut Command, dir: &Path) -> (Child, ChildStdin, Receiver<String>) {
    let mut child = command
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the engine");
    let stdout = child.stdout.take().expect("stdout");
    let stdin = child.stdin.take().expect("stdin");
    let (tx, rx) = channel();
    thread::spawn(move || {
        use std::io::BufRead;
        for line in std::io::BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    (child, stdin, rx)
}

pub fn empty_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("uci-empty-cwd");
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

pub fn fen_pos(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .expect("fen")
        .into_position(CastlingMode::Chess960)
        .expect("position")
}

pub fn play(pos: &Chess, moves: &[&str]) -> Chess {
    let mut pos = pos.clone();
    for m in moves {
        let m = UciMove::from_ascii(m.as_bytes())
            .unwrap()
            .to_move(&pos)
            .unwrap();
        pos.play_unchecked(m);
    }
    pos
}

/// Check a `bestmove` line against the position searched: the move is legal and written in the
/// expected notation, `0000` only without legal moves, `ponder` legal after it.
pub fn check_bestmove(line: &str, pos: &Chess, chess960: bool) -> Option<Move> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(tokens.first(), Some(&"bestmove"), "{line}");
    assert!(tokens.len() == 2 || tokens.len() == 4, "{line}");
    if tokens[1] == "0000" {
        assert!(
            pos.legal_moves().is_empty(),
            "bestmove 0000 with legal moves: {line}"
        );
        return None;
    }
    let m = UciMove::from_ascii(tokens[1].as_bytes())
        .unwrap_or_else(|_| panic!("not UCI: {line}"))
        .to_move(pos)
        .unwrap_or_else(|_| panic!("illegal bestmove: {line}"));
    let mode = if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    assert_eq!(m.to_uci(mode).to_string(), tokens[1], "notation of {line}");
    if tokens.len() == 4 {
        assert_eq!(tokens[2], "ponder", "{line}");
        let after = play(pos, &[tokens[1]]);
        UciMove::from_ascii(tokens[3].as_bytes())
            .ok()
            .and_then(|u| u.to_move(&after).ok())
            .unwrap_or_else(|| panic!("illegal ponder move: {line}"));
    }
    Some(m)
}

/// The lines up to the `bestmove` of a `go`; asserts that no second one follows.
pub fn one_bestmove(
    engine: &mut Engine,
    pos: &Chess,
    chess960: bool,
) -> (Vec<String>, Option<Move>) {
    let lines = engine.until("bestmove", |l| l.starts_with("bestmove"));
    let best = check_bestmove(lines.last().expect("a line"), pos, chess960);
    check_info_lines(&lines);
    let after = engine.sync();
    assert!(
        !after.iter().any(|l| l.starts_with("bestmove")),
        "second bestmove: {after:?}"
    );
    (lines, best)
}

/// `info` lines with a score carry integer values (as fastchess --compliance checks).
pub fn check_info_lines(lines: &[String]) {
    for line in lines.iter().filter(|l| l.starts_with("info depth")) {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        for (i, t) in tokens.iter().enumerate() {
            if [
                "depth", "seldepth", "nodes", "nps", "time", "hashfull", "cp", "mate",
            ]
            .contains(t)
            {
                let value = tokens.get(i + 1).unwrap_or(&"");
                assert!(value.parse::<i64>().is_ok(), "{t} not an integer in {line}");
            }
        }
        if !line.contains("currmove") {
            assert!(line.contains(" score "), "no score in {line}");
        }
    }
}

pub fn fen_of(engine: &mut Engine) -> String {
    engine.send("d");
    let lines = engine.until("Fen: line of d", |l| l.starts_with("Fen: "));
    lines.last().unwrap()["Fen: ".len()..].to_owned()
}
