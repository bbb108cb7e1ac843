//! The connection to the server: the TCP socket, a reader thread that hands the byte
//! stream to [`crate::framing`] (lines and block-mode replies; Timeseal probes answered
//! first), and the writer (Timeseal-encoded when asked; in block mode every command
//! numbered, and the numbers kept so that a reply names the command it answers). Also
//! the login (the server's `login:` / `password:` prompts, guest and registered
//! handles) and the session setup commands, block mode asked for first. The password is
//! sent, never logged.

use crate::framing::Framer;
pub use crate::framing::{Incoming, Reply, MAX_LINE};
use crate::log::Log;
use crate::messages::{classify, ServerLine};
use crate::timeseal;
use std::collections::VecDeque;
use std::io::{Read, Write};
use std::net::{Shutdown, TcpStream, ToSocketAddrs};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How often the reader wakes without input, to give up a block whose end was lost.
const READ_TICK: Duration = Duration::from_millis(250);

/// The command ids of block mode: the next one, and the commands awaiting a reply.
struct Ids {
    next: u32,
    sent: VecDeque<(u32, String)>,
}

/// Ids run from 1 (0 is the server's own) to this and start again: far more than the
/// commands ever awaiting replies at once, and short on the wire.
const MAX_ID: u32 = 999;

/// How long after asking for block mode a `BLK_ERROR_NOSEQUENCE` still means the
/// server took it with that request (the commands since are sent again).
const LATE_BLOCK_WINDOW: Duration = Duration::from_secs(30);

/// How many commands awaiting a reply are remembered (the oldest are forgotten: a
/// reply that never came must not hold its entry for ever).
const KEEP_SENT: usize = 64;

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
    /// In block mode: the command ids.
    block: Option<Ids>,
    /// What came while the setup waited for the answer to `iset block 1`, to be read.
    held: VecDeque<Incoming>,
    /// After block mode was asked for and not seen taken: when, and the commands sent
    /// unnumbered since. A server that took it after all dropped them all (it answers
    /// each with `BLK_ERROR_NOSEQUENCE`), so they are sent again, numbered.
    unnumbered: Option<(Instant, Vec<String>)>,
    log: Log,
    /// How many lines we sent.
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

/// The reader thread: bytes to lines and replies until the socket closes.
fn read_loop(
    mut stream: TcpStream,
    writer: Arc<Mutex<TcpStream>>,
    seal: Option<Instant>,
    tx: mpsc::Sender<Incoming>,
) {
    let mut buf = [0u8; 16 * 1024];
    let mut filter = timeseal::ProbeFilter::default();
    let mut framer = Framer::default();
    let mut clean = Vec::new();
    // Waking now and then lets a block whose end never comes be given up.
    let _ = stream.set_read_timeout(Some(READ_TICK));
    let hand_on = |items: Vec<Incoming>| items.into_iter().all(|i| tx.send(i).is_ok());
    loop {
        let n = match stream.read(&mut buf) {
            Ok(0) => {
                let _ = hand_on(framer.tick(Instant::now() + crate::framing::BLOCK_TIMEOUT));
                let _ = tx.send(Incoming::Closed("the server closed the connection".into()));
                return;
            }
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                if !hand_on(framer.tick(Instant::now())) {
                    return;
                }
                continue;
            }
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
        let now = Instant::now();
        let mut items = framer.tick(now);
        items.extend(framer.feed(data, now));
        if !hand_on(items) {
            return;
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
            block: None,
            held: VecDeque::new(),
            unnumbered: None,
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

    /// Sends a command (logged), numbered in block mode. A failed write shows up as
    /// `Closed` from [`Connection::next`].
    pub fn send(&mut self, line: &str) {
        let line = match &mut self.block {
            Some(ids) => {
                let id = ids.next;
                ids.next = if id >= MAX_ID { 1 } else { id + 1 };
                // An id used again forgets the command it was given before.
                ids.sent.retain(|(i, _)| *i != id);
                ids.sent.push_back((id, line.to_string()));
                if ids.sent.len() > KEEP_SENT {
                    ids.sent.pop_front();
                }
                format!("{id} {line}")
            }
            None => {
                if let Some((since, sent)) = &mut self.unnumbered {
                    if since.elapsed() < LATE_BLOCK_WINDOW && sent.len() < KEEP_SENT {
                        sent.push(line.to_string());
                    }
                }
                line.to_string()
            }
        };
        self.log.line(&format!("> {line}"));
        self.sent += 1;
        if let Err(e) = self.write(&line) {
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

    /// The next line or reply within `timeout` (`None`: nothing came). A reply names
    /// the command it answers, when we sent one with its id.
    pub fn next(&mut self, timeout: Duration) -> Option<Incoming> {
        if let Some(i) = self.held.pop_front() {
            return Some(i);
        }
        let item = match self.lines.recv_timeout(timeout) {
            Ok(i) => i,
            Err(RecvTimeoutError::Timeout) => return None,
            Err(RecvTimeoutError::Disconnected) => Incoming::Closed("the reader stopped".into()),
        };
        Some(match item {
            Incoming::Reply(mut r) => {
                if let Some(ids) = &mut self.block {
                    if let Some(k) = ids.sent.iter().position(|(i, _)| *i == r.id) {
                        r.command = ids.sent.remove(k).map(|(_, c)| c);
                    }
                }
                Incoming::Reply(r)
            }
            other => other,
        })
    }

    /// Whether commands are sent numbered (the server took block mode).
    pub fn block_mode(&self) -> bool {
        self.block.is_some()
    }

    /// Numbers every command from now on: the server is in block mode.
    fn start_block_mode(&mut self) {
        if self.block.is_none() {
            self.block = Some(Ids {
                next: 1,
                sent: VecDeque::new(),
            });
        }
    }

    /// The server answered an unnumbered command with `BLK_ERROR_NOSEQUENCE`: it is in
    /// block mode though it did not say so. Commands are numbered from now on, and
    /// those sent unnumbered since block mode was asked for (all dropped, since the
    /// server took it with that request) are sent again; returns how many.
    pub fn block_mode_found(&mut self) -> usize {
        self.start_block_mode();
        let Some((_, lost)) = self.unnumbered.take() else {
            return 0;
        };
        for c in &lost {
            self.send(c);
        }
        lost.len()
    }

    /// Asks for block mode (`iset block 1`) and waits up to `wait` for the answer.
    /// FICS says `block set.`; a server without it says something else about `block`
    /// (FICS 1.6 answers `com_iset: block 1` and ignores it), or nothing: then the
    /// client stays in plain mode, since a command numbered for a server that does not
    /// expect it would be refused. What comes meanwhile is kept for [`Connection::next`].
    fn ask_for_block_mode(&mut self, wait: Duration) {
        self.send("iset block 1");
        let until = Instant::now() + wait;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            let item = match self.lines.recv_timeout(left) {
                Ok(i) => i,
                Err(_) => {
                    self.log.line(&format!(
                        "block mode: no answer to 'iset block 1' within {} ms; commands go unnumbered",
                        wait.as_millis()
                    ));
                    self.unnumbered = Some((Instant::now(), Vec::new()));
                    return;
                }
            };
            let verdict = match &item {
                Incoming::Line(l) => match classify(l) {
                    ServerLine::SettingConfirmed { name } if name.eq_ignore_ascii_case("block") => {
                        Some(true)
                    }
                    _ if l.to_ascii_lowercase().contains("block") => Some(false),
                    _ => None,
                },
                Incoming::Closed(_) => Some(false),
                // A reply means the server numbers its answers: it took block mode.
                Incoming::Reply(_) => Some(true),
                _ => None,
            };
            self.held.push_back(item);
            match verdict {
                Some(true) => {
                    self.log
                        .line("block mode on: commands are numbered, replies matched to them");
                    self.start_block_mode();
                    return;
                }
                Some(false) => {
                    self.log
                        .line("block mode: the server did not take it; commands go unnumbered");
                    self.unnumbered = Some((Instant::now(), Vec::new()));
                    return;
                }
                None => {}
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
                Some(Incoming::BadFrame(why)) => {
                    self.log.line(&format!("warning: at login: {why}"));
                    continue;
                }
                // No command of ours is numbered yet: nothing to answer.
                Some(Incoming::Reply(r)) => {
                    self.log.line(&format!(
                        "warning: a block-mode reply (#{}) at login, ignored",
                        r.id
                    ));
                    continue;
                }
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

    /// The settings a bot needs: block mode first when `block` (waiting up to
    /// `block_wait` for the answer, so that the rest are numbered if it is taken),
    /// style-12 boards, no wrapping, a fixed prompt, clocks in ms (`ms`), the interface
    /// string, `open` for challenges, no seek ads.
    pub fn setup(
        &mut self,
        interface: &str,
        open: bool,
        ms: bool,
        block: bool,
        block_wait: Duration,
    ) {
        if block {
            self.ask_for_block_mode(block_wait);
        }
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
