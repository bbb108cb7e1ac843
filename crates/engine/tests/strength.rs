//! Strength levels (`sable_engine::strength`): option ranges, reproducible draws, legal
//! moves at every level that the search lets through (a searched line within the level's
//! largest loss, or another move only when all lines are within it), and lower levels
//! losing more against a deeper full-strength reference. Node and depth limits only, no
//! clock.

use sable_chess::{CastlingMode, Move, Position};
use sable_engine::strength::{SKILL_LEVEL, SKILL_SEED, UCI_ELO};
use sable_engine::{bench, Bound, Engine, SearchEvent, SearchLimits};

/// 30 varied positions: the bench's middlegames, endgames and openings.
fn positions() -> Vec<&'static str> {
    bench::POSITIONS
        .iter()
        .copied()
        .step_by(5)
        .chain(bench::POSITIONS.iter().copied().skip(2).step_by(5))
        .chain(bench::POSITIONS.iter().copied().skip(4).step_by(5))
        .collect()
}

#[derive(Clone, Copy, Debug)]
enum Setting {
    Elo(i64),
    Skill(i64),
}

fn engine(setting: Setting, seed: i64, multipv: i64) -> Engine {
    let mut e = Engine::new();
    match setting {
        Setting::Elo(elo) => {
            e.set_limit_strength(true);
            e.set_elo(elo).unwrap();
        }
        Setting::Skill(n) => e.set_skill_level(n).unwrap(),
    }
    e.set_skill_seed(seed).unwrap();
    e.set_multipv(multipv).unwrap();
    e
}

/// The move played and every exact line reported on the way as (depth, multipv, first
/// move, score). The bounds of failed aspiration windows are left out: the search shows them only
/// after 500 ms, so whether they appear depends on the machine's speed and load.
fn play(e: &mut Engine, fen: &str, limits: SearchLimits) -> (Move, Vec<(u32, u32, Move, i32)>) {
    e.new_game().unwrap();
    e.set_position(Some(fen), &[]).unwrap();
    let mut infos = Vec::new();
    let mut last_pv = None;
    let r = e
        .search(limits, |ev| {
            if let SearchEvent::Info(i) = ev {
                if let Some(&m) = i.pv.first() {
                    if i.bound == Bound::Exact {
                        infos.push((i.depth, i.multipv, m, i.score_value));
                    }
                    if i.multipv == 1 {
                        last_pv = Some(m);
                    }
                }
            }
        })
        .unwrap();
    let best = r.best.expect("a move");
    assert_eq!(
        last_pv,
        Some(best),
        "the last line reported is the move played"
    );
    (best, infos)
}

/// The first moves and scores of the lines of the last completed iteration, as its search
/// reported them (multipv 1, 2, ... in a row), before any repetition of the line played.
fn searched_lines(infos: &[(u32, u32, Move, i32)]) -> Vec<(Move, i32)> {
    let depth = infos.last().expect("lines").0;
    let at: Vec<(u32, (Move, i32))> = infos
        .iter()
        .filter(|i| i.0 == depth)
        .map(|i| (i.1, (i.2, i.3)))
        .collect();
    let count = at.iter().map(|a| a.0).max().unwrap() as usize;
    (0..at.len())
        .find(|&s| s + count <= at.len() && (0..count).all(|k| at[s + k].0 == k as u32 + 1))
        .map(|s| at[s..s + count].iter().map(|a| a.1).collect())
        .expect("a whole iteration reported")
}

/// The engine with the hand-crafted evaluation, whatever net is embedded.
fn on_hce(mut e: Engine) -> Engine {
    e.set_use_nnue(false).unwrap();
    e
}

fn nodes(n: u64) -> SearchLimits {
    SearchLimits {
        nodes: Some(n),
        ..SearchLimits::default()
    }
}

#[test]
fn options_have_their_ranges() {
    let mut e = Engine::new();
    assert_eq!(UCI_ELO, (1350, 1350, 2850));
    assert_eq!(SKILL_LEVEL, (0, 20, 20));
    assert_eq!(SKILL_SEED, (0, 0, (1 << 31) - 1));
    assert!(e.set_elo(1349).is_err());
    assert!(e.set_elo(2851).is_err());
    assert!(e.set_skill_level(-1).is_err());
    assert!(e.set_skill_level(21).is_err());
    assert!(e.set_skill_seed(-1).is_err());
    assert!(e.set_skill_seed(1 << 31).is_err());
    // Refused values change nothing.
    assert_eq!(e.options().strength, Default::default());
    assert!(e.options().strength.level().is_none());
    e.set_elo(2000).unwrap();
    e.set_skill_level(0).unwrap();
    assert_eq!(e.options().strength.level().unwrap().skill, 0.0);
    e.set_limit_strength(true);
    let skill = e.options().strength.level().unwrap().skill;
    assert_eq!(
        skill, 17.3,
        "UCI_Elo 2000 is the calibration anchor at level 17.3"
    );
}

#[test]
fn a_level_and_seed_always_play_the_same_move() {
    for fen in positions().into_iter().take(8) {
        for (setting, seed) in [(Setting::Skill(3), 12345), (Setting::Elo(1800), 0)] {
            let mut a = engine(setting, seed, 1);
            let mut b = engine(setting, seed, 1);
            let first = play(&mut a, fen, nodes(20_000)).0;
            assert_eq!(
                first,
                play(&mut b, fen, nodes(20_000)).0,
                "{fen} {setting:?}"
            );
            // The same engine again, after ucinewgame.
            assert_eq!(
                first,
                play(&mut a, fen, nodes(20_000)).0,
                "{fen} {setting:?}"
            );
        }
    }
}

#[test]
fn every_level_plays_a_legal_move_the_search_lets_through() {
    let settings = [
        Setting::Elo(1350),
        Setting::Elo(2000),
        Setting::Elo(2850),
        Setting::Skill(0),
        Setting::Skill(10),
    ];
    let mut weaker = 0;
    for setting in settings {
        // MultiPV 4 reports every line a level searches; MultiPV 1 only the move played.
        for (multipv, seed) in [(4, 0), (1, 99)] {
            let mut e = engine(setting, seed, multipv);
            for fen in positions() {
                let pos = Position::from_fen(fen, CastlingMode::Standard).unwrap();
                // A depth limit only, so that every search ends with whole iterations.
                let (best, infos) = play(&mut e, fen, SearchLimits::depth(6));
                assert!(pos.is_legal(best), "{fen} {setting:?}");
                if multipv == 4 {
                    let lines = searched_lines(&infos);
                    let top = lines.iter().map(|l| l.1).max().unwrap();
                    let margin = e.options().strength.level().unwrap().max_loss();
                    match lines.iter().find(|l| l.0 == best) {
                        Some(l) => assert!(
                            l.1 == top || i64::from(top - l.1) <= margin,
                            "{fen} {setting:?} {lines:?}: {best:?} loses more than {margin}"
                        ),
                        // A move without a line only when every line is within the margin.
                        None => assert!(
                            lines.iter().all(|l| i64::from(top - l.1) <= margin),
                            "{fen} {setting:?} {lines:?}: {best:?} outside them"
                        ),
                    }
                    if lines[0].0 != best {
                        weaker += 1;
                    }
                }
            }
        }
    }
    // Somewhere among 150 moves a level played a line other than the best.
    assert!(weaker > 0);
}

/// Centipawns for averaging: mates count as 1000.
fn cp(score: i32) -> i64 {
    i64::from(score.clamp(-1000, 1000))
}

#[test]
fn lower_levels_lose_more_against_a_deeper_search() {
    const REFERENCE_DEPTH: u32 = 9;
    // Everything on the hand-crafted evaluation, which levels 0 and 10 search with: the
    // test measures the weakening, and a reference on another evaluation (the embedded
    // net) would score the levels' moves by an opinion they never had.
    let mut reference = on_hce(Engine::new());
    let score_of = |e: &mut Engine, fen: &str, only: Option<Move>| {
        e.new_game().unwrap();
        e.set_position(Some(fen), &[]).unwrap();
        let limits = SearchLimits {
            depth: Some(REFERENCE_DEPTH),
            search_moves: only.into_iter().collect(),
            ..SearchLimits::default()
        };
        let r = e.search(limits, |_| {}).unwrap();
        (r.best.unwrap(), cp(r.score_value))
    };
    let levels = [0, 10, 20];
    let mut loss = [0i64; 3];
    for fen in positions() {
        // Every move is scored the same way, by a search of it alone, so that a move
        // equal to the reference's best loses exactly nothing.
        let (best_move, _) = score_of(&mut reference, fen, None);
        let (_, best) = score_of(&mut reference, fen, Some(best_move));
        for (i, &level) in levels.iter().enumerate() {
            let mut e = on_hce(engine(Setting::Skill(level), 4242, 1));
            // The levels' own caps apply (6 plies and 30,000 nodes at Skill 0, the
            // reference's 9 plies at Skill 10); at Skill 20 this is the reference search
            // itself.
            let (m, _) = play(&mut e, fen, SearchLimits::depth(REFERENCE_DEPTH));
            let (_, got) = score_of(&mut reference, fen, Some(m));
            loss[i] += (best - got).max(0);
        }
    }
    let n = positions().len() as i64;
    let avg: Vec<i64> = loss.iter().map(|l| l / n).collect();
    println!("average loss in cp at Skill 0, 10, 20: {avg:?}");
    assert!(loss[0] > loss[1], "{avg:?}");
    assert!(loss[1] >= loss[2], "{avg:?}");
    assert!(
        avg[2] <= 5,
        "full strength loses (next to) nothing: {avg:?}"
    );
}

/// Levels up to the fade (every `UCI_Elo` up to about 1760) search with the hand-crafted
/// evaluation, even with a network in use; levels above it (2500 selects level 19) and
/// full strength use the network (`Level::uses_net`).
#[test]
fn levels_up_to_the_fade_evaluate_with_the_hce_and_above_it_with_the_net() {
    let net = std::env::temp_dir().join(format!("sable-levels-{}.nnue", std::process::id()));
    let random = sable_engine::nnue::Network::random(32, 1, 9).unwrap();
    std::fs::write(&net, random.to_bytes()).unwrap();
    let with_net = |e: &mut Engine| {
        e.set_eval_file(net.to_str().unwrap()).unwrap();
        e.set_use_nnue(true).unwrap();
    };
    let (mut full_net, mut full_hce) = (Engine::new(), on_hce(Engine::new()));
    with_net(&mut full_net);
    // The highest `UCI_Elo` whose level is on the HCE.
    let last_on_hce = sable_engine::strength::skill_to_elo(sable_engine::strength::FADE_FROM);
    let last_on_hce = last_on_hce.floor() as i64;
    let (mut level_net, mut level_hce) = (
        engine(Setting::Elo(last_on_hce), 3, 1),
        on_hce(engine(Setting::Elo(last_on_hce), 3, 1)),
    );
    with_net(&mut level_net);
    let (mut high_net, mut high_hce) = (
        engine(Setting::Elo(2500), 3, 1),
        on_hce(engine(Setting::Elo(2500), 3, 1)),
    );
    with_net(&mut high_net);
    let (mut full_differs, mut high_differs) = (0, 0);
    for fen in positions().into_iter().take(12) {
        let a = play(&mut level_net, fen, nodes(20_000));
        let b = play(&mut level_hce, fen, nodes(20_000));
        assert_eq!(a, b, "{fen}: the level searched with the network");
        let (x, y) = (
            play(&mut full_net, fen, nodes(20_000)),
            play(&mut full_hce, fen, nodes(20_000)),
        );
        full_differs += (x != y) as usize;
        let (x, y) = (
            play(&mut high_net, fen, nodes(20_000)),
            play(&mut high_hce, fen, nodes(20_000)),
        );
        high_differs += (x != y) as usize;
    }
    assert!(full_differs > 0, "full strength never used the network");
    assert!(high_differs > 0, "the level of 2500 never used the network");
    let _ = std::fs::remove_file(&net);
}

/// A level plays a proven mate as soon as its search finds one, so it stops there: on a
/// clock it would otherwise go on to its depth cap over several lines while full
/// strength, its mate found, runs through the remaining depths in a few nodes.
#[test]
fn a_level_stops_searching_at_the_mate_it_found() {
    // Rh8 mates: the black king on a8 has a7 and b7 taken by the white king.
    let fen = "k7/8/1K6/8/8/8/8/7R w - - 0 1";
    for elo in [1350, 1500, 2000] {
        let mut e = engine(Setting::Elo(elo), 0, 1);
        let cap = e.options().strength.level().unwrap().depth();
        e.new_game().unwrap();
        e.set_position(Some(fen), &[]).unwrap();
        let mut first_mate = None;
        let r = e
            .search(nodes(10_000_000), |ev| {
                if let SearchEvent::Info(i) = ev {
                    if i.multipv == 1 && i.score_value >= sable_engine::score::MATE_BOUND {
                        first_mate.get_or_insert(i.depth);
                    }
                }
            })
            .unwrap();
        let best = r.best.expect("a move");
        let mut after = Position::from_fen(fen, CastlingMode::Standard).unwrap();
        after.make(best);
        assert!(
            after.in_check() && after.legal_moves().is_empty(),
            "UCI_Elo {elo}: {best:?} does not mate"
        );
        let first_mate = first_mate.expect("the mate reported");
        assert!(
            first_mate < cap,
            "UCI_Elo {elo}: the cap {cap} tests nothing"
        );
        assert_eq!(r.depth, first_mate, "UCI_Elo {elo}: searched past the mate");
    }
}
