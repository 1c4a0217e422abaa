//! Runs one input through a target's body, as the fuzzer would, so that a finding can
//! be read on stable: `cargo run -p carom-fuzz-harness --example replay_one -- TARGET FILE`.
fn main() {
    let mut args = std::env::args().skip(1);
    let (target, path) = match (args.next(), args.next()) {
        (Some(t), Some(p)) => (t, p),
        _ => panic!("usage: replay_one TARGET FILE"),
    };
    let data = std::fs::read(&path).expect("readable file");
    let body: fn(&[u8]) = match target.as_str() {
        "scenario_toml" => carom_fuzz_harness::scenario_toml,
        "scenario_json" => carom_fuzz_harness::scenario_json,
        "state_file" => carom_fuzz_harness::state_file,
        "set_override" => carom_fuzz_harness::set_override,
        "short_run" => carom_fuzz_harness::short_run,
        "short_run_cloth" => carom_fuzz_harness::short_run_cloth,
        other => panic!("unknown target {other}"),
    };
    body(&data);
    println!("{path}: ok");
}
