//! The quantised network and its file format.
//!
//! # Net file layout (all integers little-endian)
//!
//! | offset | bytes | field |
//! | --- | --- | --- |
//! | 0 | 4 | magic `SBNN` |
//! | 4 | 2 | format version: 1 (one output layer), 2 (output buckets), 3 (output buckets, horizontally mirrored inputs) or 4 (3 with king buckets) |
//! | 6 | 2 | `H`, the hidden size (16..=1024, a multiple of 16) |
//! | 8 | 2 | QA (255) |
//! | 10 | 2 | QB (64) |
//! | 12 | 2 | output scale: centipawns per 1.0 of output ([`MIN_OUTPUT_SCALE`]`..=`[`MAX_OUTPUT_SCALE`]; 400 as trained) |
//! | 14 | 2 | version 1: zero; version 2: `B`, the output buckets (2..=16); versions 3 and 4: `B` (1..=16) |
//! | 16 | 32 | version 4 only: the king bucket of each square of files a-d, `rank·4 + file` from the perspective's side; `K` buckets (2..=16), numbered from 0 |
//! | `T` | 2·768·K·H | feature weights, `i16`, row by row: row `r`'s `H` weights at `T + 2·H·r` (`T` = 16, or 48 in version 4; `K` = 1 before version 4; row `768·k + f` for feature `f` in king bucket `k`) |
//! | … | 2·H | feature biases, `i16` |
//! | … | 2·2H·B | output weights, `i16`, bucket by bucket: `H` for the side to move's half, then `H` for the other |
//! | … | 4·B | output biases, `i32` (units of QA·QB), bucket by bucket |
//! | end − 4 | 4 | CRC-32 (`sable_formats::record::crc32`) of every byte before it |
//!
//! A file is therefore `20 + 1538·H + 4·H·B + 4·B` bytes (`24 + 1542·H` with one
//! bucket) in versions 1 to 3, and `52 + 1536·K·H + 2·H + 4·H·B + 4·B` in version 4. A net with one bucket is written as version 1, so nets
//! from before buckets load unchanged and are written back byte for byte; an older build
//! refuses a version 2 file by its version, not by a confusing size. Which bucket a
//! position uses: [`super::output_bucket`].
//!
//! Version 3 is version 2's layout (with any bucket count, one included) for a net with
//! **horizontally mirrored inputs** ([`Network::mirrored`]): from a perspective whose own
//! king stands on files e-h, every feature's square (already rank-flipped for Black) has
//! its file flipped too (`square ^ 7`, [`super::feature`]), so that the net only ever sees
//! its king on files a-d. The weights are the same 768 rows; only which row a piece
//! selects changes. Only mirrored nets are written as version 3, so version 1 and 2 files
//! are written back byte for byte, and an older build refuses a mirrored net by its
//! version instead of evaluating it with the wrong rows.
//!
//! Version 4 is version 3 with **king buckets** ([`Inputs`]): one block of 768 rows per
//! bucket, a perspective reading the block of its own king's bucket. Mirrored nets
//! without king buckets stay version 3, byte for byte.
//!
//! Loading checks each field in that order and also that no accumulator can overflow
//! `i16` (bias plus 32 of the largest weights) and that `QA · |output weight|` fits `i16`
//! (the SCReLU kernel multiplies in 16 bits).
//!
//! The output scale is the net's own: the trainer exports at [`SCALE`] (the unit it
//! learned the search's scores in), and `sable nnue rescale` rewrites it, so that a net
//! whose centipawns drifted from the ones the search's margins were tuned in is brought
//! back without retraining, and the factor travels with the net it belongs to (a net
//! trained on the rescaled engine's games needs its own, not the last net's).

use super::{
    Inputs, View, INPUTS, MAX_ACTIVE, MAX_BUCKETS, MAX_HIDDEN, MAX_OUTPUT_SCALE, MIN_HIDDEN,
    MIN_OUTPUT_SCALE, QA, QB, SCALE,
};
use sable_formats::record::crc32;

pub const MAGIC: [u8; 4] = *b"SBNN";
/// The newest format version this build writes and reads (it reads versions 1 to 3 too).
pub const VERSION: u16 = 4;
pub const HEADER_LEN: usize = 16;

/// Why a net file was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    #[error("net file too short: {len} bytes, the header alone is {HEADER_LEN}")]
    TooShort { len: usize },
    #[error("not a Sable net file (bad magic {found:02x?}, expected \"SBNN\")")]
    BadMagic { found: [u8; 4] },
    #[error("net format version {found} is not supported (this build reads 1 to {VERSION})")]
    Version { found: u16 },
    #[error("hidden size {found} is not a multiple of 16 in {MIN_HIDDEN}..={MAX_HIDDEN}")]
    Hidden { found: u16 },
    #[error("{found} output buckets: a version {version} net has {expected}")]
    Buckets {
        found: u16,
        version: u16,
        expected: &'static str,
    },
    #[error("quantisation QA={qa} QB={qb} is not the supported 255/64")]
    Quantisation { qa: u16, qb: u16 },
    #[error(
        "output scale {found} cp is outside {MIN_OUTPUT_SCALE}..={MAX_OUTPUT_SCALE} \
         ({SCALE} is the trained scale)"
    )]
    OutputScale { found: i32 },
    #[error(
        "wrong size: {actual} bytes, a net with hidden size {hidden} and {buckets} output \
         bucket(s) has {expected}"
    )]
    WrongSize {
        hidden: usize,
        buckets: usize,
        expected: usize,
        actual: usize,
    },
    #[error("bad checksum: stored {stored:08x}, computed {computed:08x} (file corrupt)")]
    Checksum { stored: u32, computed: u32 },
    #[error("weights out of range: {0}")]
    Range(String),
    #[error("cannot read net file {path}: {message}")]
    Io { path: String, message: String },
    /// What is wrong with the contents of a net file, and which file.
    #[error("{path}: {source}")]
    File { path: String, source: Box<NetError> },
}

/// A quantised network, as loaded from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    hidden: usize,
    /// `inputs.rows()` rows of `hidden` weights (units of QA).
    pub(crate) ft_weights: Vec<i16>,
    /// `hidden` biases (units of QA).
    pub(crate) ft_bias: Vec<i16>,
    /// Per output bucket, the side to move's half, then the other's (units of QB).
    pub(crate) out_weights: Vec<i16>,
    /// One per output bucket, units of QA·QB.
    pub(crate) out_bias: Vec<i32>,
    /// Centipawns per 1.0 of output ([`SCALE`] unless rescaled).
    scale: i32,
    /// Which rows a perspective reads: plain, mirrored (format version 3) or with king
    /// buckets (version 4; see the module comment).
    inputs: Inputs,
}

/// Bytes of a net file with hidden size `h`, `b` output buckets and `inputs`.
pub fn file_len(h: usize, b: usize, inputs: &Inputs) -> usize {
    HEADER_LEN + table_len(inputs) + 2 * (inputs.rows() * h + h + 2 * h * b) + 4 * b + 4
}

/// The king-bucket table's bytes: only version 4 has one.
fn table_len(inputs: &Inputs) -> usize {
    if inputs.buckets() > 1 {
        32
    } else {
        0
    }
}

/// Whether a net of `hidden` units can be stored and run: a multiple of 16 (the SIMD
/// kernels' width) in [`MIN_HIDDEN`]`..=`[`MAX_HIDDEN`].
pub fn check_hidden(hidden: usize) -> Result<(), NetError> {
    if (MIN_HIDDEN..=MAX_HIDDEN).contains(&hidden) && hidden.is_multiple_of(16) {
        Ok(())
    } else {
        Err(NetError::Hidden {
            found: hidden.min(u16::MAX as usize) as u16,
        })
    }
}

/// Whether a net may have an output scale of `cp` centipawns per 1.0.
fn check_output_scale(cp: i32) -> Result<(), NetError> {
    if (MIN_OUTPUT_SCALE..=MAX_OUTPUT_SCALE).contains(&cp) {
        Ok(())
    } else {
        Err(NetError::OutputScale { found: cp })
    }
}

/// Whether a net can have `buckets` output buckets: 1 to [`MAX_BUCKETS`].
pub fn check_buckets(buckets: usize) -> Result<(), NetError> {
    if (1..=MAX_BUCKETS).contains(&buckets) {
        Ok(())
    } else {
        Err(NetError::Range(format!(
            "{buckets} output buckets, expected 1..={MAX_BUCKETS}"
        )))
    }
}

impl Network {
    /// A net of small random weights, for speed tests and for tests of the inference
    /// itself: feature weights in ±0.1, output weights in ±1/sqrt(2H) (bucket by bucket,
    /// so that bucket 0 is the plain net of the same seed), biases zero, drawn in that
    /// order from [`Rng`](super::rng::Rng) and quantised as the trainer quantises. It is
    /// the trainer's `Params::random_with(hidden, buckets, seed).quantise()`, made here
    /// so that the engine needs no trainer for it.
    pub fn random(hidden: usize, buckets: usize, seed: u64) -> Result<Network, NetError> {
        Network::random_with_inputs(Inputs::PLAIN, hidden, buckets, seed)
    }

    /// [`Network::random`] with other inputs: as many feature rows as `inputs` has
    /// (king bucket by king bucket, so that bucket 0 is the plain net of the same seed).
    pub fn random_with_inputs(
        inputs: Inputs,
        hidden: usize,
        buckets: usize,
        seed: u64,
    ) -> Result<Network, NetError> {
        check_hidden(hidden)?;
        check_buckets(buckets)?;
        let mut rng = super::rng::Rng(seed);
        let mut quantised = |n: usize, range: f32, q: i32| -> Vec<i16> {
            (0..n)
                .map(|_| (range * rng.symmetric() * q as f32).round() as i16)
                .collect()
        };
        let ft_weights = quantised(inputs.rows() * hidden, 0.1, QA);
        let out_weights = quantised(2 * hidden * buckets, 1.0 / ((2 * hidden) as f32).sqrt(), QB);
        Network::from_parts_with_inputs(
            inputs,
            hidden,
            ft_weights,
            vec![0; hidden],
            out_weights,
            vec![0; buckets],
        )
    }

    /// A network of plain inputs from its parts (the output bucket count is
    /// `out_bias.len()`); the same range checks as loading.
    pub fn from_parts(
        hidden: usize,
        ft_weights: Vec<i16>,
        ft_bias: Vec<i16>,
        out_weights: Vec<i16>,
        out_bias: Vec<i32>,
    ) -> Result<Network, NetError> {
        Network::from_parts_with_inputs(
            Inputs::PLAIN,
            hidden,
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
        )
    }

    /// [`Network::from_parts`] for a net of `inputs` (`inputs.rows()` feature rows).
    pub fn from_parts_with_inputs(
        inputs: Inputs,
        hidden: usize,
        ft_weights: Vec<i16>,
        ft_bias: Vec<i16>,
        out_weights: Vec<i16>,
        out_bias: Vec<i32>,
    ) -> Result<Network, NetError> {
        check_hidden(hidden)?;
        let buckets = out_bias.len();
        check_buckets(buckets)?;
        let lens = [
            (ft_weights.len(), inputs.rows() * hidden, "feature weights"),
            (ft_bias.len(), hidden, "feature biases"),
            (out_weights.len(), 2 * hidden * buckets, "output weights"),
        ];
        for (len, want, what) in lens {
            if len != want {
                return Err(NetError::Range(format!(
                    "{what}: {len} values, expected {want}"
                )));
            }
        }
        let net = Network {
            hidden,
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
            scale: SCALE,
            inputs,
        };
        net.check_ranges()?;
        Ok(net)
    }

    /// The feature weights, [`Inputs::rows`] rows of `hidden` (units of QA).
    pub fn ft_weights(&self) -> &[i16] {
        &self.ft_weights
    }

    /// The `hidden` feature biases (units of QA).
    pub fn ft_bias(&self) -> &[i16] {
        &self.ft_bias
    }

    /// Per output bucket, the side to move's half, then the other's (units of QB).
    pub fn out_weights(&self) -> &[i16] {
        &self.out_weights
    }

    /// One output bias per bucket (units of QA·QB).
    pub fn out_bias(&self) -> &[i32] {
        &self.out_bias
    }

    /// Centipawns per 1.0 of output: [`SCALE`] as trained, other values after
    /// [`Network::with_output_scale`].
    pub fn output_scale(&self) -> i32 {
        self.scale
    }

    /// The same net with its output in `cp` centipawns per 1.0 instead: every score
    /// times `cp / output_scale()`. Refuses a scale outside
    /// [`MIN_OUTPUT_SCALE`]`..=`[`MAX_OUTPUT_SCALE`].
    pub fn with_output_scale(mut self, cp: i32) -> Result<Network, NetError> {
        check_output_scale(cp)?;
        self.scale = cp;
        Ok(self)
    }

    /// Whether the inputs are horizontally mirrored: from a side whose king stands on
    /// files e-h, every square's file is flipped ([`super::feature`]); written as format
    /// version 3.
    pub fn mirrored(&self) -> bool {
        self.inputs.mirrored()
    }

    /// The layout of the inputs: plain, mirrored, or mirrored with king buckets.
    pub fn inputs(&self) -> &Inputs {
        &self.inputs
    }

    /// The same weights read with (or without) horizontally mirrored inputs: the same
    /// rows, selected by other squares ([`Network::mirrored`]). The range checks hold
    /// either way (at most 32 rows are ever summed). A net with king buckets is mirrored
    /// by its layout and is returned as it is.
    pub fn with_mirrored_inputs(mut self, mirrored: bool) -> Network {
        if self.inputs.buckets() == 1 {
            self.inputs = if mirrored {
                Inputs::MIRRORED
            } else {
                Inputs::PLAIN
            };
        }
        self
    }

    /// Which rows `persp` reads in `pos` (its king's bucket and file flip).
    #[inline]
    pub fn view(&self, pos: &sable_chess::Position, persp: sable_chess::Color) -> View {
        self.inputs.view(pos.king(persp).relative(persp))
    }

    /// The hidden size `H`.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Row `r`'s `H` weights (units of QA): feature `r` of a net without king buckets,
    /// `768·k + f` for feature `f` in king bucket `k` ([`View::row`]).
    pub fn feature_weights(&self, r: usize) -> &[i16] {
        self.row(r)
    }

    /// The `H` feature biases (units of QA).
    pub fn feature_biases(&self) -> &[i16] {
        &self.ft_bias
    }

    /// The number of output buckets (1 for a plain net).
    pub fn buckets(&self) -> usize {
        self.out_bias.len()
    }

    /// The output bucket `pos` is evaluated with.
    #[inline]
    pub fn bucket_of(&self, pos: &sable_chess::Position) -> usize {
        super::output_bucket(pos.occupied().count() as usize, self.buckets())
    }

    /// Bucket `b`'s output weights (units of QB): the side to move's `H`, then the other's.
    pub fn output_weights(&self, b: usize) -> &[i16] {
        &self.out_weights[2 * self.hidden * b..2 * self.hidden * (b + 1)]
    }

    /// Bucket `b`'s output bias (units of QA·QB).
    pub fn output_bias(&self, b: usize) -> i32 {
        self.out_bias[b]
    }

    /// Row `r`'s `H` weights.
    #[inline]
    pub(crate) fn row(&self, r: usize) -> &[i16] {
        &self.ft_weights[r * self.hidden..(r + 1) * self.hidden]
    }

    /// The integer kernels are exact only if no sum leaves `i16`: check it once here
    /// (a perspective sums rows of one king bucket only).
    fn check_ranges(&self) -> Result<(), NetError> {
        let h = self.hidden;
        for k in 0..self.inputs.buckets() {
            for i in 0..h {
                let mut col: Vec<i32> = (k * INPUTS..(k + 1) * INPUTS)
                    .map(|r| (self.ft_weights[r * h + i] as i32).abs())
                    .collect();
                col.sort_unstable_by(|a, b| b.cmp(a));
                let worst = (self.ft_bias[i] as i32).abs() + col[..MAX_ACTIVE].iter().sum::<i32>();
                if worst > i16::MAX as i32 {
                    return Err(NetError::Range(format!(
                        "hidden unit {i}, king bucket {k}: bias plus the 32 largest feature \
                         weights reach {worst}, beyond i16"
                    )));
                }
            }
        }
        if let Some(w) = self
            .out_weights
            .iter()
            .find(|w| (**w as i32).abs() * QA > 32767)
        {
            return Err(NetError::Range(format!(
                "output weight {w} times QA={QA} does not fit i16"
            )));
        }
        Ok(())
    }

    /// Reads a net file's bytes, checking everything (never panics on bad input).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < HEADER_LEN {
            return Err(NetError::TooShort { len: bytes.len() });
        }
        let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        let magic = [bytes[0], bytes[1], bytes[2], bytes[3]];
        if magic != MAGIC {
            return Err(NetError::BadMagic { found: magic });
        }
        let version = u16_at(4);
        if !(1..=VERSION).contains(&version) {
            return Err(NetError::Version { found: version });
        }
        let hidden = u16_at(6) as usize;
        check_hidden(hidden)?;
        let (qa, qb, scale) = (u16_at(8), u16_at(10), u16_at(12) as i32);
        if (qa as i32, qb as i32) != (QA, QB) {
            return Err(NetError::Quantisation { qa, qb });
        }
        check_output_scale(scale)?;
        let field = u16_at(14);
        let buckets = match (version, field) {
            (1, 0) => 1,
            (2, b) if (2..=MAX_BUCKETS as u16).contains(&b) => b as usize,
            (3 | 4, b) if (1..=MAX_BUCKETS as u16).contains(&b) => b as usize,
            (1, found) => {
                return Err(NetError::Buckets {
                    found,
                    version,
                    expected: "0 (one output layer)",
                })
            }
            (3 | 4, found) => {
                return Err(NetError::Buckets {
                    found,
                    version,
                    expected: "1..=16",
                })
            }
            (_, found) => {
                return Err(NetError::Buckets {
                    found,
                    version,
                    expected: "2..=16",
                })
            }
        };
        let inputs = match version {
            1 | 2 => Inputs::PLAIN,
            3 => Inputs::MIRRORED,
            _ => {
                let Some(table) = bytes.get(HEADER_LEN..HEADER_LEN + 32) else {
                    return Err(NetError::TooShort { len: bytes.len() });
                };
                let inputs = Inputs::king_buckets(table.try_into().expect("32 bytes"))?;
                if inputs.buckets() < 2 {
                    return Err(NetError::Range(
                        "a version 4 net has 2 or more king buckets (one is version 3)".into(),
                    ));
                }
                inputs
            }
        };
        let expected = file_len(hidden, buckets, &inputs);
        if bytes.len() != expected {
            return Err(NetError::WrongSize {
                hidden,
                buckets,
                expected,
                actual: bytes.len(),
            });
        }
        let body = &bytes[..expected - 4];
        let stored = u32::from_le_bytes(bytes[expected - 4..].try_into().expect("4 bytes"));
        let computed = crc32(body);
        if stored != computed {
            return Err(NetError::Checksum { stored, computed });
        }
        let mut at = HEADER_LEN + table_len(&inputs);
        let mut take = |n: usize| -> Vec<i16> {
            let v = bytes[at..at + 2 * n]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect();
            at += 2 * n;
            v
        };
        let ft_weights = take(inputs.rows() * hidden);
        let ft_bias = take(hidden);
        let out_weights = take(2 * hidden * buckets);
        let out_bias = bytes[at..at + 4 * buckets]
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Network::from_parts_with_inputs(inputs, hidden, ft_weights, ft_bias, out_weights, out_bias)?
            .with_output_scale(scale)
    }

    /// Reads a net file; every error names it.
    pub fn load(path: &std::path::Path) -> Result<Network, NetError> {
        let bytes = std::fs::read(path).map_err(|e| NetError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        Network::from_bytes(&bytes).map_err(|e| NetError::File {
            path: path.display().to_string(),
            source: Box::new(e),
        })
    }

    /// The file bytes of this network.
    pub fn to_bytes(&self) -> Vec<u8> {
        let buckets = self.buckets();
        let mut out = Vec::with_capacity(file_len(self.hidden, buckets, &self.inputs));
        out.extend_from_slice(&MAGIC);
        let (version, field) = if self.inputs.buckets() > 1 {
            (4, buckets as u16)
        } else if self.inputs.mirrored() {
            (3, buckets as u16)
        } else if buckets == 1 {
            (1, 0)
        } else {
            (2, buckets as u16)
        };
        for v in [
            version,
            self.hidden as u16,
            QA as u16,
            QB as u16,
            self.scale as u16,
            field,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        if version == 4 {
            out.extend_from_slice(self.inputs.table());
        }
        for w in self
            .ft_weights
            .iter()
            .chain(&self.ft_bias)
            .chain(&self.out_weights)
        {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.out_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        let crc = crc32(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// Centipawns for the side to move from the two accumulators (the side to move's
    /// first), through output bucket `bucket` ([`Network::bucket_of`]). The SCReLU sums
    /// wrap in `i32` exactly as the AVX2 kernel's do.
    #[inline]
    pub fn output(&self, backend: super::Backend, stm: &[i16], nstm: &[i16], bucket: usize) -> i32 {
        let h = self.hidden;
        let w = self.output_weights(bucket);
        let sum = backend
            .screlu_dot(stm, &w[..h])
            .wrapping_add(backend.screlu_dot(nstm, &w[h..]));
        let raw = (sum / QA) as i64 + self.out_bias[bucket] as i64;
        (raw * self.scale as i64 / (QA * QB) as i64).clamp(-30_000, 30_000) as i32
    }
}
