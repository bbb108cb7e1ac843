//! Embeds a network as `sable_engine::nnue::EMBEDDED`: the file named by the `EVALFILE`
//! environment variable when it is set and not empty (OpenBench's `make EVALFILE=...`;
//! the Makefile makes the path absolute), else `nets/default.nnue` (repository root)
//! when it exists; no file, no embedded net (no placeholder nets).

use std::path::Path;

fn main() {
    println!("cargo:rerun-if-env-changed=EVALFILE");
    let chosen = std::env::var("EVALFILE")
        .ok()
        .filter(|f| !f.trim().is_empty());
    if let Some(file) = &chosen {
        // A named net must be one: a wrong path or file fails the build here rather
        // than leaving an engine that quietly plays with the hand-crafted evaluation.
        let bytes = std::fs::read(file)
            .unwrap_or_else(|e| panic!("EVALFILE={file}: cannot read the network: {e}"));
        assert!(
            bytes.starts_with(b"SBNN"),
            "EVALFILE={file}: not a Sable network (no SBNN magic)"
        );
    }
    let nets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../nets");
    let net = match &chosen {
        Some(file) => Path::new(file).to_path_buf(),
        None => nets.join("default.nnue"),
    };
    // The net file alone, not the folder: `nets/data/` grows while datagen runs, and a
    // watched folder would rebuild the engine on every append. (A missing file makes
    // cargo rerun this script every build, which is what noticing a new net needs.)
    println!("cargo:rerun-if-changed={}", net.display());
    let code = if net.is_file() {
        let path = net.canonicalize().expect("the net's path resolves");
        format!(
            "/// The embedded default network's file bytes.\n\
             pub const EMBEDDED: Option<&[u8]> = Some(include_bytes!({:?}));\n",
            path.display().to_string()
        )
    } else {
        "/// No default network was found at build time.\n\
         pub const EMBEDDED: Option<&[u8]> = None;\n"
            .to_string()
    };
    let out =
        Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("embedded_net.rs");
    std::fs::write(out, code).expect("OUT_DIR is writable");
}
