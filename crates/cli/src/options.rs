//! The engine's options, described once: name (Stockfish's, where Stockfish has the
//! option), kind, range or default, and how a value is applied to the [`Engine`]. UCI's
//! `option` lines and `setoption`, xboard's `feature option=` lines and `option`, and the
//! console's `set` all come from [`ENGINE_OPTIONS`]; each front end adds only what belongs
//! to its protocol (UCI's `Ponder`, `UCI_Chess960`, `UCI_ShowWDL`; xboard's resignation
//! and draw scores; the console's `ascii`).
//!
//! Names are compared with case and spaces ignored ([`option_key`]): UCI's `Skill Level`,
//! xboard's `SkillLevel` and the console's `skilllevel` are one option.

use sable_engine::book::{BOOK_DEPTH, BOOK_MIN_WEIGHT};
use sable_engine::strength::{SKILL_LEVEL, SKILL_SEED, UCI_ELO};
use sable_engine::tablebase::{PROBE_DEPTH, PROBE_LIMIT};
use sable_engine::{BookMode, Engine, EngineError};
use sable_engine::{HASH_MB, MOVE_OVERHEAD_MS, MULTI_PV, THREADS};

/// An option's type, with its default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A whole number: (min, default, max).
    Spin((i64, i64, i64)),
    Check(bool),
    /// An action without a value.
    Button,
    /// A folder, or several joined by `:` (`;` on Windows); empty by default.
    Folder,
    /// A file; the text shown when none is set.
    File(&'static str),
    /// One of a list of names: the default, then the list.
    Combo(&'static str, &'static [&'static str]),
}

/// Applies a value, given as the front end received it, to the engine: the lines to
/// show the user (what was found, what was left out), or why the value was refused (the
/// engine then keeps its previous setting).
pub type Apply = fn(&mut Engine, &str) -> Result<Vec<String>, String>;

/// One option of the engine.
#[derive(Clone, Copy)]
pub struct EngineOption {
    pub name: &'static str,
    pub kind: Kind,
    pub apply: Apply,
    /// Whether xboard is told of it: xboard sets the hash size with `memory` and the
    /// threads with `cores`, and has no MultiPV.
    pub xboard: bool,
}

/// Every option of the engine that more than one front end offers, in the order they
/// are announced (built once: `UseNNUE`'s default depends on whether a net is built in).
pub static ENGINE_OPTIONS: std::sync::LazyLock<Vec<EngineOption>> =
    std::sync::LazyLock::new(|| {
        let use_nnue = sable_engine::EngineOptions::default().use_nnue;
        vec![
            spin("Hash", HASH_MB, false, |e, v| {
                done(e.set_hash_mb(number("Hash", v)?))
            }),
            spin("Threads", THREADS, false, |e, v| {
                done(e.set_threads(number("Threads", v)?))
            }),
            spin("MultiPV", MULTI_PV, false, |e, v| {
                done(e.set_multipv(number("MultiPV", v)?))
            }),
            spin("Move Overhead", MOVE_OVERHEAD_MS, true, |e, v| {
                done(e.set_move_overhead(number("Move Overhead", v)?))
            }),
            option("Clear Hash", Kind::Button, |e, _| done(e.clear_hash())),
            option("OwnBook", Kind::Check(false), |e, v| {
                e.set_own_book(check("OwnBook", v)?);
                Ok(Vec::new())
            }),
            option("BookFile", Kind::File("<empty>"), |e, v| {
                e.set_book_file(v)
                    .map(|_| Vec::new())
                    .map_err(|err| format!("BookFile: {err}; playing without a book"))
            }),
            spin("BookDepth", BOOK_DEPTH, true, |e, v| {
                done(e.set_book_depth(number("BookDepth", v)?))
            }),
            option(
                "BookMode",
                Kind::Combo(BookMode::default().name(), &BookMode::NAMES),
                |e, v| {
                    let mode = BookMode::parse(v)
                        .ok_or_else(|| format!("BookMode must be best or weighted, got '{v}'"))?;
                    e.set_book_mode(mode);
                    Ok(Vec::new())
                },
            ),
            spin("BookMinWeight", BOOK_MIN_WEIGHT, true, |e, v| {
                done(e.set_book_min_weight(number("BookMinWeight", v)?))
            }),
            option("BookLearning", Kind::Check(false), |e, v| {
                e.set_book_learning(check("BookLearning", v)?);
                Ok(Vec::new())
            }),
            option("UseNNUE", Kind::Check(use_nnue), |e, v| {
                done(e.set_use_nnue(check("UseNNUE", v)?))
            }),
            option("EvalFile", Kind::File("<default>"), |e, v| {
                done(e.set_eval_file(v))
            }),
            option("SyzygyPath", Kind::Folder, |e, v| {
                let notes = e.set_syzygy_path(v).map_err(|err| err.to_string())?;
                let mut lines = vec![crate::syzygy::status(e)];
                lines.extend(notes);
                Ok(lines)
            }),
            spin("SyzygyProbeDepth", PROBE_DEPTH, true, |e, v| {
                done(e.set_syzygy_probe_depth(number("SyzygyProbeDepth", v)?))
            }),
            option("Syzygy50MoveRule", Kind::Check(true), |e, v| {
                done(e.set_syzygy_50_move_rule(check("Syzygy50MoveRule", v)?))
            }),
            spin("SyzygyProbeLimit", PROBE_LIMIT, true, |e, v| {
                done(e.set_syzygy_probe_limit(number("SyzygyProbeLimit", v)?))
            }),
            option("UCI_LimitStrength", Kind::Check(false), |e, v| {
                e.set_limit_strength(check("UCI_LimitStrength", v)?);
                Ok(Vec::new())
            }),
            spin("UCI_Elo", UCI_ELO, true, |e, v| {
                done(e.set_elo(number("UCI_Elo", v)?))
            }),
            spin("Skill Level", SKILL_LEVEL, true, |e, v| {
                done(e.set_skill_level(number("Skill Level", v)?))
            }),
            spin("Skill Seed", SKILL_SEED, true, |e, v| {
                done(e.set_skill_seed(number("Skill Seed", v)?))
            }),
        ]
    });

fn option(name: &'static str, kind: Kind, apply: Apply) -> EngineOption {
    EngineOption {
        name,
        kind,
        apply,
        xboard: true,
    }
}

fn spin<T: Copy>(name: &'static str, range: (T, T, T), xboard: bool, apply: Apply) -> EngineOption
where
    i64: TryFrom<T>,
{
    let wide = |n: T| i64::try_from(n).unwrap_or(i64::MAX);
    EngineOption {
        name,
        kind: Kind::Spin((wide(range.0), wide(range.1), wide(range.2))),
        apply,
        xboard,
    }
}

/// A setter's result as an [`Apply`] result: nothing to show, or the error's text.
pub fn done(result: Result<(), EngineError>) -> Result<Vec<String>, String> {
    result.map(|_| Vec::new()).map_err(|e| e.to_string())
}

/// A whole number, as every protocol writes one.
pub fn number(name: &str, value: &str) -> Result<i64, String> {
    let v = value.trim();
    v.parse()
        .map_err(|_| format!("{name} needs a whole number, got '{v}'"))
}

/// On or off: UCI writes `true`/`false`, xboard `1`/`0`, people `on`/`off`.
pub fn check(name: &str, value: &str) -> Result<bool, String> {
    let v = value.trim();
    match v.to_ascii_lowercase().as_str() {
        "true" | "on" | "1" => Ok(true),
        "false" | "off" | "0" => Ok(false),
        _ => Err(format!("{name} needs true or false, got '{v}'")),
    }
}

/// `name` without whitespace, in lower case: UCI's `Skill Level`, xboard's `SkillLevel`
/// and the console's `skilllevel` are one name.
pub fn option_key(name: &str) -> String {
    name.chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_lowercase()
}

/// The option called `name` (case and spaces ignored).
pub fn find(name: &str) -> Option<&'static EngineOption> {
    let key = option_key(name);
    ENGINE_OPTIONS.iter().find(|o| option_key(o.name) == key)
}

impl EngineOption {
    /// The UCI `option name ...` line.
    pub fn uci_line(&self) -> String {
        let name = self.name;
        match self.kind {
            Kind::Spin((min, default, max)) => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            Kind::Check(on) => format!("option name {name} type check default {on}"),
            Kind::Button => format!("option name {name} type button"),
            Kind::Folder => format!("option name {name} type string default <empty>"),
            Kind::File(none) => format!("option name {name} type string default {none}"),
            Kind::Combo(default, names) => {
                let vars: String = names.iter().map(|n| format!(" var {n}")).collect();
                format!("option name {name} type combo default {default}{vars}")
            }
        }
    }

    /// The xboard `feature option="..."` line; the name loses its spaces, which some
    /// clients cannot read.
    pub fn xboard_line(&self) -> String {
        let name: String = self.name.split_whitespace().collect();
        match self.kind {
            Kind::Spin((min, default, max)) => {
                format!("feature option=\"{name} -spin {default} {min} {max}\"")
            }
            Kind::Check(on) => format!("feature option=\"{name} -check {}\"", on as u8),
            Kind::Button => format!("feature option=\"{name} -button\""),
            Kind::Folder => format!("feature option=\"{name} -path \""),
            Kind::File(_) => format!("feature option=\"{name} -file \""),
            Kind::Combo(default, names) => {
                // The default is marked with `*`; choices are separated by ` /// `.
                let choices: Vec<String> = names
                    .iter()
                    .map(|&n| {
                        if n == default {
                            format!("*{n}")
                        } else {
                            n.to_string()
                        }
                    })
                    .collect();
                format!("feature option=\"{name} -combo {}\"", choices.join(" /// "))
            }
        }
    }

    /// Applies `value` ([`Apply`]). A file or folder named `<empty>` (as GUIs echo the
    /// default back) means none.
    pub fn set(&self, engine: &mut Engine, value: &str) -> Result<Vec<String>, String> {
        let value = value.trim();
        let value = match self.kind {
            Kind::Folder | Kind::File(_) if value == "<empty>" => "",
            _ => value,
        };
        (self.apply)(engine, value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every option is found by its own name in each front end's spelling, and the
    /// announcement lines parse back to the option's kind as a GUI reads them.
    #[test]
    fn names_and_lines() {
        for o in ENGINE_OPTIONS.iter() {
            assert!(std::ptr::eq(find(o.name).unwrap(), o), "{}", o.name);
            let xboard_name: String = o.name.split_whitespace().collect();
            assert!(std::ptr::eq(find(&xboard_name).unwrap(), o));
            assert!(std::ptr::eq(find(&option_key(o.name)).unwrap(), o));
            let uci = o.uci_line();
            assert!(
                uci.starts_with(&format!("option name {} type ", o.name)),
                "{uci}"
            );
            let xb = o.xboard_line();
            assert!(
                xb.starts_with(&format!("feature option=\"{xboard_name} -")),
                "{xb}"
            );
            assert!(xb.ends_with('"') && xb.matches('"').count() == 2, "{xb}");
        }
        assert!(find("NoSuchOption").is_none());
        let mode = find("bookmode").unwrap();
        assert_eq!(
            mode.uci_line(),
            "option name BookMode type combo default weighted var best var weighted"
        );
        assert_eq!(
            mode.xboard_line(),
            "feature option=\"BookMode -combo best /// *weighted\""
        );
    }

    /// Values are applied through the engine's setters, and refused with the option's
    /// name when they are out of range or of the wrong kind (the old value stays).
    #[test]
    fn values_reach_the_engine_or_are_refused() {
        let mut engine = Engine::new();
        find("Skill Level").unwrap().set(&mut engine, "7").unwrap();
        assert_eq!(engine.options().strength.skill_level, 7);
        let e = find("SkillLevel")
            .unwrap()
            .set(&mut engine, "seven")
            .unwrap_err();
        assert!(e.contains("Skill Level") && e.contains("seven"), "{e}");
        let e = find("skill level")
            .unwrap()
            .set(&mut engine, "99")
            .unwrap_err();
        assert!(e.contains("99"), "{e}");
        assert_eq!(engine.options().strength.skill_level, 7);
        find("UCI_LimitStrength")
            .unwrap()
            .set(&mut engine, "on")
            .unwrap();
        assert!(engine.options().strength.limit_strength);
        find("uci_limitstrength")
            .unwrap()
            .set(&mut engine, "0")
            .unwrap();
        assert!(!engine.options().strength.limit_strength);
        assert!(find("BookMode")
            .unwrap()
            .set(&mut engine, "random")
            .is_err());
        find("BookFile")
            .unwrap()
            .set(&mut engine, "<empty>")
            .unwrap();
        let e = find("MultiPV").unwrap().set(&mut engine, "0").unwrap_err();
        assert!(e.contains("MultiPV") || e.contains("0"), "{e}");
    }
}
