//! The connection to the server: the TCP socket, a reader thread that cuts the byte
//! stream into lines (prompts that end without a newline too; over-long lines cut and
//! reported; Timeseal probes answered), and the writer (Timeseal-encoded when asked).
//! Also the login (the server's `login:` / `password:` prompts, guest and registered
//! handles) and the session setup commands. The password is sent, never logged.

use crate::log::Log;
use crate::messages::{classify, ServerLine};
use crate::timeseal;
use std::io::{Read, Write};
use std::net::{Shutdown, TcpStream, ToSocketAddrs};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The longest line kept; the rest of a longer one is dropped (and reported).
pub const MAX_LINE: usize = 64 * 1024;

/// What the reader thread hands over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Incoming {
    Line(String),
    /// A line longer than [`MAX_LINE`] bytes: its first bytes and its length.
    Overlong {
        start: String,
        len: usize,
    },
    /// The server closed the connection, or reading failed (the reason).
    Closed(String),
}

/// Why connecting or logging in failed.
#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    #[error("cannot connect to {addr}: {why}")]
    Connect { addr: String, why: String },
    #[error("no answer from the server within {0} ms ({1})")]
    Timeout(u64, &'static str),
    #[error("the server closed the connection during login: {0}")]
    Closed(String),
    /// Refused in a way retrying will not mend (a wrong password, a registered handle
    /// without one).
    #[error("login refused: {0}")]
    Refused(String),
}

impl ConnectError {
    /// Whether trying again later may succeed.
    pub fn is_retryable(&self) -> bool {
        !matches!(self, ConnectError::Refused(_))
    }
}

/// An open connection.
pub struct Connection {
    writer: Arc<Mutex<TcpStream>>,
    lines: Receiver<Incoming>,
    /// When Timeseal is on: the time we connected, for the time stamps.
    seal: Option<Instant>,
    log: Log,
    /// Lines we sent, the last few (tests and the log read them).
    pub sent: u64,
}

fn write_line(w: &Mutex<TcpStream>, seal: Option<Instant>, line: &str) -> std::io::Result<()> {
    let bytes = match seal {
        Some(t0) => timeseal::encode(line.as_bytes(), t0.elapsed().as_millis() as u64),
        None => format!("{line}\n").into_bytes(),
    };
    let mut s = w.lock().unwrap_or_else(|e| e.into_inner());
    s.write_all(&bytes)?;
    s.flush()
}

/// Whether a line held without its newline is a prompt waiting for us.
fn is_prompt(pending: &[u8]) -> bool {
    let text = String::from_utf8_lossy(pending);
    let t = text.trim_end();
    t.ends_with("login:")
        || t.ends_with("password:")
        || t.ends_with("fics%")
        || (t.contains("Press return") && t.ends_with("\":"))
}

/// The reader thread: bytes to lines until the socket closes.
fn read_loop(
    mut stream: TcpStream,
    writer: Arc<Mutex<TcpStream>>,
    seal: Option<Instant>,
    tx: mpsc::Sender<Incoming>,
) {
    let mut buf = [0u8; 16 * 1024];
    let mut pending: Vec<u8> = Vec::new();
    let mut dropped = 0usize; // bytes of an over-long line thrown away so far
    let mut filter = timeseal::ProbeFilter::default();
    let mut clean = Vec::new();
    let emit = |tx: &mpsc::Sender<Incoming>, bytes: &[u8]| {
        let line = String::from_utf8_lossy(bytes)
            .trim_end_matches(['\r', '\n'])
            .to_string();
        tx.send(Incoming::Line(line)).is_ok()
    };
    loop {
        let n = match stream.read(&mut buf) {
            Ok(0) => {
                let _ = tx.send(Incoming::Closed("the server closed the connection".into()));
                return;
            }
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                let _ = tx.send(Incoming::Closed(e.to_string()));
                return;
            }
        };
        clean.clear();
        let data: &[u8] = if seal.is_some() {
            let probes = filter.feed(&buf[..n], &mut clean);
            for _ in 0..probes {
                let _ = write_line(&writer, seal, timeseal::PROBE_ACK);
            }
            &clean
        } else {
            &buf[..n]
        };
        for &b in data {
            if b == b'\n' {
                if dropped > 0 {
                    let start =
                        String::from_utf8_lossy(&pending[..pending.len().min(80)]).into_owned();
                    let len = dropped + pending.len();
                    if tx.send(Incoming::Overlong { start, len }).is_err() {
                        return;
                    }
                    dropped = 0;
                    pending.clear();
                    continue;
                }
                if !emit(&tx, &pending) {
                    return;
                }
                pending.clear();
            } else if pending.len() < MAX_LINE {
                pending.push(b);
            } else {
                dropped += 1;
            }
        }
        if dropped == 0 && !pending.is_empty() && is_prompt(&pending) {
            if !emit(&tx, &pending) {
                return;
            }
            pending.clear();
        }
    }
}

impl Connection {
    /// Connects to `host:port` within `timeout`.
    pub fn open(
        host: &str,
        port: u16,
        timeout: Duration,
        timeseal: bool,
        log: Log,
    ) -> Result<Connection, ConnectError> {
        let addr = format!("{host}:{port}");
        let fail = |why: String| ConnectError::Connect {
            addr: addr.clone(),
            why,
        };
        let addrs: Vec<_> = addr
            .to_socket_addrs()
            .map_err(|e| fail(e.to_string()))?
            .collect();
        let mut last = "no address".to_string();
        let mut stream = None;
        for a in addrs {
            match TcpStream::connect_timeout(&a, timeout) {
                Ok(s) => {
                    stream = Some(s);
                    break;
                }
                Err(e) => last = e.to_string(),
            }
        }
        let stream = stream.ok_or_else(|| fail(last))?;
        let _ = stream.set_nodelay(true);
        let _ = stream.set_write_timeout(Some(Duration::from_secs(30)));
        let reader = stream.try_clone().map_err(|e| fail(e.to_string()))?;
        let writer = Arc::new(Mutex::new(stream));
        let seal = timeseal.then(Instant::now);
        let (tx, rx) = mpsc::channel();
        let w = writer.clone();
        std::thread::Builder::new()
            .name("ics-reader".into())
            .spawn(move || read_loop(reader, w, seal, tx))
            .map_err(|e| fail(e.to_string()))?;
        let conn = Connection {
            writer,
            lines: rx,
            seal,
            log,
            sent: 0,
        };
        if seal.is_some() {
            conn.write(timeseal::HELLO)
                .map_err(|e| fail(e.to_string()))?;
        }
        Ok(conn)
    }

    fn write(&self, line: &str) -> std::io::Result<()> {
        write_line(&self.writer, self.seal, line)
    }

    /// Sends a command (logged). A failed write shows up as `Closed` from [`Connection::next`].
    pub fn send(&mut self, line: &str) {
        self.log.line(&format!("> {line}"));
        self.sent += 1;
        if let Err(e) = self.write(line) {
            self.log.line(&format!("error: writing to the server: {e}"));
            let _ = self.writer.lock().map(|s| s.shutdown(Shutdown::Both));
        }
    }

    /// Sends the password: the log says only that it was sent.
    fn send_secret(&mut self, secret: &str) {
        self.log.line("> (password)");
        if let Err(e) = self.write(secret) {
            self.log.line(&format!("error: writing to the server: {e}"));
        }
    }

    /// The next line within `timeout` (`None`: nothing came).
    pub fn next(&mut self, timeout: Duration) -> Option<Incoming> {
        match self.lines.recv_timeout(timeout) {
            Ok(i) => Some(i),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => {
                Some(Incoming::Closed("the reader stopped".into()))
            }
        }
    }

    /// Closes the socket (the reader thread then ends).
    pub fn close(&mut self) {
        let _ = self.writer.lock().map(|s| s.shutdown(Shutdown::Both));
    }

    /// Logs in as `handle` ("guest" for a guest) with `password` if registered; returns
    /// the handle the server gave the session.
    pub fn login(
        &mut self,
        handle: &str,
        password: Option<&str>,
        timeout: Duration,
    ) -> Result<String, ConnectError> {
        let deadline = Instant::now() + timeout;
        let ms = timeout.as_millis() as u64;
        let mut sent_handle = false;
        let mut sent_password = false;
        let mut offered: Option<String> = None;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(ConnectError::Timeout(
                    ms,
                    if sent_handle {
                        "after the handle"
                    } else {
                        "waiting for login:"
                    },
                ));
            }
            let line = match self.next(left) {
                None => continue,
                Some(Incoming::Closed(why)) => return Err(ConnectError::Closed(why)),
                Some(Incoming::Overlong { len, .. }) => {
                    self.log
                        .line(&format!("warning: a {len}-byte line at login, dropped"));
                    continue;
                }
                Some(Incoming::Line(l)) => l,
            };
            if !line.trim().is_empty() {
                self.log.line(&format!("< {line}"));
            }
            match classify(&line) {
                ServerLine::LoginPrompt => {
                    if sent_handle {
                        return Err(ConnectError::Refused(format!(
                            "the server asked for the handle again after '{handle}'"
                        )));
                    }
                    self.send(handle);
                    sent_handle = true;
                }
                ServerLine::PasswordPrompt => match password {
                    Some(p) if !sent_password => {
                        self.send_secret(p);
                        sent_password = true;
                    }
                    Some(_) => {
                        return Err(ConnectError::Refused(
                            "the password was not accepted".into(),
                        ))
                    }
                    None => {
                        return Err(ConnectError::Refused(format!(
                            "'{handle}' is a registered handle: give its password file"
                        )))
                    }
                },
                ServerLine::PressReturn { handle: h } => {
                    self.log.line(&format!("logging in as '{h}'"));
                    self.send("");
                    offered = Some(h);
                }
                ServerLine::SessionStarted { handle } => return Ok(handle),
                // Servers without the `Starting FICS session` line: the first command
                // prompt after the handle means we are in.
                ServerLine::Prompt if sent_handle => {
                    return Ok(offered.unwrap_or_else(|| handle.to_string()))
                }
                ServerLine::LoginRefused { text } => return Err(ConnectError::Refused(text)),
                _ => {}
            }
        }
    }

    /// The settings a bot needs: style-12 boards, no wrapping, a fixed prompt, clocks in
    /// ms (`ms`), the interface string, `open` for challenges, no seek ads.
    pub fn setup(&mut self, interface: &str, open: bool, ms: bool) {
        self.send("set style 12");
        self.send("iset nowrap 1");
        self.send("iset defprompt 1");
        if ms {
            self.send("iset ms 1");
        }
        self.send(&format!("set interface {interface}"));
        self.send(if open { "set open 1" } else { "set open 0" });
        self.send("set seek 0");
        self.send("set shout 0");
        self.send("set cshout 0");
        self.send("set bell 0");
        self.send("set pin 0");
        self.send("set gin 0");
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.close();
    }
}
