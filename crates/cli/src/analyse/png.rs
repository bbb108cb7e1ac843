//! The evaluation graph as a PNG, for places that take no SVG. Drawn pixel by pixel with
//! no text (so no fonts are needed) and encoded here rather than with a crate: an
//! indexed-colour image whose rows are mostly long runs of one colour, compressed by a
//! deflate stream of fixed Huffman codes with matches at distance 1 (run lengths), which
//! brings a graph down to a few kilobytes.

use super::game::GameReport;
use super::judge::Judgement;
use super::winprob::win_percent;

pub const WIDTH: usize = 800;
pub const HEIGHT: usize = 240;
const MARGIN: usize = 10;

/// Palette: background, Black's share, White's share, midline, marker ring, then the
/// judgement colours (lichess's).
const PALETTE: [[u8; 3]; 8] = [
    [0xff, 0xff, 0xff],
    [0x3b, 0x3b, 0x3b],
    [0xec, 0xec, 0xec],
    [0x88, 0x88, 0x88],
    [0xff, 0xff, 0xff],
    [0x56, 0xb4, 0xe9],
    [0xe6, 0x9f, 0x00],
    [0xdb, 0x30, 0x31],
];

fn marker_colour(j: Judgement) -> u8 {
    5 + j as u8
}

/// The graph's pixels (palette indices), row by row.
pub fn render(game: &GameReport) -> Vec<u8> {
    let (x0, x1, y0, y1) = (MARGIN, WIDTH - MARGIN, MARGIN, HEIGHT - MARGIN);
    let (w, h) = ((x1 - x0) as f64, (y1 - y0) as f64);
    let mut wins = vec![win_percent(game.start_eval)];
    wins.extend(game.plies.iter().map(|p| win_percent(p.eval)));
    let n = (wins.len() - 1).max(1) as f64;
    let y_of = |win: f64| y0 as f64 + h * (1.0 - win / 100.0);
    let mut px = vec![0u8; WIDTH * HEIGHT];
    for x in x0..x1 {
        let t = ((x - x0) as f64 + 0.5) / w * n;
        let i = (t.floor() as usize).min(wins.len().saturating_sub(2));
        let f = (t - i as f64).clamp(0.0, 1.0);
        let win = match wins.get(i + 1) {
            Some(next) => wins[i] * (1.0 - f) + next * f,
            None => wins[i],
        };
        let edge = y_of(win);
        for y in y0..y1 {
            px[y * WIDTH + x] = if y as f64 + 0.5 >= edge { 2 } else { 1 };
        }
    }
    let mid = y_of(50.0).round() as usize;
    for x in (x0..x1).filter(|x| (x - x0) / 4 % 2 == 0) {
        px[mid * WIDTH + x] = 3;
    }
    for p in &game.plies {
        let Some(j) = p.judgement() else { continue };
        let cx = x0 as f64 + w * p.ply as f64 / n;
        let cy = y_of(win_percent(p.eval));
        for y in (cy - 6.0).max(0.0) as usize..((cy + 7.0) as usize).min(HEIGHT) {
            for x in (cx - 6.0).max(0.0) as usize..((cx + 7.0) as usize).min(WIDTH) {
                let d = ((x as f64 + 0.5 - cx).powi(2) + (y as f64 + 0.5 - cy).powi(2)).sqrt();
                if d <= 3.8 {
                    px[y * WIDTH + x] = marker_colour(j);
                } else if d <= 5.3 {
                    px[y * WIDTH + x] = 4;
                }
            }
        }
    }
    px
}

/// The graph as PNG file bytes.
pub fn eval_graph_png(game: &GameReport) -> Vec<u8> {
    encode(&render(game), WIDTH, HEIGHT)
}

/// An 8-bit indexed PNG of `pixels` (row by row) in the palette `PALETTE`.
pub fn encode(pixels: &[u8], width: usize, height: usize) -> Vec<u8> {
    let mut raw = Vec::with_capacity((width + 1) * height);
    for row in pixels.chunks(width) {
        raw.push(0); // filter: none
        raw.extend_from_slice(row);
    }
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&(width as u32).to_be_bytes());
    ihdr.extend_from_slice(&(height as u32).to_be_bytes());
    ihdr.extend_from_slice(&[8, 3, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &ihdr);
    chunk(&mut out, b"PLTE", &PALETTE.concat());
    chunk(&mut out, b"IDAT", &zlib(&raw));
    chunk(&mut out, b"IEND", &[]);
    out
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let crc = crc32(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
}

/// CRC-32 (IEEE, reflected), as PNG chunks use.
pub fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in data {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = (crc >> 1) ^ (0xEDB8_8320 & (crc & 1).wrapping_neg());
        }
    }
    !crc
}

fn adler32(data: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for &x in data {
        a = (a + x as u32) % 65521;
        b = (b + a) % 65521;
    }
    (b << 16) | a
}

/// Writes bits least significant first, as deflate wants.
struct Bits {
    out: Vec<u8>,
    acc: u32,
    n: u32,
}

impl Bits {
    fn put(&mut self, value: u32, count: u32) {
        self.acc |= value << self.n;
        self.n += count;
        while self.n >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.n -= 8;
        }
    }
    /// A Huffman code, which deflate stores most significant bit first.
    fn code(&mut self, code: u32, len: u32) {
        let reversed = code.reverse_bits() >> (32 - len);
        self.put(reversed, len);
    }
    /// A literal/length symbol of the fixed code.
    fn symbol(&mut self, sym: u32) {
        match sym {
            0..=143 => self.code(0x30 + sym, 8),
            144..=255 => self.code(0x190 + sym - 144, 9),
            256..=279 => self.code(sym - 256, 7),
            _ => self.code(0xC0 + sym - 280, 8),
        }
    }
}

const LENGTH_BASE: [u32; 29] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
    163, 195, 227, 258,
];
const LENGTH_EXTRA: [u32; 29] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];

/// A zlib stream: one fixed-Huffman deflate block of literals and distance-1 matches.
pub fn zlib(data: &[u8]) -> Vec<u8> {
    let mut bits = Bits {
        out: vec![0x78, 0x01],
        acc: 0,
        n: 0,
    };
    bits.put(1, 1); // the last block
    bits.put(1, 2); // fixed Huffman codes
    let mut i = 0;
    while i < data.len() {
        let b = data[i];
        bits.symbol(b as u32);
        i += 1;
        loop {
            let run = data[i..].iter().take(258).take_while(|&&x| x == b).count();
            if run < 3 {
                break;
            }
            let k = LENGTH_BASE
                .iter()
                .rposition(|&base| base <= run as u32)
                .expect("run >= 3");
            bits.symbol(257 + k as u32);
            bits.put(run as u32 - LENGTH_BASE[k], LENGTH_EXTRA[k]);
            bits.code(0, 5); // distance 1
            i += run;
        }
    }
    bits.symbol(256);
    if bits.n > 0 {
        bits.put(0, 8 - bits.n);
    }
    let mut out = bits.out;
    out.extend_from_slice(&adler32(data).to_be_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checksums() {
        // Known values: CRC-32 and Adler-32 of "123456789" / "Wikipedia".
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(adler32(b"Wikipedia"), 0x11E6_0398);
        // The IEND chunk's CRC, as in every PNG file.
        assert_eq!(crc32(b"IEND"), 0xAE42_6082);
    }

    #[test]
    fn runs_compress() {
        let data = [vec![7u8; 1000], (0..=255).collect(), vec![0u8; 5]].concat();
        let z = zlib(&data);
        assert_eq!(&z[..2], &[0x78, 0x01]);
        assert!(z.len() < 400, "{}", z.len());
        let png = encode(&[0, 1, 2, 3], 2, 2);
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n") && png.ends_with(&[0xAE, 0x42, 0x60, 0x82]));
    }
}
