//! Checkpoints: everything needed to continue training exactly where it stopped (float
//! weights, AdamW moments and step, the epoch, the random state), written atomically
//! (a temporary file renamed over the old one).
//!
//! Layout (little-endian): magic `SBCK`, version `u32` (1), hidden `u32`, epochs done
//! `u32`, AdamW step `u64`, random state `u64`, parameter count `u64`, then the
//! parameters, first moments and second moments as `f32`, then a CRC-32 of all before.
//! The output bucket count is not stored: it follows from the hidden size and the
//! parameter count ([`Params::buckets_of_len`]), so checkpoints of plain nets written
//! before buckets existed still load.
//!
//! Version 2 is the same with a `u32` of flags after the parameter count (bit 0: the
//! net's inputs are horizontally mirrored, [`Params::mirrored`]; the other bits zero). It
//! is written only for mirrored nets, so a plain net's checkpoint stays version 1,
//! byte for byte as before, and an older build refuses a mirrored one by its version.
//!
//! Version 3 is version 2 with bit 1 of the flags for a factoriser
//! ([`Params::factoriser`]) and, after the flags, the 32 bytes of the king-bucket table
//! ([`sable_engine::nnue::Inputs::table`]). It is written only for nets with king
//! buckets or a factoriser.

use crate::adamw::AdamW;
use crate::model::Params;
use crate::rng::Rng;
use crate::TrainError;
use sable_engine::nnue::Inputs;
use sable_formats::record::crc32;
use std::path::Path;

const MAGIC: &[u8; 4] = b"SBCK";
/// The newest version (a king-bucketed or factorised net's); plain nets are written as
/// version 1, mirrored ones as version 2.
const VERSION: u32 = 3;
/// Bytes before the parameters, by version.
const fn head(version: u32) -> usize {
    match version {
        1 => 40,
        2 => 44,
        _ => 76,
    }
}

/// A trainer's whole state between epochs.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    pub params: Params,
    pub opt: AdamW,
    pub epochs_done: u32,
    pub rng: Rng,
}

impl Checkpoint {
    pub fn to_bytes(&self) -> Vec<u8> {
        let n = self.params.w.len();
        let p = &self.params;
        let version = if p.inputs.buckets() > 1 || p.factoriser {
            3
        } else if p.mirrored() {
            2
        } else {
            1u32
        };
        let mut out = Vec::with_capacity(head(version) + 4 + 12 * n);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&version.to_le_bytes());
        out.extend_from_slice(&(self.params.hidden as u32).to_le_bytes());
        out.extend_from_slice(&self.epochs_done.to_le_bytes());
        out.extend_from_slice(&self.opt.step.to_le_bytes());
        out.extend_from_slice(&self.rng.0.to_le_bytes());
        out.extend_from_slice(&(n as u64).to_le_bytes());
        if version >= 2 {
            let flags = u32::from(p.mirrored()) | u32::from(p.factoriser) << 1;
            out.extend_from_slice(&flags.to_le_bytes());
        }
        if version == 3 {
            out.extend_from_slice(p.inputs.table());
        }
        for x in self.params.w.iter().chain(&self.opt.m).chain(&self.opt.v) {
            out.extend_from_slice(&x.to_le_bytes());
        }
        let crc = crc32(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, String> {
        if bytes.len() < head(1) + 4 || &bytes[..4] != MAGIC {
            return Err("not a Sable trainer checkpoint (bad magic or too short)".into());
        }
        let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4"));
        let u64_at = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().expect("8"));
        let version = u32_at(4);
        if !(1..=VERSION).contains(&version) {
            return Err(format!(
                "checkpoint version {version} is not supported (this build reads 1 to {VERSION})"
            ));
        }
        let start = head(version);
        if bytes.len() < start + 4 {
            return Err("not a Sable trainer checkpoint (too short)".into());
        }
        let flags = if version == 1 { 0 } else { u32_at(40) };
        let known = if version == 3 { 3 } else { 1 };
        if flags & !known != 0 {
            return Err(format!("unknown checkpoint flags {flags:#x}"));
        }
        let (mirrored, factoriser) = (flags & 1 != 0, flags & 2 != 0);
        let inputs = if version == 3 {
            let table: [u8; 32] = bytes[44..76].try_into().expect("32 bytes");
            let inputs = Inputs::king_buckets(table).map_err(|e| e.to_string())?;
            match (inputs.buckets(), mirrored) {
                (_, false) => return Err("a checkpoint of king buckets must be mirrored".into()),
                (1, true) => Inputs::MIRRORED,
                _ => inputs,
            }
        } else if mirrored {
            Inputs::MIRRORED
        } else {
            Inputs::PLAIN
        };
        let hidden = u32_at(8) as usize;
        let n = u64_at(32) as usize;
        let fits = n.checked_mul(12).and_then(|b| b.checked_add(start + 4)) == Some(bytes.len());
        let Some(buckets) = Params::buckets_of_len(&inputs, factoriser, hidden, n).filter(|_| fits)
        else {
            return Err(format!(
                "checkpoint size {} ({n} parameters) does not match hidden size {hidden}",
                bytes.len()
            ));
        };
        let end = bytes.len() - 4;
        let stored = u32_at(end);
        if crc32(&bytes[..end]) != stored {
            return Err("bad checksum (checkpoint corrupt)".into());
        }
        let floats: Vec<f32> = bytes[start..end]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().expect("4")))
            .collect();
        Ok(Checkpoint {
            params: Params {
                hidden,
                buckets,
                inputs,
                factoriser,
                w: floats[..n].to_vec(),
            },
            opt: AdamW {
                m: floats[n..2 * n].to_vec(),
                v: floats[2 * n..].to_vec(),
                step: u64_at(16),
            },
            epochs_done: u32_at(12),
            rng: Rng(u64_at(24)),
        })
    }

    pub fn load(path: &Path) -> Result<Checkpoint, TrainError> {
        let bytes = std::fs::read(path).map_err(|e| TrainError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        Checkpoint::from_bytes(&bytes).map_err(|message| TrainError::Checkpoint {
            path: path.display().to_string(),
            message,
        })
    }

    /// Writes `path` atomically.
    pub fn save(&self, path: &Path) -> Result<(), TrainError> {
        write_atomic(path, &self.to_bytes())
    }
}

/// Writes `bytes` to a temporary file beside `path`, then renames it over `path`, so a
/// reader (or a crash) sees the old file or the new one, never half of one.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), TrainError> {
    let io = |e: std::io::Error| TrainError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    };
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    std::fs::write(&tmp, bytes).map_err(io)?;
    std::fs::rename(&tmp, path).map_err(io)
}
