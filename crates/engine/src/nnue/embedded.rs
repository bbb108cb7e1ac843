//! The default network compiled into the binary: `nets/default.nnue` at the repository
//! root when the build found one (see `build.rs`), otherwise none, and then the engine
//! starts with the hand-crafted evaluation.

include!(concat!(env!("OUT_DIR"), "/embedded_net.rs"));
