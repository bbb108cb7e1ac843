//! Training samples: a position reduced to its active features from the side to move's
//! view (the other side's follow by [`mirror_feature`](sable_engine::nnue::mirror_feature)),
//! with its score, result and game, 76 bytes each; reading them from game records (through
//! `sable_formats::record`'s training filter) or from `FEN | score | result` text; and
//! [`add_mirrored`], the file-mirrored copies that double what a small data set teaches.

use crate::TrainError;
use sable_chess::{CastlingMode, Color, Position};
use sable_engine::nnue::{active_features, MAX_ACTIVE};
use sable_formats::record::{Filter, RecordReader, TrainingPositions};
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

/// One training position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// Active features from the side to move's view; the first `count` are valid.
    pub features: [u16; MAX_ACTIVE],
    pub count: u8,
    /// The game's result for the side to move: 0 lost, 1 drawn, 2 won.
    pub result: u8,
    /// The searched score for the side to move, centipawns.
    pub score: i16,
    /// No castling rights are left, so the position mirrored a-h <-> h-a is worth the
    /// same ([`Sample::mirrored`]).
    pub mirrorable: bool,
    /// The game it comes from, numbered in load order over all input files (a text
    /// line is its own game), so that [`crate::split`] holds out whole games.
    pub game: u32,
}

const _: () = assert!(std::mem::size_of::<Sample>() == 76);

impl Sample {
    /// `score` and `result` (1.0 won, 0.5 drawn, 0.0 lost) are for the side to move.
    pub fn new(pos: &Position, score: i16, result: f32) -> Sample {
        let mut features = [0; MAX_ACTIVE];
        let count = active_features(pos, pos.turn(), &mut features) as u8;
        Sample {
            features,
            count,
            result: (result * 2.0).round().clamp(0.0, 2.0) as u8,
            score,
            mirrorable: pos.castling().bits() == 0,
            game: 0,
        }
    }

    /// The same sample, from game `game`.
    pub fn in_game(self, game: u32) -> Sample {
        Sample { game, ..self }
    }

    /// The same position with files a-h mirrored (square index `^ 7`, which commutes
    /// with the perspective's rank flip), same score and result. Chess is symmetric
    /// under this mirror except for castling, hence [`Sample::mirrorable`].
    pub fn mirrored(&self) -> Sample {
        let mut m = *self;
        for f in &mut m.features[..m.count as usize] {
            *f ^= 7;
        }
        m
    }

    #[inline]
    pub fn active(&self) -> &[u16] {
        &self.features[..self.count as usize]
    }
}

/// Appends the mirrored copy of every mirrorable sample in `samples` (for the training
/// set only, after the split, so that no validation position is trained on in mirror);
/// returns how many were added.
///
/// Why: the net cannot know that a knight on b3 is worth what one on g3 is in the same
/// mirrored surroundings; with a few million positions it sees many patterns on one
/// wing only. The mirrored copy is exact (no castling rights), so it is free data.
pub fn add_mirrored(samples: &mut Vec<Sample>) -> usize {
    let before = samples.len();
    for i in 0..before {
        if samples[i].mirrorable {
            let m = samples[i].mirrored();
            samples.push(m);
        }
    }
    samples.len() - before
}

/// What loading skipped, for the report.
#[derive(Clone, Debug, Default)]
pub struct LoadStats {
    pub samples: usize,
    /// Games (and text lines) read so far; a sample's [`Sample::game`] is this count
    /// just after its game was read.
    pub games: u32,
    /// A record file ended inside its last record (the complete ones were read).
    pub truncated: Vec<String>,
}

/// Reads a training file: game records (first byte the record magic) or text lines. A
/// file that gives no training position is an error.
pub fn load(path: &Path, out: &mut Vec<Sample>, stats: &mut LoadStats) -> Result<(), TrainError> {
    let added = read(path, &mut stats.games, &mut stats.truncated, |s| {
        out.push(s)
    })?;
    stats.samples += added;
    Ok(())
}

/// [`load`] without the vector: hands every sample of `path` to `sink` in file order,
/// numbering games on from `games` (left at the last game's number), and returns how
/// many samples there were. A record file cut inside its last record is noted in
/// `truncated` after its complete records; a file that gives no sample is an error.
/// The streaming trainer ([`crate::stream`]) reads through this, so that a data set
/// larger than memory is never held whole.
pub fn read(
    path: &Path,
    games: &mut u32,
    truncated: &mut Vec<String>,
    mut sink: impl FnMut(Sample),
) -> Result<usize, TrainError> {
    let io = |e: std::io::Error| TrainError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    };
    let mut file = BufReader::new(std::fs::File::open(path).map_err(io)?);
    let first = file.fill_buf().map_err(io)?.first().copied();
    let mut count = 0;
    let mut counted = |s: Sample| {
        count += 1;
        sink(s)
    };
    if first == Some(sable_formats::record::MAGIC) {
        read_records(path, file, games, truncated, &mut counted)?;
    } else {
        read_text(path, file, games, &mut counted)?;
    }
    if count == 0 {
        return Err(TrainError::Data {
            path: path.display().to_string(),
            message: if first.is_none() {
                "the file is empty".to_string()
            } else {
                "no training positions in the file".to_string()
            },
        });
    }
    Ok(count)
}

fn read_records(
    path: &Path,
    file: impl Read,
    games: &mut u32,
    truncated: &mut Vec<String>,
    sink: &mut impl FnMut(Sample),
) -> Result<(), TrainError> {
    let mut positions = TrainingPositions::new(RecordReader::new(file), Filter::default());
    let mut last_record = None;
    while let Some(item) = positions.next() {
        // A game's positions come out together, after its record was read.
        let record = positions.reader().record_offset();
        if last_record != Some(record) {
            last_record = Some(record);
            *games += 1;
        }
        match item {
            Ok(tp) => sink(Sample::new(&tp.pos, tp.score, tp.result).in_game(*games)),
            Err(e) if e.is_truncation() => {
                truncated.push(format!("{}: {e}", path.display()));
                break;
            }
            Err(e) => {
                return Err(TrainError::Data {
                    path: path.display().to_string(),
                    message: e.to_string(),
                })
            }
        }
    }
    Ok(())
}

/// `FEN | score | result`: the score in centipawns and the result (`1.0`, `0.5`, `0.0`,
/// or `1-0`, `1/2-1/2`, `0-1`) both from White's side, as in bullet's text format.
/// Blank lines and lines starting with `#` are skipped.
fn read_text(
    path: &Path,
    file: impl BufRead,
    games: &mut u32,
    sink: &mut impl FnMut(Sample),
) -> Result<(), TrainError> {
    for (i, line) in file.lines().enumerate() {
        let err = |message: String| TrainError::Data {
            path: format!("{}:{}", path.display(), i + 1),
            message,
        };
        let line = line.map_err(|e| err(e.to_string()))?;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (pos, score, result) = parse_text_line(line).map_err(err)?;
        *games += 1;
        sink(Sample::new(&pos, score, result).in_game(*games));
    }
    Ok(())
}

/// One text line as (position, score for the side to move, result for the side to move).
pub fn parse_text_line(line: &str) -> Result<(Position, i16, f32), String> {
    let fields: Vec<&str> = line.split('|').map(str::trim).collect();
    let [fen, score, result] = fields[..] else {
        return Err(format!("expected 'FEN | score | result', got {line:?}"));
    };
    let pos = Position::from_fen(fen, CastlingMode::Standard).map_err(|e| e.to_string())?;
    let score: i16 = score
        .parse()
        .map_err(|_| format!("score {score:?} is not a whole number of centipawns"))?;
    let white = match result {
        "1-0" => 1.0,
        "0-1" => 0.0,
        "1/2-1/2" => 0.5,
        r => match r.parse::<f32>() {
            Ok(v) if v == 0.0 || v == 0.5 || v == 1.0 => v,
            _ => {
                return Err(format!(
                    "result {r:?} is not 1.0, 0.5, 0.0, 1-0, 1/2-1/2 or 0-1"
                ))
            }
        },
    };
    Ok(match pos.turn() {
        Color::White => (pos, score, white),
        Color::Black => (pos, score.saturating_neg(), 1.0 - white),
    })
}
