//! The states a reconnecting client missed, rebuilt from the log.

use super::core::GameCore;
use super::table::Table;
use crate::protocol::{Event, Live, Mode, Status};

impl GameCore {
    /// The live state after each event from `after + 1` to the last, as
    /// the clients saw it, rebuilt by replaying the log through the Laws
    /// (used to answer `hello` with the events a client missed).
    pub fn replay_lives(&self, after: u64) -> Result<Vec<Live>, String> {
        let mut table = Table::new(&self.settings)?;
        let mut status = if self.settings.mode == Mode::Invite {
            Status::Waiting
        } else {
            Status::Active
        };
        let mut t = 0;
        let mut stamp = self.created_at;
        let mut out = Vec::new();
        for (i, entry) in self.log.iter().enumerate() {
            let seq = i as u64 + 1;
            if let Some(ev) = &entry.laws {
                t = ev.t;
                stamp = entry.at;
                let typed = ev.to_event(table.laws()).map_err(|r| r.to_string())?;
                table.apply(typed).map_err(|r| r.message)?;
            }
            if matches!(entry.event, Event::Join { .. }) {
                status = Status::Active;
                stamp = entry.at;
            }
            if seq > after {
                let clock_t = (status == Status::Active).then_some(t);
                out.push(table.live(seq, status, clock_t, stamp));
            }
        }
        Ok(out)
    }
}
