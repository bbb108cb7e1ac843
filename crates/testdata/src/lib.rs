//! Where the tests, and the `#[cfg(test)]` code, find their data files.
//!
//! The files live in `testdata/` at the repository root (its `SOURCES.md` gives the origin
//! and licence of each). Setting `SABLE_DATA` to another folder with the same layout, such
//! as a fuller data set, overrides it.
//!
//! ```no_run
//! let text = std::fs::read_to_string(sable_testdata::path("perft/standard.epd")).unwrap();
//! ```

use std::path::{Path, PathBuf};

/// The variable that, when set, names the data folder instead of `testdata/`.
pub const OVERRIDE: &str = "SABLE_DATA";

/// The data folder: `$SABLE_DATA` if set, else `testdata/` at the workspace root.
pub fn dir() -> PathBuf {
    match std::env::var_os(OVERRIDE) {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        // This crate is crates/testdata, two levels below the workspace root.
        _ => Path::new(env!("CARGO_MANIFEST_DIR"))
            .ancestors()
            .nth(2)
            .expect("crates/testdata has a workspace root above it")
            .join("testdata"),
    }
}

/// The file `rel` (a path relative to the data folder, e.g. `"perft/standard.epd"`).
///
/// # Panics
/// If the file does not exist, with a message naming the path and the override.
pub fn path(rel: &str) -> PathBuf {
    let p = dir().join(rel);
    if !p.is_file() {
        let why = match std::env::var_os(OVERRIDE) {
            Some(d) if !d.is_empty() => {
                format!("{OVERRIDE} is set to {}", PathBuf::from(d).display())
            }
            _ => format!("{OVERRIDE} is not set, so the repository's testdata/ folder is used"),
        };
        panic!(
            "test data file {} not found ({why}; set {OVERRIDE} to a folder with the same layout to use other data)",
            p.display()
        );
    }
    p
}

/// The folder `rel` (e.g. `"syzygy/tables"`).
///
/// # Panics
/// If it is not a folder, naming the path.
pub fn folder(rel: &str) -> PathBuf {
    let p = dir().join(rel);
    assert!(
        p.is_dir(),
        "test data folder {} not found (set {OVERRIDE} to a folder with the same layout)",
        p.display()
    );
    p
}

/// The file `rel` as text (panics, naming the path, if it is missing or unreadable).
pub fn read_to_string(rel: &str) -> String {
    let p = path(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()))
}

/// The file `rel` as bytes (panics, naming the path, if it is missing or unreadable).
pub fn read(rel: &str) -> Vec<u8> {
    let p = path(rel);
    std::fs::read(&p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_shipped_file_is_found() {
        assert!(super::path("perft/standard.epd").is_file());
    }

    #[test]
    #[should_panic(expected = "SABLE_DATA")]
    fn a_missing_file_names_the_override() {
        super::path("no/such/file.epd");
    }
}

/// One position of `syzygy/endgame.epd` (python-chess's Syzygy test vectors) with the
/// values python-chess's prober gives for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyzygyVector {
    /// The position, with halfmove clock 0 and move number 1 added.
    pub fen: String,
    /// The raw WDL table value (no search over captures).
    pub wdl_table: i32,
    /// The WDL value from the side to move: -2 loss … 2 win.
    pub wdl: i32,
    /// Distance to zeroing in plies, as the DTZ tables give it.
    pub dtz: i32,
}

/// Every position of `syzygy/endgame.epd` (panics, naming the line, on a malformed one).
pub fn syzygy_vectors() -> Vec<SyzygyVector> {
    let text = read_to_string("syzygy/endgame.epd");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let (board, rest) = line
                .split_once(" wdl_table")
                .unwrap_or_else(|| panic!("endgame.epd: no wdl_table in {line:?}"));
            let rest = format!("wdl_table{rest}");
            let field = |name: &str| -> i32 {
                rest.split(';')
                    .map(str::trim)
                    .find_map(|f| f.strip_prefix(name)?.trim().parse().ok())
                    .unwrap_or_else(|| panic!("endgame.epd: no {name} in {line:?}"))
            };
            SyzygyVector {
                fen: format!("{} 0 1", board.trim()),
                wdl_table: field("wdl_table "),
                wdl: field("wdl "),
                dtz: field("dtz "),
            }
        })
        .collect()
}
