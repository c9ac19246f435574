//! The argument types inferred from the rules admit every gold query of
//! SARA: a decoder that keeps to them never rules out the right query.

use lexlog_data::{Dataset, Goal, Query, Term, Value};
use lexlog_solver::{ArgType, Solver};

fn fits(t: &Term, ty: ArgType) -> bool {
    let want = match t {
        Term::Value(Value::Name(_) | Value::Text(_) | Value::List(_)) => ArgType::NAME,
        Term::Value(Value::Date(_)) | Term::FirstDay(_) | Term::LastDay(_) => ArgType::DATE,
        // An integer fits a year or a number slot.
        Term::Value(Value::Int(_)) => return ty.contains(ArgType::YEAR) || ty.contains(ArgType::NUMBER),
        _ => return true,
    };
    ty.contains(want)
}

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
                if !fits(arg, *t) {
                    bad.push(format!("{}: {}({:?}) got {arg:?}", case.id, a.pred.as_str(), ty));
                }
            }
        }
    }
    assert!(checked > 500, "{checked}");
    assert!(bad.is_empty(), "{} misfits:\n{}", bad.len(), bad.join("\n"));
}
