//! The argument types inferred from the rules admit every gold query of
//! SARA: a decoder that keeps to them never rules out the right query.

use lexlog_data::{Dataset, Goal, Query};
use lexlog_solver::Solver;

#[test]
fn every_gold_query_fits_the_inferred_argument_types() {
    let data = Dataset::load_default().unwrap_or_else(|e| panic!("{e}"));
    let solver = Solver::new().unwrap();
    let types = solver.argument_types();
    let (mut checked, mut bad) = (0, Vec::new());
    for case in &data.cases {
        let Some(Query::Holds { goals }) = &case.ir.query else { continue };
        for g in goals {
            let Goal::Holds(a) = g else { continue };
            let Some(ty) = types.get(&(a.pred.as_str().to_string(), a.args.len())) else {
                bad.push(format!("{}: {} has no signature", case.id, a.pred.as_str()));
                continue;
            };
            for (arg, t) in a.args.iter().zip(ty) {
                checked += 1;
                if !t.admits(arg) {
                    bad.push(format!("{}: {}({:?}) got {arg:?}", case.id, a.pred.as_str(), ty));
                }
            }
        }
    }
    assert!(checked > 500, "{checked}");
    assert!(bad.is_empty(), "{} misfits:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn the_rules_document_the_places_of_the_query_predicates() {
    let solver = Solver::new().unwrap();
    let places = solver.query_place_names();
    assert_eq!(places["s152_a"], ["dependent", "taxpayer", "year", "basis", "unused"]);
    assert_eq!(places["s3306_b"].len(), 11, "`Unused x4` is four places: {:?}", places["s3306_b"]);
    // Kept only where the count is one of the predicate's arities.
    let signatures = solver.query_signatures();
    for (name, p) in &places {
        assert!(signatures[name].iter().any(|s| s.len() == p.len()), "{name}: {p:?}");
    }
    assert!(places.len() >= 100, "{} documented", places.len());
}
