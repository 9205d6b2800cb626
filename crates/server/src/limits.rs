//! Rate limits: token buckets per client address (HTTP writes) and per
//! connection (WebSocket messages).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Instant;

/// A token bucket: `burst` tokens, refilled at `per_second`.
#[derive(Copy, Clone, Debug)]
pub struct Bucket {
    tokens: f64,
    last: Instant,
    per_second: f64,
    burst: f64,
}

impl Bucket {
    /// A full bucket.
    pub fn new(per_second: f64, burst: f64) -> Bucket {
        Bucket {
            tokens: burst,
            last: Instant::now(),
            per_second,
            burst,
        }
    }

    /// Takes one token if there is one.
    pub fn take(&mut self) -> bool {
        self.take_at(Instant::now())
    }

    fn take_at(&mut self, now: Instant) -> bool {
        let dt = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + dt * self.per_second).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// Buckets per client address, for HTTP writes (creating and joining games).
pub struct PerAddress {
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
    per_second: f64,
    burst: f64,
}

/// Most addresses remembered before old buckets are dropped.
const MAX_ADDRESSES: usize = 100_000;

impl PerAddress {
    /// `per_minute` requests per minute with a burst of `burst`; 0 disables the limit.
    pub fn new(per_minute: u32, burst: u32) -> PerAddress {
        PerAddress {
            buckets: Mutex::new(HashMap::new()),
            per_second: f64::from(per_minute) / 60.0,
            burst: f64::from(burst),
        }
    }

    /// May `addr` make another request now?
    pub fn allow(&self, addr: IpAddr) -> bool {
        if self.per_second == 0.0 {
            return true;
        }
        let Ok(mut map) = self.buckets.lock() else {
            return true;
        };
        if map.len() > MAX_ADDRESSES {
            map.clear();
        }
        map.entry(addr)
            .or_insert_with(|| Bucket::new(self.per_second, self.burst))
            .take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn bucket_refills() {
        let mut b = Bucket::new(10.0, 3.0);
        let t0 = Instant::now();
        assert!(b.take_at(t0));
        assert!(b.take_at(t0));
        assert!(b.take_at(t0));
        assert!(!b.take_at(t0));
        assert!(b.take_at(t0 + Duration::from_millis(110)));
        assert!(!b.take_at(t0 + Duration::from_millis(110)));
    }

    #[test]
    fn per_address_limits_each_address() {
        let l = PerAddress::new(60, 2);
        let a: IpAddr = "127.0.0.1".parse().unwrap();
        let b: IpAddr = "127.0.0.2".parse().unwrap();
        assert!(l.allow(a) && l.allow(a));
        assert!(!l.allow(a));
        assert!(l.allow(b));
        let off = PerAddress::new(0, 0);
        assert!((0..1000).all(|_| off.allow(a)));
    }
}
