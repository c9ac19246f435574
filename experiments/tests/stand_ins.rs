//! Stand-in names (`lexlog_bridge::names`) change nothing in SARA's own
//! cases, whose people the parser knows, and take every new name of a
//! case in which SARA's people are renamed.

use lexlog_bridge::names::StandIns;
use lexlog_parser::people::{CAST, RENAMES};

fn familiar() -> Vec<&'static str> {
    CAST.iter().chain(&RENAMES).copied().collect()
}

#[test]
fn no_word_of_sara_s_cases_is_taken_for_an_unfamiliar_person() {
    let data = lexlog_data::Dataset::load_default().unwrap_or_else(|e| panic!("{e}"));
    let taken: Vec<String> = data
        .cases
        .iter()
        .filter_map(|c| {
            let s = StandIns::for_text(&format!("{}\n{}", c.text, c.question), &familiar(), &CAST);
            (!s.is_empty()).then(|| format!("{}: {s:?}", c.id))
        })
        .collect();
    assert_eq!(data.cases.len(), 376);
    assert!(taken.is_empty(), "{}", taken.join("\n"));
}

#[test]
fn every_new_name_of_a_renamed_case_is_taken() {
    let data = lexlog_data::Dataset::load_default().unwrap_or_else(|e| panic!("{e}"));
    let new = ["Nadia", "Kofi", "Lars", "Mei", "Jonas", "Elif", "Tomas", "Ines", "Ravi", "Sofia"];
    let mut missed = Vec::new();
    for c in &data.cases {
        let text = format!("{}\n{}", c.text, c.question);
        let renamed = CAST.iter().zip(new).fold(text, |t, (old, n)| lexlog_bridge::names::map_words(&t, |w| if w == *old { n.to_string() } else { w.to_string() }));
        let people = lexlog_bridge::names::unfamiliar_people(&renamed, &familiar());
        let given: Vec<&str> = new.iter().copied().filter(|n| lexlog_bridge::names::map_words(&renamed, |w| w.to_string()).split(|c: char| !c.is_alphanumeric()).any(|w| w == *n)).collect();
        if given.iter().any(|n| !people.iter().any(|p| p == n)) || people.iter().any(|p| !given.contains(&p.as_str())) {
            missed.push(format!("{}: gives {given:?}, taken {people:?}", c.id));
        }
    }
    assert!(missed.is_empty(), "{} cases:\n{}", missed.len(), missed.join("\n"));
}
