//! Shared helpers for the integration tests: where the data lives, perft-file parsing.
#![allow(dead_code)]

use std::path::PathBuf;

/// `../shared/data` beside the checkout, or `$SABLE_DATA`.
pub fn data_dir() -> PathBuf {
    if let Ok(dir) = std::env::var("SABLE_DATA") {
        return PathBuf::from(dir);
    }
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.join("../../../shared/data")
}

pub fn read(rel: &str) -> String {
    let path = data_dir().join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}
