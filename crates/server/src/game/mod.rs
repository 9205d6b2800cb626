//! Games: creation settings, the Laws adapter, the per-game state and its
//! task, and the registry of running games.

pub mod act;
pub mod actor;
pub mod core;
pub mod effects;
pub mod forfeit;
pub mod record;
pub mod registry;
pub mod rematch;
pub mod seat_set;
pub mod settings;
pub mod solver;
pub mod table;
