//! The exact dead-position analysis (Art. 5.2 b / 5.2.2, 6.9) off the
//! runtime's worker threads.
//!
//! A game's Laws settle most dead-position checks in a microsecond by cheap
//! proofs; the few that need the exact solver can take milliseconds. Those
//! run here under [`tokio::task::block_in_place`]: the game's task waits
//! for its answer (the next move of *that* game waits), while the other
//! tasks of the worker are handed to another thread, so no other game's
//! acknowledgement waits for it. Outside a multi-threaded runtime (tests,
//! tools) the analysis runs in place.

use arbiter_chess::{Color, Move, Position};
use arbiter_laws::{ChaSolver, Unwinnability, Verdict};
use std::sync::Arc;
use tokio::runtime::{Handle, RuntimeFlavor};

/// An [`Unwinnability`] solver whose analyses leave the runtime's worker
/// free for other tasks.
///
/// ```
/// use arbiter_chess::{Color, Position};
/// use arbiter_laws::{ChaSolver, Unwinnability, Verdict};
/// use arbiter_server::game::solver::OffWorker;
/// let solver = OffWorker(ChaSolver);
/// assert_eq!(solver.can_checkmate(&Position::standard(), Color::White), Verdict::Winnable);
/// ```
#[derive(Copy, Clone, Debug, Default)]
pub struct OffWorker<S>(pub S);

impl<S: Unwinnability> Unwinnability for OffWorker<S> {
    fn solve(&self, pos: &Position, winner: Color) -> (Verdict, Option<Vec<Move>>) {
        let run = || self.0.solve(pos, winner);
        match Handle::try_current() {
            Ok(h) if h.runtime_flavor() == RuntimeFlavor::MultiThread => {
                tokio::task::block_in_place(run)
            }
            _ => run(),
        }
    }

    fn shares_verdicts(&self) -> bool {
        self.0.shares_verdicts()
    }
}

/// The solver the server's games use: chasolver, off the worker.
pub fn games_solver() -> Arc<dyn Unwinnability> {
    Arc::new(OffWorker(ChaSolver))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    /// A solver that takes `0` to answer.
    struct Slow(Duration);

    impl Unwinnability for Slow {
        fn solve(&self, _: &Position, _: Color) -> (Verdict, Option<Vec<Move>>) {
            std::thread::sleep(self.0);
            (Verdict::Unknown, None)
        }
    }

    /// One worker thread: a task in a 600 ms analysis must not hold up a
    /// short task spawned beside it (it would wait the whole analysis if
    /// the analysis ran on the worker).
    #[tokio::test(flavor = "multi_thread", worker_threads = 1)]
    async fn a_long_analysis_does_not_hold_up_other_tasks() {
        let t0 = Instant::now();
        let slow = tokio::spawn(async {
            let solver = OffWorker(Slow(Duration::from_millis(600)));
            solver.solve(&Position::standard(), Color::White).0
        });
        // Let the analysis start first.
        tokio::time::sleep(Duration::from_millis(50)).await;
        let quick = tokio::spawn(async { Instant::now() });
        let quick_done = quick.await.unwrap();
        assert!(
            quick_done.duration_since(t0) < Duration::from_millis(400),
            "the other task waited {:?}",
            quick_done.duration_since(t0)
        );
        assert_eq!(slow.await.unwrap(), Verdict::Unknown);
        assert!(t0.elapsed() >= Duration::from_millis(600));
    }

    #[test]
    fn outside_a_runtime_it_runs_in_place() {
        let solver = OffWorker(ChaSolver);
        assert_eq!(
            solver.can_checkmate(&Position::standard(), Color::Black),
            Verdict::Winnable
        );
    }
}
