//! Memory (issue 15): the engine's resident memory stays within `Hash` plus a small fixed
//! overhead while searching, across `setoption name Hash` changes and `ucinewgame`; a `Hash`
//! the process cannot have is reduced with an `info string`, not a crash.
//!
//! Resident memory is read from `/proc/<pid>/status` (`VmRSS` now, `VmHWM` the peak), so these
//! tests run on Linux only. RSS measures memory, not time: the bounds are deterministic.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command};
use std::sync::mpsc::Receiver;
use std::time::Duration;

use crate::uci_harness;
use shakmaty::Chess;
use shakmaty::uci::UciMove;

/// Only a hang should hit this.
const TIMEOUT: Duration = Duration::from_secs(120);

/// The engine without its table: code, stacks, move lists, buffers (measured: about 5 MB).
const OVERHEAD_MB: u64 = 48;

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    log: Vec<String>,
}

impl Engine {
    /// Start the binary, through `sh -c 'ulimit -v KB; exec ...'` when an address-space limit
    /// is given.
    fn start(limit_kb: Option<u64>) -> Engine {
        let exe = env!("CARGO_BIN_EXE_minkowski");
        let mut command = match limit_kb {
            None => Command::new(exe),
            Some(kb) => {
                let mut c = Command::new("sh");
                c.arg("-c")
                    .arg(format!("ulimit -v {kb} && exec \"$0\""))
                    .arg(exe);
                c
            }
        };
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("memory-cwd");
        std::fs::create_dir_all(&dir).expect("temp dir");
        let (child, stdin, lines) = uci_harness::spawn_piped(&mut command, &dir);
        Engine {
            child,
            stdin,
            lines,
            log: Vec::new(),
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write to engine");
        self.stdin.flush().expect("flush");
    }

    /// Lines up to and including the first for which `done` holds.
    fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(TIMEOUT)
                .unwrap_or_else(|_| panic!("no answer; log:\n{}", self.log.join("\n")));
            self.log.push(line.clone());
            let stop = done(&line);
            lines.push(line);
            if stop {
                return lines;
            }
        }
    }

    fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        self.until(|l| l == "readyok")
    }

    /// Search the start position and check the answer.
    fn search(&mut self, go: &str) {
        self.send("position startpos");
        self.send(go);
        let lines = self.until(|l| l.starts_with("bestmove"));
        let word = lines.last().unwrap().split_whitespace().nth(1).unwrap();
        let legal = UciMove::from_ascii(word.as_bytes())
            .ok()
            .and_then(|u| u.to_move(&Chess::default()).ok());
        assert!(legal.is_some(), "bad bestmove {word}");
    }

    /// `VmRSS` and `VmHWM` in MB.
    fn memory_mb(&self) -> (u64, u64) {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("read /proc/<pid>/status");
        let field = |name: &str| -> u64 {
            let line = status
                .lines()
                .find(|l| l.starts_with(name))
                .unwrap_or_else(|| panic!("no {name}"));
            let kb: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
            kb / 1024
        };
        (field("VmRSS:"), field("VmHWM:"))
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn resident_memory_is_hash_plus_a_small_overhead() {
    let mut engine = Engine::start(None);
    let mut peak = 0;
    for hash in [16, 64, 256] {
        engine.send(&format!("setoption name Hash value {hash}"));
        let notes = engine.sync();
        assert!(!notes.iter().any(|l| l.contains("Hash: only")), "{notes:?}");
        engine.search("go nodes 200000");
        let (rss, hwm) = engine.memory_mb();
        // The table is really there (zeroed at allocation, so its pages are resident) ...
        assert!(
            rss >= hash,
            "Hash {hash}: RSS {rss} MB, the table is not resident"
        );
        // ... and little else is.
        assert!(rss <= hash + OVERHEAD_MB, "Hash {hash}: RSS {rss} MB");
        peak = peak.max(hwm);
    }
    // 64 -> 256 never had both tables at once (that would be 320 MB plus the overhead).
    assert!(peak <= 256 + OVERHEAD_MB, "peak RSS {peak} MB");

    // Back down, and new games: memory is given back and does not creep.
    engine.send("setoption name Hash value 16");
    engine.sync();
    for _ in 0..5 {
        engine.send("ucinewgame");
        engine.search("go nodes 20000");
    }
    let (rss, _) = engine.memory_mb();
    assert!(
        rss <= 16 + OVERHEAD_MB,
        "after Hash 256 -> 16: RSS {rss} MB"
    );
    engine.send("setoption name Hash value 64");
    engine.send("setoption name Clear Hash");
    engine.search("go nodes 20000");
    let (rss, hwm) = engine.memory_mb();
    assert!(
        (64..=64 + OVERHEAD_MB).contains(&rss),
        "Hash 64 again: RSS {rss} MB"
    );
    assert!(hwm <= 256 + OVERHEAD_MB, "peak RSS {hwm} MB");
}

#[test]
fn a_hash_the_process_cannot_have_is_reduced_with_an_info_string() {
    // 1 GB of address space: a 32 GB table cannot be had, whatever the machine.
    let limit_mb = 1024;
    let mut engine = Engine::start(Some(limit_mb * 1024));
    engine.send("uci");
    engine.until(|l| l == "uciok");
    engine.send("setoption name Hash value 32768");
    let notes = engine.sync();
    let note = notes
        .iter()
        .find(|l| l.starts_with("info string Hash: only"))
        .unwrap_or_else(|| panic!("no info string about the smaller table: {notes:?}"));
    let got: u64 = note
        .split_whitespace()
        .nth(4)
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no size in {note}"));
    assert!((1..limit_mb).contains(&got), "{note}");
    // Still a working engine, with the table it said it has.
    engine.search("go nodes 50000");
    let (rss, _) = engine.memory_mb();
    assert!(
        rss >= got && rss <= got + OVERHEAD_MB,
        "RSS {rss} MB for {note}"
    );
    engine.send("setoption name Hash value 16");
    engine.sync();
    engine.search("go depth 4");
    engine.send("quit");
    let status = engine.child.wait().expect("wait");
    assert!(status.success(), "{status}");
}
