//! The lobby of open seeks (protocol §3.8): an invitation game its creator
//! chose to list publicly, with its time control and options. Visitors of
//! the home page see the list live (`GET /api/lobby/ws`); accepting a seek
//! is joining its game (§3.5), which seats both players: the creator waits
//! on the game's page and sees the join there.
//!
//! Bounded: at most [`PER_ADDRESS`] seeks per client address and [`TOTAL`]
//! in all. A seek lasts while its creator is on the game's page: it leaves
//! the lobby when the game starts or ends, when the creator's last
//! connection to it closes, or if the creator never opens it within
//! [`OPEN_WITHIN`]. Seeks live in memory only: a restart empties the lobby.

use crate::protocol::{Color, Variant, WireDelay, WirePeriod};
use serde::{Deserialize, Serialize};
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Duration;

/// Seeks one client address may have listed at once.
pub const PER_ADDRESS: usize = 2;
/// Seeks listed at once in all.
pub const TOTAL: usize = 200;
/// A seek whose creator has not opened its game within this is dropped.
pub const OPEN_WITHIN: Duration = Duration::from_secs(30);
/// Lobby WebSockets one client address may hold open.
pub const WATCHERS_PER_ADDRESS: u32 = 8;

/// One open seek as visitors see it.
///
/// ```
/// use arbiter_server::lobby::Seek;
/// use arbiter_server::protocol::{Color, Variant};
/// let seek = Seek {
///     game: "AbCd1234".into(),
///     name: Some("Anna".into()),
///     color: Color::White,
///     time_control: "300+3".into(),
///     time_control_periods: Vec::new(),
///     delay: None,
///     variant: Variant::Standard,
///     edition: arbiter_laws::Edition::Fide2023,
///     touch_move: false,
///     created_at: 0,
/// };
/// assert!(serde_json::to_string(&seek).unwrap().contains("\"color\":\"white\""));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seek {
    /// The game to join.
    pub game: String,
    /// The creator's name.
    pub name: Option<String>,
    /// The creator's colour (the one who accepts plays the other).
    pub color: Color,
    /// The time control (PGN text).
    pub time_control: String,
    /// Its periods, as in the game state.
    pub time_control_periods: Vec<WirePeriod>,
    /// The delay, if any.
    pub delay: Option<WireDelay>,
    /// Standard or Chess960.
    pub variant: Variant,
    /// The edition of the Laws.
    pub edition: arbiter_laws::Edition,
    /// Touch-move.
    pub touch_move: bool,
    /// Epoch ms.
    pub created_at: u64,
}

/// A change of the lobby (§3.8), replayed by every other node of a
/// cluster (sent on its bus, `cluster::bus`).
///
/// ```
/// use arbiter_server::lobby::LobbyChange;
/// let c = LobbyChange::Removed { game: "AbCd1234".into() };
/// assert!(serde_json::to_string(&c).unwrap().contains("removed"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum LobbyChange {
    /// A seek was listed.
    Listed {
        /// The seek.
        seek: Seek,
        /// Its creator's address.
        creator: std::net::IpAddr,
    },
    /// The creator is on the game's page, or left it.
    Present {
        /// The game.
        game: String,
        /// On the page.
        present: bool,
    },
    /// The seek was withdrawn.
    Removed {
        /// The game.
        game: String,
    },
}

struct Listed {
    seek: Seek,
    creator: IpAddr,
    /// The creator has opened the game's page.
    opened: bool,
    /// Listed on this node (else heard from another node of a cluster).
    here: bool,
}

/// One seek as a node of a cluster holds it, for a node that joins later
/// (`cluster::bus`: the lobby's snapshot on join).
///
/// ```
/// use arbiter_server::lobby::{Lobby, Listing};
/// let lobby = Lobby::default();
/// let none: Vec<Listing> = lobby.snapshot(0);
/// assert!(none.is_empty());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Listing {
    /// The seek.
    pub seek: Seek,
    /// Its creator's address.
    pub creator: IpAddr,
    /// The creator has opened the game's page.
    pub opened: bool,
}

/// How long a withdrawn seek is remembered, so that a snapshot taken
/// before its withdrawal does not list it again.
const REMEMBER_WITHDRAWN: Duration = Duration::from_secs(60);
/// Withdrawn seeks remembered at most.
const WITHDRAWN_KEPT: usize = 4_096;

/// Why a seek is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    /// This address has [`PER_ADDRESS`] seeks listed.
    #[error("you have {PER_ADDRESS} open seeks already")]
    PerAddress,
    /// The lobby holds [`TOTAL`] seeks.
    #[error("the lobby is full; try again later")]
    Full,
}

/// A place in the lobby kept for a seek whose game is being created
/// ([`Lobby::admit`]); given back when dropped unlisted.
///
/// ```
/// use arbiter_server::lobby::{Lobby, PER_ADDRESS};
/// let lobby = Lobby::default();
/// let a = "192.0.2.1".parse().unwrap();
/// let kept: Vec<_> = (0..PER_ADDRESS).map(|_| lobby.admit(a, 0).unwrap()).collect();
/// assert!(lobby.admit(a, 0).is_err());
/// drop(kept);
/// assert!(lobby.admit(a, 0).is_ok());
/// ```
pub struct Reservation<'a> {
    lobby: &'a Lobby,
    creator: IpAddr,
    live: bool,
}

impl Drop for Reservation<'_> {
    fn drop(&mut self) {
        if self.live {
            let mut reserved = self
                .lobby
                .reserved
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            if let Some(i) = reserved.iter().position(|&r| r == self.creator) {
                reserved.swap_remove(i);
            }
        }
    }
}

/// The open seeks, and a version that changes with them.
///
/// ```
/// use arbiter_server::lobby::Lobby;
/// let lobby = Lobby::default();
/// assert!(lobby.seeks(0).is_empty());
/// ```
pub struct Lobby {
    listed: Mutex<Vec<Listed>>,
    /// The addresses of seeks admitted but not listed yet (their games
    /// being created): counted against the bounds, so that requests at
    /// once cannot pass them together ([`Lobby::admit`]). Locked after
    /// `listed` when both are.
    reserved: Mutex<Vec<IpAddr>>,
    /// Seeks withdrawn lately (game, epoch ms), oldest first: a seek leaves
    /// the lobby for good, so a snapshot must not bring it back.
    withdrawn: Mutex<std::collections::VecDeque<(String, u64)>>,
    version: tokio::sync::watch::Sender<u64>,
    /// In a cluster: where this node's changes go, for the other nodes.
    replica: std::sync::OnceLock<tokio::sync::mpsc::UnboundedSender<LobbyChange>>,
}

impl Default for Lobby {
    fn default() -> Lobby {
        Lobby {
            listed: Mutex::new(Vec::new()),
            reserved: Mutex::default(),
            withdrawn: Mutex::default(),
            version: tokio::sync::watch::Sender::new(0),
            replica: std::sync::OnceLock::new(),
        }
    }
}

impl Lobby {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Listed>> {
        self.listed.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn changed(&self) {
        self.version.send_modify(|v| *v += 1);
    }

    fn tell(&self, change: LobbyChange) {
        if let Some(tx) = self.replica.get() {
            let _ = tx.send(change);
        }
    }

    /// In a cluster: this node's changes are sent to `tx` (for the bus),
    /// so that the lobby is the same on every node.
    pub fn replicate_to(&self, tx: tokio::sync::mpsc::UnboundedSender<LobbyChange>) {
        let _ = self.replica.set(tx);
    }

    /// Replays a change made on another node (not sent on again).
    pub fn apply(&self, change: LobbyChange, now: u64) {
        match change {
            LobbyChange::Listed { seek, creator } => {
                let mut listed = self.lock();
                Self::prune(&mut listed, now);
                if !listed.iter().any(|l| l.seek.game == seek.game) {
                    listed.push(Listed {
                        seek,
                        creator,
                        opened: false,
                        here: false,
                    });
                }
                drop(listed);
                self.changed();
            }
            LobbyChange::Present { game, present } => self.present(&game, present),
            LobbyChange::Removed { game } => {
                // Remembered even when not listed here yet: a snapshot on
                // its way must not bring it back.
                if !self.withdraw(&game) {
                    self.withdrawn_now(&game);
                }
            }
        }
    }

    /// The seeks held here at `now`, for a node that joins the cluster.
    pub fn snapshot(&self, now: u64) -> Vec<Listing> {
        let mut listed = self.lock();
        if Self::prune(&mut listed, now) {
            self.changed();
        }
        listed
            .iter()
            .map(|l| Listing {
                seek: l.seek.clone(),
                creator: l.creator,
                opened: l.opened,
            })
            .collect()
    }

    /// Adds another node's snapshot ([`Lobby::snapshot`]) on joining: the
    /// seeks not known here yet, unless withdrawn since (a change heard
    /// before the snapshot arrived). Not sent on again.
    pub fn merge(&self, listings: Vec<Listing>, now: u64) {
        let withdrawn: std::collections::HashSet<String> = self
            .withdrawn
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .map(|(g, _)| g.clone())
            .collect();
        let mut listed = self.lock();
        let mut added = false;
        for l in listings {
            if withdrawn.contains(&l.seek.game) || listed.len() >= TOTAL {
                continue;
            }
            match listed.iter_mut().find(|x| x.seek.game == l.seek.game) {
                Some(x) => x.opened |= l.opened,
                None => {
                    listed.push(Listed {
                        seek: l.seek,
                        creator: l.creator,
                        opened: l.opened,
                        here: false,
                    });
                    added = true;
                }
            }
        }
        listed.sort_by_key(|l| l.seek.created_at);
        added |= Self::prune(&mut listed, now);
        drop(listed);
        if added {
            self.changed();
        }
    }

    /// Brings the lobby up to date after this node was cut off from the
    /// cluster's bus (the changes sent meanwhile never reached it): the
    /// other nodes' snapshots, asked for at `asked` (epoch ms), are merged
    /// as on joining ([`Lobby::merge`]), and a seek heard from another node
    /// before `asked` that none of them holds any more was withdrawn while
    /// this node was away: it leaves (the seeks listed here stay).
    pub fn resync(&self, listings: Vec<Listing>, asked: u64, now: u64) {
        let held: std::collections::HashSet<String> =
            listings.iter().map(|l| l.seek.game.clone()).collect();
        let mut listed = self.lock();
        let before = listed.len();
        listed.retain(|l| l.here || l.seek.created_at >= asked || held.contains(&l.seek.game));
        let gone = listed.len() != before;
        drop(listed);
        if gone {
            self.changed();
        }
        self.merge(listings, now);
    }

    /// Tells the other nodes again of the seeks listed here (after a cut
    /// from the bus, what was told meanwhile never reached them; a seek
    /// they know already is not listed twice, [`Lobby::apply`]).
    pub fn announce_here(&self) {
        let here: Vec<(Seek, IpAddr, bool)> = self
            .lock()
            .iter()
            .filter(|l| l.here)
            .map(|l| (l.seek.clone(), l.creator, l.opened))
            .collect();
        for (seek, creator, opened) in here {
            let game = seek.game.clone();
            self.tell(LobbyChange::Listed { seek, creator });
            if opened {
                self.tell(LobbyChange::Present {
                    game,
                    present: true,
                });
            }
        }
    }

    /// Drops the seeks whose creator did not open the game in time.
    fn prune(listed: &mut Vec<Listed>, now: u64) -> bool {
        let before = listed.len();
        listed.retain(|l| l.opened || now < l.seek.created_at + OPEN_WITHIN.as_millis() as u64);
        listed.len() != before
    }

    /// May `creator` list one more seek at `now`? A place is kept for it
    /// until the [`Reservation`] is listed ([`Lobby::list_reserved`]) or
    /// dropped: seeks admitted at once are counted together.
    pub fn admit(&self, creator: IpAddr, now: u64) -> Result<Reservation<'_>, Refused> {
        let mut listed = self.lock();
        if Self::prune(&mut listed, now) {
            self.changed();
        }
        let mut reserved = self.reserved.lock().unwrap_or_else(|e| e.into_inner());
        let mine = listed.iter().filter(|l| l.creator == creator).count()
            + reserved.iter().filter(|&&r| r == creator).count();
        if mine >= PER_ADDRESS {
            return Err(Refused::PerAddress);
        }
        if listed.len() + reserved.len() >= TOTAL {
            return Err(Refused::Full);
        }
        reserved.push(creator);
        Ok(Reservation {
            lobby: self,
            creator,
            live: true,
        })
    }

    /// Lists `seek` in the place `reservation` kept (after the game's
    /// creation).
    pub fn list_reserved(&self, seek: Seek, mut reservation: Reservation<'_>) {
        let creator = reservation.creator;
        {
            let mut listed = self.lock();
            let mut reserved = self.reserved.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(i) = reserved.iter().position(|&r| r == creator) {
                reserved.swap_remove(i);
            }
            reservation.live = false;
            listed.push(Listed {
                seek: seek.clone(),
                creator,
                opened: false,
                here: true,
            });
        }
        self.changed();
        self.tell(LobbyChange::Listed { seek, creator });
    }

    /// Lists `seek` by `creator` at `now` if the bounds allow
    /// ([`Lobby::admit`], then [`Lobby::list_reserved`]).
    pub fn list(&self, seek: Seek, creator: IpAddr, now: u64) -> Result<(), Refused> {
        let reservation = self.admit(creator, now)?;
        self.list_reserved(seek, reservation);
        Ok(())
    }

    /// Is game `id` listed?
    pub fn contains(&self, id: &str) -> bool {
        self.lock().iter().any(|l| l.seek.game == id)
    }

    /// The creator of game `id`'s seek is on its page (`true`) or has left
    /// it (`false`: the seek is withdrawn).
    pub fn creator_present(&self, id: &str, present: bool) {
        if self.contains(id) {
            self.tell(LobbyChange::Present {
                game: id.to_string(),
                present,
            });
        }
        self.present(id, present);
    }

    fn present(&self, id: &str, present: bool) {
        let mut listed = self.lock();
        let Some(i) = listed.iter().position(|l| l.seek.game == id) else {
            return;
        };
        if present {
            listed[i].opened = true;
        } else if listed[i].opened {
            listed.remove(i);
            drop(listed);
            self.withdrawn_now(id);
            self.changed();
        }
    }

    /// Withdraws game `id`'s seek (taken, started, aborted).
    pub fn remove(&self, id: &str) {
        if self.contains(id) {
            self.tell(LobbyChange::Removed {
                game: id.to_string(),
            });
        }
        let _ = self.withdraw(id);
    }

    /// `true`: it was listed.
    fn withdraw(&self, id: &str) -> bool {
        let mut listed = self.lock();
        let before = listed.len();
        listed.retain(|l| l.seek.game != id);
        if listed.len() == before {
            return false;
        }
        drop(listed);
        self.withdrawn_now(id);
        self.changed();
        true
    }

    /// Remembers that game `id`'s seek left the lobby (for [`Lobby::merge`]).
    fn withdrawn_now(&self, id: &str) {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        let keep = REMEMBER_WITHDRAWN.as_millis() as u64;
        let mut w = self.withdrawn.lock().unwrap_or_else(|e| e.into_inner());
        while w
            .front()
            .is_some_and(|(_, at)| at + keep < now || w.len() >= WITHDRAWN_KEPT)
        {
            w.pop_front();
        }
        w.push_back((id.to_string(), now));
    }

    /// The open seeks at `now`, oldest first.
    pub fn seeks(&self, now: u64) -> Vec<Seek> {
        let mut listed = self.lock();
        if Self::prune(&mut listed, now) {
            self.changed();
        }
        listed.iter().map(|l| l.seek.clone()).collect()
    }

    /// A receiver told of every change.
    pub fn subscribe(&self) -> tokio::sync::watch::Receiver<u64> {
        self.version.subscribe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seek(game: &str, at: u64) -> Seek {
        Seek {
            game: game.into(),
            name: None,
            color: Color::White,
            time_control: "300+0".into(),
            time_control_periods: Vec::new(),
            delay: None,
            variant: Variant::Standard,
            edition: arbiter_laws::Edition::Fide2023,
            touch_move: false,
            created_at: at,
        }
    }

    /// The bounds per address and in all; expiry when the creator leaves
    /// or never comes.
    #[test]
    fn seeks_are_bounded_and_expire() {
        let lobby = Lobby::default();
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let b: IpAddr = "192.0.2.2".parse().unwrap();
        let mut rx = lobby.subscribe();
        lobby.list(seek("aaaaaaa1", 0), a, 0).unwrap();
        assert!(rx.has_changed().unwrap());
        rx.mark_unchanged();
        lobby.list(seek("aaaaaaa2", 0), a, 0).unwrap();
        assert_eq!(
            lobby.list(seek("aaaaaaa3", 0), a, 0),
            Err(Refused::PerAddress)
        );
        lobby.list(seek("bbbbbbb1", 0), b, 0).unwrap();
        assert_eq!(lobby.seeks(1).len(), 3);
        // Opened, then left: withdrawn.
        lobby.creator_present("aaaaaaa1", true);
        lobby.creator_present("aaaaaaa1", false);
        assert!(!lobby.contains("aaaaaaa1"));
        // Never opened: gone after OPEN_WITHIN; opened: stays.
        lobby.creator_present("bbbbbbb1", true);
        let later = OPEN_WITHIN.as_millis() as u64 + 1;
        let left: Vec<String> = lobby.seeks(later).into_iter().map(|s| s.game).collect();
        assert_eq!(left, ["bbbbbbb1"]);
        lobby.remove("bbbbbbb1");
        assert!(lobby.seeks(later).is_empty());
        for n in 0..TOTAL {
            let ip = IpAddr::from([10, 0, (n / 256) as u8, (n % 256) as u8]);
            lobby
                .list(seek(&format!("g{n:07}"), later), ip, later)
                .unwrap();
        }
        assert_eq!(lobby.admit(a, later).err(), Some(Refused::Full));
    }

    /// A node that joins takes the others' seeks (opened ones kept past
    /// OPEN_WITHIN), but not one withdrawn before the snapshot came.
    #[test]
    fn back_from_a_cut_the_lobby_is_what_the_others_hold() {
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let b: IpAddr = "192.0.2.2".parse().unwrap();
        let here = Lobby::default();
        // Heard before the cut: one still open elsewhere, one withdrawn
        // meanwhile (its change never came); one listed here.
        for g in ["aaaaaaa1", "aaaaaaa2"] {
            here.apply(
                LobbyChange::Listed {
                    seek: seek(g, 10),
                    creator: a,
                },
                10,
            );
        }
        here.list(seek("bbbbbbb1", 20), b, 20).unwrap();
        // Heard after the question was asked (at 100): not in the answers yet.
        here.apply(
            LobbyChange::Listed {
                seek: seek("aaaaaaa4", 100),
                creator: a,
            },
            100,
        );
        let there = Lobby::default();
        there.list(seek("aaaaaaa1", 10), a, 10).unwrap();
        // Listed during the cut.
        there.list(seek("aaaaaaa3", 50), a, 50).unwrap();
        let rx = here.subscribe();
        here.resync(there.snapshot(101), 100, 101);
        assert!(rx.has_changed().unwrap());
        let mut games: Vec<String> = here.seeks(101).into_iter().map(|s| s.game).collect();
        games.sort();
        assert_eq!(games, ["aaaaaaa1", "aaaaaaa3", "aaaaaaa4", "bbbbbbb1"]);
        // Its own seeks are told again, for the nodes that missed them.
        let (tx, mut told) = tokio::sync::mpsc::unbounded_channel();
        here.replicate_to(tx);
        here.announce_here();
        let Ok(LobbyChange::Listed { seek, creator }) = told.try_recv() else {
            panic!("the seek listed here is told again");
        };
        assert_eq!((seek.game.as_str(), creator), ("bbbbbbb1", b));
        assert!(told.try_recv().is_err(), "only the seeks listed here");
    }

    #[test]
    fn a_snapshot_merges_but_brings_nothing_back() {
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let there = Lobby::default();
        there.list(seek("aaaaaaa1", 0), a, 0).unwrap();
        there.list(seek("aaaaaaa2", 0), a, 0).unwrap();
        there.creator_present("aaaaaaa1", true);
        let snapshot = there.snapshot(1);
        assert_eq!(snapshot.len(), 2);
        assert!(snapshot[0].opened && !snapshot[1].opened);
        let here = Lobby::default();
        let rx = here.subscribe();
        // aaaaaaa2 was taken on its node; the change came before the snapshot.
        here.apply(
            LobbyChange::Removed {
                game: "aaaaaaa2".into(),
            },
            1,
        );
        here.merge(snapshot.clone(), 1);
        assert!(rx.has_changed().unwrap());
        let games: Vec<String> = here.seeks(1).into_iter().map(|s| s.game).collect();
        assert_eq!(games, ["aaaaaaa1"]);
        // Merged twice: the same.
        here.merge(snapshot, 2);
        assert_eq!(here.seeks(2).len(), 1);
        // Opened on its node: kept after OPEN_WITHIN here too.
        let later = OPEN_WITHIN.as_millis() as u64 + 5;
        assert_eq!(here.seeks(later).len(), 1);
    }
}
