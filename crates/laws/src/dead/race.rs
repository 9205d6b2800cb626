//! Both sides' unwinnability analyses at once (Art. 5.2 b / 5.2.2: a
//! position is alive as soon as *either* side is proven able to mate).
//!
//! The exact solver cannot be stopped part-way, and which side it answers
//! quicker differs by 100× and more between positions (the laws bench's
//! `--solver-probe`: in its worst positions both sides can mate, one in
//! tens of microseconds, the other in tens of milliseconds). Asking both at
//! once, on two worker threads, lets the caller go on with the first
//! helpmate found: the wait is the quicker side's, whichever it is. The
//! slower analysis runs to its end on its worker (its answer is dropped),
//! so this costs CPU time for latency; the workers are few and bounded
//! ([`MAX_WORKERS`]), and when none are free the caller asks the two sides
//! one after the other, as without racing.

use super::{Unwinnability, Verdict};
use arbiter_chess::{Color, Move, Position};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};

/// Worker threads kept at most, over all detectors of the process.
pub const MAX_WORKERS: usize = 4;

/// One side's answer: the colour asked, the verdict and its line.
pub(super) type Answer = (Color, Verdict, Option<Vec<Move>>);

type Job = Box<dyn FnOnce() + Send>;

/// Idle workers (each waits on its own job channel) and how many exist.
struct Pool {
    idle: Mutex<Vec<Sender<Job>>>,
    workers: AtomicUsize,
}

static POOL: Pool = Pool {
    idle: Mutex::new(Vec::new()),
    workers: AtomicUsize::new(0),
};

impl Pool {
    /// `n` workers for the caller alone, idle ones first, new ones while
    /// fewer than [`MAX_WORKERS`] exist; `None` (and nothing taken) if there
    /// are not `n`.
    fn take(&'static self, n: usize) -> Option<Vec<Sender<Job>>> {
        let mut idle = self.idle.lock().ok()?;
        let spawn = n.saturating_sub(idle.len());
        let exist = self.workers.load(Ordering::Acquire);
        if exist + spawn > MAX_WORKERS {
            return None;
        }
        let keep = idle.len() - (n - spawn);
        let mut taken: Vec<Sender<Job>> = idle.drain(keep..).collect();
        drop(idle);
        for _ in 0..spawn {
            match self.spawn() {
                Some(tx) => taken.push(tx),
                None => {
                    // Could not start a thread: give back what was taken.
                    self.idle.lock().ok()?.extend(taken);
                    return None;
                }
            }
        }
        Some(taken)
    }

    /// A new worker: runs one job at a time, then offers itself again.
    fn spawn(&'static self) -> Option<Sender<Job>> {
        let (tx, rx): (Sender<Job>, Receiver<Job>) = channel();
        let me = tx.clone();
        self.workers.fetch_add(1, Ordering::AcqRel);
        let started = std::thread::Builder::new()
            .name("arbiter-dead-race".into())
            .spawn(move || {
                while let Ok(job) = rx.recv() {
                    // A panicking analysis loses its answer (the caller
                    // then reads "undecided"), not the worker.
                    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
                    match self.idle.lock() {
                        Ok(mut idle) => idle.push(me.clone()),
                        Err(_) => break,
                    }
                }
                self.workers.fetch_sub(1, Ordering::AcqRel);
            });
        if started.is_err() {
            self.workers.fetch_sub(1, Ordering::AcqRel);
            return None;
        }
        Some(tx)
    }
}

/// Starts `solver` on `pos` for both `colors` at once; the answers come on
/// the receiver as they are found. `None` if two workers are not free (ask
/// one side after the other instead).
pub(super) fn start(
    solver: &Arc<dyn Unwinnability>,
    pos: &Position,
    colors: [Color; 2],
) -> Option<Receiver<Answer>> {
    let workers = POOL.take(2)?;
    let (tx, rx) = channel();
    for (worker, color) in workers.into_iter().zip(colors) {
        let (solver, pos, tx) = (Arc::clone(solver), *pos, tx.clone());
        let job: Job = Box::new(move || {
            let (v, line) = solver.solve(&pos, color);
            // The caller may have gone on already: then nobody listens.
            let _ = tx.send((color, v, line));
        });
        if let Err(e) = worker.send(job) {
            // The worker is gone: ask this side here instead.
            (e.0)();
        }
    }
    Some(rx)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ChaSolver;

    #[test]
    fn both_answers_come_and_workers_are_bounded() {
        let solver: Arc<dyn Unwinnability> = Arc::new(ChaSolver);
        let pos = Position::standard();
        let rx = start(&solver, &pos, [Color::White, Color::Black]).unwrap();
        let mut got: Vec<Answer> = rx.iter().take(2).collect();
        got.sort_by_key(|a| a.0.index());
        assert_eq!(got[0].0, Color::White);
        assert_eq!(got[1].0, Color::Black);
        assert!(got.iter().all(|a| a.1 == Verdict::Winnable));
        assert!(POOL.workers.load(Ordering::Acquire) <= MAX_WORKERS);
    }
}
