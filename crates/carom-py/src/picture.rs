//! Pictures of a world (`World.render`, the Jupyter picture): the same recording the
//! command line's `--render` makes, fed while the world runs without the GIL.

use pyo3::prelude::*;

use crate::PyWorld;

impl PyWorld {
    /// Draws the world (after running it for `time`, if given) in `format`.
    pub(crate) fn picture(
        &self,
        py: Python<'_>,
        format: carom_render::ImageFormat,
        time: Option<f64>,
        size: Option<(u32, u32)>,
    ) -> PyResult<Vec<u8>> {
        use carom_render::{AnimationOptions, Frame, Recording};
        let steps = match time {
            Some(t) => self.steps_of(py, Some(t), None)?,
            None => 0,
        };
        let mut options = AnimationOptions::default();
        if let Some(s) = size {
            options.picture.size = s;
        }
        let (first, every, label) = {
            let g = self.lock(py)?;
            let w = &g.session.world;
            let every = carom_render::steps_per_frame(
                w.physics().dt,
                options.fps,
                carom_render::DEFAULT_SPEED,
            );
            let label = format!(
                "{} · {}",
                w.name,
                carom::compare::variant_label(w.physics())
            );
            (Frame::from_world(w), every, label)
        };
        let render_err = |e: carom_render::RenderError| crate::scenario_error(e.to_string());
        let mut rec = Recording::new(
            Vec::new(),
            format,
            std::slice::from_ref(&first),
            &[label],
            &options,
        )
        .map_err(render_err)?;
        // The recording takes every sampled state, the first one included.
        let mut pushed = rec.push(std::slice::from_ref(&first));
        let mut frame = first;
        let result = self.advance(py, steps, every, |w| {
            if pushed.is_ok() {
                frame.update_from_world(w);
                pushed = rec.push(std::slice::from_ref(&frame));
            }
        });
        result?;
        pushed.map_err(render_err)?;
        let (bytes, _) = rec.finish().map_err(render_err)?;
        Ok(bytes)
    }
}
