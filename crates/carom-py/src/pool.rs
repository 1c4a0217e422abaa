//! `carom.pool`'s Rust half: games (`Game`), shot results (`ShotResult`), aiming,
//! batches of candidate shots and one shot in each of many games. The games layer
//! (`carom_games`) does everything; this file converts values and names bad input as
//! `ScenarioError`, a failure while a shot runs as `SimulationError`. Shots run without
//! the GIL.

use carom::load::{self, Source};
use carom::parse::Format;
use carom_games::rules::{Call, Choice};
use carom_games::{aim, candidates, many, threads, Game, GameKind, Shot, ShotResult};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::convert::events_dict;

mod args;
mod columns;
use crate::{guarded, scenario_error, PyWorld, SimulationError};
use args::*;
pub(crate) use args::{call_object, number, shown, whole};

#[pyclass(frozen, module = "carom.pool", name = "ShotResult")]
pub struct PyShotResult {
    #[pyo3(get)]
    shooter: usize,
    #[pyo3(get)]
    first_contact: Option<u32>,
    #[pyo3(get)]
    cushions: Vec<(f64, u32)>,
    #[pyo3(get)]
    pocketed: Vec<(f64, u32, u32)>,
    #[pyo3(get)]
    foul: Option<String>,
    #[pyo3(get)]
    foul_what: Option<String>,
    #[pyo3(get)]
    points: (i64, i64),
    #[pyo3(get)]
    turn_over: bool,
    #[pyo3(get)]
    next_player: usize,
    #[pyo3(get)]
    ball_in_hand: Option<&'static str>,
    #[pyo3(get)]
    game_over: bool,
    #[pyo3(get)]
    winner: Option<usize>,
    #[pyo3(get)]
    call: Py<PyAny>,
    #[pyo3(get)]
    options: Vec<&'static str>,
    #[pyo3(get)]
    verdict: String,
    #[pyo3(get)]
    events: Py<PyDict>,
}

impl PyShotResult {
    fn new(
        py: Python<'_>,
        kind: GameKind,
        numbers: &[u32],
        call: Option<Call>,
        r: ShotResult,
    ) -> PyResult<PyShotResult> {
        let number = |i: u32| numbers.get(i as usize).map_or(-1, |&n| i64::from(n));
        let events = events_dict(py, &r.events, number)?.unbind();
        Ok(PyShotResult {
            shooter: r.shooter,
            first_contact: r.facts.first_contact,
            cushions: r.facts.cushions.clone(),
            pocketed: r.facts.pocketed.clone(),
            foul: r.foul.as_ref().map(|f| f.rule.clone()),
            foul_what: r.foul.as_ref().map(|f| f.what.clone()),
            points: (r.points[0], r.points[1]),
            turn_over: r.turn_over,
            next_player: r.next_player,
            ball_in_hand: r.ball_in_hand.map(placement_name),
            game_over: r.game_over,
            winner: r.winner,
            call: call_object(py, call)?,
            options: r.options.iter().map(|c| c.name()).collect(),
            verdict: r.verdict(kind),
            events,
        })
    }
}

#[pymethods]
impl PyShotResult {
    fn __repr__(&self) -> String {
        format!("<carom.pool.ShotResult: {}>", self.verdict)
    }
}

/// A game of billiards in progress (see `docs/python.md`, `carom.pool`).
#[pyclass(module = "carom.pool", name = "Game")]
pub struct PyGame {
    pub(crate) game: Game,
}

impl PyGame {
    /// The numbers of the balls on the table, in the position's order.
    fn on_table(&self) -> Vec<u32> {
        self.game.balls.iter().map(|b| b.0).collect()
    }
}

#[pymethods]
impl PyGame {
    /// `Game(name, seed=1)` racks a game (the breaker, `player`, to shoot);
    /// `Game(name, layout={"cue": (x, y), 1: (x, y), ...}, player=0)` starts from any
    /// position (metres, the table's frame), not a break.
    #[new]
    #[pyo3(signature = (name, seed=None, layout=None, player=None))]
    fn py_new(
        name: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
        layout: Option<&Bound<'_, PyAny>>,
        player: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyGame> {
        guarded(|| {
            let name: String = name.extract().map_err(|_| {
                scenario_error(format!("game: expected a name, got {}", shown(name)))
            })?;
            let kind = GameKind::parse(&name).map_err(|e| scenario_error(format!("game: {e}")))?;
            let player = player.map_or(Ok(0), |p| whole(p, "player", 1))? as usize;
            let game = match (seed, layout) {
                (Some(_), Some(_)) => {
                    return Err(scenario_error("give seed or layout, not both"));
                }
                (None, Some(l)) => {
                    Game::layout(kind, &layout_of(l)?, player).map_err(scenario_error)?
                }
                (s, None) => {
                    let seed = s.map_or(Ok(1), |s| whole(s, "seed", u64::MAX))?;
                    Game::from_setup(carom_games::Setup::new(kind, seed), player)
                }
            };
            Ok(PyGame { game })
        })
    }

    /// The game's name.
    #[getter]
    fn name(&self) -> &'static str {
        self.game.kind().name()
    }

    /// The table's kind (`pool-9ft`, `snooker`, `carom`, ...).
    #[getter]
    fn table(&self) -> &'static str {
        self.game.table.kind.name()
    }

    /// The player to shoot, 0 or 1.
    #[getter]
    fn player(&self) -> usize {
        self.game.state.player
    }

    #[getter]
    fn scores(&self) -> (i64, i64) {
        (self.game.state.scores[0], self.game.state.scores[1])
    }

    /// None, or where the player to shoot may put the cue ball: "anywhere",
    /// "behind-head-string" or "in-d".
    #[getter]
    fn ball_in_hand(&self) -> Option<&'static str> {
        self.game.state.ball_in_hand.map(placement_name)
    }

    #[getter]
    fn over(&self) -> bool {
        self.game.state.over
    }

    /// The winner once the game is over (None: not over, or a draw).
    #[getter]
    fn winner(&self) -> Option<usize> {
        self.game.state.winner
    }

    /// Shots played so far (0: the next is the break).
    #[getter]
    fn shots(&self) -> u32 {
        self.game.state.shots
    }

    /// The ball the player to shoot strikes.
    #[getter]
    fn cue_ball(&self) -> u32 {
        self.game.kind().cue_ball(self.game.state.player)
    }

    /// Every ball of the game's set, in number order.
    #[getter]
    fn numbers(&self) -> Vec<u32> {
        self.game.kind().numbers()
    }

    /// The balls on the table: {number: (x, y)}, the cue ball first.
    #[getter]
    fn balls<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for &(n, p) in &self.game.balls {
            d.set_item(n, (p[0], p[1]))?;
        }
        Ok(d)
    }

    /// A `carom.World` of the table now: its balls in the order of `balls`, at rest.
    #[getter]
    fn world(&self) -> PyResult<PyWorld> {
        guarded(|| {
            let scenario = self.game.setup().scenario();
            let text = serde_json::to_string(&scenario)
                .map_err(|e| SimulationError::new_err(format!("world: {e}")))?;
            let mut src = Source::text(self.game.kind().name(), text, Format::Json);
            src.lines = false;
            let loaded = load::build(&src, &[]).map_err(scenario_error)?;
            PyWorld::new(loaded, src.origin, Some(1))
        })
    }

    /// Puts the cue ball at (x, y): only with ball in hand, where the rules allow and
    /// clear of the other balls; else `ScenarioError` (a `ValueError`).
    fn place_cue_ball(&mut self, x: &Bound<'_, PyAny>, y: &Bound<'_, PyAny>) -> PyResult<()> {
        guarded(|| {
            let (x, y) = (
                number(x, "place_cue_ball: x")?,
                number(y, "place_cue_ball: y")?,
            );
            self.game.place_cue_ball(x, y).map_err(scenario_error)
        })
    }

    /// The choices the rules give the player to move besides shooting, by name
    /// (`push-out`, `accept`, `pass-back`, `re-rack`, `re-rack-offender`, `free-ball`,
    /// `replace`); shooting without choosing accepts the table.
    fn options(&self) -> Vec<&'static str> {
        self.game.options().iter().map(|c| c.name()).collect()
    }

    /// Takes one of `options()`; `ScenarioError` naming it otherwise, nothing changed.
    fn choose(&mut self, option: &Bound<'_, PyAny>) -> PyResult<()> {
        guarded(|| {
            let name: String = option.extract().map_err(|_| {
                scenario_error(format!(
                    "choose: expected an option's name, got {}",
                    shown(option)
                ))
            })?;
            let choice =
                Choice::parse(&name).map_err(|e| scenario_error(format!("choose: {e}")))?;
            self.game.choose(choice).map_err(scenario_error)
        })
    }

    /// Plays a shot (the GIL released while it runs), judges it and moves the game on.
    #[pyo3(signature = (speed, aim, english=None, follow=None, elevation=None, call=None))]
    #[allow(clippy::too_many_arguments)]
    fn shoot(
        &mut self,
        py: Python<'_>,
        speed: &Bound<'_, PyAny>,
        aim: &Bound<'_, PyAny>,
        english: Option<&Bound<'_, PyAny>>,
        follow: Option<&Bound<'_, PyAny>>,
        elevation: Option<&Bound<'_, PyAny>>,
        call: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyShotResult> {
        guarded(|| {
            let opt = |v: Option<&Bound<'_, PyAny>>, what| v.map_or(Ok(0.0), |v| number(v, what));
            let shot = Shot {
                speed: number(speed, "speed")?,
                aim: number(aim, "aim")?,
                english: opt(english, "english")?,
                follow: opt(follow, "follow")?,
                elevation: opt(elevation, "elevation")?,
            };
            let call = call_of(&self.game, call)?;
            many::check(&self.game, &shot, call).map_err(scenario_error)?;
            let numbers = self.on_table();
            let game = &mut self.game;
            let r = py
                .detach(|| game.shoot(&shot, call))
                .map_err(|e| SimulationError::new_err(load::one_line(&e)))?;
            PyShotResult::new(py, self.game.kind(), &numbers, call, r)
        })
    }

    /// Writes the game as JSON that resumes exactly (whole or not at all).
    fn save(&self, path: std::path::PathBuf) -> PyResult<()> {
        guarded(|| {
            let mut text = self.game.save();
            text.push('\n');
            carom_render::write_atomic(&path, text.as_bytes())
                .map_err(|e| pyo3::exceptions::PyOSError::new_err(e.to_string()))
        })
    }

    /// A game saved by `save`, resumed exactly; `ScenarioError` naming what is wrong.
    #[staticmethod]
    fn load(path: std::path::PathBuf) -> PyResult<PyGame> {
        guarded(|| {
            let shown = path.display().to_string();
            let text = std::fs::read_to_string(&path)
                .map_err(|e| scenario_error(format!("{shown}: cannot read the file: {e}")))?;
            let game = Game::load(&text).map_err(|e| scenario_error(format!("{shown}: {e}")))?;
            Ok(PyGame { game })
        })
    }

    /// The game as the JSON text `save` writes.
    fn to_json(&self) -> String {
        self.game.save()
    }

    /// A game from the JSON text `save` writes.
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<PyGame> {
        guarded(|| {
            let game = Game::load(text).map_err(scenario_error)?;
            Ok(PyGame { game })
        })
    }

    /// An independent copy of the game.
    fn copy(&self) -> PyGame {
        PyGame {
            game: self.game.clone(),
        }
    }

    /// Pickling saves the game's JSON; unpickling resumes it exactly.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let from_json = slf.get_type().getattr("from_json")?;
        Ok((from_json, (slf.borrow().game.save(),)))
    }

    fn __copy__(&self) -> PyGame {
        self.copy()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        self.copy()
    }

    /// The table's pockets: [(name, (x, y))], the index of each its place here.
    fn pockets(&self) -> Vec<(&'static str, (f64, f64))> {
        self.game
            .table
            .pockets
            .iter()
            .map(|p| (p.name, (p.center[0], p.center[1])))
            .collect()
    }

    fn __repr__(&self) -> String {
        let s = &self.game.state;
        format!(
            "<carom.pool.Game {}: {} balls on the table, player {} to shoot, scores {} - {}{}>",
            self.game.kind().name(),
            self.game.balls.len(),
            s.player,
            s.scores[0],
            s.scores[1],
            if s.over { ", over" } else { "" }
        )
    }

    /// `pool.aim`: the ghost-ball aim, or with `solve` the aim found with the engine;
    /// with `kind` (and `cushions`, `via`) the route's mirror-image guess, or with
    /// `solve` that route solved.
    #[pyo3(signature = (ball, pocket=None, solve=false, speed=None, english=None, follow=None, kind=None, cushions=None, via=None))]
    #[allow(clippy::too_many_arguments)]
    fn _aim(
        &self,
        py: Python<'_>,
        ball: &Bound<'_, PyAny>,
        pocket: Option<&Bound<'_, PyAny>>,
        solve: bool,
        speed: Option<&Bound<'_, PyAny>>,
        english: Option<&Bound<'_, PyAny>>,
        follow: Option<&Bound<'_, PyAny>>,
        kind: Option<&Bound<'_, PyAny>>,
        cushions: Option<&Bound<'_, PyAny>>,
        via: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<f64>> {
        guarded(|| {
            let ball = whole(ball, "aim: ball", u64::from(u32::MAX))? as u32;
            let pocket = pocket
                .filter(|p| !p.is_none())
                .map(|p| pocket_of(&self.game, p, "aim: pocket"))
                .transpose()?;
            let opt = |v: Option<&Bound<'_, PyAny>>, what, d| v.map_or(Ok(d), |v| number(v, what));
            let (speed, english, follow) = (
                opt(speed, "aim: speed", 3.0)?,
                opt(english, "aim: english", 0.0)?,
                opt(follow, "aim: follow", 0.0)?,
            );
            let route = route_of(kind, cushions, via)?;
            if let Some(route) = route {
                let Some(pocket) = pocket else {
                    return Err(scenario_error(format!(
                        "aim: a {} shot needs a pocket",
                        route.kind()
                    )));
                };
                let game = &self.game;
                return if solve {
                    py.detach(|| {
                        threads::install(|| {
                            aim::solve_route(game, ball, pocket, route, speed, english, follow)
                        })
                    })
                    .map(|s| s.map(|s| s.aim))
                } else {
                    aim::route_guess(game, ball, pocket, route).map(Some)
                }
                .map_err(scenario_error);
            }
            if !solve {
                return aim::ghost_aim_checked(&self.game, ball, pocket)
                    .map(Some)
                    .map_err(scenario_error);
            }
            let Some(pocket) = pocket else {
                return Err(scenario_error("aim: solve=True needs a pocket"));
            };
            let game = &self.game;
            py.detach(|| {
                threads::install(|| aim::solve_checked(game, ball, pocket, speed, english, follow))
            })
            .map(|s| s.map(|s| s.aim))
            .map_err(scenario_error)
        })
    }

    /// `pool.shots`: the candidate shots of the position, solved with the engine.
    fn _shots<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let game = &self.game;
        let list = py.detach(|| threads::install(|| candidates::shots(game)));
        list.iter()
            .map(|c| {
                let d = PyDict::new(py);
                d.set_item("kind", c.route.kind())?;
                d.set_item("ball", c.ball)?;
                d.set_item("pocket", c.pocket)?;
                d.set_item("pocket_name", self.game.table.pockets[c.pocket].name)?;
                d.set_item("cushions", c.route.cushions())?;
                d.set_item("via", c.route.via())?;
                d.set_item("speed", c.speed)?;
                d.set_item("aim", c.aim)?;
                d.set_item("window", c.window)?;
                d.set_item("ease", c.ease)?;
                d.set_item("call", call_object(py, c.call)?)?;
                Ok(d)
            })
            .collect()
    }

    /// `pool.simulate_shots`: every shot of an (n, 5) array from this position.
    #[pyo3(signature = (shots, call=None, threads=None))]
    fn _simulate_shots<'py>(
        &self,
        py: Python<'py>,
        shots: &Bound<'py, PyAny>,
        call: Option<&Bound<'py, PyAny>>,
        threads: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        guarded(|| {
            let (n, rows) = rows_of(py, shots, "shots", 5)?;
            let shots = shots_of(&rows)?;
            let call = call_of(&self.game, call)?;
            if self.game.state.over {
                return Err(scenario_error("simulate_shots: the game is over"));
            }
            many::check_call(&self.game, call).map_err(scenario_error)?;
            let threads = threads.map_or(Ok(0), |t| whole(t, "threads", 1024))? as usize;
            let game = &self.game;
            let numbers = self.on_table();
            let (nb, balls) = (numbers.len(), &numbers);
            let c = py
                .detach(|| columns::simulate(game, &shots, call, threads, balls))
                .map_err(scenario_error)?;
            let columns::Columns {
                pocketed,
                cushions,
                positions,
                first,
                foul,
                points,
                turn_over,
                game_over,
                winner,
                errors,
            } = c;
            let d = PyDict::new(py);
            d.set_item(
                "balls",
                PyArray1::from_vec(py, numbers.iter().map(|&b| i64::from(b)).collect()),
            )?;
            d.set_item(
                "pocketed",
                PyArray1::from_vec(py, pocketed).reshape([n, nb])?,
            )?;
            d.set_item("first_contact", PyArray1::from_vec(py, first))?;
            d.set_item(
                "cushions",
                PyArray1::from_vec(py, cushions).reshape([n, nb])?,
            )?;
            d.set_item("foul", PyArray1::from_vec(py, foul))?;
            d.set_item("points", PyArray1::from_vec(py, points))?;
            d.set_item(
                "positions",
                PyArray1::from_vec(py, positions).reshape([n, nb, 2])?,
            )?;
            d.set_item("turn_over", PyArray1::from_vec(py, turn_over))?;
            d.set_item("game_over", PyArray1::from_vec(py, game_over))?;
            d.set_item("winner", PyArray1::from_vec(py, winner))?;
            d.set_item(
                "error",
                py.import("numpy")?.call_method1("array", (errors, "U"))?,
            )?;
            Ok(d)
        })
    }
}

/// One shot in each game (row k of `shots` in `games[k]`), in parallel without the
/// GIL, each with the call the shot itself makes when `auto_call` (see
/// `carom_games::many::auto_call`). Bad input (checked first) raises and moves no
/// game; then each game moves on with its `ShotResult`, or, when the engine gave up
/// on its shot, stays as it was and its entry is the message (a str).
#[pyfunction]
#[pyo3(signature = (games, shots, auto_call=true, threads=None))]
pub(crate) fn _pool_shoot_each(
    py: Python<'_>,
    games: Vec<Bound<'_, PyGame>>,
    shots: &Bound<'_, PyAny>,
    auto_call: bool,
    threads: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<Py<PyAny>>> {
    guarded(|| {
        let (n, rows) = rows_of(py, shots, "shots", 5)?;
        if n != games.len() {
            return Err(scenario_error(format!(
                "shots: {n} rows for {} games (one each)",
                games.len()
            )));
        }
        for (k, g) in games.iter().enumerate() {
            if games[..k].iter().any(|h| h.is(g)) {
                return Err(scenario_error(format!("games[{k}]: the same game twice")));
            }
        }
        let shots = shots_of(&rows)?;
        let threads = threads.map_or(Ok(0), |t| whole(t, "threads", 1024))? as usize;
        let mut copies = Vec::with_capacity(n);
        for (k, (g, s)) in games.iter().zip(&shots).enumerate() {
            let g = g.try_borrow()?;
            if auto_call {
                if g.game.state.over {
                    return Err(scenario_error(format!("games[{k}]: the game is over")));
                }
            } else {
                many::check(&g.game, s, None)
                    .map_err(|e| scenario_error(format!("games[{k}]: {e}")))?;
            }
            copies.push(g.game.clone());
        }
        let numbers: Vec<Vec<u32>> = copies
            .iter()
            .map(|g| g.balls.iter().map(|b| b.0).collect())
            .collect();
        let results = py
            .detach(|| many::shoot_each(&mut copies, &shots, auto_call, threads))
            .map_err(scenario_error)?;
        let mut out = Vec::with_capacity(n);
        for (k, (r, copy)) in results.into_iter().zip(copies).enumerate() {
            match r {
                Ok((call, r)) => {
                    let kind = copy.kind();
                    games[k].try_borrow_mut()?.game = copy;
                    let r = PyShotResult::new(py, kind, &numbers[k], call, r)?;
                    out.push(Bound::new(py, r)?.into_any().unbind());
                }
                // That game stays as it was; the message says why.
                Err(e) => out.push(load::one_line(&e).into_pyobject(py)?.into_any().unbind()),
            }
        }
        Ok(out)
    })
}
