//! `sable-fake-engine`: a scripted UCI engine for the arena's tests. It plays the first
//! legal move (or a seeded random one) and misbehaves on request, so that the referee's
//! handling of every failure can be checked with real processes and pipes.
//!
//! Flags (all optional): `--name N`, `--score CP` (reported each move), `--delay-ms T`
//! (think this long), `--illegal-at K` / `--crash-at K` / `--stall-at K` (on its K-th
//! move of each game: answer an illegal move / exit / go silent), `--no-readyok` (never answers
//! `isready`), `--random SEED`.

use sable_chess::{CastlingMode, Position};
use std::io::{BufRead, Write};
use std::time::Duration;

struct Script {
    name: String,
    score: i32,
    delay: Duration,
    illegal_at: Option<u32>,
    crash_at: Option<u32>,
    stall_at: Option<u32>,
    no_readyok: bool,
    random: Option<u64>,
}

fn parse_args() -> Script {
    let mut s = Script {
        name: "Fake".into(),
        score: 0,
        delay: Duration::ZERO,
        illegal_at: None,
        crash_at: None,
        stall_at: None,
        no_readyok: false,
        random: None,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let v = args.get(i + 1).cloned().unwrap_or_default();
        let n = || v.parse::<i64>().expect("a number after the flag");
        match args[i].as_str() {
            "--name" => s.name = v.clone(),
            "--score" => s.score = n() as i32,
            "--delay-ms" => s.delay = Duration::from_millis(n() as u64),
            "--illegal-at" => s.illegal_at = Some(n() as u32),
            "--crash-at" => s.crash_at = Some(n() as u32),
            "--stall-at" => s.stall_at = Some(n() as u32),
            "--random" => s.random = Some(n() as u64),
            "--no-readyok" => {
                s.no_readyok = true;
                i += 1;
                continue;
            }
            other => panic!("fake engine: unknown flag {other}"),
        }
        i += 2;
    }
    s
}

fn set_position(words: &[&str]) -> Position {
    let (mut pos, rest) = match words.first() {
        Some(&"startpos") => (Position::startpos(), &words[1..]),
        Some(&"fen") => {
            let end = words
                .iter()
                .position(|w| *w == "moves")
                .unwrap_or(words.len());
            let fen = words[1..end].join(" ");
            let pos = Position::from_fen(&fen, CastlingMode::Standard).expect("a valid FEN");
            (pos, &words[end..])
        }
        _ => panic!("fake engine: bad position command"),
    };
    if rest.first() == Some(&"moves") {
        for m in &rest[1..] {
            let mv = pos.parse_uci(m).expect("a legal move from the referee");
            pos.make(mv);
        }
    }
    pos
}

fn main() {
    let script = parse_args();
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut pos = Position::startpos();
    let mut moves_made = 0u32;
    let mut rng = script.random.unwrap_or(0);
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("uci") => {
                writeln!(out, "id name {}", script.name).unwrap();
                writeln!(out, "option name Hash type spin default 1 min 1 max 64").unwrap();
                writeln!(out, "uciok").unwrap();
            }
            Some("isready") if !script.no_readyok => writeln!(out, "readyok").unwrap(),
            Some("ucinewgame") => moves_made = 0,
            Some("position") => pos = set_position(&words[1..]),
            Some("go") => {
                moves_made += 1;
                if script.crash_at == Some(moves_made) {
                    std::process::exit(3);
                }
                if script.stall_at == Some(moves_made) {
                    // Silent from now on, but alive: read and ignore everything.
                    for _ in stdin.lock().lines() {}
                    std::process::exit(0);
                }
                std::thread::sleep(script.delay);
                let legal = pos.legal_moves();
                let choice = match script.random {
                    Some(_) => {
                        rng = rng
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        legal[((rng >> 33) % legal.len() as u64) as usize]
                    }
                    None => legal[0],
                };
                let text = if script.illegal_at == Some(moves_made) {
                    "a1a1".to_string()
                } else {
                    choice.to_uci(false).to_string()
                };
                writeln!(
                    out,
                    "info depth 1 score cp {} nodes 1 pv {text}",
                    script.score
                )
                .unwrap();
                writeln!(out, "bestmove {text}").unwrap();
            }
            Some("quit") => break,
            _ => {}
        }
        out.flush().unwrap();
    }
}
