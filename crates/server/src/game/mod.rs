//! Games: creation settings, the Laws adapter, the per-game state and its
//! task, and the registry of running games.

pub mod actor;
pub mod core;
pub mod registry;
pub mod settings;
pub mod table;
