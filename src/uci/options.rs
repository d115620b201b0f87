//! The wire form of the options ([`crate::options`] is the model): the `option name ... type
//! ...` lines `uci` answers with.

use vampirc_uci::{UciMessage, UciOptionConfig};

use crate::options::{EngineOptions, OptionKind, OptionValue, all_options};

/// The `option name ... type ...` lines for `uci`, with `defaults` as the defaults shown.
///
/// ```
/// use minkowski::options::EngineOptions;
/// let lines = minkowski::uci::options::declarations(&EngineOptions::default());
/// assert_eq!(lines[0], "option name Hash type spin default 16 min 1 max 32768");
/// ```
#[must_use]
pub fn declarations(defaults: &EngineOptions) -> Vec<String> {
    all_options()
        .map(|spec| {
            let name = spec.name.to_owned();
            let config = match (spec.kind, defaults.get(spec.id)) {
                (OptionKind::Spin { min, max }, OptionValue::Int(n)) => UciOptionConfig::Spin {
                    name,
                    default: Some(n),
                    min: Some(min),
                    max: Some(max),
                },
                (OptionKind::Check, OptionValue::Bool(b)) => UciOptionConfig::Check {
                    name,
                    default: Some(b),
                },
                (OptionKind::Text, OptionValue::Text(t)) => UciOptionConfig::String {
                    name,
                    default: Some(if t.is_empty() {
                        "<empty>".to_owned()
                    } else {
                        t
                    }),
                },
                _ => UciOptionConfig::Button { name },
            };
            UciMessage::Option(config).to_string()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_follow_the_spec() {
        let lines = declarations(&EngineOptions::default());
        assert_eq!(
            lines[0],
            "option name Hash type spin default 16 min 1 max 32768"
        );
        assert!(lines.contains(&"option name Threads type spin default 1 min 1 max 1024".into()));
        assert!(
            lines.contains(&"option name Move Overhead type spin default 30 min 0 max 5000".into())
        );
        assert!(lines.contains(&"option name UCI_Chess960 type check default false".into()));
        assert!(lines.contains(&"option name Clear Hash type button".into()));
    }
}
