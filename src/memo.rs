//! A small, bounded, thread-safe memo of expensive answers that depend only on their key.
//!
//! Used where a kit build asks the same question from several threads: the kit and its host
//! key are laid out side by side, and `build` lays out several kits at once. Each key gets a
//! cell filled once: the first thread to ask computes the answer, any thread asking for the
//! same key meanwhile waits for it rather than compute it again, and threads asking for other
//! keys go on (the lock is held only to find or claim a cell, never while computing). A rayon
//! worker that waits runs the pool's pending jobs meanwhile ([`rayon::yield_now`]), so an
//! answer computed in parallel gets every core, the waiter's too. The memo keeps the `cap`
//! keys claimed last; an older one is forgotten (and computed again if asked).

use std::collections::{HashMap, VecDeque};
use std::hash::Hash;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// One answer: filled once, by the thread that claimed it.
struct Cell<V> {
    value: OnceLock<V>,
    /// A thread is computing the answer (cleared again if that thread panics).
    claimed: AtomicBool,
}

/// The cells by key, and the keys in the order they were claimed.
type Cells<K, V> = Option<(HashMap<K, Arc<Cell<V>>>, VecDeque<K>)>;

/// Clears a claim when the computation it guards unwinds, so that another call can compute.
struct Claim<'a>(&'a AtomicBool, bool);

impl Drop for Claim<'_> {
    fn drop(&mut self) {
        if !self.1 {
            self.0.store(false, Ordering::Release);
        }
    }
}

/// Answers `V` by key `K`, at most `cap` of them (oldest forgotten first).
pub struct Memo<K, V> {
    cells: Mutex<Cells<K, V>>,
    cap: usize,
}

impl<K: Hash + Eq + Clone, V: Clone> Memo<K, V> {
    /// An empty memo keeping at most `cap` answers (`cap` ≥ 1).
    pub const fn new(cap: usize) -> Memo<K, V> {
        Memo {
            cells: Mutex::new(None),
            cap,
        }
    }

    /// The answer for `key`: remembered, or computed by `f` (once, whichever thread asks first).
    /// A panic in `f` leaves the cell empty, so a later call computes it again. `f` must not
    /// wait on another cell of a memo: a worker waiting there runs pending jobs, and one of
    /// them may wait on `key`, whose computation lies below it on the same stack.
    pub fn get_or_compute(&self, key: K, f: impl FnOnce() -> V) -> V {
        let cell = {
            let mut guard = self.cells.lock().unwrap_or_else(|p| p.into_inner());
            let (cells, order) = guard.get_or_insert_with(Default::default);
            match cells.get(&key) {
                Some(c) => c.clone(),
                None => {
                    let c = Arc::new(Cell {
                        value: OnceLock::new(),
                        claimed: AtomicBool::new(false),
                    });
                    if order.len() >= self.cap.max(1) {
                        if let Some(old) = order.pop_front() {
                            cells.remove(&old);
                        }
                    }
                    order.push_back(key.clone());
                    cells.insert(key, c.clone());
                    c
                }
            }
        };
        let mut f = Some(f);
        loop {
            if let Some(v) = cell.value.get() {
                return v.clone();
            }
            if !cell.claimed.swap(true, Ordering::AcqRel) {
                if let Some(f) = f.take() {
                    let mut claim = Claim(&cell.claimed, false);
                    let v = f();
                    let _ = cell.value.set(v.clone());
                    claim.1 = true;
                    return v;
                }
            }
            // Another thread is computing it: help the pool (that thread's parallel work
            // included) meanwhile, or wait a moment when there is nothing to run.
            match rayon::yield_now() {
                Some(rayon::Yield::Executed) => {}
                _ => std::thread::sleep(std::time::Duration::from_micros(50)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn one_computation_per_key_across_threads_and_oldest_forgotten() {
        let memo: Memo<u32, u32> = Memo::new(2);
        let runs = AtomicUsize::new(0);
        let slow = |k: u32| {
            runs.fetch_add(1, Ordering::SeqCst);
            std::thread::sleep(std::time::Duration::from_millis(20));
            k * 10
        };
        // Four threads ask for key 1 at once: computed once, all get 10.
        std::thread::scope(|s| {
            let hs: Vec<_> = (0..4)
                .map(|_| s.spawn(|| memo.get_or_compute(1, || slow(1))))
                .collect();
            for h in hs {
                assert_eq!(h.join().unwrap(), 10);
            }
        });
        assert_eq!(runs.load(Ordering::SeqCst), 1);
        assert_eq!(memo.get_or_compute(2, || slow(2)), 20);
        assert_eq!(runs.load(Ordering::SeqCst), 2);
        // A third key pushes out key 1 (cap 2): asked again, it is computed again.
        assert_eq!(memo.get_or_compute(3, || slow(3)), 30);
        assert_eq!(
            memo.get_or_compute(2, || unreachable!("key 2 is remembered")),
            20
        );
        assert_eq!(memo.get_or_compute(1, || slow(1)), 10);
        assert_eq!(runs.load(Ordering::SeqCst), 4);
    }

    #[test]
    fn a_panicking_computation_leaves_the_key_to_be_computed_again() {
        let memo: Memo<u32, u32> = Memo::new(4);
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            memo.get_or_compute(7, || panic!("the first computation fails"))
        }));
        assert!(r.is_err());
        // The claim was given up: this call computes (it would wait for ever otherwise).
        assert_eq!(memo.get_or_compute(7, || 70), 70);
        assert_eq!(memo.get_or_compute(7, || 0), 70);
    }
}
