//! A `sable` process driven over pipes as a GUI drives it: lines sent, lines read back
//! with deadlines, and `quit` (then a kill) when the test is done. Shared by the session
//! tests (UCI, books, bad files).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

pub struct Session {
    child: Child,
    stdin: ChildStdin,
    rx: Receiver<String>,
    /// Standard error, read to the end by a thread, when it is kept.
    stderr: Option<JoinHandle<Vec<u8>>>,
    stopped: bool,
    pub log: Vec<String>,
}

impl Session {
    /// Starts `sable ARGS...`; its standard error is thrown away.
    pub fn start(args: &[&str]) -> Session {
        Session::spawn(args, false)
    }

    /// Starts `sable ARGS...` keeping its standard error, which [`Session::finish`]
    /// returns.
    pub fn start_keeping_stderr(args: &[&str]) -> Session {
        Session::spawn(args, true)
    }

    /// Starts `sable` under an address-space limit of `kb` KiB (`ulimit -v`, which binds
    /// root too), through `sh`.
    pub fn start_with_address_space_limit(kb: u64) -> Session {
        let mut sh = Command::new("sh");
        sh.args([
            "-c",
            &format!("ulimit -v {kb} && exec \"$0\""),
            env!("CARGO_BIN_EXE_sable"),
        ]);
        Session::spawn_command(sh, false)
    }

    fn spawn(args: &[&str], keep_stderr: bool) -> Session {
        let mut sable = Command::new(env!("CARGO_BIN_EXE_sable"));
        sable.args(args);
        Session::spawn_command(sable, keep_stderr)
    }

    fn spawn_command(mut command: Command, keep_stderr: bool) -> Session {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if keep_stderr {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .spawn()
            .expect("start sable");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let stderr = child.stderr.take().map(super::read_to_end);
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
            stderr,
            stopped: false,
            log: vec![],
        }
    }

    fn write_line(&mut self, line: &str) -> std::io::Result<()> {
        self.log.push(format!("> {line}"));
        writeln!(self.stdin, "{line}")?;
        self.stdin.flush()
    }

    pub fn send(&mut self, line: &str) {
        self.write_line(line).unwrap();
    }

    /// Sends a line and ignores a failed write (an engine that has exited): the next
    /// read says so.
    pub fn send_ignoring_errors(&mut self, line: &str) {
        let _ = self.write_line(line);
    }

    /// The next line before `deadline`, logged.
    fn recv(
        &mut self,
        deadline: Instant,
        check_whitespace: bool,
    ) -> Result<String, RecvTimeoutError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        let line = self.rx.recv_timeout(wait)?;
        if check_whitespace {
            assert_eq!(line, line.trim_end(), "trailing whitespace on the wire");
        }
        self.log.push(format!("< {line}"));
        Ok(line)
    }

    pub fn next_line(&mut self, deadline: Instant) -> Option<String> {
        match self.recv(deadline, true) {
            Ok(line) => Some(line),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => {
                panic!("engine exited:\n{}", self.log.join("\n"))
            }
        }
    }

    /// All lines up to and including the first that satisfies `pred`, read before
    /// `deadline`.
    fn lines_until(
        &mut self,
        pred: impl Fn(&str) -> bool,
        deadline: Instant,
        check_whitespace: bool,
    ) -> Result<Vec<String>, RecvTimeoutError> {
        let mut lines = vec![];
        loop {
            let line = self.recv(deadline, check_whitespace)?;
            let done = pred(&line);
            lines.push(line);
            if done {
                return Ok(lines);
            }
        }
    }

    /// Plays with the net in `path` (`EvalFile`, `UseNNUE` on), waiting for `readyok`
    /// and asserting that no `info string` (a refused net) came before it.
    pub fn load_net(&mut self, path: &str) {
        self.send(&format!("setoption name EvalFile value {path}"));
        self.send("setoption name UseNNUE value true");
        self.send("isready");
        let lines = self.until_within(|l| l == "readyok", 10_000);
        assert!(
            !lines.iter().any(|l| l.starts_with("info string")),
            "{lines:?}"
        );
    }

    /// All lines up to and including the first that satisfies `pred`.
    pub fn until_within(&mut self, pred: impl Fn(&str) -> bool, timeout_ms: u64) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_millis(timeout_ms);
        match self.lines_until(pred, deadline, true) {
            Ok(lines) => lines,
            Err(RecvTimeoutError::Timeout) => {
                panic!("timed out; session so far:\n{}", self.log.join("\n"))
            }
            Err(RecvTimeoutError::Disconnected) => {
                panic!("engine exited:\n{}", self.log.join("\n"))
            }
        }
    }

    /// Like [`Session::until_within`] (without the check on trailing whitespace), but
    /// an error with the session so far, not a panic, when the engine exits or
    /// `timeout` passes first.
    pub fn try_until(
        &mut self,
        pred: impl Fn(&str) -> bool,
        timeout: Duration,
    ) -> Result<Vec<String>, String> {
        let deadline = Instant::now() + timeout;
        self.lines_until(pred, deadline, false).map_err(|e| {
            let what = match e {
                RecvTimeoutError::Timeout => "no answer in time",
                RecvTimeoutError::Disconnected => "the engine exited",
            };
            format!("{what}:\n{}", self.log.join("\n"))
        })
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

    /// Says `quit` and returns how the engine ended: `None` when it had to be killed.
    pub fn quit(mut self) -> Option<ExitStatus> {
        self.stop()
    }

    /// Says `quit`, waits for the end (killing it after 5 s) and returns standard error
    /// (empty unless the session was started with [`Session::start_keeping_stderr`]).
    pub fn finish(mut self) -> String {
        self.stop();
        self.stderr
            .take()
            .map(|h| String::from_utf8_lossy(&h.join().unwrap_or_default()).into_owned())
            .unwrap_or_default()
    }

    /// Says `quit` (once) and waits for the end, killing the engine after 5 s; the exit
    /// status when it ended by itself.
    fn stop(&mut self) -> Option<ExitStatus> {
        if std::mem::replace(&mut self.stopped, true) {
            return None;
        }
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        None
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.stop();
    }
}
