//! glibc's allocator, tuned for one short run that allocates large buffers.
//!
//! By default glibc serves each allocation past its mmap threshold (128 kB, rising with what
//! is freed) with a fresh `mmap` and returns it to the system when freed, so every large
//! buffer of a build (images, masks, the JSON text, the solver's matrices) is faulted in and
//! zeroed by the kernel page by page, again for the next one: for the Race Stack map `f` that
//! was 5,700 page faults and a sixth of the run. Serving them from the heap and keeping freed
//! memory for the next allocation halves the faults; the peak memory stays the same.

/// Raises the mmap and trim thresholds; call first thing in `main`, before any thread exists.
#[cfg(all(unix, target_env = "gnu"))]
pub fn tune() {
    // Allocations below 256 MiB come from the heap; up to 512 MiB of freed heap is kept, and
    // the heap grows 64 MiB at a time.
    const MMAP_THRESHOLD: libc::c_int = 256 << 20;
    const TRIM_THRESHOLD: libc::c_int = 512 << 20;
    const TOP_PAD: libc::c_int = 64 << 20;
    // SAFETY: mallopt only changes allocator parameters; called before any other thread runs.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
        libc::mallopt(libc::M_TRIM_THRESHOLD, TRIM_THRESHOLD);
        libc::mallopt(libc::M_TOP_PAD, TOP_PAD);
    }
}

/// Nothing to tune with another allocator.
#[cfg(not(all(unix, target_env = "gnu")))]
pub fn tune() {}
