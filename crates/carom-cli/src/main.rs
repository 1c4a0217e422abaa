fn main() {
    let preset = carom::presets::find("break").expect("break preset");
    let scenario = preset.scenario().expect("preset parses");
    let mut world = carom::parse::build_world(&scenario).expect("preset builds");
    let start = world.diagnostics();
    world.run_steps(4000).expect("runs");
    let end = world.diagnostics();
    println!("{:?}\n{:?}", start, end);
}
