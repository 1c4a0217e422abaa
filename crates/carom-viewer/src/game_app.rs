//! The window of the game mode (`carom view nine-ball`, any game): the table with the
//! balls in their set's dress, the predicted paths while aiming, the shot rolling out,
//! and a side panel with the score, whose turn, the choices the rules offer (a button
//! and a digit key each), the verdicts and the cue's controls; the `c` key draws the
//! search player's candidate shots. The rules and the look-ahead are
//! [`crate::game`]'s, the candidates [`crate::candidates`]'.

use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};

use carom_games::agent::{Agent, Decision};
use carom_games::rules::{Call, Choice};
use carom_games::styles::{look, BallLook};
use carom_games::{Game, GameKind, Shot};
use carom_render::ballstyle::{LABEL_DISC, STRIPE_HALF};
use eframe::egui::{self, Color32, ColorImage, Pos2, Sense, Stroke, Vec2};

use crate::candidates::{CandidateCache, Shown};
use crate::game::{
    agent_to_move, agent_turn, call_for, choice_meaning, intent_line, option_for_digit, predict,
    shooting_means, shot_of_drag, status, take_choice, Paths,
};
use crate::table_view::TableView;
use crate::{Options, ViewerError, DEFAULT_SCREENSHOT_FRAMES};

const ERROR: Color32 = Color32::from_rgb(0xFF, 0x6E, 0x6E);

/// A shot rolling out on the screen: the engine's world of it, stepped a frame at a
/// time, and the balls' numbers in the world's order.
struct Rolling {
    world: carom::World,
    numbers: Vec<u32>,
}

type Pixels = Arc<Mutex<Option<Arc<ColorImage>>>>;

/// What the search player decided on its thread: its answer to the options offered
/// (if any), then its shot if the turn is still its own.
struct Thought {
    response: Option<Choice>,
    decision: Option<Decision>,
    agent: Agent,
}

pub struct GameApp {
    game: Game,
    /// A world of the table (its cushions and pockets are drawn from it).
    table_world: carom::World,
    seed: u64,
    /// English, follow (tip offsets in radii) and elevation (degrees).
    tip: [f64; 3],
    power: f64,
    /// Where the aiming drag started (table coordinates), and the shot it gives now.
    drag: Option<[f64; 2]>,
    shot: Option<Shot>,
    /// The look-ahead of the last shot aimed, kept until the aim changes.
    prediction: Option<(Shot, Result<Paths, String>)>,
    rolling: Option<Rolling>,
    /// Player 1 is the search player (`carom_games::agent`), without execution noise.
    opponent: bool,
    agent: Agent,
    /// The search player's answer to the options it is offered and its shot (none
    /// when its answer hands the table back), made on a thread of its own so that the
    /// window keeps drawing while it searches (about a second a shot).
    thinking: Option<Receiver<Thought>>,
    /// Whether the candidate shots are drawn (the `c` key), and the candidates of the
    /// position, computed once per position.
    show_candidates: bool,
    candidates: CandidateCache,
    /// The verdicts so far, newest last.
    log: Vec<String>,
    notice: Option<Result<String, String>>,
    /// `--frames` / `--screenshot`: frames left, the file, and the pixels once asked.
    frames: Option<u64>,
    screenshot: Option<PathBuf>,
    asked_at: Option<u64>,
    frames_done: u64,
    pixels: Pixels,
    outcome: Rc<RefCell<Option<ViewerError>>>,
}

impl GameApp {
    pub fn new(
        cc: &eframe::CreationContext<'_>,
        game: Game,
        table_world: carom::World,
        seed: u64,
        options: &Options,
        outcome: Rc<RefCell<Option<ViewerError>>>,
    ) -> GameApp {
        cc.egui_ctx.set_visuals(egui::Visuals::dark());
        let frames = match (&options.screenshot, options.frames) {
            (None, None) => None,
            (_, f) => Some(f.unwrap_or(DEFAULT_SCREENSHOT_FRAMES)),
        };
        let mut app = GameApp {
            game,
            table_world,
            seed,
            tip: [0.0; 3],
            power: 1.0,
            drag: None,
            shot: None,
            prediction: None,
            rolling: None,
            opponent: false,
            agent: Agent::new(None, seed),
            thinking: None,
            show_candidates: false,
            candidates: CandidateCache::default(),
            log: Vec::new(),
            notice: None,
            frames,
            screenshot: options.screenshot.clone(),
            asked_at: None,
            frames_done: 0,
            pixels: Arc::new(Mutex::new(None)),
            outcome,
        };
        app.shot = app.opening_aim();
        app
    }

    /// The shot shown before any drag: a firm stroke from the cue ball at the nearest
    /// other ball's centre, so that the paths show at once.
    fn opening_aim(&self) -> Option<Shot> {
        let cue = self.game.kind().cue_ball(self.game.state.player);
        let p = self.game.balls.iter().find(|b| b.0 == cue)?.1;
        let target = self
            .game
            .balls
            .iter()
            .filter(|b| b.0 != cue)
            .min_by(|a, b| {
                let d = |q: [f64; 2]| (q[0] - p[0]).hypot(q[1] - p[1]);
                d(a.1).total_cmp(&d(b.1))
            })?
            .1;
        let mut shot = Shot::new(3.0, (target[1] - p[1]).atan2(target[0] - p[0]).to_degrees());
        (shot.english, shot.follow, shot.elevation) = (self.tip[0], self.tip[1], self.tip[2]);
        Some(shot)
    }

    fn new_rack(&mut self) {
        self.seed += 1;
        self.game = Game::new(self.game.kind(), self.seed);
        self.rolling = None;
        self.thinking = None;
        self.prediction = None;
        self.log.clear();
        self.notice = None;
        self.shot = self.opening_aim();
    }

    /// Recomputes the look-ahead only when the aim changed.
    fn refresh_prediction(&mut self) {
        let Some(shot) = self.shot else {
            self.prediction = None;
            return;
        };
        if self.prediction.as_ref().is_some_and(|p| p.0 == shot) {
            return;
        }
        self.prediction = Some((shot, predict(&self.game, &shot)));
    }

    fn shoot(&mut self, shot: Shot) {
        let paths = match &self.prediction {
            Some((s, Ok(p))) if *s == shot => Some(p.clone()),
            _ => predict(&self.game, &shot).ok(),
        };
        let call: Option<Call> = call_for(&self.game, paths.as_ref());
        self.shoot_called(shot, call);
    }

    /// Starts the search player's choice when it is to move, and plays it once made.
    fn agent_turn(&mut self) {
        if self.rolling.is_some() {
            return;
        }
        if let Some(rx) = &self.thinking {
            let Ok(thought) = rx.try_recv() else {
                return;
            };
            self.thinking = None;
            self.agent = thought.agent;
            self.notice = None;
            for choice in thought
                .response
                .into_iter()
                .chain(thought.decision.and_then(|d| d.choice))
            {
                if !self.choose(choice) {
                    return;
                }
            }
            let Some(decision) = thought.decision else {
                return;
            };
            if let Some([x, y]) = decision.place {
                if let Err(e) = self.game.place_cue_ball(x, y) {
                    self.notice = Some(Err(format!("search player: {e}")));
                    return;
                }
            }
            self.log.push(intent_line(&decision));
            self.shoot_called(decision.shot, decision.call);
        } else if agent_to_move(&self.game, self.opponent) {
            let (tx, rx) = mpsc::channel();
            let (game, mut agent) = (self.game.clone(), self.agent.clone());
            std::thread::spawn(move || {
                let (response, decision) = agent_turn(&game, &mut agent);
                let _ = tx.send(Thought {
                    response,
                    decision,
                    agent,
                });
            });
            self.thinking = Some(rx);
            self.notice = Some(Ok("the search player is choosing its shot".into()));
        }
    }

    /// Takes a choice for the player to move, logs it, and shows the new position's
    /// aim; false (with the reason shown) when the rules refuse it.
    fn choose(&mut self, choice: Choice) -> bool {
        match take_choice(&mut self.game, choice) {
            Ok(line) => {
                self.log.push(line);
                self.notice = None;
                self.drag = None;
                self.prediction = None;
                self.shot = self.opening_aim();
                true
            }
            Err(e) => {
                self.notice = Some(Err(e));
                false
            }
        }
    }

    /// Whether the human at the mouse may act now: no shot rolling, the game not
    /// over, and not the search player's turn.
    fn human_to_move(&self) -> bool {
        self.rolling.is_none()
            && !self.game.state.over
            && self.thinking.is_none()
            && !agent_to_move(&self.game, self.opponent)
    }

    /// The keys: `c` shows or hides the candidate shots; `1` to `9` take the options
    /// in the order of their buttons.
    fn keys(&mut self, ctx: &egui::Context) {
        const DIGITS: [egui::Key; 9] = [
            egui::Key::Num1,
            egui::Key::Num2,
            egui::Key::Num3,
            egui::Key::Num4,
            egui::Key::Num5,
            egui::Key::Num6,
            egui::Key::Num7,
            egui::Key::Num8,
            egui::Key::Num9,
        ];
        if ctx.egui_wants_keyboard_input() {
            return;
        }
        let (toggle, digit) = ctx.input(|i| {
            let digit = DIGITS.iter().position(|&k| i.key_pressed(k)).map(|k| k + 1);
            (i.key_pressed(egui::Key::C), digit)
        });
        if toggle {
            self.show_candidates = !self.show_candidates;
        }
        if let Some(d) = digit.filter(|_| self.human_to_move()) {
            if let Some(choice) = option_for_digit(&self.game, d) {
                self.choose(choice);
            }
        }
    }

    /// The options the rules give the player to move: a button each (with its digit
    /// key), and what a shot without a choice means.
    fn choices(&mut self, ui: &mut egui::Ui) {
        let options = self.game.options();
        if options.is_empty() || !self.human_to_move() {
            return;
        }
        ui.separator();
        ui.heading("Choices");
        let mut taken = None;
        ui.horizontal_wrapped(|ui| {
            for (k, &c) in options.iter().enumerate() {
                let button = ui
                    .button(format!("{} {}", k + 1, c.name()))
                    .on_hover_text(choice_meaning(c));
                if button.clicked() {
                    taken = Some(c);
                }
            }
        });
        if let Some(line) = shooting_means(&self.game) {
            ui.weak(line);
        }
        if let Some(c) = taken {
            self.choose(c);
        }
    }

    /// The candidate shots in the side panel: each one's label, numbered as on the
    /// table, or why there are none.
    fn candidate_list(&mut self, ui: &mut egui::Ui) {
        if !self.show_candidates || self.rolling.is_some() {
            return;
        }
        self.candidates.update(&self.game);
        ui.separator();
        ui.heading("Candidate shots");
        match self.candidates.shots() {
            None => {
                ui.label("the search player is solving the candidates ...");
            }
            Some([]) => {
                ui.label("no candidate pots from here");
            }
            Some(shots) => {
                for (k, s) in shots.iter().enumerate() {
                    ui.label(format!("{}. {}", k + 1, s.label()));
                }
                ui.weak(format!(
                    "chance: the aim error ({}° s.d.) inside the window of aims that pot",
                    crate::candidates::CHANCE_AIM
                ));
            }
        }
    }

    fn shoot_called(&mut self, shot: Shot, call: Option<Call>) {
        let before = self.game.setup();
        let cue = self.game.kind().cue_ball(self.game.state.player);
        match self.game.shoot(&shot, call) {
            Ok(result) => {
                let kind = self.game.kind();
                self.log.push(format!(
                    "player {}: {}",
                    result.shooter,
                    result.verdict(kind)
                ));
                self.notice = None;
                // The shot again, a frame at a time, for the eye.
                let mut s = before.scenario();
                if let Some(i) = before.balls.iter().position(|b| b.0 == cue) {
                    s.balls[i].cue = Some(shot.cue());
                }
                s.physics.dt = 1.0 / 60.0;
                self.rolling = carom::parse::build_world(&s).ok().map(|world| Rolling {
                    world,
                    numbers: before.balls.iter().map(|b| b.0).collect(),
                });
            }
            Err(e) => self.notice = Some(Err(e)),
        }
        self.shot = None;
        self.prediction = None;
    }

    fn advance(&mut self) {
        if let Some(r) = &mut self.rolling {
            let done = carom_games::shot::at_rest(&r.world)
                || r.world.time > carom_games::shot::MAX_TIME
                || r.world.run_steps(1).is_err();
            if done {
                self.rolling = None;
                self.shot = self.opening_aim();
            }
        }
        if self.opponent || self.thinking.is_some() {
            self.agent_turn();
        }
        self.frames_done += 1;
    }

    fn side_panel(&mut self, ui: &mut egui::Ui) {
        ui.heading(format!("carom: {}", self.game.kind().name()));
        ui.label(format!("rack seed {}", self.seed));
        ui.separator();
        for line in status(&self.game) {
            ui.label(line);
        }
        if let Some(n) = &self.notice {
            match n {
                Ok(s) => ui.label(s),
                Err(s) => ui.colored_label(ERROR, s),
            };
        }
        ui.separator();
        ui.heading("Cue");
        ui.horizontal(|ui| {
            let [e, f, _] = &mut self.tip;
            crate::cue_ui::tip_picker(ui, e, f);
            ui.vertical(|ui| {
                ui.add(egui::Slider::new(&mut self.tip[2], 0.0..=85.0).text("elevation °"));
                ui.add(
                    egui::Slider::new(&mut self.power, 0.1..=4.0)
                        .logarithmic(true)
                        .text("power ×"),
                );
            });
        });
        if let Some(s) = &mut self.shot {
            (s.english, s.follow, s.elevation) = (self.tip[0], self.tip[1], self.tip[2]);
            ui.label(format!(
                "speed {:.2} m/s  aim {:.1}°  english {:.2}  follow {:.2}  elevation {:.0}°",
                s.speed, s.aim, s.english, s.follow, s.elevation
            ));
        }
        if let Some((_, Err(e))) = &self.prediction {
            ui.colored_label(ERROR, format!("look-ahead: {e}"));
        }
        self.choices(ui);
        ui.weak(
            "Drag on the table the way the cue ball should go; the drag's length sets \
             the speed; release to shoot. The lines are the paths of the cue ball and of \
             the first ball it meets, simulated ahead. With ball in hand, click to place \
             the cue ball. Where the rules need a call, the pot the look-ahead predicts \
             is called (else a safety). Keys: 1-9 take the choices above; c shows or \
             hides the search player's candidate shots (kind, ball, pocket, chance).",
        );
        if ui
            .checkbox(&mut self.opponent, "player 1 is the search player")
            .changed()
            && !self.opponent
        {
            self.thinking = None;
        }
        ui.horizontal(|ui| {
            if ui.button("New rack").clicked() {
                self.new_rack();
            }
            ui.checkbox(&mut self.show_candidates, "candidate shots (c)");
        });
        self.candidate_list(ui);
        ui.separator();
        ui.heading("Shots");
        egui::ScrollArea::vertical()
            .stick_to_bottom(true)
            .show(ui, |ui| {
                for line in &self.log {
                    ui.label(line);
                }
            });
    }

    fn table(&mut self, ui: &mut egui::Ui) {
        let avail = ui.available_rect_before_wrap();
        let (response, painter) = ui.allocate_painter(avail.size(), Sense::click_and_drag());
        let Some(view) = TableView::fit(*self.table_world.table(), avail.shrink(12.0)) else {
            return;
        };
        let r = self.game.table.balls.radius;
        // The balls where they are: rolling out, or at rest where the game has them.
        let balls: Vec<(u32, [f64; 2])> = match &self.rolling {
            Some(roll) => {
                let b = roll.world.balls();
                (0..b.len())
                    .filter(|&i| roll.world.is_in_play(i))
                    .map(|i| (roll.numbers[i], [b.x[i], b.y[i]]))
                    .collect()
            }
            None => self.game.balls.clone(),
        };
        // The cushion, felt, pockets and walls of the table; the balls are drawn below.
        let world = &self.table_world;
        let hidden = vec![false; world.balls().len()];
        view.paint(&painter, world.balls(), None, false, false, &hidden);
        view.paint_scene(&painter, world);
        let kind = self.game.kind();
        for &(n, p) in &balls {
            paint_ball(
                &painter,
                view.to_screen(p[0], p[1]),
                (r * view.scale) as f32,
                &look(kind, n),
            );
        }
        if self.rolling.is_none() {
            if self.show_candidates {
                if let Some(shots) = self.candidates.shots() {
                    paint_candidates(&painter, &view, shots, r, kind);
                }
            }
            self.refresh_prediction();
            if let Some((_, Ok(paths))) = &self.prediction {
                paint_paths(&painter, &view, paths, r, kind);
            }
        }
        if self.rolling.is_some()
            || self.game.state.over
            || self.thinking.is_some()
            || agent_to_move(&self.game, self.opponent)
        {
            return;
        }
        let to_table = |p: Pos2| view.to_table(p);
        if response.drag_started_by(egui::PointerButton::Primary) {
            self.drag = ui.input(|i| i.pointer.press_origin()).map(to_table);
        }
        if response.dragged_by(egui::PointerButton::Primary) {
            if let (Some(from), Some(p)) = (self.drag, response.interact_pointer_pos()) {
                self.shot = shot_of_drag(&self.game, from, to_table(p), self.power, self.tip);
            }
        }
        if response.drag_stopped_by(egui::PointerButton::Primary) {
            self.drag = None;
            if let Some(shot) = self.shot {
                self.shoot(shot);
            }
        }
        let in_hand = self.game.state.ball_in_hand.is_some();
        if response.clicked_by(egui::PointerButton::Primary) && in_hand {
            if let Some(p) = response.interact_pointer_pos() {
                let [x, y] = to_table(p);
                match self.game.place_cue_ball(x, y) {
                    Ok(()) => {
                        self.notice = Some(Ok("cue ball placed".into()));
                        self.prediction = None;
                        self.shot = self.opening_aim();
                    }
                    Err(e) => self.notice = Some(Err(e)),
                }
            }
        }
    }

    fn script_step(&mut self, ctx: &egui::Context) {
        let Some(frames) = self.frames else { return };
        ctx.request_repaint();
        if self.frames_done < frames {
            return;
        }
        let Some(path) = self.screenshot.clone() else {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            return;
        };
        match self.asked_at {
            None => {
                let slot = Arc::clone(&self.pixels);
                let waker = ctx.clone();
                ctx.request_screenshot(move |image| {
                    if let Ok(mut s) = slot.lock() {
                        *s = Some(image);
                    }
                    waker.request_repaint();
                });
                self.asked_at = Some(self.frames_done);
            }
            Some(at) => {
                let image = self.pixels.lock().ok().and_then(|mut s| s.take());
                if let Some(image) = image {
                    let written = crate::app::encode_png(&image)
                        .and_then(|b| crate::sim::write_atomically(&path, &b));
                    if let Err(e) = written {
                        *self.outcome.borrow_mut() = Some(ViewerError::Screenshot(e));
                    }
                    self.frames = None;
                    ctx.send_viewport_cmd(egui::ViewportCommand::Close);
                } else if self.frames_done > at + 120 {
                    *self.outcome.borrow_mut() = Some(ViewerError::Screenshot(
                        "the window system returned no pixels after 120 frames".into(),
                    ));
                    self.frames = None;
                    ctx.send_viewport_cmd(egui::ViewportCommand::Close);
                }
            }
        }
    }
}

/// A ball in its set's dress: colour, a stripe between white caps, the number on a
/// white disc (as the pictures draw them, `carom_render::ballstyle`).
fn paint_ball(painter: &egui::Painter, c: Pos2, r: f32, l: &BallLook) {
    let [red, green, blue] = l.color.0;
    let fill = Color32::from_rgb(red, green, blue);
    if l.stripe {
        painter.circle_filled(c, r, Color32::WHITE);
        let a = (STRIPE_HALF as f32).asin();
        let n = 12;
        let mut band = Vec::with_capacity(2 * n + 2);
        for from in [-a, std::f32::consts::PI - a] {
            for k in 0..=n {
                let t = from + 2.0 * a * k as f32 / n as f32;
                band.push(c + Vec2::new(r * t.cos(), r * t.sin()));
            }
        }
        painter.add(egui::Shape::convex_polygon(band, fill, Stroke::NONE));
    } else {
        painter.circle_filled(c, r, fill);
    }
    if let Some(n) = l.number {
        if r >= 5.0 {
            let d = LABEL_DISC as f32 * r;
            painter.circle_filled(c, d, Color32::WHITE);
            let size = if n >= 10 { 1.15 * d } else { 1.5 * d };
            painter.text(
                c,
                egui::Align2::CENTER_CENTER,
                n.to_string(),
                egui::FontId::proportional(size),
                Color32::from_gray(20),
            );
        }
    }
    painter.circle_stroke(c, r, Stroke::new(1.0, Color32::from_black_alpha(110)));
}

/// The predicted paths: the cue ball's in white, the first object ball's in its own
/// colour, each with a ring where it comes to rest.
fn paint_paths(painter: &egui::Painter, view: &TableView, paths: &Paths, r: f64, kind: GameKind) {
    let pr = (r * view.scale) as f32;
    let line = |path: &[[f64; 2]], color: Color32| {
        let points: Vec<Pos2> = path.iter().map(|p| view.to_screen(p[0], p[1])).collect();
        if let Some(&end) = points.last() {
            painter.add(egui::Shape::line(points, Stroke::new(2.0, color)));
            painter.circle_stroke(end, pr, Stroke::new(1.5, color));
        }
    };
    line(&paths.cue, Color32::from_white_alpha(220));
    if let Some((n, path)) = &paths.object {
        let [red, green, blue] = look(kind, *n).color.0;
        line(path, Color32::from_rgb(red, green, blue));
    }
}

/// The candidate shots, faint beneath the aimed shot's paths: each one's cue ball
/// path in grey and its object ball's in the ball's colour, up to where the object
/// ball stops or drops, with its number and label (kind, ball, pocket, chance) where
/// the object ball's path begins to move.
fn paint_candidates(
    painter: &egui::Painter,
    view: &TableView,
    shots: &[Shown],
    r: f64,
    kind: GameKind,
) {
    let font = egui::FontId::proportional(12.0);
    for (k, s) in shots.iter().enumerate() {
        let Some(paths) = &s.paths else { continue };
        let points = |path: &[[f64; 2]]| -> Vec<Pos2> {
            path.iter().map(|p| view.to_screen(p[0], p[1])).collect()
        };
        painter.add(egui::Shape::line(
            points(&paths.cue),
            Stroke::new(1.0, Color32::from_white_alpha(70)),
        ));
        let Some((n, path)) = &paths.object else {
            continue;
        };
        let [red, green, blue] = look(kind, *n).color.0;
        painter.add(egui::Shape::line(
            points(path),
            Stroke::new(1.5, Color32::from_rgba_unmultiplied(red, green, blue, 150)),
        ));
        let at = path[path.len() / 2];
        let offset = Vec2::new(0.0, (1.5 * r * view.scale) as f32 + 14.0 * (k % 3) as f32);
        painter.text(
            view.to_screen(at[0], at[1]) + offset,
            egui::Align2::CENTER_TOP,
            format!("{}. {}", k + 1, s.label()),
            font.clone(),
            Color32::from_gray(235),
        );
    }
}

impl eframe::App for GameApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        if ctx.current_pass_index() == 0 {
            self.keys(&ctx);
            self.advance();
            if self.rolling.is_some()
                || self.thinking.is_some()
                || self.candidates.busy()
                || agent_to_move(&self.game, self.opponent)
            {
                ctx.request_repaint();
            }
        }
        egui::Panel::left("game")
            .resizable(false)
            .exact_size(340.0)
            .show(ui, |ui| self.side_panel(ui));
        egui::CentralPanel::default().show(ui, |ui| self.table(ui));
        if ctx.current_pass_index() == 0 {
            self.script_step(&ctx);
        }
    }

    fn clear_color(&self, _visuals: &egui::Visuals) -> [f32; 4] {
        Color32::from_rgb(12, 12, 12).to_normalized_gamma_f32()
    }
}
