//! What an accepted action does outside the game's memory: its effects.
//!
//! Every action of a game (a move, an offer, a join, a flag fall) ends in
//! two effects, carried out by the game task ([`super::actor`]) in this
//! order: the storage writes are made durable, and only then are the
//! numbered events announced to the connections ("nothing acknowledged is
//! lost"). [`Effects::into_parts`] gives the announcement only together with
//! the writes that must precede it.

use super::core::GameCore;
use crate::protocol::Event;
use crate::store::WriteOp;

/// The effects of an accepted action: writes to make durable, then
/// numbered events to announce.
///
/// ```
/// use arbiter_server::game::effects::Effects;
/// use arbiter_server::protocol::{Event, Color};
///
/// let effects = Effects::new(7, vec![Event::DrawOffer { by: Color::White }], Vec::new());
/// assert!(!effects.joins());
/// let (writes, announce) = effects.into_parts();
/// assert!(writes.is_empty());
/// assert_eq!(announce.numbered().next().map(|(seq, _)| seq), Some(7));
/// ```
#[derive(Debug, Default)]
pub struct Effects {
    writes: Vec<WriteOp>,
    announce: Announcement,
}

/// The events of an action, numbered from `first_seq`: what the
/// connections are told once the writes are durable.
#[derive(Debug, Default)]
pub struct Announcement {
    first_seq: u64,
    events: Vec<Event>,
}

impl Effects {
    /// The effects of an action whose `events` are numbered from
    /// `first_seq`, made durable by `writes`.
    pub fn new(first_seq: u64, events: Vec<Event>, writes: Vec<WriteOp>) -> Effects {
        Effects {
            writes,
            announce: Announcement { first_seq, events },
        }
    }

    /// Adds `op` before the action's own writes (it is made durable with
    /// them, in the same batch).
    pub fn write_first(&mut self, op: WriteOp) {
        self.writes.insert(0, op);
    }

    /// The events to announce (after the writes).
    pub fn events(&self) -> &[Event] {
        &self.announce.events
    }

    /// Does a player take a seat (presence changes)?
    pub fn joins(&self) -> bool {
        self.announce
            .events
            .iter()
            .any(|e| matches!(e, Event::Join { .. }))
    }

    /// The writes, to make durable first, and the announcement that may
    /// follow only once they are.
    pub fn into_parts(self) -> (Vec<WriteOp>, Announcement) {
        (self.writes, self.announce)
    }
}

impl Announcement {
    /// The events with their sequence numbers.
    pub fn numbered(&self) -> impl Iterator<Item = (u64, &Event)> {
        (self.first_seq..).zip(&self.events)
    }

    /// The sequence number of the last event.
    pub fn last_seq(&self) -> u64 {
        self.first_seq + self.events.len() as u64 - 1
    }

    /// The `event` messages (§4.3), each with the live state of `core`
    /// after the whole action at server time `now`, as JSON text.
    pub fn encode(&self, core: &GameCore, now: u64) -> Vec<String> {
        let mut live = core.live(now);
        self.numbered()
            .map(|(seq, event)| {
                live.seq = seq;
                crate::protocol::ServerMsg::Event {
                    seq,
                    event,
                    live: Some(&live),
                }
                .to_json()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Color;

    #[test]
    fn events_are_numbered_from_the_first_seq() {
        let effects = Effects::new(
            4,
            vec![
                Event::DrawOffer { by: Color::White },
                Event::DrawDeclined { by: Color::Black },
            ],
            Vec::new(),
        );
        assert_eq!(effects.events().len(), 2);
        let (_, announce) = effects.into_parts();
        let seqs: Vec<u64> = announce.numbered().map(|(s, _)| s).collect();
        assert_eq!(seqs, [4, 5]);
    }
}
