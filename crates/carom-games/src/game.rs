//! A game in progress: the table, the balls where they lie, and the rules' state. It
//! places the cue ball where the rules allow, shoots (the engine simulates, the rules
//! judge), puts balls back on their spots, and saves to JSON that resumes exactly.

use serde::{Deserialize, Serialize};

use crate::rules::{self, Call, Foul, Placement, State};
use crate::setups::{first_overlap, GameKind, Setup, SnookerSpots};
use crate::shot::{simulate, Facts, Position, Shot};
use crate::tables::{Table, TableKind};

/// The game file's format version.
pub const FILE_VERSION: u32 = 1;

#[derive(Debug, Clone, PartialEq)]
pub struct Game {
    pub table: Table,
    pub state: State,
    /// The balls on the table: number and centre, the cue ball first when on.
    pub balls: Vec<(u32, [f64; 2])>,
}

/// What a game file holds.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    version: u32,
    table: TableKind,
    state: State,
    balls: Vec<(u32, [f64; 2])>,
}

/// The result of one shot.
#[derive(Debug, Clone, PartialEq)]
pub struct ShotResult {
    /// The player who shot.
    pub shooter: usize,
    /// The ball struck.
    pub cue: u32,
    pub facts: Facts,
    pub foul: Option<Foul>,
    pub points: [i64; 2],
    pub turn_over: bool,
    pub next_player: usize,
    pub ball_in_hand: Option<Placement>,
    pub game_over: bool,
    pub winner: Option<usize>,
    pub events: Vec<carom::event_log::LoggedEvent>,
}

impl ShotResult {
    /// One line: the verdict, points, what comes next.
    pub fn verdict(&self, game: GameKind) -> String {
        let mut s = match &self.foul {
            None => "legal".to_string(),
            Some(f) => f.to_string(),
        };
        let pocketed: Vec<String> = self
            .facts
            .pocketed
            .iter()
            .map(|p| game.ball_name(p.1))
            .collect();
        if !pocketed.is_empty() {
            s.push_str(&format!("; pocketed {}", pocketed.join(", ")));
        }
        if self.points != [0, 0] {
            s.push_str(&format!("; points {:?}", self.points));
        }
        if self.game_over {
            match self.winner {
                Some(w) => s.push_str(&format!("; game over, player {w} wins")),
                None => s.push_str("; game over, a draw"),
            }
        } else {
            s.push_str(&format!("; player {} to shoot", self.next_player));
            if let Some(p) = self.ball_in_hand {
                s.push_str(&format!(" with ball in hand ({})", placement_name(p)));
            }
        }
        s
    }
}

fn placement_name(p: Placement) -> &'static str {
    match p {
        Placement::Anywhere => "anywhere",
        Placement::BehindHeadString => "behind the head string",
        Placement::InD => "in the D",
    }
}

impl Game {
    /// A game racked from `seed` on its default table.
    pub fn new(game: GameKind, seed: u64) -> Game {
        Game::from_setup(Setup::new(game, seed), 0)
    }

    /// A game from any position, `player` to shoot (0 or 1); a layout is not a break.
    pub fn from_setup(setup: Setup, player: usize) -> Game {
        let objects = setup
            .balls
            .iter()
            .map(|b| b.0)
            .filter(|&n| n != 0 && !(setup.game == GameKind::ThreeCushion && n == 1))
            .collect();
        let mut state = State::start(setup.game, objects);
        state.player = player.min(1);
        Game {
            table: setup.table,
            state,
            balls: setup.balls,
        }
    }

    /// A drill position (see [`Setup::layout`]), not a break: the shooter has no ball
    /// in hand.
    pub fn layout(
        game: GameKind,
        balls: &[(u32, [f64; 2])],
        player: usize,
    ) -> Result<Game, String> {
        let setup = Setup::layout(game, Table::new(game.default_table()), balls)?;
        let mut g = Game::from_setup(setup, player);
        if g.state.game.is_pool() || g.state.game == GameKind::Snooker {
            g.state.shots = 1;
            g.state.ball_in_hand = None;
        }
        Ok(g)
    }

    pub fn kind(&self) -> GameKind {
        self.state.game
    }

    /// The position as a setup (for simulating).
    pub fn setup(&self) -> Setup {
        Setup {
            game: self.kind(),
            table: self.table.clone(),
            balls: self.balls.clone(),
        }
    }

    fn position(&self, n: u32) -> Option<[f64; 2]> {
        self.balls.iter().find(|b| b.0 == n).map(|b| b.1)
    }

    /// Whether the rules let the cue ball go to `p` now (ignoring other balls).
    fn allowed(&self, place: Placement, p: [f64; 2]) -> Result<(), String> {
        if !self.table.on_surface(p) {
            return Err(format!(
                "({}, {}) is not on the playing surface",
                p[0], p[1]
            ));
        }
        match place {
            Placement::Anywhere => Ok(()),
            Placement::BehindHeadString if p[0] <= self.table.head_string() => Ok(()),
            Placement::BehindHeadString => Err(format!(
                "the cue ball must be behind the head string (x <= {})",
                self.table.head_string()
            )),
            Placement::InD => {
                let s = SnookerSpots::of(&self.table);
                if s.in_d(p, self.table.center()[1]) {
                    Ok(())
                } else {
                    Err("the cue ball must be in the D".into())
                }
            }
        }
    }

    /// Puts the cue ball at `(x, y)`: only with ball in hand, where the rules allow,
    /// clear of the other balls. The error is one line.
    pub fn place_cue_ball(&mut self, x: f64, y: f64) -> Result<(), String> {
        let Some(place) = self.state.ball_in_hand else {
            return Err("place_cue_ball: the cue ball is not in hand".into());
        };
        let p = [x, y];
        self.allowed(place, p)
            .map_err(|e| format!("place_cue_ball: {e}"))?;
        let others: Vec<(u32, [f64; 2])> =
            self.balls.iter().filter(|b| b.0 != 0).cloned().collect();
        let mut with = others.clone();
        with.push((0, p));
        if let Some((a, b)) = first_overlap(&with, self.table.balls.radius) {
            let other = if a == 0 { b } else { a };
            return Err(format!(
                "place_cue_ball: the cue ball at ({x}, {y}) overlaps ball {other}"
            ));
        }
        self.balls = others;
        self.balls.insert(0, (0, p));
        Ok(())
    }

    /// Plays a shot with the call the rules need, judges it and moves the game on.
    pub fn shoot(&mut self, shot: &Shot, call: Option<Call>) -> Result<ShotResult, String> {
        self.shoot_at(None, shot, call)
    }

    /// [`Game::shoot`] with the position's world already built: `position` must be
    /// [`Position::new`] of this game's [`Game::setup`] (as [`crate::batch`] prepares
    /// once for many shots). The same result as `shoot`, to the bit.
    pub fn shoot_prepared(
        &mut self,
        position: &Position,
        shot: &Shot,
        call: Option<Call>,
    ) -> Result<ShotResult, String> {
        self.shoot_at(Some(position), shot, call)
    }

    fn shoot_at(
        &mut self,
        position: Option<&Position>,
        shot: &Shot,
        call: Option<Call>,
    ) -> Result<ShotResult, String> {
        if self.state.over {
            return Err("shoot: the game is over".into());
        }
        let rules = rules::rules(self.kind());
        rules
            .check_call(&self.state, call)
            .map_err(|e| format!("call: {e}"))?;
        if let Some(Call::Pot { pocket, .. }) = call {
            if pocket as usize >= self.table.pockets.len() {
                return Err(format!(
                    "call: pocket {pocket} does not exist (pockets 0 to {})",
                    self.table.pockets.len().saturating_sub(1)
                ));
            }
        }
        let shooter = self.state.player;
        let cue = self.kind().cue_ball(shooter);
        let out = match position {
            Some(p) => p.simulate(cue, shot),
            None => simulate(&self.setup(), cue, shot),
        }
        .map_err(|e| e.to_string())?;
        let j = rules.judge(&self.state, &out.facts, call);
        self.balls = out
            .facts
            .positions
            .iter()
            .filter_map(|&(n, p)| p.map(|p| (n, p)))
            .collect();
        for &n in &j.respot {
            let p = self.free_spot(self.spot_of(n));
            self.balls.push((n, p));
        }
        self.state = j.state.clone();
        if self.position(0).is_none() {
            // The cue ball went down: back in hand, at a default place the player may
            // change with place_cue_ball.
            let start = match self.state.ball_in_hand {
                Some(Placement::InD) => {
                    let s = SnookerSpots::of(&self.table);
                    [s.baulk - 0.5 * s.d_radius, self.table.center()[1]]
                }
                _ => self.table.head_spot(),
            };
            let p = self.free_spot(start);
            self.balls.insert(0, (0, p));
        }
        Ok(ShotResult {
            shooter,
            cue,
            facts: out.facts,
            foul: j.foul,
            points: j.points,
            turn_over: j.turn_over,
            next_player: self.state.player,
            ball_in_hand: self.state.ball_in_hand,
            game_over: self.state.over,
            winner: self.state.winner,
            events: out.events,
        })
    }

    /// Where ball `n` is spotted: snooker's colours on their own spots, pool balls on
    /// the foot spot.
    fn spot_of(&self, n: u32) -> [f64; 2] {
        if self.kind() == GameKind::Snooker {
            if let Some(p) = SnookerSpots::of(&self.table).spot(n) {
                return p;
            }
        }
        self.table.foot_spot()
    }

    /// The nearest point to `p` on the long axis through it, towards the foot (or top)
    /// cushion first and then back, where a ball touches no other: how the rules spot
    /// a ball whose spot is taken (simplified for snooker, whose rules first try the
    /// other colours' spots).
    fn free_spot(&self, p: [f64; 2]) -> [f64; 2] {
        let r = self.table.balls.radius;
        let clear = |q: [f64; 2]| {
            self.balls
                .iter()
                .all(|b| (b.1[0] - q[0]).hypot(b.1[1] - q[1]) >= 2.0 * r)
        };
        let step = 0.001;
        for dir in [1.0, -1.0] {
            let mut q = p;
            while self.table.on_surface(q) {
                if clear(q) {
                    return q;
                }
                q[0] += dir * step;
            }
        }
        p
    }

    /// The game as JSON (numbers written so that they read back to the bit).
    pub fn save(&self) -> String {
        let file = File {
            version: FILE_VERSION,
            table: self.table.kind,
            state: self.state.clone(),
            balls: self.balls.clone(),
        };
        serde_json::to_string_pretty(&file).unwrap_or_default()
    }

    /// A game from its JSON; one line naming what is wrong otherwise.
    pub fn load(text: &str) -> Result<Game, String> {
        let f: File = serde_json::from_str(text)
            .map_err(|e| carom::load::one_line(&format!("game file: {e}")))?;
        if f.version != FILE_VERSION {
            return Err(format!(
                "game file: version {} is not {FILE_VERSION}",
                f.version
            ));
        }
        let table = Table::new(f.table);
        let game = f.state.game;
        if f.state.player > 1 {
            return Err(format!(
                "game file: state.player must be 0 or 1 (got {})",
                f.state.player
            ));
        }
        if let Some(w) = f.state.winner {
            if w > 1 {
                return Err(format!("game file: state.winner must be 0 or 1 (got {w})"));
            }
        }
        if let Some(rules::On::Next(n)) = f.state.on {
            if !(16..=21).contains(&n) {
                return Err(format!("game file: state.on: colour {n} is not 16 to 21"));
            }
        }
        let numbers = game.numbers();
        if let Some(n) = f.state.on_table.iter().find(|n| !numbers.contains(n)) {
            return Err(format!(
                "game file: state.on_table: {} has no ball {n}",
                game.name()
            ));
        }
        // The rules' list of object balls is the balls on the table.
        let mut listed = f.state.on_table.clone();
        listed.sort_unstable();
        let mut placed: Vec<u32> = f
            .balls
            .iter()
            .map(|b| b.0)
            .filter(|&n| n != 0 && !(game == GameKind::ThreeCushion && n == 1))
            .collect();
        placed.sort_unstable();
        if listed != placed {
            return Err(format!(
                "game file: state.on_table {listed:?} is not the object balls placed {placed:?}"
            ));
        }
        // The balls go through the layout checks (set, once, on the surface, apart).
        let setup =
            Setup::layout(game, table, &f.balls).map_err(|e| format!("game file: balls: {e}"))?;
        Ok(Game {
            table: setup.table,
            state: f.state,
            balls: setup.balls,
        })
    }
}
