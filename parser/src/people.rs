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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_names_in_any_case() {
        assert!(is_first_name("dan") && is_first_name("Priya"));
        assert!(!is_first_name("house") && !is_first_name("s"));
    }
}
