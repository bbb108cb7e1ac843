//! The accumulators along the search path: one frame per ply holding both perspectives'
//! `H` sums, updated lazily. Making a move only records which pieces it adds and removes
//! (a [`Delta`]); when the search asks for an evaluation, the frames from the last
//! computed one up to the current ply are brought up to date from their parents. The
//! root is computed from scratch; a null move records an empty delta (a copy).
//!
//! The search does not wait for an evaluation: it calls [`NnueStack::compute_top`] right
//! after making each move, while the child's table bucket (prefetched just before) is
//! still on its way, so the update fills time the child's table probe would otherwise
//! spend stalled. Nodes that end without an evaluation (a table cutoff) then pay for an
//! update they did not need, and it still measured faster (`results/2026-12-08/huge-pages.md`).
//!
//! # Mirrored nets: a king crossing the d/e line or into another bucket
//!
//! With horizontally mirrored inputs ([`Network::mirrored`]) each frame also records,
//! per perspective, its [`View`]: whether its files are flipped (its king on files e-h)
//! and, with king buckets, which bucket's rows it reads. A move that takes the mover's
//! king to the other half of the board (a king step from d to e or back, O-O-O's e1-c1,
//! a Chess960 castling across) or into another king bucket changes every input of the
//! mover's perspective, so no delta can update it: that perspective is recomputed from
//! the board.
//!
//! It is done eagerly, in [`NnueStack::push_move`], because that is the one moment the
//! board of that ply is at hand without storing it: the position before the move is
//! given, and the board after it is that position less the squares the delta empties
//! plus the pieces it puts down. The search's own position is current only at the top
//! of the stack, so a frame left for later could not be refreshed once deeper moves were
//! made (and storing a board or piece list per frame costs more than it saves). At push
//! time the parent frame is first brought up to date (lazily as ever), then the frame is
//! computed at once: the other perspective by its delta as usual, the mover's from the
//! board ([`Backend::refresh`]). The frame is then marked computed, so the lazy catch-up
//! never steps across a crossing, and unmaking is the usual pop. Such moves are rare in
//! a search (king moves across the middle), so computing them eagerly (even at a node
//! that is never evaluated) costs little.
//!
//! A net without mirrored inputs has one view: its frames' views stay the default, the
//! crossing check is skipped by one test of a flag the stack keeps, and the catch-up is
//! instantiated without views (`catch_up::<false>`), so it costs nothing extra.
//!
//! Everything is allocated when the stack is created, so the search allocates nothing.

use super::{feature, Backend, Network, View, MAX_ACTIVE};
use sable_chess::{Color, Move, MoveKind, Piece, Position, Role, Square};
use std::sync::Arc;

/// The pieces a move puts down and picks up (at most two of each: castling).
#[derive(Clone, Copy, Default, Debug)]
struct Delta {
    adds: [(u8, u8); 2],
    subs: [(u8, u8); 2],
    n_adds: u8,
    n_subs: u8,
}

impl Delta {
    fn add(&mut self, p: Piece, sq: Square) {
        self.adds[self.n_adds as usize] = (p.index() as u8, sq.index() as u8);
        self.n_adds += 1;
    }

    fn sub(&mut self, p: Piece, sq: Square) {
        self.subs[self.n_subs as usize] = (p.index() as u8, sq.index() as u8);
        self.n_subs += 1;
    }

    /// Whether the move picks up the piece on `sq`.
    #[inline]
    fn empties(&self, sq: Square) -> bool {
        self.subs[..self.n_subs as usize]
            .iter()
            .any(|&(_, s)| s as usize == sq.index())
    }

    /// The changes `m` makes to `pos` (before the move is made).
    fn of_move(pos: &Position, m: Move) -> Delta {
        let mut d = Delta::default();
        let from = m.from();
        let to = m.to();
        let Some(piece) = pos.piece_at(from) else {
            return d;
        };
        let us = piece.color();
        match m.kind() {
            MoveKind::Castle => {
                let rook = Piece::new(us, Role::Rook);
                d.sub(piece, from);
                d.sub(rook, to);
                d.add(piece, m.castle_king_to());
                d.add(rook, m.castle_rook_to());
            }
            MoveKind::EnPassant => {
                let victim = Square::from_coords(to.file(), from.rank());
                d.sub(piece, from);
                d.sub(Piece::new(!us, Role::Pawn), victim);
                d.add(piece, to);
            }
            MoveKind::Promotion(role) => {
                d.sub(piece, from);
                if let Some(captured) = pos.piece_at(to) {
                    d.sub(captured, to);
                }
                d.add(Piece::new(us, role), to);
            }
            MoveKind::Normal => {
                d.sub(piece, from);
                if let Some(captured) = pos.piece_at(to) {
                    d.sub(captured, to);
                }
                d.add(piece, to);
            }
        }
        d
    }
}

/// Both perspectives' sums for one position, computed from scratch (the reference the
/// incremental updates must equal).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    /// Indexed by `Color::index()`.
    pub sums: [Vec<i16>; 2],
}

impl Accumulator {
    pub fn compute(net: &Network, pos: &Position) -> Accumulator {
        Accumulator::compute_without(net, pos, None)
    }

    /// The sums of `pos` with the piece on `skip` (if any) left off the board.
    fn compute_without(net: &Network, pos: &Position, skip: Option<Square>) -> Accumulator {
        let mut sums = [net.ft_bias.clone(), net.ft_bias.clone()];
        for (c, sum) in [Color::White, Color::Black]
            .into_iter()
            .zip(sums.iter_mut())
        {
            refresh_into(net, pos, c, skip, sum);
        }
        Accumulator { sums }
    }
}

/// `out` = the biases plus the rows of every piece of `pos` but the one on `skip` (never
/// a king, so the view is the position's).
fn refresh_into(
    net: &Network,
    pos: &Position,
    persp: Color,
    skip: Option<Square>,
    out: &mut [i16],
) {
    let view = net.view(pos, persp);
    out.copy_from_slice(&net.ft_bias);
    for sq in pos.occupied() {
        if let Some(p) = pos.piece_at(sq).filter(|_| Some(sq) != skip) {
            let r = view.row(feature(persp, p, sq, false));
            for (o, w) in out.iter_mut().zip(net.row(r)) {
                *o = o.wrapping_add(*w);
            }
        }
    }
}

impl Network {
    /// What each piece but the kings is worth to the network, as Stockfish's `eval`
    /// shows it: the output (White's view) minus the output with that piece lifted off
    /// the board and nothing else changed (the same side to move; the lighter position's
    /// own output bucket). A tool's view, from scratch: one evaluation per piece.
    pub fn piece_values(&self, pos: &Position) -> Vec<(Square, Piece, i32)> {
        let white = |without: Option<Square>| {
            let acc = Accumulator::compute_without(self, pos, without);
            let pieces = pos.occupied().count() as usize - without.is_some() as usize;
            let bucket = super::output_bucket(pieces, self.buckets());
            let us = pos.turn().index();
            let stm = self.output(Backend::detect(), &acc.sums[us], &acc.sums[1 - us], bucket);
            stm * pos.turn().sign()
        };
        let all = white(None);
        pos.occupied()
            .into_iter()
            .filter_map(|sq| pos.piece_at(sq).map(|p| (sq, p)))
            .filter(|(_, p)| p.role() != Role::King)
            .map(|(sq, p)| (sq, p, all - white(Some(sq))))
            .collect()
    }

    /// Centipawns for the side to move, computed from scratch with the fastest kernels.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let acc = Accumulator::compute(self, pos);
        let us = pos.turn().index();
        self.output(
            Backend::detect(),
            &acc.sums[us],
            &acc.sums[1 - us],
            self.bucket_of(pos),
        )
    }
}

/// One search thread's accumulator stack over one network.
pub struct NnueStack {
    net: Arc<Network>,
    backend: Backend,
    hidden: usize,
    /// The net's inputs are mirrored, so views change (see the module comment).
    mirrored: bool,
    /// `frames` x 2 perspectives x `hidden`.
    acc: Vec<i16>,
    computed: Vec<bool>,
    deltas: Vec<Delta>,
    /// Per frame, each perspective's view (by `Color::index()`); always the default for
    /// a net without mirrored inputs.
    views: Vec<[View; 2]>,
    top: usize,
}

impl NnueStack {
    /// A stack of `frames` plies over `net`, with the fastest kernels this CPU has.
    pub fn new(net: Arc<Network>, frames: usize) -> NnueStack {
        let hidden = net.hidden();
        NnueStack {
            mirrored: net.mirrored(),
            net,
            backend: Backend::detect(),
            hidden,
            acc: vec![0; frames * 2 * hidden],
            computed: vec![false; frames],
            deltas: vec![Delta::default(); frames],
            views: vec![[View::default(); 2]; frames],
            top: 0,
        }
    }

    pub fn net(&self) -> &Arc<Network> {
        &self.net
    }

    /// Forces a backend (tests compare them).
    pub fn set_backend(&mut self, backend: Backend) {
        self.backend = backend;
    }

    /// Starts over at `pos` (the root), computed from scratch.
    pub fn reset(&mut self, pos: &Position) {
        self.top = 0;
        let h = self.hidden;
        self.views[0] = [
            self.net.view(pos, Color::White),
            self.net.view(pos, Color::Black),
        ];
        let (w, b) = self.acc[..2 * h].split_at_mut(h);
        refresh_into(&self.net, pos, Color::White, None, w);
        refresh_into(&self.net, pos, Color::Black, None, b);
        self.computed[0] = true;
    }

    /// Records `m`, about to be made in `pos`.
    #[inline]
    pub fn push_move(&mut self, pos: &Position, m: Move) {
        self.top += 1;
        self.deltas[self.top] = Delta::of_move(pos, m);
        self.computed[self.top] = false;
        if self.mirrored {
            self.views[self.top] = self.views[self.top - 1];
            self.follow_king(pos, m);
        }
    }

    /// A mirrored net: if `m` changes the view of the mover's king (across the d/e line,
    /// into another bucket), records the mover's new view in the new frame and computes
    /// the frame now (module comment).
    #[inline]
    fn follow_king(&mut self, pos: &Position, m: Move) {
        let Some(king) = pos.piece_at(m.from()).filter(|p| p.role() == Role::King) else {
            return;
        };
        let to = match m.kind() {
            MoveKind::Castle => m.castle_king_to(),
            _ => m.to(),
        };
        let us = king.color();
        let view = self.net.inputs().view(to.relative(us));
        if view != self.views[self.top][us.index()] {
            self.views[self.top][us.index()] = view;
            self.compute_crossing(pos, us);
        }
    }

    /// The current frame, whose move (made next in `pos`) changed `us`'s view: `!us` from
    /// the parent as usual, `us` from the board after the move.
    #[cold]
    fn compute_crossing(&mut self, pos: &Position, us: Color) {
        let f = self.top;
        self.update_to(f - 1);
        // The other side by its delta (this marks the frame computed, which it is once
        // the mover's side below is done).
        let them = !us;
        self.catch_up::<true>(f, f, [them == Color::White, them == Color::Black]);
        let d = self.deltas[f];
        let view = self.views[f][us.index()];
        let mut features = [0usize; MAX_ACTIVE];
        let mut n = 0;
        for sq in pos.occupied() {
            if let Some(p) = pos.piece_at(sq).filter(|_| !d.empties(sq)) {
                features[n] = view.row(feature(us, p, sq, false));
                n += 1;
            }
        }
        for &(p, sq) in &d.adds[..d.n_adds as usize] {
            let (p, sq) = (
                Piece::from_index(p as usize),
                Square::from_index(sq as usize),
            );
            features[n] = view.row(feature(us, p, sq, false));
            n += 1;
        }
        let net = &*self.net;
        let rows: [&[i16]; MAX_ACTIVE] = std::array::from_fn(|i| net.row(features[i]));
        let h = self.hidden;
        let at = (2 * f + us.index()) * h;
        self.backend
            .refresh(&mut self.acc[at..at + h], &net.ft_bias, &rows[..n]);
        self.computed[f] = true;
    }

    /// Records a null move.
    #[inline]
    pub fn push_null(&mut self) {
        self.top += 1;
        self.deltas[self.top] = Delta::default();
        self.computed[self.top] = false;
        self.views[self.top] = self.views[self.top - 1];
    }

    /// Takes back the last move or null move.
    #[inline]
    pub fn pop(&mut self) {
        self.top -= 1;
    }

    /// Brings frame `target` up to date from its nearest computed ancestor.
    #[inline]
    fn update_to(&mut self, target: usize) {
        let mut k = target;
        while !self.computed[k] {
            k -= 1;
        }
        if self.mirrored {
            self.catch_up::<true>(k + 1, target, [true; 2]);
        } else {
            self.catch_up::<false>(k + 1, target, [true; 2]);
        }
    }

    /// Frames `from..=to`, each from its parent by its move's delta, for the perspectives
    /// `sides` names (by `Color::index()`), the rows read through each frame's views
    /// (`MIRRORED`: the net's inputs are mirrored, so views differ); marks them computed.
    #[inline]
    fn catch_up<const MIRRORED: bool>(&mut self, from: usize, to: usize, sides: [bool; 2]) {
        let h = self.hidden;
        for f in from..=to {
            let d = self.deltas[f];
            let (done, rest) = self.acc.split_at_mut(f * 2 * h);
            let parent = &done[(f - 1) * 2 * h..];
            for (i, c) in [Color::White, Color::Black].into_iter().enumerate() {
                if !sides[i] {
                    continue;
                }
                let view = self.views[f][i];
                // The lazy catch-up never crosses a change of view: that frame was
                // computed at push time.
                debug_assert!(!MIRRORED || view == self.views[f - 1][i]);
                let row = |&(p, sq): &(u8, u8)| {
                    let f = feature(
                        c,
                        Piece::from_index(p as usize),
                        Square::from_index(sq as usize),
                        false,
                    );
                    self.net.row(if MIRRORED { view.row(f) } else { f })
                };
                let adds = [row(&d.adds[0]), row(&d.adds[1])];
                let subs = [row(&d.subs[0]), row(&d.subs[1])];
                self.backend.update(
                    &mut rest[i * h..(i + 1) * h],
                    &parent[i * h..(i + 1) * h],
                    &adds[..d.n_adds as usize],
                    &subs[..d.n_subs as usize],
                );
            }
            self.computed[f] = true;
        }
    }

    /// Brings the current frame up to date now rather than at the next evaluation (the
    /// module comment says why the search does so).
    #[inline]
    pub fn compute_top(&mut self) {
        self.update_to(self.top);
    }

    /// The current frame's sums, White's perspective then Black's.
    pub fn sums(&mut self) -> (&[i16], &[i16]) {
        self.update_to(self.top);
        let h = self.hidden;
        let frame = &self.acc[self.top * 2 * h..(self.top + 1) * 2 * h];
        frame.split_at(h)
    }

    /// The network's evaluation of `pos` (the current frame) for the side to move.
    #[inline]
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        self.update_to(self.top);
        let h = self.hidden;
        let (w, b) = self.acc[self.top * 2 * h..(self.top + 1) * 2 * h].split_at(h);
        let (stm, nstm) = if pos.turn() == Color::White {
            (w, b)
        } else {
            (b, w)
        };
        self.net
            .output(self.backend, stm, nstm, self.net.bucket_of(pos))
    }
}
