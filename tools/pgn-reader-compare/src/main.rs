//! Throughput of pgn-reader (with shakmaty replaying every move) on a PGN file, best of
//! five in-memory runs, to set beside `sable pgn --validate` on the same machine:
//!
//! ```sh
//! cargo run --release --manifest-path tools/pgn-reader-compare/Cargo.toml -- FILE
//! target/release/sable pgn --validate FILE
//! ```
//! Games with a `FEN` tag are counted as errors here (this reader starts every game from
//! the initial position); the lichess corpus has three.

use pgn_reader::{BufferedReader, RawHeader, SanPlus, Skip, Visitor};
use shakmaty::{Chess, Position};

#[derive(Default)]
struct Replay {
    pos: Chess,
    plies: u64,
    errors: u64,
    games: u64,
    broken: bool,
}

impl Visitor for Replay {
    type Result = ();
    fn begin_game(&mut self) {
        self.pos = Chess::default();
        self.broken = false;
    }
    fn header(&mut self, _key: &[u8], _value: RawHeader<'_>) {}
    fn begin_variation(&mut self) -> Skip {
        Skip(true)
    }
    fn san(&mut self, san: SanPlus) {
        if self.broken {
            return;
        }
        match san.san.to_move(&self.pos) {
            Ok(m) => {
                self.pos.play_unchecked(&m);
                self.plies += 1;
            }
            Err(_) => {
                self.broken = true;
                self.errors += 1;
            }
        }
    }
    fn end_game(&mut self) {
        self.games += 1;
    }
}

fn main() {
    let path = std::env::args().nth(1).expect("usage: pgn-reader-compare FILE");
    let bytes = std::fs::read(&path).expect("readable file");
    let mut best = f64::MAX;
    let mut replay = Replay::default();
    for _ in 0..5 {
        replay = Replay::default();
        let start = std::time::Instant::now();
        BufferedReader::new(&bytes[..])
            .read_all(&mut replay)
            .expect("in-memory read");
        best = best.min(start.elapsed().as_secs_f64());
    }
    println!(
        "pgn-reader: {} games, {} plies, {} errors, {:.1} MB/s",
        replay.games,
        replay.plies,
        replay.errors,
        bytes.len() as f64 / best / 1e6
    );
}
