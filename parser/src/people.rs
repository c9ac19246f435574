//! People's first names: those SARA's cases give, and those the
//! augmentation renames them to. A name the decoder spells from its
//! vocabulary (`dan_s_house`) names only people the case mentions.

/// The people of SARA's cases, as its texts spell them.
pub const CAST: [&str; 10] = ["Alice", "Bob", "Charlie", "Dan", "Dorothy", "Emily", "Fred", "George", "Cameron", "Harold"];

/// The names the augmentation gives SARA's people instead.
pub const RENAMES: [&str; 16] = [
    "Ursula", "Victor", "Wendy", "Xavier", "Yolanda", "Zeke", "Maria", "Omar", "Priya", "Quentin", "Rosa", "Sven", "Tara", "Ivan", "Hana", "Gil",
];

/// Whether `word` (in any case) is one of these first names.
pub fn is_first_name(word: &str) -> bool {
    CAST.iter().chain(&RENAMES).any(|n| n.eq_ignore_ascii_case(word))
}

/// Words by which a sentence speaks of people it does not name ("She
/// gets one exemption", "their son", "with her spouse").
const REFERRING: [&str; 16] =
    ["she", "he", "her", "hers", "herself", "his", "him", "himself", "they", "them", "their", "theirs", "themselves", "spouse", "husband", "wife"];

/// Whether a sentence refers to someone by such a word: its facts may name
/// people it does not.
pub fn refers_back(sentence: &str) -> bool {
    sentence.split(|c: char| !c.is_ascii_alphabetic()).any(|w| REFERRING.iter().any(|r| r.eq_ignore_ascii_case(w)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sentence_refers_back_by_pronoun_or_spouse() {
        assert!(refers_back("She gets one exemption of $2000.") && refers_back("Alice files a joint return with her spouse."));
        assert!(refers_back("Their son Charlie was born October 4th, 2004."));
        assert!(!refers_back("Alice and Charlie live in a home maintained by Alice since September 16th, 2017."));
        assert!(!refers_back("Shell paid Heather $200."), "whole words only");
    }

    #[test]
    fn first_names_in_any_case() {
        assert!(is_first_name("dan") && is_first_name("Priya"));
        assert!(!is_first_name("house") && !is_first_name("s"));
    }
}
