//! The window: panels and the table, drawn from a [`Sim`] each frame. Everything that
//! changes the simulation goes through `Sim`'s methods.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::{Arc, Mutex};

use carom::{Friction, Integrator, ModelKind};
use eframe::egui::{self, Color32, ColorImage, Pos2, Sense, SliderClamping};
use egui_plot::{Legend, Line, Plot, PlotPoints};

use crate::sim::Sim;
pub use crate::table_view::TableView;
use crate::{Options, ViewerError, DEFAULT_SCREENSHOT_FRAMES};

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
    /// Draw the force chains (spring model).
    forces: bool,
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
            forces: false,
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
            if self.sim.cue_ready() {
                ui.separator();
                crate::cue_ui::section(ui, &mut self.sim);
            }
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
        ui.checkbox(&mut self.forces, "force chains").on_hover_text(
            "each contact a segment between the centres, as wide as its normal force \
             (spring model; the hard models act by impulses)",
        );
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
            ("temperature", format!("{:.6e}", d.temperature)),
            ("packing fraction", format!("{:.6}", d.packing_fraction)),
            (
                "reduced pressure Z",
                reduced_pressure(&d, w.table().area(), d.in_play.unwrap_or(w.balls().len())),
            ),
            ("psi6", order(w)),
            ("momentum x", format!("{:+.6e}", d.momentum[0])),
            ("momentum y", format!("{:+.6e}", d.momentum[1])),
            (
                "stress xx xy yy",
                format!(
                    "{:+.3e} {:+.3e} {:+.3e}",
                    d.stress_xx, d.stress_xy, d.stress_yy
                ),
            ),
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
        let spin = carom::state::spheres_in_play(world);
        view.paint(
            &painter,
            world.balls(),
            self.sim.held_ball(),
            rotation,
            spin,
            world.in_play_mask(),
        );
        view.paint_scene(&painter, world);
        if self.forces {
            if let Some(forces) = world.contact_forces() {
                view.paint_forces(&painter, world, &forces);
            }
        }
        if let Some((ball, cue)) = self.sim.aimed() {
            let t = world.table();
            let full = self.sim.cue_speed_of(t.width.max(t.height));
            crate::cue_ui::paint_aim(&painter, &view, world.balls(), ball, &cue, cue.speed / full);
        }
        let (felt, to_table) = (view.felt, |p: Pos2| view.to_table(p));

        // Mouse: primary drag moves a ball (on cloth with the cue on: aims a strike
        // and releasing strikes), primary click on empty felt adds one, secondary
        // click removes one.
        let cue = self.sim.cue.on && self.sim.cue_ready();
        let press = ui.input(|i| i.pointer.press_origin());
        if response.drag_started_by(egui::PointerButton::Primary) {
            if let Some(p) = press {
                if cue {
                    self.sim.aim_from(to_table(p));
                } else {
                    self.sim.press(to_table(p));
                }
            }
        }
        if response.dragged_by(egui::PointerButton::Primary) {
            if let Some(p) = response.interact_pointer_pos() {
                self.sim.drag_to(to_table(p));
                self.sim.aim_to(to_table(p));
            }
        }
        if response.drag_stopped_by(egui::PointerButton::Primary) {
            self.sim.release();
            let _ = self.sim.release_aim();
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

/// `Z = P A / (N k T)`, the pressure averaged since the world was built (or the scene
/// last changed); a dash at zero temperature.
fn reduced_pressure(d: &carom::Diagnostics, area: f64, n: usize) -> String {
    let nkt = n as f64 * d.temperature;
    if nkt > 0.0 {
        format!("{:.6}", d.pressure * area / nkt)
    } else {
        "-".to_string()
    }
}

/// The largest scene whose `psi6` is measured every frame: the neighbour search costs
/// about a microsecond per ball.
const PSI6_MAX_BALLS: usize = 20_000;

/// The global bond order `psi6`, measured for scenes of at most [`PSI6_MAX_BALLS`].
fn order(w: &carom::World) -> String {
    if w.balls().len() <= PSI6_MAX_BALLS {
        let psi6 = w.with_order(carom::Diagnostics::default()).psi6;
        psi6.map_or("-".to_string(), |p| format!("{p:.4}"))
    } else {
        format!("not measured above {PSI6_MAX_BALLS} balls")
    }
}
