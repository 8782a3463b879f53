//! A tiny deterministic pseudo-random generator (xorshift64), for choices that must be the
//! same on every build: practice positions and the rules' sanity playouts. Not for anything
//! that needs real randomness.

/// Xorshift64 state; never zero.
#[derive(Clone, Debug)]
pub struct XorShift(u64);

impl XorShift {
    /// Seeded from `s` (e.g. a ruleset id) by FNV-1a; the same string gives the same sequence.
    pub fn seeded(s: &str) -> XorShift {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in s.bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        XorShift(h | 1)
    }

    /// Seeded from a number; different numbers give different sequences.
    pub fn new(seed: u64) -> XorShift {
        XorShift(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 pseudo-random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_sequence_and_in_range() {
        let mut a = XorShift::seeded("kalah-6x4");
        let mut b = XorShift::seeded("kalah-6x4");
        let mut c = XorShift::seeded("oware-abapa");
        let xs: Vec<usize> = (0..100).map(|_| a.below(6)).collect();
        let ys: Vec<usize> = (0..100).map(|_| b.below(6)).collect();
        let zs: Vec<usize> = (0..100).map(|_| c.below(6)).collect();
        assert_eq!(xs, ys);
        assert_ne!(xs, zs);
        assert!(xs.iter().all(|&x| x < 6));
        assert_eq!(a.below(0), 0);
    }
}
