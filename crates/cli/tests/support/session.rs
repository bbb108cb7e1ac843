//! A `sable` process driven over pipes as a GUI drives it: lines sent, lines read back
//! with deadlines, and `quit` (then a kill) when the test is done. Shared by the session
//! tests (UCI, books).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

pub struct Session {
    child: Child,
    stdin: ChildStdin,
    rx: Receiver<String>,
    pub log: Vec<String>,
}

impl Session {
    pub fn start(args: &[&str]) -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sable"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start sable");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Session {
            child,
            stdin,
            rx,
            log: vec![],
        }
    }
    pub fn send(&mut self, line: &str) {
        self.log.push(format!("> {line}"));
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }
    pub fn next_line(&mut self, deadline: Instant) -> Option<String> {
        let now = Instant::now();
        let wait = deadline.saturating_duration_since(now);
        match self.rx.recv_timeout(wait) {
            Ok(line) => {
                assert_eq!(line, line.trim_end(), "trailing whitespace on the wire");
                self.log.push(format!("< {line}"));
                Some(line)
            }
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => {
                panic!("engine exited:\n{}", self.log.join("\n"))
            }
        }
    }
    /// All lines up to and including the first that satisfies `pred`.
    pub fn until_within(&mut self, pred: impl Fn(&str) -> bool, timeout_ms: u64) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_millis(timeout_ms);
        let mut lines = vec![];
        loop {
            match self.next_line(deadline) {
                Some(l) => {
                    let done = pred(&l);
                    lines.push(l);
                    if done {
                        return lines;
                    }
                }
                None => panic!("timed out; session so far:\n{}", self.log.join("\n")),
            }
        }
    }
    /// Lines arriving within `ms`.
    pub fn for_ms(&mut self, ms: u64) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_millis(ms);
        let mut lines = vec![];
        while let Some(l) = self.next_line(deadline) {
            lines.push(l);
        }
        lines
    }

    /// Lines up to and including the first that satisfies `pred`, within 20 seconds.
    pub fn until(&mut self, pred: impl Fn(&str) -> bool) -> Vec<String> {
        self.until_within(pred, 20_000)
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
    }
}
