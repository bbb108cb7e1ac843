//! The `tune` build's tunables (sable_engine::tunables): every one is a UCI spin option
//! of its own name that sets the value the search reads, out-of-range values are
//! refused by name, and the defaults search exactly as the plain build (the bench of
//! the newest `Bench:` line in the log, which CI checks the plain build against). Run
//! by CI with `cargo test --release -p sable --features tune --test tunables`.
#![cfg(feature = "tune")]

use sable::uci::{Uci, Wire};
use sable_engine::{bench, tunables};
use std::io::Write;
use std::sync::{Arc, Mutex};

/// The tunables are process-wide: the tests that change them take turns.
static TURN: Mutex<()> = Mutex::new(());

#[derive(Clone, Default)]
struct Out(Arc<Mutex<Vec<u8>>>);

impl Write for Out {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Out {
    /// What was written since the last call.
    fn take(&self) -> String {
        String::from_utf8(std::mem::take(&mut *self.0.lock().unwrap())).unwrap()
    }
}

fn session() -> (Uci, Out) {
    let out = Out::default();
    (Uci::new(Wire::new(out.clone())), out)
}

fn values() -> Vec<i32> {
    tunables::TUNABLES.iter().map(|t| t.value()).collect()
}

#[test]
fn every_option_sets_the_value_the_search_reads() {
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    let (mut uci, out) = session();
    uci.execute("uci");
    let text = out.take();
    for t in tunables::TUNABLES {
        let line = format!(
            "option name {} type spin default {} min {} max {}",
            t.name, t.default, t.min, t.max
        );
        assert!(text.lines().any(|l| l == line), "no '{line}' in:\n{text}");
    }

    let defaults: Vec<i32> = tunables::TUNABLES.iter().map(|t| t.default).collect();
    assert_eq!(values(), defaults);
    for (i, t) in tunables::TUNABLES.iter().enumerate() {
        let v = if t.default + t.step <= t.max {
            t.default + t.step
        } else {
            t.default - t.step
        };
        uci.execute(&format!("setoption name {} value {v}", t.name));
        assert_eq!(out.take(), "", "{} = {v} was refused", t.name);
        // `value()` calls the very accessor the search calls (`tunables::rfp_margin()`).
        let mut want = defaults.clone();
        want[i] = v;
        assert_eq!(values(), want, "setting {} changed other values", t.name);

        // Out of range, or not a number: refused by name, the value kept.
        for bad in [
            (i64::from(t.max) + 1).to_string(),
            (i64::from(t.min) - 1).to_string(),
            "twelve".to_string(),
        ] {
            uci.execute(&format!("setoption name {} value {bad}", t.name));
            let said = out.take();
            assert!(
                said.starts_with("info string error: ") && said.contains(t.name),
                "{} = {bad}: {said}",
                t.name
            );
            assert_eq!(t.value(), v, "{} = {bad} changed the value", t.name);
        }
        uci.execute(&format!("setoption name {} value {}", t.name, t.default));
        assert_eq!(values(), defaults);
    }
    uci.execute("quit");
}

/// A changed margin changes the search; set back, the search is the default's again.
#[test]
fn the_search_follows_the_options_and_returns_to_the_defaults() {
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    let (mut uci, out) = session();
    let before = bench::run(6, |_, _| {}).nodes;
    for (name, value) in [
        ("rfp_margin", 40),
        ("lmr_non_pv", 2048),
        ("hist_bonus_max", 600),
    ] {
        uci.execute(&format!("setoption name {name} value {value}"));
        assert_eq!(out.take(), "");
        let changed = bench::run(6, |_, _| {}).nodes;
        assert_ne!(changed, before, "{name} = {value} changed nothing");
        uci.execute(&format!(
            "setoption name {name} value {}",
            tunables::find(name).unwrap().default
        ));
    }
    assert_eq!(bench::run(6, |_, _| {}).nodes, before);
}

/// The defaults give the bench of the newest `Bench:` line of the log, the number the
/// plain build must give too (`.ci/run`); skipped outside a git checkout.
#[test]
fn the_defaults_give_the_plain_builds_bench() {
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let log = std::process::Command::new("git")
        .args(["-C", root, "log", "--format=%B"])
        .output();
    let want = log.ok().and_then(|o| {
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .find_map(|l| l.trim().strip_prefix("Bench: ")?.trim().parse::<u64>().ok())
    });
    let Some(want) = want else {
        eprintln!("no git log with a Bench: line here; not compared");
        return;
    };
    tunables::reset();
    assert_eq!(bench::run(bench::DEFAULT_DEPTH, |_, _| {}).nodes, want);
}
