//! The NNUE trainer: it learns (validation loss falls on positions labelled by the
//! hand-crafted evaluation), resumes bit for bit, is deterministic for a seed and thread
//! count, its sparse gradient equals the dense reference's, it reads game records through
//! the training filter and the text format, and its quantised export stays close to the
//! float net.

use sable_chess::{Color, Position};
use sable_engine::nnue::rng::Rng;
use sable_engine::nnue::{Inputs, Network, QB};
use sable_formats::record::{GameRecord, GameResult, Ply, Score, Termination};
use sable_train::checkpoint::Checkpoint;
use sable_train::data::{self, LoadStats, Sample};
use sable_train::model::{fit_scale, Objective, Params, Scratch};
use sable_train::{self as trainer, dense, TrainConfig};

mod common;
use common::{config, fixture, samples};

#[test]
fn training_lowers_the_validation_loss() {
    let cfg = config();
    let (train, val) = trainer::split(samples(4000, 1), cfg.val, cfg.seed);
    let start = trainer::fresh(&cfg);
    let before = trainer::mean_loss(&start.params, &val, cfg.objective(), 1);
    let mut epochs = Vec::new();
    let done = trainer::train(&cfg, start, &train, &val, |e| {
        if let trainer::TrainEvent::Epoch(r) = e {
            epochs.push(r.val_loss);
        }
    })
    .unwrap();
    let after = done.reports.last().unwrap().val_loss;
    eprintln!("validation loss {before:.5} -> {epochs:?}");
    assert_eq!(epochs.len(), 4);
    assert!(after < 0.6 * before, "validation loss {before} -> {after}");
    // The quantised export evaluates like the float net it came from, up to rounding:
    // mostly the output weights' (steps of 1/QB = 1/64, each off by up to 1/128, times
    // an activation up to 1, times 400 cp, over 2H = 32 of them: about 3 cp each at the
    // worst, and they partly cancel). On these lopsided random positions it stays under 40.
    let net = done.state.params.quantise().unwrap();
    let mut worst = 0.0f32;
    for (pos, _, _) in fixture(300, 77) {
        let f = done.state.params.evaluate(&pos);
        worst = worst.max((f - net.evaluate(&pos) as f32).abs());
    }
    eprintln!("largest float vs quantised difference: {worst:.2} cp");
    assert!(worst < 40.0, "{worst}");

    // Calibrating the output bias on the training samples removes the net's constant
    // offset: on other positions (the engine's own evaluation, AVX2 where present) the
    // mean gap to the float net is near zero, and not worse than the plain rounding's.
    let fix = fixture(400, 78);
    let mean_gap = |float: &Params, net: &Network| {
        fix.iter()
            .map(|(pos, _, _)| net.evaluate(pos) as f64 - float.evaluate(pos) as f64)
            .sum::<f64>()
            / fix.len() as f64
    };
    let params = &done.state.params;
    let calibrated = params.quantise_calibrated(&train).unwrap();
    let (plain, fixed) = (mean_gap(params, &net), mean_gap(params, &calibrated));
    eprintln!("mean int - float: {plain:.2} cp plain, {fixed:.2} cp calibrated");
    assert!(
        fixed.abs() < 1.5 && fixed.abs() <= plain.abs() + 0.25,
        "{plain} -> {fixed}"
    );
    // The same with a known offset: every output weight set 0.4/QB below a step, so that
    // plain rounding lifts them all and the integer net reads high everywhere.
    let mut skewed = params.clone();
    let ow = skewed.out_w_at();
    for w in &mut skewed.w[ow..ow + 2 * skewed.hidden] {
        *w = ((*w * QB as f32).round() - 0.4) / QB as f32;
    }
    let plain = mean_gap(&skewed, &skewed.quantise().unwrap());
    let fixed = mean_gap(&skewed, &skewed.quantise_calibrated(&train).unwrap());
    eprintln!("skewed: mean int - float {plain:.2} cp plain, {fixed:.2} cp calibrated");
    assert!(plain > 2.0, "the skew left no offset: {plain}");
    assert!(fixed.abs() < 1.0, "{plain} -> {fixed}");
}

#[test]
fn resuming_from_a_checkpoint_continues_exactly() {
    resume_continues_exactly(1);
}

#[test]
fn resuming_a_net_with_output_buckets_continues_exactly() {
    resume_continues_exactly(8);
}

/// A net with mirrored inputs: its checkpoint (version 2) says so, each epoch's net is
/// format version 3, and a resume must ask for mirrored inputs too.
#[test]
fn resuming_a_king_mirrored_net_continues_exactly() {
    resume_continues_exactly(17);
    resume_continues_exactly(24);
}

/// `code` is the bucket count, or above 16 the bucket count plus 16 with mirrored
/// inputs (each call its own folder: the tests run at once).
fn resume_continues_exactly(code: usize) {
    let (buckets, mirrored) = if code > 16 {
        (code - 16, true)
    } else {
        (code, false)
    };
    let dir = std::env::temp_dir().join(format!("sable-train-test-{}-{code}", std::process::id()));
    let mut cfg = config();
    cfg.epochs = 2;
    cfg.buckets = buckets;
    cfg.king_mirror = mirrored;
    let (train, val) = trainer::split(samples(1500, 2), cfg.val, cfg.seed);
    let whole = trainer::train(&cfg, trainer::fresh(&cfg), &train, &val, |_| {}).unwrap();

    let mut first = cfg.clone();
    first.stop_after = Some(1);
    first.out_dir = Some(dir.clone());
    let half = trainer::train(&first, trainer::fresh(&cfg), &train, &val, |_| {}).unwrap();
    assert_eq!(half.reports.len(), 1);
    let saved = Checkpoint::load(&dir.join("checkpoint.ckpt")).unwrap();
    assert_eq!(saved, half.state);
    assert_eq!(saved.params.buckets, buckets);
    assert_eq!(saved.params.mirrored(), mirrored);
    let ckpt = std::fs::read(dir.join("checkpoint.ckpt")).unwrap();
    assert_eq!(ckpt[4], if mirrored { 2 } else { 1 });
    // Each epoch's quantised net is a loadable engine net.
    let net = Network::load(&dir.join("epoch-001.nnue")).unwrap();
    assert_eq!(net, half.state.params.quantise_calibrated(&train).unwrap());
    assert_eq!(net.buckets(), buckets);
    assert_eq!(net.mirrored(), mirrored);
    let file = std::fs::read(dir.join("epoch-001.nnue")).unwrap();
    assert_eq!(file[4] == 3, mirrored);
    // Resumed with the other inputs: refused, by name.
    let mut flipped = cfg.clone();
    flipped.king_mirror = !mirrored;
    let err = trainer::train(&flipped, saved.clone(), &train, &val, |_| {}).err();
    assert!(err.expect("refused").to_string().contains("--king-mirror"));
    // A checkpoint resumed under another bucket count is refused, not reshaped.
    let mut other = cfg.clone();
    other.buckets = 9 - buckets;
    let err = trainer::train(&other, saved.clone(), &train, &val, |_| {}).err();
    assert!(err.expect("refused").to_string().contains("bucket"));
    let rest = trainer::train(&cfg, saved, &train, &val, |_| {}).unwrap();
    assert_eq!(rest.reports.len(), 1);
    let bits = |p: &Params| p.w.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&rest.state.params), bits(&whole.state.params));
    assert_eq!(rest.state, whole.state);
    // A damaged checkpoint is refused.
    let mut bytes = std::fs::read(dir.join("checkpoint.ckpt")).unwrap();
    bytes[100] ^= 1;
    assert!(Checkpoint::from_bytes(&bytes)
        .unwrap_err()
        .contains("checksum"));
    let mut bytes = std::fs::read(dir.join("checkpoint.ckpt")).unwrap();
    bytes[4] = 4;
    assert!(Checkpoint::from_bytes(&bytes)
        .unwrap_err()
        .contains("version 4"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_seed_and_thread_count_give_the_same_weights() {
    let mut cfg = config();
    cfg.epochs = 1;
    let (train, val) = trainer::split(samples(1000, 4), cfg.val, cfg.seed);
    let a = trainer::train(&cfg, trainer::fresh(&cfg), &train, &val, |_| {}).unwrap();
    let b = trainer::train(&cfg, trainer::fresh(&cfg), &train, &val, |_| {}).unwrap();
    assert_eq!(a.state, b.state);
}

/// A net with king buckets (a preset of [`Inputs::preset`]), its factoriser's rows (if
/// any) drawn too, so that gradient checks see them at work.
fn bucketed(king_buckets: usize, factoriser: bool, buckets: usize, seed: u64) -> Params {
    let inputs = Inputs::preset(king_buckets).unwrap();
    let mut rng = Rng(seed);
    let mut p = Params::random_with_inputs(inputs, factoriser, 16, buckets, &mut rng);
    let fa = p.factor_at();
    for w in &mut p.w[fa..] {
        *w = 0.05 * rng.symmetric();
    }
    p
}

#[test]
fn sparse_gradient_equals_the_dense_reference() {
    for (buckets, mirrored) in [(1, false), (4, false), (1, true), (4, true)] {
        sparse_equals_dense(
            Params::random_with(16, buckets, &mut Rng(5)).with_mirrored_inputs(mirrored),
        );
    }
    for (king_buckets, factoriser) in [(4, true), (10, false), (2, true)] {
        sparse_equals_dense(bucketed(king_buckets, factoriser, 4, 5));
    }
}

/// The trainer's passes compiled for AVX2 (where the CPU has it) and for the baseline
/// give the same loss and gradient, bit for bit, so that a net's weights do not depend on
/// the machine it was trained on.
#[test]
fn the_avx2_and_baseline_passes_give_the_same_bits() {
    let obj = Objective {
        wdl: 0.3,
        scale: 300.0,
    };
    for params in [
        Params::random_with(64, 8, &mut Rng(3)).with_mirrored_inputs(true),
        bucketed(4, true, 8, 4),
    ] {
        let n = params.w.len();
        let mut scratch = Scratch::new(params.hidden);
        for s in samples(200, 8) {
            let (mut g1, mut g2) = (vec![0.0; n], vec![0.0; n]);
            let l1 = params.backward(&s, obj, &mut g1, &mut scratch);
            let l2 = params.backward_baseline(&s, obj, &mut g2, &mut scratch);
            assert_eq!(l1.to_bits(), l2.to_bits());
            assert!(g1.iter().zip(&g2).all(|(a, b)| a.to_bits() == b.to_bits()));
        }
    }
}

fn sparse_equals_dense(mut params: Params) {
    // Biases that put some units inside the clamp, some outside.
    let b = params.ft_b_at();
    for (i, w) in params.w[b..b + 16].iter_mut().enumerate() {
        *w = i as f32 / 16.0 - 0.2;
    }
    let n = params.w.len();
    let mut scratch = Scratch::new(16);
    for s in samples(50, 6) {
        let (mut g1, mut g2) = (vec![0.0; n], vec![0.0; n]);
        let obj = Objective {
            wdl: 0.3,
            scale: 400.0,
        };
        let l1 = params.backward(&s, obj, &mut g1, &mut scratch);
        let l2 = dense::backward_dense(&params, &s, obj, &mut g2);
        assert!((l1 - l2).abs() < 1e-6);
        for (a, b) in g1.iter().zip(&g2) {
            assert!((a - b).abs() <= 1e-6 + 1e-4 * b.abs(), "{a} vs {b}");
        }
    }
}

/// The analytic gradient against central differences of the loss itself, with a score
/// scale other than the output unit (so the sigmoid's slope enters the chain rule).
#[test]
fn gradient_matches_finite_differences_of_the_loss() {
    for (buckets, mirrored) in [(1, false), (4, false), (4, true)] {
        gradient_matches_finite_differences(
            Params::random_with(16, buckets, &mut Rng(9)).with_mirrored_inputs(mirrored),
        );
    }
    gradient_matches_finite_differences(bucketed(4, true, 4, 9));
    gradient_matches_finite_differences(bucketed(10, false, 1, 9));
}

fn gradient_matches_finite_differences(mut params: Params) {
    let b = params.ft_b_at();
    for (i, w) in params.w[b..b + 16].iter_mut().enumerate() {
        *w = i as f32 / 20.0 + 0.05;
    }
    let obj = Objective {
        wdl: 0.4,
        scale: 130.0,
    };
    let n = params.w.len();
    let mut scratch = Scratch::new(16);
    let mut checked = 0;
    for s in samples(20, 11) {
        let mut grad = vec![0.0; n];
        params.backward(&s, obj, &mut grad, &mut scratch);
        // The side to move's row of its first feature (flipped and in the king bucket
        // as that side reads it), and the other side's shared (factoriser) row of its
        // first feature.
        let f = s.rows(0, &params.inputs).next().unwrap();
        let shared = s
            .view(1, &params.inputs)
            .shared_row(s.features(1).next().unwrap());
        // The output bias, an output weight (of the sample's bucket), a feature bias, an
        // active feature's weight, a factoriser weight.
        let k = params.bucket(s.active());
        let factor = params
            .factoriser
            .then(|| params.factor_at() + shared * 16 + 7);
        for idx in [
            params.out_b_at() + k,
            params.out_w_of(k) + 3,
            b + 5,
            f * 16 + 5,
        ]
        .into_iter()
        .chain(factor)
        {
            let (w0, h) = (params.w[idx], 1e-3f32);
            params.w[idx] = w0 + h;
            let up = params.loss(&s, obj, &mut scratch) as f64;
            params.w[idx] = w0 - h;
            let down = params.loss(&s, obj, &mut scratch) as f64;
            params.w[idx] = w0;
            let numeric = (up - down) / (2.0 * h as f64);
            let analytic = grad[idx] as f64;
            assert!(
                (numeric - analytic).abs() <= 2e-4 + 0.02 * analytic.abs(),
                "parameter {idx}: numeric {numeric}, analytic {analytic}"
            );
            checked += (analytic.abs() > 1e-5) as usize;
        }
    }
    assert!(
        checked > 20,
        "too few non-zero gradients checked: {checked}"
    );
}

/// Results drawn from a known logistic model are fitted back to its scale.
#[test]
fn fit_scale_recovers_the_scale_that_made_the_results() {
    for truth in [120.0f64, 400.0] {
        let mut rng = Rng(truth as u64);
        let samples: Vec<Sample> = (0..100_000)
            .map(|_| {
                let score = rng.below(1201) as i32 - 600;
                let p = 1.0 / (1.0 + (-(score as f64) / truth).exp());
                let won = (rng.below(1_000_000) as f64) < p * 1e6;
                Sample {
                    features: [0; sable_engine::nnue::MAX_ACTIVE],
                    count: 0,
                    result: if won { 2 } else { 0 },
                    score: score as i16,
                    mirrorable: false,
                    kings: [0; 2],
                    game: 0,
                }
            })
            .collect();
        let fitted = fit_scale(&samples) as f64;
        assert!(
            (fitted / truth - 1.0).abs() < 0.08,
            "fitted {fitted} for a true scale of {truth}"
        );
    }
}

#[test]
fn reads_game_records_through_the_filter_and_text_lines() {
    let dir = std::env::temp_dir().join(format!("sable-train-data-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let start = Position::startpos();
    let mut pos = start.clone();
    let mut plies = Vec::new();
    // e4 d5 exd5 (capture: skipped) Qxd5 (capture: skipped) Nc3 (then a mate score: skipped)
    for (uci, cp) in [
        ("e2e4", 30),
        ("d7d5", -25),
        ("e4d5", 40),
        ("d8d5", -20),
        ("b1c3", 10),
    ] {
        let mv = pos.parse_uci(uci).unwrap();
        let score = if uci == "b1c3" {
            Score::mate(9)
        } else {
            Score::cp(cp)
        };
        plies.push(Ply { mv, score });
        pos.make(mv);
    }
    let game = GameRecord {
        start,
        plies,
        result: GameResult::BlackWins,
        termination: Termination::WinAdjudicated,
        number: 0,
    };
    let mut bytes = Vec::new();
    game.encode(&mut bytes).unwrap();
    let records = dir.join("games.rec");
    std::fs::write(&records, &bytes).unwrap();
    let mut out = Vec::new();
    let mut stats = LoadStats::default();
    data::load(&records, &mut out, &mut stats).unwrap();
    assert_eq!(out.len(), 2);
    assert_eq!((out[0].score, out[0].result), (30, 0)); // White to move, Black won
    assert_eq!((out[1].score, out[1].result), (-25, 2));
    assert_eq!(
        out[0],
        Sample::new(&Position::startpos(), 30, 0.0).in_game(1)
    );

    let text = dir.join("fixture.txt");
    std::fs::write(
        &text,
        "# FEN | score (White) | result (White)\n\
         rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | 35 | 1-0\n\
         8/8/8/8/8/5k2/8/4K2R w K - 0 1 | 500 | 1.0\n",
    )
    .unwrap();
    data::load(&text, &mut out, &mut stats).unwrap();
    assert_eq!(out.len(), 4);
    assert_eq!((out[2].score, out[2].result), (-35, 0)); // Black to move
    assert_eq!((out[3].score, out[3].result, out[3].count), (500, 2, 3));
    std::fs::write(&text, "8/8/8/8/8/5k2/8/4K2R w K - 0 1 | lots | 1.0\n").unwrap();
    let err = data::load(&text, &mut out, &mut stats)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("fixture.txt:1") && err.contains("lots"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(dir);
    let _ = Color::White;
}

/// A hidden size the engine cannot load, or a score scale that is not a positive number,
/// is refused before any training, not found out at the export after the run.
/// A net with output buckets trains, each bucket's weights move only for its own
/// positions, and its quantised export evaluates (through the engine's bucket choice) like
/// the float net, with each bucket's bias calibrated.
#[test]
fn output_buckets_train_and_export() {
    let mut cfg = config();
    cfg.buckets = 4;
    let (train, val) = trainer::split(samples(4000, 21), cfg.val, cfg.seed);
    let start = trainer::fresh(&cfg);
    let before = trainer::mean_loss(&start.params, &val, cfg.objective(), 1);
    let done = trainer::train(&cfg, start.clone(), &train, &val, |_| {}).unwrap();
    let after = done.reports.last().unwrap().val_loss;
    assert!(after < 0.7 * before, "validation loss {before} -> {after}");
    let (p0, p1) = (&start.params, &done.state.params);
    let used: std::collections::HashSet<usize> =
        train.iter().map(|s| p1.bucket(s.active())).collect();
    assert!(
        used.len() >= 2,
        "the fixture spans one bucket only: {used:?}"
    );
    for k in 0..4 {
        let o = p1.out_w_of(k);
        // Weight decay moves even unused weights a little; a used bucket's move by more.
        let change: f32 = p0.w[o..o + 32]
            .iter()
            .zip(&p1.w[o..o + 32])
            .map(|(a, b)| (a - b).abs())
            .sum();
        if used.contains(&k) {
            assert!(change > 0.05, "bucket {k}: {change}");
        } else {
            assert!(
                change < 0.05,
                "bucket {k} has no samples but moved {change}"
            );
        }
    }
    let net = p1.quantise_calibrated(&train).unwrap();
    assert_eq!(net.buckets(), 4);
    let mut worst = 0.0f32;
    let mut gap = 0.0f64;
    let fix = fixture(400, 79);
    for (pos, _, _) in &fix {
        let d = net.evaluate(pos) as f32 - p1.evaluate(pos);
        worst = worst.max(d.abs());
        gap += d as f64;
    }
    eprintln!(
        "buckets: largest |int - float| {worst:.2} cp, mean {:.2}",
        gap / 400.0
    );
    assert!(worst < 40.0 && (gap / 400.0).abs() < 1.5, "{worst}, {gap}");
    for buckets in [0, 17] {
        let cfg = TrainConfig {
            buckets,
            ..config()
        };
        let err = trainer::train(&cfg, trainer::fresh(&cfg), &train, &val, |_| {}).err();
        assert!(
            err.expect("refused").to_string().contains("bucket"),
            "{buckets}"
        );
    }
}

#[test]
fn settings_out_of_range_are_refused_up_front() {
    let (train, val) = trainer::split(samples(200, 4), 0.1, 1);
    // Each setting out of range, with the words its refusal must name.
    type Set = fn(&mut TrainConfig);
    let cases: [(Set, &str); 19] = [
        (|c| c.hidden = 8, "hidden size"),
        (|c| c.hidden = 24, "hidden size"),
        (|c| c.hidden = 2048, "hidden size"),
        (|c| c.scale = 0.0, "scale"),
        (|c| c.scale = f32::NAN, "scale"),
        (|c| c.lr = 0.0, "learning rate"),
        (|c| c.lr = -0.01, "learning rate"),
        (|c| c.lr = f32::NAN, "learning rate"),
        (|c| c.lr = f32::INFINITY, "learning rate"),
        (|c| c.weight_decay = -0.1, "weight decay"),
        (|c| c.weight_decay = 1.5, "weight decay"),
        (|c| c.weight_decay = f32::NAN, "weight decay"),
        (|c| c.wdl = -0.5, "result weight"),
        (|c| c.wdl = 1.01, "result weight"),
        (|c| c.wdl = f32::NAN, "result weight"),
        (|c| c.val = 1.0, "validation fraction"),
        (|c| c.val = f32::NAN, "validation fraction"),
        (|c| c.batch = 0, "batch"),
        (|c| c.threads = 0, "thread"),
    ];
    for (set, words) in cases {
        let mut cfg = TrainConfig {
            epochs: 1,
            ..config()
        };
        set(&mut cfg);
        let mut batches = 0;
        let result = trainer::train(&cfg, trainer::fresh(&cfg), &train, &val, |_| batches += 1);
        let err = result.err().expect("refused").to_string();
        assert!(err.contains(words), "{cfg:?}: {err}");
        assert_eq!(batches, 0, "{cfg:?}: trained before refusing");
    }
}

/// Weight decay pulls weights toward zero: the same run with a stronger decay ends with
/// a smaller sum of squared weights, and with none a larger one.
#[test]
fn stronger_weight_decay_gives_smaller_weights() {
    let (train, val) = trainer::split(samples(2000, 5), 0.1, 1);
    let norm = |weight_decay: f32| {
        let cfg = TrainConfig {
            weight_decay,
            epochs: 3,
            ..config()
        };
        let done = trainer::train(&cfg, trainer::fresh(&cfg), &train, &val, |_| {}).unwrap();
        done.state
            .params
            .w
            .iter()
            .map(|w| f64::from(*w).powi(2))
            .sum::<f64>()
    };
    let (none, default, strong) = (norm(0.0), norm(0.01), norm(0.5));
    eprintln!("sum of squared weights: decay 0 {none:.3}, 0.01 {default:.3}, 0.5 {strong:.3}");
    assert!(
        none > default && default > strong,
        "{none} {default} {strong}"
    );
}

/// The FEN of `pos` with files a-h mirrored (each rank's text reversed), no castling.
fn mirror_fen(pos: &Position) -> String {
    let fen = pos.fen();
    let mut fields: Vec<String> = fen.split(' ').map(str::to_string).collect();
    fields[0] = fields[0]
        .split('/')
        .map(|rank| rank.chars().rev().collect::<String>())
        .collect::<Vec<_>>()
        .join("/");
    fields[2] = "-".into();
    fields[3] = "-".into();
    fields.join(" ")
}

/// A mirrored sample has the features of the mirrored position read from its FEN, and
/// only positions without castling rights are mirrored.
#[test]
fn mirrored_samples_are_the_mirrored_positions() {
    let mut samples = Vec::new();
    let mut mirrorable = 0;
    for (pos, score, result) in fixture(400, 23) {
        let s = Sample::new(&pos, score, result);
        assert_eq!(s.mirrorable, pos.castling().bits() == 0);
        if s.mirrorable {
            mirrorable += 1;
            let m = Position::from_fen(&mirror_fen(&pos), sable_chess::CastlingMode::Standard)
                .expect("mirrored FEN");
            assert_eq!(s.mirrored().kings, Sample::new(&m, score, result).kings);
            let mut want = Sample::new(&m, score, result).active().to_vec();
            let mut got = s.mirrored().active().to_vec();
            want.sort_unstable();
            got.sort_unstable();
            assert_eq!(got, want, "{}", pos.fen());
            assert_eq!((s.mirrored().score, s.mirrored().result), (score, s.result));
        }
        samples.push(s);
    }
    assert!(
        mirrorable > 20 && mirrorable < 400,
        "{mirrorable} mirrorable"
    );
    let n = samples.len();
    assert_eq!(data::add_mirrored(&mut samples), mirrorable);
    assert_eq!(samples.len(), n + mirrorable);
    assert!(samples[n..].iter().all(|s| s.mirrorable));
}

/// The split holds out whole games: no game on both sides, about `val` of the games held
/// out, the same split for the same seed, another for another seed.
#[test]
fn the_split_holds_out_whole_games() {
    let all = samples(3000, 31); // 375 games of 8 positions
    let (train, val) = trainer::split(all.clone(), 0.2, 5);
    assert_eq!(train.len() + val.len(), all.len());
    let games = |set: &[Sample]| {
        set.iter()
            .map(|s| s.game)
            .collect::<std::collections::HashSet<_>>()
    };
    let (tg, vg) = (games(&train), games(&val));
    assert!(tg.is_disjoint(&vg), "a game on both sides");
    let share = vg.len() as f64 / (tg.len() + vg.len()) as f64;
    assert!(
        (0.14..0.26).contains(&share),
        "{share} of the games held out"
    );
    assert_eq!(trainer::split(all.clone(), 0.2, 5), (train, val.clone()));
    assert_ne!(trainer::split(all.clone(), 0.2, 6).1, val);
    assert!(trainer::split(all, 0.0, 5).1.is_empty());
}

/// The engine makes random nets without the trainer; they must be the nets the trainer's
/// float initialisation quantises to, so that a seed names one net on both sides.
#[test]
fn the_engines_random_net_is_the_trainers_initial_net_quantised() {
    for (hidden, buckets, seed) in [(16, 1, 1), (32, 1, 9), (64, 8, 7), (128, 4, 3)] {
        let ours = Network::random(hidden, buckets, seed).unwrap();
        let trainer = Params::random_with(hidden, buckets, &mut Rng(seed))
            .quantise()
            .unwrap();
        assert!(
            ours.to_bytes() == trainer.to_bytes(),
            "hidden {hidden}, {buckets} buckets, seed {seed}: the nets differ"
        );
    }
}

/// With mirrored inputs: the float net and the engine's integer inference of its export
/// (format version 3) agree, untrained (the dequantised weights, to the integer
/// arithmetic's truncations) and trained (to the output weights' rounding, with the
/// bias calibrated); the net learns; and a plain net's float evaluation differs, so the
/// flags are read at all.
#[test]
fn a_king_mirrored_net_trains_and_exports_as_the_engine_evaluates() {
    let fix = fixture(400, 81);
    for (hidden, buckets, seed) in [(16, 1, 1), (64, 8, 2)] {
        let params =
            Params::random_with(hidden, buckets, &mut Rng(seed)).with_mirrored_inputs(true);
        let net = params.quantise().unwrap();
        assert!(net.mirrored());
        assert_eq!(net.to_bytes()[4], 3);
        let float = Params::dequantised(&net);
        assert!(float.mirrored());
        let plain = float.clone().with_mirrored_inputs(false);
        let mut differ = 0;
        for (pos, _, _) in &fix {
            let (f, q) = (float.evaluate(pos), net.evaluate(pos) as f32);
            assert!((f - q).abs() <= 1.1, "float {f}, int {q} in {}", pos.fen());
            differ += ((plain.evaluate(pos) - f).abs() > 0.5) as usize;
        }
        assert!(differ > 100, "{differ} of 400 differ from the plain net's");
    }

    let mut cfg = config();
    cfg.king_mirror = true;
    cfg.buckets = 4;
    let (mut train, val) = trainer::split(samples(4000, 24), cfg.val, cfg.seed);
    // The a-h copies are the same inputs to this net: they only weigh those positions more.
    data::add_mirrored(&mut train);
    let start = trainer::fresh(&cfg);
    assert!(start.params.mirrored());
    let before = trainer::mean_loss(&start.params, &val, cfg.objective(), 1);
    let done = trainer::train(&cfg, start, &train, &val, |_| {}).unwrap();
    let after = done.reports.last().unwrap().val_loss;
    eprintln!("king mirror: validation loss {before:.5} -> {after:.5}");
    assert!(after < 0.7 * before, "validation loss {before} -> {after}");
    let params = &done.state.params;
    let net = params.quantise_calibrated(&train).unwrap();
    let net = Network::from_bytes(&net.to_bytes()).unwrap();
    assert!(net.mirrored() && net.buckets() == 4);
    let (mut worst, mut gap) = (0.0f32, 0.0f64);
    for (pos, _, _) in &fix {
        let d = net.evaluate(pos) as f32 - params.evaluate(pos);
        worst = worst.max(d.abs());
        gap += d as f64;
    }
    let gap = gap / fix.len() as f64;
    eprintln!("king mirror: largest |int - float| {worst:.2} cp, mean {gap:.2}");
    assert!(worst < 40.0 && gap.abs() < 1.5, "{worst}, {gap}");
}

/// A net with mirrored inputs scores a position and its a-h mirror (no castling rights)
/// alike in floats, and its sample's mirrored copy exactly alike; a plain net tells them
/// apart.
#[test]
fn a_king_mirrored_model_scores_a_position_and_its_mirror_alike() {
    let mirrored = Params::random_with(32, 4, &mut Rng(12)).with_mirrored_inputs(true);
    let plain = mirrored.clone().with_mirrored_inputs(false);
    let mut scratch = Scratch::new(32);
    let mut differ = 0;
    for (pos, score, result) in fixture(300, 25) {
        let other =
            Position::from_fen(&mirror_fen(&pos), sable_chess::CastlingMode::Standard).unwrap();
        let (a, b) = (mirrored.evaluate(&pos), mirrored.evaluate(&other));
        // The same rows, summed in another order.
        assert!((a - b).abs() < 1e-3, "{a} and {b}: {}", pos.fen());
        let s = Sample::new(&pos, score, result);
        assert_eq!(
            mirrored.forward(&s, &mut scratch).to_bits(),
            mirrored.forward(&s.mirrored(), &mut scratch).to_bits()
        );
        differ += ((plain.evaluate(&pos) - plain.evaluate(&other)).abs() > 0.5) as usize;
    }
    assert!(
        differ > 200,
        "the plain net scored {} of 300 alike",
        300 - differ
    );
}

/// King buckets with a factoriser, end to end: the engine's random net of those inputs
/// is the trainer's initial net quantised; the factoriser folds into the exported rows
/// exactly (the float net with it and the folded float net agree); the engine's integer
/// inference of the export (format version 4) agrees with its weights as floats; the
/// net learns; a checkpoint (version 3) resumes bit for bit and refuses other inputs;
/// and settings that make no such net are refused by name.
#[test]
fn a_king_bucketed_factorised_net_trains_resumes_and_exports_as_the_engine_evaluates() {
    for (king_buckets, seed) in [(4, 3), (10, 4)] {
        let inputs = Inputs::preset(king_buckets).unwrap();
        let ours = Network::random_with_inputs(inputs, 32, 8, seed).unwrap();
        let trainer = Params::random_with_inputs(inputs, true, 32, 8, &mut Rng(seed));
        assert!(ours.to_bytes() == trainer.quantise().unwrap().to_bytes());
    }
    let fix = fixture(300, 91);
    let params = bucketed(4, true, 8, 21);
    let mut folded = Params::random_with_inputs(params.inputs, false, 16, 8, &mut Rng(0));
    let rows = params.ft_b_at();
    folded.w[..rows].copy_from_slice(&params.folded());
    let fa = params.factor_at();
    folded.w[rows..].copy_from_slice(&params.w[rows..fa]);
    let net = Network::from_bytes(&params.quantise().unwrap().to_bytes()).unwrap();
    assert_eq!(net.to_bytes()[4], 4);
    assert_eq!(net.inputs().buckets(), 4);
    let float = Params::dequantised(&net);
    for (pos, _, _) in &fix {
        let (a, b) = (params.evaluate(pos), folded.evaluate(pos));
        assert!((a - b).abs() < 1e-2, "{a} and {b}: {}", pos.fen());
        let (f, q) = (float.evaluate(pos), net.evaluate(pos) as f32);
        assert!((f - q).abs() <= 1.1, "float {f}, int {q} in {}", pos.fen());
    }

    let mut cfg = config();
    cfg.king_mirror = true;
    cfg.king_buckets = 4;
    cfg.factoriser = true;
    cfg.buckets = 2;
    let (train, val) = trainer::split(samples(4000, 26), cfg.val, cfg.seed);
    let start = trainer::fresh(&cfg);
    assert_eq!(start.params.inputs, Inputs::preset(4).unwrap());
    assert!(start.params.factoriser);
    let before = trainer::mean_loss(&start.params, &val, cfg.objective(), 1);
    let done = trainer::train(&cfg, start, &train, &val, |_| {}).unwrap();
    let after = done.reports.last().unwrap().val_loss;
    eprintln!("king buckets: validation loss {before:.5} -> {after:.5}");
    assert!(after < 0.7 * before, "validation loss {before} -> {after}");

    let dir = std::env::temp_dir().join(format!("sable-train-kb-{}", std::process::id()));
    cfg.epochs = 2;
    let whole = trainer::train(&cfg, trainer::fresh(&cfg), &train, &val, |_| {}).unwrap();
    let mut first = cfg.clone();
    first.stop_after = Some(1);
    first.out_dir = Some(dir.clone());
    let half = trainer::train(&first, trainer::fresh(&cfg), &train, &val, |_| {}).unwrap();
    let ckpt = std::fs::read(dir.join("checkpoint.ckpt")).unwrap();
    assert_eq!(ckpt[4], 3);
    let saved = Checkpoint::from_bytes(&ckpt).unwrap();
    assert_eq!(saved, half.state);
    let file = std::fs::read(dir.join("epoch-001.nnue")).unwrap();
    assert_eq!(file[4], 4);
    let mut other = cfg.clone();
    other.king_buckets = 10;
    let err = trainer::train(&other, saved.clone(), &train, &val, |_| {}).err();
    let err = err.expect("refused").to_string();
    assert!(
        err.contains("4 king buckets") && err.contains("10 king buckets"),
        "{err}"
    );
    let mut unfactored = cfg.clone();
    unfactored.factoriser = false;
    let err = trainer::train(&unfactored, saved.clone(), &train, &val, |_| {}).err();
    assert!(err.expect("refused").to_string().contains("factoriser"));
    let rest = trainer::train(&cfg, saved, &train, &val, |_| {}).unwrap();
    assert_eq!(rest.state, whole.state);
    let _ = std::fs::remove_dir_all(dir);

    for (mirror, king_buckets, factoriser, says) in [
        (false, 4, false, "--king-mirror"),
        (true, 3, false, "layouts are 1, 2, 4 and 10"),
        (true, 1, true, "factoriser needs king buckets"),
    ] {
        let mut bad = config();
        bad.king_mirror = mirror;
        bad.king_buckets = king_buckets;
        bad.factoriser = factoriser;
        let err = bad.check().unwrap_err().to_string();
        assert!(err.contains(says), "{err}");
    }
}
