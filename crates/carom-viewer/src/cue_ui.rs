//! The cue's controls on cloth: the side panel's Cue section (english, follow,
//! elevation, power, and a picker on the ball's face for the tip) and the strike being
//! aimed, drawn over the table. What a strike does is [`Sim`]'s (`sim/cue.rs`).

use eframe::egui::{self, Color32, Sense, Stroke, Vec2};

use crate::sim::Sim;
use crate::table_view::TableView;

/// The Cue section of the side panel, on cloth: where the tip meets the ball, the
/// cue's elevation and power.
pub fn section(ui: &mut egui::Ui, sim: &mut Sim) {
    ui.heading("Cue");
    let c = &mut sim.cue;
    ui.checkbox(&mut c.on, "drag strikes a ball")
        .on_hover_text("off: a drag moves the ball as on any table");
    ui.horizontal(|ui| {
        tip_picker(ui, &mut c.english, &mut c.follow);
        ui.vertical(|ui| {
            for (v, label) in [(&mut c.english, "english"), (&mut c.follow, "follow")] {
                ui.add(
                    egui::Slider::new(v, -carom::cue::MAX_TIP_OFFSET..=carom::cue::MAX_TIP_OFFSET)
                        .text(label),
                );
            }
            ui.add(egui::Slider::new(&mut c.elevation, 0.0..=85.0).text("elevation °"));
            ui.add(
                egui::Slider::new(&mut c.power, 0.1..=4.0)
                    .logarithmic(true)
                    .text("power ×"),
            );
        });
    });
    let full = sim.cue_speed_of({
        let t = sim.world().table();
        t.width.max(t.height)
    });
    ui.weak(format!(
        "Drag from a ball (from empty felt: ball 0) the way it should go; the \
         drag's length sets the speed ({full:.3} for the table's length). Release to \
         strike. Click the ball face to place the tip: right is english, up follow, \
         down draw. The dot on each ball shows its spin: at the centre a stun ball, \
         half a radius ahead rolling, behind it draw."
    ));
}

/// The strike being aimed: a dashed line from the ball the way it will go, the cue
/// behind the ball (drawn back further for a harder strike: `pull` is the speed over
/// that of a drag the table's length), and the speed and aim.
pub fn paint_aim(
    painter: &egui::Painter,
    view: &TableView,
    balls: &carom::Balls,
    ball: usize,
    cue: &carom::cue::CueSpec,
    pull: f64,
) {
    let (x, y, r) = (balls.x[ball], balls.y[ball], balls.r[ball]);
    let c = view.to_screen(x, y);
    let dir = {
        let a = cue.aim.to_radians();
        Vec2::new(a.cos() as f32, a.sin() as f32)
    };
    let pr = (r * view.scale) as f32;
    let reach = (view.felt.width().max(view.felt.height())) * 0.25;
    let white = Stroke::new(1.5, Color32::from_white_alpha(200));
    painter.extend(egui::Shape::dashed_line(
        &[c + dir * pr, c + dir * (pr + reach)],
        white,
        6.0,
        4.0,
    ));
    let pull = if pull.is_finite() {
        pull.clamp(0.0, 1.0)
    } else {
        0.0
    } as f32;
    let tip = c - dir * (pr + 4.0 + 0.5 * reach * pull);
    let butt = tip - dir * (reach * 0.8);
    painter.line_segment(
        [tip, butt],
        Stroke::new(4.0, Color32::from_rgb(0xC8, 0xA2, 0x6E)),
    );
    painter.circle_filled(tip, 2.5, Color32::from_rgb(0x3A, 0x7C, 0xC4));
    painter.text(
        c + Vec2::new(pr + 6.0, -pr - 6.0),
        egui::Align2::LEFT_BOTTOM,
        format!("speed {:.3}  aim {:.1}°", cue.speed, cue.aim),
        egui::FontId::proportional(13.0),
        Color32::WHITE,
    );
}

/// The face of the ball as the shooter sees it: click or drag to place the tip
/// (right: english, up: follow), within the reach of a strike that does not miss.
pub fn tip_picker(ui: &mut egui::Ui, english: &mut f64, follow: &mut f64) {
    let size = 72.0;
    let (rect, response) = ui.allocate_exact_size(Vec2::splat(size), Sense::click_and_drag());
    let c = rect.center();
    let r = 0.45 * size;
    let painter = ui.painter_at(rect);
    painter.circle_filled(c, r, Color32::from_gray(235));
    painter.circle_stroke(
        c,
        r * carom::cue::MAX_TIP_OFFSET as f32,
        Stroke::new(1.0, Color32::from_gray(170)),
    );
    if let Some(p) = response.interact_pointer_pos() {
        let (mut e, mut f) = (f64::from((p.x - c.x) / r), f64::from((c.y - p.y) / r));
        let reach = e.hypot(f);
        if reach > carom::cue::MAX_TIP_OFFSET {
            e *= carom::cue::MAX_TIP_OFFSET / reach;
            f *= carom::cue::MAX_TIP_OFFSET / reach;
        }
        (*english, *follow) = (e, f);
    }
    let tip = c + Vec2::new(*english as f32 * r, -*follow as f32 * r);
    painter.circle_filled(tip, 5.0, Color32::from_rgb(0x3A, 0x7C, 0xC4));
}
