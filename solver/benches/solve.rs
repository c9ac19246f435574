//! Solver speed on the 376 gold cases: the whole suite in parallel (rayon)
//! and on one thread, and single cases (the median one and the slowest).
//! Run: `cargo bench -p lexlog-solver --bench solve`.

use criterion::{criterion_group, criterion_main, Criterion};
use lexlog_data::Dataset;
use lexlog_solver::Solver;
use rayon::prelude::*;
use std::time::Duration;

fn bench(c: &mut Criterion) {
    let data = Dataset::load_default().expect("SARA (set SARA_DIR)");
    let solver = Solver::new().expect("rules compile");
    let mut g = c.benchmark_group("sara");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    g.bench_function("suite_376_parallel", |b| {
        b.iter(|| data.cases.par_iter().map(|k| solver.solve(&k.id, &k.ir).is_ok() as usize).sum::<usize>())
    });
    g.bench_function("suite_376_one_thread", |b| {
        b.iter(|| data.cases.iter().map(|k| solver.solve(&k.id, &k.ir).is_ok() as usize).sum::<usize>())
    });
    for id in ["s151_a_pos", "tax_case_1", "tax_case_33"] {
        let case = data.case(id).expect("case");
        g.bench_function(id, |b| b.iter(|| solver.solve(&case.id, &case.ir).unwrap()));
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
