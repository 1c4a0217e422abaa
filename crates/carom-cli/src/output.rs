//! Output files, written whole or not at all: each goes to a temporary file in the
//! target's directory (created before the run, so an unwritable place is reported
//! before any work) and is renamed over the target only when complete. Dropping an
//! uncommitted file removes the temporary.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use carom::{Diagnostics, World};
use tempfile::NamedTempFile;

use crate::error::CliError;

pub struct AtomicFile {
    target: PathBuf,
    /// The option that asked for it, to name it in errors.
    option: &'static str,
    out: BufWriter<NamedTempFile>,
}

impl AtomicFile {
    /// Checks the target's directory and opens the temporary file there.
    pub fn create(option: &'static str, target: &Path) -> Result<AtomicFile, CliError> {
        let shown = target.display();
        let ends_in_separator = target.to_string_lossy().ends_with(std::path::is_separator);
        if target.is_dir() || target.file_name().is_none() || ends_in_separator {
            return Err(CliError::input(format!(
                "{option} '{shown}': not a file name (it names a directory)"
            )));
        }
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        if !dir.is_dir() {
            return Err(CliError::input(format!(
                "{option} {shown}: directory {} does not exist",
                dir.display()
            )));
        }
        let mut builder = tempfile::Builder::new();
        builder.prefix(".carom-").suffix(".tmp");
        // A temporary file is private by default; the output is an ordinary file, so it
        // gets the usual mode (the umask still applies at creation).
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(std::fs::Permissions::from_mode(0o666));
        }
        let tmp = builder.tempfile_in(dir).map_err(|e| {
            CliError::input(format!(
                "{option} {shown}: cannot write in {}: {e}",
                dir.display()
            ))
        })?;
        Ok(AtomicFile {
            target: target.to_path_buf(),
            option,
            out: BufWriter::new(tmp),
        })
    }

    pub fn io_error(&self, e: impl std::fmt::Display) -> CliError {
        CliError::run(format!("{} {}: {e}", self.option, self.target.display()))
    }

    /// Flushes and renames the temporary file over the target.
    pub fn commit(self) -> Result<(), CliError> {
        let target = self.target.clone();
        let option = self.option;
        let tmp = self
            .out
            .into_inner()
            .map_err(|e| CliError::run(format!("{option} {}: {}", target.display(), e.error())))?;
        tmp.as_file()
            .sync_all()
            .map_err(|e| CliError::run(format!("{option} {}: {e}", target.display())))?;
        tmp.persist(&target)
            .map_err(|e| CliError::run(format!("{option} {}: {}", target.display(), e.error)))?;
        Ok(())
    }

    /// Writes, turning an I/O error into a run failure naming the file.
    pub fn write_all(&mut self, bytes: &[u8]) -> Result<(), CliError> {
        let r = self.out.write_all(bytes);
        r.map_err(|e| self.io_error(e))
    }
}

/// Lets encoders that stream (the animation of `--render`) write straight into the
/// temporary file.
impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.out.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// The particle formats `--trajectory` writes, chosen by the file's extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrajectoryFormat {
    /// `.csv`: a header, then one row per ball per sample.
    Csv,
    /// `.xyz`: extended XYZ, one frame per sample (OVITO, ASE).
    ExtendedXyz,
    /// `.dump`, `.lammpstrj`: the LAMMPS text dump, one frame per sample.
    LammpsDump,
}

impl TrajectoryFormat {
    pub fn from_path(path: &Path) -> Result<TrajectoryFormat, String> {
        let ext = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        match ext.as_str() {
            "csv" => Ok(TrajectoryFormat::Csv),
            "xyz" => Ok(TrajectoryFormat::ExtendedXyz),
            "dump" | "lammpstrj" => Ok(TrajectoryFormat::LammpsDump),
            // GSD is binary, written with its maintainers' own package from Python.
            "gsd" => Err(format!(
                "{}: GSD trajectories are written from Python (carom.write_gsd, with the gsd \
                 package); the command line writes .csv, .xyz, .dump or .lammpstrj",
                path.display()
            )),
            "" => Err(format!(
                "{}: no file extension to tell the trajectory format (use .csv, .xyz, .dump or \
                 .lammpstrj)",
                path.display()
            )),
            _ => Err(format!(
                "{}: unknown trajectory format '.{ext}' (use .csv, .xyz, .dump or .lammpstrj)",
                path.display()
            )),
        }
    }
}

/// Which spin columns a trajectory carries besides position, velocity and images.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spins {
    /// None: the columns from before rotation existed.
    None,
    /// `angle`, `omega`: rotation is in play (`carom::state::rotation_in_play`).
    Disk,
    /// `angle`, `wx`, `wy`, `omega`: the balls are spheres, on cloth or given spins
    /// about the table's axes (`carom::state::spheres_in_play`). The angular velocity
    /// `(wx, wy, omega)` is a vector in the positions' frame (x, y, and z into the
    /// table), so the three columns are in that order.
    Sphere,
}

impl Spins {
    /// The columns the world's state calls for (as the state file decides which of
    /// these keys it writes).
    pub fn of(world: &World) -> Spins {
        if carom::state::spheres_in_play(world) {
            Spins::Sphere
        } else if carom::state::rotation_in_play(world) {
            Spins::Disk
        } else {
            Spins::None
        }
    }

    /// The extra column names, in order.
    fn names(self) -> &'static [&'static str] {
        match self {
            Spins::None => &[],
            Spins::Disk => &["angle", "omega"],
            Spins::Sphere => &["angle", "wx", "wy", "omega"],
        }
    }
}

/// `--trajectory`: every ball at every sampled step, in the format of the extension.
/// Each ball also carries the spin columns of [`Spins`]; without rotation the columns
/// are those from before rotation existed.
pub struct Trajectory {
    file: AtomicFile,
    format: TrajectoryFormat,
    line: String,
    spins: Spins,
}

impl Trajectory {
    pub const HEADER: &'static str = "step,time,id,x,y,vx,vy,ix,iy\n";

    pub fn create(target: &Path, spins: Spins) -> Result<Trajectory, CliError> {
        let format = TrajectoryFormat::from_path(target).map_err(CliError::input)?;
        let mut file = AtomicFile::create("--trajectory", target)?;
        if format == TrajectoryFormat::Csv {
            let mut header = Self::HEADER.trim_end_matches('\n').to_string();
            for name in spins.names() {
                header.push(',');
                header.push_str(name);
            }
            header.push('\n');
            file.write_all(header.as_bytes())?;
        }
        Ok(Trajectory {
            file,
            format,
            line: String::with_capacity(256),
            spins,
        })
    }

    /// Every ball at the world's current step. Floats are written in their shortest
    /// form that reads back to the same value. The image counts `ix`, `iy` say how many
    /// times a ball crossed a periodic side (`x + ix * width` unwraps it); the particle
    /// formats add `iz = 0` and `z = vz = 0`, the table being a plane.
    pub fn sample(&mut self, world: &World) -> Result<(), CliError> {
        use std::fmt::Write as _;
        let b = world.balls();
        let t = world.table();
        let pbc = |axis: usize| if t.is_periodic(axis) { 'T' } else { 'F' };
        // Balls that left play are left out of the frames from then on.
        let count = world.in_play_count();
        let line = &mut self.line;
        line.clear();
        let names = self.spins.names();
        match self.format {
            TrajectoryFormat::Csv => {}
            TrajectoryFormat::ExtendedXyz => {
                // The comment line of extended XYZ: the cell as three lattice vectors
                // (z of unit depth), periodicity per axis, and the columns.
                let _ = writeln!(line, "{count}");
                let _ = writeln!(
                    line,
                    "Lattice=\"{} 0 0 0 {} 0 0 0 1\" Origin=\"0 0 0\" \
                     Properties=id:I:1:pos:R:3:velo:R:3:radius:R:1:image:I:3{} \
                     pbc=\"{} {} F\" Time={} Step={}",
                    t.width,
                    t.height,
                    XyzColumns(names),
                    pbc(0),
                    pbc(1),
                    world.time,
                    world.steps
                );
            }
            TrajectoryFormat::LammpsDump => {
                let p = |axis: usize| if t.is_periodic(axis) { "pp" } else { "ff" };
                let _ = write!(
                    line,
                    "ITEM: TIMESTEP\n{}\nITEM: TIME\n{}\nITEM: NUMBER OF ATOMS\n{}\n\
                     ITEM: BOX BOUNDS {} {} ff\n0 {}\n0 {}\n-0.5 0.5\n\
                     ITEM: ATOMS id type x y z vx vy vz radius ix iy iz{}\n",
                    world.steps,
                    world.time,
                    count,
                    p(0),
                    p(1),
                    t.width,
                    t.height,
                    DumpColumns(names)
                );
            }
        }
        self.file.write_all(line.as_bytes())?;
        for i in 0..b.len() {
            if !world.is_in_play(i) {
                continue;
            }
            line.clear();
            let _ = match self.format {
                TrajectoryFormat::Csv => write!(
                    line,
                    "{},{},{},{},{},{},{},{},{}",
                    world.steps, world.time, i, b.x[i], b.y[i], b.vx[i], b.vy[i], b.ix[i], b.iy[i]
                ),
                TrajectoryFormat::ExtendedXyz => write!(
                    line,
                    "{} {} {} 0 {} {} 0 {} {} {} 0",
                    i, b.x[i], b.y[i], b.vx[i], b.vy[i], b.r[i], b.ix[i], b.iy[i]
                ),
                // LAMMPS numbers atoms from 1. Every ball has type 1: readers (ASE,
                // MDAnalysis) key on the column, and the radius has its own.
                TrajectoryFormat::LammpsDump => write!(
                    line,
                    "{} 1 {} {} 0 {} {} 0 {} {} {} 0",
                    i + 1,
                    b.x[i],
                    b.y[i],
                    b.vx[i],
                    b.vy[i],
                    b.r[i],
                    b.ix[i],
                    b.iy[i]
                ),
            };
            if self.spins != Spins::None {
                let sep = if self.format == TrajectoryFormat::Csv {
                    ','
                } else {
                    ' '
                };
                let _ = write!(line, "{sep}{}", b.angle[i]);
                if self.spins == Spins::Sphere {
                    let _ = write!(line, "{sep}{}{sep}{}", b.wx[i], b.wy[i]);
                }
                let _ = write!(line, "{sep}{}", b.omega[i]);
            }
            line.push('\n');
            self.file.write_all(line.as_bytes())?;
        }
        Ok(())
    }

    pub fn commit(self) -> Result<(), CliError> {
        self.file.commit()
    }
}

/// Extended XYZ's property list for the spin columns: `:angle:R:1:omega:R:1` and so on.
struct XyzColumns(&'static [&'static str]);

impl std::fmt::Display for XyzColumns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.iter().try_for_each(|n| write!(f, ":{n}:R:1"))
    }
}

/// A LAMMPS dump's column names for the spin columns: ` angle omega` and so on.
struct DumpColumns(&'static [&'static str]);

impl std::fmt::Display for DumpColumns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.iter().try_for_each(|n| write!(f, " {n}"))
    }
}

/// `--diagnostics`: a header, then one row per sample; a column `rotational_energy`
/// when rotation is in play, then `in_play` when balls can leave play (the columns are
/// otherwise those from before either existed).
/// The event log (`--events`), streamed: rows are written as the run takes them.
pub struct EventsCsv {
    file: AtomicFile,
    rows: Vec<carom::event_log::LoggedEvent>,
}

impl EventsCsv {
    pub fn create(target: &Path) -> Result<EventsCsv, CliError> {
        let mut file = AtomicFile::create("--events", target)?;
        file.write_all(format!("{}\n", carom::event_log::CSV_HEADER).as_bytes())?;
        Ok(EventsCsv {
            file,
            rows: Vec::new(),
        })
    }

    /// Writes the rows the world logged since the last call.
    pub fn drain(&mut self, world: &mut World) -> Result<(), CliError> {
        world.take_events(&mut self.rows);
        let mut text = String::new();
        for row in self.rows.drain(..) {
            text += &carom::event_log::csv_line(&row);
            text.push('\n');
        }
        self.file.write_all(text.as_bytes())
    }

    pub fn commit(self) -> Result<(), CliError> {
        self.file.commit()
    }
}

pub struct DiagnosticsCsv {
    file: AtomicFile,
    rotation: bool,
    in_play: bool,
    /// The chain sampler's `z` and `beta_p` columns, last.
    chain: bool,
}

impl DiagnosticsCsv {
    pub const HEADER: &'static str = "step,time,kinetic_energy,potential_energy,total_energy,\
momentum_x,momentum_y,collisions,symmetry_error,packing_fraction,temperature,pressure,\
stress_xx,stress_xy,stress_yy\n";

    pub fn create(
        target: &Path,
        rotation: bool,
        in_play: bool,
        chain: bool,
    ) -> Result<DiagnosticsCsv, CliError> {
        let mut file = AtomicFile::create("--diagnostics", target)?;
        let mut header = Self::HEADER.trim_end_matches('\n').to_string();
        if rotation {
            header += ",rotational_energy";
        }
        if in_play {
            header += ",in_play";
        }
        header += ",psi6";
        if chain {
            header += ",z,beta_p";
        }
        header.push('\n');
        file.write_all(header.as_bytes())?;
        Ok(DiagnosticsCsv {
            file,
            rotation,
            in_play,
            chain,
        })
    }

    /// One row; `symmetry_error` is empty when the scenario declares no symmetry; the
    /// pressure and the stress tensor are averaged over the interval since the previous
    /// row (the first row's interval has no length: its kinetic part alone).
    pub fn sample(&mut self, steps: u64, time: f64, d: &Diagnostics) -> Result<(), CliError> {
        let sym = d.symmetry_error.map(|s| s.to_string()).unwrap_or_default();
        let mut rot = if self.rotation {
            format!(",{}", d.rotational_energy)
        } else {
            String::new()
        };
        if self.in_play {
            rot += &format!(",{}", d.in_play.unwrap_or(0));
        }
        rot += &format!(",{}", d.psi6.unwrap_or(f64::NAN));
        if self.chain {
            // Over the interval since the previous row, as the pressure.
            let c = d.chain.unwrap_or_default();
            rot += &format!(",{},{}", c.z, c.beta_p);
        }
        let row = format!(
            "{steps},{time},{},{},{},{},{},{},{sym},{},{},{},{},{},{}{rot}\n",
            d.kinetic_energy,
            d.potential_energy,
            d.total_energy,
            d.momentum[0],
            d.momentum[1],
            d.collisions,
            d.packing_fraction,
            d.temperature,
            d.pressure,
            d.stress_xx,
            d.stress_xy,
            d.stress_yy
        );
        self.file.write_all(row.as_bytes())
    }

    pub fn commit(self) -> Result<(), CliError> {
        self.file.commit()
    }
}

/// `--out`: the state, as pretty JSON, encoded straight into the file (through its
/// buffer) rather than built whole in memory first: at a million balls the text alone
/// is some 300 MB.
pub fn write_state(file: AtomicFile, state: &impl serde::Serialize) -> Result<(), CliError> {
    let mut file = file;
    if let Err(e) = serde_json::to_writer_pretty(&mut file, state) {
        return Err(file.io_error(e));
    }
    file.write_all(b"\n")?;
    file.commit()
}
