//! A short run of the fuzzer (dames_fuzz; the long one is `dames fuzz`, its figures in
//! docs/security.md): every target gets inputs, none panics, every answer is a typed error. Its
//! own test binary: the run replaces the process's panic hook while it lasts.
//!
//! `DAMES_FUZZ_SEED` and `DAMES_FUZZ_INPUTS` run other inputs.

use dames_fuzz::{run, Options, TARGETS};

#[test]
fn every_network_parser_survives_generated_and_mutated_inputs() {
    let env = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let options = Options {
        inputs: env("DAMES_FUZZ_INPUTS", 40_000),
        seed: env("DAMES_FUZZ_SEED", 20_261_201),
        only: None,
    };
    let report = run(&options, |_| {});
    println!("seed {}\n{report}", options.seed);
    assert_eq!(report.inputs(), options.inputs);
    assert_eq!(report.targets.len(), TARGETS.len());
    for target in &report.targets {
        assert!(target.inputs > 0, "{} got no input", target.name);
    }
    assert!(report.clean(), "{report}");
}
