//! The `sable` binary's library: its protocol front ends (UCI, xboard, console), the
//! option description they share, the tools (`cmd/`) and the web server of `sable
//! serve` (`serve/`). It is a library so that the fuzz targets (`fuzz/`) can drive the
//! UCI and xboard interpreters line by line; it is not meant as an API for other
//! programs (use `sable_chess`, `sable_formats`, `sable_engine`, `sable_train` and
//! `sable_arena`), and promises no stability.

pub mod analyse;
pub mod cmd;
pub mod console;
pub mod genfens;
pub mod notation;
pub mod options;
pub mod serve;
pub mod session;
pub mod strength;
pub mod syzygy;
pub mod uci;
pub mod xboard;
