//! Recent positions of every ball, for fading trails.

use crate::frame::Frame;

/// The last `len` recorded positions of each ball, oldest first. Positions are recorded
/// once per picture (per animation frame), so a trail spans `len` frames of motion.
#[derive(Debug, Clone, PartialEq)]
pub struct Trails {
    len: usize,
    /// Ring buffer: `history[k]` holds every ball's position at one recording.
    history: Vec<Vec<(f64, f64)>>,
    /// Index in `history` of the oldest recording.
    head: usize,
}

/// Trail length in recordings when nothing else is asked for: at 25 frames per second,
/// the last 0.8 s of motion.
pub const DEFAULT_TRAIL_LEN: usize = 20;

impl Trails {
    /// Trails of `len` recordings (at least 2).
    pub fn new(len: usize) -> Trails {
        Trails {
            len: len.max(2),
            history: Vec::new(),
            head: 0,
        }
    }

    /// Records every ball's current position. A change in the number of balls (an
    /// editor added or removed one) starts the trails afresh, since indices no longer
    /// name the same balls.
    pub fn record(&mut self, frame: &Frame) {
        if self
            .history
            .first()
            .is_some_and(|h| h.len() != frame.balls.len())
        {
            self.clear();
        }
        if self.history.len() < self.len {
            self.history
                .push(frame.balls.iter().map(|b| (b.x, b.y)).collect());
        } else {
            let slot = &mut self.history[self.head];
            slot.clear();
            slot.extend(frame.balls.iter().map(|b| (b.x, b.y)));
            self.head = (self.head + 1) % self.len;
        }
    }

    /// Forgets every recording.
    pub fn clear(&mut self) {
        self.history.clear();
        self.head = 0;
    }

    /// How many recordings are held (at most the trail length).
    pub fn depth(&self) -> usize {
        self.history.len()
    }

    /// The trail length in recordings.
    pub fn max_len(&self) -> usize {
        self.len
    }

    /// Position of ball `i` at recording `k` (0 = oldest held).
    pub fn position(&self, k: usize, i: usize) -> Option<(f64, f64)> {
        let n = self.history.len();
        if k >= n {
            return None;
        }
        let slot = if n < self.len { k } else { (self.head + k) % n };
        self.history[slot].get(i).copied()
    }

    /// Number of balls the trails cover.
    pub fn balls(&self) -> usize {
        self.history.first().map_or(0, Vec::len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::BallView;

    fn frame_at(x: f64) -> Frame {
        Frame {
            width: 100.0,
            height: 100.0,
            time: 0.0,
            balls: vec![BallView::new(x, 50.0, 1.0)],
            periodic: [false, false],
            ..Frame::default()
        }
    }

    #[test]
    fn keeps_the_newest_positions_oldest_first() {
        let mut t = Trails::new(3);
        for x in 1..=5 {
            t.record(&frame_at(x as f64));
        }
        assert_eq!(t.depth(), 3);
        let xs: Vec<f64> = (0..3).map(|k| t.position(k, 0).unwrap().0).collect();
        assert_eq!(xs, vec![3.0, 4.0, 5.0]);
        assert_eq!(t.position(3, 0), None);
    }

    #[test]
    fn a_new_ball_count_restarts_the_trails() {
        let mut t = Trails::new(4);
        t.record(&frame_at(1.0));
        t.record(&frame_at(2.0));
        let mut two = frame_at(3.0);
        two.balls.push(BallView::new(9.0, 9.0, 1.0));
        t.record(&two);
        assert_eq!(t.depth(), 1);
        assert_eq!(t.balls(), 2);
    }
}
