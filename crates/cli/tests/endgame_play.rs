//! Endings played out against Stockfish's defence: Sable converts the classic won endings
//! and holds the drawn ones with its endgame modules alone (no tables), and wins won
//! tablebase positions (and holds drawn ones) with the 3-4 piece Syzygy tables. The
//! opponent is Debian's `stockfish` without tables; each side searches a fixed number of
//! nodes a move, so the games do not depend on the machine's speed.

use sable_chess::{CastlingMode, Color, Position};
use sable_engine::{Engine, SearchEvent, SearchLimits};
use sable_formats::game::Game;
use sable_formats::pgn::GameResult;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc;

struct Stockfish {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Stockfish {
    fn start() -> Stockfish {
        let mut child = Command::new("/usr/games/stockfish")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("stockfish runs (apt-get install stockfish)");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut sf = Stockfish {
            child,
            stdin,
            stdout,
        };
        sf.send("uci");
        sf.until("uciok");
        sf.send("setoption name Hash value 16");
        sf.send("isready");
        sf.until("readyok");
        sf
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn until(&mut self, prefix: &str) -> String {
        let mut line = String::new();
        loop {
            line.clear();
            assert!(
                self.stdout.read_line(&mut line).unwrap() > 0,
                "stockfish ended"
            );
            if line.starts_with(prefix) {
                return line.trim().to_string();
            }
        }
    }

    fn best(&mut self, game: &Game, nodes: u64) -> String {
        let moves: Vec<String> = game
            .moves()
            .iter()
            .map(|m| m.to_uci(false).to_string())
            .collect();
        self.send(&format!(
            "position fen {} moves {}",
            game.start().fen(),
            moves.join(" ")
        ));
        self.send(&format!("go nodes {nodes}"));
        let line = self.until("bestmove");
        line.split_whitespace().nth(1).unwrap().to_string()
    }
}

impl Drop for Stockfish {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

fn sable_best(engine: &mut Engine, game: &Game, nodes: u64) -> String {
    let moves: Vec<String> = game
        .moves()
        .iter()
        .map(|m| m.to_uci(false).to_string())
        .collect();
    let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
    engine
        .set_position(Some(&game.start().fen()), &refs)
        .unwrap();
    let (tx, rx) = mpsc::channel();
    let limits = SearchLimits {
        nodes: Some(nodes),
        ..SearchLimits::default()
    };
    engine
        .go(limits, move |e| {
            if let SearchEvent::Finished(r) = e {
                let _ = tx.send(r);
            }
        })
        .unwrap();
    let r = rx.recv().unwrap();
    engine.wait();
    r.best.expect("a move").to_uci(false).to_string()
}

/// Plays `fen` out with Sable as `sable_side`; the result, and the game for messages.
fn play(fen: &str, sable_side: Color, tables: bool) -> (GameResult, String) {
    let mut engine = Engine::new();
    if tables {
        let dir = sable_testdata::folder("syzygy/tables");
        engine.set_syzygy_path(&dir.display().to_string()).unwrap();
    }
    let mut sf = Stockfish::start();
    let mut game = Game::from_fen(fen, CastlingMode::Standard).unwrap();
    while !game.is_over() && !game.can_claim_threefold() && !game.can_claim_fifty_moves() {
        let uci = if game.position().turn() == sable_side {
            sable_best(&mut engine, &game, 100_000)
        } else {
            sf.best(&game, 100_000)
        };
        game.push_uci(&uci)
            .unwrap_or_else(|e| panic!("{uci} in {}: {e}", game.position().fen()));
        assert!(
            game.moves().len() < 400,
            "no end in sight: {}",
            game.to_pgn()
        );
    }
    let result = if game.is_over() {
        game.result()
    } else {
        GameResult::Draw
    };
    (result, game.to_pgn())
}

fn win_for(c: Color) -> GameResult {
    match c {
        Color::White => GameResult::WhiteWins,
        Color::Black => GameResult::BlackWins,
    }
}

#[test]
#[ignore = "needs stockfish"]
fn without_tables_sable_converts_the_classic_wins_and_holds_philidor() {
    let cases = [
        // Queen against rook.
        (
            "KQKR",
            "8/8/8/8/4k3/8/6r1/K2Q4 w - - 0 1",
            Color::White,
            true,
        ),
        // Lucena: bridge building.
        (
            "Lucena",
            "1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1",
            Color::White,
            true,
        ),
        // Bishop and knight: mate in the bishop's corner within the 50 moves.
        ("KBNK", "8/8/8/4k3/8/8/8/KBN5 w - - 0 1", Color::White, true),
        // Philidor: the defender's rook on its third rank holds.
        (
            "Philidor",
            "4k3/8/r7/3PK3/8/8/8/7R b - - 0 1",
            Color::Black,
            false,
        ),
    ];
    let mut failed = Vec::new();
    for (name, fen, side, wins) in cases {
        let (result, pgn) = play(fen, side, false);
        let want = if wins {
            win_for(side)
        } else {
            GameResult::Draw
        };
        println!("{name}: {result:?}");
        if result != want {
            failed.push(format!("{name}: {result:?}, wanted {want:?}\n{pgn}"));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
#[ignore = "needs stockfish"]
fn with_tables_sable_wins_won_positions_and_holds_drawn_ones() {
    let mut wins = 0;
    let mut draws = 0;
    for v in sable_testdata::syzygy_vectors() {
        let (fen, wdl) = (v.fen, v.wdl);
        let pos = Position::from_fen(&fen, CastlingMode::Standard).unwrap();
        let (want_wins, want_draws) = (wins < 4 && wdl == 2, draws < 3 && wdl == 0);
        if !want_wins && !want_draws {
            continue;
        }
        let side = pos.turn();
        let (result, pgn) = play(&fen, side, true);
        let want = if wdl == 2 {
            win_for(side)
        } else {
            GameResult::Draw
        };
        assert_eq!(result, want, "{fen}:\n{pgn}");
        if wdl == 2 {
            wins += 1;
        } else {
            draws += 1;
        }
    }
    assert_eq!((wins, draws), (4, 3));
}
