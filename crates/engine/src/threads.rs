//! Lazy SMP: one search thread per `Threads`, all sharing the transposition table and
//! the stop flag, each with its own position, histories and root move list. The first
//! thread keeps the clock and reports; when it ends, every helper is told to stop.

use crate::context::{Reporter, SearchContext};
use crate::line::Line;
use crate::report::{SearchEvent, SearchResult};
use crate::score::{self, TB_BOUND};
use crate::search::Worker;
use sable_chess::Move;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::Duration;

/// Runs one search to the end and reports its result; returns the workers for reuse.
pub(crate) fn run(
    mut workers: Vec<Worker>,
    ctx: Arc<SearchContext>,
    report: Reporter,
) -> Vec<Worker> {
    let mut report = report;
    let mut root_moves: Vec<Move> = ctx.root.legal_moves().iter().copied().collect();
    if !ctx.limits.search_moves.is_empty() {
        let restricted: Vec<Move> = root_moves
            .iter()
            .copied()
            .filter(|m| ctx.limits.search_moves.contains(m))
            .collect();
        if restricted.is_empty() {
            report(SearchEvent::Note(
                "searchmoves names no legal move; searching all moves".to_string(),
            ));
        } else {
            root_moves = restricted;
        }
    }

    // In the tables at the root: search only the moves that keep the result.
    if let (Some(tb), false) = (ctx.tb.as_ref(), root_moves.is_empty()) {
        if ctx.root.occupied().count() as usize <= ctx.tb_cardinality {
            if let Some(ranked) = tb.rank_root(&ctx.root, &root_moves, ctx.tb_settings.rule50) {
                ctx.tbhits.fetch_add(ranked.probes, Relaxed);
                root_moves = ranked.moves.clone();
                let _ = ctx.root_tb.set(ranked);
            }
        }
    }

    if root_moves.is_empty() {
        let value = if ctx.root.in_check() {
            score::mated_in(0)
        } else {
            score::DRAW
        };
        report(SearchEvent::Info(crate::report::SearchInfo {
            depth: 0,
            seldepth: 0,
            multipv: 1,
            score_value: value,
            score: score::report(value),
            bound: crate::report::Bound::Exact,
            wdl: score::wdl(value),
            nodes: 0,
            nps: 0,
            tbhits: 0,
            hashfull: ctx.tt.hashfull(),
            time: ctx.elapsed(),
            pv: vec![],
        }));
        wait_for_release(&ctx);
        ctx.control.finished.store(true, Relaxed);
        report(SearchEvent::Finished(SearchResult {
            best: None,
            ponder: None,
            score_value: value,
            score: score::report(value),
            depth: 0,
            nodes: 0,
            time: ctx.elapsed(),
            pv: vec![],
        }));
        return workers;
    }

    for w in workers.iter_mut() {
        w.prepare(ctx.clone(), &root_moves);
    }
    // Helpers the system refuses to start (a thread limit) are left out: the search goes
    // on with those that did start, and says so.
    let mut started = 0;
    {
        let (main, helpers) = workers.split_first_mut().expect("at least one worker");
        std::thread::scope(|s| {
            for h in helpers.iter_mut() {
                let spawned = std::thread::Builder::new()
                    .name(format!("sable-helper-{}", h.id))
                    .stack_size(crate::search::STACK_SIZE)
                    .spawn_scoped(s, move || h.iterate());
                if spawned.is_err() {
                    break;
                }
                started += 1;
            }
            main.reporter = Some(report);
            main.iterate();
            // In infinite and ponder mode the result waits for `stop` or `ponderhit`;
            // the helpers go on filling the table meanwhile.
            wait_for_release(&ctx);
            ctx.control.stop.store(true, Relaxed);
        });
    }
    let mut report = workers[0].reporter.take().expect("reporter returned");
    if started + 1 < workers.len() {
        report(SearchEvent::Note(format!(
            "only {} of {} search threads could be started; searched with those",
            started + 1,
            workers.len()
        )));
    }

    let results: Vec<Vec<Line>> = workers[..=started]
        .iter()
        .map(Worker::result_lines)
        .collect();
    let best = if ctx.multipv > 1 {
        // With MultiPV the first thread's lines are the ones shown and played.
        0
    } else {
        vote(&results)
    };
    let mut lines = results[best].clone();
    // A limited strength draws the line to play among those searched (`strength`); it
    // is then reported first, with its own score.
    let mut chosen = 0;
    if let Some(level) = ctx.level.filter(|_| !lines.is_empty()) {
        let mv = level.choose(&ctx.root, ctx.last_move, &lines, &ctx.limits.search_moves);
        let line = match lines.iter().position(|l| l.mv == mv) {
            Some(i) => {
                chosen = i;
                lines.remove(i)
            }
            // A move the search did not keep a line for: its score is at most the
            // worst line's.
            None => {
                chosen = usize::MAX;
                let worst = lines.last().expect("a limited search has lines");
                crate::line::Line {
                    mv,
                    score: worst.score,
                    bound: crate::report::Bound::Upper,
                    depth: worst.depth,
                    seldepth: worst.seldepth,
                    pv: vec![mv],
                }
            }
        };
        lines.insert(0, line);
        lines.truncate(ctx.report_multipv);
    }
    // The last lines before `bestmove` describe what is played, from the search that
    // chose it: repeated when they were not the last ones reported (another thread's
    // result, an iteration cut short by the clock, a limit or `stop`, or a line other
    // than the best chosen by a limited strength).
    if best != 0 || chosen != 0 || workers[0].was_stopped() {
        for (i, line) in lines.iter().enumerate() {
            let info = workers[0].info_for(line, i + 1, &ctx);
            report(SearchEvent::Info(info));
        }
    }
    let line = &lines[0];
    let best_move = line.mv;
    let ponder = line.pv.get(1).copied().or_else(|| {
        let mut pos = ctx.root.clone();
        pos.make(best_move);
        ctx.tt
            .probe(pos.key(), 1)
            .map(|h| h.mv)
            .filter(|&m| pos.is_legal(m))
    });
    let (shown, _) = ctx.reported(line.score, line.bound);
    if let Some(note) = ctx.tb.as_ref().and_then(|tb| tb.new_failures()) {
        report(SearchEvent::Note(note));
    }
    let result = SearchResult {
        best: Some(best_move),
        ponder,
        score_value: shown,
        score: score::report(shown),
        depth: line.depth.max(0) as u32,
        nodes: ctx.total_nodes(),
        time: ctx.elapsed(),
        pv: line.pv.clone(),
    };
    ctx.control.finished.store(true, Relaxed);
    report(SearchEvent::Finished(result));
    workers
}

/// Blocks while the search must not report yet: infinite mode or pondering, until
/// `stop` (or `ponderhit`, which ends pondering).
fn wait_for_release(ctx: &SearchContext) {
    while !ctx.control.stop.load(Relaxed)
        && (ctx.limits.infinite || ctx.control.pondering.load(Relaxed))
    {
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// The thread whose result to play, by a vote: each thread's move gets a weight that
/// grows with the depth and the score its thread found for it, and the move with the most
/// weight wins, played with the line of the thread that voted most for it. Proven mates
/// (and escapes from them) are decided by score alone: the shortest mate, or the longest
/// defence, is played.
fn vote(results: &[Vec<Line>]) -> usize {
    let min_score = results.iter().map(|r| r[0].score).min().unwrap_or(0);
    let weight = |l: &Line| (l.score - min_score + 14) as i64 * l.depth.max(0) as i64;
    let votes = |mv: Move| -> i64 {
        results
            .iter()
            .filter(|r| r[0].mv == mv)
            .map(|r| weight(&r[0]))
            .sum()
    };
    let mut best = 0;
    for (i, r) in results.iter().enumerate().skip(1) {
        let (b, l) = (&results[best][0], &r[0]);
        if l.depth == 0 {
            continue;
        }
        let better = if b.score.abs() >= TB_BOUND {
            l.score > b.score
        } else if l.score >= TB_BOUND {
            true
        } else if l.score <= -TB_BOUND {
            false
        } else {
            let (vl, vb) = (votes(l.mv), votes(b.mv));
            vl > vb || (vl == vb && l.mv == b.mv && weight(l) > weight(b))
        };
        if better {
            best = i;
        }
    }
    best
}
