//! One UCI input line through the command parser, and a `position` through the game set-up
//! (FEN, Shredder-FEN, move list). libfuzzer-sys turns any panic, even one the UCI loop would
//! catch, into a crash.
#![no_main]

use libfuzzer_sys::fuzz_target;
use minkowski::options::echo;
use minkowski::uci::command::{Command, parse_line};
use minkowski::uci::game::Game;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for line in text.split('\n') {
        let reply = echo(line);
        assert!(
            !reply.chars().any(char::is_control),
            "control character echoed"
        );
        if let Ok(Some(parsed)) = parse_line(line)
            && let Command::Position(spec) = parsed.command
        {
            let _ = Game::from_spec(&spec);
        }
    }
});
