//! The `Ablate` option of an `ablation` build: every technique can be switched off alone
//! (and all together) and the search still plays sound chess. Run by CI with
//! `cargo test --release -p sable --features ablation --test ablation`.
#![cfg(feature = "ablation")]

use sable_engine::technique::Technique;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

/// 1.Nf6+ gxf6 2.Bxf7#: found by any sound alpha-beta search at a small depth.
const MATE_IN_2: &str = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 10";

/// Runs one search with `ablate` switched off and returns every line the engine wrote.
fn search_without(ablate: &str, depth: u32) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sable"))
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start sable");
    let mut stdin = child.stdin.take().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    writeln!(stdin, "setoption name Ablate value {ablate}").unwrap();
    writeln!(stdin, "position fen {MATE_IN_2}").unwrap();
    writeln!(stdin, "go depth {depth}").unwrap();
    stdin.flush().unwrap();
    let mut lines = vec![];
    for line in stdout.lines() {
        let line = line.unwrap();
        let done = line.starts_with("bestmove");
        lines.push(line);
        if done {
            break;
        }
    }
    writeln!(stdin, "quit").unwrap();
    child.wait().unwrap();
    lines
}

fn assert_mates(ablate: &str, lines: &[String]) {
    let text = lines.join("\n");
    assert!(
        !text.contains("info string"),
        "Ablate={ablate} was refused:\n{text}"
    );
    assert_eq!(
        lines.last().map(|l| l.split(' ').nth(1)),
        Some(Some("d5f6")),
        "Ablate={ablate}:\n{text}"
    );
    assert!(
        text.contains("score mate 2 "),
        "Ablate={ablate} lost the mate:\n{text}"
    );
}

#[test]
fn each_technique_switches_off_alone() {
    for t in Technique::ALL {
        assert_mates(t.name(), &search_without(t.name(), 8));
    }
}

#[test]
fn all_techniques_switch_off_together() {
    let all: Vec<&str> = Technique::ALL.iter().map(|t| t.name()).collect();
    let all = all.join(",");
    assert_mates(&all, &search_without(&all, 6));
}

#[test]
fn unknown_names_are_refused_with_the_known_ones() {
    let lines = search_without("lmr,warp-drive", 4);
    let text = lines.join("\n");
    assert!(
        text.contains("info string") && text.contains("'warp-drive'") && text.contains("nmp"),
        "{text}"
    );
}
