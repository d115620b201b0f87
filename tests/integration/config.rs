//! engine.toml: precedence (built-in < file < setoption), problems reported with key and line,
//! and an engine that starts on its defaults whatever the file says.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc::channel;
use std::thread;
use std::time::Duration;

use minkowski::config::{Config, ConfigError};
use minkowski::options::{EngineOptions, OPTIONS};

const TIMEOUT: Duration = Duration::from_secs(20);

/// A fresh directory under the target dir, holding `engine.toml` with `text` if given.
fn dir_with(name: &str, text: Option<&str>) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("config-tests")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    if let Some(text) = text {
        std::fs::write(dir.join("engine.toml"), text).expect("write engine.toml");
    }
    dir
}

/// Run the binary in `dir` with `args`, feed it `input`, and return (stdout lines, stderr, exit
/// code). The whole run must finish within the timeout.
fn run_engine(dir: &Path, args: &[&str], input: &str) -> (Vec<String>, String, Option<i32>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_minkowski"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the engine");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input.as_bytes()).expect("write");
    drop(stdin);
    let stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let (tx, rx) = channel();
    thread::spawn(move || {
        let lines: Vec<String> = BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
            .collect();
        let mut err = String::new();
        let _ = stderr.read_to_string(&mut err);
        let _ = tx.send((lines, err));
    });
    let Ok((lines, err)) = rx.recv_timeout(TIMEOUT) else {
        let _ = child.kill();
        panic!("engine did not finish");
    };
    let status = child.wait().expect("wait");
    (lines, err, status.code())
}

const HANDSHAKE: &str = "uci\nisready\nposition startpos moves e2e4\ngo depth 1\nquit\n";

/// The engine answered the whole handshake: uciok, readyok, one bestmove, exit code 0.
fn assert_alive(lines: &[String], code: Option<i32>) {
    assert!(lines.iter().any(|l| l == "uciok"), "{lines:?}");
    assert!(lines.iter().any(|l| l == "readyok"), "{lines:?}");
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove ")).count(),
        1,
        "{lines:?}"
    );
    assert_eq!(code, Some(0));
}

fn option_line<'a>(lines: &'a [String], name: &str) -> &'a str {
    let prefix = format!("option name {name} type");
    lines
        .iter()
        .find(|l| l.starts_with(&prefix))
        .expect("option line")
}

#[test]
fn precedence_builtin_then_file_then_setoption() {
    let text = "[uci]\nHash = 64\n\"Move Overhead\" = 100\nUCI_Chess960 = true\n";
    let config = Config::from_toml(text, Path::new("engine.toml")).expect("valid");
    let builtin = EngineOptions::default();
    assert_eq!(config.options.hash_mb, 64);
    assert_eq!(config.options.move_overhead_ms, 100);
    assert!(config.options.chess960);
    assert_eq!(
        config.options.multipv, builtin.multipv,
        "keys not in the file keep the built-in"
    );
    let mut current = config.options.clone();
    current
        .set_from_text("Hash", Some("32"))
        .expect("setoption");
    assert_eq!(current.hash_mb, 32);
    assert_eq!(current.move_overhead_ms, 100);

    // The same through the binary: `uci` shows the file's values as defaults, setoption wins.
    let dir = dir_with("precedence", Some(text));
    let input = "uci\ndebug on\nsetoption name Hash value 32\nd\nposition fen \
                 1qnrkbbr/1pppppp1/p1n4p/8/P7/1P1N1P2/2PPP1PP/QN1RKBBR w HDhd - 0 9\n\
                 go depth 2 searchmoves e1d1\nquit\n";
    let (lines, _, code) = run_engine(&dir, &[], input);
    assert_eq!(
        option_line(&lines, "Hash"),
        "option name Hash type spin default 64 min 1 max 32768"
    );
    assert!(option_line(&lines, "Move Overhead").contains("default 100"));
    assert!(option_line(&lines, "MultiPV").contains("default 1 "));
    assert!(option_line(&lines, "UCI_Chess960").ends_with("default true"));
    assert!(
        lines.iter().any(|l| l == "info string Hash = 32"),
        "{lines:?}"
    );
    // UCI_Chess960 = true from the file: castling comes out king-takes-rook.
    assert!(
        lines.iter().any(|l| l.starts_with("bestmove e1d1")),
        "{lines:?}"
    );
    assert_eq!(code, Some(0));
}

#[test]
fn engine_toml_in_the_working_directory_is_read() {
    let dir = dir_with("cwd", Some("[uci]\nMultiPV = 4\n"));
    let (lines, err, code) = run_engine(&dir, &[], HANDSHAKE);
    assert!(option_line(&lines, "MultiPV").contains("default 4 "));
    assert!(
        !lines.iter().any(|l| l.starts_with("info string")),
        "{lines:?}"
    );
    assert!(err.is_empty(), "{err}");
    assert_alive(&lines, code);
}

#[test]
fn no_file_is_fine() {
    let dir = dir_with("none", None);
    let (lines, err, code) = run_engine(&dir, &[], HANDSHAKE);
    assert!(
        !lines.iter().any(|l| l.starts_with("info string")),
        "{lines:?}"
    );
    assert!(err.is_empty(), "{err}");
    assert_alive(&lines, code);
}

/// Each bad file: the engine starts on the built-in defaults, names the problem (key and line)
/// in an `info string` before `uciok` and on stderr, and plays normally.
#[test]
fn invalid_files_are_reported_with_key_and_line_and_the_engine_still_starts() {
    let cases: [(&str, &str, &[&str]); 10] = [
        (
            "out-of-range",
            "# comment\n[uci]\nHash = 0\n",
            &["engine.toml:3:", "Hash", "from 1 to 32768"],
        ),
        (
            "unknown-key",
            "[uci]\nHash = 64\nHsh = 3\n",
            &["engine.toml:3:", "unknown key 'Hsh'"],
        ),
        (
            "wrong-type",
            "[uci]\n\nPonder = \"yes\"\n",
            &["engine.toml:3:", "Ponder", "true or false"],
        ),
        (
            "spin-as-text",
            "[uci]\nHash = \"64\"\n",
            &["engine.toml:2:", "Hash", "whole number"],
        ),
        (
            "button",
            "[uci]\n\"Clear Hash\" = true\n",
            &["engine.toml:2:", "Clear Hash", "button"],
        ),
        (
            "unknown-table",
            "[uci]\nHash = 64\n\n[search]\nx = 1\n",
            &["engine.toml:", "unknown table [search]"],
        ),
        ("not-toml", "[uci\nHash = 64\n", &["engine.toml:1:"]),
        (
            "top-level-key",
            "Hash = 64\n",
            &["engine.toml:1:", "[uci] or [eval]"],
        ),
        (
            "bad-weight",
            "[eval]\nfork_now = [1, 2]\nbishop_pair = [1]\n",
            &["engine.toml:3:", "bishop_pair", "[mg, eg]"],
        ),
        (
            "unknown-weight",
            "[eval]\nfork_now = [1, 2]\nknight_outpost = [1, 2]\n",
            &[
                "engine.toml:3:",
                "knight_outpost",
                "unknown evaluation weight",
            ],
        ),
    ];
    for (name, text, wanted) in cases {
        let dir = dir_with(name, Some(text));
        let (lines, err, code) = run_engine(&dir, &[], HANDSHAKE);
        let uciok = lines.iter().position(|l| l == "uciok").expect("uciok");
        let notices: Vec<&String> = lines[..uciok]
            .iter()
            .filter(|l| l.starts_with("info string "))
            .collect();
        assert!(
            notices.iter().any(|l| wanted.iter().all(|w| l.contains(w))),
            "{name}: wanted {wanted:?} in {notices:?}"
        );
        assert!(
            notices
                .iter()
                .any(|l| l.contains("starting on the built-in defaults")),
            "{name}: {notices:?}"
        );
        assert!(
            wanted.iter().all(|w| err.contains(w)),
            "{name}: stderr {err}"
        );
        // Defaults, not a partly applied file.
        assert!(
            option_line(&lines, "Hash").contains("default 16 "),
            "{name}"
        );
        assert_alive(&lines, code);
    }
}

#[test]
fn explicit_config_path_missing_or_present() {
    let dir = dir_with("explicit", Some("[uci]\nHash = 99\n"));
    let other = dir.join("other.toml");
    std::fs::write(&other, "[uci]\nHash = 48\n").expect("write");
    // --config wins over ./engine.toml.
    let (lines, _, code) = run_engine(&dir, &["--config", "other.toml"], HANDSHAKE);
    assert!(option_line(&lines, "Hash").contains("default 48 "));
    assert_alive(&lines, code);
    // A missing --config file is an error message, but the engine starts on the defaults.
    let (lines, err, code) = run_engine(&dir, &["--config", "missing.toml"], HANDSHAKE);
    assert!(err.contains("missing.toml: cannot read"), "{err}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string missing.toml: cannot read"))
    );
    assert!(option_line(&lines, "Hash").contains("default 16 "));
    assert_alive(&lines, code);
}

#[test]
fn every_problem_in_a_file_is_listed_in_line_order() {
    let text = "[uci]\nThreads = 0\nMultiPV = 0\nFoo = 1\n";
    let errors = Config::from_toml(text, Path::new("x.toml")).expect_err("invalid");
    let lines: Vec<Option<usize>> = errors.iter().map(ConfigError::line).collect();
    assert_eq!(lines, [Some(2), Some(3), Some(4)]);
    let text: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert!(text[0].starts_with("x.toml:2: [uci] Threads"), "{text:?}");
    assert!(text[2].contains("unknown key 'Foo'"), "{text:?}");
    // The list of known keys comes from the option table: every option a file can set, quoted
    // where TOML needs quotes, and no button.
    assert!(
        text[2].ends_with(
            "(known: Hash, PawnKingHash, Threads, MultiPV, Ponder, \"Move Overhead\", UCI_Chess960, \
                 SyzygyPath, SyzygyProbeDepth, SyzygyProbeLimit, Syzygy50MoveRule, UCI_ShowWDL, \
                 UCI_LimitStrength, UCI_Elo, StrengthSeed)"
        ),
        "{text:?}"
    );
}

#[test]
fn eval_weights_are_kept_by_name() {
    let text = "[eval]\nkbnk_corner = [20, 10]\n\"material.knight\" = [-5, 12]\n";
    let config = Config::from_toml(text, Path::new("engine.toml")).expect("valid");
    assert_eq!(config.eval.get("kbnk_corner"), Some(&[20, 10]));
    assert_eq!(config.eval.get("material.knight"), Some(&[-5, 12]));
    assert_eq!(
        config.weights().get("material.knight"),
        Some(minkowski::eval::score::S(-5, 12))
    );
    for bad in [
        "[eval]\nfork_now = [1, 2, 3]\n",
        "[eval]\nfork_now = [1.5, 2]\n",
        "[eval]\nfork_now = 3\n",
        "[eval]\nfork_now = [1, 9999999999]\n",
        "[eval]\nknight_outpost = [1, 2]\n",
    ] {
        let errors = Config::from_toml(bad, Path::new("engine.toml")).expect_err(bad);
        assert_eq!(errors[0].line(), Some(2), "{bad}");
    }
}

#[test]
fn the_shipped_engine_toml_documents_every_option_at_its_default() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("engine.toml");
    let text = std::fs::read_to_string(&path).expect("engine.toml in the repo");
    let config = Config::from_toml(&text, &path).expect("the shipped file is valid");
    assert_eq!(config.options, EngineOptions::default());
    // Uncommenting every `# key = value` line must give a valid file with the same values.
    let uncommented: String = text
        .lines()
        .map(|l| match l.strip_prefix("# ") {
            Some(rest) if rest.contains(" = ") => rest,
            _ => l,
        })
        .map(|l| format!("{l}\n"))
        .collect();
    let config = Config::from_toml(&uncommented, &path).expect("uncommented file is valid");
    assert_eq!(
        config.options,
        EngineOptions::default(),
        "commented values are the defaults"
    );
    for spec in OPTIONS.iter().filter(|s| s.name != "Clear Hash") {
        let key = if spec.name.contains(' ') {
            format!("\"{}\"", spec.name)
        } else {
            spec.name.to_owned()
        };
        assert!(
            text.contains(&format!("# {key} = ")),
            "engine.toml lacks {key}"
        );
    }
}

/// The `[eval]` listing of engine.toml as the weights declare it: every weight but the
/// piece-square entries, commented out at its default, in declaration order.
fn eval_listing() -> String {
    let mut weights = minkowski::eval::weights::Weights::default();
    let mut listing = String::new();
    weights.for_each_mut(|name, s| {
        if name.starts_with("psqt.") {
            return;
        }
        // Dotted names are quoted keys in TOML.
        let key = if name.contains('.') {
            format!("\"{name}\"")
        } else {
            name.to_owned()
        };
        listing.push_str(&format!("# {key} = [{}, {}]\n", s.mg(), s.eg()));
    });
    listing
}

/// engine.toml's `[eval]` listing is generated, not kept by hand: it must equal
/// [`eval_listing`]. After a weight is added or refitted, `MINKOWSKI_BLESS=1 cargo test --test
/// integration config::` rewrites it.
#[test]
fn shipped_engine_toml_lists_every_eval_weight_at_its_default() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/engine.toml");
    let text = std::fs::read_to_string(path).expect("engine.toml in the repo");
    let (head, listing) = text
        .split_once("[eval]\n")
        .expect("engine.toml has an [eval] table, last");
    let expected = eval_listing();
    if std::env::var_os("MINKOWSKI_BLESS").is_some() {
        std::fs::write(path, format!("{head}[eval]\n{expected}")).expect("write engine.toml");
        return;
    }
    assert!(
        listing == expected,
        "engine.toml's [eval] listing is out of date: run MINKOWSKI_BLESS=1 cargo test --test \
         integration config::"
    );
}

/// `PawnKingHash` (KiB per thread): engine.toml sets its default, `setoption` changes it, an
/// out-of-range value is refused with a message and the engine plays on with the value it had.
#[test]
fn pawn_king_hash_is_an_option_of_the_file_and_the_gui() {
    let text = "[uci]\nPawnKingHash = 256\n";
    let config = Config::from_toml(text, Path::new("engine.toml")).expect("valid");
    assert_eq!(config.options.pawn_king_kib, 256);
    assert!(Config::from_toml("[uci]\nPawnKingHash = 0\n", Path::new("engine.toml")).is_err());

    let dir = dir_with("pawn_king_hash", Some(text));
    let input = "uci\ndebug on\nsetoption name PawnKingHash value 0\n\
                 setoption name PawnKingHash value 64\nisready\nucinewgame\n\
                 position startpos moves e2e4\ngo depth 4\nquit\n";
    let (lines, _, code) = run_engine(&dir, &[], input);
    assert_eq!(
        option_line(&lines, "PawnKingHash"),
        "option name PawnKingHash type spin default 256 min 1 max 65536"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string setoption: option 'PawnKingHash' must be from 1")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l == "info string PawnKingHash = 64"),
        "{lines:?}"
    );
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove ")).count(),
        1,
        "{lines:?}"
    );
    assert_eq!(code, Some(0));
}
