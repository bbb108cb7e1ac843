//! Arbitrary bytes as a PGN file, read three ways:
//!
//! 1. a replaying visitor (lenient SAN) that checks every move it is given is legal in
//!    the position before it and leaves valid keys;
//! 2. game trees with strict SAN, 3. game trees with lenient SAN: every tree read is
//!    written back as PGN (`GameTree::to_pgn`) and read again (strict: the writer writes
//!    canonical SAN), and must give the same start position, moves, NAGs, comments,
//!    variations and result.
//!
//! Each read must end (the reader consumes input on every game, so there are at most as
//! many games as bytes) and never panic; broken games come back as `PgnError`s.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sable_formats::pgn::{GameError, GameTree, PgnReader, Replayer, Visitor};
use sable_chess::SanMode;

/// Replays every line, checking each move.
struct Replay {
    replay: Replayer,
    moves: usize,
}

impl Visitor for Replay {
    type Output = usize;

    fn begin_game(&mut self) {
        self.replay.begin_game();
        self.moves = 0;
    }
    fn tag(&mut self, name: &str, value: &str) -> Result<(), GameError> {
        self.replay.tag(name, value)
    }
    fn end_tags(&mut self) -> Result<(), GameError> {
        self.replay.end_tags()?;
        let start = self.replay.start_position();
        assert!(start == self.replay.position());
        if let Err(e) = start.validate_keys() {
            panic!("start position {}: {e}", start.fen());
        }
        Ok(())
    }
    fn san(&mut self, san: &str) -> Result<(), GameError> {
        let m = self.replay.play_san(san)?;
        let before = self
            .replay
            .position_before_last()
            .expect("a move was just played");
        if !m.is_null() {
            sable_fuzz::check_returned_move(before, m, &format!("PGN SAN '{san}'"));
        }
        if let Err(e) = self.replay.position().validate_keys() {
            panic!("after '{san}' from {}: {e}", before.fen());
        }
        self.moves += 1;
        Ok(())
    }
    fn begin_variation(&mut self) -> Result<(), GameError> {
        self.replay.begin_variation()
    }
    fn end_variation(&mut self) -> Result<(), GameError> {
        self.replay.end_variation()
    }
    fn end_game(&mut self) -> usize {
        self.moves
    }
}

fn same_tree(a: &GameTree, b: &GameTree, pgn: &str) {
    assert!(a.start == b.start, "start position changed:\n{pgn}");
    assert_eq!(a.root, b.root, "moves or annotations changed:\n{pgn}");
    if let Some(r) = a.result {
        assert_eq!(b.result, Some(r), "result changed:\n{pgn}");
    }
}

fuzz_target!(|data: &[u8]| {
    let bound = data.len() + 2;

    let mut reader = PgnReader::new(data);
    let mut visitor = Replay {
        replay: Replayer::new(SanMode::Lenient),
        moves: 0,
    };
    let mut games = 0;
    while let Some(r) = reader.read_game(&mut visitor) {
        games += 1;
        assert!(
            games <= bound,
            "more games than bytes: the reader does not advance"
        );
        if let Err(e) = r {
            assert!(e.game >= 1 && e.line >= 1 && e.column >= 1, "{e:?}");
            let _ = e.to_string();
        }
    }
    assert!(reader.bytes_read() <= data.len() as u64);

    for mode in [SanMode::Strict, SanMode::Lenient] {
        let mut games = 0;
        for r in PgnReader::new(data).trees(mode) {
            games += 1;
            assert!(
                games <= bound,
                "more games than bytes: the reader does not advance"
            );
            let tree = match r {
                Ok(tree) => tree,
                Err(e) => {
                    let _ = e.to_string();
                    continue;
                }
            };
            let end = tree.end_position();
            if let Err(e) = end.validate_keys() {
                panic!("end of the mainline {}: {e}", end.fen());
            }
            let pgn = tree.to_pgn();
            let mut again = PgnReader::new(pgn.as_bytes());
            match again.read_tree() {
                Some(Ok(back)) => same_tree(&tree, &back, &pgn),
                Some(Err(e)) => panic!("written PGN does not read back: {e}\n{pgn}"),
                None => panic!("written PGN holds no game:\n{pgn}"),
            }
            assert!(
                again.read_tree().is_none(),
                "written PGN holds two games:\n{pgn}"
            );
        }
    }
});
