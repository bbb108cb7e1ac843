//! The xboard (CECP, protocol 2) adapter: feature negotiation, `new`/`force`/`setboard`,
//! `level`/`st`/`sd`, `time`/`otim` before each move, `go` once and then the opponent's
//! moves, `move ...` replies and thinking output (`ply score time nodes pv`).

use std::time::{Duration, Instant};

use super::{wait_for, EngineConfig, EngineError, Process, Recv, Reply, Score, ThinkRequest};
use sable_chess::{Move, Position, STARTPOS_FEN};

pub struct Xboard {
    setboard: bool,
    usermove: bool,
    ping: bool,
    variants: Option<String>,
    next_ping: u32,
    /// How many of the game's moves the engine has been given.
    known: usize,
    /// Whether the engine has left force mode (after `go`).
    playing: bool,
}

/// `key=value` pairs of a `feature` line (values may be double-quoted).
pub fn parse_features(rest: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut s = rest.trim_start();
    while let Some(eq) = s.find('=') {
        let key = s[..eq].trim().to_string();
        s = &s[eq + 1..];
        let value;
        if let Some(q) = s.strip_prefix('"') {
            let end = q.find('"').unwrap_or(q.len());
            value = q[..end].to_string();
            s = q.get(end + 1..).unwrap_or("");
        } else {
            let end = s.find(char::is_whitespace).unwrap_or(s.len());
            value = s[..end].to_string();
            s = &s[end..];
        }
        out.push((key, value));
        s = s.trim_start();
    }
    out
}

/// Reads thinking output `ply score time nodes pv...`: (depth, score).
pub fn parse_thinking(line: &str) -> Option<(u32, Score)> {
    let mut t = line.split_whitespace();
    let depth: u32 = t.next()?.trim_end_matches(['.', '&']).parse().ok()?;
    let raw: i32 = t.next()?.parse().ok()?;
    // The protocol writes mate in N moves as 100000 + N (mated: -100000 - N); older
    // engines (Fairy-Max among them) write 100000 - plies instead.
    let score = if raw.abs() > 100_000 {
        let moves = raw.abs() - 100_000;
        Score::Mate(if raw > 0 { moves } else { -moves })
    } else if raw.abs() >= 99_000 {
        let plies = 100_000 - raw.abs();
        let moves = (plies.max(0) + 1) / 2;
        Score::Mate(if raw > 0 { moves } else { -moves })
    } else {
        Score::Cp(raw)
    };
    Some((depth, score))
}

fn secs_text(d: Duration) -> String {
    let s = format!("{:.3}", d.as_secs_f64());
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A move as xboard wants it: coordinates, and `O-O`/`O-O-O` for Chess960 castling.
fn move_text(m: Move, chess960: bool) -> String {
    if chess960 && m.is_castle() {
        let side = if m.to().file().index() > m.from().file().index() {
            "O-O"
        } else {
            "O-O-O"
        };
        return side.to_string();
    }
    m.to_uci(false).to_string()
}

/// The engine's move in UCI form for our side of things.
fn read_move(text: &str, pos: &Position) -> String {
    let t = text.trim_end_matches(['+', '#', '!', '?']);
    let castle = match t {
        "O-O" | "0-0" => Some(true),
        "O-O-O" | "0-0-0" => Some(false),
        _ => None,
    };
    if let Some(king_side) = castle {
        let found = pos.legal_moves().iter().copied().find(|m| {
            m.is_castle() && (m.to().file().index() > m.from().file().index()) == king_side
        });
        if let Some(m) = found {
            return m.to_uci(pos.is_chess960()).to_string();
        }
    }
    if pos.parse_uci(t).is_err() {
        if let Ok(m) = crate::notation::parse_san(pos, t) {
            return m.to_uci(pos.is_chess960()).to_string();
        }
    }
    t.to_string()
}

impl Xboard {
    pub fn start(process: &mut Process, config: &EngineConfig) -> Result<Xboard, EngineError> {
        process.send("xboard")?;
        process.send("protover 2")?;
        let mut x = Xboard {
            setboard: false,
            usermove: false,
            ping: false,
            variants: None,
            next_ping: 1,
            known: 0,
            playing: false,
        };
        // Protocol 1 engines never answer: give them two seconds, as the spec says.
        let mut deadline = Instant::now() + Duration::from_secs(2);
        let mut done = false;
        while !done {
            match process.recv(deadline) {
                Recv::Line(line, _) => {
                    let Some(rest) = line.trim().strip_prefix("feature ") else {
                        continue;
                    };
                    for (key, value) in parse_features(rest) {
                        let accept = match key.as_str() {
                            "setboard" => {
                                x.setboard = value == "1";
                                true
                            }
                            "usermove" => {
                                x.usermove = value == "1";
                                true
                            }
                            "ping" => {
                                x.ping = value == "1";
                                true
                            }
                            "variants" => {
                                x.variants = Some(value.clone());
                                true
                            }
                            "san" => value != "1",
                            "done" => {
                                if value == "1" {
                                    done = true;
                                } else {
                                    deadline = Instant::now() + config.stall;
                                }
                                true
                            }
                            _ => true,
                        };
                        let verdict = if accept { "accepted" } else { "rejected" };
                        process.send(&format!("{verdict} {key}"))?;
                    }
                }
                Recv::Timeout => break,
                Recv::Closed => return Err(EngineError::Disconnected),
                Recv::Cancelled => return Err(EngineError::Cancelled),
            }
        }
        if config.limits.nodes.is_some() {
            return Err(EngineError::Protocol(format!(
                "engine '{}': node limits are not supported over xboard",
                config.name
            )));
        }
        for (name, value) in &config.options {
            let line = match name.to_ascii_lowercase().as_str() {
                "hash" | "memory" => format!("memory {value}"),
                "threads" | "cores" => format!("cores {value}"),
                _ => format!("option {name}={value}"),
            };
            process.send(&line)?;
        }
        x.sync(process, config.stall)?;
        Ok(x)
    }

    /// `ping`/`pong`, when the engine has it: proves it has read everything so far.
    fn sync(&mut self, process: &mut Process, stall: Duration) -> Result<(), EngineError> {
        if !self.ping {
            return Ok(());
        }
        let n = self.next_ping;
        self.next_ping += 1;
        process.send(&format!("ping {n}"))?;
        let want = format!("pong {n}");
        wait_for(process, Instant::now() + stall, "pong", |l, _| {
            (l.trim() == want).then_some(())
        })
    }

    pub fn new_game(
        &mut self,
        process: &mut Process,
        config: &EngineConfig,
        start_fen: &str,
        chess960: bool,
    ) -> Result<(), EngineError> {
        process.send("new")?;
        if chess960 {
            let ok = self
                .variants
                .as_deref()
                .is_some_and(|v| v.split(',').any(|v| v.trim() == "fischerandom"));
            if !ok {
                return Err(EngineError::Protocol(format!(
                    "engine '{}' does not list variant fischerandom",
                    config.name
                )));
            }
            process.send("variant fischerandom")?;
        }
        process.send("force")?;
        if start_fen != STARTPOS_FEN || chess960 {
            if !self.setboard {
                return Err(EngineError::Protocol(format!(
                    "engine '{}' cannot start from a FEN (no setboard feature); use a PGN book of moves from the start position",
                    config.name
                )));
            }
            process.send(&format!("setboard {start_fen}"))?;
        }
        let l = &config.limits;
        if let Some(c) = l.clock {
            let base = c.base.as_secs();
            process.send(&format!(
                "level {} {}:{:02} {}",
                c.moves.unwrap_or(0),
                base / 60,
                base % 60,
                secs_text(c.inc)
            ))?;
        }
        if let Some(t) = l.movetime {
            process.send(&format!("st {}", secs_text(t)))?;
        }
        if let Some(d) = l.depth {
            process.send(&format!("sd {d}"))?;
        }
        process.send("post")?;
        process.send("easy")?;
        self.known = 0;
        self.playing = false;
        self.sync(process, config.stall)
    }

    fn send_move(&self, process: &mut Process, m: Move, chess960: bool) -> Result<(), EngineError> {
        let text = move_text(m, chess960);
        if self.usermove {
            process.send(&format!("usermove {text}"))
        } else {
            process.send(&text)
        }
    }

    pub fn think(
        &mut self,
        process: &mut Process,
        _config: &EngineConfig,
        req: &ThinkRequest,
    ) -> Result<Reply, EngineError> {
        let unknown = &req.raw_moves[self.known.min(req.raw_moves.len())..];
        let reply_only = self.playing && unknown.len() == 1;
        if !reply_only {
            if self.playing {
                process.send("force")?;
            }
            for &m in unknown {
                self.send_move(process, m, req.chess960)?;
            }
        }
        if let Some(c) = req.clocks {
            let (own, opp) = match c.turn {
                sable_chess::Color::White => (c.white_ms, c.black_ms),
                sable_chess::Color::Black => (c.black_ms, c.white_ms),
            };
            process.send(&format!("time {}", own / 10))?;
            process.send(&format!("otim {}", opp / 10))?;
        }
        if reply_only {
            self.send_move(process, unknown[0], req.chess960)?;
        } else {
            process.send("go")?;
            self.playing = true;
        }
        self.known = req.raw_moves.len();
        let (mut depth, mut score) = (None, None);
        loop {
            match process.recv(req.deadline) {
                Recv::Line(line, at) => {
                    let line = line.trim();
                    if let Some(mv) = line.strip_prefix("move ") {
                        self.known += 1;
                        let mv = read_move(mv.trim(), req.position);
                        return Ok(Reply {
                            pv: vec![mv.clone()],
                            mv,
                            score,
                            depth,
                            arrived: at,
                        });
                    }
                    if line == "resign" || line.starts_with("tellics resign") {
                        return Err(EngineError::Resigned);
                    }
                    if let Some((d, s)) = parse_thinking(line) {
                        depth = Some(d);
                        score = Some(s);
                    }
                }
                Recv::Timeout => return Err(EngineError::Timeout),
                Recv::Closed => return Err(EngineError::Disconnected),
                Recv::Cancelled => return Err(EngineError::Cancelled),
            }
        }
    }

    pub fn end_game(&mut self, process: &mut Process, result: &str, reason: &str) {
        let _ = process.send(&format!("result {result} {{{reason}}}"));
        let _ = process.send("force");
        self.playing = false;
    }

    /// After a timeout: `force` stops the search; a `pong` shows the engine listens.
    pub fn settle(&mut self, process: &mut Process, stall: Duration) -> bool {
        self.playing = false;
        if process.send("force").is_err() {
            return false;
        }
        if self.ping {
            return self.sync(process, stall).is_ok();
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features() {
        let f = parse_features(r#"myname="Fairy-Max 5.0b" setboard=0 ping=1  done=0"#);
        assert_eq!(
            f,
            vec![
                ("myname".to_string(), "Fairy-Max 5.0b".to_string()),
                ("setboard".to_string(), "0".to_string()),
                ("ping".to_string(), "1".to_string()),
                ("done".to_string(), "0".to_string()),
            ]
        );
    }

    #[test]
    fn thinking() {
        assert_eq!(
            parse_thinking("7 -35 120 5000 e2e4 e7e5"),
            Some((7, Score::Cp(-35)))
        );
        assert_eq!(
            parse_thinking("12 99997 5 100 d1h5"),
            Some((12, Score::Mate(2)))
        );
        assert_eq!(
            parse_thinking("12 -99998 5 100 d1h5"),
            Some((12, Score::Mate(-1)))
        );
        // The protocol's own form: 100000 + moves.
        assert_eq!(
            parse_thinking("9 100003 5 100 d1h5"),
            Some((9, Score::Mate(3)))
        );
        assert_eq!(
            parse_thinking("9 -100002 5 100 d1h5"),
            Some((9, Score::Mate(-2)))
        );
        assert_eq!(parse_thinking("tellics say hi"), None);
    }

    #[test]
    fn castling_text() {
        let pos = Position::from_fen(
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            sable_chess::CastlingMode::Standard,
        )
        .unwrap();
        assert_eq!(read_move("O-O", &pos), "e1g1");
        assert_eq!(read_move("O-O-O", &pos), "e1c1");
        assert_eq!(read_move("e1g1", &pos), "e1g1");
        let m = pos.parse_uci("e1g1").unwrap();
        assert_eq!(move_text(m, true), "O-O");
        assert_eq!(move_text(m, false), "e1g1");
    }
}
