//! Loads a scenario (a preset here; any TOML or JSON text the same way), applies an
//! override as `--set` would, runs it and reads its diagnostics.
//!
//! ```sh
//! cargo run -p carom --example load_scenario
//! ```

use carom::load::{self, Source};
use carom::overrides::Override;
use carom::run::Session;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let source = Source::preset("break").ok_or("no preset named break")?;
    let sets = [Override::parse("physics.model=simultaneous")?];
    // Errors are the command line's one line, e.g. "--set physics.dt=-1: physics.dt: ..."
    let loaded = load::build(&source, &sets)?;
    let mut session = Session::new(loaded);
    let start = session.world.diagnostics();
    // Steps with the same checkpoints as `carom run`: a failure leaves the last good state.
    session.advance(2000, 0, |_| {})?;
    let end = session.world.diagnostics();
    println!(
        "{}: {} balls, t = {}, {} collisions",
        session.world.name,
        session.world.balls().len(),
        session.world.time,
        session.collisions()
    );
    println!(
        "energy drift {:+.3e}, symmetry error {:?}",
        carom::energy_drift(&start, &end),
        end.symmetry_error
    );
    println!("{}", session.diagnostics());
    Ok(())
}
