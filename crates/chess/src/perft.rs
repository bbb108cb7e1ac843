//! Perft: counting the leaves of the legal move tree, the standard test of a move
//! generator. Leaves are counted in bulk (the legal-move count at depth 1).

#[cfg(target_arch = "x86_64")]
use crate::attacks::Pext;
use crate::attacks::{Built, Sliders};
use crate::{Move, MoveList, Position};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};

/// Leaf count of the tree of legal moves `depth` plies deep.
///
/// ```
/// let pos = sable_chess::Position::startpos();
/// assert_eq!(sable_chess::perft(&pos, 4), 197_281);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    let mut pos = pos.clone();
    perft_inner(&mut pos, depth)
}

/// Picks the fastest build of the recursion this CPU runs.
fn perft_inner(pos: &mut Position, depth: u32) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("popcnt") {
        if let Some(pext) = Pext::fast() {
            // SAFETY: the CPU has POPCNT (checked just above) and BMI2 (a `Pext` exists).
            return unsafe { perft_bmi2(pos, depth, pext) };
        }
        // SAFETY: the CPU has POPCNT, checked just above.
        return unsafe { perft_popcnt(pos, depth) };
    }
    perft_portable(pos, depth)
}

/// One level of the recursion, inlined into each build below so that move generation is
/// compiled with that build's target features and slider lookups.
#[inline(always)]
fn perft_step<A: Sliders>(
    pos: &mut Position,
    depth: u32,
    sliders: A,
    child: impl Fn(&mut Position, u32) -> u64,
) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_with(sliders),
        _ => {
            let mut moves = MoveList::new();
            pos.legal_moves_into_with(&mut moves, sliders);
            let mut nodes = 0;
            for &m in moves.iter() {
                let undo = pos.make_unkeyed(m);
                // The last ply is counted here rather than through `child`: most calls
                // are at this depth, and the count inlined into the loop saves a call.
                nodes += if depth == 2 {
                    pos.count_legal_with(sliders)
                } else {
                    child(pos, depth - 1)
                };
                pos.unmake_unkeyed(m, &undo);
            }
            nodes
        }
    }
}

/// Leaf counting is mostly population counts; without the POPCNT instruction (not in
/// the x86-64 baseline) they are emulated, and perft runs about 25% slower. This copy of
/// the recursion, with move generation inlined, is compiled to use it.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn perft_popcnt(pos: &mut Position, depth: u32) -> u64 {
    perft_step(pos, depth, Built, |p, d| perft_popcnt(p, d))
}

/// The copy for CPUs with a fast PEXT (see `Pext::fast`): slider attacks indexed by
/// PEXT instead of a magic multiplication.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi2")]
fn perft_bmi2(pos: &mut Position, depth: u32, pext: Pext) -> u64 {
    perft_step(pos, depth, pext, |p, d| perft_bmi2(p, d, pext))
}

fn perft_portable(pos: &mut Position, depth: u32) -> u64 {
    perft_step(pos, depth, Built, perft_portable)
}

/// Leaf counts below each legal move (Stockfish's `go perft` divide), in generation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut pos = pos.clone();
    let moves: MoveList = pos.legal_moves();
    moves
        .iter()
        .map(|&m| {
            let undo = pos.make(m);
            let n = if depth <= 1 {
                1
            } else {
                perft_inner(&mut pos, depth - 1)
            };
            pos.unmake(m, &undo);
            (m, n)
        })
        .collect()
}

/// [`divide`] that can be interrupted: `on_move` gets each root move's count as soon as
/// it is known, and the count stops, within a few milliseconds, once `stop` is set.
/// Returns whether every root move was counted.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// let pos = sable_chess::Position::startpos();
/// let mut total = 0;
/// let done = sable_chess::divide_until(&pos, 3, &AtomicBool::new(false), |_, n| total += n);
/// assert!(done);
/// assert_eq!(total, 8_902);
/// ```
pub fn divide_until(
    pos: &Position,
    depth: u32,
    stop: &AtomicBool,
    mut on_move: impl FnMut(Move, u64),
) -> bool {
    let mut pos = pos.clone();
    let moves: MoveList = pos.legal_moves();
    for &m in moves.iter() {
        let undo = pos.make(m);
        let n = if depth <= 1 {
            Some(1)
        } else {
            perft_until(&mut pos, depth - 1, stop)
        };
        pos.unmake(m, &undo);
        match n {
            Some(n) => on_move(m, n),
            None => return false,
        }
    }
    true
}

/// The recursion with a look at `stop` above the last three plies, where a subtree takes
/// at most a few milliseconds; below that the fast recursion runs unchecked.
fn perft_until(pos: &mut Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth <= 3 {
        return Some(perft_inner(pos, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let moves = pos.legal_moves();
    let mut nodes = 0;
    for &m in moves.iter() {
        let undo = pos.make(m);
        let n = perft_until(pos, depth - 1, stop);
        pos.unmake(m, &undo);
        nodes += n?;
    }
    Some(nodes)
}

/// One position of a perft suite with its expected counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftCase {
    /// A name from the file (`id`), if it gave one.
    pub id: Option<String>,
    pub fen: String,
    /// (depth, leaf count) pairs, in file order.
    pub counts: Vec<(u32, u64)>,
}

/// A line of a perft suite that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {reason}")]
pub struct SuiteError {
    pub line: usize,
    pub reason: String,
}

/// Reads a perft suite in any of the three common formats:
/// `FEN ;D1 20 ;D2 400` (Ethereal, perftsuite.epd), `EPD id x; perft 3 8902;` one depth per
/// line (marcelk's perft-random), and the `id`/`epd`/`perft` block format of python-chess
/// and scalachess. Consecutive lines for the same position are merged.
pub fn parse_suite(text: &str) -> Result<Vec<PerftCase>, SuiteError> {
    let mut cases: Vec<PerftCase> = Vec::new();
    let mut block_id: Option<String> = None;
    let mut in_block = false;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let err = |reason: &str| SuiteError {
            line: i + 1,
            reason: format!("{reason}: '{line}'"),
        };
        if line.is_empty() {
            in_block = false;
            continue;
        }
        if line.starts_with('#') {
            continue;
        }
        let (head, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        match head {
            "id" => {
                block_id = Some(rest.trim().to_string());
                continue;
            }
            "epd" | "fen" => {
                cases.push(PerftCase {
                    id: block_id.take(),
                    fen: rest.trim().to_string(),
                    counts: Vec::new(),
                });
                in_block = true;
                continue;
            }
            "perft" if in_block => {
                let pair = parse_pair(rest).ok_or_else(|| err("expected 'perft DEPTH NODES'"))?;
                cases.last_mut().expect("in a block").counts.push(pair);
                continue;
            }
            _ => {}
        }
        if let Some((fen, ops)) = line
            .split_once(';')
            .filter(|(_, ops)| ops.trim_start().starts_with('D'))
        {
            let mut counts = Vec::new();
            for op in ops.split(';').map(str::trim).filter(|o| !o.is_empty()) {
                let op = op
                    .strip_prefix('D')
                    .ok_or_else(|| err("expected ';Dn count'"))?;
                counts.push(parse_pair(op).ok_or_else(|| err("expected ';Dn count'"))?);
            }
            cases.push(PerftCase {
                id: None,
                fen: fen.trim().to_string(),
                counts,
            });
            continue;
        }
        // EPD with operations: the first four fields, then `op args;` pairs.
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() < 4 {
            return Err(err("not a perft line"));
        }
        let fen = fields[..4].join(" ");
        let ops = fields[4..].join(" ");
        let mut id = None;
        let mut counts = Vec::new();
        for op in ops.split(';').map(str::trim).filter(|o| !o.is_empty()) {
            let (name, args) = op.split_once(' ').unwrap_or((op, ""));
            match name {
                "id" => id = Some(args.trim_matches('"').to_string()),
                "perft" => counts
                    .push(parse_pair(args).ok_or_else(|| err("expected 'perft DEPTH NODES'"))?),
                d if d.starts_with('D') => counts.push(
                    parse_pair(&format!("{} {args}", &d[1..]))
                        .ok_or_else(|| err("expected 'Dn count'"))?,
                ),
                _ => {}
            }
        }
        if counts.is_empty() {
            return Err(err("no perft counts on the line"));
        }
        match cases.last_mut() {
            Some(last) if last.fen == fen && last.id == id => last.counts.extend(counts),
            _ => cases.push(PerftCase { id, fen, counts }),
        }
    }
    Ok(cases)
}

fn parse_pair(text: &str) -> Option<(u32, u64)> {
    let mut it = text.split_whitespace();
    let depth = it.next()?.parse().ok()?;
    let nodes = it.next()?.trim_end_matches(';').parse().ok()?;
    Some((depth, nodes))
}

impl fmt::Display for PerftCase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.fen)?;
        for (d, n) in &self.counts {
            write!(f, " ;D{d} {n}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every build of the recursion this CPU can run gives the same counts (the suites
    /// test `perft`, which runs only the fastest one).
    #[test]
    fn every_build_counts_alike() {
        let cases = [
            (crate::STARTPOS_FEN, 4, 197_281),
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                3,
                97_862,
            ),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4, 43_238),
            (
                "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                3,
                9_467,
            ),
            (
                "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
                3,
                62_379,
            ),
        ];
        for (fen, depth, nodes) in cases {
            let pos = Position::from_fen(fen, crate::CastlingMode::Standard).unwrap();
            assert_eq!(perft_portable(&mut pos.clone(), depth), nodes, "{fen}");
            #[cfg(target_arch = "x86_64")]
            if std::is_x86_feature_detected!("popcnt") {
                // SAFETY: the CPU has POPCNT, checked just above.
                assert_eq!(unsafe { perft_popcnt(&mut pos.clone(), depth) }, nodes);
                if std::is_x86_feature_detected!("bmi2") {
                    // Whether or not its PEXT is fast: this is about the counts.
                    let pext = Pext::detected();
                    // SAFETY: the CPU has POPCNT and BMI2, checked above.
                    assert_eq!(unsafe { perft_bmi2(&mut pos.clone(), depth, pext) }, nodes);
                }
            }
        }
    }
}
