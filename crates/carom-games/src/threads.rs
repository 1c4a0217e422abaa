//! The thread pool the games layer's searches run on when the caller has none of its
//! own: the search player's candidate shots ([`crate::batch::play_shots`]) and an
//! aim's sweep ([`crate::aim`]) run on the current rayon pool, which outside any pool
//! is rayon's global one. A process forked after that pool was started (Python's
//! `multiprocessing` on Linux) has none of its threads, and work handed to them
//! waits for ever; [`install`] gives each process a pool of its own.

use std::sync::{Arc, Mutex};

/// This process's pool, with the process that made it.
static OWN: Mutex<Option<(u32, Arc<rayon::ThreadPool>)>> = Mutex::new(None);

/// Runs `f` on this process's own pool (all cores), made at the first call, and made
/// again in a process forked from the one that made it. The parent's pool is then
/// left be, not dropped: dropping it would signal threads that are not there. Where
/// the system refuses the threads, `f` runs on this thread; the searches' results do
/// not depend on the threads.
pub fn install<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    let pool = {
        let mut own = OWN.lock().unwrap_or_else(|e| e.into_inner());
        let here = std::process::id();
        if own.as_ref().is_some_and(|(made, _)| *made != here) {
            std::mem::forget(own.take());
        }
        if own.is_none() {
            if let Ok(p) = rayon::ThreadPoolBuilder::new().build() {
                *own = Some((here, Arc::new(p)));
            }
        }
        own.as_ref().map(|(_, p)| Arc::clone(p))
    };
    match pool {
        Some(p) => p.install(f),
        None => f(),
    }
}

#[cfg(test)]
mod tests {
    use super::install;

    #[test]
    fn work_runs_on_the_process_pool_and_its_value_comes_back() {
        // Inside the pool a thread has an index; the same pool serves the next call.
        let (index, threads) =
            install(|| (rayon::current_thread_index(), rayon::current_num_threads()));
        assert!(index.is_some());
        assert_eq!(install(rayon::current_num_threads), threads);
        assert_eq!(install(|| 6 * 7), 42);
    }
}
