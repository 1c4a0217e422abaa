//! The `shear` preset's steady velocity profile: runs the preset for its duration and
//! averages every free grain's x velocity over the second half, sampled every 500 steps, in
//! bins one mean diameter (1.1) high measured up from the fixed bottom plate (y = 50).
//! Prints `height mean_vx/U samples` per bin, with U = 1 the top plate's speed, and the
//! lid's mean height; `bench/shear_profile.py` plots it:
//!
//!     cargo run --release -p carom --example shear_profile > shear.txt
//!     python3 bench/shear_profile.py shear.txt docs/shear.png

use carom::parse::build_world;

fn main() {
    let s = carom::presets::find("shear").unwrap().scenario().unwrap();
    let mut w = build_world(&s).unwrap();
    let dt = w.physics().dt;
    let total = (s.duration / dt).round() as u64;
    let every = 500;
    let (bottom, bin) = (50.0, 1.1);
    let mut sums = vec![0.0f64; 40];
    let mut counts = vec![0u64; 40];
    let (mut lid, mut lids) = (0.0, 0);
    let mut done = 0;
    while done < total {
        w.run_steps(every).unwrap();
        done += every;
        if done * 2 < total {
            continue;
        }
        lid += 20.0 + w.walls().motion(0).unwrap().offset[1];
        lids += 1;
        let b = w.balls();
        // The lid's glued grains (kinematic) ride on it; the grains are the rest.
        for i in (0..b.len()).filter(|&i| b.inv_m[i] != 0.0) {
            let k = ((bottom - b.y[i]) / bin).floor();
            if (0.0..40.0).contains(&k) {
                sums[k as usize] += b.vx[i];
                counts[k as usize] += 1;
            }
        }
    }
    println!(
        "# lid at y = {:.3} on average (gap {:.3})",
        lid / lids as f64,
        bottom - lid / lids as f64
    );
    for k in 0..sums.len() {
        if counts[k] > 0 {
            println!(
                "{:.3} {:.5} {}",
                (k as f64 + 0.5) * bin,
                sums[k] / counts[k] as f64,
                counts[k]
            );
        }
    }
}
