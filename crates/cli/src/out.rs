//! Standard output, its write errors marked where they are made: a broken
//! pipe there (`arbiter … | head`) ends the command quietly, with the status
//! of a process a broken pipe stops ([`crate::BROKEN_PIPE`]), while a broken
//! pipe anywhere else (an engine that closed its input) is an error to say.

use std::fmt;
use std::io::{self, Write};

/// The cause of a write error on standard output closed by its reader.
#[derive(Debug)]
pub(crate) struct Closed;

impl fmt::Display for Closed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("standard output closed by its reader")
    }
}

impl std::error::Error for Closed {}

/// Standard output, whose broken pipe is marked [`Closed`] (each write
/// takes the lock, as [`io::Stdout`] does: buffer it for many small ones).
pub(crate) struct Stdout(io::Stdout);

/// Standard output, marking a broken pipe.
pub(crate) fn stdout() -> Stdout {
    Stdout(io::stdout())
}

fn mark(e: io::Error) -> io::Error {
    if e.kind() == io::ErrorKind::BrokenPipe {
        io::Error::new(io::ErrorKind::BrokenPipe, Closed)
    } else {
        e
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf).map_err(mark)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.0.write_all(buf).map_err(mark)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush().map_err(mark)
    }
}

/// Whether `e` comes from writing to standard output closed by its reader.
pub(crate) fn is_closed(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.is::<Closed>()
            || c.downcast_ref::<io::Error>()
                .and_then(|io| io.get_ref())
                .is_some_and(|inner| inner.is::<Closed>())
    })
}

/// `println!` onto [`stdout`], returning the write's failure (`?` it).
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!($crate::out::stdout(), $($arg)*)
    }};
}
pub(crate) use outln;

#[cfg(test)]
mod tests {
    use super::*;

    /// A broken pipe on standard output is told from one elsewhere (an
    /// engine's input) by where it was made, whatever wraps it.
    #[test]
    fn only_standard_output_is_closed() {
        let pipe = || io::Error::from(io::ErrorKind::BrokenPipe);
        assert!(is_closed(
            &anyhow::Error::new(mark(pipe())).context("writing")
        ));
        assert!(!is_closed(&anyhow::Error::new(pipe()).context("writing")));
        let other = io::Error::from(io::ErrorKind::PermissionDenied);
        assert!(!is_closed(&anyhow::Error::new(mark(other))));
    }
}
