//! The staged move picker: moves come out in the order most likely to cut off, and each
//! stage generates only when reached, so a cutoff by the table move costs no generation.
//!
//! Main search: table move, good captures and promotions (MVV-LVA plus capture history,
//! filtered by SEE), the two killers, quiets by history and continuation history, and
//! finally the captures that lose material. In check: table move, then all evasions.
//! Quiescence: table move if noisy, then captures and queen promotions (evasions in check).

use crate::history::{piece_to, Histories, PieceTo};
use crate::see::{see_ge, value};
use crate::tunables as tp;
use sable_chess::{GenType, Move, MoveList, Position, Role, SquareSet, MAX_MOVES};
use std::mem::MaybeUninit;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    TableMove,
    GenerateNoisy,
    GoodNoisy,
    Killer1,
    Killer2,
    GenerateQuiet,
    Quiet,
    BadNoisy,
    EvasionTable,
    GenerateEvasions,
    Evasions,
    QTable,
    QGenerate,
    QNoisy,
    Done,
}

/// The continuation-history context of a node: the (piece, square) of the moves one and
/// two plies earlier, when there were such moves.
#[derive(Clone, Copy, Debug, Default)]
pub struct Continuations {
    pub one: Option<PieceTo>,
    pub two: Option<PieceTo>,
}

pub struct MovePicker {
    stage: Stage,
    tt_move: Move,
    killers: [Move; 2],
    moves: MoveList,
    scores: Scores,
    index: usize,
    bad: MoveList,
    bad_index: usize,
    skip_quiets: bool,
}

/// The ordering values of a stage's moves, one per move in the same order, written as
/// the moves are scored: like `MoveList`, never zeroed, since a picker is made at every
/// node and clearing 1 KB there was about 1 % of data generation's time (1.79 M positions
/// an hour against 1.77 M, three paired runs).
struct Scores {
    values: [MaybeUninit<i32>; MAX_MOVES],
    len: usize,
}

impl Scores {
    #[inline]
    fn new() -> Scores {
        // As `MoveList::new`: only `len` written, so that LLVM cannot merge it with the
        // lists' `len`s into one memset over the arrays.
        let mut scores = MaybeUninit::<Scores>::uninit();
        // SAFETY: `len` is written through a raw pointer to the field, and `values`, the
        // only other field, is an array of `MaybeUninit`, which needs no initialisation.
        unsafe {
            (&raw mut (*scores.as_mut_ptr()).len).write(0);
            scores.assume_init()
        }
    }

    #[inline]
    fn clear(&mut self) {
        self.len = 0;
    }

    #[inline]
    fn push(&mut self, v: i32) {
        self.values[self.len] = MaybeUninit::new(v);
        self.len += 1;
    }

    #[inline]
    fn as_slice(&self) -> &[i32] {
        // SAFETY: as in `as_mut_slice`.
        unsafe { std::slice::from_raw_parts(self.values.as_ptr().cast::<i32>(), self.len) }
    }

    #[inline]
    fn as_mut_slice(&mut self) -> &mut [i32] {
        // SAFETY: the first `len` values were written by `push`, and `MaybeUninit<i32>`
        // has the layout of `i32`.
        unsafe { std::slice::from_raw_parts_mut(self.values.as_mut_ptr().cast::<i32>(), self.len) }
    }
}

/// Ordering value of a capture or promotion: victim first, then the capture history.
#[inline]
fn noisy_score(pos: &Position, hist: &Histories, m: Move) -> i32 {
    let victim = pos.captured_role(m);
    let mut s = victim.map_or(0, |r| 8 * value(r));
    if let Some(promo) = m.promotion_role() {
        s += if promo == Role::Queen {
            8 * value(Role::Queen)
        } else {
            -20_000
        };
    }
    if let Some(v) = victim {
        s += hist.capture(piece_to(pos, m), v) / tp::mp_capt_hist_div();
    }
    s
}

/// Ordering value of a quiet move: its histories, and a bonus for a direct check, since
/// quiet checks (often mating) would otherwise come late and fall to pruning.
#[inline]
fn quiet_score(
    pos: &Position,
    hist: &Histories,
    cont: &Continuations,
    checks: &[SquareSet; 6],
    m: Move,
) -> i32 {
    let pt = piece_to(pos, m);
    let role = pos.role_at(m.from()).unwrap_or(Role::King);
    let check = if !m.is_castle() && checks[role.index()].contains(m.to()) {
        tp::mp_quiet_check()
    } else {
        0
    };
    hist.quiet(pos.turn(), m)
        + hist.continuation(cont.one, pt)
        + hist.continuation(cont.two, pt)
        + check
}

impl MovePicker {
    /// For the main search. `tt_move` and `killers` may be anything; they are checked.
    pub fn new(pos: &Position, tt_move: Move, killers: [Move; 2]) -> MovePicker {
        let in_check = pos.in_check();
        let tt_move = if pos.is_legal(tt_move) {
            tt_move
        } else {
            Move::NULL
        };
        MovePicker {
            stage: if in_check {
                Stage::EvasionTable
            } else {
                Stage::TableMove
            },
            tt_move,
            killers,
            moves: MoveList::new(),
            scores: Scores::new(),
            index: 0,
            bad: MoveList::new(),
            bad_index: 0,
            skip_quiets: false,
        }
    }

    /// For quiescence search: noisy moves, or all evasions in check.
    pub fn new_quiescence(pos: &Position, tt_move: Move) -> MovePicker {
        let mut p = MovePicker::new(pos, tt_move, [Move::NULL; 2]);
        if !pos.in_check() {
            p.stage = Stage::QTable;
            if !p.tt_move.is_null() && !is_noisy(pos, p.tt_move) {
                p.tt_move = Move::NULL;
            }
        }
        p
    }

    /// Stops returning quiet moves (late move pruning); bad captures still come.
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    /// Scores every move of the stage just generated, in order, and starts picking.
    #[inline]
    fn score_moves(&mut self, mut score: impl FnMut(Move) -> i32) {
        self.scores.clear();
        for &m in self.moves.iter() {
            self.scores.push(score(m));
        }
        self.index = 0;
    }

    /// Takes out the best-scored remaining move of `moves` (selection sort step).
    #[inline]
    fn select_best(&mut self) -> Option<Move> {
        let moves = self.moves.as_mut_slice();
        let scores = self.scores.as_mut_slice();
        debug_assert_eq!(moves.len(), scores.len());
        let n = moves.len().min(scores.len());
        if self.index >= n {
            return None;
        }
        // The first of the highest, its value kept at hand (no bounds checks, and both
        // updates compile to conditional moves).
        let (mut best, mut best_score) = (self.index, scores[self.index]);
        for (i, &s) in scores[..n].iter().enumerate().skip(self.index + 1) {
            if s > best_score {
                (best, best_score) = (i, s);
            }
        }
        moves.swap(self.index, best);
        scores.swap(self.index, best);
        self.index += 1;
        Some(moves[self.index - 1])
    }

    /// The next move, or `None` when all have been returned. Every move returned is legal.
    pub fn next(&mut self, pos: &Position, hist: &Histories, cont: &Continuations) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TableMove => {
                    self.stage = Stage::GenerateNoisy;
                    if !self.tt_move.is_null() {
                        return Some(self.tt_move);
                    }
                }
                Stage::GenerateNoisy => {
                    self.moves.clear();
                    pos.generate_into(GenType::Noisy, &mut self.moves);
                    self.score_moves(|m| noisy_score(pos, hist, m));
                    self.stage = Stage::GoodNoisy;
                }
                Stage::GoodNoisy => match self.select_best() {
                    Some(m) if m == self.tt_move => {}
                    Some(m) => {
                        let score = self.scores.as_slice()[self.index - 1];
                        if score > -10_000 && see_ge(pos, m, -score / tp::mp_good_see_div()) {
                            return Some(m);
                        }
                        self.bad.push(m);
                    }
                    None => self.stage = Stage::Killer1,
                },
                Stage::Killer1 | Stage::Killer2 => {
                    let k = self.killers[(self.stage == Stage::Killer2) as usize];
                    self.stage = if self.stage == Stage::Killer1 {
                        Stage::Killer2
                    } else {
                        Stage::GenerateQuiet
                    };
                    if !self.skip_quiets
                        && !k.is_null()
                        && k != self.tt_move
                        && pos.is_legal(k)
                        && !is_noisy(pos, k)
                    {
                        return Some(k);
                    }
                }
                Stage::GenerateQuiet => {
                    self.moves.clear();
                    if self.skip_quiets {
                        // No quiet moves: this only empties the values.
                        self.score_moves(|_| 0);
                    } else {
                        pos.generate_into(GenType::Quiet, &mut self.moves);
                        let checks = pos.check_squares();
                        self.score_moves(|m| quiet_score(pos, hist, cont, &checks, m));
                    }
                    self.stage = Stage::Quiet;
                }
                Stage::Quiet => {
                    if self.skip_quiets {
                        self.stage = Stage::BadNoisy;
                        continue;
                    }
                    match self.select_best() {
                        Some(m) if m == self.tt_move || self.killers.contains(&m) => {}
                        Some(m) => return Some(m),
                        None => self.stage = Stage::BadNoisy,
                    }
                }
                Stage::BadNoisy => {
                    if self.bad_index < self.bad.len() {
                        self.bad_index += 1;
                        return Some(self.bad[self.bad_index - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::EvasionTable => {
                    self.stage = Stage::GenerateEvasions;
                    if !self.tt_move.is_null() {
                        return Some(self.tt_move);
                    }
                }
                Stage::GenerateEvasions => {
                    self.moves.clear();
                    pos.generate_into(GenType::All, &mut self.moves);
                    let checks = pos.check_squares();
                    self.score_moves(|m| {
                        if is_noisy(pos, m) {
                            1_000_000 + noisy_score(pos, hist, m)
                        } else {
                            quiet_score(pos, hist, cont, &checks, m)
                        }
                    });
                    self.stage = Stage::Evasions;
                }
                Stage::Evasions => match self.select_best() {
                    Some(m) if m == self.tt_move => {}
                    Some(m) => return Some(m),
                    None => self.stage = Stage::Done,
                },
                Stage::QTable => {
                    self.stage = Stage::QGenerate;
                    if !self.tt_move.is_null() {
                        return Some(self.tt_move);
                    }
                }
                Stage::QGenerate => {
                    self.moves.clear();
                    pos.generate_into(GenType::Noisy, &mut self.moves);
                    // Underpromotions are not worth a quiescence node.
                    self.moves
                        .retain(|m| m.promotion_role().is_none_or(|r| r == Role::Queen));
                    self.score_moves(|m| noisy_score(pos, hist, m));
                    self.stage = Stage::QNoisy;
                }
                Stage::QNoisy => match self.select_best() {
                    Some(m) if m == self.tt_move => {}
                    Some(m) => return Some(m),
                    None => self.stage = Stage::Done,
                },
                Stage::Done => return None,
            }
        }
    }
}

/// Captures (en passant included) and promotions.
#[inline]
pub fn is_noisy(pos: &Position, m: Move) -> bool {
    m.is_promotion() || pos.is_capture(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sable_chess::CastlingMode;

    fn drain(pos: &Position, mut p: MovePicker) -> Vec<Move> {
        let hist = Histories::new();
        let cont = Continuations::default();
        let mut out = vec![];
        while let Some(m) = p.next(pos, &hist, &cont) {
            out.push(m);
        }
        out
    }

    const FENS: [&str; 5] = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    ];

    #[test]
    fn yields_every_legal_move_exactly_once() {
        for fen in FENS {
            let pos = Position::from_fen(fen, CastlingMode::Standard).unwrap();
            let legal = pos.legal_moves();
            // Try with a legal table move, an illegal one and killers of both kinds.
            let tts = [legal[legal.len() / 2], Move::from_bits(0x0fff), Move::NULL];
            for tt in tts {
                let killers = [legal[0], Move::from_bits(0x1234)];
                let mut got = drain(&pos, MovePicker::new(&pos, tt, killers));
                got.sort_by_key(|m| m.bits());
                let mut want: Vec<Move> = legal.iter().copied().collect();
                want.sort_by_key(|m| m.bits());
                assert_eq!(got, want, "{fen}");
                if pos.is_legal(tt) {
                    assert_eq!(drain(&pos, MovePicker::new(&pos, tt, killers))[0], tt);
                }
            }
        }
    }

    #[test]
    fn quiescence_yields_noisy_moves_or_evasions() {
        for fen in FENS {
            let pos = Position::from_fen(fen, CastlingMode::Standard).unwrap();
            let got = drain(&pos, MovePicker::new_quiescence(&pos, Move::NULL));
            let want: Vec<Move> = if pos.in_check() {
                pos.legal_moves().iter().copied().collect()
            } else {
                pos.noisy_moves()
                    .iter()
                    .copied()
                    .filter(|m| m.promotion_role().is_none_or(|r| r == Role::Queen))
                    .collect()
            };
            assert_eq!(got.len(), want.len(), "{fen}");
            assert!(got.iter().all(|m| want.contains(m)));
        }
    }
}
