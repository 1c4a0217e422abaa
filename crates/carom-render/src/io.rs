//! Output files are written whole or not at all: into a temporary file beside the
//! target, renamed over it only once complete.

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::RenderError;

/// A file being written under a temporary name; [`AtomicFile::commit`] puts it in place,
/// dropping it uncommitted removes it.
pub struct AtomicFile {
    target: PathBuf,
    temp: PathBuf,
    file: Option<BufWriter<File>>,
}

impl AtomicFile {
    /// Opens a hidden temporary file beside `target`; nothing appears at `target` until
    /// [`AtomicFile::commit`].
    pub fn create(target: &Path) -> Result<AtomicFile, RenderError> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let name = target
            .file_name()
            .ok_or_else(|| RenderError::Io(format!("{}: not a file name", target.display())))?;
        // Every carom temporary is named `.carom-*.tmp` (hidden, never an output's
        // name), so what a killed process leaves behind is recognisable; the process
        // id and a counter keep concurrent writers apart.
        let temp = target.with_file_name(format!(
            ".carom-{}-{}-{}.tmp",
            name.to_string_lossy(),
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        let file = File::create(&temp).map_err(|e| io_error(target, &e))?;
        Ok(AtomicFile {
            target: target.to_path_buf(),
            temp,
            file: Some(BufWriter::new(file)),
        })
    }

    /// Flushes and renames the file into place.
    pub fn commit(mut self) -> Result<(), RenderError> {
        let Some(file) = self.file.take() else {
            return Err(RenderError::Io(format!(
                "{}: written twice",
                self.target.display()
            )));
        };
        let file = file
            .into_inner()
            .map_err(|e| io_error(&self.target, e.error()))?;
        file.sync_all().map_err(|e| io_error(&self.target, &e))?;
        drop(file);
        fs::rename(&self.temp, &self.target).map_err(|e| io_error(&self.target, &e))?;
        Ok(())
    }

    /// The path the file is written to on commit.
    pub fn target(&self) -> &Path {
        &self.target
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self.file.as_mut() {
            Some(f) => f.write(buf),
            None => Err(io::Error::other("file already committed")),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.file.as_mut() {
            Some(f) => f.flush(),
            None => Ok(()),
        }
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = fs::remove_file(&self.temp);
        }
    }
}

/// Writes `bytes` to `path` whole or not at all.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), RenderError> {
    let mut f = AtomicFile::create(path)?;
    f.write_all(bytes).map_err(|e| io_error(path, &e))?;
    f.commit()
}

pub(crate) fn io_error(path: &Path, e: &io::Error) -> RenderError {
    RenderError::Io(format!("{}: {e}", path.display()))
}
