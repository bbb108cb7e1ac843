//! The client's log: timestamped lines to a file (appended, flushed line by line) and to
//! standard error. Nothing secret is ever given to it: the login code logs that a
//! password was sent, never the password.

use std::io::Write;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// A cloneable log sink.
#[derive(Clone, Default)]
pub struct Log {
    file: Option<Arc<Mutex<std::fs::File>>>,
    quiet: bool,
    /// Every line also kept in memory (tests read it).
    memory: Option<Arc<Mutex<Vec<String>>>>,
}

impl Log {
    /// A log to standard error, and to `path` when given.
    pub fn open(path: Option<&Path>) -> std::io::Result<Log> {
        let file = match path {
            Some(p) => Some(Arc::new(Mutex::new(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(p)?,
            ))),
            None => None,
        };
        Ok(Log {
            file,
            quiet: false,
            memory: None,
        })
    }

    /// A log kept in memory only (for tests); `lines` reads it.
    pub fn memory() -> Log {
        Log {
            file: None,
            quiet: true,
            memory: Some(Arc::new(Mutex::new(Vec::new()))),
        }
    }

    /// The lines kept by a [`Log::memory`] log.
    pub fn lines(&self) -> Vec<String> {
        self.memory
            .as_ref()
            .map(|m| m.lock().unwrap_or_else(|e| e.into_inner()).clone())
            .unwrap_or_default()
    }

    /// Writes one line, with the time of day (UTC) in front.
    pub fn line(&self, text: &str) {
        let text: String = text
            .chars()
            .take(2000)
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis());
        let (ms, s) = (secs % 1000, (secs / 1000) % 86_400);
        let stamped = format!(
            "{:02}:{:02}:{:02}.{ms:03} {text}",
            s / 3600,
            s / 60 % 60,
            s % 60
        );
        if !self.quiet {
            eprintln!("{stamped}");
        }
        if let Some(f) = &self.file {
            let mut f = f.lock().unwrap_or_else(|e| e.into_inner());
            // A full disk must not stop the games; the line goes to stderr anyway.
            let _ = writeln!(f, "{stamped}");
        }
        if let Some(m) = &self.memory {
            m.lock().unwrap_or_else(|e| e.into_inner()).push(stamped);
        }
    }
}
