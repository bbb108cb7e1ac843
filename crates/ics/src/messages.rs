//! The server's lines other than boards, recognised into [`ServerLine`]: login prompts,
//! session start, game creation and end (`{Game N (A vs. B) reason} RESULT`),
//! challenges, draw/abort/adjourn/takeback offers, illegal-move replies, personal tells,
//! rating changes. A line no pattern knows is [`ServerLine::Other`]; nothing here fails
//! or panics on any input.

use sable_formats::pgn::GameResult;

/// A player's rating as the server prints it: a number (maybe followed by a
/// provisional mark), or `----`/`++++` for none.
pub fn parse_rating(text: &str) -> Option<u32> {
    let digits: String = text.chars().take_while(char::is_ascii_digit).collect();
    if digits.is_empty() || digits.len() > 5 {
        return None;
    }
    digits.parse().ok()
}

/// A handle without the server's marks: `Sable(C)(TD)` → `Sable`.
pub fn bare_handle(text: &str) -> &str {
    let end = text.find(['(', '[', ' ']).unwrap_or(text.len());
    &text[..end]
}

/// A match request to us.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Challenge {
    pub from: String,
    pub from_rating: Option<u32>,
    pub to: String,
    pub to_rating: Option<u32>,
    /// The color the challenger asks for (`[white]`, `[black]`), if any.
    pub color: Option<sable_chess::Color>,
    pub rated: bool,
    /// `lightning`, `blitz`, `standard`, `untimed`, `wild`, `crazyhouse`, ...
    pub category: String,
    pub minutes: u32,
    pub increment: u32,
    /// Anything beyond plain chess: `Loaded from wild/fr`, a variant category.
    pub variant: Option<String>,
    /// A request to resume an adjourned game.
    pub adjourned: bool,
}

/// The plain-chess categories FICS files games under.
const PLAIN_CATEGORIES: [&str; 5] = ["lightning", "blitz", "standard", "untimed", "nonstandard"];

impl Challenge {
    /// Parses `Challenge: A (1800) [white] B (1900) rated blitz 3 0.` (and the
    /// `Issuing: ...` line that echoes our own match request).
    ///
    /// ```
    /// use sable_ics::messages::Challenge;
    /// let c = Challenge::parse("Challenge: Ann (1800) Sable (----) rated blitz 3 0.").unwrap();
    /// assert_eq!((c.from.as_str(), c.from_rating, c.to_rating), ("Ann", Some(1800), None));
    /// assert_eq!((c.rated, c.minutes, c.increment, c.variant), (true, 3, 0, None));
    /// ```
    pub fn parse(line: &str) -> Option<Challenge> {
        let line = line.trim();
        let rest = line
            .strip_prefix("Challenge:")
            .or_else(|| line.strip_prefix("Issuing:"))?
            .trim();
        let rest = rest.strip_suffix('.').unwrap_or(rest);
        let (rest, adjourned) = match rest.strip_suffix("(adjourned)") {
            Some(r) => (r.trim_end(), true),
            None => (rest, false),
        };
        let words: Vec<&str> = rest.split_whitespace().collect();
        let mut i = 0;
        let next = |i: &mut usize| -> Option<&str> {
            let w = words.get(*i).copied();
            *i += 1;
            w
        };
        let from = bare_handle(next(&mut i)?).to_string();
        let from_rating = parse_rating(next(&mut i)?.trim_matches(['(', ')']));
        let mut color = None;
        let mut w = next(&mut i)?;
        if w == "[white]" || w == "[black]" {
            color = Some(if w == "[white]" {
                sable_chess::Color::White
            } else {
                sable_chess::Color::Black
            });
            w = next(&mut i)?;
        }
        let to = bare_handle(w).to_string();
        let to_rating = parse_rating(next(&mut i)?.trim_matches(['(', ')']));
        let rated = match next(&mut i)? {
            "rated" => true,
            "unrated" => false,
            _ => return None,
        };
        let category = next(&mut i)?.to_string();
        let minutes = next(&mut i)?.parse().ok()?;
        let increment = next(&mut i)?.parse().ok()?;
        let tail = words.get(i..).unwrap_or(&[]).join(" ");
        let variant = if !tail.is_empty() {
            Some(tail)
        } else if !PLAIN_CATEGORIES.contains(&category.as_str()) {
            Some(category.clone())
        } else {
            None
        };
        if from.is_empty() || to.is_empty() {
            return None;
        }
        Some(Challenge {
            from,
            from_rating,
            to,
            to_rating,
            color,
            rated,
            category,
            minutes,
            increment,
            variant,
            adjourned,
        })
    }
}

/// `Creating: A (1500) B (1600) rated blitz 3 0`: the players' ratings at the start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Creating {
    pub white: String,
    pub white_rating: Option<u32>,
    pub black: String,
    pub black_rating: Option<u32>,
    pub rated: bool,
    pub category: String,
    pub minutes: u32,
    pub increment: u32,
}

/// One recognised server line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerLine {
    /// `login:` (also sent without a newline).
    LoginPrompt,
    /// The command prompt `fics%` alone: the server waits for a command (after login,
    /// the session has started).
    Prompt,
    /// `password:`.
    PasswordPrompt,
    /// `Press return to enter the server as "Guest1234":`
    PressReturn {
        handle: String,
    },
    /// `**** Starting FICS session as Sable(C) ****`
    SessionStarted {
        handle: String,
    },
    /// `**** Invalid password! ****` and other refusals at login.
    LoginRefused {
        text: String,
    },
    /// A `<12>` board (parsed by the caller, who knows the clock unit).
    Board(String),
    Creating(Creating),
    /// `{Game 7 (A vs. B) Creating rated blitz match.}` or `... Continuing ...`.
    GameStarted {
        game: u32,
        white: String,
        black: String,
        resumed: bool,
        rated: bool,
        /// `blitz`, `lightning`, ... (empty when the line does not say).
        category: String,
    },
    /// `{Game 7 (A vs. B) A resigns} 0-1`.
    GameEnded {
        game: u32,
        white: String,
        black: String,
        reason: String,
        result: GameResult,
    },
    Challenge(Challenge),
    DrawOffer {
        from: String,
    },
    AbortRequest {
        from: String,
    },
    AdjournRequest {
        from: String,
    },
    TakebackRequest {
        from: String,
    },
    /// `Illegal move (e2e5).`, `It is not your move.`
    IllegalMove {
        text: String,
    },
    /// `NAME tells you: TEXT`
    Tell {
        from: String,
        text: String,
    },
    /// `Blitz rating adjustment: 1500 --> 1508`
    RatingChange {
        category: String,
        old: u32,
        new: u32,
    },
    /// `ms set.` and the like: a setting the server confirmed.
    SettingConfirmed {
        name: String,
    },
    /// Anything else.
    Other(String),
}

/// Removes prompts the server puts before a line (`fics% `), bells and carriage returns.
pub fn clean(line: &str) -> &str {
    let mut s = line.trim_matches(|c: char| c == '\r' || c == '\x07' || c == '\n');
    loop {
        let t = s.trim_start_matches(['\r', '\x07']);
        match t.strip_prefix("fics%") {
            Some(r) => s = r.trim_start(),
            None => return t,
        }
    }
}

/// `{Game 7 (A vs. B) reason} RESULT`: game number, names, the text, the tail.
fn game_note(line: &str) -> Option<(u32, String, String, String, String)> {
    let rest = line.strip_prefix("{Game ")?;
    let (num, rest) = rest.split_once(' ')?;
    let game = num.parse().ok()?;
    let rest = rest.strip_prefix('(')?;
    let (names, rest) = rest.split_once(')')?;
    let (white, black) = names.split_once(" vs. ")?;
    let (text, tail) = rest.split_once('}')?;
    Some((
        game,
        white.trim().to_string(),
        black.trim().to_string(),
        text.trim().to_string(),
        tail.trim().to_string(),
    ))
}

fn creating(line: &str) -> Option<Creating> {
    let words: Vec<&str> = line.strip_prefix("Creating:")?.split_whitespace().collect();
    if words.len() < 8 {
        return None;
    }
    Some(Creating {
        white: bare_handle(words[0]).to_string(),
        white_rating: parse_rating(words[1].trim_matches(['(', ')'])),
        black: bare_handle(words[2]).to_string(),
        black_rating: parse_rating(words[3].trim_matches(['(', ')'])),
        rated: words[4] == "rated",
        category: words[5].to_string(),
        minutes: words[6].parse().ok()?,
        increment: words[7].parse().ok()?,
    })
}

fn quoted(line: &str) -> Option<String> {
    let start = line.find('"')? + 1;
    let len = line[start..].find('"')?;
    Some(line[start..start + len].to_string())
}

/// Recognises one line (without its newline).
///
/// ```
/// use sable_ics::messages::{classify, ServerLine};
/// use sable_formats::pgn::GameResult;
/// match classify("fics% {Game 4 (Ann vs. Sable) Ann resigns} 0-1") {
///     ServerLine::GameEnded { game, result, reason, .. } => {
///         assert_eq!((game, result, reason.as_str()), (4, GameResult::BlackWins, "Ann resigns"));
///     }
///     other => panic!("{other:?}"),
/// }
/// ```
pub fn classify(raw: &str) -> ServerLine {
    if raw
        .trim_matches(|c: char| c.is_whitespace() || c == '\x07')
        .ends_with("fics%")
    {
        return ServerLine::Prompt;
    }
    let line = clean(raw);
    let lower_end = line.trim_end();
    if lower_end.ends_with("login:") {
        return ServerLine::LoginPrompt;
    }
    if lower_end.ends_with("password:") {
        return ServerLine::PasswordPrompt;
    }
    if line.starts_with("<12>") {
        return ServerLine::Board(line.to_string());
    }
    if line.starts_with("Press return to enter") {
        if let Some(handle) = quoted(line) {
            return ServerLine::PressReturn { handle };
        }
    }
    if let Some(rest) = line.strip_prefix("**** Starting FICS session as ") {
        let handle = bare_handle(rest.trim_end_matches(['*', ' '])).to_string();
        return ServerLine::SessionStarted { handle };
    }
    if line.starts_with("**** Invalid password") || line.contains("is not a valid handle") {
        return ServerLine::LoginRefused {
            text: line.to_string(),
        };
    }
    if let Some(c) = creating(line) {
        return ServerLine::Creating(c);
    }
    if let Some((game, white, black, text, tail)) = game_note(line) {
        if tail.is_empty() && (text.starts_with("Creating") || text.starts_with("Continuing")) {
            let words: Vec<&str> = text.split_whitespace().collect();
            return ServerLine::GameStarted {
                game,
                white,
                black,
                resumed: text.starts_with("Continuing"),
                rated: words.get(1) == Some(&"rated"),
                category: words.get(2).map_or(String::new(), |c| c.to_string()),
            };
        }
        if let Some(result) = GameResult::from_token(tail.split_whitespace().next().unwrap_or("")) {
            return ServerLine::GameEnded {
                game,
                white,
                black,
                reason: text,
                result,
            };
        }
    }
    if let Some(c) = Challenge::parse(line) {
        return ServerLine::Challenge(c);
    }
    let first = || bare_handle(line).to_string();
    if line.ends_with(" offers you a draw.") {
        return ServerLine::DrawOffer { from: first() };
    }
    if line.contains(" would like to abort the game") {
        return ServerLine::AbortRequest { from: first() };
    }
    if line.contains(" would like to adjourn the game") {
        return ServerLine::AdjournRequest { from: first() };
    }
    if line.contains(" would like to take back ") {
        return ServerLine::TakebackRequest { from: first() };
    }
    if line.starts_with("Illegal move") || line.starts_with("It is not your move") {
        return ServerLine::IllegalMove {
            text: line.to_string(),
        };
    }
    if let Some((who, text)) = line.split_once(" tells you: ") {
        if !who.contains(' ') {
            return ServerLine::Tell {
                from: bare_handle(who).to_string(),
                text: text.trim().to_string(),
            };
        }
    }
    if let Some((cat, rest)) = line.split_once(" rating adjustment: ") {
        let nums: Vec<u32> = rest
            .split(|c: char| !c.is_ascii_digit())
            .filter(|s| !s.is_empty())
            .filter_map(|s| s.parse().ok())
            .collect();
        if nums.len() >= 2 {
            return ServerLine::RatingChange {
                category: cat.trim().to_string(),
                old: nums[0],
                new: nums[1],
            };
        }
    }
    if let Some(name) = line.strip_suffix(" set.") {
        if !name.contains(' ') || name.split_whitespace().count() <= 2 {
            return ServerLine::SettingConfirmed {
                name: name.trim().to_string(),
            };
        }
    }
    ServerLine::Other(line.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn challenges() {
        let c = Challenge::parse(
            "Challenge: Ann(C) (1800) [black] Sable (1900) unrated lightning 1 0 (adjourned).",
        )
        .unwrap();
        assert_eq!(c.from, "Ann");
        assert_eq!(c.color, Some(sable_chess::Color::Black));
        assert!(c.adjourned && !c.rated);
        let c = Challenge::parse(
            "Challenge: Ann (1800) Sable (1900) rated blitz 3 0 Loaded from wild/fr.",
        )
        .unwrap();
        assert_eq!(c.variant.as_deref(), Some("Loaded from wild/fr"));
        let c =
            Challenge::parse("Challenge: Ann (1800) Sable (1900) rated crazyhouse 3 0.").unwrap();
        assert_eq!(c.variant.as_deref(), Some("crazyhouse"));
        assert!(Challenge::parse("Challenge: Ann (1800)").is_none());
        assert!(Challenge::parse("Challenge: Ann (1800) B (1) rated blitz x 0.").is_none());
    }

    #[test]
    fn lines() {
        assert_eq!(classify("login: "), ServerLine::LoginPrompt);
        assert_eq!(classify("password: "), ServerLine::PasswordPrompt);
        assert_eq!(
            classify("Press return to enter the server as \"GuestWXYZ\":"),
            ServerLine::PressReturn {
                handle: "GuestWXYZ".into()
            }
        );
        assert_eq!(
            classify("**** Starting FICS session as GuestWXYZ(U) ****"),
            ServerLine::SessionStarted {
                handle: "GuestWXYZ".into()
            }
        );
        assert!(matches!(
            classify("fics% {Game 3 (A vs. B) Creating unrated blitz match.}"),
            ServerLine::GameStarted {
                game: 3,
                resumed: false,
                ..
            }
        ));
        assert!(matches!(
            classify("{Game 3 (A vs. B) Continuing rated blitz match.}"),
            ServerLine::GameStarted {
                resumed: true,
                rated: true,
                ..
            }
        ));
        assert_eq!(classify("\rfics% "), ServerLine::Prompt);
        assert_eq!(classify("fics% fics% "), ServerLine::Prompt);
        assert!(matches!(
            classify("Issuing: SableA (1500) SableB (----) rated lightning 1 0."),
            ServerLine::Challenge(_)
        ));
        assert!(matches!(
            classify("{Game 3 (A vs. B) Game aborted on move 1} *"),
            ServerLine::GameEnded {
                result: GameResult::Unknown,
                ..
            }
        ));
        match classify("Creating: A (1500) B (----) unrated blitz 3 0") {
            ServerLine::Creating(c) => {
                assert_eq!((c.white_rating, c.black_rating), (Some(1500), None))
            }
            o => panic!("{o:?}"),
        }
        assert_eq!(
            classify("Boss(TD) tells you: stop"),
            ServerLine::Tell {
                from: "Boss".into(),
                text: "stop".into()
            }
        );
        assert!(matches!(
            classify("Ann offers you a draw."),
            ServerLine::DrawOffer { .. }
        ));
        assert!(matches!(
            classify("Ann would like to abort the game; type \"abort\" to accept."),
            ServerLine::AbortRequest { .. }
        ));
        assert!(matches!(
            classify("Illegal move (e2e5)."),
            ServerLine::IllegalMove { .. }
        ));
        assert_eq!(
            classify("Blitz rating adjustment: 1500 --> 1508"),
            ServerLine::RatingChange {
                category: "Blitz".into(),
                old: 1500,
                new: 1508
            }
        );
        assert_eq!(
            classify("ms set."),
            ServerLine::SettingConfirmed { name: "ms".into() }
        );
    }

    #[test]
    fn never_panics() {
        let samples = [
            "{Game ",
            "{Game x (",
            "{Game 1 (A vs. B",
            "{Game 1 (A vs. B) x",
            "Challenge:",
            "Creating:",
            "\"",
            "Press return to enter \"",
            " tells you: ",
            " rating adjustment: ",
            "fics% fics% ",
            "<12>",
        ];
        for s in samples {
            for cut in 0..=s.len() {
                let _ = classify(&s[..cut]);
            }
        }
        let _ = classify(&"{Game 1 (".repeat(100_000));
    }
}
