//! Training samples: a position reduced to its active features from the side to move's
//! view (the other side's follow by [`mirror_feature`]),
//! with its score, result and game, and each side's king square (which rows a net with
//! mirrored or king-bucketed inputs reads), 76 bytes each; reading them from game records (through
//! `sable_formats::record`'s training filter) or from `FEN | score | result` text; and
//! [`add_mirrored`], the file-mirrored copies that double what a small data set teaches.

use crate::TrainError;
use sable_chess::{CastlingMode, Color, Position};
use sable_engine::nnue::{active_features, mirror_feature, Inputs, View, MAX_ACTIVE};
use sable_formats::record::{Filter, RecordReader, TrainingPositions};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

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
    /// Each perspective's own king square, seen from its side (rank-flipped for Black,
    /// file unflipped): the side to move's, then the other's. It says which rows a net
    /// with mirrored or king-bucketed inputs reads ([`Sample::view`]); the features
    /// themselves are stored unflipped, so one sample serves every kind of net. The two
    /// bytes fit in what was padding.
    pub kings: [u8; 2],
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
        let king = |c| pos.king(c).relative(c).index() as u8;
        Sample {
            features,
            count,
            result: (result * 2.0).round().clamp(0.0, 2.0) as u8,
            score,
            mirrorable: pos.castling().bits() == 0,
            kings: [king(pos.turn()), king(!pos.turn())],
            game: 0,
        }
    }

    /// The features of perspective `side` (0 the side to move's, 1 the other's, through
    /// [`mirror_feature`]), unflipped: [`Sample::view`] turns each into its input row.
    #[inline]
    pub fn features(&self, side: usize) -> impl Iterator<Item = usize> + '_ {
        self.active().iter().map(move |&f| {
            if side == 0 {
                f as usize
            } else {
                mirror_feature(f as usize)
            }
        })
    }

    /// Which rows perspective `side` reads in a net of `inputs`: its king's bucket and
    /// file flip (the flip, `^ 7`, commutes with `mirror_feature`). With
    /// [`Sample::features`], the one place the trainer turns a sample into inputs.
    #[inline]
    pub fn view(&self, side: usize, inputs: &Inputs) -> View {
        inputs.view(sable_chess::Square::from_index(self.kings[side] as usize))
    }

    /// The input rows of perspective `side` in a net of `inputs`.
    pub fn rows<'a>(&'a self, side: usize, inputs: &Inputs) -> impl Iterator<Item = usize> + 'a {
        let view = self.view(side, inputs);
        self.features(side).map(move |f| view.row(f))
    }

    /// The same sample, from game `game`.
    pub fn in_game(self, game: u32) -> Sample {
        Sample { game, ..self }
    }

    /// The same position with files a-h mirrored (square index `^ 7`, which commutes
    /// with the perspective's rank flip), same score and result. Chess is symmetric
    /// under this mirror except for castling, hence [`Sample::mirrorable`]. Both kings
    /// change halves, so both flips turn over: to a net with mirrored inputs the copy is
    /// the same inputs as the original.
    pub fn mirrored(&self) -> Sample {
        let mut m = *self;
        for f in &mut m.features[..m.count as usize] {
            *f ^= 7;
        }
        for k in &mut m.kings {
            *k ^= 7;
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
pub fn read(
    path: &Path,
    games: &mut u32,
    truncated: &mut Vec<String>,
    mut sink: impl FnMut(Sample),
) -> Result<usize, TrainError> {
    let mut samples = Samples::open(path, *games)?;
    let mut count = 0;
    for s in samples.by_ref() {
        sink(s?);
        count += 1;
    }
    *games = samples.games();
    truncated.extend(samples.truncated.take());
    if count == 0 {
        return Err(TrainError::Data {
            path: path.display().to_string(),
            message: if samples.empty {
                "the file is empty".to_string()
            } else {
                "no training positions in the file".to_string()
            },
        });
    }
    Ok(count)
}

/// The samples of one training file in file order, as an iterator, so that the
/// streaming trainer ([`crate::stream`]) can draw from many files at once: game records
/// (first byte the record magic) through the training filter, or text lines
/// `FEN | score | result`: the score in centipawns and the result (`1.0`, `0.5`, `0.0`,
/// or `1-0`, `1/2-1/2`, `0-1`) both from White's side, as in bullet's text format, blank
/// lines and lines starting with `#` skipped, each line a game of its own. Games are
/// numbered on from the number given to [`Samples::open`].
pub struct Samples {
    path: PathBuf,
    inner: Inner,
    games: u32,
    /// The file had no bytes at all.
    empty: bool,
    /// Set when a record file ended inside its last record (the iterator then ends).
    pub truncated: Option<String>,
}

enum Inner {
    Records {
        positions: TrainingPositions<BufReader<std::fs::File>>,
        last_record: Option<u64>,
    },
    Text {
        lines: std::io::Lines<BufReader<std::fs::File>>,
        line: usize,
    },
    Done,
}

impl Samples {
    pub fn open(path: &Path, games_before: u32) -> Result<Samples, TrainError> {
        let io = |e: std::io::Error| TrainError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        };
        let mut file = BufReader::new(std::fs::File::open(path).map_err(io)?);
        let first = file.fill_buf().map_err(io)?.first().copied();
        let inner = if first == Some(sable_formats::record::MAGIC) {
            Inner::Records {
                positions: TrainingPositions::new(RecordReader::new(file), Filter::default()),
                last_record: None,
            }
        } else {
            Inner::Text {
                lines: file.lines(),
                line: 0,
            }
        };
        Ok(Samples {
            path: path.to_path_buf(),
            inner,
            games: games_before,
            empty: first.is_none(),
            truncated: None,
        })
    }

    /// The number of the last game read.
    pub fn games(&self) -> u32 {
        self.games
    }

    fn error(&mut self, path: String, message: String) -> Option<Result<Sample, TrainError>> {
        self.inner = Inner::Done;
        Some(Err(TrainError::Data { path, message }))
    }
}

impl Iterator for Samples {
    type Item = Result<Sample, TrainError>;

    fn next(&mut self) -> Option<Self::Item> {
        match &mut self.inner {
            Inner::Done => None,
            Inner::Records {
                positions,
                last_record,
            } => {
                let item = positions.next()?;
                // A game's positions come out together, after its record was read.
                let record = positions.reader().record_offset();
                if *last_record != Some(record) {
                    *last_record = Some(record);
                    self.games += 1;
                }
                match item {
                    Ok(tp) => Some(Ok(
                        Sample::new(&tp.pos, tp.score, tp.result).in_game(self.games)
                    )),
                    Err(e) if e.is_truncation() => {
                        self.truncated = Some(format!("{}: {e}", self.path.display()));
                        self.inner = Inner::Done;
                        None
                    }
                    Err(e) => self.error(self.path.display().to_string(), e.to_string()),
                }
            }
            Inner::Text { lines, line } => loop {
                let text = lines.next()?;
                *line += 1;
                let at = format!("{}:{}", self.path.display(), line);
                let text = match text {
                    Ok(t) => t,
                    Err(e) => return self.error(at, e.to_string()),
                };
                let text = text.trim();
                if text.is_empty() || text.starts_with('#') {
                    continue;
                }
                match parse_text_line(text) {
                    Ok((pos, score, result)) => {
                        self.games += 1;
                        return Some(Ok(Sample::new(&pos, score, result).in_game(self.games)));
                    }
                    Err(message) => return self.error(at, message),
                }
            },
        }
    }
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
