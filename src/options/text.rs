//! Options as people type them: `setoption name ... value ...` text parsed into a typed value
//! ([`EngineOptions::set_from_text`]: names matched loosely, numbers and booleans read, `<empty>`
//! for an empty string), and user input quoted back in messages ([`echo`]: shortened, control
//! characters escaped).

use super::table::{OptionKind, OptionSpec, find_option};
use super::values::{EngineOptions, OptionError, OptionValue};

impl EngineOptions {
    /// Set an option from `setoption` text. Returns which option changed (buttons report being
    /// pressed); on error nothing changes.
    ///
    /// ```
    /// use minkowski::options::{EngineOptions, OptionId};
    /// let mut o = EngineOptions::default();
    /// assert_eq!(o.set_from_text("move overhead", Some("100")).unwrap().id, OptionId::MoveOverhead);
    /// assert_eq!(o.move_overhead_ms, 100);
    /// assert!(o.set_from_text("Hash", Some("0")).is_err());
    /// assert_eq!(o.hash_mb, 16);
    /// ```
    pub fn set_from_text(
        &mut self,
        name: &str,
        value: Option<&str>,
    ) -> Result<&'static OptionSpec, OptionError> {
        let spec = find_option(name).ok_or_else(|| OptionError::Unknown(echo(name)))?;
        let value = match (spec.kind, value.map(str::trim)) {
            (OptionKind::Button, _) => OptionValue::Press,
            // `<empty>` is the UCI convention for an empty string.
            (OptionKind::Text, None | Some("<empty>")) => OptionValue::Text(String::new()),
            (OptionKind::Text, Some(text)) => OptionValue::Text(text.to_owned()),
            (_, None | Some("")) => return Err(OptionError::MissingValue(spec.name)),
            (OptionKind::Spin { min, max }, Some(text)) => match text.parse::<i64>() {
                Ok(n) => OptionValue::Int(n),
                // A number too long for i64 is out of range rather than "not a number".
                Err(_) if is_integer_text(text) => {
                    let value = echo(text);
                    return Err(OptionError::OutOfRange {
                        name: spec.name,
                        value,
                        min,
                        max,
                    });
                }
                Err(_) => {
                    let value = echo(text);
                    return Err(OptionError::NotANumber {
                        name: spec.name,
                        value,
                    });
                }
            },
            (OptionKind::Check, Some(text)) => match text.to_ascii_lowercase().as_str() {
                "true" => OptionValue::Bool(true),
                "false" => OptionValue::Bool(false),
                _ => {
                    return Err(OptionError::NotABool {
                        name: spec.name,
                        value: echo(text),
                    });
                }
            },
        };
        self.set(spec, value)?;
        Ok(spec)
    }
}

/// Longest piece of user input quoted back in a message, in characters.
const MAX_ECHO_CHARS: usize = 40;

/// User input quoted in a message, shortened so that a 100 KB line gives a readable reply, and
/// with control characters escaped (`\u{1b}`): a lone CR or an escape sequence echoed raw would
/// show the GUI a line break or garbage the engine never meant.
///
/// ```
/// use minkowski::options::echo;
/// assert_eq!(echo("Hash"), "Hash");
/// assert!(echo(&"x".repeat(1000)).ends_with("... (1000 bytes)"));
/// assert_eq!(echo("a\rb\u{1b}[2J"), "a\\rb\\u{1b}[2J");
/// ```
#[must_use]
pub fn echo(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars().take(MAX_ECHO_CHARS) {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    if text.chars().count() > MAX_ECHO_CHARS {
        out.push_str(&format!("... ({} bytes)", text.len()));
    }
    out
}

fn is_integer_text(text: &str) -> bool {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_values_change_nothing() {
        let mut o = EngineOptions::default();
        for (name, value) in [
            ("Hash", Some("abc")),
            ("Hash", Some("99999999999999999999999")),
            ("Hash", None),
            ("Threads", Some("0")),
            ("Ponder", Some("yes")),
            ("UCI_ShowWDL", Some("1")),
            ("UCI_ShowWDL", None),
            ("UCI_LimitStrength", Some("on")),
            ("UCI_Elo", Some("1349")),
            ("UCI_Elo", Some("2801")),
            ("UCI_Elo", Some("strong")),
            ("StrengthSeed", Some("-1")),
            ("Nonsense", Some("1")),
        ] {
            assert!(o.set_from_text(name, value).is_err(), "{name} {value:?}");
        }
        assert_eq!(o, EngineOptions::default());
        let unknown = o
            .set_from_text("Nonsense", Some("1"))
            .unwrap_err()
            .to_string();
        // (A tuning build lists its search constants after these.)
        assert!(
            cfg!(feature = "tune-search") || unknown.ends_with(
                "(options: Hash, PawnKingHash, Threads, MultiPV, Ponder, Move Overhead, UCI_Chess960, Clear Hash, \
                 SyzygyPath, SyzygyProbeDepth, SyzygyProbeLimit, Syzygy50MoveRule, UCI_ShowWDL, \
                 UCI_LimitStrength, UCI_Elo, StrengthSeed)"
            ),
            "{unknown}"
        );
        assert!(o.set_from_text("uci_chess960", Some("TRUE")).is_ok());
        assert!(o.chess960);
    }
}
