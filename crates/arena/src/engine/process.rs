//! A child process that speaks a line protocol on its standard input and output.
//!
//! Its output is read on a thread of its own, so a silent or flooding engine can never
//! block the referee; every line is stamped with the instant it arrived, which is what
//! the clock charges (not the instant the referee got round to looking at it).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use super::EngineError;

/// How often a waiting referee looks at the cancel flag.
const POLL: Duration = Duration::from_millis(50);

/// What a wait for the next line produced.
#[derive(Debug)]
pub enum Recv {
    Line(String, Instant),
    Timeout,
    /// Standard output closed: the engine exited or crashed.
    Closed,
    /// The run is being stopped (Ctrl-C or a finished SPRT).
    Cancelled,
}

/// A running engine process.
pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(String, Instant)>,
    cancel: Arc<AtomicBool>,
    /// Protocol traffic, when debugging (`-debug`): lines go to standard error.
    debug: Option<String>,
}

impl Process {
    /// Starts `program args...` in `dir` (when given).
    pub fn spawn(
        program: &str,
        args: &[String],
        dir: Option<&str>,
        cancel: Arc<AtomicBool>,
        debug: Option<String>,
    ) -> Result<Process, EngineError> {
        let mut cmd = Command::new(program);
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd.spawn().map_err(|e| EngineError::Spawn {
            command: program.to_string(),
            reason: e.to_string(),
        })?;
        let stdout = child.stdout.take().expect("stdout was piped");
        let stdin = child.stdin.take();
        let (tx, rx) = mpsc::channel();
        let reader_name = debug.clone();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let now = Instant::now();
                        // Engines are not always UTF-8 clean; a bad byte must not lose the line.
                        let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                        if let Some(name) = &reader_name {
                            eprintln!("{name} > {line}");
                        }
                        if tx.send((line, now)).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Ok(Process {
            child,
            stdin,
            lines: rx,
            cancel,
            debug,
        })
    }

    /// Writes one line (a newline is added) and flushes it.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        if let Some(name) = &self.debug {
            eprintln!("{name} < {line}");
        }
        let stdin = self.stdin.as_mut().ok_or(EngineError::Disconnected)?;
        writeln!(stdin, "{line}")
            .and_then(|_| stdin.flush())
            .map_err(|_| EngineError::Disconnected)
    }

    /// The next line, waiting at most until `deadline`.
    pub fn recv(&mut self, deadline: Instant) -> Recv {
        loop {
            if self.cancel.load(Ordering::Relaxed) {
                return Recv::Cancelled;
            }
            let now = Instant::now();
            if now >= deadline {
                // A line that arrived in time but was not yet read still counts.
                return match self.lines.try_recv() {
                    Ok((l, t)) => Recv::Line(l, t),
                    Err(mpsc::TryRecvError::Empty) => Recv::Timeout,
                    Err(mpsc::TryRecvError::Disconnected) => Recv::Closed,
                };
            }
            match self.lines.recv_timeout((deadline - now).min(POLL)) {
                Ok((l, t)) => return Recv::Line(l, t),
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => return Recv::Closed,
            }
        }
    }

    /// Drops any output not read yet (after a game, so no stale line leaks into the next).
    pub fn drain(&mut self) {
        while self.lines.try_recv().is_ok() {}
    }

    /// Whether the process is still running.
    pub fn is_alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Closes its input, gives it `grace` to exit, then kills it.
    pub fn shutdown(&mut self, grace: Duration) {
        self.stdin = None;
        let end = Instant::now() + grace;
        while Instant::now() < end {
            if !self.is_alive() {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if self.is_alive() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}
