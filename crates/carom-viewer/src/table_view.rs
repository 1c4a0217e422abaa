//! The table on the screen: where it sits ([`TableView::fit`]), the mapping between
//! screen points and table coordinates, and the drawing of the felt, the balls with
//! their marks, the walls, pockets and open edges.

use eframe::egui::{self, Color32, Pos2, Rect, Stroke, StrokeKind, Vec2};

use crate::TABLE_RGB;

pub(crate) const CUSHION: Color32 = Color32::from_rgb(0x5D, 0x40, 0x37);

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
    /// Draws the balls; with `rotation`, each with its rotation mark; with `spin`
    /// (spheres on cloth), each with the spin dot the pictures draw
    /// (`carom_render::frame::spin_dot_offset`: where the spin carries the top of the
    /// ball, relative to its travel).
    pub fn paint(
        &self,
        painter: &egui::Painter,
        balls: &carom::Balls,
        held: Option<usize>,
        rotation: bool,
        spin: bool,
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
                // Marks in a colour that stands out on the ball's.
                let mark = || {
                    let luma = 0.299 * f32::from(r) + 0.587 * f32::from(g) + 0.114 * f32::from(b);
                    if luma > 110.0 {
                        Color32::from_gray(28)
                    } else {
                        Color32::from_gray(242)
                    }
                };
                // The rotation mark: a radius from the centre to the rim at the ball's angle.
                if rotation && pr > 3.0 && balls.angle[i].is_finite() {
                    let a = balls.angle[i] as f32;
                    let end = c + Vec2::new(a.cos(), a.sin()) * pr;
                    clip.line_segment([c, end], Stroke::new((0.18 * pr).clamp(1.0, 4.0), mark()));
                }
                if spin && pr > 3.0 {
                    let [dx, dy] = carom_render::frame::spin_dot_offset(
                        rad,
                        [balls.vx[i], balls.vy[i]],
                        [balls.wx[i], balls.wy[i]],
                    );
                    let dot = c + Vec2::new((dx * self.scale) as f32, (dy * self.scale) as f32);
                    if dot.x.is_finite() && dot.y.is_finite() {
                        let size = (carom_render::frame::SPIN_DOT_RADIUS as f32 * pr).max(1.0);
                        clip.circle_filled(dot, size, mark());
                    }
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
                carom::Shape::Segment { a, b } => {
                    clip.line_segment(
                        [self.to_screen(a[0], a[1]), self.to_screen(b[0], b[1])],
                        stroke,
                    );
                }
                carom::Shape::Arc {
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

impl TableView {
    /// Force chains: each contact a segment from ball `i`'s centre to ball `j`'s (the
    /// nearest image across a periodic edge), as wide as the pictures draw it
    /// (`carom_render::FORCE_WIDTH` mean radii for the largest force, in proportion
    /// below it).
    pub fn paint_forces(
        &self,
        painter: &egui::Painter,
        world: &carom::World,
        forces: &[carom::ContactForce],
    ) {
        let (b, table) = (world.balls(), world.table());
        let largest = forces.iter().map(|f| f.normal).fold(0.0, f64::max);
        if largest <= 0.0 || b.is_empty() {
            return;
        }
        let mean_r = b.r.iter().sum::<f64>() / b.len() as f64;
        let clip = painter.with_clip_rect(self.felt);
        let color = Color32::from_rgb(0xB0, 0x10, 0x10);
        for f in forces.iter().filter(|f| f.normal > 0.0) {
            let (i, j) = (f.i as usize, f.j as usize);
            let (dx, dy) = table.min_image(b.x[j] - b.x[i], b.y[j] - b.y[i]);
            let width = carom_render::FORCE_WIDTH * mean_r * f.normal / largest * self.scale;
            clip.line_segment(
                [
                    self.to_screen(b.x[i], b.y[i]),
                    self.to_screen(b.x[i] + dx, b.y[i] + dy),
                ],
                Stroke::new(width.max(0.5) as f32, color),
            );
        }
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
