//! `carom play GAME`: a billiards game (crates/carom-games) played from a shots file,
//! each verdict printed; the game saved with `--out` and the shots drawn with
//! `--render`.

use std::path::{Path, PathBuf};

use carom_games::shots_file;
use carom_games::{Game, GameKind, Setup, Shot};
use carom_render::{AnimationOptions, BallStyle, Frame, GifWriter};
use clap::Args;

use crate::error::CliError;
use crate::output::AtomicFile;

#[derive(Debug, Args)]
#[command(after_help = "\
The shots file: a header `speed,aim,english,follow,elevation`, optionally followed by
`call_ball,call_pocket` (where the rules call: a ball number and a pocket index or name,
or `safe`, or `push`) and `cue_x,cue_y` (where to put the cue ball when in hand), then
one shot per line, or `choose,NAME` to take a choice the rules offer (`accept`,
`pass-back`, `push-out`, `re-rack`, `re-rack-offender`, `free-ball`, `replace`). See
docs/games.md.

Exit status: 0 success; 2 bad usage or bad input (one line on stderr, nothing written).

Examples:
  carom play nine-ball --seed 3 --shots shots.csv --out game.json
  carom play nine-ball --agent --games 100 --noise pro
  carom play game.json --shots more.csv --render shots.gif")]
pub struct PlayArgs {
    /// A game (eight-ball, nine-ball, ten-ball, snooker, three-cushion, sum-to-three)
    /// or a game file (.json) written by --out, to resume
    #[arg(value_name = "GAME")]
    pub game: String,

    /// The seed of the rack (a new game only) [default: 1]
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,

    /// The shots to play, a CSV file
    #[arg(long, value_name = "FILE.csv")]
    pub shots: Option<PathBuf>,

    /// Draw the shots as an animation
    #[arg(long, value_name = "FILE.gif")]
    pub render: Option<PathBuf>,

    /// Save the game afterwards (resume it with `carom play GAME.json`)
    #[arg(long, value_name = "GAME.json")]
    pub out: Option<PathBuf>,

    /// Let the search player play: N seeded racks (--games), each broken and then
    /// played from ball in hand until the first miss; prints the run-out rate and the
    /// decision time per shot
    #[arg(long)]
    pub agent: bool,

    /// With --agent: how many racks (seeds S, S+1, ...) [default: 1]
    #[arg(long, value_name = "N")]
    pub games: Option<u64>,

    /// With --agent: execution noise, `amateur` (the default when the value is left
    /// out), `pro`, `none`, or four standard deviations `AIM,SPEED,ENGLISH,FOLLOW`
    /// (degrees, relative, radii, radii)
    #[arg(long, value_name = "LEVEL", num_args = 0..=1, default_missing_value = "amateur")]
    pub noise: Option<String>,
}

fn read(path: &Path, what: &str) -> Result<String, CliError> {
    std::fs::read_to_string(path)
        .map_err(|e| CliError::input(format!("{what} {}: cannot read: {e}", path.display())))
}

/// A game played from a shots file (`--agent` games go to `play_agent::run`).
pub fn play(a: PlayArgs) -> Result<(), CliError> {
    let mut game = open_game(&a)?;
    let lines = match &a.shots {
        Some(path) => {
            let text = read(path, "--shots")?;
            shots_file::parse(&path.display().to_string(), &text).map_err(CliError::input)?
        }
        None => Vec::new(),
    };
    if let Some(r) = &a.render {
        if r.extension().and_then(|e| e.to_str()) != Some("gif") {
            return Err(CliError::input(format!(
                "--render {}: the animation is a GIF: the file name must end in .gif",
                r.display()
            )));
        }
    }
    // The targets are checked (and their temporary files opened) before anything runs;
    // an error later drops them unwritten.
    let out = a
        .out
        .as_deref()
        .map(|p| AtomicFile::create("--out", p))
        .transpose()?;
    let gif = a
        .render
        .as_deref()
        .map(|p| AtomicFile::create("--render", p))
        .transpose()?;
    let origin = a
        .shots
        .as_ref()
        .map_or(String::new(), |p| p.display().to_string());
    let (mut text, shown) = play_lines(&origin, &mut game, &lines, gif.is_some())?;
    text.push_str(&standing(&game));
    if let Some(mut file) = gif {
        let bytes = animation(&game, &shown).map_err(CliError::run)?;
        file.write_all(&bytes)?;
        file.commit()?;
    }
    if let Some(mut file) = out {
        file.write_all(game.save().as_bytes())?;
        file.write_all(b"\n")?;
        file.commit()?;
    }
    crate::print_stdout(&text);
    Ok(())
}

/// A shot kept for the animation: the position it was played from, the shot and the
/// ball struck.
type Shown = (Setup, Shot, u32);

/// The game to play: a saved game (`.json`) or a new rack of the named game from
/// `--seed`; the search player's flags refused without `--agent`.
fn open_game(a: &PlayArgs) -> Result<Game, CliError> {
    for (flag, given) in [
        ("--games", a.games.is_some()),
        ("--noise", a.noise.is_some()),
    ] {
        if given {
            return Err(CliError::input(format!(
                "{flag}: only with --agent (the search player's games)"
            )));
        }
    }
    if a.game.ends_with(".json") {
        if a.seed.is_some() {
            return Err(CliError::input(
                "--seed: a resumed game keeps its position (the seed racks a new game)",
            ));
        }
        let text = read(Path::new(&a.game), "GAME")?;
        Game::load(&text).map_err(|e| CliError::input(format!("{}: {e}", a.game)))
    } else {
        let kind = GameKind::parse(&a.game).map_err(|e| CliError::input(format!("play: {e}")))?;
        Ok(Game::new(kind, a.seed.unwrap_or(1)))
    }
}

/// Plays the shots file's lines on `game`: the report, a line a shot (its verdict)
/// and a line a choice, and with `keep` each shot's position, shot and cue ball for
/// the animation. A shot the engine refused is a run error; bad input in the file
/// is an input error.
fn play_lines(
    origin: &str,
    game: &mut Game,
    lines: &[shots_file::Entry],
    keep: bool,
) -> Result<(String, Vec<Shown>), CliError> {
    let kind = game.kind();
    let mut shown: Vec<Shown> = Vec::new();
    let mut count = 0;
    // Both closures write the report; they run one at a time.
    let text = std::cell::RefCell::new(String::new());
    shots_file::play(
        origin,
        game,
        lines,
        |l, before, _, r| {
            count += 1;
            text.borrow_mut().push_str(&format!(
                "shot {count} (line {}): {}\n",
                l.line,
                r.verdict(kind)
            ));
            if keep {
                shown.push((before.clone(), l.shot, r.cue));
            }
        },
        |line, choice, g| {
            text.borrow_mut().push_str(&format!(
                "choice (line {line}): {}; player {} to shoot\n",
                choice.name(),
                g.state.player
            ));
        },
    )
    .map_err(|e| {
        if e.contains(": shot: ") {
            CliError::run(e)
        } else {
            CliError::input(e)
        }
    })?;
    Ok((text.into_inner(), shown))
}

/// The report's last lines: the scores, and the winner or who shoots next with the
/// choices on offer.
fn standing(game: &Game) -> String {
    let s = &game.state;
    let mut text = format!("scores: {} - {}\n", s.scores[0], s.scores[1]);
    if s.over {
        match s.winner {
            Some(w) => text.push_str(&format!("game over: player {w} wins\n")),
            None => text.push_str("game over: a draw\n"),
        }
    } else {
        text.push_str(&format!("player {} to shoot\n", s.player));
        let options = game.options();
        if !options.is_empty() {
            text.push_str(&format!(
                "options: {}\n",
                carom_games::rules::choice_names(&options)
            ));
        }
    }
    text
}

/// Every shot replayed from its position at the animation's frame rate, until rest (at
/// most 20 s of each shot); the final position of a game with no shots. Balls are drawn
/// in their set's dress (numbers, stripes) on a picture large enough to read them.
fn animation(game: &Game, shots: &[Shown]) -> Result<Vec<u8>, String> {
    let mut options = AnimationOptions::default();
    options.picture.size = (1024, 1024);
    let dt = 1.0 / options.fps;
    let mut worlds = Vec::new();
    for (setup, shot, cue) in shots {
        let cue = setup.balls.iter().position(|b| b.0 == *cue).unwrap_or(0);
        let mut s = setup.scenario();
        s.balls[cue].cue = Some(shot.cue());
        s.physics.dt = dt;
        let world = carom::parse::build_world(&s).map_err(|e| e.message)?;
        worlds.push((world, styles(setup)));
    }
    if worlds.is_empty() {
        let setup = game.setup();
        let world = carom::parse::build_world(&setup.scenario()).map_err(|e| e.message)?;
        worlds.push((world, styles(&setup)));
    }
    let mut bytes = Vec::new();
    let mut frame = Frame::from_world(&worlds[0].0);
    frame.styles = worlds[0].1.clone();
    let mut writer =
        GifWriter::new(&mut bytes, &[frame.clone()], &[], &options).map_err(|e| e.to_string())?;
    for (mut w, dress) in worlds {
        frame.styles = dress;
        frame.update_from_world(&w);
        writer
            .push(std::slice::from_ref(&frame))
            .map_err(|e| e.to_string())?;
        for _ in 0..(20.0 / dt) as usize {
            if carom_games::shot::at_rest(&w) {
                break;
            }
            w.run_steps(1).map_err(|e| e.to_string())?;
            frame.update_from_world(&w);
            writer
                .push(std::slice::from_ref(&frame))
                .map_err(|e| e.to_string())?;
        }
    }
    writer.finish().map_err(|e| e.to_string())?;
    Ok(bytes)
}

/// The balls' dress in a picture: the set's colours, stripes and numbers.
fn styles(setup: &Setup) -> Vec<BallStyle> {
    carom_games::styles::looks(setup)
        .into_iter()
        .map(|l| BallStyle {
            fill: l.color,
            stripe: l.stripe,
            label: l.number.map_or(String::new(), |n| n.to_string()),
        })
        .collect()
}
