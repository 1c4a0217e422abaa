//! The search player's candidate shots as the game mode shows them (the `c` key): each
//! candidate of [`carom_games::candidates::shots`] (direct pots, banks, kicks and
//! combinations, solved with the engine in the loop) with its kind, the ball and
//! pocket, an estimated chance and the paths the engine predicts for it.
//!
//! Solving the candidates costs hundreds of simulated shots, so [`CandidateCache`]
//! computes them on a thread of its own, once per position, while the window keeps
//! drawing; a position seen again is not computed again.

use std::sync::mpsc::{self, Receiver, TryRecvError};

use carom_games::agent::Noise;
use carom_games::rules::Call;
use carom_games::{Game, Shot};

use crate::game::{predict, Paths};

/// The aim error (standard deviation, degrees) the chances are estimated with: the
/// search player's professional noise.
pub const CHANCE_AIM: f64 = Noise::PRO.aim;

/// A candidate shot on the screen.
#[derive(Debug, Clone, PartialEq)]
pub struct Shown {
    /// `direct`, `bank`, `kick` or `combination`.
    pub kind: &'static str,
    /// The ball it pots and the pocket's name.
    pub ball: u32,
    pub pocket: &'static str,
    /// The solved aim's window of aims that make the route (degrees).
    pub window: f64,
    /// The chance that an aim error of [`CHANCE_AIM`] stays inside the window.
    pub chance: f64,
    pub shot: Shot,
    pub call: Option<Call>,
    /// Where the shot sends the cue ball and the first object ball; `None` when the
    /// look-ahead refuses the shot.
    pub paths: Option<Paths>,
}

impl Shown {
    /// The label drawn beside the candidate's path and listed in the side panel:
    /// kind, ball, pocket and chance.
    pub fn label(&self) -> String {
        format!(
            "{} {} in {}: {:.0} %",
            self.kind,
            self.ball,
            self.pocket,
            100.0 * self.chance
        )
    }
}

/// The chance that a normal aim error of standard deviation `sigma` (degrees) falls
/// inside a window `window` degrees wide centred on the aim: `erf(w / (2 sqrt(2) σ))`.
pub fn chance_in_window(window: f64, sigma: f64) -> f64 {
    if window.is_nan() || window <= 0.0 {
        return 0.0;
    }
    erf(0.5 * window / (std::f64::consts::SQRT_2 * sigma.max(1e-9)))
}

/// The error function to about 1e-7 (Abramowitz and Stegun 7.1.26); enough for a
/// chance printed to the percent.
fn erf(x: f64) -> f64 {
    const P: f64 = 0.327_591_1;
    const A: [f64; 5] = [
        0.254_829_592,
        -0.284_496_736,
        1.421_413_741,
        -1.453_152_027,
        1.061_405_429,
    ];
    let t = 1.0 / (1.0 + P * x.abs());
    let poly = A.iter().rev().fold(0.0, |acc, a| acc * t + a) * t;
    (1.0 - poly * (-x * x).exp()).copysign(x)
}

/// The candidate shots of `game`'s position, the likeliest first, each with its
/// predicted paths. Empty on a carom table or once the game is over.
pub fn candidate_shots(game: &Game) -> Vec<Shown> {
    let mut out: Vec<Shown> = carom_games::candidates::shots(game)
        .iter()
        .map(|c| {
            let shot = c.shot();
            Shown {
                kind: c.route.kind(),
                ball: c.ball,
                pocket: game.table.pockets.get(c.pocket).map_or("?", |p| p.name),
                window: c.window,
                chance: chance_in_window(c.window, CHANCE_AIM),
                shot,
                call: c.call,
                paths: predict(game, &shot).ok(),
            }
        })
        .collect();
    out.sort_by(|a, b| b.chance.total_cmp(&a.chance));
    out
}

/// The candidate shots of the last position asked for, computed on a thread.
#[derive(Debug, Default)]
pub struct CandidateCache {
    /// The position the shots are (being) computed for.
    position: Option<Game>,
    pending: Option<Receiver<Vec<Shown>>>,
    shots: Option<Vec<Shown>>,
    /// Positions computed so far (a position asked for again is not counted).
    pub computed: u64,
}

impl CandidateCache {
    /// Asks for the candidates of `game`: a new position starts a thread computing
    /// them (the result of one still under way for another position is dropped); the
    /// same position again only collects the thread's result once it is there.
    pub fn update(&mut self, game: &Game) {
        if self.position.as_ref() != Some(game) {
            let (tx, rx) = mpsc::channel();
            let position = game.clone();
            std::thread::spawn(move || {
                let _ = tx.send(candidate_shots(&position));
            });
            self.position = Some(game.clone());
            self.pending = Some(rx);
            self.shots = None;
            self.computed += 1;
        }
        if let Some(rx) = &self.pending {
            match rx.try_recv() {
                Ok(shots) => self.finish(shots),
                Err(TryRecvError::Empty) => {}
                Err(TryRecvError::Disconnected) => self.finish(Vec::new()),
            }
        }
    }

    /// Waits for the thread under way, if any (tests, and the scripted runs).
    pub fn wait(&mut self) {
        if let Some(rx) = &self.pending {
            let shots = rx.recv().unwrap_or_default();
            self.finish(shots);
        }
    }

    fn finish(&mut self, shots: Vec<Shown>) {
        self.shots = Some(shots);
        self.pending = None;
    }

    /// The candidates of the position last asked for; `None` while they are computed.
    pub fn shots(&self) -> Option<&[Shown]> {
        self.shots.as_deref()
    }

    /// Whether the candidates are being computed.
    pub fn busy(&self) -> bool {
        self.pending.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use carom_games::GameKind;

    #[test]
    fn the_chance_grows_with_the_window_from_none_to_certain() {
        assert_eq!(chance_in_window(0.0, 0.1), 0.0);
        assert_eq!(chance_in_window(f64::NAN, 0.1), 0.0);
        // A window of ±1 σ holds 68.27 % of normal errors, ±2 σ 95.45 %.
        assert!((chance_in_window(0.2, 0.1) - 0.682_689).abs() < 1e-6);
        assert!((chance_in_window(0.4, 0.1) - 0.954_500).abs() < 1e-6);
        assert!(chance_in_window(5.0, 0.1) > 0.999_999);
        assert!((erf(-0.5) + erf(0.5)).abs() < 1e-15);
    }

    /// The cue ball, the 1 straight in line with the foot-right corner pocket, and the
    /// 2 out of the way: a nine-ball position with an easy direct pot.
    fn easy() -> Game {
        let t = carom_games::Table::new(carom_games::TableKind::Pool9);
        let (r, c) = (t.balls.radius, t.center());
        let pocket = t
            .pockets
            .iter()
            .map(|p| p.center)
            .fold([0.0, 0.0], |best, p| {
                if p[0] + p[1] > best[0] + best[1] {
                    p
                } else {
                    best
                }
            });
        let (dx, dy) = (pocket[0] - c[0], pocket[1] - c[1]);
        let d = dx.hypot(dy);
        let along = |s: f64| [c[0] + s * dx / d, c[1] + s * dy / d];
        let (cue, one) = (along(-0.3), along(0.3));
        let two = [c[0] - 0.5, c[1] - 0.3 + 4.0 * r];
        Game::layout(GameKind::NineBall, &[(0, cue), (1, one), (2, two)], 0).unwrap()
    }

    #[test]
    fn the_candidates_include_the_straight_pot_with_its_paths() {
        let g = easy();
        let shots = candidate_shots(&g);
        assert!(!shots.is_empty());
        for w in shots.windows(2) {
            assert!(w[0].chance >= w[1].chance, "likeliest first");
        }
        let direct = shots
            .iter()
            .find(|s| s.kind == "direct" && s.ball == 1)
            .unwrap_or_else(|| panic!("no direct pot of the 1: {shots:?}"));
        assert!(direct.chance > 0.5, "{}", direct.label());
        assert!(
            direct.label().starts_with("direct 1 in "),
            "{}",
            direct.label()
        );
        // The shot is the candidate's: simulated, the 1 drops.
        let paths = direct.paths.as_ref().unwrap();
        assert_eq!(paths.object.as_ref().map(|o| o.0), Some(1));
        assert!(paths.pocketed.iter().any(|p| p.0 == 1), "{paths:?}");
    }

    #[test]
    fn the_cache_computes_each_position_once() {
        let g = easy();
        let mut cache = CandidateCache::default();
        assert!(cache.shots().is_none());
        cache.update(&g);
        cache.wait();
        assert!(!cache.busy());
        let first = cache.shots().unwrap().to_vec();
        assert!(!first.is_empty());
        // The same position: nothing computed again, the same shots.
        cache.update(&g);
        assert!(!cache.busy());
        assert_eq!(cache.computed, 1);
        assert_eq!(cache.shots().unwrap(), &first[..]);
        // A shot played: a new position, computed afresh.
        let mut after = g.clone();
        after.shoot(&first[0].shot, first[0].call).unwrap();
        cache.update(&after);
        assert!(cache.shots().is_none() || cache.computed == 2);
        cache.wait();
        assert_eq!(cache.computed, 2);
        assert!(cache.shots().is_some());
    }

    #[test]
    fn a_carom_table_or_a_finished_game_has_no_candidates() {
        assert!(candidate_shots(&Game::new(GameKind::ThreeCushion, 1)).is_empty());
        let mut g = easy();
        g.state.over = true;
        assert!(candidate_shots(&g).is_empty());
    }
}
