//! Many tracks at once, in parallel (rayon); one failure never stops the others.

use crate::error::PipelineError;

/// Runs `job` over `items` on `jobs` threads (0 = one per core), calling `done`
/// as each finishes; results come back in input order.
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
    let run = || {
        items
            .par_iter()
            .map(|item| {
                let r = job(item);
                done(item, &r);
                r
            })
            .collect()
    };
    match rayon::ThreadPoolBuilder::new().num_threads(jobs).build() {
        Ok(pool) => pool.install(run),
        Err(_) => run(),
    }
}
