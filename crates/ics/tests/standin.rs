//! The client against the stand-in server (tests/support/standin.rs): whole games to
//! mate, draw, resignation and flag; registered and guest logins; Timeseal; owner tells;
//! hostile input (garbage, malformed and truncated boards, 1 MB lines, a missed board, a
//! cut connection, a silent server); pondering, with a player that records what it is
//! asked. The stand-in checks every move against the rules; the PGN file is read back
//! with the PGN reader and compared with the stand-in's moves.

#[path = "support/standin.rs"]
mod standin;

use sable_chess::{Move, Position, SanMode};
use sable_formats::pgn::{GameResult, PgnReader};
use sable_ics::{Client, Config, GreedyPlayer, Log, MoveRequest, Player, Summary, Thought};
use standin::{End, Hostile, Offer, Reply, Report, Script, StandIn};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sable-ics-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn config(port: u16, dir: &std::path::Path) -> Config {
    let mut c = Config {
        port,
        handle: "Sable".into(),
        pgn: Some(dir.join("games.pgn")),
        ..Config::default()
    };
    c.accept.enabled = true;
    c.reconnect.initial_delay_ms = 50;
    c.reconnect.timeout_ms = 5_000;
    c.reconnect.max_attempts = 5;
    c
}

/// Runs the client on its own thread; fails the test if it takes longer than `limit`.
fn run(cfg: Config, limit: Duration) -> (Result<Summary, String>, Vec<String>) {
    run_with(cfg, GreedyPlayer, limit)
}

/// [`run`] with another player.
fn run_with<P: Player + Send + 'static>(
    cfg: Config,
    player: P,
    limit: Duration,
) -> (Result<Summary, String>, Vec<String>) {
    let log = Log::memory();
    let (tx, rx) = std::sync::mpsc::channel();
    let l = log.clone();
    std::thread::spawn(move || {
        let mut client = Client::new(cfg, player, l).expect("a valid config");
        let _ = tx.send(client.run().map_err(|e| e.to_string()));
    });
    let result = rx
        .recv_timeout(limit)
        .unwrap_or_else(|_| panic!("the client hung; log:\n{}", log.lines().join("\n")));
    (result, log.lines())
}

/// The PGN file's games, each replayed by the reader, as UCI moves and result.
fn pgn_games(path: &std::path::Path) -> Vec<(Vec<String>, GameResult, String)> {
    let file = std::fs::File::open(path).expect("the PGN file exists");
    PgnReader::new(std::io::BufReader::new(file))
        .trees(SanMode::Strict)
        .map(|t| {
            let t = t.expect("the PGN replays");
            let mut pos = t.start.clone();
            let mut uci = Vec::new();
            for m in t.mainline() {
                uci.push(m.to_uci(false).to_string());
                pos.make(m);
            }
            let text = t.to_pgn();
            (uci, t.result.unwrap_or(GameResult::Unknown), text)
        })
        .collect()
}

/// Every game the stand-in saw is in the PGN file, move for move, with its result.
fn check_pgn_matches(report: &Report, path: &std::path::Path) {
    let games = pgn_games(path);
    let finished: Vec<_> = report.games.iter().filter(|g| g.result != "*").collect();
    assert_eq!(games.len(), finished.len(), "games in the PGN file");
    for (seen, (moves, result, text)) in finished.iter().zip(&games) {
        assert_eq!(&seen.moves, moves, "game {}", seen.number);
        assert_eq!(seen.result, result.as_str(), "game {}", seen.number);
        assert!(text.contains("[Site \"127.0.0.1\"]"), "{text}");
        assert!(text.contains("[TimeControl \""), "{text}");
        if !moves.is_empty() {
            assert!(text.contains("{[%clk 0:0"), "{text}");
        }
    }
}

/// The client asked for block mode, and numbered every command after it when the
/// stand-in took it; it stayed in plain mode when the stand-in answered as FICS 1.6.
fn assert_mode(report: &Report, log: &[String], block: bool) {
    assert!(report.lines.iter().any(|l| l == "iset block 1"));
    assert!(report.unnumbered.is_empty(), "{:?}", report.unnumbered);
    if block {
        assert!(
            log.iter().any(|l| l.contains("block mode on")),
            "{}",
            log.join("\n")
        );
        // Every command after `iset block 1` came numbered (the stand-in keeps those
        // that did not), with numbers that tell the commands apart.
        assert!(report.block_ids.len() >= 12, "{:?}", report.block_ids);
        assert!(report.block_ids.windows(2).all(|w| w[0] != w[1]));
        assert!(
            !log.iter().any(|l| l.contains("error: block framing")),
            "{}",
            log.join("\n")
        );
    } else {
        assert!(report.block_ids.is_empty());
        assert!(log.iter().any(|l| l.contains("did not take it")));
    }
}

fn assert_clean(report: &Report, log: &[String]) {
    assert!(
        report.illegal.is_empty(),
        "illegal moves: {:?}",
        report.illegal
    );
    assert_eq!(report.client_flagged, 0, "the client lost on time");
    assert!(
        !log.iter().any(|l| l.contains("panicked")),
        "{}",
        log.join("\n")
    );
}

#[test]
fn accepts_challenges_and_plays_games_to_every_end() {
    for block in [false, true] {
        let dir = temp(&format!("ends-{block}"));
        let server = StandIn::start(Script {
            block,
            games: vec![
                End::Natural,
                End::Resign(9),
                End::Flag(12),
                End::OfferDraw(4),
            ],
            ..Script::default()
        });
        let mut cfg = config(server.port, &dir);
        cfg.games = 4;
        let (result, log) = run(cfg, Duration::from_secs(90));
        let report = server.report();
        assert_mode(&report, &log, block);
        let summary = result.expect("the client finishes");
        assert_clean(&report, &log);
        assert_eq!(summary.games, 4, "{}", log.join("\n"));
        assert_eq!(report.games.len(), 4);
        assert!(report.quit, "the client logged out");
        assert!(report.games[1].reason.contains("resigns"));
        assert!(report.games[2].reason.contains("forfeits on time"));
        assert!(
            report.lines.iter().any(|l| l == "decline draw"),
            "a level draw offer early on is declined"
        );
        assert!(report.lines.iter().any(|l| l == "set style 12"));
        assert!(report.lines.iter().any(|l| l == "accept StandIn"));
        check_pgn_matches(&report, &dir.join("games.pgn"));
        let text = std::fs::read_to_string(dir.join("games.pgn")).unwrap();
        assert!(text.contains("[WhiteElo \"1700\"]") || text.contains("[BlackElo \"1700\"]"));
    }
}

#[test]
fn a_fics_1_6_server_with_its_own_line_endings_and_no_session_line() {
    let dir = temp("fics16");
    let server = StandIn::start(Script {
        fics16: true,
        password: Some("pw".into()),
        games: vec![End::Natural, End::Resign(12)],
        ..Script::default()
    });
    std::fs::write(dir.join("pw"), "pw\n").unwrap();
    let mut cfg = config(server.port, &dir);
    cfg.password_file = Some(dir.join("pw"));
    cfg.games = 2;
    let (result, log) = run(cfg, Duration::from_secs(90));
    let report = server.report();
    assert_eq!(result.expect("finishes").games, 2, "{}", log.join("\n"));
    assert_clean(&report, &log);
    assert!(log.iter().any(|l| l.contains("logged in as Sable")));
    check_pgn_matches(&report, &dir.join("games.pgn"));
}

#[test]
fn registered_login_challenges_a_named_opponent_and_keeps_the_password_secret() {
    for block in [false, true] {
        let dir = temp(&format!("registered-{block}"));
        let server = StandIn::start(Script {
            block,
            password: Some("s3cret-pw".into()),
            offer: Offer::AwaitMatch,
            games: vec![End::Resign(6), End::Resign(7)],
            ..Script::default()
        });
        std::fs::write(dir.join("pw"), "s3cret-pw\n").unwrap();
        let mut cfg = config(server.port, &dir);
        cfg.accept.enabled = false;
        cfg.password_file = Some(dir.join("pw"));
        cfg.challenge = Some(sable_ics::config::ChallengeSpec {
            opponent: "StandIn".into(),
            minutes: 1,
            increment: 1,
            rated: true,
            retry_seconds: 5,
        });
        cfg.games = 2;
        cfg.log = Some(dir.join("ics.log"));
        let (result, log) = run(cfg, Duration::from_secs(60));
        let report = server.report();
        assert_mode(&report, &log, block);
        assert_eq!(result.expect("finishes").games, 2);
        assert_clean(&report, &log);
        assert!(report.lines.iter().any(|l| l == "match StandIn 1 1 rated"));
        assert!(
            !log.iter().any(|l| l.contains("s3cret")),
            "the password is in the log"
        );
        assert!(log.iter().any(|l| l.contains("(password)")));
        check_pgn_matches(&report, &dir.join("games.pgn"));
    }
}

#[test]
fn a_wrong_password_stops_at_once() {
    let dir = temp("wrongpw");
    let server = StandIn::start(Script {
        password: Some("right".into()),
        deadline: Duration::from_secs(5),
        ..Script::default()
    });
    std::fs::write(dir.join("pw"), "wrong\n").unwrap();
    let mut cfg = config(server.port, &dir);
    cfg.password_file = Some(dir.join("pw"));
    let (result, _) = run(cfg, Duration::from_secs(20));
    let err = result.unwrap_err();
    assert!(err.contains("Invalid password"), "{err}");
    let report = server.report();
    assert_eq!(report.connections, 1, "no retry after a refusal");
}

#[test]
fn hostile_lines_are_reported_and_skipped() {
    for block in [false, true] {
        let dir = temp(&format!("hostile-{block}"));
        let server = StandIn::start(Script {
            block,
            games: vec![End::Resign(24), End::Resign(24)],
            hostile: vec![
                Hostile::Garbage(0),
                Hostile::Garbage(3),
                Hostile::TruncatedBoard(4),
                Hostile::MalformedBoard(6),
                Hostile::HugeLine(8),
                Hostile::DropBoard(11),
                Hostile::TruncatedBoard(15),
            ],
            ..Script::default()
        });
        let mut cfg = config(server.port, &dir);
        cfg.games = 2;
        let (result, log) = run(cfg, Duration::from_secs(60));
        let report = server.report();
        assert_mode(&report, &log, block);
        let summary = result.expect("finishes");
        assert_clean(&report, &log);
        assert_eq!(summary.games, 2);
        assert!(summary.bad_lines >= 4, "{summary:?}");
        assert!(summary.resyncs >= 1, "{summary:?}");
        assert!(log.iter().any(|l| l.contains("error: style 12")));
        assert!(
            log.iter().any(|l| l.contains("1048")),
            "the 1 MB line is reported"
        );
        // The game with a resync is written from the resynchronised position; the other
        // one, whole.
        let games = pgn_games(&dir.join("games.pgn"));
        assert_eq!(games.len(), 2);
        assert!(games.iter().any(|(_, _, t)| t.contains("[FEN \"")));
    }
}

/// A cut connection is reconnected and the game asked for again: with `resume`, or on a
/// FICS 1.6 server (which answers `resume` with "Command has failed" and brings an
/// adjourned game back on a `match` to the opponent) with `match` after the failure.
#[test]
fn a_cut_connection_is_reconnected_and_the_game_resumed() {
    for (block, fics16) in [(false, false), (true, false), (false, true)] {
        let dir = temp(&format!("cut-{block}-{fics16}"));
        let server = StandIn::start(Script {
            block,
            fics16,
            games: vec![End::Resign(30)],
            hostile: vec![Hostile::Cut(9)],
            ..Script::default()
        });
        let mut cfg = config(server.port, &dir);
        cfg.games = 1;
        let (result, log) = run(cfg, Duration::from_secs(60));
        let report = server.report();
        if !fics16 {
            assert_mode(&report, &log, block);
        }
        let summary = result.expect("finishes");
        assert_clean(&report, &log);
        assert_eq!(report.logins, 2, "{}", log.join("\n"));
        assert_eq!((summary.drops, summary.games, summary.aborted), (1, 1, 0));
        let sent = |l: &str| report.lines.iter().position(|x| x == l);
        let (resume, matched) = (sent("resume"), sent("match StandIn 1 1 unrated"));
        assert!(resume.is_some(), "{:?}", report.lines);
        if fics16 {
            assert!(matched > resume, "{:?}", report.lines);
        } else {
            assert_eq!(matched, None, "{:?}", report.lines);
        }
        assert!(log.iter().any(|l| l.contains("reconnecting in")));
        assert!(log.iter().any(|l| l.contains("resumed")));
        check_pgn_matches(&report, &dir.join("games.pgn"));
    }
}

#[test]
fn a_silent_server_times_out_and_the_client_gives_up_cleanly() {
    let dir = temp("silent");
    let server = StandIn::start(Script {
        silent: true,
        deadline: Duration::from_secs(8),
        ..Script::default()
    });
    let mut cfg = config(server.port, &dir);
    cfg.reconnect.timeout_ms = 300;
    cfg.reconnect.max_attempts = 3;
    let (result, log) = run(cfg, Duration::from_secs(20));
    let err = result.unwrap_err();
    assert!(err.contains("gave up after 3"), "{err}");
    assert!(log.iter().any(|l| l.contains("no answer from the server")));
    drop(server);
}

#[test]
fn no_server_at_all() {
    let dir = temp("none");
    // A port that was just free: nobody listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut cfg = config(port, &dir);
    cfg.reconnect.max_attempts = 2;
    let (result, log) = run(cfg, Duration::from_secs(20));
    assert!(
        result.unwrap_err().contains("cannot connect"),
        "{}",
        log.join("\n")
    );
}

#[test]
fn timeseal_lines_and_probes() {
    for block in [false, true] {
        let dir = temp(&format!("timeseal-{block}"));
        let server = StandIn::start(Script {
            block,
            timeseal: true,
            games: vec![End::Resign(10)],
            ..Script::default()
        });
        let mut cfg = config(server.port, &dir);
        cfg.timeseal = true;
        cfg.games = 1;
        let (result, log) = run(cfg, Duration::from_secs(60));
        let report = server.report();
        assert_mode(&report, &log, block);
        assert_eq!(result.expect("finishes").games, 1);
        assert_clean(&report, &log);
        assert!(report.lines.iter().any(|l| l == "set style 12"));
        assert!(!report.lines.iter().any(|l| l.starts_with("(not timeseal)")));
        assert!(report.probes_acked > 0, "probes answered");
    }
}

#[test]
fn owner_tells_command_the_bot_and_others_are_ignored() {
    for block in [false, true] {
        let dir = temp(&format!("owner-{block}"));
        let server = StandIn::start(Script {
            block,
            games: vec![End::Resign(6), End::Resign(6), End::Resign(6)],
            after_login: vec![
                "Mallory tells you: stop".into(),
                "Boss(*) tells you: games 1".into(),
            ],
            ..Script::default()
        });
        let mut cfg = config(server.port, &dir);
        cfg.owner = Some("Boss".into());
        let (result, log) = run(cfg, Duration::from_secs(60));
        let report = server.report();
        assert_mode(&report, &log, block);
        assert_eq!(result.expect("finishes").games, 1);
        assert!(report
            .lines
            .iter()
            .any(|l| l.starts_with("tell Boss stopping after 1 games")));
        assert!(!report.lines.iter().any(|l| l.starts_with("tell Mallory")));
        assert_clean(&report, &log);
    }
}

#[test]
fn challenges_outside_the_policy_are_declined_and_the_stop_flag_ends_the_run() {
    let dir = temp("decline");
    let server = StandIn::start(Script {
        rating: Some(2500),
        deadline: Duration::from_secs(10),
        ..Script::default()
    });
    let mut cfg = config(server.port, &dir);
    cfg.accept.max_rating = 2000;
    let log = Log::memory();
    let mut client = Client::new(cfg, GreedyPlayer, log.clone()).unwrap();
    let stop = client.stop_flag();
    let t = std::thread::spawn(move || client.run());
    let until = std::time::Instant::now() + Duration::from_secs(10);
    while !log
        .lines()
        .iter()
        .any(|l| l.contains("declining StandIn's challenge"))
    {
        assert!(
            std::time::Instant::now() < until,
            "{}",
            log.lines().join("\n")
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    let summary = t.join().unwrap().expect("a clean stop");
    assert_eq!(summary.games, 0);
    let report = server.report();
    assert!(report.lines.iter().any(|l| l == "decline StandIn"));
    assert!(report.quit);
}

/// An opponent who stops moving (left, or lost its connection without the server
/// noticing) runs out of time; FICS ends the game only when the other player calls
/// `flag`. The client calls it once the clock is out, not before, with millisecond clocks
/// and with FICS 1.6's whole seconds; with `autoflag` off it never does and the game
/// stays open.
#[test]
fn an_opponent_out_of_time_is_flagged() {
    for fics16 in [false, true] {
        let dir = temp(if fics16 { "flag16" } else { "flag" });
        let server = StandIn::start(Script {
            games: vec![End::Stall(6)],
            clock_ms: 4_000,
            increment_s: 1,
            fics16,
            ..Script::default()
        });
        let mut cfg = config(server.port, &dir);
        cfg.games = 1;
        let (result, log) = run(cfg, Duration::from_secs(30));
        let report = server.report();
        result.expect("the client finishes");
        assert_clean(&report, &log);
        assert_eq!(report.games.len(), 1, "{}", log.join("\n"));
        assert!(
            report.games[0].reason.contains("StandIn forfeits on time"),
            "{:?}\n{}",
            report.games[0],
            log.join("\n")
        );
        assert_eq!(
            (report.flags_won, report.flags_refused),
            (1, 0),
            "fics16 {fics16}"
        );
        check_pgn_matches(&report, &dir.join("games.pgn"));
    }

    // An opponent who never makes its first move cannot be flagged on FICS ("use abort
    // instead"); the client aborts once its clock is out and goes on to the next game.
    let dir = temp("flag-first-move");
    let server = StandIn::start(Script {
        games: vec![End::Stall(0), End::Stall(0), End::Resign(2)],
        clock_ms: 3_000,
        increment_s: 1,
        ..Script::default()
    });
    let mut cfg = config(server.port, &dir);
    cfg.games = 1; // aborted games do not count: the third is the one played
    let (result, log) = run(cfg, Duration::from_secs(40));
    let report = server.report();
    result.expect("the client finishes");
    assert_clean(&report, &log);
    // Game 1: the client is White and the stand-in stalls at its first move, after the
    // client's; game 2: the stand-in is White and never moves.
    assert_eq!(report.courtesy_aborts, 2, "{}", log.join("\n"));
    assert_eq!((report.flags_won, report.flags_refused), (0, 0));
    assert_eq!(report.games.len(), 3, "{}", log.join("\n"));
    assert!(report.games[..2]
        .iter()
        .all(|g| g.reason.contains("courtesyaborted") && g.result == "*"));
    assert!(report.games[2].reason.contains("resigns"));

    // Without autoflag the stalled game never ends: the client is still waiting when
    // the stand-in's deadline closes the connection.
    let dir = temp("noflag");
    let server = StandIn::start(Script {
        games: vec![End::Stall(6)],
        clock_ms: 2_000,
        increment_s: 1,
        deadline: Duration::from_secs(8),
        ..Script::default()
    });
    let mut cfg = config(server.port, &dir);
    cfg.games = 1;
    cfg.play.autoflag = false;
    cfg.reconnect.max_attempts = 1;
    let (_, log) = run(cfg, Duration::from_secs(30));
    let report = server.report();
    assert_eq!(
        report.flags_won + report.flags_refused,
        0,
        "{}",
        log.join("\n")
    );
    assert!(report.games.iter().all(|g| !g.reason.contains("forfeits")));
}

/// What a [`Recorder`] was asked, and its violations, shared with the test.
type Shared<T> = Arc<Mutex<Vec<T>>>;

/// What the client asked of the [`Recorder`].
#[derive(Clone, Debug, PartialEq, Eq)]
enum Call {
    /// A game from its start, or one resumed (or resynchronised) part way.
    NewGame {
        resumed: bool,
    },
    Think,
    Ponder {
        ply: usize,
        guess: String,
    },
    Hit,
    Stop,
    GameOver,
}

/// A player that plays as [`GreedyPlayer`], ponders (a pretend search that is only a
/// flag) and records every call. Its guess is the stand-in's `Reply::First` move, so it
/// hits, except on every `miss_every`-th move, where it guesses another move. A call that
/// comes while its "search" runs (anything but a hit or a stop), or a hit or a stop
/// without one, is a violation.
struct Recorder {
    calls: Shared<Call>,
    violations: Shared<String>,
    searching: bool,
    miss_every: usize,
    thoughts: usize,
}

impl Recorder {
    fn new(miss_every: usize) -> (Self, Shared<Call>, Shared<String>) {
        let calls = Arc::new(Mutex::new(Vec::new()));
        let violations = Arc::new(Mutex::new(Vec::new()));
        let r = Recorder {
            calls: calls.clone(),
            violations: violations.clone(),
            searching: false,
            miss_every,
            thoughts: 0,
        };
        (r, calls, violations)
    }

    fn record(&mut self, call: Call) {
        let idle = matches!(call, Call::Hit | Call::Stop);
        if self.searching != idle {
            self.violations.lock().unwrap().push(format!(
                "{call:?} with a search {}",
                if self.searching {
                    "running"
                } else {
                    "not running"
                }
            ));
        }
        self.searching = matches!(call, Call::Ponder { .. });
        self.calls.lock().unwrap().push(call);
    }

    fn greedy(&mut self, req: &MoveRequest<'_>) -> Result<Thought, String> {
        let mut t = GreedyPlayer.think(req)?;
        self.thoughts += 1;
        let mut after = req.position.clone();
        after.make(t.mv);
        let replies = after.legal_moves();
        let replies = replies.as_slice();
        let miss = self.miss_every > 0 && self.thoughts.is_multiple_of(self.miss_every);
        t.ponder = match replies {
            [] => None,
            [first] => Some(*first),
            [first, .., last] => Some(if miss { *last } else { *first }),
        };
        Ok(t)
    }
}

impl Player for Recorder {
    fn new_game(&mut self, start: &Position, moves: &[Move]) {
        self.record(Call::NewGame {
            resumed: !moves.is_empty() || start.fen() != Position::startpos().fen(),
        });
    }

    fn think(&mut self, req: &MoveRequest<'_>) -> Result<Thought, String> {
        self.record(Call::Think);
        self.greedy(req)
    }

    fn ponder(&mut self, req: &MoveRequest<'_>) -> Result<bool, String> {
        let guess = req
            .moves
            .last()
            .expect("the guess")
            .to_uci(false)
            .to_string();
        self.record(Call::Ponder {
            ply: req.moves.len() - 1,
            guess,
        });
        Ok(true)
    }

    fn ponderhit(&mut self, req: &MoveRequest<'_>) -> Result<Thought, String> {
        self.record(Call::Hit);
        self.greedy(req)
    }

    fn stop_pondering(&mut self) {
        self.record(Call::Stop);
    }

    fn game_over(
        &mut self,
        _start: &Position,
        _moves: &[Move],
        _result: GameResult,
    ) -> Vec<String> {
        self.record(Call::GameOver);
        Vec::new()
    }
}

/// Every ponder is resolved by what the stand-in then did, read from its own record of
/// the game: its move was the guess (a hit), another move (a stop), or no move at all
/// (the game ended: a stop); or the stand-in cut the connection at that ply (a stop,
/// though the same move may come after the game is resumed). Returns (hits, stops).
fn check_ponders(calls: &[Call], report: &Report) -> (usize, usize) {
    // Plies where the stand-in cut the connection, took time off the client's clock or
    // took back the client's move: a stop even when the guess is then played.
    let mut cuts: Vec<usize> = report
        .notes
        .iter()
        .filter_map(|n| {
            n.strip_prefix("cut on the stand-in's turn at ply ")
                .or_else(|| n.strip_prefix("clock drop at ply "))
                .or_else(|| n.strip_prefix("takeback at ply "))
        })
        .map(|n| n.parse().unwrap())
        .collect();
    let mut game = None::<usize>;
    let (mut hits, mut stops) = (0, 0);
    for (i, call) in calls.iter().enumerate() {
        match call {
            Call::NewGame { resumed: false } => game = Some(game.map_or(0, |g| g + 1)),
            Call::Ponder { ply, guess } => {
                let g = &report.games[game.expect("a game")];
                let next = calls.get(i + 1);
                let played = g.moves.get(*ply);
                if next == Some(&Call::Stop) && cuts.contains(ply) {
                    cuts.retain(|c| c != ply);
                    stops += 1;
                } else if played == Some(guess) {
                    assert_eq!(
                        next,
                        Some(&Call::Hit),
                        "call {i}: {guess} at ply {ply} was played"
                    );
                    hits += 1;
                } else {
                    assert_eq!(
                        next,
                        Some(&Call::Stop),
                        "call {i}: {guess} at ply {ply}, played {played:?}"
                    );
                    stops += 1;
                }
            }
            _ => {}
        }
    }
    (hits, stops)
}

#[test]
fn pondering_hits_and_misses_and_every_think_ends_in_a_move() {
    for block in [false, true] {
        let dir = temp(&format!("ponder-{block}"));
        let server = StandIn::start(Script {
            block,
            games: vec![End::Resign(24), End::Resign(25)],
            reply: Reply::First,
            reply_delay_ms: 20,
            ..Script::default()
        });
        let mut cfg = config(server.port, &dir);
        cfg.games = 2;
        let (player, calls, violations) = Recorder::new(3);
        let (result, log) = run_with(cfg, player, Duration::from_secs(60));
        let report = server.report();
        assert_mode(&report, &log, block);
        assert_eq!(result.expect("finishes").games, 2, "{}", log.join("\n"));
        assert_clean(&report, &log);
        assert!(
            violations.lock().unwrap().is_empty(),
            "{:?}",
            violations.lock().unwrap()
        );
        let calls = calls.lock().unwrap().clone();
        let (hits, stops) = check_ponders(&calls, &report);
        // 24 plies: about 12 moves of ours, a third of them guessed wrong.
        assert!(
            hits >= 10 && stops >= 4,
            "hits {hits}, stops {stops}\n{}",
            log.join("\n")
        );
        let count = |s: &str| log.iter().filter(|l| l.contains(s)).count();
        assert_eq!(count("ponderhit "), hits);
        assert!(count("ponder miss: expected ") >= 4);
        // A hit answers the reply with the ponder search: no fresh think after it.
        for w in calls.windows(2) {
            assert!(!(w[0] == Call::Hit && w[1] == Call::Think), "{calls:?}");
        }
        check_pgn_matches(&report, &dir.join("games.pgn"));

        // With pondering off the player is never asked to.
        let dir = temp(&format!("no-ponder-{block}"));
        let server = StandIn::start(Script {
            block,
            games: vec![End::Resign(10)],
            reply: Reply::First,
            ..Script::default()
        });
        let mut cfg = config(server.port, &dir);
        cfg.games = 1;
        cfg.play.ponder = false;
        let (player, calls, _) = Recorder::new(0);
        let (result, log) = run_with(cfg, player, Duration::from_secs(60));
        let report = server.report();
        assert_mode(&report, &log, block);
        assert_eq!(result.expect("finishes").games, 1);
        assert_clean(&report, &log);
        let calls = calls.lock().unwrap();
        assert!(calls.iter().filter(|c| **c == Call::Think).count() >= 5);
        assert!(
            !calls.iter().any(|c| matches!(c, Call::Ponder { .. })),
            "{calls:?}"
        );

        // Nor with under three seconds on our clock (a stopped ponder search may wait
        // for a core that long on a loaded machine).
        let dir = temp(&format!("low-clock-no-ponder-{block}"));
        let server = StandIn::start(Script {
            block,
            games: vec![End::Resign(10)],
            reply: Reply::First,
            client_start_ms: Some(2_500),
            increment_s: 0,
            ..Script::default()
        });
        let mut cfg = config(server.port, &dir);
        cfg.games = 1;
        let (player, calls, _) = Recorder::new(0);
        let (result, log) = run_with(cfg, player, Duration::from_secs(60));
        let report = server.report();
        assert_eq!(result.expect("finishes").games, 1, "{}", log.join("\n"));
        assert_clean(&report, &log);
        let calls = calls.lock().unwrap();
        assert!(
            calls.iter().filter(|c| **c == Call::Think).count() >= 5,
            "{calls:?}\n{}",
            log.join("\n")
        );
        assert!(
            !calls.iter().any(|c| matches!(c, Call::Ponder { .. })),
            "{calls:?}"
        );
    }
}

/// The stand-in thinks a while before each turn, so the client is pondering when the
/// game ends there (resignation, abort, adjournment, flag) or the connection is cut:
/// every ponder search is stopped before anything else is asked of the player, and the
/// next game (or the resumed one) is played. A hit whose board shows our clock well
/// below the one the search was given is searched afresh.
#[test]
fn a_game_that_ends_while_pondering_stops_the_search_first() {
    for block in [false, true] {
        let dir = temp(&format!("ponder-ends-{block}"));
        let server = StandIn::start(Script {
            block,
            games: vec![End::Resign(8), End::Abort(5), End::Adjourn(7), End::Flag(6)],
            hostile: vec![Hostile::ClockDrop(3), Hostile::CutOnTurn(5)],
            reply: Reply::First,
            reply_delay_ms: 150,
            ..Script::default()
        });
        let mut cfg = config(server.port, &dir);
        cfg.games = 3; // the aborted game does not count
        let (player, calls, violations) = Recorder::new(0);
        let (result, log) = run_with(cfg, player, Duration::from_secs(90));
        let report = server.report();
        assert_mode(&report, &log, block);
        let summary = result.expect("finishes");
        assert_eq!(summary.games, 3, "{}", log.join("\n"));
        assert_eq!(summary.drops, 1);
        assert_clean(&report, &log);
        assert!(
            violations.lock().unwrap().is_empty(),
            "{:?}",
            violations.lock().unwrap()
        );
        assert_eq!(report.adjourned, 1);
        assert_eq!(report.games.len(), 4, "{:?}", report.games);
        let calls = calls.lock().unwrap().clone();
        let (hits, stops) = check_ponders(&calls, &report);
        assert!(hits >= 4, "hits {hits}");
        let count = |s: &str| log.iter().filter(|l| l.contains(s)).count();
        // Resignation, abort, adjournment, flag.
        assert_eq!(count("ponder stopped (game over)"), 4, "{}", log.join("\n"));
        assert_eq!(count("ponder stopped (the connection was lost)"), 1);
        // The expected reply came with 5 s less on our clock than the search was
        // given: it is searched afresh.
        assert_eq!(count("searching afresh"), 1, "{}", log.join("\n"));
        assert_eq!(stops, 6);
        check_pgn_matches(&report, &dir.join("games.pgn"));
    }
}

/// In block mode: a reply with no end (given up when the next one begins, or after
/// the framer's timeout when nothing follows), a broken header, a reply to a number
/// the client never sent, block control bytes inside a board, a block of over 1 MB;
/// and, in both modes, a move the stand-in refuses. Each is logged, the game goes on
/// with legal moves and is written whole.
#[test]
fn broken_block_framing_and_a_refused_move_are_reported_and_the_game_goes_on() {
    for block in [false, true] {
        let dir = temp(&format!("framing-{block}"));
        let mut hostile = vec![Hostile::ControlBytes(3), Hostile::RefuseMove(10)];
        if block {
            // The client is White: boards of even plies follow the stand-in's moves
            // (unframed), odd ones confirm the client's (in its reply).
            hostile.extend([
                Hostile::BlockNoEnd(4),
                Hostile::BlockNoEnd(7),
                Hostile::BlockBadHeader(12),
                Hostile::HugeBlock(15),
            ]);
        }
        let server = StandIn::start(Script {
            block,
            games: vec![End::Resign(24)],
            hostile,
            ..Script::default()
        });
        let mut cfg = config(server.port, &dir);
        cfg.games = 1;
        let (result, log) = run(cfg, Duration::from_secs(60));
        let report = server.report();
        let summary = result.expect("finishes");
        assert_eq!(summary.games, 1, "{}", log.join("\n"));
        assert_clean(&report, &log);
        assert!(report.unnumbered.is_empty());
        assert_eq!(report.refused_on_purpose, 1);
        assert_eq!(summary.refused_moves, 1, "{}", log.join("\n"));
        let count = |s: &str| log.iter().filter(|l| l.contains(s)).count();
        assert_eq!(count("error: the server refused our move "), 1);
        assert_eq!(
            count("where no block was open"),
            1,
            "the control bytes in the board"
        );
        assert_eq!(summary.resyncs, 0, "the board with control bytes was read");
        if block {
            assert!(
                count("had no end before the next began") == 1,
                "{}",
                log.join("\n")
            );
            assert!(count("had no end after 2000 ms") == 1, "{}", log.join("\n"));
            assert!(count("without a numeric id and code") == 1);
            assert!(count("warning: a reply to #998") == 1);
            assert!(count("bytes with no end; dropped") == 1);
            assert!(summary.bad_lines >= 5, "{summary:?}");
        }
        check_pgn_matches(&report, &dir.join("games.pgn"));
    }
}

/// A failed `match` is named in the log with the server's answer (in block mode, from
/// the reply to that command), and the challenge is sent again.
#[test]
fn a_refused_match_is_matched_to_its_reply_and_sent_again() {
    for block in [false, true] {
        let dir = temp(&format!("refused-match-{block}"));
        let server = StandIn::start(Script {
            block,
            offer: Offer::AwaitMatch,
            refuse_matches: 1,
            games: vec![End::Resign(6)],
            ..Script::default()
        });
        let mut cfg = config(server.port, &dir);
        cfg.accept.enabled = false;
        cfg.challenge = Some(sable_ics::config::ChallengeSpec {
            opponent: "StandIn".into(),
            minutes: 1,
            increment: 0,
            rated: false,
            retry_seconds: 1,
        });
        cfg.games = 1;
        let (result, log) = run(cfg, Duration::from_secs(30));
        let report = server.report();
        assert_eq!(result.expect("finishes").games, 1);
        assert_clean(&report, &log);
        assert_mode(&report, &log, block);
        let matches = report
            .lines
            .iter()
            .filter(|l| l.starts_with("match "))
            .count();
        assert_eq!(matches, 2, "{:?}", report.lines);
        let named = log.iter().any(|l| {
            l.contains("'match StandIn 1 0 unrated' (#")
                && l.contains("'StandIn is not open to match requests.'")
        });
        assert_eq!(named, block, "{}", log.join("\n"));
    }
}

/// A server that takes block mode without saying so drops the commands that follow,
/// each with a `BLK_ERROR_NOSEQUENCE` reply: the first one tells the client, which
/// numbers its commands from then on and sends its settings again.
#[test]
fn block_mode_taken_without_a_word_is_found_out_from_the_errors() {
    let dir = temp("block-quiet");
    let server = StandIn::start(Script {
        block: true,
        block_quiet: true,
        games: vec![End::Resign(8)],
        ..Script::default()
    });
    let mut cfg = config(server.port, &dir);
    cfg.games = 1;
    cfg.reconnect.timeout_ms = 1_000; // the wait for an answer to `iset block 1`
    let (result, log) = run(cfg, Duration::from_secs(30));
    let report = server.report();
    assert_eq!(result.expect("finishes").games, 1, "{}", log.join("\n"));
    assert_clean(&report, &log);
    assert!(log
        .iter()
        .any(|l| l.contains("no answer to 'iset block 1'")));
    assert!(log
        .iter()
        .any(|l| l.contains("in block mode though it did not say so")));
    // Each dropped command was sent again once, and no other error followed.
    assert!(!log.iter().any(|l| l.contains("without its number")));
    assert_eq!(
        report.lines.iter().filter(|l| *l == "set style 12").count(),
        1
    );
    assert!(report.unnumbered.iter().any(|l| l == "set style 12"));
    // Sent again, numbered, and taken.
    assert!(report.lines.iter().any(|l| l == "set style 12"));
    assert!(!report.block_ids.is_empty());
    check_pgn_matches(&report, &dir.join("games.pgn"));
}

/// A takeback while the client ponders (the board goes back a ply): the search is
/// stopped, the game followed from the server's board, and played on.
#[test]
fn a_takeback_while_pondering_stops_the_search() {
    for block in [false, true] {
        let dir = temp(&format!("ponder-takeback-{block}"));
        let server = StandIn::start(Script {
            block,
            games: vec![End::Resign(12)],
            hostile: vec![Hostile::TakeBack(5)],
            reply: Reply::First,
            reply_delay_ms: 100,
            ..Script::default()
        });
        let mut cfg = config(server.port, &dir);
        cfg.games = 1;
        let (player, _, violations) = Recorder::new(0);
        let (result, log) = run_with(cfg, player, Duration::from_secs(30));
        let report = server.report();
        assert_mode(&report, &log, block);
        let summary = result.expect("finishes");
        assert_eq!(summary.games, 1, "{}", log.join("\n"));
        assert_eq!(summary.resyncs, 1);
        assert_clean(&report, &log);
        assert!(violations.lock().unwrap().is_empty());
        let count = |s: &str| log.iter().filter(|l| l.contains(s)).count();
        assert_eq!(
            count("ponder stopped (the board was resynchronised)"),
            1,
            "{}",
            log.join("\n")
        );
        // The game was written from the board after the takeback.
        let games = pgn_games(&dir.join("games.pgn"));
        assert_eq!(games.len(), 1);
        assert!(games[0].2.contains("[FEN \""));
    }
}
