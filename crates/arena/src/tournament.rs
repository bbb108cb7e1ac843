//! Running a tournament: worker threads each owning its engine processes and playing
//! the games of the schedule (`schedule`), and the collector that writes the PGN as games
//! finish, keeps the standings, runs the SPRT and stops cleanly on Ctrl-C.

use std::collections::{HashMap, VecDeque};
use std::fs::File;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use super::engine::Engine;
use super::game::GameRecord;
use super::openings::{chess960_position, startpos, Book, Opening};
use super::options::MatchOptions;
use super::pgn::{write_game, PgnMeta};
use super::referee::{play, Abort, GameSpec};
use super::schedule::{schedule, Job};
use super::sprt::Decision;
use super::standings::Standings;

/// Where openings come from for a run.
pub enum OpeningSource {
    Book(Book),
    Chess960 {
        seed: u64,
    },
    StartPos,
    /// Given positions, used in turn.
    List(Vec<Opening>),
}

impl OpeningSource {
    pub fn get(&self, seq: usize) -> Result<(usize, Opening), String> {
        match self {
            OpeningSource::Book(b) => b.opening(seq).map_err(|e| e.to_string()),
            OpeningSource::Chess960 { seed } => {
                // A seeded permutation of the 960, so no position repeats early.
                let mut order: Vec<u32> = (0..960).collect();
                super::openings::shuffle(&mut order, *seed);
                let n = order[seq % 960];
                let opening = Opening {
                    start: chess960_position(n),
                    moves: Vec::new(),
                };
                Ok((n as usize, opening))
            }
            OpeningSource::StartPos => Ok((0, startpos())),
            OpeningSource::List(list) if list.is_empty() => Err("no start positions".into()),
            OpeningSource::List(list) => Ok((seq % list.len(), list[seq % list.len()].clone())),
        }
    }
}

enum Msg {
    /// A finished game, and where to say that it has been counted.
    Done(Box<GameRecord>, mpsc::Sender<()>),
    Fatal(String),
}

/// Runs the match to the end (or to an SPRT decision or Ctrl-C) and returns the
/// standings, with the games when `keep` is set. PGN games are appended to
/// `opts.pgn_out` as they finish.
pub fn run(
    opts: &MatchOptions,
    openings: &OpeningSource,
    cancel: Arc<AtomicBool>,
    keep: bool,
) -> Result<(Standings, Vec<GameRecord>), String> {
    let jobs = schedule(
        opts.engines.len(),
        opts.kind,
        opts.rounds,
        opts.games,
        opts.repeat,
    );
    let total = jobs.len();
    let queue = Mutex::new(VecDeque::from(jobs));
    let mut pgn = match &opts.pgn_out {
        Some(path) => Some(
            File::options()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("{path}: {e}"))?,
        ),
        None => None,
    };
    let mut standings = Standings::new(opts, total);
    let (tx, rx) = mpsc::channel::<Msg>();
    let mut fatal = None;
    let mut kept = Vec::new();
    std::thread::scope(|scope| {
        for _ in 0..opts.concurrency.min(total) {
            let tx = tx.clone();
            let cancel = cancel.clone();
            let queue = &queue;
            scope.spawn(move || worker(opts, openings, queue, tx, cancel));
        }
        drop(tx);
        for msg in rx {
            match msg {
                Msg::Done(record, counted) => {
                    if let Some(f) = pgn.as_mut() {
                        let meta = PgnMeta {
                            event: &opts.event,
                            site: "?",
                        };
                        let text = write_game(&record, &meta);
                        if let Err(e) = f.write_all(text.as_bytes()).and_then(|_| f.flush()) {
                            fatal.get_or_insert(format!("writing the PGN: {e}"));
                            cancel.store(true, Ordering::SeqCst);
                        }
                    }
                    if standings.add(&record) != Decision::Continue {
                        cancel.store(true, Ordering::SeqCst);
                    }
                    if keep {
                        kept.push(*record);
                    }
                    let _ = counted.send(());
                }
                Msg::Fatal(e) => {
                    fatal.get_or_insert(e);
                    cancel.store(true, Ordering::SeqCst);
                }
            }
        }
    });
    standings.finish();
    match fatal {
        Some(e) => Err(e),
        None => Ok((standings, kept)),
    }
}

/// Plays jobs from the queue until it is empty or the run is cancelled.
fn worker(
    opts: &MatchOptions,
    openings: &OpeningSource,
    queue: &Mutex<VecDeque<Job>>,
    tx: mpsc::Sender<Msg>,
    cancel: Arc<AtomicBool>,
) {
    // Engines by (engine index, slot).
    let mut engines: HashMap<(usize, usize), Engine> = HashMap::new();
    let mut started: HashMap<(usize, usize), u32> = HashMap::new();
    let (counted_tx, counted_rx) = mpsc::channel();
    loop {
        if cancel.load(Ordering::SeqCst) {
            break;
        }
        let Some(job) = queue.lock().map(|mut q| q.pop_front()).unwrap_or(None) else {
            break;
        };
        let (_, opening) = match openings.get(job.opening_seq) {
            Ok(o) => o,
            Err(e) => {
                let _ = tx.send(Msg::Fatal(e));
                break;
            }
        };
        // Self-play needs two processes of one engine; otherwise one per engine, so
        // that a crash is noticed whichever colour the engine plays next.
        let keys = [
            (job.white, 0),
            (job.black, usize::from(job.white == job.black)),
        ];
        let mut failed = None;
        for key in keys {
            let alive = engines.get_mut(&key).is_some_and(Engine::is_alive);
            if alive {
                continue;
            }
            let count = started.entry(key).or_insert(0);
            if *count > 0 && !opts.recover {
                failed = Some(format!(
                    "engine '{}' crashed or stalled; stopping (use -recover to restart it)",
                    opts.engines[key.0].name
                ));
                break;
            }
            *count += 1;
            if let Some(old) = engines.remove(&key) {
                old.quit();
            }
            match Engine::start(&opts.engines[key.0], cancel.clone()) {
                Ok(e) => {
                    engines.insert(key, e);
                }
                Err(e) => {
                    failed = Some(format!("engine '{}': {e}", opts.engines[key.0].name));
                    break;
                }
            }
        }
        if let Some(f) = failed {
            if !cancel.load(Ordering::SeqCst) {
                let _ = tx.send(Msg::Fatal(f));
            }
            break;
        }
        let spec = GameSpec {
            opening: &opening,
            opening_index: job.opening_seq,
            chess960: opts.chess960,
            rules: opts.rules,
            round: job.round,
            number: job.number,
            book_seed: opts.seed ^ (job.number as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
            white: job.white,
            black: job.black,
        };
        let mut white = engines.remove(&keys[0]).expect("started above");
        let mut black = engines.remove(&keys[1]).expect("started above");
        let result = play([&mut white, &mut black], &spec);
        let cancelled = cancel.load(Ordering::SeqCst);
        match result {
            Ok(played) => {
                for (i, e) in [white, black].into_iter().enumerate() {
                    if played.broken[i] {
                        e.quit();
                    } else {
                        engines.insert(keys[i], e);
                    }
                }
                // A game cut short by Ctrl-C (engines get the signal too) does not count.
                // The next game waits until this one is counted: an SPRT decision then
                // stops the match with no more games started than are being played.
                if !cancelled
                    && tx
                        .send(Msg::Done(Box::new(played.record), counted_tx.clone()))
                        .is_ok()
                {
                    let _ = counted_rx.recv();
                }
            }
            Err(Abort::Cancelled) => break,
            Err(Abort::Fatal(e)) => {
                let _ = tx.send(Msg::Fatal(e));
                break;
            }
        }
    }
    for (_, e) in engines {
        e.quit();
    }
}
