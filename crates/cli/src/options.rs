//! What the front ends share about the options that live in their own modules
//! (`syzygy`, `strength`): how a name is compared, and how an option is announced to a
//! UCI or xboard GUI.

/// An option's type, with its default.
#[derive(Clone, Copy)]
pub enum Kind {
    /// A folder (or `:`-separated folders); empty by default.
    Path,
    Check(bool),
    /// (min, default, max)
    Spin((i64, i64, i64)),
}

/// `name` without whitespace, in lower case: UCI's `Skill Level`, xboard's `SkillLevel`
/// and the console's `skilllevel` are one name.
pub fn option_key(name: &str) -> String {
    name.chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_lowercase()
}

/// The UCI `option name ...` line.
pub fn uci_line(name: &str, kind: Kind) -> String {
    match kind {
        Kind::Path => format!("option name {name} type string default <empty>"),
        Kind::Check(on) => format!("option name {name} type check default {on}"),
        Kind::Spin((min, default, max)) => {
            format!("option name {name} type spin default {default} min {min} max {max}")
        }
    }
}

/// The xboard `feature option="..."` line; the name loses its spaces, which some
/// clients cannot read.
pub fn xboard_line(name: &str, kind: Kind) -> String {
    let name: String = name.split_whitespace().collect();
    match kind {
        Kind::Path => format!("feature option=\"{name} -path \""),
        Kind::Check(on) => format!("feature option=\"{name} -check {}\"", on as u8),
        Kind::Spin((min, default, max)) => {
            format!("feature option=\"{name} -spin {default} {min} {max}\"")
        }
    }
}

/// The Syzygy and strength options, in the order they are announced.
pub fn announced() -> impl Iterator<Item = (&'static str, Kind)> {
    crate::syzygy::OPTIONS
        .into_iter()
        .chain(crate::strength::OPTIONS)
}
