//! The match command line, in the cutechess-cli / fastchess style:
//! `-engine cmd=... name=... proto=uci tc=10+0.1 option.Hash=16 -each ... -rounds 10
//! -games 2 -repeat -concurrency 2 -openings file=... format=pgn order=random -sprt ...`.

use std::time::Duration;

use super::adjudication::{DrawRule, ResignRule, Rules};
use super::engine::{EngineConfig, Protocol};
use super::openings::{BookSpec, Format, Order};
use super::referee::DEFAULT_STALL;
use super::sprt::SprtSpec;
use super::tc::{ClockSpec, Limits};

/// Head-to-head is a round robin of two.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    RoundRobin,
    Gauntlet,
}

/// Everything a match run needs, parsed and checked.
#[derive(Clone, Debug)]
pub struct MatchOptions {
    pub engines: Vec<EngineConfig>,
    pub kind: Kind,
    pub rounds: u32,
    pub games: u32,
    pub repeat: bool,
    pub concurrency: usize,
    pub book: Option<BookSpec>,
    pub chess960: bool,
    pub rules: Rules,
    pub sprt: Option<SprtSpec>,
    pub pgn_out: Option<String>,
    pub recover: bool,
    pub seed: u64,
    pub rating_interval: u32,
    pub event: String,
    pub progress: bool,
    /// Print a line for every finished game.
    pub game_lines: bool,
}

/// A command line that does not make sense, with what and where.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{0}")]
pub struct OptionsError(pub String);

fn err<T>(s: impl Into<String>) -> Result<T, OptionsError> {
    Err(OptionsError(s.into()))
}

fn num<T: std::str::FromStr>(what: &str, v: &str) -> Result<T, OptionsError> {
    v.parse()
        .map_err(|_| OptionsError(format!("{what}: '{v}' is not a valid number")))
}

/// `key=value` arguments following a flag, up to the next flag.
fn key_values<'a>(
    flag: &str,
    args: &'a [String],
    i: &mut usize,
) -> Result<Vec<(&'a str, &'a str)>, OptionsError> {
    let mut out = Vec::new();
    while let Some(a) = args.get(*i) {
        if a.starts_with('-') && !a.contains('=') {
            break;
        }
        match a.split_once('=') {
            Some((k, v)) => out.push((k, v)),
            None => return err(format!("{flag}: expected key=value, found '{a}'")),
        }
        *i += 1;
    }
    Ok(out)
}

fn value<'a>(flag: &str, args: &'a [String], i: &mut usize) -> Result<&'a str, OptionsError> {
    let v = args
        .get(*i)
        .ok_or_else(|| OptionsError(format!("{flag} needs a value")))?;
    *i += 1;
    Ok(v)
}

fn millis(what: &str, v: &str) -> Result<Duration, OptionsError> {
    let ms: u64 = num(what, v)?;
    Ok(Duration::from_millis(ms))
}

fn seconds(what: &str, v: &str) -> Result<Duration, OptionsError> {
    let s: f64 = num(what, v)?;
    if !(0.0..1e7).contains(&s) {
        return err(format!("{what}: '{v}' is out of range"));
    }
    Ok(Duration::from_secs_f64(s))
}

fn engine_config(
    n: usize,
    each: &[(&str, &str)],
    own: &[(&str, &str)],
) -> Result<EngineConfig, OptionsError> {
    let mut cfg = EngineConfig {
        name: String::new(),
        program: String::new(),
        args: Vec::new(),
        dir: None,
        protocol: Protocol::Uci,
        options: Vec::new(),
        limits: Limits::default(),
        margin: Duration::ZERO,
        stall: DEFAULT_STALL,
        debug: false,
        book: None,
    };
    let mut cmd = None;
    let mut book_depth = 1000;
    let mut book_file: Option<&str> = None;
    for &(k, v) in each.iter().chain(own) {
        let what = format!("engine {n}: {k}");
        match k {
            "cmd" => cmd = Some(v.to_string()),
            "name" => cfg.name = v.to_string(),
            "dir" => cfg.dir = Some(v.to_string()),
            "arg" => cfg.args.push(v.to_string()),
            "proto" => {
                cfg.protocol = match v {
                    "uci" => Protocol::Uci,
                    "xboard" | "cecp" => Protocol::Xboard,
                    _ => return err(format!("{what}: unknown protocol '{v}' (uci or xboard)")),
                }
            }
            "tc" => {
                if v == "inf" || v == "infinite" {
                    cfg.limits.clock = None;
                } else {
                    cfg.limits.clock = Some(
                        ClockSpec::parse(v).map_err(|e| OptionsError(format!("{what}: {e}")))?,
                    );
                }
            }
            "st" => cfg.limits.movetime = Some(seconds(&what, v)?),
            "nodes" => cfg.limits.nodes = Some(num(&what, v)?),
            "depth" => cfg.limits.depth = Some(num(&what, v)?),
            "timemargin" => cfg.margin = millis(&what, v)?,
            "stall" => cfg.stall = seconds(&what, v)?,
            "debug" => cfg.debug = v == "true" || v == "1",
            "book" => book_file = Some(v),
            "bookdepth" => book_depth = num(&what, v)?,
            _ => {
                if let Some(name) = k.strip_prefix("option.") {
                    cfg.options.retain(|(o, _)| o != name);
                    cfg.options.push((name.to_string(), v.to_string()));
                } else {
                    return err(format!("{what}: unknown engine setting '{k}'"));
                }
            }
        }
    }
    if let Some(file) = book_file {
        let book = sable_formats::PolyglotBook::open(std::path::Path::new(file))
            .map_err(|e| OptionsError(format!("engine {n}: book: {e}")))?;
        cfg.book = Some(super::engine::RunnerBook {
            book: std::sync::Arc::new(book),
            depth: book_depth,
        });
    }
    let Some(cmd) = cmd else {
        return err(format!("engine {n}: no cmd= given"));
    };
    // Split as a shell would, so that a path with a space can be quoted.
    let mut words = shell_words::split(&cmd)
        .map_err(|e| OptionsError(format!("engine {n}: cmd={cmd}: {e}")))?
        .into_iter();
    cfg.program = words
        .next()
        .ok_or_else(|| OptionsError(format!("engine {n}: empty cmd=")))?;
    let extra: Vec<String> = words.collect();
    cfg.args.splice(0..0, extra);
    if cfg.name.is_empty() {
        cfg.name = std::path::Path::new(&cfg.program)
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_else(|| cfg.program.clone());
    }
    if cfg.limits.is_unbounded() {
        return err(format!(
            "engine {n} ({}): no time control; give tc=, st=, nodes= or depth= (or use -each)",
            cfg.name
        ));
    }
    Ok(cfg)
}

/// Parses the arguments after `sable match`.
pub fn parse(args: &[String]) -> Result<MatchOptions, OptionsError> {
    let mut engines_raw: Vec<Vec<(&str, &str)>> = Vec::new();
    let mut each: Vec<(&str, &str)> = Vec::new();
    let mut o = MatchOptions {
        engines: Vec::new(),
        kind: Kind::RoundRobin,
        rounds: 1,
        games: 1,
        repeat: false,
        concurrency: 1,
        book: None,
        chess960: false,
        rules: Rules::default(),
        sprt: None,
        pgn_out: None,
        recover: false,
        seed: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1),
        rating_interval: 10,
        event: "sable match".to_string(),
        progress: true,
        game_lines: true,
    };
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        i += 1;
        match flag.trim_start_matches('-') {
            "engine" => engines_raw.push(key_values(flag, args, &mut i)?),
            "each" => each.extend(key_values(flag, args, &mut i)?),
            "tournament" => {
                o.kind = match value(flag, args, &mut i)? {
                    "gauntlet" => Kind::Gauntlet,
                    "round-robin" | "roundrobin" => Kind::RoundRobin,
                    v => {
                        return err(format!(
                            "-tournament: unknown type '{v}' (gauntlet or round-robin)"
                        ))
                    }
                }
            }
            "rounds" => o.rounds = num(flag, value(flag, args, &mut i)?)?,
            "games" => o.games = num(flag, value(flag, args, &mut i)?)?,
            "repeat" => {
                o.repeat = true;
                if let Some(v) = args.get(i).filter(|v| !v.starts_with('-')) {
                    if v != "2" {
                        return err(format!("-repeat: only 2 is supported, found '{v}'"));
                    }
                    i += 1;
                }
            }
            "concurrency" => o.concurrency = num(flag, value(flag, args, &mut i)?)?,
            "openings" => {
                let mut spec = BookSpec {
                    file: String::new(),
                    format: Format::Epd,
                    order: Order::Sequential,
                    plies: None,
                    start: 1,
                };
                let mut format_given = false;
                for (k, v) in key_values(flag, args, &mut i)? {
                    match k {
                        "file" => spec.file = v.to_string(),
                        "format" => {
                            format_given = true;
                            spec.format = match v {
                                "epd" => Format::Epd,
                                "pgn" => Format::Pgn,
                                _ => {
                                    return err(format!(
                                        "-openings: unknown format '{v}' (epd or pgn)"
                                    ))
                                }
                            }
                        }
                        "order" => {
                            spec.order = match v {
                                "random" => Order::Random,
                                "sequential" => Order::Sequential,
                                _ => return err(format!("-openings: unknown order '{v}'")),
                            }
                        }
                        "plies" => spec.plies = Some(num("-openings plies", v)?),
                        "start" => spec.start = num("-openings start", v)?,
                        _ => return err(format!("-openings: unknown setting '{k}'")),
                    }
                }
                if spec.file.is_empty() {
                    return err("-openings: no file= given");
                }
                if !format_given && spec.file.to_ascii_lowercase().ends_with(".pgn") {
                    spec.format = Format::Pgn;
                }
                o.book = Some(spec);
            }
            "variant" => {
                o.chess960 = match value(flag, args, &mut i)? {
                    "standard" => false,
                    "fischerandom" | "chess960" | "960" => true,
                    v => {
                        return err(format!(
                            "-variant: unknown variant '{v}' (standard or fischerandom)"
                        ))
                    }
                }
            }
            "draw" => {
                let mut rule = DrawRule {
                    move_number: 0,
                    move_count: 0,
                    score: 0,
                };
                for (k, v) in key_values(flag, args, &mut i)? {
                    match k {
                        "movenumber" => rule.move_number = num("-draw movenumber", v)?,
                        "movecount" => rule.move_count = num("-draw movecount", v)?,
                        "score" => rule.score = num("-draw score", v)?,
                        _ => return err(format!("-draw: unknown setting '{k}'")),
                    }
                }
                if rule.move_count == 0 {
                    return err("-draw: movecount= must be at least 1");
                }
                o.rules.draw = Some(rule);
            }
            "resign" => {
                let mut rule = ResignRule {
                    move_count: 0,
                    score: 0,
                    two_sided: false,
                };
                for (k, v) in key_values(flag, args, &mut i)? {
                    match k {
                        "movecount" => rule.move_count = num("-resign movecount", v)?,
                        "score" => rule.score = num("-resign score", v)?,
                        "twosided" => rule.two_sided = v == "true" || v == "1",
                        _ => return err(format!("-resign: unknown setting '{k}'")),
                    }
                }
                if rule.move_count == 0 || rule.score <= 0 {
                    return err("-resign: movecount= and score= must be positive");
                }
                o.rules.resign = Some(rule);
            }
            "maxmoves" => o.rules.max_moves = Some(num(flag, value(flag, args, &mut i)?)?),
            "sprt" => {
                let mut s = SprtSpec {
                    elo0: 0.0,
                    elo1: 5.0,
                    alpha: 0.05,
                    beta: 0.05,
                };
                for (k, v) in key_values(flag, args, &mut i)? {
                    match k {
                        "elo0" => s.elo0 = num("-sprt elo0", v)?,
                        "elo1" => s.elo1 = num("-sprt elo1", v)?,
                        "alpha" => s.alpha = num("-sprt alpha", v)?,
                        "beta" => s.beta = num("-sprt beta", v)?,
                        "model" if v == "normalized" => {}
                        _ => return err(format!("-sprt: unknown setting '{k}={v}'")),
                    }
                }
                let p = 0.0..0.5;
                if !(s.elo1 > s.elo0 && p.contains(&s.alpha) && p.contains(&s.beta))
                    || s.alpha <= 0.0
                    || s.beta <= 0.0
                {
                    return err("-sprt: need elo0 < elo1 and 0 < alpha, beta < 0.5");
                }
                o.sprt = Some(s);
            }
            "pgnout" => {
                let v = value(flag, args, &mut i)?;
                o.pgn_out = Some(v.strip_prefix("file=").unwrap_or(v).to_string());
                // cutechess's optional "min" / fastchess's extra keys are accepted and ignored.
                while args.get(i).is_some_and(|a| !a.starts_with('-')) {
                    i += 1;
                }
            }
            "recover" => o.recover = true,
            "srand" => o.seed = num(flag, value(flag, args, &mut i)?)?,
            "ratinginterval" => o.rating_interval = num(flag, value(flag, args, &mut i)?)?,
            "event" => o.event = value(flag, args, &mut i)?.to_string(),
            "debug" => each.push(("debug", "true")),
            "noprogress" | "quiet" => o.progress = false,
            _ => {
                return err(format!(
                    "unknown option '{flag}' (see `sable match --help`)"
                ))
            }
        }
    }
    if engines_raw.len() < 2 {
        return err("at least two -engine are needed");
    }
    for (n, own) in engines_raw.iter().enumerate() {
        o.engines.push(engine_config(n + 1, &each, own)?);
    }
    if o.rounds == 0 || o.games == 0 || o.concurrency == 0 {
        return err("-rounds, -games and -concurrency must be at least 1");
    }
    if o.sprt.is_some() && o.engines.len() != 2 {
        return err("-sprt needs exactly two engines");
    }
    if o.sprt.is_some() && o.games % 2 == 1 && o.repeat {
        return err("-sprt with -repeat needs an even -games (pairs of games)");
    }
    Ok(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    /// `cmd=` is split as a shell splits a command line, so a program whose path has a
    /// space can be given quoted; an unbalanced quote is an error naming the engine.
    #[test]
    fn engine_commands_are_split_like_a_shell_splits_them() {
        let line = |cmd: &str| {
            vec![
                "-engine".to_string(),
                format!("cmd={cmd}"),
                "-engine".to_string(),
                "cmd=b".to_string(),
                "-each".to_string(),
                "tc=1+0".to_string(),
            ]
        };
        let o = parse(&line("'/opt/my engines/sable' --threads 2 \"a b\"")).unwrap();
        assert_eq!(o.engines[0].program, "/opt/my engines/sable");
        assert_eq!(o.engines[0].args, ["--threads", "2", "a b"]);
        assert_eq!(o.engines[0].name, "sable");
        let e = parse(&line("'/opt/my engines/sable")).unwrap_err();
        assert!(e.0.contains("engine 1: cmd="), "{}", e.0);
    }

    #[test]
    fn a_typical_line() {
        let o = parse(&args(
            "-engine cmd=/usr/games/stockfish name=SF option.Hash=16 -engine cmd=fairymax proto=xboard st=0.5 \
             -each tc=40/10+0.1 timemargin=50 -rounds 4 -games 2 -repeat -concurrency 2 \
             -openings file=book.pgn order=random plies=8 -draw movenumber=40 movecount=8 score=10 \
             -resign movecount=3 score=600 -sprt elo0=0 elo1=5 -pgnout out.pgn -srand 7 -recover",
        ))
        .unwrap();
        assert_eq!(o.engines.len(), 2);
        let sf = &o.engines[0];
        assert_eq!(sf.name, "SF");
        assert_eq!(sf.options, vec![("Hash".to_string(), "16".to_string())]);
        assert_eq!(sf.margin, Duration::from_millis(50));
        assert_eq!(sf.limits.clock.unwrap().moves, Some(40));
        let fm = &o.engines[1];
        assert_eq!(
            (fm.name.as_str(), fm.protocol),
            ("fairymax", Protocol::Xboard)
        );
        assert_eq!(fm.limits.movetime, Some(Duration::from_millis(500)));
        assert_eq!(
            (o.rounds, o.games, o.repeat, o.concurrency),
            (4, 2, true, 2)
        );
        let book = o.book.unwrap();
        assert_eq!(
            (book.format, book.order, book.plies),
            (Format::Pgn, Order::Random, Some(8))
        );
        assert_eq!(o.rules.draw.unwrap().move_number, 40);
        assert_eq!(o.rules.resign.unwrap().score, 600);
        assert_eq!(o.sprt.unwrap().elo1, 5.0);
        assert_eq!(o.pgn_out.as_deref(), Some("out.pgn"));
        assert_eq!(o.seed, 7);
        assert!(o.recover);
    }

    #[test]
    fn errors_name_the_problem() {
        let cases = [
            (
                "-engine cmd=a tc=1 -engine cmd=b",
                "engine 2 (b): no time control",
            ),
            ("-engine cmd=a tc=1", "at least two -engine"),
            (
                "-engine cmd=a tc=x -engine cmd=b tc=1",
                "engine 1: tc: bad time control 'x'",
            ),
            (
                "-engine cmd=a tc=1 -engine cmd=b tc=1 -rounds many",
                "-rounds: 'many' is not a valid number",
            ),
            (
                "-engine cmd=a tc=1 -engine cmd=b tc=1 -frobnicate",
                "unknown option '-frobnicate'",
            ),
            (
                "-engine cmd=a tc=1 proto=telepathy -engine cmd=b tc=1",
                "unknown protocol",
            ),
            (
                "-engine cmd=a tc=1 -engine cmd=b tc=1 -sprt elo0=5 elo1=0",
                "elo0 < elo1",
            ),
            (
                "-engine name=a tc=1 -engine cmd=b tc=1",
                "engine 1: no cmd=",
            ),
            (
                "-engine cmd=a tc=1 -engine cmd=b tc=1 -openings format=epd",
                "no file=",
            ),
        ];
        for (line, want) in cases {
            let e = parse(&args(line)).unwrap_err();
            assert!(e.0.contains(want), "{line}: {e}");
        }
    }
}
