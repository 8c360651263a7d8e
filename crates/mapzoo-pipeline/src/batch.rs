//! Many tracks at once, in parallel (rayon); one failure never stops the others,
//! not even a panic: each track's failure becomes that track's error.

use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::error::PipelineError;

/// The threads a batch runs on: `requested` (0 = one per core), at most one per core.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Jobs {
    /// Threads used.
    pub threads: usize,
    /// Threads asked for, when more than the cores and so lowered to [`Jobs::threads`].
    pub clamped_from: Option<usize>,
}

impl Jobs {
    /// `requested` threads (0 = one per core) on a machine with `cores` cores: never more than
    /// the cores (more threads than cores only add memory and contention), never fewer than 1.
    pub fn new(requested: usize, cores: usize) -> Self {
        let cores = cores.max(1);
        match requested {
            0 => Jobs {
                threads: cores,
                clamped_from: None,
            },
            n if n > cores => Jobs {
                threads: cores,
                clamped_from: Some(n),
            },
            n => Jobs {
                threads: n,
                clamped_from: None,
            },
        }
    }

    /// `requested` threads on this machine.
    pub fn for_this_machine(requested: usize) -> Self {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Jobs::new(requested, cores)
    }

    /// A note for the user when the request was lowered.
    pub fn note(&self) -> Option<String> {
        self.clamped_from.map(|n| {
            format!(
                "{n} parallel jobs asked for, {} used (one per core)",
                self.threads
            )
        })
    }
}

/// Runs `job` over `items` on `jobs` threads (0 = one per core; more than the cores is
/// lowered to the cores, see [`Jobs`]), calling `done` as each finishes; results come back in
/// input order. A job that panics gives [`PipelineError::Internal`] for its item; the others run.
pub fn run_batch<I, T, F, D>(
    items: &[I],
    jobs: usize,
    job: F,
    done: D,
) -> Vec<Result<T, PipelineError>>
where
    I: Sync,
    T: Send,
    F: Fn(&I) -> Result<T, PipelineError> + Sync,
    D: Fn(&I, &Result<T, PipelineError>) + Sync,
{
    use rayon::prelude::*;
    let run_one = |item: &I| {
        let r = run_caught(|| job(item));
        done(item, &r);
        r
    };
    // one item needs no pool: its threads would only be started and stopped
    if items.len() < 2 {
        return items.iter().map(run_one).collect();
    }
    let run = || items.par_iter().map(run_one).collect();
    let threads = Jobs::for_this_machine(jobs).threads;
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(run),
        Err(_) => run(),
    }
}

/// `job()`, with a panic turned into [`PipelineError::Internal`] (a last resort: every known
/// failure is a typed error; a panic is a bug, but it must not take the other tracks with it).
pub fn run_caught<T>(job: impl FnOnce() -> Result<T, PipelineError>) -> Result<T, PipelineError> {
    catch_unwind(AssertUnwindSafe(job)).unwrap_or_else(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        Err(PipelineError::Internal { message })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_never_exceed_the_cores() {
        assert_eq!(Jobs::new(0, 8).threads, 8);
        assert_eq!(
            Jobs::new(3, 8),
            Jobs {
                threads: 3,
                clamped_from: None
            }
        );
        let j = Jobs::new(100_000, 2);
        assert_eq!(j.threads, 2);
        assert!(j.note().unwrap().contains("100000"));
        assert_eq!(Jobs::new(5, 0).threads, 1);
    }

    #[test]
    fn a_panicking_job_is_its_items_error_and_the_others_finish() {
        let items = [1, 2, 3, 4];
        let results = run_batch(
            &items,
            2,
            |&i| {
                if i == 2 {
                    panic!("boom at {i}");
                }
                Ok(i * 10)
            },
            |_, _| {},
        );
        assert_eq!(results.len(), 4);
        assert!(
            matches!(&results[1], Err(PipelineError::Internal { message }) if message.contains("boom at 2"))
        );
        let ok: Vec<i32> = results.iter().flatten().copied().collect();
        assert_eq!(ok, [10, 30, 40]);
    }
}
