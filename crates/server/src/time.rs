//! Server time and lag compensation.
//!
//! [`ServerClock`] gives epoch milliseconds that never go backwards within a
//! run (wall clock at start plus a monotonic elapsed time), so a wall-clock
//! step does not charge or refund anyone.
//!
//! [`LagQuota`] credits network lag to a player's clock in the manner of
//! Lichess: each move may be back-dated by the client's reported one-way lag,
//! but only up to a quota that grows by `gain` per move and is capped, so a
//! client cannot buy time by lying about its lag.

use std::time::{Instant, SystemTime, UNIX_EPOCH};

/// Monotonic epoch milliseconds.
#[derive(Copy, Clone, Debug)]
pub struct ServerClock {
    wall_at_start: u64,
    start: Instant,
}

impl Default for ServerClock {
    fn default() -> Self {
        ServerClock::new()
    }
}

impl ServerClock {
    /// Starts now.
    pub fn new() -> ServerClock {
        let wall_at_start = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        ServerClock {
            wall_at_start,
            start: Instant::now(),
        }
    }

    /// Epoch ms now.
    pub fn now_ms(&self) -> u64 {
        self.wall_at_start + self.start.elapsed().as_millis() as u64
    }
}

/// Largest lag the server believes in one report, ms.
pub const MAX_REPORTED_LAG_MS: u64 = 2_000;

/// A player's lag credit (Lichess-style quota).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LagQuota {
    gain_ms: u64,
    quota_ms: u64,
    /// The client's latest one-way lag estimate.
    pub reported_ms: u64,
}

impl LagQuota {
    /// The quota for a time control whose estimated total (time plus 40
    /// increments) is `estimate_ms`: `gain = min(1 s, estimate·2/5·1% + 150 ms)`,
    /// starting at 3 × gain.
    pub fn new(estimate_ms: u64) -> LagQuota {
        let gain_ms = (estimate_ms * 2 / 5 / 100 + 150).min(1_000);
        LagQuota {
            gain_ms,
            quota_ms: 3 * gain_ms,
            reported_ms: 0,
        }
    }

    /// Records the client's lag report (capped).
    pub fn report(&mut self, lag_ms: u64) {
        self.reported_ms = lag_ms.min(MAX_REPORTED_LAG_MS);
    }

    /// The lag credited to a move now, updating the quota:
    /// `credited = min(reported, quota)`, `quota = min(quota + gain − credited, 7 × gain)`.
    pub fn credit_move(&mut self) -> u64 {
        let credited = self.reported_ms.min(self.quota_ms);
        self.quota_ms = (self.quota_ms + self.gain_ms - credited).min(7 * self.gain_ms);
        credited
    }

    /// What [`LagQuota::credit_move`] would credit now, without spending it.
    pub fn peek(&self) -> u64 {
        self.reported_ms.min(self.quota_ms)
    }

    /// The grace before the server declares a flag fall: `min(quota, 2 s)`,
    /// so a move sent in time but still in flight can arrive.
    pub fn flag_grace(&self) -> u64 {
        self.quota_ms.min(2_000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quota_limits_credit() {
        // 60+0: estimate 60 s → gain 240 + 150 = 390 ms.
        let mut q = LagQuota::new(60_000);
        assert_eq!(q.flag_grace(), 1_170);
        q.report(5_000); // a liar: capped at 2 s, then by the quota
        assert_eq!(q.credit_move(), 1_170);
        assert_eq!(q.credit_move(), 390);
        assert_eq!(q.credit_move(), 390);
        q.report(50);
        assert_eq!(q.credit_move(), 50);
        // Honest small lag: the quota grows back to its cap of 7 × gain.
        for _ in 0..100 {
            q.credit_move();
        }
        assert_eq!(q.flag_grace(), 2_000);
    }

    #[test]
    fn gain_is_capped_at_one_second() {
        let q = LagQuota::new(5_400_000);
        assert_eq!(q.gain_ms, 1_000);
    }

    #[test]
    fn server_clock_does_not_go_back() {
        let c = ServerClock::new();
        let a = c.now_ms();
        let b = c.now_ms();
        assert!(b >= a);
    }
}
