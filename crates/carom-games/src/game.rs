//! A game in progress: the table, the balls where they lie, and the rules' state. It
//! places the cue ball where the rules allow, shoots (the engine simulates, the rules
//! judge), puts balls back on their spots, and saves to JSON that resumes exactly.

use serde::{Deserialize, Serialize};

use crate::rules::{self, Before, Call, Choice, Foul, Placement, State, TableView};
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
#[derive(Debug, Clone, PartialEq, Default)]
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
    /// The choices the next player has besides shooting (see [`Game::options`]).
    pub options: Vec<Choice>,
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
            if !self.options.is_empty() {
                s.push_str(&format!(
                    "; options: {}",
                    rules::choice_names(&self.options)
                ));
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
        self.shoot_at(None, shot, call, &mut Vec::new())
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
        self.shoot_at(Some(position), shot, call, &mut Vec::new())
    }

    fn shoot_at(
        &mut self,
        position: Option<&Position>,
        shot: &Shot,
        call: Option<Call>,
        spare: &mut Vec<(u32, [f64; 2])>,
    ) -> Result<ShotResult, String> {
        let mut result = ShotResult::default();
        self.shoot_into(position, shot, call, spare, &mut result)?;
        Ok(result)
    }

    /// The shot, written into `result`, whose lists keep their capacity (a batch's
    /// reused results), with `spare` lending its storage to the balls after the shot
    /// (it is left holding the balls before it): a batch's thread keeps one. On an
    /// error the game is unchanged and `result` is not a shot's result.
    pub(crate) fn shoot_into(
        &mut self,
        position: Option<&Position>,
        shot: &Shot,
        call: Option<Call>,
        spare: &mut Vec<(u32, [f64; 2])>,
        result: &mut ShotResult,
    ) -> Result<(), String> {
        if self.state.over {
            return Err("shoot: the game is over".into());
        }
        let call = self.effective_call(call)?;
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
        match position {
            Some(p) => p.simulate_into(cue, shot, &mut result.facts, &mut result.events),
            None => simulate(&self.setup(), cue, shot).map(|out| {
                result.facts = out.facts;
                result.events = out.events;
            }),
        }
        .map_err(|e| e.to_string())?;
        let facts = &result.facts;
        let mut j = rules.judge(&self.state, facts, call);
        spare.clear();
        spare.extend(
            facts
                .positions
                .iter()
                .filter_map(|&(n, p)| p.map(|p| (n, p))),
        );
        std::mem::swap(&mut self.balls, spare);
        let before = &*spare;
        let mut respot = j.respot.clone();
        if self.kind() == GameKind::Snooker {
            // WPBSA: when several colours go back, the highest first.
            respot.sort_by_key(|&n| std::cmp::Reverse(n));
        }
        for n in respot {
            let p = self.spot_for(n);
            self.balls.push((n, p));
        }
        let view = TableView {
            table: &self.table,
            facts,
            before,
            after: &self.balls,
        };
        rules.judge_table(&view, &self.state, &mut j);
        std::mem::swap(&mut self.state, &mut j.state);
        self.cue_ball_to_hand();
        result.shooter = shooter;
        result.cue = cue;
        result.foul = j.foul;
        result.points = j.points;
        result.turn_over = j.turn_over;
        result.next_player = self.state.player;
        result.ball_in_hand = self.state.ball_in_hand;
        result.game_over = self.state.over;
        result.winner = self.state.winner;
        self.options_into(&mut result.options);
        Ok(())
    }

    /// The call a shot makes: the one given, or a push-out when it was chosen.
    pub fn effective_call(&self, call: Option<Call>) -> Result<Option<Call>, String> {
        match (self.state.chosen, call) {
            (Some(Choice::PushOut), None | Some(Call::PushOut)) => Ok(Some(Call::PushOut)),
            (Some(Choice::PushOut), Some(_)) => {
                Err("call: the push-out was chosen: the shot takes no other call".into())
            }
            _ => Ok(call),
        }
    }

    /// A cue ball that is off the table, or in hand where the rules do not let it lie,
    /// goes to a default place in hand (the head spot, or in the D), which
    /// `place_cue_ball` can change.
    fn cue_ball_to_hand(&mut self) {
        let here = self.position(0);
        if let (Some(p), Some(place)) = (here, self.state.ball_in_hand) {
            if self.allowed(place, p).is_ok() {
                return;
            }
        } else if here.is_some() {
            return;
        }
        self.balls.retain(|b| b.0 != 0);
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

    /// The choices the rules give the player to move besides shooting, by name in
    /// [`Choice::name`]: the push-out on the shot after a nine- or ten-ball break;
    /// after a push-out or a ten-ball shot whose call failed, accepting the table or
    /// passing the shot back; after an illegal eight-ball break (or the 8 pocketed on
    /// the break), accepting or re-racking; after a snooker foul, playing on, passing
    /// the shot back, the free ball when snookered and the balls replaced after a
    /// miss. Shooting without a choice accepts the table.
    pub fn options(&self) -> Vec<Choice> {
        let mut v = Vec::new();
        self.options_into(&mut v);
        v
    }

    /// [`Game::options`] written into `v`, which keeps its capacity.
    fn options_into(&self, v: &mut Vec<Choice>) {
        v.clear();
        let s = &self.state;
        if s.over {
            return;
        }
        v.extend_from_slice(&s.options);
        if s.push_out && s.chosen.is_none() && !v.contains(&Choice::PushOut) {
            v.push(Choice::PushOut);
        }
    }

    /// Takes a choice the rules offer now ([`Game::options`]); otherwise a one-line
    /// error naming it, and nothing changes.
    pub fn choose(&mut self, choice: Choice) -> Result<(), String> {
        let offered = self.options();
        if !offered.contains(&choice) {
            return Err(format!(
                "choose: {} is not on offer in {} now (options: {})",
                choice.name(),
                self.kind().name(),
                rules::choice_names(&offered)
            ));
        }
        let s = &mut self.state;
        match choice {
            Choice::PushOut | Choice::FreeBall => {
                s.options.clear();
                s.before = None;
                s.chosen = Some(choice);
            }
            Choice::Accept => {
                s.options.clear();
                s.before = None;
            }
            Choice::PassBack => {
                s.options.clear();
                s.before = None;
                s.player = 1 - s.player;
                s.inning = s.inning.saturating_add(1);
            }
            Choice::Replace => {
                let Some(b) = s.before.take() else {
                    return Err("choose: replace: no position to put back".into());
                };
                let Before { state, balls } = *b;
                let mut next = state;
                next.scores = s.scores;
                next.fouls = s.fouls;
                next.shots = s.shots;
                next.inning = s.inning.saturating_add(1);
                next.ball_in_hand = None;
                self.state = next;
                self.balls = balls;
            }
            Choice::Rerack | Choice::RerackOffender => {
                let breaker = if choice == Choice::Rerack {
                    s.player
                } else {
                    1 - s.player
                };
                self.rerack(breaker);
            }
        }
        Ok(())
    }

    /// The balls racked again, `breaker` to break with the cue ball in hand behind the
    /// head string; fouls cleared, the innings counted on. The rack's seed comes from
    /// the game itself (the shots played and where the cue ball lies), so a resumed
    /// game re-racks the same way.
    fn rerack(&mut self, breaker: usize) {
        let cue = self.position(0).unwrap_or([0.0, 0.0]);
        let seed =
            u64::from(self.state.shots) ^ cue[0].to_bits() ^ cue[1].to_bits().rotate_left(17);
        let setup = Setup::on(self.kind(), self.table.clone(), seed);
        let objects = setup
            .balls
            .iter()
            .map(|b| b.0)
            .filter(|&n| n != 0)
            .collect();
        let mut state = State::start(self.kind(), objects);
        state.player = breaker;
        state.scores = self.state.scores;
        state.inning = self.state.inning.saturating_add(1);
        state.shots = 0;
        self.state = state;
        self.balls = setup.balls;
    }

    /// Where ball `n` goes back: pool balls on the foot spot, or the nearest free
    /// place on the long axis towards the foot cushion and then back; snooker's
    /// colours (WPBSA) on their own spots, a taken one sending the colour to the
    /// highest-valued free spot, and with every spot taken to the nearest free place
    /// from its own spot towards the top cushion (then back).
    fn spot_for(&self, n: u32) -> [f64; 2] {
        if self.kind() == GameKind::Snooker {
            let spots = SnookerSpots::of(&self.table);
            if let Some(own) = spots.spot(n) {
                if self.clear_at(own) {
                    return own;
                }
                for m in (16..=21).rev() {
                    if let Some(p) = spots.spot(m).filter(|&p| self.clear_at(p)) {
                        return p;
                    }
                }
                return self.free_spot(own);
            }
        }
        self.free_spot(self.table.foot_spot())
    }

    /// Whether a ball at `q` would touch none on the table.
    fn clear_at(&self, q: [f64; 2]) -> bool {
        let r = self.table.balls.radius;
        self.balls
            .iter()
            .all(|b| (b.1[0] - q[0]).hypot(b.1[1] - q[1]) >= 2.0 * r)
    }

    /// The nearest point to `p` on the long axis through it, towards the foot (or top)
    /// cushion first and then back, where a ball touches no other.
    fn free_spot(&self, p: [f64; 2]) -> [f64; 2] {
        let clear = |q: [f64; 2]| self.clear_at(q);
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
        let setup = checked(table.clone(), &f.state, &f.balls, "state")?;
        if let Some(b) = &f.state.before {
            if b.state.game != f.state.game {
                return Err("game file: state.before: another game".into());
            }
            if b.state.before.is_some() || !b.state.options.is_empty() {
                return Err("game file: state.before: holds choices of its own".into());
            }
            checked(table, &b.state, &b.balls, "state.before.state")
                .map_err(|e| e.replacen("balls:", "state.before.balls:", 1))?;
        }
        Ok(Game {
            table: setup.table,
            state: f.state,
            balls: setup.balls,
        })
    }
}

/// A game file's state and balls checked against each other: players 0 or 1, the
/// snooker colour on, the rules' list of object balls against the balls placed, the
/// choices the game has, and the balls through the layout checks (set, once, on the
/// surface, apart). `what` names the state in errors.
fn checked(
    table: Table,
    state: &State,
    balls: &[(u32, [f64; 2])],
    what: &str,
) -> Result<Setup, String> {
    let game = state.game;
    if state.player > 1 {
        return Err(format!(
            "game file: {what}.player must be 0 or 1 (got {})",
            state.player
        ));
    }
    if let Some(w) = state.winner {
        if w > 1 {
            return Err(format!("game file: {what}.winner must be 0 or 1 (got {w})"));
        }
    }
    if let Some(rules::On::Next(n)) = state.on {
        if !(16..=21).contains(&n) {
            return Err(format!("game file: {what}.on: colour {n} is not 16 to 21"));
        }
    }
    for &c in state.options.iter().chain(&state.chosen) {
        if !c.in_game(game) {
            return Err(format!(
                "game file: {what}: {} has no choice {}",
                game.name(),
                c.name()
            ));
        }
    }
    if state.options.contains(&Choice::Replace) != state.before.is_some() {
        return Err(format!(
            "game file: {what}: the choice replace goes with the position before (before)"
        ));
    }
    let numbers = game.numbers();
    if let Some(n) = state.on_table.iter().find(|n| !numbers.contains(n)) {
        return Err(format!(
            "game file: {what}.on_table: {} has no ball {n}",
            game.name()
        ));
    }
    // The rules' list of object balls is the balls on the table.
    let mut listed = state.on_table.to_vec();
    listed.sort_unstable();
    let mut placed: Vec<u32> = balls
        .iter()
        .map(|b| b.0)
        .filter(|&n| n != 0 && !(game == GameKind::ThreeCushion && n == 1))
        .collect();
    placed.sort_unstable();
    if listed != placed {
        return Err(format!(
            "game file: {what}.on_table {listed:?} is not the object balls placed {placed:?}"
        ));
    }
    Setup::layout(game, table, balls).map_err(|e| format!("game file: balls: {e}"))
}
