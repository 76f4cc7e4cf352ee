//! When a request gives up: after `idle_ms` without an answer or a progress notification
//! (progress resets the clock, so long tools that report progress keep going), and in any
//! case after `max_total_ms`. Pure: times are milliseconds from any monotonic clock.

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Deadline {
    pub idle_ms: f64,
    pub max_total_ms: f64,
    pub started_at: f64,
}

/// Why a request was given up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expired {
    /// No answer and no progress for the idle timeout.
    Idle,
    /// Still running at the maximum total time, progress or not.
    Total,
}

impl Deadline {
    pub fn new(idle_ms: u32, max_total_ms: u32, started_at: f64) -> Self {
        Self {
            idle_ms: f64::from(idle_ms),
            max_total_ms: f64::from(max_total_ms.max(idle_ms)),
            started_at,
        }
    }

    /// How long to wait before checking again, or why the request has expired.
    /// `last_activity` is when the request was sent or last reported progress.
    pub fn check(&self, now: f64, last_activity: f64) -> Result<f64, Expired> {
        let total_left = self.started_at + self.max_total_ms - now;
        let idle_left = last_activity.max(self.started_at) + self.idle_ms - now;
        if total_left <= 0.0 {
            Err(Expired::Total)
        } else if idle_left <= 0.0 {
            Err(Expired::Idle)
        } else {
            Ok(idle_left.min(total_left))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idle_timeout_without_progress() {
        let deadline = Deadline::new(60_000, 600_000, 1_000.0);
        assert_eq!(deadline.check(1_000.0, 1_000.0), Ok(60_000.0));
        assert_eq!(deadline.check(31_000.0, 1_000.0), Ok(30_000.0));
        assert_eq!(deadline.check(61_000.0, 1_000.0), Err(Expired::Idle));
    }

    #[test]
    fn progress_resets_the_idle_clock_but_not_the_total() {
        let deadline = Deadline::new(60_000, 600_000, 0.0);
        // Progress every 50 s keeps it alive...
        let mut now = 0.0;
        while now < 550_000.0 {
            now += 50_000.0;
            assert!(deadline.check(now, now - 1.0).is_ok(), "at {now}");
        }
        // ...until the maximum total.
        assert_eq!(deadline.check(600_000.0, 599_999.0), Err(Expired::Total));
        // The wait never overshoots the total.
        assert_eq!(deadline.check(590_000.0, 590_000.0), Ok(10_000.0));
    }

    #[test]
    fn total_is_never_shorter_than_idle() {
        let deadline = Deadline::new(60_000, 1_000, 0.0);
        assert_eq!(deadline.check(30_000.0, 0.0), Ok(30_000.0));
    }
}
