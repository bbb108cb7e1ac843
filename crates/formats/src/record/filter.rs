//! Training positions from game records: which positions a network should learn from is
//! decided here, when the data is read, so that the records themselves stay whole.

use super::error::RecordError;
use super::game::{GameRecord, Ply};
use super::reader::RecordReader;
use sable_chess::Position;
use std::collections::VecDeque;
use std::io::Read;

/// Which positions to skip. The default skips what a static evaluation should not be
/// taught: the side to move in check, a best move that captures or promotes, a mate score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Filter {
    pub skip_in_check: bool,
    /// Best move (the move played) is a capture, en passant included, or a promotion.
    pub skip_noisy: bool,
    pub skip_mates: bool,
    /// Skip this many plies at the start of each record.
    pub skip_first_plies: usize,
    /// Skip scores further from zero than this (centipawns), if set.
    pub max_abs_cp: Option<i16>,
}

impl Default for Filter {
    fn default() -> Filter {
        Filter {
            skip_in_check: true,
            skip_noisy: true,
            skip_mates: true,
            skip_first_plies: 0,
            max_abs_cp: None,
        }
    }
}

impl Filter {
    /// Keeps everything.
    pub const ALL: Filter = Filter {
        skip_in_check: false,
        skip_noisy: false,
        skip_mates: false,
        skip_first_plies: 0,
        max_abs_cp: None,
    };

    /// Whether the position before ply number `index` (whose move and score is `ply`)
    /// is kept.
    ///
    /// ```
    /// use sable_formats::record::{Filter, Ply, Score};
    /// use sable_chess::Position;
    /// let pos = Position::startpos();
    /// let e4 = Ply { mv: pos.parse_uci("e2e4").unwrap(), score: Score::cp(25) };
    /// assert!(Filter::default().accepts(0, &pos, &e4));
    /// let mating = Ply { score: Score::mate(7), ..e4 };
    /// assert!(!Filter::default().accepts(0, &pos, &mating));
    /// assert!(Filter::ALL.accepts(0, &pos, &mating));
    /// ```
    pub fn accepts(&self, index: usize, pos: &Position, ply: &Ply) -> bool {
        if index < self.skip_first_plies {
            return false;
        }
        if self.skip_in_check && pos.in_check() {
            return false;
        }
        if self.skip_noisy && (pos.is_capture(ply.mv) || ply.mv.is_promotion()) {
            return false;
        }
        match ply.score.as_cp() {
            None => !self.skip_mates,
            Some(cp) => self.max_abs_cp.is_none_or(|m| cp.abs() <= m),
        }
    }
}

/// A position to train on.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainingPosition {
    pub pos: Position,
    /// The searched score for the side to move: centipawns, or for a mate (kept only when
    /// the filter allows) ±[`super::Score::MATE`] less the distance.
    pub score: i16,
    /// The game's result for the side to move: 1.0 won, 0.5 drawn, 0.0 lost.
    pub result: f32,
    /// Ply index in its game record.
    pub ply: usize,
}

/// The training positions of every game a [`RecordReader`] yields, filtered.
///
/// Errors are passed on: a cut-short last record ([`RecordError::is_truncation`]) ends
/// the iteration after all complete games; a game with an illegal move yields
/// [`RecordError::Illegal`] and none of its positions.
///
/// ```
/// use sable_formats::record::{Filter, GameRecord, GameResult, Ply, RecordReader, Score,
///                           Termination, TrainingPositions};
/// use sable_chess::{Color, Position};
///
/// let start = Position::startpos();
/// let mut pos = start.clone();
/// let mut plies = Vec::new();
/// for (uci, cp) in [("e2e4", 30), ("d7d5", -25), ("e4d5", 40), ("d8d5", -20)] {
///     let mv = pos.parse_uci(uci).unwrap();
///     plies.push(Ply { mv, score: Score::cp(cp) });
///     pos.make(mv);
/// }
/// let game = GameRecord { start, plies, result: GameResult::BlackWins,
///                         termination: Termination::WinAdjudicated, number: 0 };
/// let mut bytes = Vec::new();
/// game.encode(&mut bytes).unwrap();
/// let kept: Vec<_> = TrainingPositions::new(RecordReader::new(&bytes[..]), Filter::default())
///     .collect::<Result<_, _>>().unwrap();
/// // e4d5 and d8d5 capture: two positions stay.
/// assert_eq!(kept.len(), 2);
/// assert_eq!((kept[1].score, kept[1].result, kept[1].pos.turn()), (-25, 1.0, Color::Black));
/// ```
pub struct TrainingPositions<R> {
    reader: RecordReader<R>,
    filter: Filter,
    pending: VecDeque<TrainingPosition>,
}

impl<R: Read> TrainingPositions<R> {
    pub fn new(reader: RecordReader<R>, filter: Filter) -> TrainingPositions<R> {
        TrainingPositions {
            reader,
            filter,
            pending: VecDeque::new(),
        }
    }

    /// The reader, for its offsets.
    pub fn reader(&self) -> &RecordReader<R> {
        &self.reader
    }
}

/// The kept positions of one game, or why it could not be replayed.
pub fn training_positions(
    game: &GameRecord,
    filter: &Filter,
    out: &mut impl Extend<TrainingPosition>,
) -> Result<(), super::ReplayError> {
    let mut kept = Vec::new();
    game.replay(|i, pos, ply| {
        if filter.accepts(i, pos, ply) {
            kept.push(TrainingPosition {
                pos: pos.clone(),
                score: ply.score.raw(),
                result: game.result.score_for(pos.turn()),
                ply: i,
            });
        }
    })?;
    out.extend(kept);
    Ok(())
}

impl<R: Read> Iterator for TrainingPositions<R> {
    type Item = Result<TrainingPosition, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(p) = self.pending.pop_front() {
                return Some(Ok(p));
            }
            let game = match self.reader.next()? {
                Ok(g) => g,
                Err(e) => return Some(Err(e)),
            };
            if let Err(source) = training_positions(&game, &self.filter, &mut self.pending) {
                return Some(Err(RecordError::Illegal {
                    offset: self.reader.record_offset(),
                    source,
                }));
            }
        }
    }
}
