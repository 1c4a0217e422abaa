//! `carom`: the command-line program. Each module one job: `args` (what is
//! accepted), `load` (scenario file to world, through the core's `carom::load`), `run` (the stepping loop),
//! `output` (files written atomically), `summary` (what is printed), `error` (exit
//! statuses and one-line messages).

mod args;
mod compare;
mod error;
mod load;
mod output;
mod play;
mod play_agent;
mod render;
mod run;
mod stepping;
mod summary;
mod values;

use std::process::ExitCode;

use clap::Parser;

use args::{Cli, Command};
use error::{CliError, BAD_INPUT};

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            return match e.kind() {
                // Help and version go to stdout, as asked; running `carom` alone
                // shows the help (on stderr, status 2) rather than one cryptic line.
                ErrorKind::DisplayHelp
                | ErrorKind::DisplayVersion
                | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                    let _ = e.print();
                    ExitCode::from(e.exit_code() as u8)
                }
                _ => {
                    eprintln!("{}", args::clap_error_line(&e.render().to_string()));
                    ExitCode::from(BAD_INPUT)
                }
            };
        }
    };
    let result = match cli.command {
        Command::Run(a) => run::run(*a),
        Command::Compare(a) => compare::compare(*a),
        Command::Presets => presets(),
        Command::View(a) => view(a),
        Command::Play(a) if a.agent => play_agent::run(&a),
        Command::Play(a) => play::play(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError { status, line }) => {
            eprintln!("{line}");
            ExitCode::from(status)
        }
    }
}

/// The interactive viewer on the scenario, loaded as `carom run` loads it.
#[cfg(feature = "viewer")]
fn view(a: args::ViewArgs) -> Result<(), CliError> {
    if let Some(kind) = carom_viewer::game_named(&a.scenario) {
        let options = carom_viewer::Options {
            frames: a.frames,
            screenshot: a.screenshot,
            source: kind.name().to_string(),
            ..Default::default()
        };
        return carom_viewer::run_game(kind, a.seed.unwrap_or(1), options).map_err(|e| match e {
            carom_viewer::ViewerError::Usage(s) => CliError::input(s),
            other => CliError::run(other.to_string()),
        });
    }
    if a.seed.is_some() {
        return Err(CliError::input(format!(
            "--seed: a game's rack seed, and {} is no game",
            a.scenario
        )));
    }
    let loaded = load::load(&a.scenario, &[])?;
    let source = match carom::presets::find(&a.scenario) {
        Some(p) => format!("preset {}", p.name),
        None => a.scenario.clone(),
    };
    let options = carom_viewer::Options {
        substeps: a.substeps,
        threads: a.threads.map_or(0, |t| t as usize),
        frames: a.frames,
        screenshot: a.screenshot,
        source,
        ..Default::default()
    };
    let source = options.source.clone();
    carom_viewer::run_scenario(loaded.scenario, &source, options).map_err(|e| match e {
        carom_viewer::ViewerError::Usage(s) => CliError::input(s),
        other => CliError::run(other.to_string()),
    })
}

/// The line `carom view` answers with in a build without the viewer.
#[cfg(not(feature = "viewer"))]
const NO_VIEWER: &str = "carom view: this carom is built without the viewer; \
reinstall it with the default features to get it (cargo install --path crates/carom-cli)";

/// A build without the viewer (`--no-default-features`) says how to get one.
#[cfg(not(feature = "viewer"))]
fn view(_: args::ViewArgs) -> Result<(), CliError> {
    Err(CliError::input(NO_VIEWER))
}

/// One line per preset: its name and what it shows.
fn presets() -> Result<(), CliError> {
    let width = carom::presets::PRESETS
        .iter()
        .map(|p| p.name.len())
        .max()
        .unwrap_or(0);
    let mut text = String::new();
    for p in carom::presets::PRESETS {
        text.push_str(&format!("{:width$}  {}\n", p.name, p.summary));
    }
    print_stdout(&text);
    Ok(())
}

/// Writes to stdout; a reader that went away (`carom presets | head -1`) is not an
/// error worth a panic, so write failures are ignored.
pub fn print_stdout(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}
