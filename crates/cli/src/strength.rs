//! The strength options, one reading for UCI, xboard and the console: `UCI_LimitStrength`,
//! `UCI_Elo`, `Skill Level` (Stockfish's names) and `Skill Seed`. The mechanism is the
//! engine's (`sable_engine::strength`).

use crate::options::Kind;
use sable_engine::strength::{SKILL_LEVEL, SKILL_SEED, UCI_ELO};
use sable_engine::Engine;

/// The options with their UCI names; xboard names are the same without spaces.
pub const OPTIONS: [(&str, Kind); 4] = [
    ("UCI_LimitStrength", Kind::Check(false)),
    ("UCI_Elo", Kind::Spin(UCI_ELO)),
    ("Skill Level", Kind::Spin(SKILL_LEVEL)),
    ("Skill Seed", Kind::Spin(SKILL_SEED)),
];

/// Sets the strength option `key` (any case, spaces ignored; the console's short names
/// `limitstrength`, `elo`, `skill` and `seed` too). `None` when `key` is not one of
/// them; else `Ok` or why the value was refused (the setting is then unchanged).
pub fn set_option(engine: &mut Engine, key: &str, value: &str) -> Option<Result<(), String>> {
    let key = crate::options::option_key(key);
    let value = value.trim();
    let number = |name: &str| {
        value
            .parse::<i64>()
            .map_err(|_| format!("{name} needs a whole number, got '{value}'"))
    };
    let result =
        match key.as_str() {
            "uci_limitstrength" | "limitstrength" => match value.to_ascii_lowercase().as_str() {
                "true" | "on" | "1" => Ok(true),
                "false" | "off" | "0" => Ok(false),
                _ => Err(format!(
                    "UCI_LimitStrength needs true or false, got '{value}'"
                )),
            }
            .map(|on| engine.set_limit_strength(on)),
            "uci_elo" | "elo" => {
                number("UCI_Elo").and_then(|n| engine.set_elo(n).map_err(|e| e.to_string()))
            }
            "skilllevel" | "skill" => number("Skill Level")
                .and_then(|n| engine.set_skill_level(n).map_err(|e| e.to_string())),
            "skillseed" | "seed" => number("Skill Seed")
                .and_then(|n| engine.set_skill_seed(n).map_err(|e| e.to_string())),
            _ => return None,
        };
    Some(result)
}

/// The strength in effect, in one line.
pub fn status(engine: &Engine) -> String {
    let s = engine.options().strength;
    let level = match s.level() {
        None => "full strength".to_string(),
        Some(l) => format!(
            "skill {:.2} (about {:.0} Elo, uncalibrated)",
            l.skill,
            sable_engine::strength::skill_to_elo(l.skill)
        ),
    };
    format!(
        "limitstrength {}, elo {}, skill {}, seed {}: {level}",
        s.limit_strength, s.elo, s.skill_level, s.seed
    )
}
