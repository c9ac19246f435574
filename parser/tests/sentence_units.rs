//! Sentence units lose little: joining the gold facts of each sentence
//! (as `units` aligns them) gives back the gold IR for nearly every case.

use lexlog_data::{linear, Dataset};
use lexlog_parser::eval::compare;
use lexlog_parser::example::Example;
use lexlog_parser::sentences::{join, units};
use lexlog_parser::target::render;

#[test]
fn joined_gold_units_give_back_the_gold_ir() {
    let data = Dataset::load_default().unwrap_or_else(|e| panic!("{e}"));
    let (mut exact, mut facts_lost) = (0, Vec::new());
    for case in &data.cases {
        let u = units(&[Example::from_case(case)]);
        let (query, facts) = u.split_last().expect("a query unit");
        let texts: Vec<String> = facts.iter().map(|e| render(&e.target)).collect();
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let text = join(&refs, &render(&query.target), None).unwrap_or_else(|| panic!("{}: a reference to an earlier event does not resolve", case.id));
        let joined = linear::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", case.id));
        let c = compare(&joined, &linear::canonical_ids(&case.ir));
        if c.exact {
            exact += 1;
        } else {
            facts_lost.push(format!("{}: -{} +{} query {}", case.id, c.false_negatives, c.false_positives, c.query_correct));
        }
    }
    eprintln!("{exact}/376 exact; not: {}", facts_lost.join(", "));
    assert!(exact >= 360, "{exact}/376 exact; not: {}", facts_lost.join("\n"));
}
