//! `UCI_ShowWDL` over UCI (in-process, as a GUI's transcript reads) and the static WDL of
//! `minkowski eval`: the option is declared off, toggles the `wdl` field of every `info` line
//! with a score, refuses bad values as the other options do, and mates and tablebase verdicts
//! are certain.

use std::process::Command;

use crate::common::uci_session::run_commands as run;

/// The `info` lines with a score, one group per `go` (split at each `bestmove`).
fn searches(lines: &[String]) -> Vec<Vec<String>> {
    let mut groups = vec![Vec::new()];
    for line in lines {
        if line.starts_with("bestmove") {
            groups.push(Vec::new());
        } else if line.starts_with("info ") && line.contains(" score ") {
            groups.last_mut().expect("a group").push(line.clone());
        }
    }
    groups.pop();
    groups
}

/// The `wdl W D L` of an `info` line, checked to follow the score (and its bound) directly.
fn wdl(line: &str) -> Option<[u32; 3]> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "wdl")?;
    let score = words.iter().position(|w| *w == "score").expect("a score");
    let bound = usize::from(matches!(words[score + 3], "lowerbound" | "upperbound"));
    assert_eq!(at, score + 3 + bound, "wdl right after the score: {line}");
    let n = |i: usize| words[at + i].parse::<u32>().expect("per mille");
    Some([n(1), n(2), n(3)])
}

const SHOW: &str = "setoption name UCI_ShowWDL value true";

#[test]
fn the_option_is_off_by_default_and_toggles_the_field() {
    let lines = run(&[
        "uci",
        "position startpos moves e2e4 e7e5 g1f3",
        "go depth 6",
        SHOW,
        "go depth 6",
        "setoption name uci_showwdl value FALSE", // names and values in any case
        "go depth 6",
    ]);
    assert!(
        lines.contains(&"option name UCI_ShowWDL type check default false".to_owned()),
        "{lines:?}"
    );
    let groups = searches(&lines);
    assert_eq!(groups.len(), 3, "{lines:?}");
    for (i, group) in groups.iter().enumerate() {
        assert!(!group.is_empty());
        for line in group {
            assert_eq!(wdl(line).is_some(), i == 1, "search {i}: {line}");
        }
    }
    for line in &groups[1] {
        let [w, d, l] = wdl(line).expect("shown");
        assert_eq!(w + d + l, 1000, "{line}");
    }
    // Black to move after 1.e4 e5 2.Nf3, about level: neither side is close to certain.
    let [w, _, l] = wdl(groups[1].last().expect("a line")).expect("shown");
    assert!(w < 900 && l < 900, "{:?}", groups[1]);
}

#[test]
fn bad_values_are_refused_and_change_nothing() {
    let lines = run(&[
        SHOW,
        "setoption name UCI_ShowWDL value maybe",
        "setoption name UCI_ShowWDL",
        "position startpos",
        "go depth 3",
    ]);
    assert!(lines.contains(
        &"info string setoption: option 'UCI_ShowWDL' needs true or false, got 'maybe'; option unchanged"
            .to_owned()
    ), "{lines:?}");
    assert!(
        lines.contains(
            &"info string setoption: option 'UCI_ShowWDL' needs a value; option unchanged"
                .to_owned()
        ),
        "{lines:?}"
    );
    // Still on.
    let groups = searches(&lines);
    assert!(groups[0].iter().all(|l| wdl(l).is_some()), "{lines:?}");
}

#[test]
fn mates_are_certain_for_the_side_that_mates() {
    // White mates with Rh8; Black to move in the same kind of position is mated next move
    // whatever it plays (Kb8 or c4: two moves, so the search does not stop at once).
    let lines = run(&[
        SHOW,
        "position fen k7/8/1K6/8/8/8/8/7R w - - 0 1",
        "go depth 4",
        "position fen k7/8/1K6/2p5/8/8/8/7R b - - 0 1",
        "go depth 4",
    ]);
    let groups = searches(&lines);
    let last = |g: &Vec<String>| g.last().cloned().expect("a line");
    assert!(
        last(&groups[0]).contains("score mate 1 wdl 1000 0 0"),
        "{lines:?}"
    );
    assert!(
        last(&groups[1]).contains("score mate -1 wdl 0 0 1000"),
        "{lines:?}"
    );
}

#[test]
fn tablebase_verdicts_are_certain_whatever_the_score() {
    let tables = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/syzygy");
    let path = format!("setoption name SyzygyPath value {tables}");
    // White must take the rook (Kxb2) to draw: the score is 0, which the model alone would
    // show as far from a certain draw.
    let draw = "position fen 8/8/8/8/8/2K5/1r6/7k w - - 0 1";
    let without = run(&[SHOW, draw, "go depth 6"]);
    let with = run(&[SHOW, &path, draw, "go depth 6"]);
    let last = |lines: &[String]| wdl(searches(lines)[0].last().expect("a line")).expect("shown");
    assert_ne!(last(&without), [0, 1000, 0], "{without:?}");
    assert_eq!(last(&with), [0, 1000, 0], "{with:?}");
    // King and rook against king: won for White, lost for Black, from the first iteration on.
    let lines = run(&[
        SHOW,
        &path,
        "position fen 8/8/8/4k3/8/8/8/KR6 w - - 0 1",
        "go depth 3",
        "position fen 8/8/8/4k3/8/8/8/KR6 b - - 0 1",
        "go depth 3",
    ]);
    let groups = searches(&lines);
    assert!(
        groups[0].iter().all(|l| wdl(l) == Some([1000, 0, 0])),
        "{lines:?}"
    );
    assert!(
        groups[1].iter().all(|l| wdl(l) == Some([0, 0, 1000])),
        "{lines:?}"
    );
}

#[test]
fn eval_prints_the_static_wdl() {
    let lines = run(&["position startpos", "eval"]);
    let line = lines
        .iter()
        .find(|l| l.starts_with("info string WDL: "))
        .expect("a WDL line");
    assert!(line.contains("material 78"), "{line}");
    let out = Command::new(env!("CARGO_BIN_EXE_minkowski"))
        .args(["eval", "8/8/8/4k3/8/8/8/KQ6 w - - 0 1"])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().last().unwrap_or_default();
    // A queen up is a won position: (nearly) all wins.
    assert!(
        last.contains("(wdl 1000 0 0)") || last.starts_with("WDL: win 9"),
        "{last}"
    );
    assert!(last.contains("material 9"), "{last}");
}
