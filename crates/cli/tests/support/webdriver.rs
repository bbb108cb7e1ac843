//! A small W3C WebDriver client for the browser tests: Debian's `chromedriver` driving
//! headless `chromium`, spoken to over plain HTTP/1.1 on the loopback. Only what the
//! tests use: open a page, find elements, click, type, run a script, real pointer
//! clicks at a point, screenshots, and waiting for a condition.

use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
pub const CHROMIUM: &str = "/usr/bin/chromium";

pub struct Browser {
    driver: Child,
    port: u16,
    session: String,
    profile: std::path::PathBuf,
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Browser {
    /// A fresh headless browser with a window of `width` × `height` CSS pixels.
    pub fn start(width: u32, height: u32) -> Browser {
        Browser::launch(width, height, false)
    }

    /// A phone's screen (chromium's device emulation: a desktop window has a least
    /// width larger than a phone's).
    pub fn start_phone(width: u32, height: u32) -> Browser {
        Browser::launch(width, height, true)
    }

    fn launch(width: u32, height: u32, phone: bool) -> Browser {
        let port = free_port();
        let driver = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver runs (apt-get install chromium-driver)");
        let profile =
            std::env::temp_dir().join(format!("sable-chromium-{}-{port}", std::process::id()));
        let mut b = Browser {
            driver,
            port,
            session: String::new(),
            profile,
        };
        let start = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "chromedriver did not listen"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--mute-audio",
            &format!("--window-size={width},{height}"),
            &format!("--user-data-dir={}", b.profile.display()),
        ];
        let mut options = json!({"binary": CHROMIUM, "args": args});
        if phone {
            options["mobileEmulation"] = json!({"deviceMetrics": {
                "width": width, "height": height, "pixelRatio": 1.0, "touch": false,
            }});
        }
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": options,
        }}});
        let v = b
            .call("POST", "/session", Some(caps))
            .expect("a browser session starts");
        b.session = v["sessionId"].as_str().unwrap().to_string();
        b.call(
            "POST",
            &b.path("/timeouts"),
            Some(json!({"script": 30000, "pageLoad": 30000, "implicit": 0})),
        )
        .unwrap();
        b
    }

    fn path(&self, tail: &str) -> String {
        format!("/session/{}{tail}", self.session)
    }

    /// One WebDriver command; the `value` of its answer, or its error message.
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, String> {
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).map_err(|e| e.to_string())?;
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        write!(
            s,
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.port,
            body.len()
        )
        .map_err(|e| e.to_string())?;
        // chromedriver keeps the connection open: read the header, then the body by its
        // length (or its chunks).
        let mut raw = Vec::new();
        let mut buf = [0u8; 65536];
        let split = loop {
            if let Some(i) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
                break i;
            }
            let n = s.read(&mut buf).map_err(|e| e.to_string())?;
            if n == 0 {
                return Err("the driver closed the connection before its answer".into());
            }
            raw.extend_from_slice(&buf[..n]);
        };
        let head = String::from_utf8_lossy(&raw[..split]).to_lowercase();
        let mut payload = raw[split + 4..].to_vec();
        let length = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .and_then(|v| v.trim().parse::<usize>().ok());
        let chunked = head.contains("transfer-encoding: chunked");
        loop {
            let done = match length {
                Some(len) => payload.len() >= len,
                None if chunked => payload.ends_with(b"0\r\n\r\n"),
                None => false,
            };
            if done {
                break;
            }
            let n = s.read(&mut buf).map_err(|e| e.to_string())?;
            if n == 0 {
                break;
            }
            payload.extend_from_slice(&buf[..n]);
        }
        if chunked {
            payload = dechunk(&payload);
        }
        let v: Value = serde_json::from_slice(&payload)
            .map_err(|e| format!("{e}: {}", String::from_utf8_lossy(&payload)))?;
        let value = v["value"].clone();
        if value.get("error").is_some() {
            return Err(format!(
                "{}: {}",
                value["error"].as_str().unwrap_or(""),
                value["message"].as_str().unwrap_or("")
            ));
        }
        Ok(value)
    }

    pub fn goto(&self, url: &str) {
        self.call("POST", &self.path("/url"), Some(json!({"url": url})))
            .unwrap();
    }

    pub fn refresh(&self) {
        self.call("POST", &self.path("/refresh"), Some(json!({})))
            .unwrap();
    }

    /// Runs `script` (a function body; `arguments` holds `args`) and returns its value.
    pub fn js(&self, script: &str, args: Vec<Value>) -> Value {
        self.call(
            "POST",
            &self.path("/execute/sync"),
            Some(json!({"script": script, "args": args})),
        )
        .unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
    }

    /// The element matching `css`, if there is one now.
    pub fn find(&self, css: &str) -> Option<String> {
        let v = self
            .call(
                "POST",
                &self.path("/element"),
                Some(json!({"using": "css selector", "value": css})),
            )
            .ok()?;
        v.as_object()?.values().next()?.as_str().map(String::from)
    }

    /// Waits for the element matching `css` to exist and be shown.
    pub fn wait_for(&self, css: &str, within: Duration) -> String {
        let shown = format!(
            "const e = document.querySelector({}); return !!e && e.getClientRects().length > 0 && !e.closest('[hidden]');",
            serde_json::to_string(css).unwrap()
        );
        self.wait_until(within, &format!("{css} to be shown"), || {
            self.js(&shown, vec![]).as_bool() == Some(true)
        });
        self.find(css).unwrap()
    }

    /// Waits until `cond` holds, checking every 50 ms; panics after `within`, naming `what`.
    pub fn wait_until(&self, within: Duration, what: &str, cond: impl FnMut() -> bool) {
        self.wait_until_or(within, what, cond, String::new);
    }

    /// As [`Browser::wait_until`], with `state()` (what the page shows) in the message of
    /// a timeout: a failure on another machine says more than "timed out".
    pub fn wait_until_or(
        &self,
        within: Duration,
        what: &str,
        cond: impl FnMut() -> bool,
        state: impl Fn() -> String,
    ) {
        if !Self::poll_until(within, cond) {
            let _ = self.save_screenshot(&format!("timeout-{}", what.replace(' ', "-")));
            panic!("waited {within:?} for {what}{}", state());
        }
    }

    /// Whether `cond` came to hold within `within`, checking every 50 ms.
    pub fn poll_until(within: Duration, mut cond: impl FnMut() -> bool) -> bool {
        let start = Instant::now();
        while !cond() {
            if start.elapsed() > within {
                return false;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        true
    }

    pub fn click(&self, css: &str) {
        let el = self.wait_for(css, Duration::from_secs(10));
        self.call(
            "POST",
            &self.path(&format!("/element/{el}/click")),
            Some(json!({})),
        )
        .unwrap_or_else(|e| panic!("click {css}: {e}"));
    }

    pub fn text(&self, css: &str) -> String {
        self.js(
            &format!(
                "const e = document.querySelector({}); return e ? e.textContent : null;",
                serde_json::to_string(css).unwrap()
            ),
            vec![],
        )
        .as_str()
        .unwrap_or("")
        .to_string()
    }

    /// Chooses the file at `path` in the `<input type=file>` matching `css`, as a person
    /// picking it in the file dialog would; the input itself may be hidden behind its
    /// label, as file inputs usually are.
    pub fn choose_file(&self, css: &str, path: &std::path::Path) {
        let el = self
            .find(css)
            .unwrap_or_else(|| panic!("no file input {css}"));
        self.call(
            "POST",
            &self.path(&format!("/element/{el}/value")),
            Some(json!({"text": path.to_str().unwrap()})),
        )
        .unwrap_or_else(|e| panic!("choose {} in {css}: {e}", path.display()));
    }

    /// Types `text` into the element matching `css`.
    pub fn type_into(&self, css: &str, text: &str) {
        let el = self.wait_for(css, Duration::from_secs(10));
        self.call(
            "POST",
            &self.path(&format!("/element/{el}/value")),
            Some(json!({"text": text})),
        )
        .unwrap();
    }

    pub fn select(&self, css: &str, value: &str) {
        self.js(
            "const e = document.querySelector(arguments[0]); e.value = arguments[1]; e.dispatchEvent(new Event('change'));",
            vec![json!(css), json!(value)],
        );
    }

    /// Presses a key (a WebDriver key code such as `\u{E012}` for the left arrow).
    pub fn key(&self, key: &str) {
        let actions = json!({"actions": [{"type": "key", "id": "keyboard", "actions": [
            {"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}
        ]}]});
        self.call("POST", &self.path("/actions"), Some(actions))
            .unwrap();
    }

    /// A real mouse click (press and release) at a point of the window.
    pub fn click_at(&self, x: f64, y: f64) {
        let actions = json!({"actions": [{"type": "pointer", "id": "mouse",
            "parameters": {"pointerType": "mouse"}, "actions": [
            {"type": "pointerMove", "duration": 0, "origin": "viewport", "x": x.round() as i64, "y": y.round() as i64},
            {"type": "pointerDown", "button": 0},
            {"type": "pointerUp", "button": 0}
        ]}]});
        self.call("POST", &self.path("/actions"), Some(actions))
            .unwrap();
        let _ = self.call("DELETE", &self.path("/actions"), None);
    }

    pub fn screenshot(&self) -> Vec<u8> {
        let v = self.call("GET", &self.path("/screenshot"), None).unwrap();
        base64_decode(v.as_str().unwrap())
    }

    /// Writes a screenshot to `$CARGO_TARGET_TMPDIR/serve-screenshots/NAME.png`.
    pub fn save_screenshot(&self, name: &str) -> std::path::PathBuf {
        let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("serve-screenshots");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{name}.png"));
        std::fs::write(&path, self.screenshot()).unwrap();
        path
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = self.call("DELETE", &format!("/session/{}", self.session), None);
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(eol) = data.windows(2).position(|w| w == b"\r\n") else {
            return out;
        };
        let size = usize::from_str_radix(
            String::from_utf8_lossy(&data[..eol])
                .split(';')
                .next()
                .unwrap()
                .trim(),
            16,
        )
        .unwrap_or(0);
        if size == 0 {
            return out;
        }
        let start = eol + 2;
        out.extend_from_slice(&data[start..(start + size).min(data.len())]);
        data = &data[(start + size + 2).min(data.len())..];
    }
}

fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0);
    for c in text.bytes().filter_map(value) {
        acc = (acc << 6) | c;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}
