//! Ctrl-C and SIGTERM: remove this run's unfinished staging folders, then exit.
//!
//! The two signals are blocked in every thread (threads inherit the mask of `main`, which
//! blocks them before any other thread exists); one thread waits for them with `sigwait`, so
//! the cleanup runs as ordinary code, not in a signal handler. It waits for a set that is being
//! moved into place to finish ([`mapzoo_format::set::interrupt_cleanup`]), removes the staging
//! folders, says so and exits with 128 + the signal number (130 for Ctrl-C, 143 for SIGTERM).
//!
//! SIGXFSZ (a file grew past `ulimit -f`) is ignored, so the write that hits the limit fails
//! with EFBIG and goes through the ordinary error path (message, staging folder removed), as a
//! full disk does, instead of killing the process silently.

/// Installs the cleanup; call first thing in `main`, before any thread is spawned.
#[cfg(unix)]
pub fn install() {
    // SAFETY: setting a signal's disposition to SIG_IGN installs no handler code.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    // SAFETY: plain libc calls on a local, zero-initialised signal set; `pthread_sigmask` only
    // changes this thread's mask, which the threads spawned later inherit.
    let set = unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGINT);
        libc::sigaddset(&mut set, libc::SIGTERM);
        if libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) != 0 {
            return;
        }
        set
    };
    let spawned = std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            let mut sig: libc::c_int = 0;
            // SAFETY: `set` is a valid signal set and `sig` a valid out-pointer.
            if unsafe { libc::sigwait(&set, &mut sig) } != 0 {
                return;
            }
            let removed = mapzoo_format::set::interrupt_cleanup();
            let name = if sig == libc::SIGINT { "Ctrl-C" } else { "SIGTERM" };
            if removed.is_empty() {
                eprintln!("interrupted ({name})");
            } else {
                eprintln!(
                    "interrupted ({name}): removed {} unfinished staging folder(s); existing sets were left as they were",
                    removed.len()
                );
            }
            std::process::exit(128 + sig);
        });
    if spawned.is_err() {
        // No watcher: let the signals act as they would without one.
        // SAFETY: as above, unblocking the same set in this thread.
        unsafe {
            libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
        }
    }
}

/// Elsewhere the default handling stays (the next run removes stale staging folders).
#[cfg(not(unix))]
pub fn install() {}

/// Commands that have done their work ([`finished`]). A time limit belongs to the command that
/// was running when it was set (the Python package runs several in one process): once that one
/// has finished, the limit does nothing and the run ends with the command's own status; a limit
/// that fired first holds the lock until it exits.
static FINISHED: std::sync::Mutex<u64> = std::sync::Mutex::new(0);

/// The command has done its work (called when it returns, before its status is reported): its
/// time limit no longer ends the run with 2.
pub fn finished() {
    *FINISHED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner) += 1;
}

/// Ends the run after `seconds` of wall time (`--max-seconds`, the configuration's
/// `max_seconds`) as an interruption does: waits for a set being moved into place, removes this
/// run's staging folders, says so and exits with 2. Sets finished before are kept; a limit
/// reached once the command has returned ([`finished`]) does nothing.
pub fn stop_after(seconds: f64, source: &'static str) {
    let Ok(limit) = std::time::Duration::try_from_secs_f64(seconds) else {
        return;
    };
    let run = *FINISHED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let _ = std::thread::Builder::new()
        .name("time limit".into())
        .spawn(move || {
            std::thread::sleep(limit);
            let done = FINISHED
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if *done != run {
                return;
            }
            let removed = mapzoo_format::set::interrupt_cleanup();
            let staging = if removed.is_empty() {
                String::new()
            } else {
                format!(
                    "; removed {} unfinished staging folder(s)",
                    removed.len()
                )
            };
            eprintln!(
                "error: stopped after {} s, the time limit ({source}){staging}; nothing half-written was left and sets finished before were kept. Raise the limit, or set it to 0 for none",
                mapzoo_format::format_number(seconds)
            );
            std::process::exit(2);
        });
}
