//! Resolution of one group of collisions due at the same time (within round-off): the
//! contacts that really approach, clustered through shared balls, each cluster one
//! simultaneous impact; then the bookkeeping and predictions that follow.

use super::kinds::{Kind, HELD, PIECE};
use super::motion::{approaching_pair, approaching_wall, resolve_cluster, settle, wall_from_index};
use super::records::{History, MAX_PARTNERS, PARTNERS_OVERFLOW};
use super::state::{Event, TC_BURST};
use crate::balls::Balls;
use crate::event_log::LoggedEvent;
use crate::models::simultaneous::ContactSolver;
use crate::models::{approach_speed, contact_row, Contact, Wall};
use crate::table::Table;

impl Event {
    two_versions! {
        /// Resolves the collision events in `group_events`, all due at `t0` within
        /// round-off, as one simultaneous impact, and predicts what follows.
        pub(super) fn resolve_group / resolve_group_portable / resolve_group_wide => resolve_group_body
            (&mut self, b: &mut Balls, t0: f64)
    }

    #[inline(always)]
    fn resolve_group_body(&mut self, b: &mut Balls, t0: f64) {
        self.resolve_group_as::<false>(b, t0);
    }

    /// [`Event::resolve_group`] for balls on cloth (`on_cloth.rs`): the same steps, each
    /// with what cloth adds, compiled apart so that without cloth the path is as it was.
    #[inline(never)]
    pub(super) fn resolve_group_on_cloth(&mut self, b: &mut Balls, t0: f64) {
        self.resolve_group_as::<true>(b, t0);
    }

    #[inline(always)]
    fn resolve_group_as<const CLOTH: bool>(&mut self, b: &mut Balls, t0: f64) {
        if let [e] = self.scratch.group_events[..] {
            if let Kind::Pair(j) = e.kind() {
                let i = e.i as usize;
                if self.rec.hist[i].rest | self.rec.hist[j].rest == 0 {
                    self.resolve_lone_pair::<CLOTH>(b, i, j, t0);
                    return;
                }
            }
        }
        let s = self.next_serial();
        self.bring_group_to_impact::<CLOTH>(b, s, t0);
        self.group_contacts::<CLOTH>(b);
        let on_faces = !CLOTH && self.inner.is_some() && self.add_resting_faces(b);

        if CLOTH
            && (self.scratch.contacts.len() > 1
                || matches!(self.scratch.contacts.first(), Some(Contact::Wall(..))))
        {
            // On cloth the table's walls are cushions, and soft impacts are met on
            // their own (`on_cloth.rs`).
            self.resolve_on_cloth(b, t0);
        } else if self.scratch.contacts.len() <= 1 {
            // One contact (the common case: a single pair or wall): it is its own
            // cluster, resolved exactly as below without the clustering's sorts.
            self.resolve_clusters_of_one::<CLOTH>(b, t0);
        } else {
            self.resolve_clusters(b, t0);
        }
        if !self.scratch.piece_hits.is_empty() {
            self.resolve_piece_hits::<CLOTH>(b, s, t0);
        }
        if on_faces {
            // Rests on, or lifts off (`on_face.rs`).
            for k in 0..self.scratch.involved.len() {
                let i = self.scratch.involved[k] as usize;
                if self.rec.hist[i].rest & HELD != 0 {
                    self.settle_on_faces::<CLOTH>(b, i, s, t0);
                }
            }
        }
        self.after_group::<CLOTH>(b, s, t0);
    }

    /// Marks every ball of the group with serial `s`, lists it in `involved` once, and
    /// brings it to the impact's time `t0`.
    #[inline(always)]
    fn bring_group_to_impact<const CLOTH: bool>(&mut self, b: &mut Balls, s: u32, t0: f64) {
        self.scratch.involved.clear();
        for k in 0..self.scratch.group_events.len() {
            let e = self.scratch.group_events[k];
            let j = match e.kind() {
                Kind::Pair(j) => Some(j),
                _ => None,
            };
            for ball in std::iter::once(e.i as usize).chain(j) {
                if self.rec.hist[ball].mark != s {
                    self.rec.hist[ball].mark = s;
                    self.scratch.involved.push(ball as u32);
                }
            }
        }
        for k in 0..self.scratch.involved.len() {
            let i = self.scratch.involved[k] as usize;
            self.bring_to_impact::<CLOTH>(b, i, t0);
        }
    }

    /// The group's contacts into `contacts`, sorted and each once, and the balls that
    /// struck a piece of wall inside the table into `piece_hits`.
    #[inline(always)]
    fn group_contacts<const CLOTH: bool>(&mut self, b: &Balls) {
        // The contacts that really approach at t0 (the same predicate that predicted
        // them, so only a grazing touch can fall out here).
        self.scratch.contacts.clear();
        self.scratch.piece_hits.clear();
        for e in &self.scratch.group_events {
            let i = e.i as usize;
            match e.kind() {
                Kind::Wall(PIECE) => self.scratch.piece_hits.push(i as u32),
                Kind::Pair(j) => {
                    if approaching_pair(b, &self.laws.table, i, j)
                        || (CLOTH && self.pressed_touch(b, i, j))
                    {
                        let (lo, hi) = if i < j { (i, j) } else { (j, i) };
                        self.scratch
                            .contacts
                            .push(Contact::Pair(lo as u32, hi as u32));
                    }
                }
                Kind::Wall(w) => {
                    let w = wall_from_index(w);
                    if approaching_wall(b, i, w) {
                        self.scratch.contacts.push(Contact::Wall(i as u32, w));
                    }
                }
                Kind::Exit | Kind::End | Kind::Cross(_) => {}
            }
        }
        // A ball resting on a wall takes the wall into its impact: pushed into the
        // floor, it is pushed back by the floor in the same instant.
        for k in 0..self.scratch.contacts.len() {
            let c = self.scratch.contacts[k];
            for i in contact_balls(&c) {
                for w in Wall::ALL {
                    if self.rec.hist[i].rest & (1 << w as u8) != 0 {
                        self.scratch.contacts.push(Contact::Wall(i as u32, w));
                    }
                }
            }
        }
        self.scratch.contacts.sort_unstable();
        self.scratch.contacts.dedup();
    }

    /// What follows the impact: the bookkeeping of every ball whose velocity it could
    /// have changed (its partners, its rest on a wall), then the predictions of every
    /// ball that took an impulse and of every owner whose event fell out.
    #[inline(always)]
    fn after_group<const CLOTH: bool>(&mut self, b: &mut Balls, s: u32, t0: f64) {
        // Bookkeeping for every ball whose velocity the impact could have changed.
        for k in 0..self.scratch.contacts.len() {
            let c = self.scratch.contacts[k];
            for i in contact_balls(&c) {
                if self.rec.hist[i].hit != s {
                    self.after_impact::<CLOTH>(b, i, s, t0);
                }
            }
            match c {
                Contact::Pair(i, j) => {
                    add_partner(&mut self.rec.hist[i as usize], j);
                    add_partner(&mut self.rec.hist[j as usize], i);
                }
                // Landed for good, still resting, or lifted off.
                // (A ball resting on a face inside the table had its walls judged with
                // its faces, in `resolve_piece_hits`.)
                Contact::Wall(i, _) if self.rec.hist[i as usize].rest & HELD != 0 => {}
                Contact::Wall(i, w) => {
                    if settle(
                        b,
                        &mut self.rec.hist[i as usize].rest,
                        i as usize,
                        w,
                        self.laws.gravity,
                        self.laws.tc,
                    ) {
                        self.quartic.push(i);
                    }
                }
                // The event model meets its walls inside the table apart from the
                // cluster solver (`Inner::hit`); none is listed here.
                Contact::Piece(..) => {}
            }
        }

        for k in 0..self.scratch.involved.len() {
            let i = self.scratch.involved[k] as usize;
            if self.rec.hist[i].hit == s {
                self.predict(b, i, t0, true);
            }
        }
        // An event that fell out (a grazing touch) leaves its balls' courses unchanged,
        // but it was its owner's earliest contact: the owner looks again.
        for k in 0..self.scratch.group_events.len() {
            let e = self.scratch.group_events[k];
            let i = e.i as usize;
            if self.rec.hist[i].hit != s && self.queue.contact(i).t == f64::INFINITY {
                self.predict(b, i, t0, false);
                if CLOTH && e.kind() == Kind::Wall(PIECE) {
                    // Held at a cushion by round-off (`on_cloth.rs`).
                    self.unstick_on_cloth(b, i, s, t0);
                }
            }
        }
    }

    /// The impacts with walls inside the table of the balls in `piece_hits`, after the
    /// group's other contacts (see `inner.rs`): each ball's contacts with the pieces at
    /// this instant, resolved together. A ball that took an impulse gets its
    /// bookkeeping here (once per group).
    fn resolve_piece_hits<const CLOTH: bool>(&mut self, b: &mut Balls, s: u32, t0: f64) {
        self.scratch.piece_hits.sort_unstable();
        self.scratch.piece_hits.dedup();
        for k in 0..self.scratch.piece_hits.len() {
            let i = self.scratch.piece_hits[k] as usize;
            if CLOTH {
                self.piece_hit_on_cloth(b, i, s, t0);
                continue;
            }
            let burst = self.guard.collapse_guard && self.burst_after(i, t0) >= TC_BURST;
            let e = burst.then_some(1.0);
            let c = self.cells.cell_of(i);
            let Some(inner) = self.inner.as_deref_mut() else {
                return;
            };
            let v0 = [b.vx[i], b.vy[i]];
            let hits = inner.hit(b, i, c, t0, e, self.laws.restitution, &self.laws.friction);
            if let Some(log) = self.log.as_mut().filter(|_| hits > 0) {
                // One contact: its impulse is the ball's change of normal momentum;
                // several solved together share that change in a way the log does
                // not split, so their rows carry no impulse.
                let lone = inner.last_touches().count() == 1;
                let (t, id) = (t0 - self.clock.step_start, ball_id(&self.layout.order, i));
                for (wall, n, u) in inner.last_touches() {
                    let dv = (b.vx[i] - v0[0]) * n[0] + (b.vy[i] - v0[1]) * n[1];
                    let impulse = if lone { dv / b.inv_m[i] } else { f64::NAN };
                    log.push(LoggedEvent::wall(t, id, wall, impulse, u));
                }
            }
            if hits > 0 {
                self.tally.collisions += hits;
                if self.rec.hist[i].hit != s {
                    self.after_impact::<CLOTH>(b, i, s, t0);
                }
            }
            if self.laws.gravity != [0.0, 0.0] {
                self.settle_on_faces::<CLOTH>(b, i, s, t0);
            }
        }
    }

    /// [`Event::resolve_group`] for a group of one collision of two balls resting on
    /// no wall, by far the most common: the same steps in the same order, so the same
    /// results to the bit, without the lists and loops a group of several needs.
    #[inline(always)]
    fn resolve_lone_pair<const CLOTH: bool>(&mut self, b: &mut Balls, i: usize, j: usize, t0: f64) {
        let s = self.next_serial();
        self.rec.hist[i].mark = s;
        self.rec.hist[j].mark = s;
        // Each step written out for both balls: looped over a pair, the steps were
        // not unrolled and the loop cost more than the work.
        self.bring_to_impact::<CLOTH>(b, i, t0);
        self.bring_to_impact::<CLOTH>(b, j, t0);
        if approaching_pair(b, &self.laws.table, i, j) || (CLOTH && self.pressed_touch(b, i, j)) {
            let (lo, hi) = if i < j { (i, j) } else { (j, i) };
            self.resolve_one::<CLOTH>(b, Contact::Pair(lo as u32, hi as u32), t0);
            self.after_impact::<CLOTH>(b, lo, s, t0);
            self.after_impact::<CLOTH>(b, hi, s, t0);
            add_partner(&mut self.rec.hist[lo], hi as u32);
            add_partner(&mut self.rec.hist[hi], lo as u32);
            self.predict_pair(b, i, j, t0);
        } else if self.queue.contact(i).t == f64::INFINITY {
            // A grazing touch that fell out: the owner looks again.
            self.predict(b, i, t0, false);
        }
    }

    /// Brings ball `k` to the impact at `t0`. A ball not yet changed in this interval
    /// is still at or before its start: it is first remembered as it is, for a failed
    /// step to put back. (A ball changed at the very start is remembered twice; the
    /// first record wins.)
    #[inline(always)]
    fn bring_to_impact<const CLOTH: bool>(&mut self, b: &mut Balls, k: usize, t0: f64) {
        if self.rec.t[k] <= self.clock.step_start {
            self.remember_as::<CLOTH>(b, k);
        }
        self.advance_as::<CLOTH>(b, k, t0);
    }

    /// The bookkeeping of ball `k` after the impact of group `s` at `t0`, as
    /// [`Event::resolve_group`] does it for each ball of an impact: its speed, its
    /// burst, its counter, and no partners yet.
    #[inline(always)]
    pub(super) fn after_impact<const CLOTH: bool>(&mut self, b: &Balls, k: usize, s: u32, t0: f64) {
        self.clock.v2_max = self.clock.v2_max.max(b.vx[k] * b.vx[k] + b.vy[k] * b.vy[k]);
        let quick = self.burst_after(k, t0);
        let h = &mut self.rec.hist[k];
        h.hit = s;
        h.quick = quick;
        h.t_last = t0;
        h.group = s;
        h.n_partners = 0;
        self.rec.counter[k] = self.rec.counter[k].wrapping_add(1);
        if CLOTH {
            self.rephase(b, k, t0);
        }
    }

    /// The restitution of one cluster's impact: elastic when the collapse guard finds a
    /// free ball in it colliding in a burst (the TC rule), else the scene's.
    fn cluster_restitution(&self, b: &Balls, contacts: &[Contact], t0: f64) -> f64 {
        let burst = contacts.iter().any(|c| {
            contact_balls(c).any(|i| b.inv_m[i] != 0.0 && self.burst_after(i, t0) >= TC_BURST)
        });
        if burst && self.guard.collapse_guard {
            1.0
        } else {
            self.laws.restitution
        }
    }

    /// Resolves the single contact of a group (if any) as a cluster of its own.
    pub(super) fn resolve_clusters_of_one<const CLOTH: bool>(&mut self, b: &mut Balls, t0: f64) {
        if let Some(&c) = self.scratch.contacts.first() {
            self.resolve_one::<CLOTH>(b, c, t0);
        }
    }

    /// Resolves contact `c` as a cluster of its own, with its restitution.
    #[inline(always)]
    fn resolve_one<const CLOTH: bool>(&mut self, b: &mut Balls, c: Contact, t0: f64) {
        if CLOTH && self.soft_pair(b, c, t0) {
            // On cloth, an impact so slow that it stands for a contact's force
            // (`soft.rs`).
            return;
        }
        let e = self.cluster_restitution(b, std::slice::from_ref(&c), t0);
        if self.log.is_some() {
            self.resolve_one_logged(b, c, e, t0);
            return;
        }
        if self.laws.table.is_sheared() {
            self.resolve_sliding(b, std::slice::from_ref(&c), e, CLOTH);
            return;
        }
        self.tally.collisions += resolve_cluster(
            b,
            &self.laws.table,
            std::slice::from_ref(&c),
            e,
            &self.laws.friction,
            CLOTH,
            &mut self.solver,
            &mut self.tally.pair_virial,
        );
    }

    /// [`Event::resolve_one`] with the event log kept: the same resolution, and a row
    /// with the contact's normal impulse (the change of normal momentum of a dynamic
    /// ball in it) and its approach speed.
    #[inline(never)]
    fn resolve_one_logged(&mut self, b: &mut Balls, c: Contact, e: f64, t0: f64) {
        let u = approach_speed(b, &self.laws.table, c, &[]);
        let (k, n) = match c {
            Contact::Pair(i, j) => {
                let (iu, ju) = (i as usize, j as usize);
                let (dx, dy) = self
                    .laws
                    .table
                    .min_image(b.x[ju] - b.x[iu], b.y[ju] - b.y[iu]);
                let d = dx.hypot(dy);
                // Ball i is pushed along -n (n from i to j); a kinematic i: j along n.
                if b.inv_m[iu] != 0.0 {
                    (iu, [-dx / d, -dy / d])
                } else {
                    (ju, [dx / d, dy / d])
                }
            }
            Contact::Wall(i, w) => (i as usize, w.normal()),
            Contact::Piece(i, _) => (i as usize, [0.0, 0.0]),
        };
        let v0 = [b.vx[k], b.vy[k]];
        let before = self.tally.collisions;
        let cloth = self.cloth.is_some();
        self.resolve_sliding(b, std::slice::from_ref(&c), e, cloth);
        let hits = self.tally.collisions - before;
        if hits > 0 {
            let dv = (b.vx[k] - v0[0]) * n[0] + (b.vy[k] - v0[1]) * n[1];
            let c = self.identified(c);
            let row = contact_row(t0 - self.clock.step_start, c, &[], dv / b.inv_m[k], u);
            if let Some(log) = self.log.as_mut() {
                log.push(row);
            }
        }
    }

    /// [`resolve_cluster`] on `contacts` with restitution `e`, in the frame common to
    /// the cluster across a sheared box's sliding edge (`sliding.rs`; outside one, as
    /// it is), counting the contacts that took an impulse.
    fn resolve_sliding(&mut self, b: &mut Balls, contacts: &[Contact], e: f64, cloth: bool) {
        self.in_common_frame(b, contacts, |s, b, cs| {
            s.tally.collisions += resolve_cluster(
                b,
                &s.laws.table,
                cs,
                e,
                &s.laws.friction,
                cloth,
                &mut s.solver,
                &mut s.tally.pair_virial,
            );
        });
    }

    /// [`stop_approach`] in a sheared box: the approach judged with the images'
    /// velocities, the projection made in the cluster's common frame.
    fn stop_sliding_approach(&mut self, b: &mut Balls, contacts: &[Contact]) {
        let table = self.laws.table;
        let approaching = contacts.iter().any(|c| match *c {
            Contact::Pair(i, j) => approaching_pair(b, &table, i as usize, j as usize),
            Contact::Wall(..) | Contact::Piece(..) => false,
        });
        if approaching {
            self.in_common_frame(b, contacts, |s, b, cs| {
                s.solver.set_table(&table);
                s.solver.solve_all_active(b, cs, 0.0, None);
            });
        }
    }

    /// Contact `c` with the balls under their own indices (the model may work on them
    /// in a layout of its own, see `renumber.rs`).
    fn identified(&self, c: Contact) -> Contact {
        let id = |i: u32| ball_id(&self.layout.order, i as usize);
        match c {
            Contact::Pair(i, j) => {
                let (a, z) = (id(i), id(j));
                Contact::Pair(a.min(z), a.max(z))
            }
            Contact::Wall(i, w) => Contact::Wall(id(i), w),
            Contact::Piece(i, k) => Contact::Piece(id(i), k),
        }
    }

    /// Clusters the group's contacts through shared balls and resolves each cluster
    /// as one simultaneous impact.
    pub(super) fn resolve_clusters(&mut self, b: &mut Balls, t0: f64) {
        // Clusters of contacts connected through shared balls (walls do not connect):
        // each is one simultaneous impact with its own restitution.
        // Each involved ball's place in `involved`, looked up by bisection in a sorted
        // scratch list (a group has a few balls; no array per ball is needed for it).
        self.scratch.by_ball.clear();
        self.scratch.by_ball.extend(
            self.scratch
                .involved
                .iter()
                .enumerate()
                .map(|(k, &i)| (i, k as u32)),
        );
        self.scratch.by_ball.sort_unstable();
        self.scratch.cluster.clear();
        self.scratch
            .cluster
            .extend(0..self.scratch.involved.len() as u32);
        for c in &self.scratch.contacts {
            if let Contact::Pair(i, j) = *c {
                let (a, z) = (
                    slot_of(&self.scratch.by_ball, i),
                    slot_of(&self.scratch.by_ball, j),
                );
                let (ra, rz) = (
                    find(&mut self.scratch.cluster, a),
                    find(&mut self.scratch.cluster, z),
                );
                if ra != rz {
                    self.scratch.cluster[ra.max(rz) as usize] = ra.min(rz);
                }
            }
        }
        for k in 0..self.scratch.cluster.len() as u32 {
            let root = find(&mut self.scratch.cluster, k);
            self.scratch.cluster[k as usize] = root;
        }
        // Held apart while the clusters are resolved, which borrows the model.
        let (cluster, by_ball) = (
            std::mem::take(&mut self.scratch.cluster),
            std::mem::take(&mut self.scratch.by_ball),
        );
        let root_of = |c: &Contact| -> u32 {
            let i = match *c {
                Contact::Pair(i, _) | Contact::Wall(i, _) | Contact::Piece(i, _) => i,
            };
            cluster[slot_of(&by_ball, i) as usize]
        };
        if self.scratch.contacts.len() > 1 {
            self.scratch
                .contacts
                .sort_unstable_by_key(|c| (root_of(c), *c));
        }

        // Collapse guard, then resolution, cluster by cluster.
        let mut start = 0;
        while start < self.scratch.contacts.len() {
            let root = root_of(&self.scratch.contacts[start]);
            let mut end = start + 1;
            while end < self.scratch.contacts.len() && root_of(&self.scratch.contacts[end]) == root
            {
                end += 1;
            }
            let e = self.cluster_restitution(b, &self.scratch.contacts[start..end], t0);
            if self.log.is_some() && end - start == 1 {
                // A lone contact never reaches the solver: logged by its own path.
                self.resolve_one_logged(b, self.scratch.contacts[start], e, t0);
                if self.laws.table.is_sheared() {
                    let c = self.scratch.contacts[start];
                    self.stop_sliding_approach(b, std::slice::from_ref(&c));
                } else {
                    stop_approach(
                        b,
                        &self.laws.table,
                        &self.scratch.contacts[start..end],
                        &mut self.solver,
                    );
                }
                start = end;
                continue;
            }
            let approach: Vec<f64> = if self.log.is_some() {
                self.solver.start_log();
                (self.scratch.contacts[start..end].iter())
                    .map(|&c| approach_speed(b, &self.laws.table, c, self.solver.pieces()))
                    .collect()
            } else {
                Vec::new()
            };
            if self.laws.table.is_sheared() {
                // Across a sliding edge, in the cluster's common frame (`sliding.rs`).
                let contacts = std::mem::take(&mut self.scratch.contacts);
                let cloth = self.cloth.is_some();
                self.resolve_sliding(b, &contacts[start..end], e, cloth);
                self.stop_sliding_approach(b, &contacts[start..end]);
                self.scratch.contacts = contacts;
            } else {
                self.tally.collisions += resolve_cluster(
                    b,
                    &self.laws.table,
                    &self.scratch.contacts[start..end],
                    e,
                    &self.laws.friction,
                    self.cloth.is_some(),
                    &mut self.solver,
                    &mut self.tally.pair_virial,
                );
                stop_approach(
                    b,
                    &self.laws.table,
                    &self.scratch.contacts[start..end],
                    &mut self.solver,
                );
            }
            if self.log.is_some() {
                self.log_cluster(start, &approach, t0);
            }
            start = end;
        }
        (self.scratch.cluster, self.scratch.by_ball) = (cluster, by_ball);
    }

    /// The rows of the cluster of contacts from `start` just resolved (a lone contact
    /// of it by its change of momentum, several by the solver's impulses).
    #[cold]
    fn log_cluster(&mut self, start: usize, approach: &[f64], t0: f64) {
        let impulses = self.solver.take_log();
        let t = t0 - self.clock.step_start;
        for (k, &u) in approach.iter().enumerate() {
            let c = self.scratch.contacts[start + k];
            let lambda = impulses.get(k).copied().unwrap_or(0.0);
            if lambda > 0.0 {
                let row = contact_row(t, self.identified(c), self.solver.pieces(), lambda, u);
                if let Some(log) = self.log.as_mut() {
                    log.push(row);
                }
            }
        }
    }

    /// Length of ball `i`'s burst if it collides at `t0`.
    #[inline]
    pub(super) fn burst_after(&self, i: usize, t0: f64) -> u8 {
        if t0 - self.rec.hist[i].t_last < self.laws.tc {
            self.rec.hist[i].quick.saturating_add(1)
        } else {
            0
        }
    }
}

/// The contact solver settles a cluster in passes and stops once no contact approaches
/// faster than `APPROACH` (1e-10) of the cluster's largest speed: right for time steps,
/// but a pair of it left approaching more slowly is then skipped as just collided for as
/// long as neither ball has another event, and two balls that move on together (sliding
/// along the floor side by side after a perfectly inelastic impact) sink into each other
/// at that speed for ever. A pair still approaching after the solver gets the projection
/// the solver's own fallback uses: one perfectly inelastic solve over the cluster's
/// contacts, which removes the approach and leaves the separating contacts as they are.
pub(super) fn stop_approach(
    b: &mut Balls,
    table: &Table,
    contacts: &[Contact],
    solver: &mut ContactSolver,
) {
    let approaching = contacts.iter().any(|c| match *c {
        Contact::Pair(i, j) => approaching_pair(b, table, i as usize, j as usize),
        Contact::Wall(..) | Contact::Piece(..) => false,
    });
    if approaching {
        solver.set_table(table);
        solver.solve_all_active(b, contacts, 0.0, None);
    }
}

pub(super) fn find(parent: &mut [u32], mut a: u32) -> u32 {
    while parent[a as usize] != a {
        let p = parent[a as usize];
        parent[a as usize] = parent[p as usize];
        a = p;
    }
    a
}

pub(super) fn add_partner(h: &mut History, j: u32) {
    let k = h.n_partners;
    if k == PARTNERS_OVERFLOW {
        return;
    }
    if (k as usize) < MAX_PARTNERS {
        h.partners[k as usize] = j;
        h.n_partners = k + 1;
    } else {
        h.n_partners = PARTNERS_OVERFLOW;
    }
}

pub(super) fn contact_balls(c: &Contact) -> impl Iterator<Item = usize> {
    let (i, j) = match *c {
        Contact::Pair(i, j) => (i as usize, Some(j as usize)),
        Contact::Wall(i, _) | Contact::Piece(i, _) => (i as usize, None),
    };
    std::iter::once(i).chain(j)
}

/// The place in `involved` of involved ball `i`, from the sorted `(ball, place)` list.
#[inline]
fn slot_of(by_ball: &[(u32, u32)], i: u32) -> u32 {
    match by_ball.binary_search_by_key(&i, |e| e.0) {
        Ok(k) => by_ball[k].1,
        Err(_) => unreachable!("every ball of a contact is involved in its group"),
    }
}

/// The index of the model's ball `k` in the world's own order.
#[inline]
pub(super) fn ball_id(order: &[u32], k: usize) -> u32 {
    order.get(k).copied().unwrap_or(k as u32)
}
