//! Turning one input line into a typed [`Command`].
//!
//! The first word picks the command. The simple commands (`uci`, `isready`, `ucinewgame`, `stop`,
//! `ponderhit`, `quit`, `debug`, `register`) go through vampirc-uci. `position`, `go` and
//! `setoption` are tokenized here, because vampirc-uci gets them wrong in ways a GUI would
//! notice (see the notes on each parser). Nothing in this file depends on the current position:
//! moves are checked for syntax only, and legality is checked where the position is known.

use std::num::IntErrorKind;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Duration;

use shakmaty::uci::UciMove;
use thiserror::Error;
use vampirc_uci::UciMessage;

use crate::openings::{OpeningRequest, PLIES_AFTER_BOOK, PLIES_WITHOUT_BOOK};
use crate::search::Limits;

use crate::options::echo;

/// Deepest `go depth` passed to the search; deeper requests are clamped (with a notice).
pub const MAX_GO_DEPTH: u32 = 255;

/// Deepest `go perft` accepted.
pub const MAX_PERFT_DEPTH: u32 = 64;

/// Most openings one `genfens` makes.
pub const MAX_GENFENS: usize = 1_000_000;

/// One command from the GUI, parsed but not yet checked against the current position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`: identify and list the options.
    Uci,
    /// `debug on|off`.
    Debug(bool),
    /// `isready`.
    IsReady,
    /// `register ...` (Minkowski needs no registration).
    Register,
    /// `setoption name <name> [value <value>]`.
    SetOption {
        /// The option name as typed (words joined by one space).
        name: String,
        /// The value as typed, if `value` was given.
        value: Option<String>,
    },
    /// `ucinewgame`.
    UciNewGame,
    /// `position startpos|fen <fen> [moves ...]`.
    Position(PositionSpec),
    /// `go ...`: the search's own [`Limits`], values already clamped to sane ranges (see
    /// [`parse_go`]). `limits.searchmoves` stays empty: moves are checked against the position
    /// only when the search starts, from `searchmoves` (syntax-checked here).
    Go {
        /// Everything the search may spend.
        limits: Limits,
        /// `searchmoves`, syntax-checked only.
        searchmoves: Vec<UciMove>,
    },
    /// Non-standard `go perft <n>`: count leaves instead of searching.
    Perft(u32),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
    /// Non-standard `d`: show the board, FEN and key.
    Display,
    /// Non-standard `eval`: the evaluation of the current position.
    Eval,
    /// Non-standard `bench [depth]`: the bench positions to this depth (default: the bench's).
    Bench(Option<u32>),
    /// OpenBench's `genfens N seed S book <None|FILE> [plies K]`: random balanced openings.
    GenFens {
        /// Count, seed and plies (the plies default by whether there is a book).
        request: OpeningRequest,
        /// The book file, or `None`.
        book: Option<String>,
    },
}

/// `position` arguments: where to start and which moves to play, as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionSpec {
    /// `None` for `startpos`, else the FEN fields joined by single spaces.
    pub fen: Option<String>,
    /// The move tokens after `moves`.
    pub moves: Vec<String>,
}

/// A successfully parsed line: the command and anything that was ignored or adjusted on the way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    /// What to do.
    pub command: Command,
    /// Problems that did not stop the command (each becomes an `info string`).
    pub notices: Vec<String>,
}

/// Why a line could not be turned into a command.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum CommandError {
    /// The first word is not a command.
    #[error(
        "unknown command '{0}' (known: uci isready ucinewgame setoption position go stop ponderhit quit debug register d eval bench genfens)"
    )]
    Unknown(String),
    /// Arena's protocol auto-detection sends `xboard` first.
    #[error("'xboard' is not supported: Minkowski speaks UCI only (send 'uci')")]
    Xboard,
    /// `debug` without `on` or `off`.
    #[error("debug: expected 'on' or 'off', got '{0}'")]
    Debug(String),
    /// A bad `position` command.
    #[error("position: {0}")]
    Position(#[from] PositionSyntaxError),
    /// A `go` command that cannot be run at all.
    #[error("go: {0}")]
    Go(#[from] GoError),
    /// A bad `setoption` command.
    #[error("setoption: {0}")]
    SetOption(#[from] SetOptionSyntaxError),
    /// A bad `genfens` command.
    #[error(
        "genfens: {0} (usage: genfens N seed S book <None|FILE> [plies K], N from 1 to {MAX_GENFENS})"
    )]
    GenFens(String),
}

/// Syntax errors in `position`.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum PositionSyntaxError {
    /// Neither `startpos` nor `fen` follows `position`.
    #[error("expected 'startpos' or 'fen', got {0}")]
    MissingStart(String),
    /// `fen` with nothing after it.
    #[error("'fen' needs a FEN")]
    MissingFen,
    /// More than the six FEN fields before `moves`.
    #[error("a FEN has at most 6 fields, got {0} (missing 'moves'?)")]
    TooManyFenFields(usize),
    /// Something other than `moves` after the start position.
    #[error("expected 'moves' after the start position, got '{0}'")]
    ExpectedMoves(String),
}

/// `go` commands that are refused as a whole.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum GoError {
    /// `go perft` without a usable depth.
    #[error("perft needs a depth from 0 to {MAX_PERFT_DEPTH}, got {0}")]
    PerftDepth(String),
}

/// Syntax errors in `setoption`.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum SetOptionSyntaxError {
    /// `setoption` not followed by `name`.
    #[error("expected 'name <option> [value <value>]', got {0}")]
    MissingName(String),
    /// `setoption name` with no name, or `setoption name value 3`.
    #[error("the option name is empty")]
    EmptyName,
}

/// Parse one line. `Ok(None)` means a blank line (answered with silence).
pub fn parse_line(line: &str) -> Result<Option<Parsed>, CommandError> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some((&first, args)) = tokens.split_first() else {
        return Ok(None);
    };
    // Keywords are matched case-insensitively; arguments (FENs!) keep their case.
    let keyword = first.to_ascii_lowercase();
    let mut notices = Vec::new();
    let command = match keyword.as_str() {
        "uci" | "isready" | "ucinewgame" | "stop" | "ponderhit" | "quit" => {
            if !args.is_empty() {
                notices.push(format!(
                    "ignored unexpected text after '{keyword}': {}",
                    echo(&args.join(" "))
                ));
            }
            simple_command(&keyword).ok_or_else(|| CommandError::Unknown(echo(first)))?
        }
        "debug" => {
            let arg = args.join(" ");
            match simple_command(&format!("debug {arg}")) {
                Some(cmd) => cmd,
                None => return Err(CommandError::Debug(echo(&arg))),
            }
        }
        "register" => Command::Register,
        "setoption" => parse_setoption(args)?,
        "position" => Command::Position(parse_position(args)?),
        "go" => parse_go(args, &mut notices)?,
        "bench" if args.len() == 1 => match args[0].parse::<u32>() {
            Ok(depth @ 1..=64) => Command::Bench(Some(depth)),
            _ => {
                notices.push(format!(
                    "bench: depth must be a whole number from 1 to 64, not {}; using the default",
                    echo(args[0])
                ));
                Command::Bench(None)
            }
        },
        "d" | "eval" | "bench" => {
            if !args.is_empty() {
                notices.push(format!(
                    "ignored unexpected text after '{keyword}': {}",
                    echo(&args.join(" "))
                ));
            }
            match keyword.as_str() {
                "d" => Command::Display,
                "eval" => Command::Eval,
                _ => Command::Bench(None),
            }
        }
        "genfens" => parse_genfens(args, &mut notices)?,
        "xboard" => return Err(CommandError::Xboard),
        _ => return Err(CommandError::Unknown(echo(first))),
    };
    Ok(Some(Parsed { command, notices }))
}

/// Parse a command without arguments (or `debug on|off`) with vampirc-uci.
///
/// Only lines whose first word was already matched exactly reach this: vampirc-uci accepts
/// `isreadyX` as `isready`. It also panics on some inputs (`go depth 300`), so the call is wrapped
/// in `catch_unwind` even though these simple lines never trigger that.
fn simple_command(line: &str) -> Option<Command> {
    let text = format!("{line}\n");
    let message = catch_unwind(AssertUnwindSafe(|| vampirc_uci::parse_one(&text))).ok()?;
    match message {
        UciMessage::Uci => Some(Command::Uci),
        UciMessage::IsReady => Some(Command::IsReady),
        UciMessage::UciNewGame => Some(Command::UciNewGame),
        UciMessage::Stop => Some(Command::Stop),
        UciMessage::PonderHit => Some(Command::PonderHit),
        UciMessage::Quit => Some(Command::Quit),
        UciMessage::Debug(on) => Some(Command::Debug(on)),
        _ => None,
    }
}

/// `position startpos|fen <fen> [moves ...]`.
///
/// Parsed by hand: vampirc-uci rejects Shredder-FEN castling (`HAha`, which Cute Chess sends for
/// every Chess960 game), needs all six FEN fields, truncates long counters, and keeps only the
/// recognised prefix of a bad move list, which would silently leave a wrong position.
fn parse_position(args: &[&str]) -> Result<PositionSpec, PositionSyntaxError> {
    let Some((&start, rest)) = args.split_first() else {
        return Err(PositionSyntaxError::MissingStart("nothing".to_owned()));
    };
    let (fen, rest) = match start.to_ascii_lowercase().as_str() {
        "startpos" => (None, rest),
        "fen" => {
            let end = rest
                .iter()
                .position(|t| t.eq_ignore_ascii_case("moves"))
                .unwrap_or(rest.len());
            let fields = &rest[..end];
            if fields.is_empty() {
                return Err(PositionSyntaxError::MissingFen);
            }
            if fields.len() > 6 {
                return Err(PositionSyntaxError::TooManyFenFields(fields.len()));
            }
            (Some(fields.join(" ")), &rest[end..])
        }
        _ => {
            return Err(PositionSyntaxError::MissingStart(format!(
                "'{}'",
                echo(start)
            )));
        }
    };
    let moves = match rest.split_first() {
        None => Vec::new(),
        Some((&kw, moves)) if kw.eq_ignore_ascii_case("moves") => {
            moves.iter().map(|m| (*m).to_owned()).collect()
        }
        Some((&other, _)) => return Err(PositionSyntaxError::ExpectedMoves(echo(other))),
    };
    Ok(PositionSpec { fen, moves })
}

/// Words that start a `go` parameter.
const GO_KEYWORDS: [&str; 13] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
];

fn is_go_keyword(token: &str) -> bool {
    GO_KEYWORDS.iter().any(|k| k.eq_ignore_ascii_case(token))
}

/// `go` with every parameter.
///
/// Parsed by hand: vampirc-uci panics on `go depth 256` (a `u8` unwrap), drops the `ponder` flag
/// of `go ponder wtime ...` (it keeps only one time-control kind), caps large numbers, ignores
/// unknown words silently and does not know `go perft`.
///
/// Nonsense values never refuse the search: each is clamped or ignored with a notice, so the GUI
/// always gets a `bestmove`. Only an unusable `perft` depth refuses the command. The result is a
/// [`Command::Go`] with the search's [`Limits`], or a [`Command::Perft`].
pub fn parse_go(args: &[&str], notices: &mut Vec<String>) -> Result<Command, GoError> {
    let mut limits = Limits::default();
    let mut searchmoves = Vec::new();
    let mut perft = None;
    let mut i = 0;
    while i < args.len() {
        let key = args[i].to_ascii_lowercase();
        i += 1;
        match key.as_str() {
            "infinite" => limits.infinite = true,
            "ponder" => limits.ponder = true,
            "searchmoves" => {
                while i < args.len() && !is_go_keyword(args[i]) {
                    match UciMove::from_ascii(args[i].as_bytes()) {
                        Ok(m) => searchmoves.push(m),
                        Err(_) => notices.push(format!(
                            "go searchmoves: '{}' is not a move in UCI notation; ignored",
                            echo(args[i])
                        )),
                    }
                    i += 1;
                }
                if searchmoves.is_empty() {
                    notices.push("go searchmoves: no moves given; searching all moves".into());
                }
            }
            "perft" => {
                let value = args.get(i).copied();
                if value.is_some() {
                    i += 1;
                }
                let depth = value
                    .and_then(|v| v.parse::<u32>().ok())
                    .filter(|d| *d <= MAX_PERFT_DEPTH);
                match depth {
                    Some(d) => perft = Some(d),
                    None => {
                        return Err(GoError::PerftDepth(
                            value.map_or("nothing".into(), |v| format!("'{}'", echo(v))),
                        ));
                    }
                }
            }
            "wtime" | "btime" | "winc" | "binc" | "movestogo" | "depth" | "nodes" | "mate"
            | "movetime" => {
                let value = match args.get(i) {
                    Some(v) if !is_go_keyword(v) => {
                        i += 1;
                        v
                    }
                    _ => {
                        notices.push(format!("go: '{key}' needs a value; ignored"));
                        continue;
                    }
                };
                let Some(n) = parse_int(value) else {
                    notices.push(format!(
                        "go: {key} '{}' is not a whole number; ignored",
                        echo(value)
                    ));
                    continue;
                };
                set_go_value(&mut limits, &key, n, notices);
            }
            _ => notices.push(format!("go: unknown parameter '{}' ignored", echo(&key))),
        }
    }
    Ok(match perft {
        Some(depth) => Command::Perft(depth),
        None => Command::Go {
            limits,
            searchmoves,
        },
    })
}

/// Store one numeric `go` value, clamping it to what the search can use.
fn set_go_value(limits: &mut Limits, key: &str, n: i128, notices: &mut Vec<String>) {
    let mut clamp = |lo: i128, hi: i128| -> i128 {
        let c = n.clamp(lo, hi);
        if c != n {
            notices.push(format!("go: {key} {n} is out of range; using {c}"));
        }
        c
    };
    // Every clamp keeps the value inside its target type, so the casts below cannot wrap.
    let ms = |c: i128| c as i64;
    match key {
        "wtime" => limits.wtime = Some(ms(clamp(i64::MIN.into(), i64::MAX.into()))),
        "btime" => limits.btime = Some(ms(clamp(i64::MIN.into(), i64::MAX.into()))),
        "winc" => limits.winc = Some(ms(clamp(i64::MIN.into(), i64::MAX.into()))),
        "binc" => limits.binc = Some(ms(clamp(i64::MIN.into(), i64::MAX.into()))),
        "movestogo" => limits.movestogo = Some(clamp(1, u32::MAX.into()) as u32),
        "depth" => limits.depth = Some(clamp(1, MAX_GO_DEPTH.into()) as u32),
        "nodes" => limits.nodes = Some(clamp(1, u64::MAX.into()) as u64),
        "mate" => limits.mate = Some(clamp(1, u32::MAX.into()) as u32),
        "movetime" => {
            limits.movetime = Some(Duration::from_millis(clamp(0, u64::MAX.into()) as u64));
        }
        _ => {}
    }
}

/// A whole number, saturated if it has too many digits; `None` if it is not a number at all.
fn parse_int(token: &str) -> Option<i128> {
    match token.parse::<i128>() {
        Ok(n) => Some(n),
        Err(e) => match e.kind() {
            IntErrorKind::PosOverflow => Some(i128::MAX),
            IntErrorKind::NegOverflow => Some(i128::MIN),
            _ => None,
        },
    }
}

/// `genfens N seed S book <None|FILE> [plies K]`, as OpenBench sends it. `seed` (default 0),
/// `book` (default `None`) and `plies` may come in any order; other words are ignored with a
/// notice (OpenBench appends user-defined extras).
fn parse_genfens(args: &[&str], notices: &mut Vec<String>) -> Result<Command, CommandError> {
    let bad = |what: String| CommandError::GenFens(what);
    let count = match args.first().map(|n| n.parse::<usize>()) {
        Some(Ok(n @ 1..=MAX_GENFENS)) => n,
        Some(_) => return Err(bad(format!("bad count '{}'", echo(args[0])))),
        None => return Err(bad("no count".to_owned())),
    };
    let (mut seed, mut book, mut plies) = (0, None, None);
    let mut words = args[1..].iter();
    while let Some(&word) = words.next() {
        let key = word.to_ascii_lowercase();
        if !matches!(key.as_str(), "seed" | "book" | "plies") {
            notices.push(format!("genfens: ignored '{}'", echo(word)));
            continue;
        }
        let Some(&value) = words.next() else {
            return Err(bad(format!("'{key}' needs a value")));
        };
        let number = || bad(format!("{key} '{}' is not a usable number", echo(value)));
        match key.as_str() {
            "seed" => seed = value.parse::<u64>().map_err(|_| number())?,
            "plies" => {
                plies = Some(
                    value
                        .parse::<u32>()
                        .ok()
                        .filter(|p| *p <= 64)
                        .ok_or_else(number)?,
                )
            }
            _ if value.eq_ignore_ascii_case("none") => book = None,
            _ => book = Some(value.to_owned()),
        }
    }
    let default_plies = if book.is_some() {
        PLIES_AFTER_BOOK
    } else {
        PLIES_WITHOUT_BOOK
    };
    let request = OpeningRequest {
        count,
        seed,
        plies: plies.unwrap_or(default_plies),
    };
    Ok(Command::GenFens { request, book })
}

/// `setoption name <name words> [value <value words>]`.
///
/// Parsed by hand so that names and values with spaces (`Move Overhead`) and case differences
/// are handled in one place, next to the option table that checks them.
fn parse_setoption(args: &[&str]) -> Result<Command, SetOptionSyntaxError> {
    match args.first() {
        Some(t) if t.eq_ignore_ascii_case("name") => {}
        Some(t) => return Err(SetOptionSyntaxError::MissingName(format!("'{}'", echo(t)))),
        None => return Err(SetOptionSyntaxError::MissingName("nothing".into())),
    }
    let rest = &args[1..];
    let split = rest.iter().position(|t| t.eq_ignore_ascii_case("value"));
    let (name, value) = match split {
        Some(at) => (&rest[..at], Some(rest[at + 1..].join(" "))),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err(SetOptionSyntaxError::EmptyName);
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value,
    })
}
