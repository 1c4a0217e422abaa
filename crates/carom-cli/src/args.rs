//! The command line: what `carom` accepts, with the checks clap can make before
//! anything is loaded.

use std::path::PathBuf;

use carom::ModelKind;
use clap::{ArgGroup, Args, Parser, Subcommand};

use crate::compare::CompareArgs;
use crate::render::PictureArgs;
use crate::values::{
    parse_dt, parse_events_path, parse_every, parse_model, parse_set, parse_threads, parse_time,
    parse_trajectory_path, SetArg,
};

#[derive(Debug, Parser)]
#[command(
    name = "carom",
    version,
    about = "2D ball-collision simulator: impulse, spring, simultaneous and event-driven models",
    arg_required_else_help = true,
    // `--dt -1` must reach the value check (and be refused there), not be taken for a flag.
    allow_negative_numbers = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run a scenario and print a summary of the run
    Run(Box<RunArgs>),
    /// Run one scene under several models or integrators and compare them, one table
    /// row each, optionally drawn side by side
    Compare(Box<CompareArgs>),
    /// List the built-in scenarios, one per line
    Presets,
    /// Open the interactive viewer on a preset or a scenario file
    View(ViewArgs),
    /// Play a billiards game (eight-ball, nine-ball, ten-ball, snooker, three-cushion,
    /// sum-to-three) from a file of shots, printing each verdict
    Play(crate::play::PlayArgs),
}

#[cfg(feature = "viewer")]
#[derive(Debug, Args)]
#[command(after_help = "\
Examples:
  carom view
  carom view gas
  carom view nine-ball
  carom view snooker --seed 7
  carom view break --frames 300 --screenshot docs/viewer.png")]
pub struct ViewArgs {
    /// A built-in preset (see `carom presets`), a scenario or state file, or a game to
    /// play live (eight-ball, nine-ball, ten-ball, snooker, three-cushion, sum-to-three)
    #[arg(value_name = "SCENARIO", default_value = "break")]
    pub scenario: String,

    /// Steps of the fixed dt per displayed frame
    #[arg(long, value_name = "N", default_value_t = carom_viewer::DEFAULT_SUBSTEPS)]
    pub substeps: u32,

    /// Run this many frames, then close (after the screenshot, if asked)
    #[arg(long, value_name = "N")]
    pub frames: Option<u64>,

    /// Save a PNG of the window after --frames frames (default 300), then close
    #[arg(long, value_name = "FILE.png")]
    pub screenshot: Option<PathBuf>,

    /// Worker threads for the simulation [default: all cores]
    #[arg(long, value_name = "N", value_parser = parse_threads)]
    pub threads: Option<u64>,

    /// A game's rack seed (a game only) [default: 1]
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
}

/// `carom view` in a build without the viewer: whatever follows is taken as it comes,
/// so that every use of the command gets the line saying how to get the viewer.
#[cfg(not(feature = "viewer"))]
#[derive(Debug, Args)]
pub struct ViewArgs {
    /// What the viewer would be given
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
    pub rest: Vec<String>,
}

#[derive(Debug, Args)]
#[command(
    group(ArgGroup::new("sampled").args(["trajectory", "diagnostics"]).multiple(true)),
    after_help = "\
Exit status: 0 success; 2 bad usage or bad input (one line on stderr, nothing written);
1 the simulation failed while running (outputs hold the last good state).

Examples:
  carom run break
  carom run level5 --set physics.integrator=velocity-verlet --time 600
  carom run gas --set generators.0.n=100000 --steps 200 --threads 2
  carom run break --out state.json && carom run state.json --steps 1000"
)]
pub struct RunArgs {
    /// A built-in preset (see `carom presets`) or a scenario file (.toml or .json); a
    /// state file written by --out is a scenario too, and resumes where it stopped
    #[arg(value_name = "SCENARIO")]
    pub scenario: String,

    /// Collision model, overriding the scenario's physics.model
    #[arg(long, value_name = "M", value_parser = parse_model)]
    pub model: Option<ModelKind>,

    /// Number of steps to run, at most 10^15 (more than any run can take, as for
    /// --time) [default: the scenario's duration / dt]
    #[arg(
        long,
        value_name = "N",
        conflicts_with = "time",
        allow_negative_numbers = true
    )]
    pub steps: Option<u64>,

    /// Simulated time to run, rounded to whole steps [default: the scenario's duration]
    #[arg(long, value_name = "T", value_parser = parse_time, allow_negative_numbers = true)]
    pub time: Option<f64>,

    /// Time step, overriding the scenario's physics.dt
    #[arg(long, value_name = "DT", value_parser = parse_dt, allow_negative_numbers = true)]
    pub dt: Option<f64>,

    /// Change one value of the scenario before it is built. KEY is a dotted path into
    /// the document, a number indexing an array (physics.stiffness, balls.2.vx,
    /// generators.0.n, physics.friction.mu); an index one past the end appends. VALUE
    /// is a TOML value (10, 0.5, true, [0.0, 0.7], {kind = "dry", mu = 0.1}); anything
    /// that is not valid TOML is taken as a plain string, so names need no quotes
    /// (physics.integrator=velocity-verlet). May be repeated; applied in order.
    #[arg(long = "set", value_name = "KEY=VALUE", value_parser = parse_set)]
    pub sets: Vec<SetArg>,

    /// Write the final state (JSON; itself a scenario that resumes the run)
    #[arg(long, value_name = "STATE.json")]
    pub out: Option<PathBuf>,

    /// Write positions, velocities and periodic image counts of every ball at every
    /// sampled step, in the format of the extension: .csv (a header, then one row per
    /// ball per step: step,time,id,x,y,vx,vy,ix,iy, then angle,omega when rotation is
    /// in play, angle,wx,wy,omega for balls on cloth), .xyz (extended XYZ) or .dump /
    /// .lammpstrj (LAMMPS text dump), the last two with the box, its periodicity and
    /// the radii, for OVITO and similar tools
    #[arg(long, value_name = "FILE.csv|.xyz|.dump", value_parser = parse_trajectory_path)]
    pub trajectory: Option<PathBuf>,

    /// Write energies, momentum, collisions and the statistical observables: CSV, a
    /// header then one row per sampled step (step,time,kinetic_energy,potential_energy,
    /// total_energy,momentum_x,momentum_y,collisions,symmetry_error,packing_fraction,
    /// temperature,pressure,stress_xx,stress_xy,stress_yy, then rotational_energy when
    /// rotation is in play, in_play when balls can leave play, and psi6; symmetry_error
    /// empty without a declared symmetry; the pressure and its tensor averaged over the
    /// interval since the previous row)
    #[arg(long, value_name = "FILE.csv")]
    pub diagnostics: Option<PathBuf>,

    /// Write the event log: CSV, a header (time,kind,i,j,wall,pocket,impulse,
    /// approach_speed,phase) then one row per impact the model resolves, pocketing,
    /// open-edge exit and, on cloth, phase change (kind: ball, left, right, top, bottom,
    /// wall, pocket, exit-left, exit-right, exit-top, exit-bottom, phase; the phase
    /// entered, sliding, rolling, spinning or stationary, in the last column; empty
    /// fields for none)
    #[arg(long, value_name = "FILE.csv", value_parser = parse_events_path)]
    pub events: Option<PathBuf>,

    /// Sample --trajectory and --diagnostics every K steps (the first and the last
    /// step are always sampled) [default: 1]
    #[arg(long, value_name = "K", requires = "sampled", value_parser = parse_every,
          allow_negative_numbers = true)]
    pub every: Option<u64>,

    /// Worker threads for the parallel parts of a step; results are bit-identical for
    /// any count [default: all cores for scenes of 8192 balls or more, else 1]
    #[arg(long, value_name = "N", value_parser = parse_threads, allow_negative_numbers = true)]
    pub threads: Option<u64>,

    #[command(flatten)]
    pub picture: PictureArgs,

    /// Print nothing but errors
    #[arg(long, short)]
    pub quiet: bool,
}

/// Clap's error text in one line: its first paragraph (the usage block and the help
/// hint that follow are dropped), the "error: " prefix replaced by the program name.
pub fn clap_error_line(rendered: &str) -> String {
    let first: Vec<&str> = rendered
        .lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .filter(|l| !l.is_empty())
        .collect();
    let text = first.join(" ");
    let text = text.strip_prefix("error: ").unwrap_or(&text);
    format!("carom: {text}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clap_errors_become_one_line() {
        let rendered = "error: the following required arguments were not provided:\n  <SCENARIO>\n\nUsage: carom run <SCENARIO>\n\nFor more information, try '--help'.\n";
        assert_eq!(
            clap_error_line(rendered),
            "carom: the following required arguments were not provided: <SCENARIO>"
        );
    }
}
