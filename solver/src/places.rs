//! What each place of a section's predicate holds, as the rules document
//! it: the comment `% s152_a(Dependent, Taxpayer, Year, Basis, Unused)`
//! above its rules. The parser may read them as a schema of the query.

use std::collections::HashMap;

/// The places documented in rule sources, by predicate name, lowercased
/// (`Unused x4` stands for four places); the first comment of a name
/// counts.
pub fn documented(sources: &[&str]) -> HashMap<String, Vec<String>> {
    let mut out = HashMap::new();
    for line in sources.iter().flat_map(|s| s.lines()) {
        if let Some((name, places)) = place_comment(line) {
            out.entry(name).or_insert(places);
        }
    }
    out
}

/// `% s1_d(Taxpayer, Spouse, Year, Taxable income, Tax)` -> `s1_d` and its
/// places; `None` for any other line.
fn place_comment(line: &str) -> Option<(String, Vec<String>)> {
    let rest = line.strip_prefix("% ")?;
    let (name, rest) = rest.split_once('(')?;
    lexlog_data::SectionId::parse(name)?;
    let (inner, _) = rest.split_once(')')?;
    let mut places = Vec::new();
    for place in inner.split(',').map(str::trim) {
        let (what, times) = match place.rsplit_once(" x") {
            Some((what, n)) if n.parse::<usize>().is_ok() => (what, n.parse().unwrap_or(1)),
            _ => (place, 1),
        };
        if what.is_empty() {
            return None;
        }
        places.extend(std::iter::repeat_n(what.to_lowercase(), times));
    }
    Some((name.to_string(), places))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_place_comment_and_nothing_else() {
        let src = "% s152_a(Dependent, Taxpayer, Year, Basis, Unused)\ns152_a(D, T, Y, B, _) :- x(D).\n% s3306_b(Wages, Unused x2, Employer)\n% Taxpayer is entitled (under s151) to it.\n% s1_d(Tax): a later comment\n% s1_d(Other)\n";
        let places = documented(&[src]);
        assert_eq!(places["s152_a"], ["dependent", "taxpayer", "year", "basis", "unused"]);
        assert_eq!(places["s3306_b"], ["wages", "unused", "unused", "employer"]);
        assert_eq!(places["s1_d"], ["tax"], "the first comment of a name counts");
        assert_eq!(places.len(), 3, "prose is no place comment: {places:?}");
    }
}
