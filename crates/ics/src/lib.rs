//! `sable_ics`: a client for Internet Chess Servers as FICS speaks the protocol (FICS,
//! its open-source server FICS 1.6 and forks), independent of any engine. A program
//! gives it a [`Player`] and a [`Config`]; [`Client::run`] logs in, finds games by the
//! configured policy, plays them one at a time, writes their PGN and reconnects when the
//! connection drops.
//!
//! | module | owns |
//! | --- | --- |
//! | [`connection`] | the socket and its reader, login, session setup, block-mode command ids |
//! | [`framing`] | the byte stream cut into lines and block-mode replies; broken framing reported |
//! | [`style12`] | the `<12>` board line, parsed into [`Style12`] |
//! | [`messages`] | every other server line the client acts on, as [`ServerLine`] |
//! | [`policy`] | accepting challenges; draw offers and resignation by score |
//! | [`game`] | one game as we follow it, checked board by board; its PGN |
//! | [`player`] | the [`Player`] trait the engine implements |
//! | [`client`] | the bot's loop: games, requests, owner tells, reconnection |
//! | [`timeseal`] | the Timeseal encoding (lag compensation) |
//! | [`config`] | the settings and their TOML file |
//! | [`log`] | the log file |

pub mod client;
pub mod config;
pub mod connection;
pub mod framing;
pub mod game;
pub mod log;
pub mod messages;
pub mod player;
pub mod policy;
pub mod style12;
pub mod timeseal;

pub use client::{Client, IcsError, Summary};
pub use config::{Config, ConfigError};
pub use log::Log;
pub use messages::ServerLine;
pub use player::{GreedyPlayer, MoveRequest, Player, Thought};
pub use style12::Style12;
