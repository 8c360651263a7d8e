//! Two independent pieces of work side by side, where a second core is free.
//!
//! A single `build` or `raceline` leaves the second core idle through most of its min-time
//! line (the SP beside it ends after a few milliseconds); a batch runs one track per core in a
//! rayon pool, where a second thread would only contend. [`both`] runs its two closures on
//! two threads in the first case and one after the other in the second: the two share
//! nothing mutable, so the results are the same bit for bit either way.

use std::sync::OnceLock;

#[cfg(test)]
thread_local! {
    /// Tests: side by side or not whatever the machine (`None`: [`second_core_free`] decides).
    pub(crate) static SIDE_BY_SIDE: std::cell::Cell<Option<bool>> = const { std::cell::Cell::new(None) };
}

/// Whether a second thread may run beside this one: the machine has a second core, and this
/// thread is not one of a rayon pool's (a batch already runs one track per core).
pub(crate) fn second_core_free() -> bool {
    #[cfg(test)]
    if let Some(forced) = SIDE_BY_SIDE.with(|s| s.get()) {
        return forced;
    }
    static CORES: OnceLock<usize> = OnceLock::new();
    let cores = *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    cores >= 2 && rayon::current_thread_index().is_none()
}

/// `(a(), b())`, `b` on a second thread beside `a` where [`second_core_free`], else `a` then
/// `b` on this thread.
pub(crate) fn both<A, B: Send>(a: impl FnOnce() -> A, b: impl FnOnce() -> B + Send) -> (A, B) {
    if !second_core_free() {
        return (a(), b());
    }
    std::thread::scope(|scope| {
        let b = scope.spawn(b);
        let a = a();
        let b = b.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
        (a, b)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_returns_each_closures_result_in_order() {
        for side_by_side in [false, true] {
            SIDE_BY_SIDE.with(|s| s.set(Some(side_by_side)));
            let data: Vec<u64> = (1..=1000).collect();
            let (a, b) = both(
                || data[..500].iter().sum::<u64>(),
                || data[500..].iter().map(|v| v * 2).collect::<Vec<_>>(),
            );
            assert_eq!(a, 125_250);
            assert_eq!(b.len(), 500);
            assert_eq!(b[0], 1002);
            SIDE_BY_SIDE.with(|s| s.set(None));
        }
    }
}
