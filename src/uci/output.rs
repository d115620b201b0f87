//! Everything the engine writes: one shared, line-flushed writer and the formatting of UCI
//! messages.
//!
//! vampirc-uci formats the messages it gets right (`id`, `uciok`, `readyok`, `option`,
//! `info string`). `info depth ...`, `info currmove ...` and `bestmove` are written here: vampirc
//! writes `currmovenum` where the spec and Cute Chess read `currmovenumber`, holds depths in a
//! `u8` and mate distances in an `i8`, writes only one of two score bounds, and cannot write the
//! null move `0000`.

use std::io::Write;
use std::sync::{Arc, Mutex, MutexGuard};

use shakmaty::{Chess, Move, Position};
use vampirc_uci::{UciInfoAttribute, UciMessage};

use super::game::move_to_uci;
use crate::search::tb::TbVerdict;
use crate::search::{Bound, CurrentMoveInfo, IterationInfo, Reporter, Score, SearchResult};
use crate::wdl::Wdl;

/// The engine's output, shared by the command loop and the search thread. Every line is written
/// whole under a lock and flushed at once, so lines never interleave or linger in a buffer.
#[derive(Debug)]
pub struct Output<W: Write> {
    inner: Arc<Mutex<W>>,
}

impl<W: Write> Clone for Output<W> {
    fn clone(&self) -> Self {
        Output {
            inner: Arc::clone(&self.inner),
        }
    }
}

impl<W: Write> Output<W> {
    /// Wrap a writer.
    pub fn new(writer: W) -> Output<W> {
        Output {
            inner: Arc::new(Mutex::new(writer)),
        }
    }

    fn lock(&self) -> MutexGuard<'_, W> {
        // A panic while holding the lock leaves at worst a half-written line; keep writing.
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Write one line and flush. A closed output (the GUI went away) is not an error worth
    /// stopping for: the loop ends when input ends.
    pub fn line(&self, text: &str) {
        let mut w = self.lock();
        let _ = writeln!(w, "{text}");
        let _ = w.flush();
    }

    /// Write several lines in one go (nothing from another thread comes between them).
    pub fn lines<S: AsRef<str>>(&self, texts: &[S]) {
        let mut w = self.lock();
        for t in texts {
            let _ = writeln!(w, "{}", t.as_ref());
        }
        let _ = w.flush();
    }

    /// Write a message formatted by vampirc-uci.
    pub fn message(&self, message: &UciMessage) {
        self.line(&message.to_string());
    }

    /// `info string <text>`, kept on one line.
    pub fn info_string(&self, text: impl std::fmt::Display) {
        let text = text.to_string().replace(['\r', '\n'], " ");
        self.message(&UciMessage::Info(vec![UciInfoAttribute::String(text)]));
    }
}

/// `info depth ... score ... pv ...` for one iteration; with `wdl_material` (the root's
/// material, [`crate::wdl::material`], given when `UCI_ShowWDL` is on) also `wdl W D L` after
/// the score, as Stockfish writes it.
#[must_use]
pub fn iteration_line(info: &IterationInfo, chess960: bool, wdl_material: Option<u32>) -> String {
    let mut line = format!(
        "info depth {} seldepth {} multipv {} score {}",
        info.depth,
        info.seldepth.max(info.depth),
        info.multipv.max(1),
        score_text(info.score)
    );
    match info.bound {
        Bound::Exact => {}
        Bound::Lower => line.push_str(" lowerbound"),
        Bound::Upper => line.push_str(" upperbound"),
    }
    if let Some(material) = wdl_material {
        line.push_str(&format!(" wdl {}", wdl_of(info, material)));
    }
    line.push_str(&format!(
        " nodes {} nps {} hashfull {}",
        info.nodes,
        info.nps,
        info.hashfull.min(1000)
    ));
    // Only with tables in use, so that lines without them stay as they were.
    if info.tbhits > 0 {
        line.push_str(&format!(" tbhits {}", info.tbhits));
    }
    line.push_str(&format!(" time {}", info.time.as_millis()));
    // An empty `pv` confuses GUIs; leave the word out instead.
    if !info.pv.is_empty() {
        line.push_str(" pv");
        for m in &info.pv {
            line.push(' ');
            line.push_str(&move_to_uci(*m, chess960));
        }
    }
    line
}

/// The chances `info ... wdl` shows: the tables' verdict on the root when there is one (the
/// score may still be an evaluation), else the model's reading of the score.
#[must_use]
pub fn wdl_of(info: &IterationInfo, material: u32) -> Wdl {
    match info.root_tb {
        Some(TbVerdict::Win) => Wdl::WIN,
        Some(TbVerdict::Draw) => Wdl::DRAW,
        Some(TbVerdict::Loss) => Wdl::LOSS,
        None => Wdl::from_score(info.score, material),
    }
}

fn score_text(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}

/// `info depth d currmove m currmovenumber n`.
#[must_use]
pub fn current_move_line(info: &CurrentMoveInfo, chess960: bool) -> String {
    format!(
        "info depth {} currmove {} currmovenumber {}",
        info.depth,
        move_to_uci(info.mv, chess960),
        info.number
    )
}

/// The `bestmove` line for a finished search of `root`, and a notice if the search's answer had
/// to be replaced.
///
/// The move is checked against the legal moves of `root`: a missing or illegal move from the
/// search is replaced by the first legal one (a GUI forfeits the game on an illegal move), and
/// `0000` is sent only when there is no legal move. `ponder` is added when the principal
/// variation has a legal reply.
#[must_use]
pub fn bestmove_line(
    root: &Chess,
    result: Option<&SearchResult>,
    searchmoves: &[Move],
    chess960: bool,
) -> (String, Option<String>) {
    let legal = root.legal_moves();
    let allowed =
        |m: &Move| legal.contains(m) && (searchmoves.is_empty() || searchmoves.contains(m));
    let proposed = result.and_then(|r| r.best_move);
    let mut notice = None;
    let best = match proposed {
        Some(m) if allowed(&m) => Some(m),
        _ => {
            let fallback = legal
                .iter()
                .copied()
                .find(|m| allowed(m))
                .or_else(|| legal.first().copied());
            if fallback.is_some() {
                notice = Some(match proposed {
                    Some(m) => format!(
                        "search returned the illegal move {}; playing the first legal move",
                        move_to_uci(m, chess960)
                    ),
                    None => "search returned no move; playing the first legal move".to_owned(),
                });
            }
            fallback
        }
    };
    let Some(best) = best else {
        return ("bestmove 0000".to_owned(), notice);
    };
    let mut line = format!("bestmove {}", move_to_uci(best, chess960));
    let reply = result.and_then(|r| {
        r.ponder_move.or_else(|| {
            (r.pv.first() == Some(&best))
                .then(|| r.pv.get(1).copied())
                .flatten()
        })
    });
    if let Some(reply) = reply {
        let mut after = root.clone();
        after.play_unchecked(best);
        if after.is_legal(reply) {
            line.push_str(&format!(" ponder {}", move_to_uci(reply, chess960)));
        }
    }
    (line, notice)
}

/// The [`Reporter`] the search thread writes `info` lines through.
#[derive(Debug)]
pub struct UciReporter<W: Write> {
    /// Where to write.
    pub out: Output<W>,
    /// Castling notation.
    pub chess960: bool,
    /// The root's material when `UCI_ShowWDL` is on (`None`: no `wdl` in `info`).
    pub wdl_material: Option<u32>,
}

impl<W: Write> Reporter for UciReporter<W> {
    fn on_iteration(&mut self, info: &IterationInfo) {
        self.out
            .line(&iteration_line(info, self.chess960, self.wdl_material));
    }

    fn on_current_move(&mut self, info: &CurrentMoveInfo) {
        self.out.line(&current_move_line(info, self.chess960));
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use shakmaty::Square;

    use super::*;

    #[test]
    fn info_lines() {
        let pos = Chess::default();
        let e4 = pos
            .legal_moves()
            .into_iter()
            .find(|m| m.to() == Square::E4)
            .unwrap();
        let info = IterationInfo {
            depth: 300,
            seldepth: 301,
            multipv: 1,
            score: Score::Mate(-200),
            bound: Bound::Upper,
            nodes: 5,
            nps: 10,
            hashfull: 3,
            tbhits: 0,
            time: Duration::from_millis(1234),
            pv: vec![e4],
            root_tb: None,
        };
        assert_eq!(
            iteration_line(&info, false, None),
            "info depth 300 seldepth 301 multipv 1 score mate -200 upperbound nodes 5 nps 10 hashfull 3 time 1234 pv e2e4"
        );
        assert_eq!(
            iteration_line(&info, false, Some(78)),
            "info depth 300 seldepth 301 multipv 1 score mate -200 upperbound wdl 0 0 1000 nodes 5 nps 10 hashfull 3 time 1234 pv e2e4"
        );
        let cur = CurrentMoveInfo {
            depth: 3,
            mv: e4,
            number: 7,
            time: Duration::ZERO,
        };
        assert_eq!(
            current_move_line(&cur, true),
            "info depth 3 currmove e2e4 currmovenumber 7"
        );
    }

    #[test]
    fn wdl_follows_the_score_unless_the_tables_know_better() {
        let mut info = IterationInfo {
            depth: 10,
            seldepth: 12,
            multipv: 1,
            score: Score::Cp(35),
            bound: Bound::Exact,
            nodes: 1,
            nps: 1,
            hashfull: 0,
            tbhits: 0,
            time: Duration::ZERO,
            pv: vec![],
            root_tb: None,
        };
        assert_eq!(
            wdl_of(&info, 60),
            Wdl::from_value(crate::value::Value(35), 60)
        );
        assert_eq!(wdl_of(&info, 60).flipped(), {
            info.score = Score::Cp(-35);
            wdl_of(&info, 60)
        });
        info.score = Score::Mate(3);
        assert_eq!(wdl_of(&info, 60), Wdl::WIN);
        info.score = Score::Mate(-1);
        assert_eq!(wdl_of(&info, 60), Wdl::LOSS);
        // A tablebase win read as a centipawn score is certain too.
        info.score = Score::Cp(crate::value::Value::tb_win_in(9).0);
        assert_eq!(wdl_of(&info, 5), Wdl::WIN);
        // The root's verdict wins over an evaluation that says otherwise.
        info.score = Score::Cp(420);
        for (verdict, wdl) in [
            (TbVerdict::Draw, Wdl::DRAW),
            (TbVerdict::Win, Wdl::WIN),
            (TbVerdict::Loss, Wdl::LOSS),
        ] {
            info.root_tb = Some(verdict);
            assert_eq!(wdl_of(&info, 5), wdl);
            assert!(iteration_line(&info, false, Some(5)).contains(&format!(" wdl {wdl} nodes")));
        }
    }

    #[test]
    fn bestmove_is_always_legal() {
        let pos = Chess::default();
        let (line, notice) = bestmove_line(&pos, None, &[], false);
        assert!(line.starts_with("bestmove ") && line != "bestmove 0000");
        assert!(notice.is_some());
        let mated: Chess = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Chess960)
            .unwrap();
        assert_eq!(bestmove_line(&mated, None, &[], false).0, "bestmove 0000");
    }
}
