//! A `sable serve` process for the tests (on a free port, ended when dropped), and a
//! plain WebSocket session with it.

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tungstenite::{stream::MaybeTlsStream, Message, WebSocket};

pub struct Server {
    child: Child,
    pub port: u16,
}

impl Server {
    /// `sable serve --port 0 ARGS...`, once it has said where it listens.
    pub fn start(args: &[&str]) -> Server {
        Server::start_on(0, args)
    }

    /// `sable serve --port PORT ARGS...` (0: a free port), once it has said where it
    /// listens; a given port brings a server back where a page expects it.
    pub fn start_on(port: u16, args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sable"))
            .args(["serve", "--port", &port.to_string()])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("sable serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .expect("sable serve prints its address");
        let port = line
            .split("http://127.0.0.1:")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        Server { child, port }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/", self.port)
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// A plain HTTP GET: (status line, body).
    pub fn get(&self, path: &str) -> (String, String) {
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        write!(
            s,
            "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n",
            self.port
        )
        .unwrap();
        let mut text = String::new();
        s.read_to_string(&mut text).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
        (
            head.lines().next().unwrap_or("").to_string(),
            body.to_string(),
        )
    }

    /// Sessions holding an engine, as `/api/status` tells.
    pub fn sessions(&self) -> u64 {
        let (_, body) = self.get("/api/status");
        let v: Value = serde_json::from_str(&body).unwrap();
        v["sessions"].as_u64().unwrap()
    }

    /// Waits until `/api/status` counts `n` sessions.
    pub fn wait_sessions(&self, n: u64, within: Duration) {
        let start = Instant::now();
        while self.sessions() != n {
            assert!(
                start.elapsed() < within,
                "{} sessions after {within:?}, expected {n}",
                self.sessions()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The server's resident memory in KiB (Linux).
    pub fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid())).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .unwrap()
    }

    /// Whether the process still runs.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One page's socket.
pub struct Client {
    pub ws: WebSocket<MaybeTlsStream<TcpStream>>,
}

impl Client {
    pub fn connect(server: &Server) -> Client {
        let (ws, _) = tungstenite::connect(format!("ws://127.0.0.1:{}/ws", server.port))
            .expect("the socket opens");
        if let MaybeTlsStream::Plain(s) = ws.get_ref() {
            s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        }
        Client { ws }
    }

    pub fn send(&mut self, v: Value) {
        self.ws.send(Message::text(v.to_string())).unwrap();
    }

    pub fn send_text(&mut self, text: String) {
        self.ws.send(Message::text(text)).unwrap();
    }

    /// The next message, as JSON.
    pub fn recv(&mut self) -> Value {
        loop {
            match self.ws.read().expect("a message within the timeout") {
                Message::Text(t) => return serde_json::from_str(t.as_str()).unwrap(),
                Message::Close(_) => panic!("the server closed the socket"),
                _ => {}
            }
        }
    }

    /// Messages until one of type `t` (returned); the others are dropped.
    pub fn until(&mut self, t: &str) -> Value {
        loop {
            let v = self.recv();
            if v["t"] == t {
                return v;
            }
        }
    }
}
