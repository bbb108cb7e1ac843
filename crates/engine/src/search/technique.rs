//! The search techniques that can be switched off one at a time to measure what each is
//! worth in games (an ablation: the full engine against the engine without it).
//!
//! A normal build compiles every switch to the constant `true`, so the search pays
//! nothing for them. A build with the `ablation` feature reads them from one process-wide
//! mask, set through the UCI option `Ablate` (a comma-separated list of the names below);
//! each engine of a match is its own process, so one global is enough.

/// One labelled block of the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Technique {
    MateDistance,
    TtCutoff,
    ReverseFutility,
    Razoring,
    NullMove,
    Iir,
    LateMovePruning,
    Futility,
    SeeQuiets,
    SeeCaptures,
    Singular,
    CheckExtension,
    Lmr,
    LmrResearchDepth,
    Pvs,
    Histories,
    Aspiration,
    QsFutility,
    QsEvasions,
    QsSee,
    Correction,
    FailHighBlend,
    AlphaRaise,
}

impl Technique {
    /// Every technique, in the order of the search.
    pub const ALL: [Technique; 23] = [
        Technique::MateDistance,
        Technique::TtCutoff,
        Technique::ReverseFutility,
        Technique::Razoring,
        Technique::NullMove,
        Technique::Iir,
        Technique::LateMovePruning,
        Technique::Futility,
        Technique::SeeQuiets,
        Technique::SeeCaptures,
        Technique::Singular,
        Technique::CheckExtension,
        Technique::Lmr,
        Technique::LmrResearchDepth,
        Technique::Pvs,
        Technique::Histories,
        Technique::Aspiration,
        Technique::QsFutility,
        Technique::QsEvasions,
        Technique::QsSee,
        Technique::Correction,
        Technique::FailHighBlend,
        Technique::AlphaRaise,
    ];

    /// The short name used by the `Ablate` option and the measurement script.
    pub fn name(self) -> &'static str {
        match self {
            Technique::MateDistance => "mdp",
            Technique::TtCutoff => "ttcut",
            Technique::ReverseFutility => "rfp",
            Technique::Razoring => "razor",
            Technique::NullMove => "nmp",
            Technique::Iir => "iir",
            Technique::LateMovePruning => "lmp",
            Technique::Futility => "fp",
            Technique::SeeQuiets => "seeq",
            Technique::SeeCaptures => "seec",
            Technique::Singular => "se",
            Technique::CheckExtension => "checkext",
            Technique::Lmr => "lmr",
            Technique::LmrResearchDepth => "lmrdeep",
            Technique::Pvs => "pvs",
            Technique::Histories => "hist",
            Technique::Aspiration => "asp",
            Technique::QsFutility => "qfp",
            Technique::QsEvasions => "qevas",
            Technique::QsSee => "qsee",
            Technique::Correction => "corr",
            Technique::FailHighBlend => "fhblend",
            Technique::AlphaRaise => "araise",
        }
    }

    fn bit(self) -> u32 {
        1 << self as u32
    }
}

/// Parses `Ablate`'s value (names separated by commas or spaces; empty for none) into
/// a mask of switched-off techniques.
pub fn parse_mask(text: &str) -> Result<u32, String> {
    let mut mask = 0;
    for word in text.split([',', ' ']).filter(|w| !w.is_empty()) {
        let t = Technique::ALL
            .iter()
            .find(|t| t.name().eq_ignore_ascii_case(word))
            .ok_or_else(|| {
                let names: Vec<&str> = Technique::ALL.iter().map(|t| t.name()).collect();
                format!(
                    "Ablate: unknown technique '{word}' (known: {})",
                    names.join(" ")
                )
            })?;
        mask |= t.bit();
    }
    Ok(mask)
}

#[cfg(feature = "ablation")]
mod switch {
    use super::Technique;
    use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

    static DISABLED: AtomicU32 = AtomicU32::new(0);

    #[inline]
    pub fn on(t: Technique) -> bool {
        DISABLED.load(Relaxed) & t.bit() == 0
    }

    pub fn set_disabled(mask: u32) {
        DISABLED.store(mask, Relaxed);
    }
}

#[cfg(not(feature = "ablation"))]
mod switch {
    use super::Technique;

    #[inline(always)]
    pub fn on(_: Technique) -> bool {
        true
    }

    pub fn set_disabled(_: u32) {}
}

/// Whether the search uses `t` (always, unless built with `ablation`).
pub(crate) use switch::on;
/// Switches off the techniques in `mask` (a no-op unless built with `ablation`).
pub use switch::set_disabled;

/// Whether this build honours `set_disabled` (the `ablation` feature).
pub const SWITCHABLE: bool = cfg!(feature = "ablation");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_parse_back() {
        for (i, t) in Technique::ALL.iter().enumerate() {
            assert_eq!(*t as usize, i, "ALL follows the declaration order");
            assert_eq!(parse_mask(t.name()), Ok(1 << i));
        }
        assert_eq!(parse_mask("lmr, nmp").unwrap(), (1 << 12) | (1 << 4));
        assert_eq!(parse_mask("").unwrap(), 0);
        let err = parse_mask("lmr,bogus").unwrap_err();
        assert!(err.contains("'bogus'") && err.contains("nmp"), "{err}");
    }
}
