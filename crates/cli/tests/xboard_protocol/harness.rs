//! An expect/send driver for `sable xboard`: sends lines, waits for lines matching a
//! pattern, keeps the whole transcript, and tracks the game with `sable_chess` so that
//! every engine move can be checked for legality.

use sable::notation::parse_any_move;
use sable_chess::{CastlingMode, Position};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Everything the engine wrote, in order.
    pub transcript: Vec<String>,
    /// Everything sent, for failure messages.
    pub sent: Vec<String>,
    next_ping: u32,
}

pub const WAIT: Duration = Duration::from_secs(20);

impl Engine {
    /// Starts `sable xboard` and completes the feature handshake.
    pub fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sable"))
            .arg("xboard")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("sable starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut e = Engine {
            child,
            stdin,
            lines,
            transcript: Vec::new(),
            sent: Vec::new(),
            next_ping: 1000,
        };
        e.send("xboard");
        e.send("protover 2");
        e.expect(|l| l == "feature done=1");
        e
    }

    pub fn send(&mut self, line: &str) {
        self.sent.push(line.to_string());
        writeln!(self.stdin, "{line}").expect("engine reads");
        self.stdin.flush().unwrap();
    }

    fn fail(&self, what: &str) -> ! {
        panic!(
            "{what}\n--- sent ---\n{}\n--- received ---\n{}",
            self.sent.join("\n"),
            self.transcript.join("\n")
        );
    }

    /// Waits for a line matching `pred` (within [`WAIT`]); returns it and the lines
    /// that came before it (since the call).
    pub fn expect_with(&mut self, mut pred: impl FnMut(&str) -> bool) -> (String, Vec<String>) {
        let deadline = Instant::now() + WAIT;
        let mut before = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.transcript.push(line.clone());
                    if pred(&line) {
                        return (line, before);
                    }
                    before.push(line);
                }
                Err(RecvTimeoutError::Timeout) => self.fail("timed out waiting for a line"),
                Err(RecvTimeoutError::Disconnected) => self.fail("the engine closed its output"),
            }
        }
    }

    pub fn expect(&mut self, pred: impl FnMut(&str) -> bool) -> String {
        self.expect_with(pred).0
    }

    /// Sends a ping and returns every line before the matching pong.
    pub fn sync(&mut self) -> Vec<String> {
        self.next_ping += 1;
        let n = self.next_ping;
        self.send(&format!("ping {n}"));
        let want = format!("pong {n}");
        self.expect_with(|l| l == want).1
    }

    /// Waits for `move X`, checks X is legal in `pos`, plays it there; returns X.
    pub fn expect_move(&mut self, pos: &mut Position) -> String {
        let line = self.expect(|l| l.starts_with("move ") || l == "resign");
        let Some(text) = line.strip_prefix("move ") else {
            self.fail("the engine resigned instead of moving");
        };
        let text = text.to_string();
        match parse_any_move(pos, &text) {
            Ok(m) => {
                pos.make(m);
            }
            Err(e) => self.fail(&format!(
                "engine move {text} is illegal in {}: {e}",
                pos.fen()
            )),
        }
        text
    }

    /// Plays `text` (UCI) on `pos` and sends it as a usermove.
    pub fn user_move(&mut self, pos: &mut Position, text: &str) {
        let m = pos.parse_uci(text).expect("test moves are legal");
        pos.make(m);
        self.send(&format!("usermove {text}"));
    }

    pub fn quit(mut self) {
        self.send("quit");
        let deadline = Instant::now() + WAIT;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    assert!(status.success(), "sable exited with {status}");
                    return;
                }
                _ if Instant::now() > deadline => {
                    let _ = self.child.kill();
                    self.fail("sable did not quit");
                }
                _ => std::thread::sleep(Duration::from_millis(10)),
            }
        }
    }
}

pub fn fen(text: &str) -> Position {
    Position::from_fen(text, CastlingMode::Standard).unwrap()
}

/// Whether a line is thinking output (`ply score time nodes ...`).
pub fn is_thinking(line: &str) -> bool {
    let mut t = line.split_whitespace();
    (0..4).all(|_| t.next().is_some_and(|w| w.parse::<i64>().is_ok()))
}
