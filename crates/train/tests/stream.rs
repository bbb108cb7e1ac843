//! The streaming trainer against the in-memory one as the oracle: an epoch reads every
//! training sample once and no validation sample, in chunks no larger than a third of
//! the buffer that mix all the files; the survey holds out the same games as `split`;
//! training streamed is deterministic, resumes bit for bit, takes as many steps as in
//! memory and learns; a file changed under it is an error, not a silent difference.

use sable_train::checkpoint::Checkpoint;
use sable_train::data::{self, LoadStats, Sample};
use sable_train::stream::{self, StreamConfig, Survey};
use sable_train::{self as trainer, TrainConfig};
use std::path::{Path, PathBuf};
use std::sync::mpsc::sync_channel;

mod common;
use common::config;

/// Streaming `buffer` positions, no mirrored copies, the validation set uncapped.
fn streaming(buffer: usize) -> StreamConfig {
    StreamConfig {
        buffer,
        mirror: false,
        val_max: 10_000,
    }
}

/// Three text files of `per_file` positions each in a folder of their own.
fn files(tag: &str, per_file: usize) -> (PathBuf, Vec<PathBuf>) {
    let dir = std::env::temp_dir().join(format!("sable-stream-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let paths = (0..3)
        .map(|i| common::text_file(&dir.join(format!("{i}.txt")), per_file, 40 + i as u64))
        .collect();
    (dir, paths)
}

/// Everything in memory, split as `sable train` splits data that fits.
fn in_memory(paths: &[PathBuf], cfg: &TrainConfig, mirror: bool) -> (Vec<Sample>, Vec<Sample>) {
    let mut all = Vec::new();
    let mut stats = LoadStats::default();
    for p in paths {
        data::load(p, &mut all, &mut stats).unwrap();
    }
    let (mut train, val) = trainer::split(all, cfg.val, cfg.seed);
    if mirror {
        data::add_mirrored(&mut train);
    }
    (train, val)
}

/// A multiset of samples as a sorted list of their contents.
fn sorted(samples: &[Sample]) -> Vec<(u32, i16, u8, Vec<u16>)> {
    let mut keys: Vec<_> = samples
        .iter()
        .map(|s| (s.game, s.score, s.result, s.active().to_vec()))
        .collect();
    keys.sort();
    keys
}

fn chunks(
    survey: &Survey,
    seed: u64,
    cfg: &TrainConfig,
    stream: &StreamConfig,
) -> Vec<Vec<Sample>> {
    let (tx, rx) = sync_channel(0);
    std::thread::scope(|s| {
        s.spawn(|| stream::read_chunks(survey, seed, cfg, stream, tx));
        rx.iter().map(|c| c.unwrap()).collect()
    })
}

#[test]
fn an_epoch_reads_every_training_sample_once_in_bounded_chunks() {
    let (dir, paths) = files("epoch", 300);
    let cfg = config();
    for mirror in [false, true] {
        // Chunks of 50 (a sixteenth), runs of 6 (an eighth of a chunk).
        let stream = StreamConfig {
            buffer: 800,
            mirror,
            val_max: 10_000,
        };
        assert_eq!(stream.chunk(), 50);
        let (train, val) = in_memory(&paths, &cfg, mirror);
        let survey = stream::survey(&paths, &cfg, &stream).unwrap();
        assert_eq!((survey.samples, survey.games), (900, 900));
        assert_eq!(survey.train, train.len() as u64);
        assert_eq!(
            survey.val, val,
            "the same games held out, in the same order"
        );
        assert_eq!(survey.val_dropped, 0);
        // Under the cap every training sample is kept for calibration, in file order.
        let originals: Vec<Sample> = in_memory(&paths, &cfg, false).0;
        assert_eq!(survey.calibration, originals);
        if mirror {
            assert!(survey.mirrored > 0 && survey.train > originals.len() as u64);
        }
        // The file a sample came from, by its game's number.
        let file = |x: &Sample| {
            survey
                .sources
                .iter()
                .rposition(|s| x.game > s.games_before)
                .unwrap()
        };
        let mut orders = Vec::new();
        for seed in [1, 2] {
            let got = chunks(&survey, seed, &cfg, &stream);
            let (last, full) = got.split_last().unwrap();
            for c in full {
                // A chunk is sent once it reaches 50; a mirrored copy may make it 51.
                assert!((50..=51).contains(&c.len()), "{}", c.len());
            }
            assert!(!last.is_empty() && last.len() <= 51);
            assert_eq!(sorted(&got.concat()), sorted(&train));
            // Runs of 6 drawn from the three files: most chunks hold samples of all
            // three, where reading file after file gives almost none.
            let mixed = full
                .iter()
                .filter(|c| {
                    let mut seen = [false; 3];
                    c.iter().for_each(|x| seen[file(x)] = true);
                    seen == [true; 3]
                })
                .count();
            assert!(
                2 * mixed > full.len(),
                "{mixed} of {} chunks mixed",
                full.len()
            );
            orders.push(got.concat());
        }
        assert_ne!(orders[0], orders[1], "another seed, another order");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_validation_set_is_capped_and_the_rest_left_out() {
    let (dir, paths) = files("cap", 200);
    let cfg = config();
    let stream = StreamConfig {
        buffer: 90,
        mirror: false,
        val_max: 5,
    };
    let (train, val) = in_memory(&paths, &cfg, false);
    let survey = stream::survey(&paths, &cfg, &stream).unwrap();
    assert_eq!(survey.val, val[..5]);
    assert_eq!(survey.val_dropped, val.len() as u64 - 5);
    // Held-out positions past the cap are not trained on either.
    assert_eq!(survey.train, train.len() as u64);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn streamed_training_learns_is_deterministic_and_resumes_exactly() {
    // Enough positions that the net is not just learning them by heart (with fewer, the
    // shuffle's luck decides the held-out loss), a window of half of them.
    let (dir, paths) = files("train", 1200);
    let cfg = config();
    let stream = streaming(1800);
    let survey = stream::survey(&paths, &cfg, &stream).unwrap();
    let before = trainer::mean_loss(
        &trainer::fresh(&cfg).params,
        &survey.val,
        cfg.objective(),
        1,
    );
    let mut batches = 0;
    let whole = stream::train(&cfg, &stream, trainer::fresh(&cfg), &survey, |e| {
        if let trainer::TrainEvent::Batch { .. } = e {
            batches += 1;
        }
    })
    .unwrap();
    // It learns about as well as the same samples in memory (another shuffle).
    let after = whole.reports.last().unwrap().val_loss;
    let (train, val) = in_memory(&paths, &cfg, false);
    let memory = trainer::train(&cfg, trainer::fresh(&cfg), &train, &val, |_| {}).unwrap();
    let reference = memory.reports.last().unwrap().val_loss;
    eprintln!("validation loss {before:.5} -> {after:.5} streamed, {reference:.5} in memory");
    assert!(after < 0.7 * before, "validation loss {before} -> {after}");
    assert!(
        after < 1.1 * reference,
        "streamed {after}, in memory {reference}"
    );
    // As many steps as in memory: every batch full but each epoch's last.
    let per_epoch = survey.train.div_ceil(cfg.batch as u64);
    assert_eq!(whole.state.opt.step, per_epoch * 4);
    assert_eq!(memory.state.opt.step, per_epoch * 4);
    assert_eq!(batches, per_epoch * 4);

    let again = stream::train(&cfg, &stream, trainer::fresh(&cfg), &survey, |_| {}).unwrap();
    assert_eq!(again.state, whole.state);

    let out = dir.join("out");
    let saved = first_epoch(&cfg, &stream, &survey, &out);
    assert_eq!(saved.epochs_done, 1);
    let net = sable_engine::nnue::Network::load(&out.join("epoch-001.nnue")).unwrap();
    assert_eq!(
        net,
        saved
            .params
            .quantise_calibrated(&survey.calibration)
            .unwrap()
    );
    let rest = stream::train(&cfg, &stream, saved, &survey, |_| {}).unwrap();
    assert_eq!(rest.state, whole.state);
    let _ = std::fs::remove_dir_all(dir);
}

/// `--king-mirror` streamed, with the a-h copies: the net and checkpoint say mirrored
/// inputs, it resumes exactly, and it trains like the same samples in memory.
#[test]
fn streamed_training_with_mirrored_inputs_writes_a_mirrored_net() {
    let (dir, paths) = files("king-mirror", 400);
    let mut cfg = config();
    cfg.king_mirror = true;
    cfg.epochs = 2;
    let stream = StreamConfig {
        mirror: true,
        ..streaming(600)
    };
    let survey = stream::survey(&paths, &cfg, &stream).unwrap();
    assert!(survey.mirrored > 0);
    let whole = stream::train(&cfg, &stream, trainer::fresh(&cfg), &survey, |_| {}).unwrap();
    assert!(whole.state.params.mirrored());
    let (train, val) = in_memory(&paths, &cfg, true);
    assert_eq!(train.len() as u64, survey.train);
    let memory = trainer::train(&cfg, trainer::fresh(&cfg), &train, &val, |_| {}).unwrap();
    let (streamed, reference) = (
        whole.reports.last().unwrap().val_loss,
        memory.reports.last().unwrap().val_loss,
    );
    assert!(
        streamed < 1.1 * reference,
        "streamed {streamed}, in memory {reference}"
    );
    let out = dir.join("out");
    let saved = first_epoch(&cfg, &stream, &survey, &out);
    assert!(saved.params.mirrored());
    let net = sable_engine::nnue::Network::load(&out.join("epoch-001.nnue")).unwrap();
    assert!(net.mirrored());
    let plain = TrainConfig {
        king_mirror: false,
        ..cfg.clone()
    };
    let err = stream::train(&plain, &stream, saved.clone(), &survey, |_| {}).err();
    assert!(err.expect("refused").to_string().contains("mirrored"));
    let rest = stream::train(&cfg, &stream, saved, &survey, |_| {}).unwrap();
    assert_eq!(rest.state, whole.state);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_file_changed_under_the_trainer_is_an_error() {
    let (dir, paths) = files("changed", 150);
    let cfg = config();
    let stream = streaming(120);
    let survey = stream::survey(&paths, &cfg, &stream).unwrap();
    // Training after the file changed: the error it stops with.
    let fails = || {
        stream::train(&cfg, &stream, trainer::fresh(&cfg), &survey, |_| {})
            .err()
            .expect("trained on a changed file")
            .to_string()
    };
    let text = std::fs::read_to_string(&paths[1]).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    for changed in [format!("{text}{}\n", lines[0]), lines[1..].join("\n")] {
        std::fs::write(&paths[1], &changed).unwrap();
        let err = fails();
        assert!(err.contains("changed since training began"), "{err}");
    }
    // The same size, one sample fewer (a line made a comment): the count gives it away.
    let comment = format!("#{}", "x".repeat(lines[0].len() - 1));
    let same_size = text.replacen(lines[0], &comment, 1);
    assert_eq!(same_size.len(), text.len());
    std::fs::write(&paths[1], &same_size).unwrap();
    let err = fails();
    assert!(err.contains("fewer samples"), "{err}");
    // The same size and count, one result changed: the digest gives it away.
    let line = lines.iter().find(|l| l.ends_with("| 0.5")).unwrap();
    let other = text.replacen(line, &line.replace("| 0.5", "| 1.0"), 1);
    assert_eq!(other.len(), text.len());
    std::fs::write(&paths[1], &other).unwrap();
    let err = fails();
    assert!(err.contains("other samples"), "{err}");
    let mut damaged = text.clone().into_bytes();
    damaged[..4].copy_from_slice(b"nope");
    std::fs::write(&paths[1], damaged).unwrap();
    let err = fails();
    assert!(err.contains("1.txt:1"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}

/// One streamed epoch from fresh weights into `out` (stopping there), and the
/// checkpoint it left.
fn first_epoch(
    cfg: &TrainConfig,
    stream: &StreamConfig,
    survey: &Survey,
    out: &Path,
) -> Checkpoint {
    let mut first = cfg.clone();
    first.stop_after = Some(1);
    first.out_dir = Some(out.to_path_buf());
    stream::train(&first, stream, trainer::fresh(cfg), survey, |_| {}).unwrap();
    Checkpoint::load(&out.join("checkpoint.ckpt")).unwrap()
}
