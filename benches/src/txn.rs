//! `make bench`, transactions model: model steps per second, natively, on the same
//! generated script the wasm pass (benches/txn.bench.mjs) runs. Snapshots off (the
//! timeline's per-step state is a view concern), invariants checked after the last step;
//! once without tracing (decisions, states and invariants only) and once with every
//! message and narration built (what a view gets). Prints one JSON line: {"steps",
//! "seconds", "stepsPerSecond", "tracedSeconds", "tracedStepsPerSecond", "reps"}.
//!
//! A third argument `quiet` or `traced` runs only that pass and prints {"steps", "mode"}:
//! for instruction counts (`valgrind --tool=callgrind --toggle-collect=*run_with*
//! eoslab-bench-txn 500 1 quiet`), which are deterministic where wall time is not. `script`
//! only builds the script (the baseline benches/wasm-ratio.sh subtracts: what is left of a
//! `quiet` pass is the parse and the run, as in the wasm pass it is compared with).

use std::time::Instant;

use eoslab_core::model::txn_scenario::{parse, run_with};

/// The script both passes run: `cycles` transactions over two partitions, each with its
/// markers and a read_committed poll (6 steps a cycle).
pub fn script(cycles: usize) -> String {
    let mut s = String::from("model transactions\npartition p-0 p-1\nproducer a transactional.id=bench\nconsumer rc read_committed p-0 p-1\ninit a\n");
    for k in 0..cycles {
        s.push_str(&format!("begin a\nsend a p-0 v{k}\nsend a p-1 w{k}\ncommit a\ndeliver markers\npoll rc\n"));
    }
    s
}

fn main() {
    let cycles: usize = std::env::args().nth(1).and_then(|v| v.parse().ok()).unwrap_or(2_500);
    let reps: usize = std::env::args().nth(2).and_then(|v| v.parse().ok()).unwrap_or(5);
    let only = std::env::args().nth(3);
    let text = script(cycles);
    if only.as_deref() == Some("script") {
        println!("{{\"steps\":0,\"mode\":\"script\",\"bytes\":{}}}", text.len());
        return;
    }
    let sc = parse(&text).expect("bench script parses");
    let measure = |trace: bool| {
        let mut best = f64::INFINITY;
        let mut steps = 0;
        for _ in 0..reps {
            let t = Instant::now();
            let r = run_with(&sc, None, false, trace);
            let dt = t.elapsed().as_secs_f64();
            assert!(r.passed(), "bench script runs cleanly");
            assert!(r.steps.last().unwrap().invariants.iter().all(|i| i.1));
            steps = r.steps.len();
            best = best.min(dt);
        }
        (steps, best)
    };
    if let Some(mode) = only {
        let (steps, _) = measure(match mode.as_str() {
            "quiet" => false,
            "traced" => true,
            other => panic!("unknown mode {other:?} (quiet, traced)"),
        });
        println!("{{\"steps\":{steps},\"mode\":\"{mode}\"}}");
        return;
    }
    let (steps, quiet) = measure(false);
    let (_, traced) = measure(true);
    println!(
        "{{\"steps\":{steps},\"seconds\":{quiet:.6},\"stepsPerSecond\":{:.0},\"tracedSeconds\":{traced:.6},\"tracedStepsPerSecond\":{:.0},\"reps\":{reps}}}",
        steps as f64 / quiet,
        steps as f64 / traced
    );
}
