//! People the parser never saw named. The parser copies names from the
//! text, but it spells from its vocabulary the names SARA builds from a
//! person without the text saying them: a home "maintained by Alice" is
//! `alice_s_house`. For a person of a name training never had there is no
//! such word, and the beams lose the home and the facts that hang on it.
//! So, before decoding, each unfamiliar person's name is replaced by a
//! name of SARA's cast that the case does not use, and the beams are
//! given the real names back: what entity anonymisation does in semantic
//! parsing, here one-for-one names.

use lexlog_data::english::is_function_word;

/// The maximal runs of `text`'s characters that are `inside`, with their
/// byte offsets.
fn spans(text: &str, inside: impl Fn(char) -> bool) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices().chain([(text.len(), ' ')]) {
        match (inside(c) && i < text.len(), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s, &text[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// `text` with `f` applied to each maximal run of letters, digits and `_`.
pub fn map_words(text: &str, mut f: impl FnMut(&str) -> String) -> String {
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for (at, w) in spans(text, |c| c.is_alphanumeric() || c == '_') {
        out.push_str(&text[last..at]);
        out.push_str(&f(w));
        last = at + w.len();
    }
    out.push_str(&text[last..]);
    out
}

/// `word` with each `_`-separated part that `names` maps (by its lowercase
/// form) replaced, keeping a capital: `alice_s_house`, `Alice`.
pub fn rename_word(word: &str, names: &[(String, String)]) -> String {
    let part = |p: &str| match names.iter().find(|(from, _)| from.eq_ignore_ascii_case(p)) {
        Some((_, to)) if p.starts_with(char::is_uppercase) => capitalised(to),
        Some((_, to)) => to.to_lowercase(),
        None => p.to_string(),
    };
    word.split('_').map(part).collect::<Vec<_>>().join("_")
}

fn capitalised(name: &str) -> String {
    let mut cs = name.chars();
    cs.next().map_or_else(String::new, |c| c.to_uppercase().chain(cs.flat_map(char::to_lowercase)).collect())
}

/// Capitalised words that name no person besides English function words
/// (a sentence starts with them): months and days, and the words of
/// citations and answers.
const NOT_PEOPLE: &[&str] = &[
    "yes", "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december", "jan", "feb",
    "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
    "sunday", "section", "sections", "entailment", "contradiction",
];

fn names_no_one(word: &str) -> bool {
    is_function_word(word) || NOT_PEOPLE.iter().any(|n| n.eq_ignore_ascii_case(word))
}

/// Words after which a capitalised word names a place or a thing, not a
/// person: "in Stanley", "the Canadian Government", "a Mexican citizen".
const BEFORE_NON_PEOPLE: &[&str] = &["in", "at", "the", "a", "an", "of"];

/// Words before which a capitalised word is an adjective of a country, not
/// a person: "American citizens", "a Canadian employer".
const AFTER_NON_PEOPLE: &[&str] = &["citizen", "citizens", "national", "nationals", "employer", "employers", "government", "company", "law"];

/// The words of `text` with their byte offsets.
fn words(text: &str) -> Vec<(usize, &str)> {
    spans(text, char::is_alphanumeric)
}

/// The names of `text` that look like a person's and are not `familiar`:
/// a capitalised word (then lower case) that is no function word, no part
/// of a run of capitalised words ("Johns Hopkins University", "Nando's
/// Chicken"), not after "in", "at" or an article, not a place's part
/// ("Stanley, Wisconsin, USA") and no country's adjective ("American
/// citizens"). In the order the text first gives them.
pub fn unfamiliar_people(text: &str, familiar: &[&str]) -> Vec<String> {
    let ws = words(text);
    let capital = |w: &str| w.starts_with(|c: char| c.is_uppercase()) && w.chars().skip(1).all(|c| c.is_lowercase()) && w.len() > 1;
    let any_capital = |w: &str| w.starts_with(|c: char| c.is_uppercase());
    let mut place = vec![false; ws.len()];
    let mut out: Vec<String> = Vec::new();
    let possessive_s = |j: usize| ws[j].1 == "s" && j > 0 && matches!(&text[ws[j - 1].0 + ws[j - 1].1.len()..ws[j].0], "'" | "\u{2019}");
    for (i, &(_, w)) in ws.iter().enumerate() {
        if possessive_s(i) {
            continue;
        }
        // The words either side, past a possessive's "s" ("Nando's Chicken").
        let prev_i = i.checked_sub(1).map(|j| if possessive_s(j) { j - 1 } else { j });
        let next_i = Some(i + 1).filter(|&j| j < ws.len()).map(|j| if possessive_s(j) && j + 1 < ws.len() { j + 1 } else { j });
        let gap = |a: usize, b: usize| &text[ws[a].0 + ws[a].1.len()..ws[b].0];
        let joined = |a: usize, b: usize| {
            let g = gap(a, b);
            g == " " || (b == a + 2 && gap(a + 1, b) == " ")
        };
        let gap_before = prev_i.map(|j| gap(j, i));
        let prev = prev_i.map(|j| ws[j].1);
        let next = next_i.map(|j| ws[j].1);
        let before_place = prev.is_some_and(|p| BEFORE_NON_PEOPLE.contains(&p.to_lowercase().as_str()));
        let after_place = prev_i.is_some_and(|j| place[j]) && gap_before == Some(", ");
        let demonym = next_i.is_some_and(|j| gap(i, j) == " " && AFTER_NON_PEOPLE.contains(&ws[j].1));
        if any_capital(w) && (before_place || after_place || demonym) {
            place[i] = true;
        }
        let in_run = (prev_i.is_some_and(|j| joined(j, i)) && prev.is_some_and(|p| any_capital(p) && !names_no_one(p)))
            || (next_i.is_some_and(|j| joined(i, j)) && next.is_some_and(any_capital));
        if !capital(w) || place[i] || in_run || names_no_one(w) || familiar.iter().any(|f| f.eq_ignore_ascii_case(w)) {
            continue;
        }
        if !out.iter().any(|o| o.eq_ignore_ascii_case(w)) {
            out.push(w.to_string());
        }
    }
    out
}

/// The unfamiliar people of a case, each with the familiar name that stands
/// in for it while the parser reads the case.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StandIns {
    /// (unfamiliar name, stand-in), both as the text spells them.
    pairs: Vec<(String, String)>,
}

impl StandIns {
    /// Stand-ins from `cast` (in its order) that the text does not use, for
    /// the unfamiliar people of `text`; those beyond the cast keep their
    /// names.
    pub fn for_text(text: &str, familiar: &[&str], cast: &[&str]) -> StandIns {
        let used: Vec<String> = words(text).iter().map(|(_, w)| w.to_lowercase()).collect();
        let free = cast.iter().filter(|c| !used.contains(&c.to_lowercase()));
        StandIns { pairs: unfamiliar_people(text, familiar).into_iter().zip(free).map(|(n, c)| (n, c.to_string())).collect() }
    }

    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// The text as the parser reads it.
    pub fn hide(&self, text: &str) -> String {
        map_words(text, |w| rename_word(w, &self.pairs))
    }

    /// A beam's linear form with the real names back.
    pub fn restore(&self, linear: &str) -> String {
        let back: Vec<(String, String)> = self.pairs.iter().map(|(n, c)| (c.clone(), n.clone())).collect();
        map_words(linear, |w| rename_word(w, &back))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FAMILIAR: [&str; 3] = ["Alice", "Bob", "Charlie"];

    #[test]
    fn new_names_are_people_and_places_and_institutions_are_not() {
        let text = "Nadia and Kofi got married. No other taxpayer is Nadia's. Lars was paid by the Walter Brown Family Trust II in Stanley, \
                    Wisconsin, USA, and by Nando's Chicken. Kofi is a Mexican citizen. Nadia and Kofi are both American citizens. In 2019, Bob paid Lars $500 on Feb 2nd, 2019.";
        assert_eq!(unfamiliar_people(text, &FAMILIAR), ["Nadia", "Kofi", "Lars"]);
    }

    #[test]
    fn a_list_of_people_is_people() {
        assert_eq!(unfamiliar_people("wages of $1, $2 to Mei, Ravi and Sofia respectively", &FAMILIAR), ["Mei", "Ravi", "Sofia"]);
    }

    #[test]
    fn stand_ins_hide_and_restore_names_and_their_compounds() {
        let s = StandIns::for_text("Nadia and Bob married. A home maintained by Nadia.", &FAMILIAR, &["Alice", "Bob", "Charlie"]);
        assert_eq!(s.hide("Nadia's home, maintained by Nadia and Bob"), "Alice's home, maintained by Alice and Bob");
        assert_eq!(s.restore("payment e1 agent=alice purpose=alice_s_house\nmarriage e2 agent=alice agent=bob"), "payment e1 agent=nadia purpose=nadia_s_house\nmarriage e2 agent=nadia agent=bob");
    }

    #[test]
    fn a_case_of_familiar_names_is_left_alone() {
        assert!(StandIns::for_text("Alice and Bob got married in Baltimore, Maryland.", &FAMILIAR, &["Alice", "Bob", "Charlie", "Dan"]).is_empty());
    }
}
