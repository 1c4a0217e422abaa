//! The event model lays a scattered start out cell by cell while it runs (see
//! `models/event/renumber.rs`). Nothing outside may see it: the same run with and
//! without the new layout gives the same balls to the last bit, under their own
//! indices, through ordinary steps, friction rebuilds and a failed step.

use crate::common;

use carom::models::event::Event;
use carom::models::{CollisionModel, StepContext, StepError};
use carom::parse::{build_world, parse_scenario, Format};
use carom::{Balls, Physics, Table};
use common::assert_same_bits;

/// A gas from the generator (row by row), with extra table and physics lines.
fn gas(n: usize, fraction: f64, table: &str, physics: &str) -> (Table, Physics, Balls) {
    let text = format!(
        "name = \"renumber\"\n[table]\n{table}\n[physics]\nmodel = \"event\"\ndt = 0.5\n{physics}\n\
         [[generators]]\nkind = \"gas\"\nn = {n}\narea_fraction = {fraction}\nseed = 5\n"
    );
    let w = build_world(&parse_scenario(&text, Format::Toml).unwrap()).unwrap();
    (*w.table(), *w.physics(), w.balls().clone())
}

/// The balls in a fixed scrambled order (`k -> p k mod n`, `p` prime to `n`).
fn shuffled(mut b: Balls) -> Balls {
    let n = b.len();
    let p = (7919..).find(|p| gcd(*p, n) == 1).unwrap();
    let order: Vec<u32> = (0..n).map(|k| (p * k % n) as u32).collect();
    b.permute(&order);
    b
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

struct Run {
    balls: Balls,
    collisions: u64,
    renumbered: bool,
    error: Option<String>,
}

/// `steps` steps of the model driven directly, renumbering from `from` balls on,
/// the balls read (synchronised) every `read_every` steps and at the end.
fn run(
    scene: &(Table, Physics, Balls),
    from: usize,
    steps: usize,
    read_every: usize,
    budget: Option<u64>,
) -> Run {
    let (table, physics, balls) = scene;
    let mut balls = balls.clone();
    let mut model = Event::new(&balls, table, physics).unwrap();
    model.set_renumber_from(from);
    model.set_budget(budget);
    let mut renumbered = false;
    let mut error = None;
    for s in 1..=steps {
        let r = model.step_deferred(StepContext {
            balls: &mut balls,
            table,
            physics,
            pool: None,
            walls: &carom::walls::NO_WALLS,
            in_play: None,
        });
        renumbered |= model.is_renumbered();
        if let Err(e) = r {
            error = Some(match e {
                StepError::EventBudget(m)
                | StepError::Unstable(m)
                | StepError::Unsupported(m)
                | StepError::Unmodelled(m) => m,
                StepError::Unfit(_, m) => m,
            });
            model.synchronise(&mut balls);
            break;
        }
        if s % read_every == 0 || s == steps {
            model.synchronise(&mut balls);
            assert!(!model.is_renumbered(), "read in the model's layout");
        }
    }
    Run {
        balls,
        collisions: model.collisions(),
        renumbered,
        error,
    }
}

#[test]
fn a_scattered_start_is_renumbered_and_every_bit_is_the_same() {
    let scene = {
        let (t, p, b) = gas(3000, 0.3, "", "");
        (t, p, shuffled(b))
    };
    // Read every 5 steps: each read puts the balls back, each next step lays them out
    // again.
    let laid_out = run(&scene, 0, 20, 5, None);
    let as_given = run(&scene, usize::MAX, 20, 5, None);
    assert!(laid_out.renumbered);
    assert!(!as_given.renumbered);
    // A gas at unit speeds over ten time units: thousands of collisions, each of which
    // would carry any difference in rounding to every ball it reaches.
    assert!(as_given.collisions > 10_000, "{}", as_given.collisions);
    assert_eq!(laid_out.collisions, as_given.collisions);
    assert_same_bits("scattered start", &laid_out.balls, &as_given.balls);
}

#[test]
fn an_ordered_start_is_left_as_it_is() {
    let scene = gas(3000, 0.3, "", "");
    assert!(!run(&scene, 0, 2, 2, None).renumbered);
}

#[test]
fn friction_rebuilds_keep_every_ball_its_own() {
    // Friction on the velocities after every step (the model rebuilds, the layout is
    // undone and redone at every step, the collapse guard's memory moves with its
    // balls) and rough contacts that turn the balls, in a periodic box.
    let physics = "friction = { kind = \"linear\", mu = 0.05 }\n\
                   contact_friction = { mu = 0.4, tangential_restitution = 0.3 }\n\
                   restitution = 0.9";
    let (table, p, b) = gas(2000, 0.4, "boundary = \"periodic\"", physics);
    assert!(table.any_periodic());
    let scene = (table, p, shuffled(b));
    let laid_out = run(&scene, 0, 16, 4, None);
    let as_given = run(&scene, usize::MAX, 16, 4, None);
    assert!(laid_out.renumbered);
    // Friction slows the gas: still thousands of collisions.
    assert!(as_given.collisions > 1_000, "{}", as_given.collisions);
    assert_eq!(laid_out.collisions, as_given.collisions);
    assert_same_bits("friction rebuilds", &laid_out.balls, &as_given.balls);
}

#[test]
fn a_failed_step_puts_every_ball_back_under_its_own_index() {
    let scene = {
        let (t, p, b) = gas(3000, 0.3, "", "");
        (t, p, shuffled(b))
    };
    // A budget an interval cannot keep (half a time unit of 3,000 balls takes some
    // 3,000 events): the step fails and leaves the balls as they were at its start,
    // the ball most involved named by its own index in the message.
    let laid_out = run(&scene, 0, 3, 1, Some(1_500));
    let as_given = run(&scene, usize::MAX, 3, 1, Some(1_500));
    assert!(laid_out.renumbered);
    let message = as_given.error.expect("the budget is exceeded");
    assert_eq!(laid_out.error.as_deref(), Some(message.as_str()));
    assert!(message.contains(" balls: ball "), "{message}");
    assert_same_bits("failed step", &laid_out.balls, &as_given.balls);
}
