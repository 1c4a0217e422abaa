//! The window: panels and the table, drawn from a [`Sim`] each frame. Everything that
//! changes the simulation goes through `Sim`'s methods.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::{Arc, Mutex};

use carom::{Friction, Integrator, ModelKind};
use eframe::egui::{
    self, Color32, ColorImage, Pos2, Rect, Sense, SliderClamping, Stroke, StrokeKind, Vec2,
};
use egui_plot::{Legend, Line, Plot, PlotPoints};

use crate::sim::Sim;
use crate::{Options, ViewerError, DEFAULT_SCREENSHOT_FRAMES, TABLE_RGB};

const CUSHION: Color32 = Color32::from_rgb(0x5D, 0x40, 0x37);
const ERROR: Color32 = Color32::from_rgb(0xFF, 0x6E, 0x6E);
const WARNING: Color32 = Color32::from_rgb(0xFF, 0xC1, 0x07);
const GOOD: Color32 = Color32::from_rgb(0x8B, 0xC3, 0x4A);

/// The scripted run behind `--frames` and `--screenshot`.
enum Script {
    Interactive,
    /// Run until `frames` frames are done, then take the screenshot (if any) and close.
    Frames {
        frames: u64,
        screenshot: Option<PathBuf>,
    },
    /// The screenshot was requested at frame `asked_at`; waiting for the pixels.
    Waiting {
        path: PathBuf,
        asked_at: u64,
    },
    Done,
}

type Pixels = Arc<Mutex<Option<Arc<ColorImage>>>>;

pub struct ViewerApp {
    sim: Sim,
    open_path: String,
    save_path: String,
    script: Script,
    frames_done: u64,
    pixels: Pixels,
    outcome: Rc<RefCell<Option<ViewerError>>>,
}

impl ViewerApp {
    pub fn new(
        cc: &eframe::CreationContext<'_>,
        sim: Sim,
        options: &Options,
        outcome: Rc<RefCell<Option<ViewerError>>>,
    ) -> ViewerApp {
        cc.egui_ctx.set_visuals(egui::Visuals::dark());
        let script = match (&options.screenshot, options.frames) {
            (None, None) => Script::Interactive,
            (shot, frames) => Script::Frames {
                frames: frames.unwrap_or(DEFAULT_SCREENSHOT_FRAMES),
                screenshot: shot.clone(),
            },
        };
        ViewerApp {
            sim,
            open_path: String::new(),
            save_path: "state.json".to_string(),
            script,
            frames_done: 0,
            pixels: Arc::new(Mutex::new(None)),
            outcome,
        }
    }

    fn fail(&mut self, ctx: &egui::Context, error: ViewerError) {
        *self.outcome.borrow_mut() = Some(error);
        self.script = Script::Done;
        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
    }

    /// The simulation side of a frame, once per frame (not once per layout pass).
    fn advance(&mut self, ctx: &egui::Context) {
        match &self.script {
            Script::Frames { frames, .. } if self.frames_done >= *frames => {
                // The last scripted frame has been shown: nothing may move any more.
                self.sim.running = false;
            }
            Script::Waiting { .. } | Script::Done => self.sim.running = false,
            _ => {}
        }
        self.sim.frame();
        self.frames_done += 1;
        if let Script::Frames { .. } | Script::Waiting { .. } = self.script {
            ctx.request_repaint();
        }
        if self.sim.running {
            ctx.request_repaint();
        }
    }

    /// After the frame is laid out: asks for the screenshot of this very frame, or
    /// writes the one that arrived.
    fn script_step(&mut self, ctx: &egui::Context) {
        match std::mem::replace(&mut self.script, Script::Done) {
            Script::Frames { frames, screenshot } if self.frames_done >= frames => match screenshot
            {
                None => ctx.send_viewport_cmd(egui::ViewportCommand::Close),
                Some(path) => {
                    let slot = Arc::clone(&self.pixels);
                    let waker = ctx.clone();
                    ctx.request_screenshot(move |image| {
                        if let Ok(mut s) = slot.lock() {
                            *s = Some(image);
                        }
                        waker.request_repaint();
                    });
                    self.script = Script::Waiting {
                        path,
                        asked_at: self.frames_done,
                    };
                }
            },
            Script::Waiting { path, asked_at } => {
                let image = self.pixels.lock().ok().and_then(|mut s| s.take());
                match image {
                    Some(image) => {
                        match encode_png(&image)
                            .and_then(|b| crate::sim::write_atomically(&path, &b))
                        {
                            Ok(()) => ctx.send_viewport_cmd(egui::ViewportCommand::Close),
                            Err(e) => self.fail(ctx, ViewerError::Screenshot(e)),
                        }
                    }
                    // The pixels come back with the next painted frame; a backend that
                    // never answers must not keep a scripted run open for ever.
                    None if self.frames_done > asked_at + 120 => self.fail(
                        ctx,
                        ViewerError::Screenshot(
                            "the window system returned no pixels after 120 frames".into(),
                        ),
                    ),
                    None => self.script = Script::Waiting { path, asked_at },
                }
            }
            other => self.script = other,
        }
    }

    fn top_bar(&mut self, ui: &mut egui::Ui) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("Presets", |ui| {
                for preset in carom::presets::PRESETS {
                    if ui
                        .button(preset.name)
                        .on_hover_text(preset.summary)
                        .clicked()
                    {
                        let _ = self.sim.load_preset(preset.name);
                        ui.close();
                    }
                }
            });
            ui.separator();
            let label = if self.sim.running { "Pause" } else { "Play" };
            if ui.button(label).on_hover_text("space").clicked() {
                self.sim.running = !self.sim.running;
            }
            if ui
                .button("Step")
                .on_hover_text("one time step (.)")
                .clicked()
            {
                self.sim.request_single_step();
            }
            if ui
                .button("Reset")
                .on_hover_text("back to the scene as loaded (r)")
                .clicked()
            {
                self.sim.reset();
            }
            ui.separator();
            ui.label(format!(
                "{}  ·  {} balls",
                self.sim.world().name,
                self.sim.world().balls().len()
            ));
            if !self.sim.source.is_empty() {
                ui.weak(format!("({})", self.sim.source));
            }
        });
    }

    fn keyboard(&mut self, ctx: &egui::Context) {
        if ctx.egui_wants_keyboard_input() {
            return;
        }
        let (space, dot, r) = ctx.input(|i| {
            (
                i.key_pressed(egui::Key::Space),
                i.key_pressed(egui::Key::Period),
                i.key_pressed(egui::Key::R),
            )
        });
        if space {
            self.sim.running = !self.sim.running;
        }
        if dot {
            self.sim.request_single_step();
        }
        if r {
            self.sim.reset();
        }
    }

    fn side_panel(&mut self, ui: &mut egui::Ui) {
        egui::ScrollArea::vertical().show(ui, |ui| {
            self.scene_section(ui);
            ui.separator();
            self.run_section(ui);
            ui.separator();
            self.physics_section(ui);
        });
    }

    fn scene_section(&mut self, ui: &mut egui::Ui) {
        ui.heading("Scene");
        ui.horizontal(|ui| {
            ui.label("Preset");
            egui::ComboBox::from_id_salt("preset")
                .selected_text("choose…")
                .show_ui(ui, |ui| {
                    for preset in carom::presets::PRESETS {
                        if ui
                            .selectable_label(false, preset.name)
                            .on_hover_text(preset.summary)
                            .clicked()
                        {
                            let _ = self.sim.load_preset(preset.name);
                        }
                    }
                });
        });
        ui.horizontal(|ui| {
            let edit = ui.add(
                egui::TextEdit::singleline(&mut self.open_path)
                    .hint_text("scenario.toml or .json")
                    .desired_width(180.0),
            );
            let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if ui.button("Open").clicked() || enter {
                let path = self.open_path.trim().to_string();
                let _ = self.sim.load_file(Path::new(&path));
            }
        });
        ui.horizontal(|ui| {
            ui.add(egui::TextEdit::singleline(&mut self.save_path).desired_width(180.0));
            if ui.button("Save state").clicked() {
                let path = self.save_path.trim().to_string();
                let _ = self.sim.save_state(Path::new(&path));
            }
        });
        match &self.sim.notice {
            Some(Ok(s)) => {
                ui.colored_label(GOOD, s);
            }
            Some(Err(s)) => {
                ui.colored_label(ERROR, s);
            }
            None => {}
        }
        ui.horizontal(|ui| {
            ui.label("New ball r");
            ui.add(
                egui::DragValue::new(&mut self.sim.new_ball_radius)
                    .range(0.01..=1e4)
                    .speed(0.1),
            );
            ui.label("m");
            ui.add(
                egui::DragValue::new(&mut self.sim.new_ball_mass)
                    .range(1e-6..=1e6)
                    .speed(0.05),
            );
        });
        ui.weak(
            "Left-drag a ball to move it, click empty table to add one, right-click to remove.",
        );
    }

    fn run_section(&mut self, ui: &mut egui::Ui) {
        ui.heading("Run");
        ui.add(
            egui::Slider::new(&mut self.sim.substeps, 1..=500)
                .logarithmic(true)
                .text("sub-steps / frame"),
        );
        ui.add(
            egui::Slider::new(&mut self.sim.speed, 0.01..=20.0)
                .logarithmic(true)
                .text("speed ×"),
        )
        .on_hover_text("more (or fewer) steps per frame; dt never changes");
        let dt = self.sim.world().physics().dt;
        let steps = f64::from(self.sim.substeps) * self.sim.speed;
        ui.weak(format!(
            "{steps:.2} steps of dt = {dt} per frame = {:.4} time units per frame",
            steps * dt
        ));
        ui.add(egui::Slider::new(&mut self.sim.plot_seconds, 1.0..=120.0).text("plot window (s)"));
    }

    fn physics_section(&mut self, ui: &mut egui::Ui) {
        ui.heading("Physics");
        // The boundary is the table's, not a physics parameter: choosing one rebuilds
        // the scene from its current state (a refusal, e.g. a ball straddling an edge
        // that would become a wall, shows in the notice).
        let current = self.sim.world().table().boundary;
        let mut chosen = current;
        egui::ComboBox::from_label("boundary")
            .selected_text(boundary_name(current))
            .show_ui(ui, |ui| {
                for b in BOUNDARIES {
                    ui.selectable_value(&mut chosen, b, boundary_name(b));
                }
            });
        if chosen != current {
            let result = self.sim.set_boundary(chosen);
            self.sim.notice = Some(result.map(|()| format!("boundary: {}", boundary_name(chosen))));
        }
        let p = &mut self.sim.draft;
        egui::ComboBox::from_label("model")
            .selected_text(p.model.name())
            .show_ui(ui, |ui| {
                for m in ModelKind::ALL {
                    ui.selectable_value(&mut p.model, m, m.name());
                }
            });
        ui.add_enabled_ui(p.model == ModelKind::Spring, |ui| {
            egui::ComboBox::from_label("integrator")
                .selected_text(p.integrator.name())
                .show_ui(ui, |ui| {
                    for i in Integrator::ALL {
                        ui.selectable_value(&mut p.integrator, i, i.name());
                    }
                });
            ui.add(
                egui::Slider::new(&mut p.stiffness, 0.01..=1e5)
                    .logarithmic(true)
                    .clamping(SliderClamping::Never)
                    .text("stiffness k"),
            );
        });
        ui.add_enabled(
            p.model == ModelKind::Impulse,
            egui::Checkbox::new(&mut p.glitch_prevention, "glitch prevention"),
        );
        ui.add(
            egui::Slider::new(&mut p.restitution, 0.0..=1.0)
                .clamping(SliderClamping::Never)
                .text("restitution e"),
        );
        ui.add(
            egui::Slider::new(&mut p.gravity[0], -5.0..=5.0)
                .clamping(SliderClamping::Never)
                .text("gravity x"),
        );
        ui.add(
            egui::Slider::new(&mut p.gravity[1], -5.0..=5.0)
                .clamping(SliderClamping::Never)
                .text("gravity y"),
        );
        friction_ui(ui, &mut p.friction);
        ui.add(
            egui::Slider::new(&mut p.contact_friction.mu, 0.0..=1.0)
                .clamping(SliderClamping::Never)
                .text("contact friction mu"),
        );
        ui.add_enabled(
            p.contact_friction.is_active(),
            egui::Slider::new(&mut p.contact_friction.tangential_restitution, -1.0..=1.0)
                .clamping(SliderClamping::Never)
                .text("tangential restitution beta"),
        );
        ui.add(
            egui::Slider::new(&mut p.dt, 1e-4..=1.0)
                .logarithmic(true)
                .clamping(SliderClamping::Never)
                .text("dt"),
        );
        // Apply now, so the error below is about what the sliders show this frame.
        self.sim.apply_draft();
        if let Some(e) = &self.sim.physics_error {
            ui.colored_label(ERROR, format!("refused: {e}"));
            ui.weak("the simulation keeps its previous settings");
        }
        for w in self.sim.world().warnings() {
            ui.colored_label(WARNING, w);
        }
    }

    fn diagnostics_section(&mut self, ui: &mut egui::Ui) {
        ui.heading("Diagnostics");
        if let Some(e) = &self.sim.step_error {
            ui.colored_label(ERROR, e);
        }
        let w = self.sim.world();
        let d = *self.sim.diagnostics();
        let cost = self.sim.frame_cost.as_secs_f64() * 1e3;
        let frame_dt = ui.ctx().input(|i| i.stable_dt);
        let rows: Vec<(&str, String)> = vec![
            ("time", format!("{:.3}", w.time)),
            ("steps", w.steps.to_string()),
            ("collisions", d.collisions.to_string()),
            (
                "in play",
                match d.in_play {
                    Some(n) => format!("{n} of {}", w.balls().len()),
                    None => "all".to_string(),
                },
            ),
            ("kinetic energy", format!("{:+.6e}", d.kinetic_energy)),
            ("potential energy", format!("{:+.6e}", d.potential_energy)),
            ("total energy", format!("{:+.6e}", d.total_energy)),
            ("momentum x", format!("{:+.6e}", d.momentum[0])),
            ("momentum y", format!("{:+.6e}", d.momentum[1])),
            ("energy drift", format!("{:+.3e}", self.sim.energy_drift())),
            (
                "momentum drift",
                format!("{:.3e}", self.sim.momentum_drift()),
            ),
            (
                "symmetry error",
                d.symmetry_error
                    .map_or("not declared".to_string(), |s| format!("{s:.3e}")),
            ),
            (
                "sim cost / frame",
                format!("{cost:.2} ms (avg {:.2})", self.sim.frame_cost_avg_ms),
            ),
            (
                "steps / frame",
                if self.sim.running {
                    self.sim.last_frame_steps.to_string()
                } else {
                    format!("{} (paused)", self.sim.last_frame_steps)
                },
            ),
            ("display frame", format!("{:.1} ms", 1e3 * frame_dt)),
            ("balls", w.balls().len().to_string()),
            ("threads", w.threads().to_string()),
        ];
        egui::Grid::new("diagnostics")
            .num_columns(2)
            .striped(true)
            .show(ui, |ui| {
                for (k, v) in rows {
                    ui.label(k);
                    ui.monospace(v);
                    ui.end_row();
                }
            });
        ui.weak("drifts count from the load, reset or last edit");
    }

    fn plots(&mut self, ui: &mut egui::Ui) {
        let h = self.sim.history();
        let pick = |f: fn(&crate::sim::Sample) -> f64| -> PlotPoints<'static> {
            h.iter().map(|s| [s.time, f(s)]).collect()
        };
        let height = ui.available_height();
        let width = (ui.available_width() - 8.0) / 2.0;
        ui.horizontal(|ui| {
            Plot::new("energy")
                .legend(Legend::default())
                .width(width)
                .height(height)
                .allow_drag(false)
                .allow_zoom(false)
                .allow_scroll(false)
                .x_axis_label("time")
                .show(ui, |plot| {
                    plot.line(Line::new("kinetic", pick(|s| s.kinetic)));
                    plot.line(Line::new("potential", pick(|s| s.potential)));
                    plot.line(Line::new("total", pick(|s| s.total)));
                });
            Plot::new("momentum")
                .legend(Legend::default())
                .width(width)
                .height(height)
                .allow_drag(false)
                .allow_zoom(false)
                .allow_scroll(false)
                .x_axis_label("time")
                .show(ui, |plot| {
                    plot.line(Line::new("momentum x", pick(|s| s.momentum[0])));
                    plot.line(Line::new("momentum y", pick(|s| s.momentum[1])));
                });
        });
    }

    fn table(&mut self, ui: &mut egui::Ui) {
        let avail = ui.available_rect_before_wrap();
        let (response, painter) = ui.allocate_painter(avail.size(), Sense::click_and_drag());
        let Some(view) = TableView::fit(*self.sim.world().table(), avail.shrink(12.0)) else {
            return;
        };
        let world = self.sim.world();
        let rotation = carom::state::rotation_in_play(world);
        view.paint(
            &painter,
            world.balls(),
            self.sim.held_ball(),
            rotation,
            world.in_play_mask(),
        );
        view.paint_scene(&painter, world);
        let (felt, to_table) = (view.felt, |p: Pos2| view.to_table(p));

        // Mouse: primary drag moves a ball, primary click on empty felt adds one,
        // secondary click removes one.
        let press = ui.input(|i| i.pointer.press_origin());
        if response.drag_started_by(egui::PointerButton::Primary) {
            if let Some(p) = press {
                self.sim.press(to_table(p));
            }
        }
        if response.dragged_by(egui::PointerButton::Primary) {
            if let Some(p) = response.interact_pointer_pos() {
                self.sim.drag_to(to_table(p));
            }
        }
        if response.drag_stopped_by(egui::PointerButton::Primary) {
            self.sim.release();
        }
        if response.clicked_by(egui::PointerButton::Primary) {
            if let Some(p) = response.interact_pointer_pos() {
                let at = to_table(p);
                if felt.contains(p) && self.sim.ball_at(at).is_none() {
                    let result = self.sim.add_ball_at(at);
                    self.sim.notice = Some(result.map(|i| format!("added ball {i}")));
                }
            }
        }
        if response.clicked_by(egui::PointerButton::Secondary) {
            if let Some(p) = response.interact_pointer_pos() {
                if let Some(i) = self.sim.remove_ball_at(to_table(p)) {
                    self.sim.notice = Some(Ok(format!("removed ball {i}")));
                }
            }
        }
    }
}

/// Where the table sits on the screen: the felt rectangle and points per table unit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TableView {
    pub felt: Rect,
    pub scale: f64,
    /// Side lengths, and which axes are periodic (a ball cut by such an edge is drawn
    /// on both sides; the edge is dashed).
    pub sides: [f64; 2],
    pub periodic: [bool; 2],
}

impl TableView {
    /// The largest view of `table` centred in `area`, its aspect ratio kept.
    pub fn fit(table: carom::Table, area: Rect) -> Option<TableView> {
        let scale =
            (f64::from(area.width()) / table.width).min(f64::from(area.height()) / table.height);
        if !(scale.is_finite() && scale > 0.0) {
            return None;
        }
        let size = Vec2::new((table.width * scale) as f32, (table.height * scale) as f32);
        Some(TableView {
            felt: Rect::from_center_size(area.center(), size),
            scale,
            sides: [table.width, table.height],
            periodic: [table.is_periodic(0), table.is_periodic(1)],
        })
    }

    pub fn to_screen(&self, x: f64, y: f64) -> Pos2 {
        Pos2::new(
            self.felt.min.x + (x * self.scale) as f32,
            self.felt.min.y + (y * self.scale) as f32,
        )
    }

    pub fn to_table(&self, p: Pos2) -> [f64; 2] {
        [
            f64::from(p.x - self.felt.min.x) / self.scale,
            f64::from(p.y - self.felt.min.y) / self.scale,
        ]
    }

    /// Cushion, felt and balls; the held ball and kinematic balls wear a ring.
    /// Draws the balls; with `rotation`, each with its rotation mark.
    pub fn paint(
        &self,
        painter: &egui::Painter,
        balls: &carom::Balls,
        held: Option<usize>,
        rotation: bool,
        in_play: &[bool],
    ) {
        let felt = self.felt;
        painter.rect_filled(felt.expand(8.0), 4.0, CUSHION);
        let [r, g, b] = TABLE_RGB;
        painter.rect_filled(felt, 0.0, Color32::from_rgb(r, g, b));
        let clip = painter.with_clip_rect(felt);
        // Balls a few pixels wide go into one mesh of small polygons: egui's
        // anti-aliased circles cost several times the vertices, which matters at
        // 10,000 balls, and cannot be told apart at that size.
        let mut small = egui::Mesh::default();
        let mut rims: Vec<Vec<Vec2>> = Vec::new();
        for i in 0..balls.len() {
            let (x, y, rad) = (balls.x[i], balls.y[i], balls.r[i]);
            // Balls out of play are not drawn (an empty mask: all in play).
            if !(x.is_finite() && y.is_finite() && in_play.get(i).copied().unwrap_or(true)) {
                continue;
            }
            // The ball, and on a periodic axis its copy one side over when it is cut
            // by that edge (the clip keeps each copy to the felt).
            let shift = |p: f64, axis: usize| -> f64 {
                if !self.periodic[axis] {
                    0.0
                } else if p - rad < 0.0 {
                    self.sides[axis]
                } else if p + rad > self.sides[axis] {
                    -self.sides[axis]
                } else {
                    0.0
                }
            };
            let (sx, sy) = (shift(x, 0), shift(y, 1));
            let copies = [(0.0, 0.0), (sx, 0.0), (0.0, sy), (sx, sy)];
            for (k, &(dx, dy)) in copies.iter().enumerate() {
                if k > 0 && ((k == 1 || k == 3) && sx == 0.0 || (k == 2 || k == 3) && sy == 0.0) {
                    continue;
                }
                let c = self.to_screen(x + dx, y + dy);
                let pr = ((rad * self.scale) as f32).max(0.75);
                if !felt.expand(pr).contains(c) {
                    continue;
                }
                let [r, g, b] = crate::ball_rgb(balls.color[i]);
                let fill = Color32::from_rgb(r, g, b);
                if pr > 4.0 {
                    clip.circle(
                        c,
                        pr,
                        fill,
                        Stroke::new(1.0, Color32::from_black_alpha(140)),
                    );
                } else {
                    push_disk(&mut small, &mut rims, c, pr, fill);
                }
                // The rotation mark: a radius from the centre to the rim at the ball's angle.
                if rotation && pr > 3.0 && balls.angle[i].is_finite() {
                    let a = balls.angle[i] as f32;
                    let end = c + Vec2::new(a.cos(), a.sin()) * pr;
                    let luma = 0.299 * f32::from(r) + 0.587 * f32::from(g) + 0.114 * f32::from(b);
                    let mark = if luma > 110.0 {
                        Color32::from_gray(28)
                    } else {
                        Color32::from_gray(242)
                    };
                    clip.line_segment([c, end], Stroke::new((0.18 * pr).clamp(1.0, 4.0), mark));
                }
                if balls.is_kinematic(i) || held == Some(i) {
                    clip.circle_stroke(c, pr + 2.0, Stroke::new(2.0, Color32::WHITE));
                }
            }
        }
        if !small.is_empty() {
            clip.add(egui::Shape::mesh(small));
        }
        painter.rect_stroke(
            felt,
            0.0,
            Stroke::new(1.0, Color32::BLACK),
            StrokeKind::Outside,
        );
        // A periodic edge is no cushion: dashed, the table continues past it.
        let dash = Stroke::new(2.0, Color32::WHITE);
        let (a, b) = (felt.min, felt.max);
        let mut edges = Vec::new();
        if self.periodic[0] {
            edges.push([a, Pos2::new(a.x, b.y)]);
            edges.push([Pos2::new(b.x, a.y), b]);
        }
        if self.periodic[1] {
            edges.push([a, Pos2::new(b.x, a.y)]);
            edges.push([Pos2::new(a.x, b.y), b]);
        }
        for e in edges {
            painter.extend(egui::Shape::dashed_line(&e, dash, 6.0, 4.0));
        }
    }
}

impl TableView {
    /// What the scene adds to the plain table: pockets as holes, walls inside the
    /// table as lines (over the balls, so a wall stays visible in a crowd), and open
    /// edges as gaps in the cushion.
    pub fn paint_scene(&self, painter: &egui::Painter, world: &carom::World) {
        let clip = painter.with_clip_rect(self.felt.expand(8.0));
        let walls = world.walls();
        for p in walls.pockets() {
            let c = self.to_screen(p.center[0], p.center[1]);
            clip.circle_filled(c, (p.radius * self.scale) as f32, Color32::from_gray(16));
        }
        let stroke = Stroke::new(2.0, CUSHION);
        for piece in walls.pieces() {
            match piece.shape {
                carom::walls::Shape::Segment { a, b } => {
                    clip.line_segment(
                        [self.to_screen(a[0], a[1]), self.to_screen(b[0], b[1])],
                        stroke,
                    );
                }
                carom::walls::Shape::Arc {
                    center,
                    radius,
                    from,
                    span,
                } => {
                    let px = radius * self.scale;
                    let n = ((span * px / 3.0).ceil() as usize).clamp(8, 720);
                    let points: Vec<Pos2> = (0..=n)
                        .map(|k| {
                            let t = from + span * k as f64 / n as f64;
                            self.to_screen(
                                center[0] + radius * t.cos(),
                                center[1] + radius * t.sin(),
                            )
                        })
                        .collect();
                    clip.add(egui::Shape::line(points, stroke));
                }
            }
        }
        // An open edge: a gap in the cushion.
        let (a, b) = (self.felt.min, self.felt.max);
        let gap = Color32::from_gray(27);
        let open = [world.table().is_open(0), world.table().is_open(1)];
        if open[0] {
            painter.rect_filled(
                Rect::from_min_max(Pos2::new(a.x - 9.0, a.y), Pos2::new(a.x, b.y)),
                0.0,
                gap,
            );
            painter.rect_filled(
                Rect::from_min_max(Pos2::new(b.x, a.y), Pos2::new(b.x + 9.0, b.y)),
                0.0,
                gap,
            );
        }
        if open[1] {
            painter.rect_filled(
                Rect::from_min_max(Pos2::new(a.x, a.y - 9.0), Pos2::new(b.x, a.y)),
                0.0,
                gap,
            );
            painter.rect_filled(
                Rect::from_min_max(Pos2::new(a.x, b.y), Pos2::new(b.x, b.y + 9.0)),
                0.0,
                gap,
            );
        }
    }
}

/// The boundaries the viewer offers: walls, a periodic box, a channel (periodic in x).
const BOUNDARIES: [[carom::Boundary; 2]; 3] = [
    [carom::Boundary::Walls, carom::Boundary::Walls],
    [carom::Boundary::Periodic, carom::Boundary::Periodic],
    [carom::Boundary::Periodic, carom::Boundary::Walls],
];

fn boundary_name(b: [carom::Boundary; 2]) -> &'static str {
    use carom::Boundary::{Periodic, Walls};
    match b {
        [Walls, Walls] => "walls",
        [Periodic, Periodic] => "periodic",
        [Periodic, Walls] => "channel (periodic x)",
        [Walls, Periodic] => "periodic y",
        _ => "open edges",
    }
}

/// A filled polygon of about one side per pixel of circumference / 3 (at least 6);
/// `rims[n]` caches the unit polygon with `n` sides.
fn push_disk(mesh: &mut egui::Mesh, rims: &mut Vec<Vec<Vec2>>, c: Pos2, r: f32, color: Color32) {
    let n = ((std::f32::consts::TAU * r / 3.0).ceil() as usize).clamp(6, 16);
    if rims.len() <= n {
        rims.resize(n + 1, Vec::new());
    }
    if rims[n].is_empty() {
        rims[n] = (0..n)
            .map(|k| Vec2::angled(std::f32::consts::TAU * k as f32 / n as f32))
            .collect();
    }
    let base = mesh.vertices.len() as u32;
    mesh.colored_vertex(c, color);
    for &u in &rims[n] {
        mesh.colored_vertex(c + r * u, color);
    }
    for k in 0..n as u32 {
        mesh.add_triangle(base, base + 1 + k, base + 1 + (k + 1) % n as u32);
    }
}

fn friction_ui(ui: &mut egui::Ui, f: &mut Friction) {
    let name = match f {
        Friction::None => "none",
        Friction::Dry { .. } => "dry",
        Friction::Drag { .. } => "drag",
        Friction::Linear { .. } => "linear",
        Friction::Cloth { .. } => "cloth",
    };
    let mu = match *f {
        Friction::None => 0.05,
        Friction::Dry { mu, .. } | Friction::Drag { mu } | Friction::Linear { mu } => mu,
        Friction::Cloth { rolling_mu, .. } => rolling_mu,
    };
    egui::ComboBox::from_label("friction")
        .selected_text(name)
        .show_ui(ui, |ui| {
            let g_normal = match *f {
                Friction::Dry { g_normal, .. } | Friction::Cloth { g_normal, .. } => g_normal,
                _ => 1.0,
            };
            for (label, kind) in [
                ("none", Friction::None),
                ("dry", Friction::Dry { mu, g_normal }),
                ("drag", Friction::Drag { mu }),
                ("linear", Friction::Linear { mu }),
                ("cloth", Friction::cloth(g_normal)),
            ] {
                if ui.selectable_label(label == name, label).clicked() {
                    *f = kind;
                }
            }
        });
    match f {
        Friction::None => {}
        Friction::Dry { mu, g_normal } => {
            ui.add(mu_slider(mu));
            ui.add(
                egui::Slider::new(g_normal, 0.0..=10.0)
                    .clamping(SliderClamping::Never)
                    .text("g normal"),
            );
        }
        Friction::Drag { mu } | Friction::Linear { mu } => {
            ui.add(mu_slider(mu));
        }
        Friction::Cloth {
            sliding_mu,
            rolling_mu,
            spinning_mu,
            g_normal,
        } => {
            for (v, label, top) in [
                (sliding_mu, "sliding μ", 1.0),
                (rolling_mu, "rolling μ", 0.1),
                (spinning_mu, "spinning μ", 0.1),
            ] {
                ui.add(
                    egui::Slider::new(v, 0.0..=top)
                        .clamping(SliderClamping::Never)
                        .text(label),
                );
            }
            ui.add(
                egui::Slider::new(g_normal, 0.0..=1000.0)
                    .clamping(SliderClamping::Never)
                    .text("g normal"),
            );
        }
    }
}

fn mu_slider(mu: &mut f64) -> egui::Slider<'_> {
    egui::Slider::new(mu, 0.0..=1.0)
        .clamping(SliderClamping::Never)
        .text("friction μ")
}

/// The screenshot as an RGB PNG (the window is opaque; alpha carries nothing).
pub fn encode_png(image: &ColorImage) -> Result<Vec<u8>, String> {
    let [w, h] = image.size;
    let mut rgb = Vec::with_capacity(w * h * 3);
    for p in &image.pixels {
        rgb.extend_from_slice(&[p.r(), p.g(), p.b()]);
    }
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, w as u32, h as u32);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
    writer.write_image_data(&rgb).map_err(|e| e.to_string())?;
    writer.finish().map_err(|e| e.to_string())?;
    Ok(out)
}

impl eframe::App for ViewerApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        // egui may lay a frame out twice (a discarded sizing pass); the world must
        // advance once per displayed frame.
        if ctx.current_pass_index() == 0 {
            self.keyboard(&ctx);
            self.advance(&ctx);
        }
        egui::Panel::top("menu").show(ui, |ui| self.top_bar(ui));
        egui::Panel::left("controls")
            .resizable(false)
            .exact_size(330.0)
            .show(ui, |ui| self.side_panel(ui));
        // Fixed widths: panels that followed their content would shift the table
        // under the mouse whenever a number grows a digit.
        egui::Panel::right("diagnostics")
            .resizable(false)
            .exact_size(300.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| self.diagnostics_section(ui))
            });
        egui::Panel::bottom("plots")
            .resizable(true)
            .default_size(190.0)
            .show(ui, |ui| self.plots(ui));
        egui::CentralPanel::default().show(ui, |ui| self.table(ui));
        if ctx.current_pass_index() == 0 {
            self.script_step(&ctx);
        }
    }

    fn clear_color(&self, _visuals: &egui::Visuals) -> [f32; 4] {
        Color32::from_rgb(12, 12, 12).to_normalized_gamma_f32()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_view_keeps_the_aspect_and_maps_both_ways() {
        let table = carom::Table::new(800.0, 400.0);
        let area = Rect::from_min_size(Pos2::new(100.0, 50.0), Vec2::new(1000.0, 1000.0));
        let view = TableView::fit(table, area).unwrap();
        // Width-limited: 1000 px for 800 units, so 500 px tall, centred vertically.
        assert_eq!(view.scale, 1.25);
        assert_eq!(
            view.felt,
            Rect::from_min_size(Pos2::new(100.0, 300.0), Vec2::new(1000.0, 500.0))
        );
        assert_eq!(view.to_screen(0.0, 0.0), view.felt.min);
        assert_eq!(view.to_screen(800.0, 400.0), view.felt.max);
        let [x, y] = view.to_table(view.to_screen(123.0, 321.0));
        // Screen positions are f32: a few ulps of 1000 px, over the scale.
        assert!((x - 123.0).abs() < 1e-3 && (y - 321.0).abs() < 1e-3);
        let degenerate = Rect::from_min_size(Pos2::ZERO, Vec2::ZERO);
        assert!(TableView::fit(table, degenerate).is_none());
    }
}
