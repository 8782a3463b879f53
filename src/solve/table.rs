//! The transposition table: proven `[lo, hi]` bounds on a position's future gain, keyed by a
//! lossless compact key, in 4-entry buckets; grows by doubling up to a memory cap.

use crate::engine::Rules;

/// A compact, lossless position key: a leading 1 bit, then each pit's count in unary (that
/// many 1 bits and a 0), the side to move, and (when `stores` is asked for) both stores in 16
/// bits each. Never 0.
pub(crate) type Key = u128;

/// The key of a position (`holes` as in [`crate::engine::Position`]), or `None` when it needs
/// more than 128 bits (more than about `125 - 2n` seeds in the pits, fewer with stores).
pub(crate) fn key(rules: &Rules, holes: &[u16], to_move: u8, stores: bool) -> Option<Key> {
    let sum: u32 = holes[..2 * rules.pits_per_side()]
        .iter()
        .map(|&x| x as u32)
        .sum();
    key_with_sum(rules, holes, sum, to_move, stores)
}

/// [`key`] for a caller that knows `sum`, the seeds in the pits (a game knows its seeds in
/// all, so the pits' are those less the stores'): no pass over the pits to add them up.
#[inline]
pub(crate) fn key_with_sum(
    rules: &Rules,
    holes: &[u16],
    sum: u32,
    to_move: u8,
    stores: bool,
) -> Option<Key> {
    let pits = &holes[..2 * rules.pits_per_side()];
    debug_assert_eq!(sum, pits.iter().map(|&x| x as u32).sum::<u32>());
    let pits_bits = 1 + sum + pits.len() as u32 + 1;
    let bits = pits_bits + if stores { 32 } else { 0 };
    if bits > 128 {
        return None;
    }
    // Built from the lowest bit up: every bit below the leading 1 is a one except the side
    // to move's (when 0) and each pit's closing zero, at 1 for the last pit and `c + 1` above
    // the one before for a pit of `c` seeds. So: all ones up to the leading 1, those zeros
    // cleared: no chain of variable shifts of the whole key, one per pit, as shifting each
    // pit's run in did (a Kalah 6×4 kit: 13.3 M instructions in this function, now 12.2 M).
    let top = pits_bits - 1;
    let mut k: u128 = if pits_bits <= 64 {
        // Late in a game most keys fit one machine word.
        let mut k = u64::MAX >> (63 - top);
        let mut at = 1u32;
        for &c in pits.iter().rev() {
            k ^= 1 << at;
            at += c as u32 + 1;
        }
        k as u128
    } else {
        // Two words; `at` stays below `top` < 128.
        let (mut lo, mut hi) = (u64::MAX, u64::MAX >> (127 - top));
        let mut at = 1u32;
        for &c in pits.iter().rev() {
            let bit = 1u64 << (at & 63);
            if at < 64 {
                lo ^= bit;
            } else {
                hi ^= bit;
            }
            at += c as u32 + 1;
        }
        (lo as u128) | ((hi as u128) << 64)
    };
    k ^= (to_move == 0) as u128;
    if stores {
        k = (k << 16) | holes[pits.len()] as u128;
        k = (k << 16) | holes[pits.len() + 1] as u128;
    }
    Some(k)
}

/// What the table holds for a position.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    /// Proven lower bound on the future gain.
    pub lo: i16,
    /// Proven upper bound.
    pub hi: i16,
    /// Best move found (`pit * 2 + dir`), if any.
    pub mv: Option<u8>,
}

const WAYS: usize = 4;
const ENTRY_BYTES: usize = 24;

/// The keys of one bucket (`[low, high]` each; `[0, 0]` is an empty slot), one cache line: a
/// probe that misses reads this line alone.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
#[repr(C, align(64))]
struct Keys([[u64; 2]; WAYS]);

/// Slot `i` is way `i % WAYS` of bucket `i / WAYS`: its key in `keys`, its data in `data`
/// (lo (16 bits), hi (16), move+1 (8), work (8); 0 for an empty slot).
pub(crate) struct Table {
    keys: Vec<Keys>,
    data: Vec<[u64; WAYS]>,
    used: usize,
    cap_slots: usize,
    /// Slots filled since the table was made, while it has its first size: on drop, only
    /// these are cleared and the buffers go back to [`POOL`] for the next table.
    dirty: Vec<u32>,
    /// The table grew, so `dirty` no longer lists the filled slots (nothing is pooled).
    grown: bool,
}

/// Buffers of this many slots or fewer are kept for reuse ([`POOL`]): the first size of a
/// table capped at 4 MiB or more, and every [`crate::solve::within`] solver's table.
const POOL_SLOTS: usize = 1 << 16;

/// A table's cleared buffers: keys and data by bucket, and its emptied list of filled slots
/// (a new table grew one again by doubling: 2 k allocations in `build rulesets`, dhat).
type Buffers = (Vec<Keys>, Vec<[u64; WAYS]>, Vec<u32>);

thread_local! {
    /// Cleared buffers of dropped tables, at most two a thread. A kit asks the solver
    /// hundreds of times (set-up endgames), each with a fresh table: zeroing 1.5 MiB a time
    /// was a third of an Oware kit's instructions (990 M of 2,970 M, callgrind), while a small
    /// solve fills a few hundred slots.
    static POOL: std::cell::RefCell<Vec<Buffers>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// `n` default (all-zero) values, their memory mapped for writing in one step where the system
/// can. A table's first stores land all over its 1.5 MiB: page by page, each page was first
/// mapped to the shared zero page by a probe, then copied on the store's write with a TLB flush
/// on every core (a tenth of a Kalah 6x4 kit build's CPU time, perf).
fn zeroed<T: Copy + Default>(n: usize) -> Vec<T> {
    let mut v: Vec<T> = Vec::with_capacity(n);
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let start = v.as_ptr() as usize;
        let first = start.div_ceil(PAGE) * PAGE;
        let end = start + n * std::mem::size_of::<T>();
        if end >= first + PAGE {
            // SAFETY: the range [first, first + len) lies inside the vector's allocation;
            // MADV_POPULATE_WRITE only maps its pages (it never changes memory contents), and
            // an error (a kernel before 5.14) leaves the pages to be mapped on first use.
            unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    (end - first) / PAGE * PAGE,
                    libc::MADV_POPULATE_WRITE,
                );
            }
        }
    }
    v.resize(n, T::default());
    v
}

fn index(k: Key, buckets: usize) -> usize {
    let x = (k as u64) ^ ((k >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let x = (x ^ (x >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    let x = x ^ (x >> 32);
    (x as usize) & (buckets - 1)
}

impl Table {
    /// A table that may grow to `memory_mb` mebibytes (0: no table).
    pub fn new(memory_mb: usize) -> Table {
        Table::capped(memory_mb, usize::MAX)
    }

    /// [`Table::new`] holding at most `max_slots` entries (rounded down to a power of two).
    pub fn capped(memory_mb: usize, max_slots: usize) -> Table {
        let max = (memory_mb.saturating_mul(1 << 20) / ENTRY_BYTES).min(max_slots);
        // Largest power-of-two number of buckets within the cap.
        let mut cap = 0usize;
        if max >= WAYS {
            cap = WAYS;
            while cap * 2 <= max {
                cap *= 2;
            }
        }
        let start = cap.min(POOL_SLOTS);
        let buckets = start / WAYS;
        let pooled = POOL
            .try_with(|p| {
                let mut p = p.borrow_mut();
                let i = p.iter().position(|v| v.0.len() == buckets)?;
                Some(p.swap_remove(i))
            })
            .ok()
            .flatten();
        let (keys, data, dirty) =
            pooled.unwrap_or_else(|| (zeroed(buckets), zeroed(buckets), Vec::new()));
        Table {
            keys,
            data,
            used: 0,
            cap_slots: cap,
            dirty,
            grown: false,
        }
    }

    /// Entries in use.
    pub fn used(&self) -> usize {
        self.used
    }

    /// Bytes allocated.
    pub fn bytes(&self) -> usize {
        self.slots() * ENTRY_BYTES
    }

    fn slots(&self) -> usize {
        self.keys.len() * WAYS
    }

    fn buckets(&self) -> usize {
        self.keys.len()
    }

    /// Asks the processor to fetch the bucket of `k` into its cache ahead of a [`Table::probe`]
    /// or [`Table::store`] of it (a hint: nothing is read or changed).
    pub fn prefetch(&self, k: Key) {
        if self.keys.is_empty() {
            return;
        }
        let b = index(k, self.buckets());
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            // SAFETY: SSE is part of every x86_64 processor, and a prefetch of an address
            // inside the table's buffers reads and writes nothing.
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(self.keys[b].0.as_ptr().cast());
                _mm_prefetch::<_MM_HINT_T0>(self.data[b].as_ptr().cast());
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = b;
    }

    pub fn probe(&self, k: Key) -> Option<Entry> {
        if self.keys.is_empty() {
            return None;
        }
        let b = index(k, self.buckets());
        let (klo, khi) = (k as u64, (k >> 64) as u64);
        for (w, s) in self.keys[b].0.iter().enumerate() {
            if s[0] == klo && s[1] == khi {
                let d = self.data[b][w];
                let mv = ((d >> 32) & 0xFF) as u8;
                return Some(Entry {
                    lo: d as u16 as i16,
                    hi: (d >> 16) as u16 as i16,
                    mv: mv.checked_sub(1),
                });
            }
        }
        None
    }

    /// Records bounds `[lo, hi]` (intersected with what is there) and the best move; `work`
    /// (positions searched) decides which entry of a full bucket to replace.
    pub fn store(&mut self, k: Key, lo: i32, hi: i32, mv: Option<u8>, work: u64) {
        if self.keys.is_empty() {
            return;
        }
        if self.used * 4 >= self.slots() * 3 && self.slots() < self.cap_slots {
            self.grow();
        }
        let w = (64 - work.leading_zeros()) as u64;
        let b = index(k, self.buckets());
        let (klo, khi) = (k as u64, (k >> 64) as u64);
        let pack = |lo: i32, hi: i32, mv: Option<u8>, w: u64| -> u64 {
            (lo as i16 as u16 as u64)
                | ((hi as i16 as u16 as u64) << 16)
                | ((mv.map_or(0, |m| m + 1) as u64) << 32)
                | (w.min(255) << 40)
        };
        let mut victim = 0;
        let mut victim_w = u64::MAX;
        for i in 0..WAYS {
            let s = self.keys[b].0[i];
            let d = self.data[b][i];
            if s[0] == klo && s[1] == khi {
                let olo = d as u16 as i16 as i32;
                let ohi = (d >> 16) as u16 as i16 as i32;
                let ow = (d >> 40) & 0xFF;
                let (nlo, nhi) = (lo.max(olo), hi.min(ohi));
                let omv = (((d >> 32) & 0xFF) as u8).checked_sub(1);
                self.data[b][i] = pack(nlo, nhi.max(nlo), mv.or(omv), w.max(ow));
                return;
            }
            if s[0] == 0 && s[1] == 0 {
                if victim_w != 0 {
                    victim = i;
                    victim_w = 0;
                }
                continue;
            }
            let sw = (d >> 40) & 0xFF;
            if sw < victim_w {
                victim = i;
                victim_w = sw;
            }
        }
        if self.keys[b].0[victim] == [0, 0] && self.data[b][victim] == 0 {
            self.used += 1;
            if !self.grown {
                self.dirty.push((b * WAYS + victim) as u32);
            }
        }
        self.keys[b].0[victim] = [klo, khi];
        self.data[b][victim] = pack(lo, hi, mv, w);
    }

    fn grow(&mut self) {
        self.grown = true;
        self.dirty = Vec::new();
        let old_keys = std::mem::take(&mut self.keys);
        let old_data = std::mem::take(&mut self.data);
        self.keys = zeroed(old_keys.len() * 2);
        self.data = zeroed(old_keys.len() * 2);
        self.used = 0;
        let buckets = self.buckets();
        // Old slots in slot order, each into the first empty way of its new bucket.
        for (ks, ds) in old_keys.iter().zip(&old_data) {
            for (s, &d) in ks.0.iter().zip(ds) {
                if s[0] == 0 && s[1] == 0 {
                    continue;
                }
                let k = (s[0] as u128) | ((s[1] as u128) << 64);
                let b = index(k, buckets);
                if let Some(i) = (0..WAYS).find(|&i| self.keys[b].0[i] == [0, 0]) {
                    self.keys[b].0[i] = *s;
                    self.data[b][i] = d;
                    self.used += 1;
                }
            }
        }
    }
}

impl Drop for Table {
    /// Gives buffers of the first size back to [`POOL`], cleared (only the filled slots are
    /// written), so the next table starts as a fresh `vec![0; n]` would.
    fn drop(&mut self) {
        if self.grown || self.keys.is_empty() || self.slots() > POOL_SLOTS {
            return;
        }
        let mut keys = std::mem::take(&mut self.keys);
        let mut data = std::mem::take(&mut self.data);
        let mut dirty = std::mem::take(&mut self.dirty);
        for &i in &dirty {
            let (b, w) = (i as usize / WAYS, i as usize % WAYS);
            keys[b].0[w] = [0, 0];
            data[b][w] = 0;
        }
        dirty.clear();
        // Checked over the whole buffers only in this module's tests: in every debug build
        // (the fuzz targets are built with debug assertions) the scan of 1.5 MiB at each of a
        // kit's hundreds of solves was a sixth of the kit target's time (perf on the fuzzer).
        #[cfg(test)]
        {
            assert!(keys.iter().all(|k| *k == Keys::default()));
            assert!(data.iter().all(|d| *d == [0; WAYS]));
        }
        let _ = POOL.try_with(|p| {
            let mut p = p.borrow_mut();
            if p.len() < 2 {
                p.push((keys, data, dirty));
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The key written out as the module doc says, as a string of bits, read as a number.
    fn key_by_hand(holes: &[u16], pits: usize, to_move: u8) -> Option<u128> {
        let mut bits = String::from("1");
        for &c in &holes[..pits] {
            bits.push_str(&"1".repeat(c as usize));
            bits.push('0');
        }
        bits.push(if to_move == 1 { '1' } else { '0' });
        (bits.len() <= 128).then(|| u128::from_str_radix(&bits, 2).unwrap())
    }

    /// A table filled with 3,000 entries and dropped gives its
    /// buffers back cleared: the next table of that size, made from them, finds none of the
    /// old keys, and its buffers are all zero (the drop itself asserts the latter in tests).
    #[test]
    fn a_pooled_table_starts_empty() {
        let keys: Vec<Key> = (1..=3_000u128)
            .map(|i| i * 0x9E37_79B9_7F4A_7C15_1234)
            .collect();
        {
            let mut t = Table::new(1);
            assert!(t.slots() > 0 && t.slots() <= POOL_SLOTS);
            for (i, &k) in keys.iter().enumerate() {
                t.store(k, -1, 1, Some((i % 6) as u8), i as u64);
            }
            assert!(keys.iter().any(|&k| t.probe(k).is_some()));
        }
        let pooled = POOL.with(|p| p.borrow().len());
        assert!(pooled >= 1, "the dropped table's buffers were not pooled");
        let t = Table::new(1);
        assert_eq!(t.used(), 0);
        assert!(keys.iter().all(|&k| t.probe(k).is_none()));
        assert!(t.keys.iter().all(|k| *k == Keys::default()));
        assert!(t.data.iter().all(|d| *d == [0; WAYS]));
    }

    #[test]
    fn keys_on_both_sides_of_64_bits_are_the_unary_bit_string() {
        let b = crate::bundled::get("kalah-6x4").expect("bundled");
        let rs = crate::ruleset::load::load_str("kalah-6x4.toml", b.source).expect("loads");
        let rules = Rules::new(&rs);
        // 12 pits: 1 + 12 + 1 = 14 bits and the seeds; 50 seeds is the last 64-bit key.
        let mut x: u32 = 12345;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        };
        let mut sizes = std::collections::BTreeSet::new();
        for total in [0u32, 1, 10, 49, 50, 51, 52, 80, 113, 114, 115, 140] {
            for t in 0..2u8 {
                let mut h = vec![0u16; 14];
                for _ in 0..total {
                    h[(next() % 12) as usize] += 1;
                }
                let want = key_by_hand(&h, 12, t);
                assert_eq!(key(&rules, &h, t, false), want, "{h:?}");
                if let Some(w) = want {
                    sizes.insert(128 - w.leading_zeros());
                }
            }
        }
        // Both paths were taken: keys of 64 bits or fewer and longer ones.
        assert!(sizes.iter().any(|&n| n <= 64) && sizes.iter().any(|&n| n > 64));
        assert!(sizes.contains(&64) && sizes.contains(&65), "{sizes:?}");
    }
}
