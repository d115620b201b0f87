//! `minkowski datagen --out-dir`: shards of whole games, no position twice (in a run, across
//! shards, across a stop and a restart, and against `--exclude` files), the spread report,
//! and bad input as messages.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use minkowski::datagen::dedup::position_key;
use minkowski::datagen::format::read_text;
use minkowski::datagen::games::Trailer;
use minkowski::datagen::shards::shard_seed;

const BINARY: &str = env!("CARGO_BIN_EXE_minkowski");

fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("datagen-shards-{test}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

fn datagen(args: &[&str]) -> Output {
    Command::new(BINARY)
        .arg("datagen")
        .args(args)
        .output()
        .expect("run the minkowski binary")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The names of the files of `dir` starting with `positions-`, sorted.
fn shard_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("list")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with("positions-"))
        .collect();
    names.sort();
    names
}

/// Every shard's text, checked to be whole games (each trailer claims exactly the position
/// lines since the previous one, the file ends with a trailer), with its game names.
fn read_shards(dir: &Path) -> Vec<(String, Vec<(u64, u64)>)> {
    shard_names(dir)
        .into_iter()
        .map(|name| {
            let text = std::fs::read_to_string(dir.join(&name)).expect("read shard");
            let (mut pending, mut games) = (0, Vec::new());
            for line in text.lines() {
                match Trailer::parse(line.as_bytes()) {
                    Some(t) => {
                        assert_eq!(t.positions, pending, "{name}: {line}");
                        games.push((t.seed, t.index));
                        pending = 0;
                    }
                    None => pending += 1,
                }
            }
            assert_eq!(pending, 0, "{name} ends inside a game");
            (text, games)
        })
        .collect()
}

/// The keys of every position of the texts; asserts that none is there twice.
fn distinct_keys<'a>(texts: impl Iterator<Item = &'a str>) -> HashSet<u64> {
    let mut keys = HashSet::new();
    for text in texts {
        let (good, bad) = read_text(text);
        assert!(bad.is_empty(), "{bad:?}");
        for l in good {
            assert!(keys.insert(position_key(&l.position)), "a position twice");
        }
    }
    keys
}

#[test]
fn a_run_fills_shards_of_distinct_positions_and_reports_their_spread() {
    let dir = scratch("fill");
    let d = dir.join("data");
    let d = d.to_str().unwrap();
    let args = [
        "--out-dir",
        d,
        "--positions",
        "250",
        "--shard-size",
        "100",
        "--nodes",
        "150",
        "--jobs",
        "2",
        "--seed",
        "21",
        "--sample",
        "10",
    ];
    let out = datagen(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let names = shard_names(Path::new(d));
    assert_eq!(
        names,
        [
            "positions-000.txt",
            "positions-001.txt",
            "positions-002.txt"
        ]
    );
    let shards = read_shards(Path::new(d));
    let keys = distinct_keys(shards.iter().map(|(t, _)| t.as_str()));
    // Full shards overshoot by less than a game; the last stops at the target.
    assert!((250..250 + 3 * 10).contains(&keys.len()), "{}", keys.len());
    for (i, (_, games)) in shards.iter().enumerate() {
        assert!(games.iter().all(|&(s, _)| s == shard_seed(21, i as u32)));
    }
    let summary = String::from_utf8_lossy(&out.stdout);
    assert!(summary.contains("spread by piece count"), "{summary}");
    let spread = std::fs::read_to_string(Path::new(d).join("spread.txt")).expect("spread.txt");
    assert!(
        spread.contains(&format!("({} positions)", keys.len())),
        "{spread}"
    );
    let log = std::fs::read_to_string(Path::new(d).join("runs.log")).expect("runs.log");
    assert_eq!(log.lines().count(), 2, "{log}");

    // The target is reached: a second run adds nothing; --report counts the same positions.
    let again = datagen(&args);
    assert!(again.status.success(), "{}", stderr(&again));
    assert_eq!(shard_names(Path::new(d)), names);
    let report = datagen(&["--out-dir", d, "--report"]);
    assert!(report.status.success(), "{}", stderr(&report));
    let text = String::from_utf8_lossy(&report.stdout);
    assert!(
        text.contains(&format!("{} distinct, 0 duplicates", keys.len())),
        "{text}"
    );
}

#[test]
fn a_killed_run_is_continued_without_repeating_a_position_or_a_game() {
    let dir = scratch("killed");
    let d = dir.join("data");
    let d = d.to_str().unwrap();
    let mut child = Command::new(BINARY)
        .args(["datagen", "--out-dir", d, "--positions", "1000000"])
        .args([
            "--shard-size",
            "120",
            "--nodes",
            "150",
            "--jobs",
            "2",
            "--seed",
            "5",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("spawn");
    // Kill (SIGKILL: no chance to finish a write) once a shard is finished and the next begun.
    for _ in 0..1000 {
        std::thread::sleep(std::time::Duration::from_millis(20));
        let names = shard_names(Path::new(d));
        if names.len() >= 2 && names.iter().any(|n| n.ends_with(".part")) {
            break;
        }
    }
    child.kill().expect("kill");
    let _ = child.wait();
    let names = shard_names(Path::new(d));
    let part = names
        .iter()
        .find(|n| n.ends_with(".part"))
        .expect("a part file")
        .clone();
    // A crash mid-write: half a line after the part's whole games.
    let part_path = Path::new(d).join(&part);
    let mut text = std::fs::read_to_string(&part_path).expect("read part");
    text.push_str("8/8/8/4k3/8/8/8/KR6 w - - 0 1 | 9");
    std::fs::write(&part_path, text).expect("write");

    let finished = names.len() - 1;
    let target = (finished as u64 + 2) * 120;
    let resumed = datagen(&[
        "--out-dir",
        d,
        "--positions",
        &target.to_string(),
        "--shard-size",
        "120",
        "--nodes",
        "150",
        "--jobs",
        "2",
        "--seed",
        "5",
    ]);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert!(stderr(&resumed).contains("dropped an unfinished game or line"));
    let names = shard_names(Path::new(d));
    assert!(names.iter().all(|n| n.ends_with(".txt")), "{names:?}");
    assert_eq!(names.len(), finished + 2);
    let shards = read_shards(Path::new(d));
    distinct_keys(shards.iter().map(|(t, _)| t.as_str()));
    let mut games = HashSet::new();
    for (_, g) in &shards {
        for &game in g {
            assert!(games.insert(game), "game {game:?} played twice");
        }
    }
}

#[test]
fn excluded_positions_are_not_written_again() {
    let dir = scratch("exclude");
    let (file, d) = (dir.join("earlier.txt"), dir.join("data"));
    let (f, d) = (file.to_str().unwrap(), d.to_str().unwrap());
    // The same games as shard 0 of seed 9 will play: the file holds exactly their positions.
    let seed = shard_seed(9, 0).to_string();
    let first = datagen(&[
        "--out", f, "--games", "3", "--nodes", "150", "--seed", &seed,
    ]);
    assert!(first.status.success(), "{}", stderr(&first));
    let earlier = std::fs::read_to_string(&file).expect("read");
    let known = distinct_keys(std::iter::once(earlier.as_str()));
    assert!(!known.is_empty());
    let run = datagen(&[
        "--out-dir",
        d,
        "--positions",
        "60",
        "--nodes",
        "150",
        "--seed",
        "9",
        "--exclude",
        f,
    ]);
    assert!(run.status.success(), "{}", stderr(&run));
    let shards = read_shards(Path::new(d));
    let keys = distinct_keys(shards.iter().map(|(t, _)| t.as_str()));
    assert!(keys.is_disjoint(&known));
    // Its first three games are those of the file: every position of them was dropped.
    let first_three: Vec<&str> = shards[0]
        .0
        .lines()
        .filter(|l| l.starts_with('#'))
        .take(3)
        .collect();
    assert!(
        first_three.iter().all(|t| t.contains(" positions=0 ")),
        "{first_three:?}"
    );
}

#[test]
fn bad_input_is_a_message_not_a_panic() {
    let dir = scratch("bad");
    let d = dir.join("data");
    let d = d.to_str().unwrap();
    let run = |args: &[&str], message: &str| {
        let out = datagen(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    };
    run(&["--out-dir", d], "--positions N is required");
    run(
        &["--out-dir", d, "--positions", "5", "--games", "3"],
        "cannot be used with",
    );
    run(&["--positions", "5"], "required");
    run(&["--out-dir", d, "--positions", "0"], "0 is not in 1..");
    run(
        &["--out-dir", d, "--positions", "5", "--shard-size", "0"],
        "0 is not in 1..",
    );
    run(
        &[
            "--out-dir",
            d,
            "--positions",
            "5",
            "--book",
            "/nonexistent.epd",
        ],
        "cannot read book /nonexistent.epd",
    );
    let o = dir.join("x.txt");
    run(
        &[
            "--out",
            o.to_str().unwrap(),
            "--games",
            "1",
            "--book",
            "startpos",
            "--book",
            "startpos",
        ],
        "--out takes one --book",
    );
    run(&["--out", o.to_str().unwrap()], "--games N is required");
    run(
        &[
            "--out",
            o.to_str().unwrap(),
            "--games",
            "1",
            "--exclude",
            "/nonexistent.txt",
        ],
        "cannot read /nonexistent.txt",
    );
    for part in ["positions-001.txt.part", "positions-002.txt.part"] {
        std::fs::write(Path::new(d).join(part), "").expect("write part");
    }
    run(
        &["--out-dir", d, "--positions", "5"],
        "several unfinished shards",
    );
    // A directory path that is a file.
    run(
        &["--out-dir", o.to_str().unwrap(), "--positions", "5"],
        "cannot create",
    );
}
