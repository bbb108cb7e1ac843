//! Embeds `nets/default.nnue` (repository root) when it exists, as
//! `sable_engine::nnue::EMBEDDED`; no file, no embedded net (no placeholder nets).

use std::path::Path;

fn main() {
    let nets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../nets");
    let net = nets.join("default.nnue");
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
