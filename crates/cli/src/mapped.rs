//! Regular files read where they lie: mapped into memory, so that the PGN
//! reader reads them without copying them into its buffer (`arbiter pgn
//! check`, `arbiter audit`).

use anyhow::{Context, Result};
use std::fs::File;

/// `file` mapped into memory if it is a regular, non-empty file the system
/// can map; `None` for standard input (`-`), pipes, devices, empty files
/// and files that cannot be mapped, which are read as streams (and, but
/// for a regular file that cannot be mapped, not opened here).
#[allow(unsafe_code)]
pub(crate) fn map_file(file: &str) -> Result<Option<memmap2::Mmap>> {
    // Looked at before it is opened: a pipe or a device is opened once,
    // by the stream that reads it.
    let regular = std::fs::metadata(file).is_ok_and(|m| m.is_file() && m.len() > 0);
    if file == "-" || !regular {
        return Ok(None);
    }
    let f = File::open(file).with_context(|| format!("cannot open {file}"))?;
    // SAFETY: the map is only read. Were the file truncated while it is
    // read, the process would be stopped by the system (SIGBUS) rather than
    // read bytes that are gone; a file being written to as it is read gives
    // the games as they stood, as reading it through a buffer would.
    Ok(unsafe { memmap2::Mmap::map(&f) }.ok())
}
