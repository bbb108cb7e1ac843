//! The keys of earlier positions in a game, for repetition detection.

/// Keys of the positions before the current one, oldest first.
///
/// Push the current key before each move and pop it when the move is taken back.
/// Only the last `halfmoves` entries can repeat the current position: a capture or a pawn
/// move in between makes earlier positions unreachable.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeyHistory {
    keys: Vec<u64>,
}

impl KeyHistory {
    pub fn new() -> KeyHistory {
        KeyHistory {
            keys: Vec::with_capacity(512),
        }
    }
    #[inline]
    pub fn push(&mut self, key: u64) {
        self.keys.push(key);
    }
    #[inline]
    pub fn pop(&mut self) -> Option<u64> {
        self.keys.pop()
    }
    pub fn clear(&mut self) {
        self.keys.clear();
    }
    pub fn len(&self) -> usize {
        self.keys.len()
    }
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// How many earlier positions, within the last `halfmoves` plies and with the same
    /// side to move, have this key.
    pub fn count(&self, key: u64, halfmoves: u32) -> usize {
        let n = self.keys.len();
        let window = (halfmoves as usize).min(n);
        (2..=window)
            .step_by(2)
            .filter(|&back| self.keys[n - back] == key)
            .count()
    }

    /// Whether the current position (`key`) has occurred before in the window.
    #[inline]
    pub fn is_repetition(&self, key: u64, halfmoves: u32) -> bool {
        let n = self.keys.len();
        let window = (halfmoves as usize).min(n);
        let mut back = 4;
        while back <= window {
            if self.keys[n - back] == key {
                return true;
            }
            back += 2;
        }
        false
    }
}
