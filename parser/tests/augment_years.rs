//! Moving years in the renamed copies stays faithful on SARA's train split:
//! every value a case's target copies from its text is still copied from
//! the copy's text, and the copy's target still reads back as an IR.

use lexlog_data::{linear, Dataset, Split, Value};
use lexlog_parser::augment::{augment, Moves};
use lexlog_parser::example::Example;
use lexlog_parser::target::{render, Token};

fn copied(e: &Example) -> usize {
    e.target.iter().filter(|t| matches!(t, Token::Value(v) if e.mentions.iter().any(|m| &m.value == v))).count()
}

fn years_of(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_digit()).filter(|w| w.len() == 4).map(str::to_string).collect()
}

#[test]
fn moved_years_keep_every_copy() {
    let data = Dataset::load_default().unwrap_or_else(|e| panic!("{e}"));
    let (mut cases, mut moved) = (0, 0);
    for case in data.cases_in(Some(Split::Train)) {
        let original = Example::from_case(case);
        let copies = augment(vec![original.clone()], 3, Moves { years: true, percentages: true });
        assert_eq!(copies.len(), 3, "{}", case.id);
        cases += 1;
        for copy in &copies[..2] {
            assert_eq!(copied(copy), copied(&original), "{}: a value no longer copied from\n{}\n{}", case.id, copy.source, render(&copy.target));
            linear::parse(&render(&copy.target)).unwrap_or_else(|e| panic!("{}: {e}", case.id));
            let dates_moved = copy.target.iter().zip(&original.target).any(|(a, b)| matches!((a, b), (Token::Value(Value::Date(x)), Token::Value(Value::Date(y))) if x != y));
            if years_of(&copy.source) != years_of(&original.source) {
                moved += 1;
            } else {
                assert!(!dates_moved, "{}: dates moved, the text's years not", case.id);
            }
        }
    }
    // Most cases give years; those that also give a year-like amount, or
    // whose facts hold a year the text does not, keep theirs.
    eprintln!("{moved} of {} copies moved their years", 2 * cases);
    assert!(moved * 10 >= 2 * cases * 8, "{moved} of {} copies moved their years", 2 * cases);
}
