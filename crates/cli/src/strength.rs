//! The strength in effect, as the front ends report it. The options (`UCI_LimitStrength`,
//! `UCI_Elo`, `Skill Level`: Stockfish's names, and `Skill Seed`) are described with the
//! others in `crate::options`; the mechanism is the engine's (`sable_engine::strength`).

use sable_engine::Engine;

/// The strength in effect, in one line.
pub fn status(engine: &Engine) -> String {
    let s = engine.options().strength;
    let level = match s.level() {
        None => "full strength".to_string(),
        Some(l) => format!(
            "skill {:.2} (what UCI_Elo {:.0} selects on the calibration table)",
            l.skill,
            sable_engine::strength::skill_to_elo(l.skill)
        ),
    };
    format!(
        "limitstrength {}, elo {}, skill {}, seed {}: {level}",
        s.limit_strength, s.elo, s.skill_level, s.seed
    )
}
