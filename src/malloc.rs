//! glibc's allocator, tuned for one short run that allocates large buffers.
//!
//! By default glibc serves each allocation past its mmap threshold (128 kB, rising with what
//! is freed) with a fresh `mmap` and returns it to the system when freed, so every large
//! buffer of a build (images, masks, the JSON text, the solver's matrices) is faulted in and
//! zeroed by the kernel page by page, again for the next one: for the Race Stack map `f` that
//! was 5,700 page faults and a sixth of the run. Serving them from the heap and keeping freed
//! memory for the next allocation halves the faults; the peak memory stays the same.
//!
//! With memory kept, each thread's own arena (glibc gives threads arenas of their own) would
//! hold on to what that thread freed, out of reach of the others: one arena for all the
//! threads (a build has a few, each allocating a handful of large buffers, so they hardly
//! contend) keeps the peak at what is live at once. `build --force` of `f`: 20.4 → 19.1 MB.

/// Raises the mmap and trim thresholds; call first thing in `main`, before any thread exists.
#[cfg(all(unix, target_env = "gnu"))]
pub fn tune() {
    // Allocations below 256 MiB come from the heap; up to 512 MiB of freed heap is kept, the
    // heap grows 64 MiB at a time, and every thread allocates from the one heap.
    const MMAP_THRESHOLD: libc::c_int = 256 << 20;
    const TRIM_THRESHOLD: libc::c_int = 512 << 20;
    const TOP_PAD: libc::c_int = 64 << 20;
    // SAFETY: mallopt only changes allocator parameters; called before any other thread runs.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
        libc::mallopt(libc::M_TRIM_THRESHOLD, TRIM_THRESHOLD);
        libc::mallopt(libc::M_TOP_PAD, TOP_PAD);
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}

/// Nothing to tune with another allocator.
#[cfg(not(all(unix, target_env = "gnu")))]
pub fn tune() {}
