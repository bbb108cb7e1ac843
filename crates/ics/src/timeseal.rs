//! Timeseal, the client side of FICS's lag compensation: every line we send carries the
//! time we sent it, so the server charges our clock for our thinking and not for the
//! network. The encoding (as FICS's timeseal 2 and the open-source "openseal" clients
//! do it): the line, `0x18`, the milliseconds since we connected in decimal, `0x19`,
//! padding with `'1'` to a multiple of 12 bytes, three byte swaps in each block of 12,
//! each byte ORed with 0x80, XORed with a fixed key and lowered by 32; then `0x80` and a
//! newline. The server probes with `[G]\0` in its output, which the client answers with
//! the encoded line `\x02 9` and hides from the text.

/// The fixed key of the encoding.
const KEY: &[u8; 50] = b"Timestamp (FICS) v1.0 - programmed by Henrik Gram.";

/// The first line a Timeseal client sends: protocol, client name, system.
pub const HELLO: &str = "TIMESEAL2|openseal|sable|";

/// The answer to a `[G]\0` probe (before encoding).
pub const PROBE_ACK: &str = "\u{2}9";

/// The probe the server embeds in its output.
const PROBE: &[u8; 4] = b"[G]\0";

const SWAPS: [(usize, usize); 3] = [(0, 11), (2, 9), (4, 7)];

/// Encodes one line (without its newline) sent `timestamp_ms` after connecting.
///
/// ```
/// let wire = sable_ics::timeseal::encode(b"accept Ann", 12345);
/// assert_eq!(*wire.last().unwrap(), b'\n');
/// assert_eq!(sable_ics::timeseal::decode(&wire), Some((b"accept Ann".to_vec(), 12345)));
/// ```
pub fn encode(line: &[u8], timestamp_ms: u64) -> Vec<u8> {
    let mut s = Vec::with_capacity(line.len() + 36);
    s.extend_from_slice(line);
    s.push(0x18);
    s.extend_from_slice(timestamp_ms.to_string().as_bytes());
    s.push(0x19);
    while s.len() % 12 != 0 {
        s.push(b'1');
    }
    for block in s.chunks_mut(12) {
        for (a, b) in SWAPS {
            block.swap(a, b);
        }
    }
    for (n, byte) in s.iter_mut().enumerate() {
        *byte = ((*byte | 0x80) ^ KEY[n % 50]).wrapping_sub(32);
    }
    s.push(0x80);
    s.push(b'\n');
    s
}

/// Decodes one encoded line as the server does: the text and its timestamp. `None`
/// when the bytes are not an encoded line. (The stand-in server of the tests uses it.)
pub fn decode(wire: &[u8]) -> Option<(Vec<u8>, u64)> {
    let body = wire.strip_suffix(b"\n").unwrap_or(wire);
    let body = body.strip_suffix(&[0x80])?;
    if body.is_empty() || body.len() % 12 != 0 {
        return None;
    }
    let mut s: Vec<u8> = body
        .iter()
        .enumerate()
        .map(|(n, &b)| (b.wrapping_add(32) ^ KEY[n % 50]) & 0x7f)
        .collect();
    for block in s.chunks_mut(12) {
        for (a, b) in SWAPS {
            block.swap(a, b);
        }
    }
    let start = s.iter().position(|&b| b == 0x18)?;
    let len = s[start + 1..].iter().position(|&b| b == 0x19)?;
    let stamp = std::str::from_utf8(&s[start + 1..start + 1 + len])
        .ok()?
        .parse()
        .ok()?;
    s.truncate(start);
    Some((s, stamp))
}

/// Removes `[G]\0` probes from the server's output, across reads, and counts them.
#[derive(Debug, Default)]
pub struct ProbeFilter {
    matched: usize,
}

impl ProbeFilter {
    /// Appends `input` less any probes to `out`; returns the number of probes seen.
    pub fn feed(&mut self, input: &[u8], out: &mut Vec<u8>) -> usize {
        let mut probes = 0;
        for &b in input {
            if b == PROBE[self.matched] {
                self.matched += 1;
                if self.matched == PROBE.len() {
                    self.matched = 0;
                    probes += 1;
                }
                continue;
            }
            // A partial probe that broke off was text after all.
            out.extend_from_slice(&PROBE[..self.matched]);
            self.matched = 0;
            if b == PROBE[0] {
                self.matched = 1;
            } else {
                out.push(b);
            }
        }
        probes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// Reference encodings computed with an independent transcription (in Python) of
    /// the Go client `icsgo`'s `encode`, the open-source Timeseal 2 encoder.
    #[test]
    fn matches_the_published_encoding() {
        assert_eq!(
            hex(&encode(b"accept Ann", 12345)),
            "c56a63609260a17d7ea39087d8d0c27c71a7609761747c72800a"
        );
        assert_eq!(
            hex(&encode(HELLO.as_bytes(), 0)),
            "848071809f91809ea2cda7728c8d91acb37aadafb1b3a1a5a1cabedea3b0bcbcb4b4717e800a"
        );
        assert_eq!(
            hex(&encode(PROBE_ACK.as_bytes(), 987654)),
            "c5b0d4bca6a3b7b5a49879a4800a"
        );
    }

    #[test]
    fn round_trip() {
        for len in 0..60 {
            let line: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
            for stamp in [0, 7, 999_999_999] {
                let wire = encode(&line, stamp);
                assert_eq!((wire.len() - 2) % 12, 0);
                assert_eq!(decode(&wire), Some((line.clone(), stamp)));
            }
        }
        assert_eq!(decode(b"hello\n"), None);
        assert_eq!(decode(b""), None);
    }

    #[test]
    fn probes_are_removed_across_reads() {
        let text = b"abc[G]\0def[G][G]\0g[";
        for split in 0..text.len() {
            let mut f = ProbeFilter::default();
            let mut out = Vec::new();
            let n = f.feed(&text[..split], &mut out) + f.feed(&text[split..], &mut out);
            assert_eq!(n, 2, "split at {split}");
            // The trailing `[` may still be held as the start of a probe.
            assert!(
                out.starts_with(b"abcdef[G]g"),
                "{:?}",
                String::from_utf8_lossy(&out)
            );
        }
    }
}
