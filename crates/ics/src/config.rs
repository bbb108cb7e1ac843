//! The client's settings ([`Config`]): read from a TOML file (every key optional, an
//! unknown key an error naming it, its line and column), then overridden by the command
//! line. `docs/ics.md` documents every key.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Everything the client needs to run.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    pub host: String,
    pub port: u16,
    /// The handle to log in with ("guest" for a guest name of the server's choosing).
    pub handle: String,
    /// A file holding the password (first line); none: a guest or unregistered login.
    pub password_file: Option<PathBuf>,
    /// Encode what we send with Timeseal (servers that speak it only).
    pub timeseal: bool,
    /// Ask for clocks in milliseconds (`iset ms 1`).
    pub ms_clocks: bool,
    /// Ask for block mode (`iset block 1`), where the server numbers its replies to our
    /// commands; used only when the server takes it.
    pub block_mode: bool,
    /// The handle whose `tell`s command the bot (stop, pause, resume, seek, games, status).
    pub owner: Option<String>,
    /// The log file (appended); none: standard error only.
    pub log: Option<PathBuf>,
    /// The PGN file every finished game is appended to.
    pub pgn: Option<PathBuf>,
    /// Stop after this many finished games (0: no limit).
    pub games: u32,
    /// Stop taking new games after this many minutes (0: no limit).
    pub stop_after_minutes: u64,
    /// Send a harmless command after this many idle minutes so the server keeps us (0: never).
    pub keepalive_minutes: u64,
    /// The `set interface` text.
    pub interface: String,
    /// Extra commands sent after the session setup, in order.
    pub commands: Vec<String>,
    pub accept: AcceptPolicy,
    pub challenge: Option<ChallengeSpec>,
    pub seek: Option<SeekSpec>,
    pub play: PlayPolicy,
    pub reconnect: Reconnect,
    /// Engine options by name (`Hash = 64`, `BookFile = "book.bin"`), given to the player.
    pub engine: BTreeMap<String, toml::Value>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            host: "127.0.0.1".into(),
            port: 5000,
            handle: "guest".into(),
            password_file: None,
            timeseal: false,
            ms_clocks: true,
            block_mode: true,
            owner: None,
            log: None,
            pgn: None,
            games: 0,
            stop_after_minutes: 0,
            keepalive_minutes: 30,
            interface: format!("Sable {} (sable_ics)", env!("CARGO_PKG_VERSION")),
            commands: Vec::new(),
            accept: AcceptPolicy::default(),
            challenge: None,
            seek: None,
            play: PlayPolicy::default(),
            reconnect: Reconnect::default(),
            engine: BTreeMap::new(),
        }
    }
}

/// Which challenges are accepted.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct AcceptPolicy {
    /// Accept challenges at all (`set open 1`).
    pub enabled: bool,
    pub rated: bool,
    pub unrated: bool,
    pub min_minutes: u32,
    pub max_minutes: u32,
    pub min_increment: u32,
    pub max_increment: u32,
    /// The challenger's rating range; an unrated challenger counts as `unrated_as`.
    pub min_rating: u32,
    pub max_rating: u32,
    pub unrated_as: u32,
    /// Handles never played (compared without case).
    pub block: Vec<String>,
    /// Most games in a row against one opponent (0: no limit): the rematch policy.
    pub max_in_a_row: u32,
}

impl Default for AcceptPolicy {
    fn default() -> Self {
        AcceptPolicy {
            enabled: false,
            rated: true,
            unrated: true,
            min_minutes: 0,
            max_minutes: 120,
            min_increment: 0,
            max_increment: 60,
            min_rating: 0,
            max_rating: 9999,
            unrated_as: 1500,
            block: Vec::new(),
            max_in_a_row: 0,
        }
    }
}

/// A named opponent we challenge (`match NAME MIN INC rated|unrated`), again after every
/// game while games remain.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct ChallengeSpec {
    pub opponent: String,
    pub minutes: u32,
    pub increment: u32,
    pub rated: bool,
    /// Seconds before a challenge with no answer is sent again.
    pub retry_seconds: u64,
}

impl Default for ChallengeSpec {
    fn default() -> Self {
        ChallengeSpec {
            opponent: String::new(),
            minutes: 1,
            increment: 0,
            rated: false,
            retry_seconds: 20,
        }
    }
}

/// A seek posted when idle (`seek MIN INC rated|unrated`).
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct SeekSpec {
    pub minutes: u32,
    pub increment: u32,
    pub rated: bool,
}

impl Default for SeekSpec {
    fn default() -> Self {
        SeekSpec {
            minutes: 3,
            increment: 0,
            rated: false,
        }
    }
}

/// How the bot plays: time, draws and resignation (scores in centipawns, ours).
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct PlayPolicy {
    /// Milliseconds kept off our clock for the network, on top of the lag measured from
    /// the server's clocks.
    pub lag_allowance_ms: u64,
    /// The longest a move may take in ms (0: the clock decides).
    pub max_move_ms: u64,
    /// Resign when the score is at most `resign_score` for `resign_moves` moves in a row
    /// (0 moves: never resign).
    pub resign_score: i32,
    pub resign_moves: u32,
    /// Accept a draw offer when the score is at most `draw_accept_score` from move
    /// `draw_accept_after` on, or at most `-draw_losing_score` at any time.
    pub draw_accept_score: i32,
    pub draw_accept_after: u32,
    pub draw_losing_score: i32,
    /// Offer a draw when the score stayed within `draw_offer_score` of 0 for
    /// `draw_offer_moves` moves, from move `draw_offer_after` on (0 moves: never).
    pub draw_offer_score: i32,
    pub draw_offer_moves: u32,
    pub draw_offer_after: u32,
    /// Accept the opponent's abort request up to this many plies into the game.
    pub accept_abort_plies: u32,
    /// Ask for the board again (`refresh`) when nothing came for this long during a
    /// game, in ms, in case a board was lost (0: never).
    pub refresh_idle_ms: u64,
    /// Call the opponent's flag (`flag`) when their clock runs out: FICS servers end a
    /// game on time only when asked.
    pub autoflag: bool,
    /// Think on the opponent's time about the reply the search expects (when the player
    /// can); a machine shared with other work may want it off.
    pub ponder: bool,
}

impl Default for PlayPolicy {
    fn default() -> Self {
        PlayPolicy {
            lag_allowance_ms: 200,
            max_move_ms: 0,
            resign_score: -1000,
            resign_moves: 3,
            draw_accept_score: 10,
            draw_accept_after: 30,
            draw_losing_score: 300,
            draw_offer_score: 5,
            draw_offer_moves: 6,
            draw_offer_after: 50,
            accept_abort_plies: 2,
            refresh_idle_ms: 60_000,
            autoflag: true,
            ponder: true,
        }
    }
}

/// Reconnection after a dropped connection or a failed login.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct Reconnect {
    /// The first wait in ms; it doubles with every failure up to `max_delay_ms`.
    pub initial_delay_ms: u64,
    pub max_delay_ms: u64,
    /// Give up after this many failures in a row (0: never).
    pub max_attempts: u32,
    /// How long to wait for the server during connection and login, in ms.
    pub timeout_ms: u64,
}

impl Default for Reconnect {
    fn default() -> Self {
        Reconnect {
            initial_delay_ms: 1000,
            max_delay_ms: 300_000,
            max_attempts: 0,
            timeout_ms: 30_000,
        }
    }
}

/// A config file that could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    Toml { path: String, message: String },
    #[error("{0}")]
    Invalid(String),
}

impl Config {
    /// Reads a TOML config file.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Io {
            path: path.display().to_string(),
            source,
        })?;
        Config::from_toml(&text).map_err(|e| match e {
            ConfigError::Toml { message, .. } => ConfigError::Toml {
                path: path.display().to_string(),
                message,
            },
            other => other,
        })
    }

    /// Parses TOML text.
    ///
    /// ```
    /// let c = sable_ics::Config::from_toml("handle = \"Sable\"\n[accept]\nenabled = true\n").unwrap();
    /// assert!(c.accept.enabled);
    /// assert!(sable_ics::Config::from_toml("hadnle = 1").unwrap_err().to_string().contains("hadnle"));
    /// ```
    pub fn from_toml(text: &str) -> Result<Config, ConfigError> {
        let c: Config = toml::from_str(text).map_err(|e| ConfigError::Toml {
            path: "config".into(),
            message: e.to_string().trim().replace('\n', " "),
        })?;
        c.check()?;
        Ok(c)
    }

    /// Checks what the types cannot: a handle, ranges that are not empty.
    pub fn check(&self) -> Result<(), ConfigError> {
        let bad = |s: String| Err(ConfigError::Invalid(s));
        if self.handle.is_empty()
            || self.handle.len() > 17
            || !self.handle.chars().all(|c| c.is_ascii_alphabetic())
        {
            return bad(format!(
                "handle '{}': 1 to 17 letters (A-Z, a-z)",
                self.handle
            ));
        }
        if self.host.is_empty() {
            return bad("host is empty".into());
        }
        let a = &self.accept;
        if a.min_minutes > a.max_minutes
            || a.min_increment > a.max_increment
            || a.min_rating > a.max_rating
        {
            return bad("accept: a minimum is above its maximum".into());
        }
        if let Some(c) = &self.challenge {
            if c.opponent.is_empty() || !c.opponent.chars().all(|c| c.is_ascii_alphabetic()) {
                return bad(format!(
                    "challenge: opponent '{}' is not a handle",
                    c.opponent
                ));
            }
        }
        if self.reconnect.timeout_ms == 0 {
            return bad("reconnect.timeout_ms must be above 0".into());
        }
        Ok(())
    }

    /// The `[engine]` options as name and value text (`true`, `64`, `book.bin`); a list
    /// or a table as a value is an error naming the option.
    pub fn engine_options(&self) -> Result<Vec<(String, String)>, ConfigError> {
        self.engine
            .iter()
            .map(|(k, v)| {
                let text = match v {
                    toml::Value::String(s) => s.clone(),
                    toml::Value::Integer(i) => i.to_string(),
                    toml::Value::Float(f) => f.to_string(),
                    toml::Value::Boolean(b) => b.to_string(),
                    _ => {
                        return Err(ConfigError::Invalid(format!(
                            "engine.{k}: a string, number or true/false is expected"
                        )))
                    }
                };
                Ok((k.clone(), text))
            })
            .collect()
    }

    /// The password, from the first line of `password_file` (never logged).
    pub fn password(&self) -> Result<Option<String>, ConfigError> {
        let Some(path) = &self.password_file else {
            return Ok(None);
        };
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Io {
            path: path.display().to_string(),
            source,
        })?;
        let first = text.lines().next().unwrap_or("").trim().to_string();
        if first.is_empty() {
            return Err(ConfigError::Invalid(format!(
                "{}: the password file is empty",
                path.display()
            )));
        }
        Ok(Some(first))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_file() {
        let c = Config::from_toml(
            r#"
host = "127.0.0.1"
port = 5001
handle = "Sable"
games = 10
owner = "Boss"
[accept]
enabled = true
block = ["Pest"]
[challenge]
opponent = "Other"
minutes = 3
rated = true
[play]
max_move_ms = 500
[engine]
Hash = 64
OwnBook = true
BookFile = "book.bin"
"#,
        )
        .unwrap();
        assert_eq!(c.port, 5001);
        assert_eq!(c.challenge.as_ref().unwrap().minutes, 3);
        assert_eq!(c.engine.len(), 3);
        let options = c.engine_options().unwrap();
        assert!(options.contains(&("BookFile".to_string(), "book.bin".to_string())));
        assert!(options.contains(&("OwnBook".to_string(), "true".to_string())));
        assert!(options.contains(&("Hash".to_string(), "64".to_string())));
        assert_eq!(c.accept.block, vec!["Pest".to_string()]);
        let c = Config::from_toml("[engine]\nHash = [1]\n").unwrap();
        assert!(c
            .engine_options()
            .unwrap_err()
            .to_string()
            .contains("engine.Hash"));
    }

    #[test]
    fn errors_name_the_key_and_line() {
        let e = Config::from_toml("port = 5000\n[play]\nresign_scroe = 3\n").unwrap_err();
        let s = e.to_string();
        assert!(s.contains("resign_scroe") && s.contains("line 3"), "{s}");
        let e = Config::from_toml("port = 70000\n").unwrap_err();
        assert!(e.to_string().contains("port") || e.to_string().contains("line 1"));
        let e = Config::from_toml("handle = \"a b\"\n").unwrap_err();
        assert!(e.to_string().contains("handle"));
    }
}
