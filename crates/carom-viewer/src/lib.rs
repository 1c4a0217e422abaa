//! carom's interactive viewer: a live table in a window (eframe/egui, OpenGL through
//! glow), a side panel to change the physics while it runs, a mouse ball, live energy
//! and momentum plots and diagnostics.
//!
//! [`run`] opens the window on a world. The state and logic behind the window live in
//! [`sim::Sim`], which needs no window and is what the unit tests drive.

pub mod app;
pub mod candidates;
pub mod cue_ui;
pub mod game;
pub mod game_app;
pub mod sim;
pub mod table_view;

use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;

pub use sim::{Sim, DEFAULT_SUBSTEPS};

/// The felt, drawn exactly in this colour so a screenshot can find the table.
pub const TABLE_RGB: [u8; 3] = [0x1E, 0x6B, 0x45];

/// Balls without a colour of their own.
pub const DEFAULT_BALL_RGB: [u8; 3] = [0xE0, 0xE0, 0xE0];

/// The colour a ball is drawn in.
pub fn ball_rgb(color: Option<carom::Rgb>) -> [u8; 3] {
    color.map_or(DEFAULT_BALL_RGB, |c| c.0)
}

/// How to run the viewer.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// Steps per displayed frame at speed 1.
    pub substeps: u32,
    /// Threads for the parallel parts of the step (0: all cores).
    pub threads: usize,
    /// Run this many frames, then save a screenshot (if asked) and close.
    pub frames: Option<u64>,
    /// Where to save a PNG of the window after `frames` frames (default 300).
    pub screenshot: Option<PathBuf>,
    /// Inner window size in points.
    pub window_size: [f32; 2],
    /// Where the scene came from, shown in the panel.
    pub source: String,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            substeps: DEFAULT_SUBSTEPS,
            threads: 0,
            frames: None,
            screenshot: None,
            window_size: [1280.0, 800.0],
            source: String::new(),
        }
    }
}

/// Frames run before the screenshot when `--screenshot` is given without `--frames`.
pub const DEFAULT_SCREENSHOT_FRAMES: u64 = 300;

/// Why the viewer could not do what it was asked.
#[derive(Debug, Clone, PartialEq)]
pub enum ViewerError {
    /// An option makes no sense (exit status 2 in a command line).
    Usage(String),
    /// The window could not be opened or run.
    Window(String),
    /// The screenshot could not be taken or written.
    Screenshot(String),
}

impl std::fmt::Display for ViewerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ViewerError::Usage(s) => write!(f, "{s}"),
            ViewerError::Window(s) => write!(f, "cannot run the viewer window: {s}"),
            ViewerError::Screenshot(s) => write!(f, "screenshot failed: {s}"),
        }
    }
}

impl std::error::Error for ViewerError {}

/// Opens the viewer on `world` and returns when the window is closed (or, with
/// `options.frames`, after that many frames and the screenshot).
pub fn run(world: carom::World, options: Options) -> Result<(), ViewerError> {
    let sim = Sim::new(world, options.source.clone(), options.threads);
    run_sim(sim, options)
}

/// Opens the viewer on a scenario: Reset and the saved state then keep the scenario's
/// own settings (its duration) rather than those of a snapshot.
pub fn run_scenario(
    scenario: carom::scenario::Scenario,
    source: &str,
    options: Options,
) -> Result<(), ViewerError> {
    let sim = sim::sim_for(scenario, source, options.threads).map_err(ViewerError::Usage)?;
    run_sim(sim, options)
}

/// The name of a game the viewer plays (`nine-ball`, ...), if `arg` is one.
pub fn game_named(arg: &str) -> Option<carom_games::GameKind> {
    carom_games::GameKind::parse(arg).ok()
}

/// Opens the viewer's game mode on a game racked from `seed`: two players at one
/// mouse, the verdict after each shot, ball in hand placed with a click, and the
/// predicted paths drawn while aiming.
pub fn run_game(
    kind: carom_games::GameKind,
    seed: u64,
    options: Options,
) -> Result<(), ViewerError> {
    check_script(&options)?;
    let game = carom_games::Game::new(kind, seed);
    let table_world = carom::parse::build_world(&game.setup().scenario())
        .map_err(|e| ViewerError::Usage(format!("{}: {}", kind.name(), e.message)))?;
    let title = format!("carom: {}", kind.name());
    open_window(title, options.window_size, move |cc, outcome| {
        Box::new(game_app::GameApp::new(
            cc,
            game,
            table_world,
            seed,
            &options,
            outcome,
        ))
    })
}

/// Checks `--frames` and `--screenshot`.
fn check_script(options: &Options) -> Result<(), ViewerError> {
    if options.frames == Some(0) {
        return Err(ViewerError::Usage("--frames must be at least 1".into()));
    }
    if let Some(path) = &options.screenshot {
        let ok = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("png"));
        if !ok {
            return Err(ViewerError::Usage(format!(
                "--screenshot {}: the file name must end in .png",
                path.display()
            )));
        }
    }
    Ok(())
}

fn run_sim(mut sim: Sim, options: Options) -> Result<(), ViewerError> {
    if options.substeps == 0 {
        return Err(ViewerError::Usage("--substeps must be at least 1".into()));
    }
    check_script(&options)?;
    sim.substeps = options.substeps;
    let title = format!("carom: {}", sim.world().name);
    open_window(title, options.window_size, move |cc, outcome| {
        Box::new(app::ViewerApp::new(cc, sim, &options, outcome))
    })
}

/// Opens the window and runs `app` in it until it closes; the error the app left in
/// its outcome cell (a script's failure, a bad screenshot) is the result.
fn open_window(
    title: String,
    size: [f32; 2],
    app: impl FnOnce(
            &eframe::CreationContext<'_>,
            Rc<RefCell<Option<ViewerError>>>,
        ) -> Box<dyn eframe::App>
        + 'static,
) -> Result<(), ViewerError> {
    let outcome: Rc<RefCell<Option<ViewerError>>> = Rc::new(RefCell::new(None));
    let native = eframe::NativeOptions {
        renderer: eframe::Renderer::Glow,
        viewport: eframe::egui::ViewportBuilder::default()
            .with_title(title)
            .with_inner_size(size),
        ..Default::default()
    };
    let app_outcome = Rc::clone(&outcome);
    eframe::run_native(
        "carom",
        native,
        Box::new(move |cc| Ok(app(cc, app_outcome))),
    )
    .map_err(|e| ViewerError::Window(e.to_string()))?;
    let result = outcome.borrow_mut().take();
    match result {
        Some(e) => Err(e),
        None => Ok(()),
    }
}
