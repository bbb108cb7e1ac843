//! The UCI adapter: handshake (`uci`/`uciok`, options, `isready`), new games
//! (`ucinewgame`), and searches (`position ... moves ...`, `go ...`, `bestmove`), reading
//! the score and depth of the last `info` line of the principal variation.

use std::time::{Duration, Instant};

use super::{wait_for, EngineConfig, EngineError, Process, Recv, Reply, Score, ThinkRequest};
use sable_chess::STARTPOS_FEN;

pub struct Uci {
    /// Options the engine declared, lower-cased.
    declared: Vec<String>,
    chess960: Option<bool>,
}

/// The value after `key` in a whitespace-split line.
fn after<'a>(tokens: &[&'a str], key: &str) -> Option<&'a str> {
    tokens
        .iter()
        .position(|t| *t == key)
        .and_then(|i| tokens.get(i + 1).copied())
}

/// The moves after `pv` in an `info` line of the main line, when it has them.
pub fn parse_pv(line: &str) -> Option<Vec<String>> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    if after(&tokens, "multipv").is_some_and(|pv| pv != "1") {
        return None;
    }
    let i = tokens.iter().position(|t| *t == "pv")?;
    Some(tokens[i + 1..].iter().map(|t| t.to_string()).collect())
}

/// Reads `info` lines: (depth, score) of the main line, when given.
pub fn parse_info(line: &str) -> (Option<u32>, Option<Score>) {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    if let Some(pv) = after(&tokens, "multipv") {
        if pv != "1" {
            return (None, None);
        }
    }
    let depth = after(&tokens, "depth").and_then(|d| d.parse().ok());
    let score = match tokens.iter().position(|t| *t == "score") {
        Some(i) => match (
            tokens.get(i + 1),
            tokens.get(i + 2).map(|v| v.parse::<i32>()),
        ) {
            (Some(&"cp"), Some(Ok(v))) => Some(Score::Cp(v)),
            (Some(&"mate"), Some(Ok(v))) => Some(Score::Mate(v)),
            _ => None,
        },
        None => None,
    };
    (depth, score)
}

impl Uci {
    pub fn start(process: &mut Process, config: &EngineConfig) -> Result<Uci, EngineError> {
        process.send("uci")?;
        let deadline = Instant::now() + config.stall;
        let mut declared = Vec::new();
        wait_for(process, deadline, "uciok", |line, _| {
            if let Some(rest) = line.strip_prefix("option name ") {
                let name = rest.split(" type ").next().unwrap_or(rest).trim();
                declared.push(name.to_ascii_lowercase());
            }
            (line.trim() == "uciok").then_some(())
        })?;
        let mut uci = Uci {
            declared,
            chess960: None,
        };
        for (name, value) in &config.options {
            if !uci.declared.contains(&name.to_ascii_lowercase()) {
                return Err(EngineError::Protocol(format!(
                    "engine '{}' has no UCI option '{name}'",
                    config.name
                )));
            }
            process.send(&format!("setoption name {name} value {value}"))?;
        }
        uci.ready(process, config.stall)?;
        Ok(uci)
    }

    fn ready(&mut self, process: &mut Process, stall: Duration) -> Result<(), EngineError> {
        process.send("isready")?;
        wait_for(process, Instant::now() + stall, "readyok", |l, _| {
            (l.trim() == "readyok").then_some(())
        })
    }

    pub fn new_game(
        &mut self,
        process: &mut Process,
        config: &EngineConfig,
        chess960: bool,
    ) -> Result<(), EngineError> {
        if self.chess960 != Some(chess960) {
            if self.declared.iter().any(|o| o == "uci_chess960") {
                process.send(&format!("setoption name UCI_Chess960 value {chess960}"))?;
            } else if chess960 {
                return Err(EngineError::Protocol(format!(
                    "engine '{}' does not support Chess960 (no UCI_Chess960 option)",
                    config.name
                )));
            }
            self.chess960 = Some(chess960);
        }
        process.send("ucinewgame")?;
        self.ready(process, config.stall)
    }

    pub fn think(
        &mut self,
        process: &mut Process,
        config: &EngineConfig,
        req: &ThinkRequest,
    ) -> Result<Reply, EngineError> {
        let mut position = if req.start_fen == STARTPOS_FEN && !req.chess960 {
            "position startpos".to_string()
        } else {
            format!("position fen {}", req.start_fen)
        };
        if !req.moves.is_empty() {
            position.push_str(" moves");
            for m in req.moves {
                position.push(' ');
                position.push_str(m);
            }
        }
        process.send(&position)?;
        let mut go = String::from("go");
        if let Some(c) = req.clocks {
            go.push_str(&format!(
                " wtime {} btime {} winc {} binc {}",
                c.white_ms, c.black_ms, c.white_inc_ms, c.black_inc_ms
            ));
            if let Some(m) = c.moves_to_go {
                go.push_str(&format!(" movestogo {m}"));
            }
        }
        let limits = &config.limits;
        if let Some(t) = limits.movetime {
            go.push_str(&format!(" movetime {}", t.as_millis()));
        }
        if let Some(n) = limits.nodes {
            go.push_str(&format!(" nodes {n}"));
        }
        if let Some(d) = limits.depth {
            go.push_str(&format!(" depth {d}"));
        }
        process.send(&go)?;
        let (mut depth, mut score, mut pv) = (None, None, Vec::new());
        loop {
            match process.recv(req.deadline) {
                Recv::Line(line, at) => {
                    let mut words = line.split_whitespace();
                    match words.next() {
                        Some("info") => {
                            let (d, s) = parse_info(&line);
                            if s.is_some() {
                                depth = d.or(depth);
                                score = s;
                                if let Some(p) = parse_pv(&line) {
                                    pv = p;
                                }
                            }
                        }
                        Some("bestmove") => {
                            let mv = words.next().unwrap_or("").to_string();
                            if pv.first() != Some(&mv) {
                                pv = vec![mv.clone()];
                            }
                            return Ok(Reply {
                                mv,
                                score,
                                depth,
                                pv,
                                arrived: at,
                            });
                        }
                        _ => {}
                    }
                }
                Recv::Timeout => return Err(EngineError::Timeout),
                Recv::Closed => return Err(EngineError::Disconnected),
                Recv::Cancelled => return Err(EngineError::Cancelled),
            }
        }
    }

    /// Stops a search that overran and waits for its `bestmove` and a `readyok`.
    pub fn settle(&mut self, process: &mut Process, stall: Duration) -> bool {
        if process.send("stop").is_err() {
            return false;
        }
        let got = wait_for(process, Instant::now() + stall, "bestmove", |l, _| {
            l.starts_with("bestmove").then_some(())
        });
        got.is_ok() && self.ready(process, stall).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines() {
        assert_eq!(
            parse_info("info depth 12 seldepth 15 multipv 1 score cp -35 nodes 100 pv e2e4"),
            (Some(12), Some(Score::Cp(-35)))
        );
        assert_eq!(
            parse_info("info depth 20 score mate -3 pv a1a2"),
            (Some(20), Some(Score::Mate(-3)))
        );
        assert_eq!(
            parse_info("info depth 9 multipv 2 score cp 10"),
            (None, None)
        );
        assert_eq!(parse_info("info string hello score"), (None, None));
        assert_eq!(
            parse_pv("info depth 3 multipv 1 score cp 5 pv e2e4 e7e5"),
            Some(vec!["e2e4".to_string(), "e7e5".to_string()])
        );
        assert_eq!(parse_pv("info depth 3 multipv 2 score cp 5 pv d2d4"), None);
        assert_eq!(parse_pv("info depth 3 score cp 5"), None);
        assert_eq!(parse_info("info depth x score cp y"), (None, None));
    }
}
